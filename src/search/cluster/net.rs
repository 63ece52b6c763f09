//! The TCP side of a cluster: [`connect`] meets every other process before timely starts (each
//! pair greets with a magic number, its process index and the sweep's [`fingerprint`], so that
//! a stranger or a peer started with another config is refused), and [`Watched`] wraps the
//! sockets timely then reads and writes, so that a peer that falls silent longer than the peer
//! timeout is given up instead of waited for, and one that sends what timely must not read
//! (an invalid header, a message longer than the budget allows: see [`framing`](super::framing))
//! is refused before timely reads it.

use super::framing::Framing;
use super::{Cluster, Fault, fault};
use crate::limit::{Latch, Limit};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};
use timely::communication::allocator::zero_copy::stream::Stream;

/// A peer's socket as timely's network threads use it: a read or a write that waits longer
/// than the peer timeout fails, saying so, and the network thread's panic then reports the
/// peer lost (see [`install_panic_hook`](super::fault::install_panic_hook)). Every process sends
/// a heartbeat several times per second, so a socket silent that long is a peer that is
/// stopped, frozen or cut off. What is read is checked against timely's [`Framing`] first: a
/// read holding what timely must not see fails, the refusal recorded as the run's fault.
pub(super) struct Watched {
    stream: TcpStream,
    timeout: Duration,
    /// Who is at the other end, as the messages name it: `process 1 (10.0.0.2:4001)`.
    peer: String,
    framing: Framing,
}

impl Watched {
    pub(super) fn new(
        stream: TcpStream,
        timeout: Duration,
        peer: String,
        framing: Framing,
    ) -> std::io::Result<Watched> {
        stream.set_read_timeout(Some(timeout))?;
        stream.set_write_timeout(Some(timeout))?;
        Ok(Watched {
            stream,
            timeout,
            peer,
            framing,
        })
    }

    /// A timed-out read or write, said as what it means (`at`: where the stream stood).
    fn explain(&self, error: std::io::Error, what: &str, at: &str) -> std::io::Error {
        use std::io::ErrorKind::{TimedOut, WouldBlock};
        match error.kind() {
            WouldBlock | TimedOut => std::io::Error::new(
                TimedOut,
                format!(
                    "{what} for {}{at}",
                    humantime::format_duration(self.timeout)
                ),
            ),
            _ => error,
        }
    }
}

impl Read for Watched {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let read = match self.stream.read(buf) {
            Ok(read) => read,
            Err(e) => return Err(self.explain(e, "it sent nothing", &self.framing.progress())),
        };
        if let Err(what) = self.framing.check(&buf[..read]) {
            // Recorded here, in full, before timely's thread panics with less.
            let refused = format!("{} {what}", self.peer);
            fault::refuse(refused.clone());
            // The connection is over: the peer learns it at once.
            let _ = self.stream.shutdown(std::net::Shutdown::Both);
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                refused,
            ));
        }
        Ok(read)
    }
}

impl Write for Watched {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let written = self.stream.write(buf);
        written.map_err(|e| self.explain(e, "it took nothing", ""))
    }

    fn flush(&mut self) -> std::io::Result<()> {
        let flushed = self.stream.flush();
        flushed.map_err(|e| self.explain(e, "it took nothing", ""))
    }
}

impl Stream for Watched {
    fn try_clone(&self) -> std::io::Result<Self> {
        let stream = self.stream.try_clone()?;
        Ok(Watched {
            stream,
            timeout: self.timeout,
            peer: self.peer.clone(),
            framing: self.framing.clone(),
        })
    }

    fn set_nonblocking(&self, nonblocking: bool) -> std::io::Result<()> {
        self.stream.set_nonblocking(nonblocking)
    }

    fn shutdown(&self, how: std::net::Shutdown) -> std::io::Result<()> {
        self.stream.shutdown(how)
    }
}

/// FNV-1a over `values`: enough to tell two sweeps apart, not a defence against anyone.
pub(super) fn fingerprint(values: impl Iterator<Item = u64>) -> u64 {
    values.fold(0xcbf2_9ce4_8422_2325, |hash, v| {
        v.to_le_bytes()
            .iter()
            .fold(hash, |h, &b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3))
    })
}

/// Why the processes did not all meet.
pub(super) enum Failure {
    Fault(Fault),
    Limit(Limit),
}

/// The greeting both ends of a connection send: a magic number, the sender's process index and
/// the sweep's fingerprint.
const MAGIC: u64 = u64::from_be_bytes(*b"stspace1");

/// Connects this process with every other: listens on its own address, connects to the
/// processes before it (retrying while they start) and accepts the ones after, each greeted
/// and checked. The sockets come in process order, `None` for this one, as timely wants them.
pub(super) fn connect(
    cluster: &Cluster,
    fingerprint: u64,
    latch: &Latch,
) -> Result<Vec<Option<TcpStream>>, Failure> {
    let me = cluster.process;
    let fault = |message: String| Failure::Fault(Fault(message));
    let resolve = |p: usize| {
        let address = &cluster.addresses[p];
        address
            .to_socket_addrs()
            .ok()
            .and_then(|mut a| a.next())
            .ok_or_else(|| fault(format!("cannot resolve process {p}'s address {address}")))
    };
    let listener = TcpListener::bind(resolve(me)?)
        .and_then(|l| l.set_nonblocking(true).map(|()| l))
        .map_err(|e| fault(format!("cannot listen on {}: {e}", cluster.addresses[me])))?;
    let before: Vec<SocketAddr> = (0..me).map(resolve).collect::<Result<_, _>>()?;
    let mut sockets: Vec<Option<TcpStream>> = (0..cluster.processes()).map(|_| None).collect();
    let deadline = Instant::now() + cluster.connect_timeout;
    let greet = |mut stream: TcpStream,
                 expect: Option<usize>|
     -> Result<(usize, TcpStream), Failure> {
        let lost = |e: std::io::Error| fault(format!("greeting a peer process failed: {e}"));
        stream.set_nonblocking(false).map_err(lost)?;
        stream.set_nodelay(true).map_err(lost)?;
        stream
            .set_write_timeout(Some(cluster.connect_timeout))
            .map_err(lost)?;
        let mut hello = [0u8; 24];
        hello[..8].copy_from_slice(&MAGIC.to_be_bytes());
        hello[8..16].copy_from_slice(&(me as u64).to_be_bytes());
        hello[16..].copy_from_slice(&fingerprint.to_be_bytes());
        stream.write_all(&hello).map_err(lost)?;
        // Their greeting, a little at a time: the limits hold while a peer keeps us waiting.
        stream
            .set_read_timeout(Some(Duration::from_millis(50)))
            .map_err(lost)?;
        let mut theirs = [0u8; 24];
        let mut got = 0;
        while got < theirs.len() {
            match stream.read(&mut theirs[got..]) {
                Ok(0) => return Err(lost(std::io::ErrorKind::UnexpectedEof.into())),
                Ok(n) => got += n,
                Err(e) if matches!(e.kind(), WouldBlock | TimedOut | Interrupted) => {
                    latch.check().map_err(Failure::Limit)?;
                    if Instant::now() >= deadline {
                        return Err(lost(std::io::Error::new(
                            TimedOut,
                            format!(
                                "no greeting within {}",
                                humantime::format_duration(cluster.connect_timeout)
                            ),
                        )));
                    }
                }
                Err(e) => return Err(lost(e)),
            }
        }
        stream.set_read_timeout(None).map_err(lost)?;
        stream.set_write_timeout(None).map_err(lost)?;
        let field = |i: usize| u64::from_be_bytes(theirs[i * 8..][..8].try_into().unwrap());
        let from = || {
            stream
                .peer_addr()
                .map_or("a peer".into(), |a| a.to_string())
        };
        if field(0) != MAGIC {
            return Err(fault(format!(
                "{} sent what is not a statespace greeting: `{}`",
                from(),
                theirs.escape_ascii()
            )));
        }
        let peer = field(1) as usize;
        if expect.is_some_and(|p| p != peer) || peer >= cluster.processes() {
            return Err(fault(format!(
                "{} is not the statespace process the hostfile names",
                from()
            )));
        }
        if field(2) != fingerprint {
            return Err(fault(format!(
                "process {peer} runs another job (its config, start, --workers, --threads or --processes differ)"
            )));
        }
        Ok((peer, stream))
    };
    use std::io::ErrorKind::{Interrupted, TimedOut, WouldBlock};
    loop {
        latch.check().map_err(Failure::Limit)?;
        for (p, address) in before.iter().enumerate() {
            if sockets[p].is_none()
                && let Ok(stream) = TcpStream::connect_timeout(address, Duration::from_millis(200))
            {
                sockets[p] = Some(greet(stream, Some(p))?.1);
            }
        }
        loop {
            match listener.accept() {
                Ok((stream, _)) => {
                    let (peer, stream) = greet(stream, None)?;
                    if peer <= me || sockets[peer].is_some() {
                        return Err(fault(format!(
                            "process {peer} connected twice or out of turn"
                        )));
                    }
                    sockets[peer] = Some(stream);
                }
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
                Err(e) => return Err(fault(format!("accepting a peer process failed: {e}"))),
            }
        }
        let missing = (0..sockets.len()).find(|&p| p != me && sockets[p].is_none());
        let Some(missing) = missing else {
            return Ok(sockets);
        };
        if Instant::now() >= deadline {
            return Err(fault(format!(
                "process {missing} ({}) did not connect within {}",
                cluster.addresses[missing],
                humantime::format_duration(cluster.connect_timeout)
            )));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}
