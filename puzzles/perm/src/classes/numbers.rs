//! The class numbers of a [`ClassPattern`](super::ClassPattern), as the table cache
//! stores them: a 32-bit word per place of the part told apart (its class, the rotation that
//! takes it to the class's representative, and whether that representative is symmetric),
//! two to a little-endian `u64`.
//!
//! The 3x3x3's 40,320 corner places are numbered in milliseconds; a part of more places (the
//! twelve edges' 479 M) takes longer, and the cache keeps it: read back (mapped, used where it
//! lies) it takes the check's one pass over the words and a thousand sampled images. What the
//! words must satisfy is checked by [`ClassPattern`](super::ClassPattern) (it knows
//! the rotations); this file knows only the layout:
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `SSCLASSN` |
//! | 4 | layout version (1) |
//! | 4 | rotations kept |
//! | 8 | states numbered |
//! | 8 | classes |
//! | 8 per word | the words, two states a word, the first in the low half |

use statespace::cache::{Payload, ReadError, Stored};
use statespace::limit::Latch;
use std::io::Write;

const MAGIC: [u8; 8] = *b"SSCLASSN";
const VERSION: u32 = 1;
const HEADER: usize = 32;

/// Not numbered yet (a build's starting value).
pub(crate) const UNSET: u32 = u32::MAX;

/// The class words of `len` states, built here or mapped from a cache file.
#[derive(Clone, Debug)]
pub(crate) struct ClassNumbers {
    words: Words,
    len: u64,
    /// The classes, as the header says (a build sets it when done).
    pub(crate) classes: u64,
    /// The rotations kept, as the header says.
    pub(crate) rotations: u32,
}

#[derive(Clone, Debug)]
enum Words {
    Built(Vec<u64>),
    /// The payload's words: checked to be aligned whole words when read.
    Mapped(Payload),
}

impl ClassNumbers {
    /// `len` states, none numbered.
    pub(crate) fn unset(len: u64, rotations: u32) -> ClassNumbers {
        ClassNumbers {
            words: Words::Built(vec![u64::MAX; len.div_ceil(2) as usize]),
            len,
            classes: 0,
            rotations,
        }
    }

    #[inline]
    fn words(&self) -> &[u64] {
        match &self.words {
            Words::Built(words) => words,
            Words::Mapped(payload) => payload.words().unwrap_or(&[]),
        }
    }

    /// The states numbered.
    pub(crate) fn len(&self) -> u64 {
        self.len
    }

    /// The word of state `a` (below [`len`](Self::len)).
    #[inline]
    pub(crate) fn get(&self, a: u64) -> u32 {
        (self.words()[(a / 2) as usize] >> (32 * (a % 2))) as u32
    }

    /// Sets the word of state `a` (a build's: the numbers are not mapped).
    pub(crate) fn set(&mut self, a: u64, word: u32) {
        if let Words::Built(words) = &mut self.words {
            let shift = 32 * (a % 2);
            let w = &mut words[(a / 2) as usize];
            *w = (*w & !(u64::from(u32::MAX) << shift)) | u64::from(word) << shift;
        }
    }

    /// The bytes the words take.
    pub(crate) fn bytes(&self) -> u64 {
        self.len.div_ceil(2) * 8
    }

    /// Whether the words are a mapping of a cache file.
    #[cfg(test)]
    pub(crate) fn is_mapped(&self) -> bool {
        matches!(&self.words, Words::Mapped(p) if p.is_mapped())
    }
}

impl Stored for ClassNumbers {
    fn serialized_len(&self) -> u64 {
        HEADER as u64 + self.bytes()
    }

    fn write_to(&self, out: &mut impl Write) -> std::io::Result<()> {
        let mut head = Vec::with_capacity(HEADER);
        head.extend_from_slice(&MAGIC);
        head.extend_from_slice(&VERSION.to_le_bytes());
        head.extend_from_slice(&self.rotations.to_le_bytes());
        head.extend_from_slice(&self.len.to_le_bytes());
        head.extend_from_slice(&self.classes.to_le_bytes());
        out.write_all(&head)?;
        let mut chunk = Vec::with_capacity(8 << 10);
        for words in self.words().chunks(1 << 10) {
            chunk.clear();
            for word in words {
                chunk.extend_from_slice(&word.to_le_bytes());
            }
            out.write_all(&chunk)?;
        }
        Ok(())
    }

    /// The header checked against the payload's length; the words used where they lie when
    /// aligned, else copied. What they say is checked by the class pattern.
    fn read_from(payload: &Payload, _: &Latch) -> Result<ClassNumbers, ReadError> {
        let bytes = payload.bytes();
        let field = |at: usize, n: usize| -> Result<&[u8], ReadError> {
            bytes
                .get(at..at + n)
                .ok_or_else(|| ReadError::from(format!("truncated at byte {at}")))
        };
        if field(0, 8)? != MAGIC {
            return Err("not class numbers (wrong magic bytes)".into());
        }
        let u32_at = |at| -> Result<u32, ReadError> {
            Ok(u32::from_le_bytes(
                field(at, 4)?.try_into().expect("4 bytes"),
            ))
        };
        let u64_at = |at| -> Result<u64, ReadError> {
            Ok(u64::from_le_bytes(
                field(at, 8)?.try_into().expect("8 bytes"),
            ))
        };
        let version = u32_at(8)?;
        if version != VERSION {
            return Err(format!("class numbers version {version}, expected {VERSION}").into());
        }
        let (rotations, len, classes) = (u32_at(12)?, u64_at(16)?, u64_at(24)?);
        let words = len.div_ceil(2);
        if (bytes.len() - HEADER) as u64 != words.saturating_mul(8) {
            return Err(format!(
                "{} bytes of words for {len} states (expected {})",
                bytes.len() - HEADER,
                words.saturating_mul(8)
            )
            .into());
        }
        let body = payload.slice(HEADER..bytes.len());
        let words = match body.words() {
            Some(_) => Words::Mapped(body),
            None => Words::Built(
                body.bytes()
                    .chunks_exact(8)
                    .map(|w| u64::from_le_bytes(w.try_into().expect("8 bytes")))
                    .collect(),
            ),
        };
        Ok(ClassNumbers {
            words,
            len,
            classes,
            rotations,
        })
    }
}
