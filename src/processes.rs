//! Where a run's work goes ([`Cluster`]): worker threads in this process, and the processes
//! taking part, each at a `host:port` of a hostfile, with the timeouts they keep. Data only: the
//! sweep and the search that run on a cluster are `search::cluster`'s; a module of its own so
//! that the options (`SearchOptions::cluster`) can carry one without depending on the engines.

use crate::error::{Error, Location};
use std::time::Duration;

/// How long processes wait for each other to connect unless told otherwise.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a peer may send nothing before it is given up for lost, unless told otherwise.
pub const DEFAULT_PEER_TIMEOUT: Duration = Duration::from_secs(30);

/// The shortest peer timeout allowed: several heartbeats must fit in it.
pub const MIN_PEER_TIMEOUT: Duration = Duration::from_secs(1);

/// Bytes a timely worker costs beside its bitsets: its thread, and a buffer for each channel to
/// every worker of the cluster. Measured on one process (peak resident memory of `explore
/// --workers W` on Flip 4 x 4, about 4 KiB per pair of workers and a little per thread: 34 MB
/// for 64 workers, 87 MB for 128, 302 MB for 256, 600 MB for 384), rounded up.
const WORKER_BYTES: u128 = 256 << 10;
const WORKER_PAIR_BYTES: u128 = 4 << 10;

/// Where a sweep or a search runs: worker threads in this process, and the processes taking
/// part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cluster {
    /// Worker threads in this process (at least 1); every process runs as many.
    pub workers: usize,
    /// This process's place in `addresses` (0 when there is one process).
    pub process: usize,
    /// `host:port` of every process in order, where each listens; empty for one process.
    pub addresses: Vec<String>,
    /// How long to wait for every peer to connect.
    pub connect_timeout: Duration,
    /// How long a peer may send nothing (heartbeats included) before the run gives it up and
    /// fails; at least [`MIN_PEER_TIMEOUT`].
    pub peer_timeout: Duration,
}

impl Cluster {
    /// `workers` threads in this process alone: no network.
    pub fn local(workers: usize) -> Cluster {
        Cluster {
            workers: workers.max(1),
            process: 0,
            addresses: Vec::new(),
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            peer_timeout: DEFAULT_PEER_TIMEOUT,
        }
    }

    /// `processes` processes of `workers` threads, this one the `process`-th, their addresses
    /// read from `hostfile` (named `file` in errors): one `host:port` per line, process `i` on
    /// line `i + 1`; blank lines at the end are ignored. Every inconsistency is one line naming
    /// the flag or the line.
    pub fn from_hostfile(
        workers: usize,
        processes: usize,
        process: usize,
        file: &str,
        hostfile: &str,
    ) -> crate::error::Result<Cluster> {
        if processes == 0 {
            return Err(Error::input(
                Location::flag("--processes"),
                "must be at least 1",
            ));
        }
        if process >= processes {
            return Err(Error::input(
                Location::flag("--process"),
                format!(
                    "{process} is out of range for --processes {processes} (0 to {})",
                    processes - 1
                ),
            ));
        }
        let lines: Vec<&str> = hostfile.trim_end().lines().map(str::trim).collect();
        let mut addresses = Vec::new();
        for (n, line) in lines.iter().enumerate() {
            let valid = line
                .rsplit_once(':')
                .is_some_and(|(host, port)| !host.is_empty() && port.parse::<u16>().is_ok());
            if !valid {
                return Err(Error::input(
                    Location::file(file).at_line(n + 1),
                    format!("expected host:port, found `{line}`"),
                ));
            }
            addresses.push(line.to_string());
        }
        if addresses.len() != processes {
            return Err(Error::input(
                Location::file(file),
                format!(
                    "{} addresses for --processes {processes}: give one line per process",
                    addresses.len()
                ),
            ));
        }
        Ok(Cluster {
            workers: workers.max(1),
            process,
            addresses,
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            peer_timeout: DEFAULT_PEER_TIMEOUT,
        })
    }

    /// The number of processes.
    pub fn processes(&self) -> usize {
        self.addresses.len().max(1)
    }

    /// The bytes this process's workers cost beside their bitsets (threads and channel buffers:
    /// about 4 KiB per pair of a local worker and any worker), counted against the memory
    /// budget before any of them starts: a thousand workers would take gigabytes.
    pub fn workers_bytes(&self) -> u128 {
        let local = self.workers.max(1) as u128;
        let all = local * self.processes() as u128;
        local * (WORKER_BYTES + all * WORKER_PAIR_BYTES)
    }
}
