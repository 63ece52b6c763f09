//! A search that runs in rounds on a cluster ([`Rounds`]): IDA*'s iterations, each split into
//! the same tasks in every process, each process searching its share.
//!
//! The search runs on the caller's threads; a timely worker in each process (the
//! *coordinator*, one per process) carries what the processes say to each other while it
//! does: a lowered cut-off (a goal found in task `k`: no process need search the tasks after
//! it) is sent to every process at once and lowered in each process's [`Rounds::cutoff`], which
//! the search's threads poll; a limit (time, Ctrl-C) is a halt to every process, as in the
//! sweep; heartbeats go out five times a second. At the end of a round each process hands its
//! [`RoundReport`] to [`Rounds::exchange`], which sends it to every process, closes the round
//! (a barrier: timely's progress tracking says every report has arrived) and returns all of
//! them in process order, so that every process takes the same decision from the same reports.
//!
//! Faults are the sweep's: a peer gone or silent past the peer timeout ends the run with a
//! [`Fault`] (and stops this process's search threads through the latch); a process that stopped
//! for a limit waits [`GRACE`] at most for the others at the end of the round.
//!
//! # Rounds on the wire
//!
//! Every report and cut-off carries its round. One barrier separates a round's exchange from
//! the next one's, so a peer can be a round ahead: it sees the barrier pass, searches the next
//! iteration and sends its next report while this process has not yet seen the barrier pass
//! (its coordinator busy or not scheduled; timely hands an operator a message as soon as it
//! arrives, whatever its time). Such a report is kept for its round ([`this_round`]), as a
//! cut-off of the next round is. Taken with the current round's, it would have given the
//! round two reports from one process (a path of the next threshold checked against this one:
//! "sent a path that does not reach a goal in 29 moves" on a 31-move board), and the next
//! round none. A report of any other round, a second report from a process, or a round that
//! closes without a process's report is a fault, one line naming the process: never an answer
//! taken from the wrong round.

use super::fault;
use super::launch::{Launched, launch};
use super::net::Failure;
use super::part::Part;
use super::plan::Plan;
use super::wire::Body;
pub(crate) use super::wire::RoundReport;
use super::worker::{Abandon, GRACE, HEARTBEAT, Node};
use super::{Cluster, Fault};
use crate::limit::{Latch, Limit, Limits};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

/// Why a search in rounds ended before its answer.
pub(crate) enum Halted {
    /// A peer was lost, refused, or never came.
    Fault(Fault),
    /// A limit, here or in a peer, and the peers did not all report within [`GRACE`].
    Limit(Limit),
}

/// What the caller tells the coordinator.
enum Order {
    Exchange(RoundReport),
    Finish,
}

/// The coordinator's answer to an [`Order::Exchange`].
type Reply = Result<Vec<RoundReport>, Abandon>;

/// A search in rounds on a cluster: see the module docs.
pub(crate) struct Rounds {
    cluster: Cluster,
    latch: Arc<Latch>,
    /// The current round's cut-off: the first task whose tasks after it need no search.
    cutoff: Arc<AtomicUsize>,
    orders: mpsc::Sender<Order>,
    replies: mpsc::Receiver<Reply>,
    launched: Launched<bool>,
    /// When this process first saw a limit while waiting for the coordinator.
    stopped_at: Option<Instant>,
}

impl Rounds {
    /// Connects the processes of `cluster` (each pair checking `fingerprint`, the search's) and
    /// starts this process's coordinator. `latch` is the search's: a peer's halt trips it, and a
    /// lost peer trips it too, so that the search's threads stop.
    pub(crate) fn start(
        cluster: &Cluster,
        limits: &Limits,
        latch: Arc<Latch>,
        fingerprint: u64,
    ) -> Result<Rounds, Halted> {
        let mut cluster = cluster.clone();
        cluster.workers = 1;
        let cutoff = Arc::new(AtomicUsize::new(usize::MAX));
        let (orders, inbox) = mpsc::channel();
        let (reply, replies) = mpsc::channel();
        // The body is `Fn`, called once here (one worker): what it moves in, it takes out.
        let once = Mutex::new(Some((inbox, reply)));
        let (body_cutoff, body_latch) = (cutoff.clone(), latch.clone());
        let addresses = cluster.addresses.clone();
        let body = move |worker: &mut timely::worker::Worker| {
            let (inbox, reply) = once.lock().unwrap_or_else(|e| e.into_inner()).take()?;
            coordinate(worker, &body_latch, &body_cutoff, &addresses, inbox, reply)
        };
        let launched =
            launch(&cluster, limits, &latch, fingerprint, body).map_err(|f| match f {
                Failure::Fault(fault) => Halted::Fault(fault),
                Failure::Limit(limit) => Halted::Limit(limit),
            })?;
        Ok(Rounds {
            cluster,
            latch,
            cutoff,
            orders,
            replies,
            launched,
            stopped_at: None,
        })
    }

    /// The current round's cut-off (`usize::MAX` at its start): the search's threads lower it
    /// when a task holds the goals asked for, and stop the tasks after it; the coordinator tells
    /// the peers, and lowers it for theirs.
    pub(crate) fn cutoff(&self) -> &AtomicUsize {
        &self.cutoff
    }

    /// Ends the round with this process's `report`: every process's, in process order, once all
    /// have come. The cut-off is then reset for the next round.
    pub(crate) fn exchange(&mut self, mut report: RoundReport) -> Result<Vec<RoundReport>, Halted> {
        report.from = self.cluster.process as u32;
        if self.orders.send(Order::Exchange(report)).is_err() {
            return Err(self.lost());
        }
        loop {
            match self.replies.recv_timeout(Duration::from_millis(50)) {
                Ok(Ok(reports)) => return Ok(reports),
                Ok(Err(Abandon::Limit)) => return Err(self.limit()),
                Ok(Err(Abandon::Fault)) | Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(self.lost());
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
            }
            if let Some(fault) = fault::take(&self.cluster) {
                return Err(Halted::Fault(fault));
            }
            // A coordinator that cannot even poll in time (far more threads than cores).
            if self.latch.check().is_err()
                && (self.stopped_at.get_or_insert_with(Instant::now)).elapsed() > GRACE + HEARTBEAT
            {
                return Err(self.limit());
            }
        }
    }

    /// Ends the search: the coordinator closes its side, and after a clean end this process
    /// waits for the connections to close in order (see [`Launched::shut_down`]).
    pub(crate) fn finish(mut self) -> Result<(), Fault> {
        let _ = self.orders.send(Order::Finish);
        loop {
            match self
                .launched
                .outcomes
                .recv_timeout(Duration::from_millis(50))
            {
                Ok(Some(true)) => break,
                // Left behind at a limit: the peers are not waited for.
                Ok(Some(false)) => return Ok(()),
                Ok(None) | Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(match self.lost() {
                        Halted::Fault(fault) => fault,
                        Halted::Limit(_) => unreachable!("lost() is a fault"),
                    });
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
            }
            if let Some(fault) = fault::take(&self.cluster) {
                return Err(fault);
            }
            if self.latch.check().is_err()
                && (self.stopped_at.get_or_insert_with(Instant::now)).elapsed() > GRACE + HEARTBEAT
            {
                return Ok(());
            }
        }
        (self.launched).shut_down(&self.cluster, &self.latch, &mut self.stopped_at)
    }

    /// The fault that ended the coordinator.
    fn lost(&self) -> Halted {
        std::thread::sleep(Duration::from_millis(50));
        Halted::Fault(
            fault::take(&self.cluster)
                .unwrap_or_else(|| Fault("the coordinator stopped without a result".into())),
        )
    }

    /// The limit that stopped the run.
    fn limit(&self) -> Halted {
        Halted::Limit(self.latch.reason().unwrap_or(Limit::Interrupted))
    }
}

/// The coordinator: relays cut-offs, halts and heartbeats while the search runs, and exchanges
/// the round reports when told (`addresses`: the processes', to name one in a fault). Its
/// outcome: whether it ended cleanly (`None`: the run failed).
fn coordinate(
    worker: &mut timely::worker::Worker,
    latch: &Latch,
    cutoff: &AtomicUsize,
    addresses: &[String],
    inbox: mpsc::Receiver<Order>,
    reply: mpsc::Sender<Reply>,
) -> Option<bool> {
    let processes = worker.peers();
    let me = worker.index();
    let mut node = Node::new(worker, Part::default(), Plan::new(0, processes), 1, latch);
    let mut round = 0u32;
    // The lowest cut-off the peers know of this round (theirs or ours).
    let mut known = usize::MAX;
    loop {
        if fault::aborted() {
            // The search's threads stop at their next poll; the caller reports the fault.
            latch.trip(Limit::Interrupted);
            return None;
        }
        node.poll();
        // The peers' cut-offs: this round's lowered here, a later round's kept for it (a peer
        // may start the next round first), an earlier round's dropped.
        let cutoffs = std::mem::take(&mut node.part.borrow_mut().cutoffs);
        for (r, task) in cutoffs {
            let task = usize::try_from(task).unwrap_or(usize::MAX);
            if r == round {
                cutoff.fetch_min(task, Relaxed);
                known = known.min(task);
            } else if r > round {
                node.part.borrow_mut().cutoffs.push((r, task as u64));
            }
        }
        let ours = cutoff.load(Relaxed);
        if ours < known {
            known = ours;
            for to in (0..processes).filter(|&p| p != me) {
                node.send(
                    to,
                    Body::Cutoff {
                        round,
                        task: ours as u64,
                    },
                );
            }
        }
        match inbox.try_recv() {
            Ok(Order::Exchange(mut report)) => {
                report.round = round;
                let all = node.exchange(Body::Round(Box::new(report)), |part| {
                    this_round(&mut part.rounds, round, processes)
                });
                let failed = match all {
                    Ok(Ok(all)) => {
                        round += 1;
                        known = usize::MAX;
                        cutoff.store(usize::MAX, Relaxed);
                        let _ = reply.send(Ok(all));
                        continue;
                    }
                    Ok(Err(foreign)) => {
                        fault::refuse(foreign.line(addresses));
                        Abandon::Fault
                    }
                    Err(abandon) => abandon,
                };
                let clean = match failed {
                    Abandon::Fault => None,
                    Abandon::Limit => Some(false),
                };
                let _ = reply.send(Err(failed));
                return clean;
            }
            Ok(Order::Finish) | Err(mpsc::TryRecvError::Disconnected) => break,
            Err(mpsc::TryRecvError::Empty) => {}
        }
        // Parks (woken by incoming messages) rather than spinning: the search has the cores.
        node.worker.step_or_park(Some(Duration::from_millis(1)));
    }
    match node.drain() {
        Ok(()) => Some(true),
        Err(Abandon::Limit) => Some(false),
        Err(Abandon::Fault) => None,
    }
}

/// A report that does not belong where it came: the process it names, and what it did.
#[derive(Debug, PartialEq)]
struct Foreign {
    process: usize,
    what: String,
}

impl Foreign {
    /// The fault's line, naming the process by its index and address.
    fn line(&self, addresses: &[String]) -> String {
        let address = addresses.get(self.process).map_or("?", String::as_str);
        format!("process {} ({address}) {}", self.process, self.what)
    }
}

/// Takes from `received` (every report that has come, in any order) the reports of `round`,
/// one per process of `processes`, in process order, once the round has closed. A report of
/// the next round stays in `received` for it: a peer that saw the round close first may have
/// sent it already (module docs). A report of another round, a process's second, one from a
/// process that is not one of them, or a process's missing is [`Foreign`].
fn this_round(
    received: &mut Vec<RoundReport>,
    round: u32,
    processes: usize,
) -> Result<Vec<RoundReport>, Foreign> {
    let (mut now, later): (Vec<_>, Vec<_>) = std::mem::take(received)
        .into_iter()
        .partition(|r| r.round == round);
    let foreign = |process: u32, what: String| Foreign {
        process: process as usize,
        what,
    };
    if let Some(r) = later.iter().find(|r| r.round != round.wrapping_add(1)) {
        let what = format!("sent a report of round {} in round {round}", r.round);
        return Err(foreign(r.from, what));
    }
    *received = later;
    now.sort_by_key(|r| r.from);
    if let Some(r) = now.iter().find(|r| r.from as usize >= processes) {
        let what = format!("sent a report, but there are {processes} processes");
        return Err(foreign(r.from, what));
    }
    if let Some(pair) = now.windows(2).find(|pair| pair[0].from == pair[1].from) {
        let what = format!("sent two reports of round {round}");
        return Err(foreign(pair[0].from, what));
    }
    if let Some(p) = (0..processes).find(|&p| now.get(p).is_none_or(|r| r.from as usize != p)) {
        let what = format!("closed round {round} without its report");
        return Err(foreign(p as u32, what));
    }
    Ok(now)
}

#[cfg(test)]
mod tests {
    use super::super::worker::STARVED;
    use super::*;
    use std::sync::atomic::Ordering::SeqCst;

    fn report(round: u32, from: u32) -> RoundReport {
        let mut report = RoundReport::default();
        (report.round, report.from) = (round, from);
        report
    }

    /// The rounds and senders of `reports`, in order.
    fn said(reports: &[RoundReport]) -> Vec<(u32, u32)> {
        reports.iter().map(|r| (r.round, r.from)).collect()
    }

    #[test]
    fn a_report_of_the_next_round_waits_for_it() {
        // Process 1 saw round 0 close first and already sent its report of round 1.
        let mut received = vec![report(1, 1), report(0, 1), report(0, 0)];
        let taken = this_round(&mut received, 0, 2).unwrap();
        assert_eq!(said(&taken), [(0, 0), (0, 1)]);
        assert_eq!(said(&received), [(1, 1)]);
        received.push(report(1, 0));
        assert_eq!(
            said(&this_round(&mut received, 1, 2).unwrap()),
            [(1, 0), (1, 1)]
        );
        assert!(received.is_empty());
    }

    #[test]
    fn a_report_of_another_round_or_one_too_many_or_too_few_is_foreign() {
        let foreign = |reports: Vec<RoundReport>| {
            let addresses = ["h:1".to_string(), "h:2".to_string()];
            this_round(&mut reports.clone(), 2, 2)
                .map(|taken| said(&taken))
                .map_err(|f| f.line(&addresses))
        };
        let expected = [
            (
                vec![report(2, 0), report(2, 1), report(1, 1)],
                "process 1 (h:2) sent a report of round 1 in round 2",
            ),
            (
                vec![report(2, 0), report(2, 1), report(4, 1)],
                "process 1 (h:2) sent a report of round 4 in round 2",
            ),
            (
                vec![report(2, 0), report(2, 1), report(2, 1)],
                "process 1 (h:2) sent two reports of round 2",
            ),
            (
                vec![report(2, 1)],
                "process 0 (h:1) closed round 2 without its report",
            ),
            (
                vec![report(2, 0), report(2, 5)],
                "process 5 (?) sent a report, but there are 2 processes",
            ),
        ];
        for (reports, line) in expected {
            assert_eq!(foreign(reports), Err(line.to_string()));
        }
    }

    /// Loopback addresses on `n` ports free a moment ago.
    fn loopback(n: usize) -> Vec<String> {
        let listeners: Vec<_> = (0..n)
            .map(|_| std::net::TcpListener::bind("127.0.0.1:0").unwrap())
            .collect();
        (listeners.iter())
            .map(|l| l.local_addr().unwrap().to_string())
            .collect()
    }

    #[test]
    fn a_peer_a_round_ahead_is_not_taken_for_this_round() {
        // Process 0's coordinator is starved at every barrier: by the time it sees a round
        // close, process 1 has seen it close, searched the next round and sent that round's
        // report (before the fix, process 0 took it for this round's: [10, 11, 21], then [20]).
        let addresses = loopback(2);
        let run = |process: usize| {
            let cluster = Cluster {
                workers: 1,
                process,
                addresses: addresses.clone(),
                connect_timeout: Duration::from_secs(20),
                peer_timeout: Duration::from_secs(20),
            };
            std::thread::spawn(move || {
                let limits = Limits::default();
                let latch = Arc::new(Latch::new(&limits));
                if process == 0 {
                    STARVED.store(Arc::as_ptr(&latch) as usize, SeqCst);
                }
                let started = Rounds::start(&cluster, &limits, latch.clone(), 7);
                let mut rounds = started.ok().expect("the processes meet");
                let mut seen = Vec::new();
                for round in 0..3u32 {
                    if process == 1 && round == 0 {
                        // Process 0 waits at the barrier first.
                        std::thread::sleep(Duration::from_millis(100));
                    }
                    let mut report = RoundReport::default();
                    report.next_bound = 10 * round + process as u32;
                    let reports = rounds.exchange(report).ok().expect("a round");
                    seen.push(reports.iter().map(|r| r.next_bound).collect::<Vec<_>>());
                }
                rounds.finish().unwrap();
                if process == 0 {
                    STARVED.store(0, SeqCst);
                }
                seen
            })
        };
        let (zero, one) = (run(0), run(1));
        let expected = [[0, 1], [10, 11], [20, 21]];
        assert_eq!(zero.join().unwrap(), expected);
        assert_eq!(one.join().unwrap(), expected);
    }
}
