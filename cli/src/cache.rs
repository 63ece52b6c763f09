//! `--cache-dir DIR` and `--no-cache`, on every command that builds distance tables (`solve`,
//! `judge`): where the tables are kept between runs (see [`statespace::cache`]).

use statespace::cache::TableCache;
use std::path::PathBuf;

#[derive(clap::Args, Clone, Debug, Default)]
pub struct CacheArgs {
    /// Keep the tables built in DIR (default: $XDG_CACHE_HOME/statespace, else
    /// ~/.cache/statespace).
    #[arg(long, value_name = "DIR")]
    cache_dir: Option<PathBuf>,
    /// Build every table afresh and save none.
    #[arg(long, conflicts_with = "cache_dir")]
    no_cache: bool,
}

impl CacheArgs {
    /// The cache these flags name; its warnings go to stderr, one line each.
    pub fn cache(&self) -> TableCache {
        TableCache::new(self.cache_dir.clone(), !self.no_cache, |warning| {
            super::stdio::stderr_line(&format!("statespace: warning: {warning}"))
        })
    }
}
