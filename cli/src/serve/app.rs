//! What every request reads ([`App`]): made once when the server starts (`server.rs`), read
//! by the routes (`api.rs`), never changed but for the histogram, set once when its sweep ends.

use super::neighbours::Hints;
use super::slots::Slots;
use statespace::config::Mode;
use statespace::instance::Instance;
use statespace::limit::Limits;
use statespace::options::SearchOptions;
use std::sync::{Arc, OnceLock};

/// What every request reads: the instance, its limits and the slots.
pub struct App {
    pub(super) instance: Instance,
    pub(super) mode: Mode,
    /// A request's limits, but for its stop flag and clock, set when it gets a slot.
    pub(super) limits: Limits,
    pub(super) options: SearchOptions,
    pub(super) hints: Hints,
    pub(super) slots: Arc<Slots>,
    /// The config's start (`{"board": ...}`, `{"scramble": ...}`), if it has one.
    pub(super) start: Option<serde_json::Value>,
    /// The distances' histogram, once the background sweep is done.
    pub(super) histogram: OnceLock<serde_json::Value>,
    pub(super) page: String,
}
