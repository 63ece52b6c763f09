//! What a peer may send once timely has its socket: timely's framing, checked as the bytes
//! arrive ([`Framing`]), and the longest message the memory budget lets a peer announce
//! ([`message_cap`]).
//!
//! # Why
//!
//! Timely's receive thread reads a peer's stream into a buffer and carves messages out of it
//! by their headers (six big-endian `u64`s: channel, source worker, first and past-the-last
//! target worker, length of the body, sequence number; a length of 0 ends the stream). It
//! trusts what it reads: waiting for a message of the length a header announces, it doubles its
//! buffer for as long as bytes keep coming (a header announcing 2^40 bytes followed by 3 GB of
//! zeros took a process to 4.2 GB under `--memory 256MiB`); a target worker out of range panics
//! on an index; and garbage reads as a header announcing some huge message, which timely waits
//! for (a peer that sent 4 MB of garbage was reported as having "sent nothing").
//!
//! # How
//!
//! The sockets timely reads are ours ([`Watched`](super::net::Watched)), so every read passes
//! through a [`Framing`] before timely sees it: it follows the headers and bodies across reads
//! and refuses, before timely can act on it, a header that does not come from one of the
//! peer's workers, that is not for workers of this process, that announces more than the cap,
//! or any byte after the end of the stream. The refusal is one line naming the peer and what
//! it sent, the run's fault; the read fails, and timely's receive thread ends the run as for a
//! closed socket.
//!
//! Timely never waits for more than one message beyond the bytes it has carved, so with every
//! message at most `cap` long its buffer for a peer stays below twice `cap` (it doubles, from
//! 1 MiB; the buffer before, half the size, lives on while it is copied over). The cap is a
//! twelfth of the budget per peer: the receive buffers of all peers take at most a quarter of
//! the budget. It is never below the longest message this program sends ([`LARGEST_MESSAGE`],
//! 1.7 MiB), so that a small budget never refuses a real peer.
//!
//! # Trade-offs
//!
//! - A check in our reads rather than a relay of our own between the socket and timely: no
//!   second copy of the bytes, no thread or buffer per peer, and timely keeps its zero-copy
//!   path; the price is that it depends on timely's header layout, which a unit test pins
//!   against timely's own `MessageHeader` (a new timely version that changed it fails there).
//! - The cap bounds each message and so timely's buffer, not the messages workers have been
//!   handed and not yet read (they are read at the worker's next poll: at most about one layer's
//!   traffic from a real peer). A peer that frames well-formed messages is trusted with their
//!   contents: the greeting's fingerprint says it runs this sweep.
//! - The receive buffers' quarter is not taken out of what the bitsets may use: a sweep whose
//!   bitsets fit in the budget is not refused for its network, and a process's peak is its
//!   bitsets plus at most a quarter of its budget for messages being received (plus
//!   [`LARGEST_MESSAGE`] three times per peer when the budget is tiny).
//! - The channel of a message is not checked: timely numbers channels as it builds the dataflow,
//!   and stashes a message for a channel it does not know yet; a peer of this sweep uses the same
//!   numbers.

use super::expand::BATCH;
use super::wire::Message;
use crate::limit::human_bytes;
use crate::search::layers::CHUNK_WORDS;
use std::ops::Range;

/// Bytes of a header of timely_communication's framing (`networking::MessageHeader`).
const HEADER_BYTES: usize = 48;

/// The longest message this program sends, with room to spare: timely batches up to its default
/// capacity of [`Message`]s into one, the largest a block of [`CHUNK_WORDS`] words or a batch of
/// [`BATCH`] indices of up to 10 bytes each, beside bincode's lengths and timely's envelope
/// (under 64 bytes a message); doubled, and at least 1 MiB. 1.7 MiB: the largest message seen
/// in a run, a batch of 85 blocks of words, is 698,400 bytes.
pub(super) const LARGEST_MESSAGE: u64 = {
    let body = if 8 * CHUNK_WORDS > 10 * BATCH {
        8 * CHUNK_WORDS
    } else {
        10 * BATCH
    };
    let batch = timely::container::buffer::default_capacity::<Message>() * (body + 64);
    let doubled = 2 * batch as u64;
    if doubled > 1 << 20 { doubled } else { 1 << 20 }
};

/// The longest message a peer may announce under a memory budget of `budget` bytes with `peers`
/// other processes: a twelfth of the budget each, so that the buffers timely receives them in
/// (below twice the longest message, and the one before while it is copied) take a quarter of
/// it in all; never below [`LARGEST_MESSAGE`].
pub(super) fn message_cap(budget: u64, peers: usize) -> u64 {
    (budget / (12 * peers.max(1) as u64)).max(LARGEST_MESSAGE)
}

/// Where a peer's stream is in timely's framing, and what it may send: see the module docs.
#[derive(Clone, Debug)]
pub(super) struct Framing {
    /// The longest body a header may announce ([`message_cap`]).
    cap: u64,
    /// The memory budget the cap comes from, to say so.
    budget: u64,
    /// The peer's workers: every message comes from one of them.
    theirs: Range<u64>,
    /// This process's workers: every message is for some of them.
    mine: Range<u64>,
    /// The header being read, `filled` bytes of it so far.
    header: [u8; HEADER_BYTES],
    filled: usize,
    /// The body being read: its length, and the bytes of it still to come.
    body: u64,
    body_left: u64,
    /// The peer sent its end-of-stream header (length 0): nothing may follow.
    ended: bool,
    /// Bytes of headers and bodies checked and passed on, for the messages.
    passed: u64,
}

impl Framing {
    /// The framing of a stream from the process whose workers are `theirs` to the one whose
    /// workers are `mine`, its messages capped at `cap` bytes (from a budget of `budget`).
    pub(super) fn new(cap: u64, budget: u64, theirs: Range<u64>, mine: Range<u64>) -> Framing {
        Framing {
            cap,
            budget,
            theirs,
            mine,
            header: [0; HEADER_BYTES],
            filled: 0,
            body: 0,
            body_left: 0,
            ended: false,
            passed: 0,
        }
    }

    /// Follows `bytes`, the next the peer sent. `Err` with what it sent (to follow "process 1
    /// (ADDR) ") when they hold a header timely must not see, or come after the end of the
    /// stream; the stream is then not to be read further.
    pub(super) fn check(&mut self, mut bytes: &[u8]) -> Result<(), String> {
        while !bytes.is_empty() {
            if self.ended {
                return Err(format!(
                    "sent more after its end-of-stream header (after {} of messages)",
                    human_bytes(self.passed as u128)
                ));
            }
            if self.body_left > 0 {
                let take = self.body_left.min(bytes.len() as u64);
                self.body_left -= take;
                self.passed += take;
                bytes = &bytes[take as usize..];
                continue;
            }
            let take = (HEADER_BYTES - self.filled).min(bytes.len());
            self.header[self.filled..][..take].copy_from_slice(&bytes[..take]);
            self.filled += take;
            bytes = &bytes[take..];
            if self.filled == HEADER_BYTES {
                self.filled = 0;
                self.accept_header()?;
            }
        }
        Ok(())
    }

    /// Checks the header just read; starts its body.
    fn accept_header(&mut self) -> Result<(), String> {
        let field = |i: usize| u64::from_be_bytes(self.header[8 * i..][..8].try_into().unwrap());
        let (source, lower, upper, length) = (field(1), field(2), field(3), field(4));
        if length == 0 {
            self.ended = true;
            self.passed += HEADER_BYTES as u64;
            return Ok(());
        }
        let invalid = if !self.theirs.contains(&source) {
            Some(format!(
                "from worker {source}, while it has {}",
                workers(&self.theirs)
            ))
        } else if lower >= upper || lower < self.mine.start || upper > self.mine.end {
            Some(format!(
                "for workers {lower} up to {upper}, while this process has {}",
                workers(&self.mine)
            ))
        } else {
            None
        };
        if let Some(what) = invalid {
            return Err(format!(
                "sent an invalid message header after {} of valid messages ({what})",
                human_bytes(self.passed as u128)
            ));
        }
        if length > self.cap {
            return Err(format!(
                "announced a message of {} ({length} bytes), more than the {} a peer's message \
                 may take within the memory budget of {}",
                human_bytes(length as u128),
                human_bytes(self.cap as u128),
                human_bytes(self.budget as u128)
            ));
        }
        self.passed += HEADER_BYTES as u64;
        (self.body, self.body_left) = (length, length);
        Ok(())
    }

    /// Where the stream stopped, when that is part-way through a message: ", 1.0 MiB into a
    /// message of 16.0 MiB"; else nothing.
    pub(super) fn progress(&self) -> String {
        if self.body_left > 0 {
            format!(
                ", {} into a message of {}",
                human_bytes((self.body - self.body_left) as u128),
                human_bytes(self.body as u128)
            )
        } else if self.filled > 0 {
            format!(", {} bytes into a message header", self.filled)
        } else {
            String::new()
        }
    }
}

/// `worker 1`, `workers 2 to 3`: a process's workers, in a message.
fn workers(range: &Range<u64>) -> String {
    match range.end - range.start {
        1 => format!("worker {}", range.start),
        _ => format!("workers {} to {}", range.start, range.end - 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use timely::communication::networking::MessageHeader;

    /// Timely's own header, as timely writes it.
    fn header(source: usize, targets: Range<usize>, length: usize) -> Vec<u8> {
        let header = MessageHeader {
            channel: 3,
            source,
            target_lower: targets.start,
            target_upper: targets.end,
            length,
            seqno: 7,
        };
        let mut bytes = Vec::new();
        header.write_to(&mut bytes).unwrap();
        bytes
    }

    /// Process 1 of 2, two workers each, talking to process 0, messages capped at 1 KiB.
    fn from_one() -> Framing {
        Framing::new(1024, 8192, 2..4, 0..2)
    }

    #[test]
    fn timely_messages_pass_in_reads_of_any_size() {
        let mut stream = Vec::new();
        for (source, targets, length) in [(2, 0..1, 10), (3, 0..2, 1024), (2, 1..2, 1)] {
            stream.extend(header(source, targets, length));
            stream.extend(vec![0xab; length]);
        }
        stream.extend(header(0, 0..0, 0));
        assert_eq!(
            HEADER_BYTES,
            MessageHeader::try_read(&stream).unwrap().header_bytes()
        );
        for chunk in [1, 5, 47, 48, 49, 1000, stream.len()] {
            let mut framing = from_one();
            for piece in stream.chunks(chunk) {
                framing.check(piece).unwrap();
            }
            assert!(framing.ended, "{chunk}");
            assert_eq!(framing.passed, stream.len() as u64);
            // The end of the stream is the end.
            let after = framing.check(&[0]).unwrap_err();
            assert!(after.starts_with("sent more after its end-of-stream header"));
        }
    }

    #[test]
    fn a_header_over_the_cap_is_refused_before_its_body() {
        let mut framing = from_one();
        let refused = framing.check(&header(2, 0..1, 1 << 40)).unwrap_err();
        assert_eq!(
            refused,
            "announced a message of 1.0 TiB (1099511627776 bytes), more than the 1.0 KiB a \
             peer's message may take within the memory budget of 8.0 KiB"
        );
        // Split across reads, the header is refused by the read that completes it.
        let mut framing = from_one();
        let bytes = header(2, 0..1, 1025);
        framing.check(&bytes[..40]).unwrap();
        assert!(framing.check(&bytes[40..]).is_err());
    }

    #[test]
    fn headers_from_strangers_or_for_others_are_refused() {
        let refused = |source, targets: Range<usize>| {
            let mut framing = from_one();
            framing.check(&header(2, 0..1, 5)).unwrap();
            framing.check(&[0; 5]).unwrap();
            framing.check(&header(source, targets, 5)).unwrap_err()
        };
        assert_eq!(
            refused(1, 0..1),
            "sent an invalid message header after 53 B of valid messages (from worker 1, while \
             it has workers 2 to 3)"
        );
        let others = "while this process has workers 0 to 1";
        assert!(refused(2, 1..3).ends_with(&format!("(for workers 1 up to 3, {others})")));
        let alone = Framing::new(1024, 8192, 1..2, 0..1).check(&header(0, 0..1, 5));
        assert!(
            alone
                .unwrap_err()
                .ends_with("(from worker 0, while it has worker 1)")
        );
        assert!(refused(2, 1..1).contains(others));
        assert!(refused(2, 2..3).contains(others));
        // Garbage: its first 48 bytes are no header of this sweep's.
        let garbage: Vec<u8> = (0..4096u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        let said = from_one().check(&garbage).unwrap_err();
        assert!(
            said.starts_with("sent an invalid message header after 0 B"),
            "{said}"
        );
    }

    #[test]
    fn a_stream_cut_short_says_where() {
        let mut framing = from_one();
        assert_eq!(framing.progress(), "");
        framing.check(&header(2, 0..1, 1000)).unwrap();
        framing.check(&[1; 600]).unwrap();
        assert_eq!(framing.progress(), ", 600 B into a message of 1000 B");
        framing.check(&[1; 400]).unwrap();
        framing.check(&header(2, 0..1, 1000)[..10]).unwrap();
        assert_eq!(framing.progress(), ", 10 bytes into a message header");
    }

    #[test]
    fn the_cap_is_a_twelfth_of_the_budget_per_peer_and_fits_every_real_message() {
        assert_eq!(message_cap(12 << 30, 1), 1 << 30);
        assert_eq!(message_cap(12 << 30, 3), (12 << 30) / 36);
        assert_eq!(message_cap(1 << 20, 1), LARGEST_MESSAGE);
        // A full batch of the largest messages, as timely serializes it, fits twice.
        use super::super::wire::{Body, encode_indices};
        use timely::communication::Bytesable;
        let block = Body::Words {
            first: u64::MAX,
            words: vec![u64::MAX; CHUNK_WORDS],
        };
        // Indices as far apart as a batch's can be: 2^54 apart, 8 bytes each.
        let mut far: Vec<u64> = (0..BATCH as u64).map(|i| i << 54).collect();
        let far = Body::Indices(encode_indices(&mut far));
        let capacity = timely::container::buffer::default_capacity::<Message>();
        for body in [block, far] {
            let batch = vec![Message { to: 0, body }; capacity];
            let stamp = timely::progress::Stamp::from_elem(u64::MAX);
            let sent = timely::dataflow::channels::Message::new(stamp, batch);
            let bytes = sent.length_in_bytes() as u64;
            // Room to spare, not a bound so loose that a tiny budget means little.
            assert!(2 * bytes <= LARGEST_MESSAGE, "{capacity} x: {bytes}");
            assert!(LARGEST_MESSAGE < 3 * bytes, "{capacity} x: {bytes}");
        }
    }
}
