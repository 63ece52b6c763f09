//! The command line's standard streams: results to stdout ([`write_stdout`]), one-line messages
//! to stderr ([`stderr_line`]), whole inputs from a file or stdin ([`read_input`]). Every
//! subcommand goes through these, so a closed pipe, a full stderr or a byte-order mark is
//! handled once.

use statespace::error::Error;

/// Writes `line` on stderr. A stderr that cannot take it (closed, a full pipe) is ignored: the
/// exit code still tells (`eprintln!` would panic). Every line the CLI writes to stderr goes
/// through here.
pub(crate) fn stderr_line(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// Writes a result to stdout. A reader that went away (`| head`) gives a `BrokenPipe` error,
/// which ends the run quietly (see [`report`](super::exit::report)): the rest of the output is not wanted, so there
/// is no point computing it.
pub(crate) fn write_stdout(text: &str) -> Result<(), Error> {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(|source| Error::Io {
            path: "<stdout>".into(),
            source,
        })
}

/// Reads a whole file, or stdin for `-`, without a leading byte-order mark.
pub(crate) fn read_input(path: &str) -> Result<String, Error> {
    use std::io::Read;
    let (name, read) = if path == "-" {
        let mut text = String::new();
        let read = std::io::stdin().read_to_string(&mut text).map(|_| text);
        ("<stdin>", read)
    } else {
        (path, std::fs::read_to_string(path))
    };
    let mut text = read.map_err(|source| Error::Io {
        path: name.to_string(),
        source,
    })?;
    let mark = text.len() - statespace::error::without_bom(&text).len();
    text.drain(..mark);
    Ok(text)
}
