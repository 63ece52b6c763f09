//! The server's startup and run: the instance built once, the start solved to build its
//! tables, the histogram's sweep in the background, the runtime, and Ctrl-C (see the module
//! docs of `serve`).

use super::app::App;
use super::neighbours::Hints;
use super::slots::Slots;
use super::{ServeArgs, api, page};
use crate::exit::Exit;
use crate::stdio::{stderr_line, write_stdout};
use statespace::config::Overrides;
use statespace::error::Error;
use statespace::instance::ExploreOptions;
use statespace::limit::Limits;
use statespace::registry::Registry;
use std::net::SocketAddr;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// A request's time limit when neither the config nor `--time-limit` sets one.
pub const DEFAULT_TIME_LIMIT: Duration = Duration::from_secs(10);

/// The time the histogram's sweep may take at startup (in the background).
const HISTOGRAM_TIME: Duration = Duration::from_secs(20);

/// Serves the config until Ctrl-C.
pub fn run(args: ServeArgs, registry: &Registry) -> Result<Exit, Error> {
    let config = args.config.load()?;
    let (mut limits, options) =
        (args.limits).apply(Some(&config), Overrides::default(), Limits::default())?;
    limits.time_limit = limits.time_limit.or(Some(DEFAULT_TIME_LIMIT));
    let solves = args.solves.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        usize::from,
    );
    limits.memory_budget /= solves as u64;
    let instance = args
        .config
        .build(registry, &config, &limits)?
        .with_cache(args.cache.cache());
    let mode = args.mode.resolve(&instance)?;
    instance.engine_for(mode, options.solutions)?;
    let start = config.start_board();
    if let Some(board) = &start {
        // Builds or loads the tables every request then shares; a limit here is no error.
        let began = Instant::now();
        let mut warm = limits.clone();
        warm.clock_start = Some(began);
        if let Ok(solution) = instance.solve(board, mode, &warm, &options) {
            stderr_line(&format!(
                "statespace serve: the start solved in {:.1?} ({})",
                began.elapsed(),
                solution.mode.name()
            ));
        }
    }
    let start = start.map(|board| {
        let key = if board.scramble { "scramble" } else { "board" };
        serde_json::json!({ key: board.text })
    });
    let page = page::html(instance.description());
    let app = Arc::new(App {
        instance,
        mode,
        limits,
        options,
        hints: Hints {
            mode,
            time: args.hint_time,
        },
        slots: Slots::new(solves),
        start,
        histogram: OnceLock::new(),
        page,
    });
    sweep_in_background(&app);
    serve(app, SocketAddr::new(args.bind, args.port))
}

/// Counts the states by distance in a background thread, when the puzzle has a distance table
/// (a space small enough to sweep): the page's histogram. Stopped by Ctrl-C and a time limit.
fn sweep_in_background(app: &Arc<App>) {
    let has_table = app
        .instance
        .engines()
        .iter()
        .any(|e| e.mode.name() == "table");
    if !has_table {
        let _ = app.histogram.set(serde_json::json!({
            "histogram": null,
            "why": "no distance table for this puzzle: its space is too large to count"
        }));
        return;
    }
    let app = app.clone();
    std::thread::spawn(move || {
        let mut limits = app.limits.clone();
        limits.interrupt = Some(app.slots.background_flag());
        limits.time_limit = Some(HISTOGRAM_TIME);
        limits.clock_start = Some(Instant::now());
        let options = ExploreOptions {
            limits,
            ..ExploreOptions::default()
        };
        let value = match app.instance.explore(None, &options, &mut |_, _| {}) {
            Ok(e) if e.stopped.is_none() => serde_json::json!({
                "histogram": e.histogram,
                "direction": e.direction,
                "farthest": e.farthest,
            }),
            Ok(e) => serde_json::json!({
                "histogram": null,
                "why": format!("the sweep stopped: {}", e.stopped.expect("stopped")),
            }),
            Err(e) => serde_json::json!({ "histogram": null, "why": e.to_string() }),
        };
        let _ = app.histogram.set(value);
    });
}

/// Listens on `address` until Ctrl-C.
fn serve(app: Arc<App>, address: SocketAddr) -> Result<Exit, Error> {
    let io = |source: std::io::Error| Error::Io {
        path: format!("--bind {address}"),
        source,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(io)?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(address).await.map_err(io)?;
        let local = listener.local_addr().map_err(io)?;
        write_stdout(&format!("statespace serve: http://{local}/\n"))?;
        let slots = app.slots.clone();
        let stopping = Arc::new(tokio::sync::Notify::new());
        let notify = stopping.clone();
        let server = axum::serve(listener, api::router(app)).with_graceful_shutdown(async move {
            let _ = tokio::signal::ctrl_c().await;
            stderr_line("statespace serve: stopping");
            slots.close();
            notify.notify_one();
        });
        // Searches stop within a poll; a connection that lingers past a second is not waited on.
        let deadline = async move {
            stopping.notified().await;
            tokio::time::sleep(Duration::from_secs(1)).await;
        };
        tokio::select! {
            served = server.into_future() => served.map_err(io)?,
            () = deadline => {}
        }
        Ok(Exit::Ok)
    })
}
