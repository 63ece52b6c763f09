//! `statespace serve CONFIG|FILE.tws [--port N] [--bind ADDR] [--solves N] [--hint-time T]
//! [--mode M] [LIMITS] [--cache-dir DIR|--no-cache]`: the puzzle in a browser, and a JSON API.
//!
//! # Overview
//!
//! The config is read and its instance built once, as `solve` builds them (`ConfigArg`,
//! `LimitArgs`, `CacheArgs`); the config's start is solved once before the server listens,
//! so the tables it needs (a distance table, pattern databases) are built or loaded from the
//! cache then, and every request shares them (the instance keeps them). The server prints its
//! address on stdout (`statespace serve: http://127.0.0.1:8080/`) and answers:
//!
//! | file | holds |
//! |---|---|
//! | `mod.rs` | the flags, and the refusal in a build without the feature |
//! | `server.rs` | the startup, the histogram's sweep, the runtime, Ctrl-C |
//! | `app.rs` | what every request reads: the instance, the limits, the slots, the page |
//! | `api.rs` | the routes: the page, `/api/puzzle`, `/api/solve`, `/api/moves`, `/api/histogram`, `/api/status`; status codes |
//! | `neighbours.rs` | a position's moves and their hints (how far each successor is) |
//! | `slots.rs` | the cap on concurrent searches, the queue, a search stopped when its client goes away |
//! | `page.rs`, `page/` | the page: HTML, script and style, d3 inlined |
//!
//! docs/serve.md documents the API for people; `api.rs` says each route's shape.
//!
//! # Choices and trade-offs
//!
//! - **axum on tokio.** The well-kept, widely used Rust HTTP stack (hyper underneath): request
//!   body limits, graceful shutdown and a dropped handler future on a client's disconnect come
//!   with it, and this last is what stops a search whose client went away. A blocking server
//!   (tiny_http) is fewer crates but would need a thread per connection and could not notice a
//!   client leaving mid-search. The cost, 30 crates more, is behind this crate's `serve`
//!   feature (on by default), so an outside plugin crate and the Python package do not pay it.
//! - **Searches off the runtime.** Engines are synchronous and CPU-bound: each runs on tokio's
//!   blocking pool, within a slot of `slots` (at most `--solves` at once, the rest queued),
//!   under the request's limits: the config's `[search]` keys and the flags, a time limit of
//!   `DEFAULT_TIME_LIMIT` (10 s) when neither sets one, and the memory budget shared among the slots.
//! - **Safe by default.** Loopback unless `--bind` says otherwise; a request names no file (a
//!   board or a scramble is text; the config is the command line's); bodies past `MAX_BODY`
//!   (1 MiB) are refused (413), and bodies that do not come within `BODY_TIME` (10 s) too (408).
//! - **One lock on a table.** The table engine keeps its table behind a lock, held while it
//!   builds: a request that needs a table another request is building waits for the build and
//!   cannot be stopped meanwhile. Solving the start before listening builds it first, so this
//!   happens only for a config without a start, on its first requests.
//! - **Ctrl-C** stops every running search (their slots' flags), lets the server answer what
//!   it has and stop within a second; the exit code is then 0: stopping is how a server ends.

#[cfg(feature = "serve")]
mod api;
#[cfg(feature = "serve")]
mod app;
#[cfg(feature = "serve")]
mod neighbours;
#[cfg(feature = "serve")]
mod page;
#[cfg(feature = "serve")]
mod server;
#[cfg(feature = "serve")]
mod slots;

use super::cache::CacheArgs;
use super::config_arg::ConfigArg;
use super::exit::Exit;
use super::limits::LimitArgs;
use super::mode_arg::ModeArg;
use statespace::config::parse_duration;
use statespace::error::Error;
use statespace::registry::Registry;
use std::net::{IpAddr, Ipv4Addr};
use std::time::Duration;

#[derive(clap::Args)]
#[cfg_attr(not(feature = "serve"), allow(dead_code))]
pub struct ServeArgs {
    #[command(flatten)]
    config: ConfigArg,
    /// The port to listen on (0: any free port; the address is printed).
    #[arg(long, value_name = "N", default_value_t = 8080)]
    port: u16,
    /// The address to listen on (default: 127.0.0.1, this machine only; 0.0.0.0 for every
    /// interface).
    #[arg(long, value_name = "ADDR", default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    bind: IpAddr,
    /// Searches run at once, the others queued (default: the number of CPUs).
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u16).range(1..=1024))]
    solves: Option<u16>,
    /// The time a position's hints (each move's distance) may take together.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration, default_value = "300ms")]
    hint_time: Duration,
    #[command(flatten)]
    mode: ModeArg,
    #[command(flatten)]
    limits: LimitArgs,
    #[command(flatten)]
    cache: CacheArgs,
}

/// Serves the config until Ctrl-C; see the module docs.
pub fn run(args: ServeArgs, registry: &Registry) -> Result<Exit, Error> {
    #[cfg(feature = "serve")]
    return server::run(args, registry);
    #[cfg(not(feature = "serve"))]
    {
        let _ = (args, registry);
        Err(Error::input(
            statespace::error::Location::command("serve"),
            "this statespace was built without the `serve` feature (cargo's --features serve)",
        ))
    }
}
