//! The flags that put a command on several processes (`--processes P --process I --hostfile
//! FILE`, and the timeouts), shared by `explore` (the sweep's workers) and `solve` (IDA*):
//! [`ClusterArgs`], and the [`Cluster`] they describe.

use super::stdio::read_input;
use statespace::error::{Error, Location};
use statespace::search::cluster::{self, Cluster};
use std::time::Duration;

#[derive(clap::Args)]
pub struct ClusterArgs {
    /// Processes taking part, each started with its own --process (on this machine or others).
    #[arg(long, value_name = "P", requires_all = ["process", "hostfile"],
          value_parser = clap::value_parser!(u16).range(1..))]
    pub processes: Option<u16>,
    /// This process's index, 0 to P-1: it listens on that line of the hostfile. Process 0
    /// prints the result; the others print nothing on stdout.
    #[arg(long, value_name = "I", requires = "processes")]
    process: Option<u16>,
    /// A file of one host:port per line, process I on line I+1.
    #[arg(long, value_name = "FILE", requires = "processes")]
    hostfile: Option<String>,
    /// How long the processes wait for each other to connect (default 10s).
    #[arg(long, value_name = "DURATION", value_parser = statespace::config::parse_duration,
          requires = "processes")]
    connect_timeout: Option<Duration>,
    /// How long a peer process may send nothing before the run gives it up and fails (default
    /// 30s, at least 1s; every process sends a heartbeat five times a second).
    #[arg(long, value_name = "DURATION", value_parser = statespace::config::parse_duration,
          requires = "processes")]
    peer_timeout: Option<Duration>,
}

impl ClusterArgs {
    /// The processes the flags describe, each running `workers` timely workers (`None` without
    /// `--processes`); a build without the cluster refuses the flag in one line.
    pub fn cluster(&self, workers: usize) -> Result<Option<Cluster>, Error> {
        let (Some(processes), Some(process), Some(hostfile)) =
            (self.processes, self.process, &self.hostfile)
        else {
            return Ok(None);
        };
        if !cluster::BUILT {
            return Err(Error::input(
                Location::flag("--processes"),
                cluster::NOT_BUILT,
            ));
        }
        let text = read_input(hostfile)?;
        let mut cluster = Cluster::from_hostfile(
            workers,
            processes as usize,
            process as usize,
            hostfile,
            &text,
        )?;
        if let Some(timeout) = self.connect_timeout {
            cluster.connect_timeout = timeout;
        }
        if let Some(timeout) = self.peer_timeout {
            if timeout < cluster::MIN_PEER_TIMEOUT {
                return Err(Error::input(
                    Location::flag("--peer-timeout"),
                    format!(
                        "{} is too short: at least {}",
                        humantime::format_duration(timeout),
                        humantime::format_duration(cluster::MIN_PEER_TIMEOUT)
                    ),
                ));
            }
            cluster.peer_timeout = timeout;
        }
        Ok(Some(cluster))
    }
}
