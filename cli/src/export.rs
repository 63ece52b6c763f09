//! `statespace export CONFIG [--format dot|graphml|json|html] [--depth D] [--max-states N]
//! [--board FILE|-] [-o FILE]`: the state graph around the config's start board.
//!
//! Without `--format`, the format follows the `-o` file's extension (`.dot`/`.gv`, `.graphml`,
//! `.json`, `.html`/`.htm`), and is DOT otherwise.
//!
//! The graph is the BFS neighbourhood of the start (see [`statespace::graph`]): up to
//! `--max-states` states (default 10,000, at most 1,000,000) and, with `--depth`, no further than
//! that many moves; the whole reachable component when it fits. A cut is said in one line on
//! stderr, and the exit code stays 0: the file is what was asked for, only smaller.
//!
//! The HTML page ([`graph::to_html`]) is for a browser, which draws a few thousand boards
//! smoothly but not a million: it keeps 5,000 states by default and at most 20,000; a larger
//! `--max-states` is lowered to that, and the cut's note says it was the page's cap. Its boards
//! are drawn in the instance's [`BoardStyle`](statespace::picture::BoardStyle).
//!
//! With `-o FILE` the text goes to a temporary file beside FILE which is renamed onto FILE once
//! complete, so an error never leaves a half-written file (nor an old one clobbered); a device
//! or a FIFO is written through instead ([`AtomicOutput`]). The output is opened before the
//! graph is built, so an output path that cannot be written fails before any work.
//!
//! The graph's build polls no clock (an export has no time limit, only its sizes) and a cut
//! graph is no answer, so Ctrl-C exits at once, 130, the temporary file removed; a FIFO with no
//! reader is waited on until one comes or Ctrl-C.

use super::atomic_output::AtomicOutput;
use super::config_arg::ConfigArg;
use super::exit::Exit;
use super::limits::{FirstCtrlC, install_interrupt_handler, interruptible};
use super::progress::Progress;
use super::start::StartArgs;
use super::stdio::{stderr_line, write_stdout};
use indicatif::HumanCount;
use statespace::error::{Error, Location};
use statespace::graph::{
    self, DEFAULT_MAX_STATES, ExportLimits, HTML_DEFAULT_MAX_STATES, HTML_MAX_STATES,
    MAX_STATES_CAP,
};
use statespace::limit::Limits;
use statespace::registry::Registry;
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct ExportArgs {
    #[command(flatten)]
    config: ConfigArg,
    /// The output format (default: from the -o file's extension, .dot/.gv, .graphml, .json,
    /// .html; else dot).
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// Keep states at most this many moves from the start (default: no depth limit).
    #[arg(long, value_name = "D")]
    depth: Option<u32>,
    /// Keep at most this many states (1 to 1000000; default 10000; html: default 5000, at most
    /// 20000).
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..=MAX_STATES_CAP))]
    max_states: Option<u64>,
    #[command(flatten)]
    start: StartArgs,
    /// Memory budget, e.g. 4GiB (overrides `[search] memory`; default: half the physical memory).
    #[arg(long, value_name = "SIZE", value_parser = statespace::config::parse_bytes)]
    memory: Option<u64>,
    /// Write to FILE (atomically) instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Format {
    /// Graphviz DOT (render with `dot -Tsvg`).
    Dot,
    /// GraphML (Gephi, yEd, Cytoscape, networkx).
    Graphml,
    /// Node-link JSON (d3, networkx, Cytoscape).
    Json,
    /// A self-contained page for any browser, offline: boards as pictures, pan, zoom, search.
    Html,
}

pub fn run(args: ExportArgs, registry: &Registry) -> Result<Exit, Error> {
    let format = match (args.format, args.output.as_deref()) {
        (Some(format), _) => format,
        (None, None) => Format::Dot,
        (None, Some(path)) => Format::from_extension(path).ok_or_else(|| {
            Error::input(
                Location::file(path.display().to_string()).with_key("--format"),
                "cannot tell the format from this file name (.dot, .gv, .graphml, .json, .html): \
                 give --format dot|graphml|json|html",
            )
        })?,
    };
    // An export polls nothing and prints nothing when stopped: Ctrl-C exits at once, its
    // output's temporary file removed.
    install_interrupt_handler(FirstCtrlC::Exit);
    let config = args.config.load()?;
    let budget = match args.memory {
        Some(bytes) => bytes,
        None => config.limits(Limits::default())?.memory_budget,
    };
    // The puzzle's setup keeps to the export's memory budget too.
    let setup = Limits {
        memory_budget: budget,
        ..Limits::default()
    };
    let instance = args.config.build(registry, &config, &setup)?;
    let board = args.start.board(&config, budget)?;
    // No time limit: a FIFO is waited on until a reader comes, or Ctrl-C.
    let output = (args.output.as_deref())
        .map(|path| AtomicOutput::create(path, &interruptible()))
        .transpose()?;

    // The page's cap: a browser draws thousands of boards, not a million.
    let (max_states, page_cap) = match (format, args.max_states) {
        (Format::Html, requested) => {
            let n = requested.unwrap_or(HTML_DEFAULT_MAX_STATES);
            (n.min(HTML_MAX_STATES), n > HTML_MAX_STATES)
        }
        (_, requested) => (requested.unwrap_or(DEFAULT_MAX_STATES), false),
    };
    let limits = ExportLimits {
        max_depth: args.depth,
        max_states,
        memory_budget: budget,
    };
    let mut progress = Progress::new("export");
    let state_graph = instance.export(&board, &limits, &mut |depth, states| {
        progress.update(depth, states)
    })?;

    progress.note(&format!(
        "{} states, {} edges; writing {}",
        HumanCount(state_graph.node_count() as u64),
        HumanCount(state_graph.edge_count() as u64),
        format.name()
    ));
    let text = match format {
        Format::Dot => graph::to_dot(&state_graph),
        Format::Graphml => graph::to_graphml(&state_graph),
        Format::Json => graph::to_json(&state_graph),
        Format::Html => graph::to_html(&state_graph, instance.style(), instance.description()),
    };
    match output {
        Some(file) => file.commit(text.as_bytes())?,
        None => write_stdout(&text)?,
    }
    progress.finish();
    if let Some(cut @ graph::Cut::States(_)) = state_graph.cut
        && page_cap
    {
        stderr_line(&format!(
            "statespace: export: graph cut ({cut}: the html page takes at most {HTML_MAX_STATES} \
             states) at {} states and {} edges; goal distances left out (use --format json for \
             more)",
            state_graph.node_count(),
            state_graph.edge_count()
        ));
    } else if let Some(cut) = state_graph.cut {
        stderr_line(&format!(
            "statespace: export: graph cut ({cut}) at {} states and {} edges; \
             goal distances left out (raise --max-states or --depth for the whole component)",
            state_graph.node_count(),
            state_graph.edge_count()
        ));
    }
    Ok(Exit::Ok)
}

impl Format {
    fn name(self) -> &'static str {
        match self {
            Format::Dot => "dot",
            Format::Graphml => "graphml",
            Format::Json => "json",
            Format::Html => "html",
        }
    }

    fn from_extension(path: &Path) -> Option<Format> {
        match path.extension()?.to_str()? {
            "dot" | "gv" => Some(Format::Dot),
            "graphml" => Some(Format::Graphml),
            "json" => Some(Format::Json),
            "html" | "htm" => Some(Format::Html),
            _ => None,
        }
    }
}
