//! `statespace solve CONFIG [--board FILE|-] [--scramble MOVES] [--boards FILE|-] [--scrambles FILE]
//! [--mode M] [--solutions N] [--threads N] [--json] [--svg FILE]`.
//!
//! CONFIG may be a definition file instead ([`ConfigArg`]); the start is `--board`, `--scramble`
//! or the config's `[start]` ([`StartArgs`]).
//!
//! `--boards FILE` solves every board in FILE (`-`: stdin) with one setup: the instance, its
//! distance table or pattern databases are built (or loaded) once. Boards are in the config's
//! board text, separated by blank lines, read one at a time ([`Boards`]), so memory does not
//! grow with the input. Text prints one block per board, headed `board N`, as it is answered;
//! `--json` prints one object per line (JSON Lines) with `index` (1-based) and the fields of a
//! single solve. A board that does not parse (or is not UTF-8, or is too long) is one line on
//! stderr naming its index and line, and the others still run; the exit code is then 2, else
//! the worst answer's (130 interrupted, 4 a limit, 3 `Impossible`, 0). Ctrl-C stops the batch
//! after the board it interrupts; a time limit counts per board; a closed stdout stops it at
//! once (exit 141, see [`super::exit::report`]). `--scrambles FILE` is the same for a file of
//! scrambles ([`super::scrambles`], read one at a time too): each answer also carries the
//! scramble's name (`board 2: TPERM`; `"name"` in JSON). A scramble is applied under its board's
//! limits, so one whose time runs out before its search is one line on stderr (exit 4) and the
//! batch goes on.
//!
//! `--solutions N` (or `[search] solutions`) gives the first N optimal solutions instead of one,
//! all of them when there are fewer: every solution of the optimal length, none longer (twsearch's
//! `-c N` goes on to longer ones; its `--alloptimal` is `--solutions` with a large N). Only the
//! engines that list solutions take it (`table`, `idastar`, `iddfs`; `auto` picks one of them);
//! another is refused in one line before any work. Text adds a numbered line per solution after
//! the first's boards; JSON adds `solutions` (the move lists, the first is `path`) and
//! `all_optimal` (fewer than N exist, so these are all). Each board of a batch gets its own.
//!
//! `--threads N` (or `[search] threads`) runs IDA* on N threads (`search::idastar`'s module
//! docs): the same answer and solution lists as on one thread, other node counts; the default is
//! 1, so the counts of a solve stay reproducible. The other engines run on one thread.
//!
//! `--svg FILE` also writes a picture of the answer ([`statespace::picture::solution_svg`]): the
//! boards start to goal, each move's changes highlighted and its label underneath; for
//! `Impossible`, the start board alone under that caption. It is written atomically where FILE
//! allows it ([`AtomicOutput`]: a temporary file beside FILE, renamed into place; a device or a
//! FIFO written through), opened before the search, so an unwritable path fails before any
//! work. When a limit stops the search, or the strip would be too large to draw,
//! nothing is written and stderr says so in one line: the exit code stays the answer's (4 for a
//! limit), since the text or JSON on stdout is still the answer.

use super::atomic_output::AtomicOutput;
use super::boards::Boards;
use super::cache::CacheArgs;
use super::cluster_args::ClusterArgs;
use super::config_arg::ConfigArg;
use super::exit::Exit;
use super::limits::LimitArgs;
use super::lines::item_cap;
use super::mode_arg::ModeArg;
use super::scrambles::Scrambles;
use super::start::StartArgs;
use super::stdio::{stderr_line, write_stdout};
use statespace::board_text::BoardText;
use statespace::config::{MAX_THREADS, Mode, Overrides};
use statespace::error::{Error, Location};
use statespace::instance::{Answer, Instance};
use statespace::limit::{Limit, Limits};
use statespace::options::SearchOptions;
use statespace::registry::Registry;
use statespace_records::solution as record;
use std::path::PathBuf;
use std::sync::Arc;

#[derive(clap::Args)]
pub struct SolveArgs {
    #[command(flatten)]
    config: ConfigArg,
    #[command(flatten)]
    start: StartArgs,
    #[command(flatten)]
    mode: ModeArg,
    /// Give the first N optimal solutions, all of them when there are fewer (overrides
    /// `[search] solutions`; default 1; engines table, idastar, iddfs).
    #[arg(long, value_name = "N")]
    solutions: Option<u64>,
    /// Search each IDA* iteration on N threads, 1 to 1024 (overrides `[search] threads`;
    /// default 1; the answer is the same, the node counts differ; other engines use one).
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u16).range(1..=MAX_THREADS as i64))]
    threads: Option<u16>,
    /// The states beam search keeps at each depth (overrides `[search] beam_width`; default
    /// 10000; wider finds shorter paths, slower).
    #[arg(long, value_name = "N")]
    beam_width: Option<u64>,
    #[command(flatten)]
    limits: LimitArgs,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Also write the solution as a strip of board pictures (SVG, atomically).
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Solve every board in FILE (`-` reads stdin), separated by blank lines, with one setup.
    #[arg(long, value_name = "FILE|-", conflicts_with_all = ["board", "scramble", "svg"])]
    boards: Option<String>,
    /// Solve every scramble in FILE (`-` reads stdin) with one setup: twsearch's `ScrambleAlg
    /// NAME ... End` blocks (a `.scr` file), or one scramble a line.
    #[arg(long, value_name = "FILE|-", conflicts_with_all = ["board", "scramble", "svg", "boards"])]
    scrambles: Option<String>,
    #[command(flatten)]
    cache: CacheArgs,
    #[command(flatten)]
    cluster: ClusterArgs,
}

pub fn run(args: SolveArgs, registry: &Registry) -> Result<Exit, Error> {
    let config = args.config.load()?;
    // The limits first: the clock and Ctrl-C cover the puzzle's setup too.
    let more = Overrides {
        solutions: args.solutions,
        threads: args.threads.map(u64::from),
        beam_width: args.beam_width,
        ..Overrides::default()
    };
    let (limits, mut options) = args.limits.resolve_with(Some(&config), more)?;
    options.cluster = args.cluster.cluster(1)?.map(Arc::new);
    // Only process 0 speaks: the others search their share and print nothing on stdout.
    let out = Out {
        json: args.json,
        prints: options.cluster.as_ref().is_none_or(|c| c.process == 0),
    };
    let instance = args
        .config
        .build(registry, &config, &limits)?
        .with_cache(args.cache.cache());
    let mode = args.mode.resolve(&instance)?;
    // An engine that gives one solution when more are asked: refused before any work.
    instance.engine_with(mode, &options)?;
    if let Some(path) = &args.boards {
        return boards_batch(&instance, mode, &limits, &options, path, out);
    }
    if let Some(path) = &args.scrambles {
        return scrambles_batch(&instance, mode, &limits, &options, path, out);
    }
    let board = args.start.board(&config, limits.memory_budget)?;
    let svg = (args.svg.as_deref())
        .filter(|_| out.prints)
        .map(|path| AtomicOutput::create(path, &limits))
        .transpose()?;
    let solution = instance.solve(&board, mode, &limits, &options)?;
    out.write(&match args.json {
        true => format!("{}\n", record::json(&solution)),
        false => record::text(&solution),
    })?;
    if let (Some(file), Some(path)) = (svg, args.svg.as_deref()) {
        match record::svg(instance.description(), instance.style(), &solution) {
            Ok(text) => file.commit(text.as_bytes())?,
            // Dropping `file` removes the temporary file: nothing is left behind.
            Err(why) => stderr_line(&format!(
                "statespace: solve: {} not written: {why}",
                path.display()
            )),
        }
    }
    Ok(exit_of(&solution.answer))
}

/// How answers are printed: as JSON or text, and whether at all (only process 0 of a cluster
/// prints).
#[derive(Clone, Copy)]
struct Out {
    json: bool,
    prints: bool,
}

impl Out {
    fn write(self, text: &str) -> Result<(), Error> {
        match self.prints {
            true => write_stdout(text),
            false => Ok(()),
        }
    }
}

fn exit_of(answer: &Answer) -> Exit {
    match answer {
        Answer::Solved { .. } => Exit::Ok,
        Answer::Unsolvable => Exit::Unsolvable,
        Answer::LimitReached(Limit::Interrupted) => Exit::Interrupted,
        Answer::LimitReached(_) => Exit::LimitReached,
    }
}

/// `--boards`: every board with one setup; see the module docs.
fn boards_batch(
    instance: &Instance,
    mode: Mode,
    limits: &Limits,
    options: &SearchOptions,
    path: &str,
    out: Out,
) -> Result<Exit, Error> {
    let (name, reader) = open_stream(path)?;
    let mut boards = Boards::new(reader, name, item_cap(limits.memory_budget));
    let mut next = || Ok(boards.next_board()?.map(|board| (None, board)));
    let (worst, count) = batch(instance, mode, (limits, options), &mut next, out)?;
    if count == 0 {
        return Err(Error::input(
            Location::file(name),
            "no boards: expected boards separated by blank lines",
        ));
    }
    Ok(worst)
}

/// `--scrambles`: every scramble of the file ([`Scrambles`], read one at a time as `--boards`
/// reads boards) with one setup, printed as `--boards` prints boards, with the scramble's name.
fn scrambles_batch(
    instance: &Instance,
    mode: Mode,
    limits: &Limits,
    options: &SearchOptions,
    path: &str,
    out: Out,
) -> Result<Exit, Error> {
    let (name, reader) = open_stream(path)?;
    let mut scrambles = Scrambles::new(reader, name, item_cap(limits.memory_budget));
    let mut next = || Ok(scrambles.next_scramble()?.map(|s| (Some(s.name), s.text)));
    let (worst, count) = batch(instance, mode, (limits, options), &mut next, out)?;
    if count == 0 {
        return Err(Error::input(
            Location::file(name),
            "no scrambles: expected ScrambleAlg NAME ... End blocks, or one scramble a line",
        ));
    }
    Ok(worst)
}

/// The file `path` (`-`: stdin) as a stream, with its name for messages.
fn open_stream(path: &str) -> Result<(&str, Box<dyn std::io::BufRead>), Error> {
    if path == "-" {
        return Ok(("<stdin>", Box::new(std::io::stdin().lock())));
    }
    let file = std::fs::File::open(path).map_err(|source| Error::Io {
        path: path.into(),
        source,
    })?;
    Ok((path, Box::new(std::io::BufReader::new(file))))
}

/// One item of a batch: its name, if it has one, and its text, or why it cannot be read.
type Item = (Option<String>, Result<BoardText, Error>);

/// Solves each item `next` gives, printing each answer as it comes (text blocks headed
/// `board N`, or JSON Lines with `index`, and `name` when the item has one); a bad item is one
/// line on stderr and the others still run. Returns the worst exit and the number of items.
fn batch(
    instance: &Instance,
    mode: Mode,
    (limits, options): (&Limits, &SearchOptions),
    next: &mut dyn FnMut() -> Result<Option<Item>, Error>,
    out: Out,
) -> Result<(Exit, usize), Error> {
    let mut worst = Exit::Ok;
    let rank = |exit: Exit| match exit {
        Exit::Ok => 0,
        Exit::Unsolvable => 1,
        Exit::LimitReached => 2,
        Exit::Interrupted => 3,
        _ => 4,
    };
    let mut count = 0;
    while let Some((name, board)) = next()? {
        count += 1;
        let mut limits = limits.clone();
        limits.clock_start = Some(std::time::Instant::now());
        let exit = match board.and_then(|board| instance.solve(&board, mode, &limits, options)) {
            Err(error @ Error::Input { .. }) => {
                stderr_line(&format!("statespace: error: {error}"));
                Exit::BadInput
            }
            // The item's own clock ran out before its search (a scramble of millions of moves
            // being applied): that item is undecided, the next gets a clock of its own.
            Err(
                error @ Error::Limit {
                    limit: Limit::Time(_),
                    ..
                },
            ) => {
                stderr_line(&format!("statespace: error: {error}"));
                Exit::LimitReached
            }
            Err(other) => return Err(other),
            Ok(solution) => {
                let text = if out.json {
                    let mut object = record::json_value(&solution);
                    let fields = object.as_object_mut().expect("an object");
                    fields.insert("index".into(), count.into());
                    if let Some(name) = &name {
                        fields.insert("name".into(), name.as_str().into());
                    }
                    format!("{object}\n")
                } else {
                    let heading = match &name {
                        Some(name) => format!("board {count}: {name}"),
                        None => format!("board {count}"),
                    };
                    format!("{heading}\n{}\n", record::text(&solution))
                };
                out.write(&text)?;
                exit_of(&solution.answer)
            }
        };
        if rank(exit) > rank(worst) {
            worst = exit;
        }
        if exit == Exit::Interrupted {
            break;
        }
    }
    Ok((worst, count))
}
