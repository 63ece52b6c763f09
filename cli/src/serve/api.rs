//! The routes: the page and the JSON API it uses (documented for people in docs/serve.md).
//!
//! | route | answers |
//! |---|---|
//! | `GET /` | the page |
//! | `GET /api/puzzle` | the puzzle: `description`, `style` (how boards are drawn), `modes`, `mode`, `start` (`{"board": ...}`, `{"scramble": ...}` or `null`), `limits` |
//! | `POST /api/solve` | `{"board": TEXT}` or `{"scramble": MOVES}` (and `"mode"`): the object `solve --json` prints, made by the same code |
//! | `POST /api/moves` | `{"board": TEXT}` or `{"scramble": MOVES}` (and `"mode"`, `"hints": false`): the position (its board, as SVG too), its distance and its moves, each with its board, changed cells and distance (`neighbours`) |
//! | `GET /api/histogram` | the states by distance, when the puzzle has a table: `{"histogram": [...]}`, or `null` and `why`; `{"pending": true}` while the sweep runs |
//! | `GET /api/status` | `running` and `waiting` searches |
//!
//! Errors are `{"error": LINE}`, LINE the one-line reason the command line prints after
//! `statespace: error: `: 400 for a body that is not the JSON asked for or a board that does
//! not parse, 404 for an unknown path, 405 for a wrong method, 408 for a body that does not come
//! within `BODY_TIME` (10 s), 413 for a body past `MAX_BODY` (1 MiB),
//! 422 for work refused on a limit before it started (a table past the memory budget, a scramble
//! whose moves take the whole time limit), 503 when the queue is full or the server stopping,
//! 500 for a bug. A search stopped by its limits is no error: 200 and the answer `solve` gives
//! (`"outcome": "limit-reached"`, `"limit"`).

use super::app::App;
use super::neighbours;
use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::{Value, json};
use statespace::board_text::BoardText;
use statespace::config::Mode;
use statespace::error::{Error, Location};
use statespace::limit::{Limit, Limits};
use statespace_records::solution as record;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The largest request body: a board's text, or a scramble, with room to spare.
pub const MAX_BODY: usize = 1 << 20;

/// The time a request's body may take to come: a client that sends its headers and then
/// trickles (or withholds) the body holds a connection no longer.
pub const BODY_TIME: Duration = Duration::from_secs(10);

/// Where a request's board text is said to come from, in its error lines (`request:2: ...`).
const REQUEST: &str = "request";

/// What the page's response headers add: nothing may be fetched but from this server.
const PAGE_POLICY: &str = "default-src 'none'; script-src 'unsafe-inline'; \
    style-src 'unsafe-inline'; img-src data:; connect-src 'self'";

/// The routes over `app`.
pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/api/puzzle", get(puzzle))
        .route("/api/solve", post(solve))
        .route("/api/moves", post(moves))
        .route("/api/histogram", get(histogram))
        .route("/api/status", get(status))
        .fallback(not_found)
        .with_state(app)
}

/// A position as a request gives it, and the engine it asks for.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Position {
    board: Option<String>,
    scramble: Option<String>,
    mode: Option<String>,
    /// `/api/moves`: `false` leaves out the moves' distances (quicker: for steps not shown).
    hints: Option<bool>,
}

async fn page(State(app): State<Arc<App>>) -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CONTENT_SECURITY_POLICY, PAGE_POLICY),
        ],
        app.page.clone(),
    )
        .into_response()
}

async fn puzzle(State(app): State<Arc<App>>) -> Response {
    let instance = &app.instance;
    let limits = &app.limits;
    let body = json!({
        "description": instance.description(),
        "style": instance.style(),
        "modes": instance.modes().iter().map(|m| m.name()).collect::<Vec<_>>(),
        "mode": app.mode.name(),
        "start": app.start,
        "limits": {
            "time_limit": limits.time_limit.map(|t| t.as_secs_f64()),
            "max_depth": limits.max_depth,
            "max_states": limits.max_states,
            "memory": limits.memory_budget,
            "hint_time": app.hints.time.as_secs_f64(),
        },
    });
    (StatusCode::OK, axum::Json(body)).into_response()
}

async fn solve(State(app): State<Arc<App>>, body: Body) -> Response {
    let (board, mode, _) = match position(&app, body).await {
        Ok(position) => position,
        Err(refusal) => return refusal,
    };
    let shared = app.clone();
    in_slot(&app, move |limits| {
        let solution = (shared.instance).solve(&board, mode, &limits, &shared.options)?;
        Ok(record::json_value(&solution))
    })
    .await
}

async fn moves(State(app): State<Arc<App>>, body: Body) -> Response {
    let (board, mode, with_hints) = match position(&app, body).await {
        Ok(position) => position,
        Err(refusal) => return refusal,
    };
    let shared = app.clone();
    in_slot(&app, move |limits| {
        let hints = neighbours::Hints {
            mode,
            time: match with_hints {
                true => shared.hints.time,
                false => std::time::Duration::ZERO,
            },
        };
        let around =
            neighbours::neighbourhood(&shared.instance, &board, &limits, &shared.options, &hints)?;
        Ok(serde_json::to_value(around).expect("plain data serializes"))
    })
    .await
}

async fn histogram(State(app): State<Arc<App>>) -> Response {
    let body = app
        .histogram
        .get()
        .cloned()
        .unwrap_or_else(|| json!({ "pending": true }));
    (StatusCode::OK, axum::Json(body)).into_response()
}

async fn status(State(app): State<Arc<App>>) -> Response {
    let body = json!({ "running": app.slots.running(), "waiting": app.slots.waiting() });
    (StatusCode::OK, axum::Json(body)).into_response()
}

async fn not_found(uri: Uri) -> Response {
    refusal(
        StatusCode::NOT_FOUND,
        format!("no such path: {}", uri.path()),
    )
}

/// `{"error": line}` with `status`.
fn refusal(status: StatusCode, line: impl Into<String>) -> Response {
    (status, axum::Json(json!({ "error": line.into() }))).into_response()
}

/// A request's body, read whole within [`BODY_TIME`] and [`MAX_BODY`] bytes, or the response
/// that refuses it (408, 413, 400).
async fn read_body(body: Body) -> Result<Bytes, Response> {
    match tokio::time::timeout(BODY_TIME, axum::body::to_bytes(body, MAX_BODY)).await {
        Ok(Ok(bytes)) => Ok(bytes),
        Err(_) => Err(refusal(
            StatusCode::REQUEST_TIMEOUT,
            format!("{REQUEST}: the body did not come within {BODY_TIME:?}"),
        )),
        // http-body-util's `LengthLimitError`, which axum boxes: known by its message.
        Ok(Err(e)) if e.to_string().contains("length limit") => Err(refusal(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("{REQUEST}: the body is over {MAX_BODY} bytes"),
        )),
        Ok(Err(e)) => Err(refusal(
            StatusCode::BAD_REQUEST,
            format!("{REQUEST}: the body could not be read: {e}"),
        )),
    }
}

/// The board, mode and whether hints are asked (by default they are) of a request's body, or
/// the response that refuses it.
async fn position(app: &App, body: Body) -> Result<(BoardText, Mode, bool), Response> {
    let body = read_body(body).await?;
    let bad = |message: String| {
        let error = Error::input(Location::file(REQUEST), message);
        refusal(StatusCode::BAD_REQUEST, error.to_string())
    };
    let position: Position = serde_json::from_slice(&body).map_err(|e| {
        bad(format!(
            "expected a JSON object {{\"board\": TEXT}} or {{\"scramble\": MOVES}}: {e}"
        ))
    })?;
    let board = match (position.board, position.scramble) {
        (Some(text), None) => BoardText::from_file(REQUEST, text),
        (None, Some(moves)) => BoardText {
            scramble: true,
            ..BoardText::from_file(REQUEST, moves)
        },
        _ => return Err(bad("give one of \"board\" and \"scramble\"".into())),
    };
    let mode = match position.mode {
        Some(name) => (app.instance.mode_named(&name)).map_err(|e| {
            let error = Error::input(Location::file(REQUEST).with_key("mode"), e.to_string());
            refusal(StatusCode::BAD_REQUEST, error.to_string())
        })?,
        None => app.mode,
    };
    Ok((board, mode, position.hints.unwrap_or(true)))
}

/// Runs `work` in a solve slot, on the blocking pool, under the request's limits (its slot's
/// stop flag, its clock started now); the answer as JSON, or the error's status and line.
async fn in_slot<W>(app: &Arc<App>, work: W) -> Response
where
    W: FnOnce(Limits) -> Result<Value, Error> + Send + 'static,
{
    let (running, slot) = match app.slots.acquire().await {
        Ok(held) => held,
        Err(super::slots::NoSlot::Busy) => {
            return refusal(
                StatusCode::SERVICE_UNAVAILABLE,
                "busy: too many requests wait for a search; try again later",
            );
        }
        Err(super::slots::NoSlot::Closed) => {
            return refusal(StatusCode::SERVICE_UNAVAILABLE, "the server is stopping");
        }
    };
    let mut limits = app.limits.clone();
    limits.interrupt = Some(slot.flag());
    limits.clock_start = Some(Instant::now());
    let joined = tokio::task::spawn_blocking(move || {
        let _slot = slot;
        work(limits)
    })
    .await;
    running.finish();
    match joined {
        Ok(Ok(value)) => (StatusCode::OK, axum::Json(value)).into_response(),
        Ok(Err(error)) => {
            let status = match &error {
                Error::Limit {
                    limit: Limit::Interrupted,
                    ..
                } => StatusCode::SERVICE_UNAVAILABLE,
                Error::Limit { .. } => StatusCode::UNPROCESSABLE_ENTITY,
                _ => StatusCode::BAD_REQUEST,
            };
            refusal(status, error.to_string())
        }
        // The panic hook has printed the message and where.
        Err(_) => refusal(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal error (a bug: please report it)",
        ),
    }
}
