//! Content fingerprints: the key a cache file is filed and checked under ([`Fingerprint`]), and
//! the hasher they are made with ([`Content`]).
//!
//! What goes into a distance table's fingerprint (the space's size, description, goals and a
//! probe of its moves, and how the table is built) is the table's business:
//! [`table::cached`](crate::search::table::cached) lists it. This module knows only the hash.

use super::sha256::Sha256;
use std::fmt;

/// A SHA-256 of what determines a table's contents; see the module docs.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Fingerprint(pub [u8; 32]);

impl Fingerprint {
    /// The 64 hexadecimal digits.
    pub fn hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }
}

impl fmt::Display for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.hex())
    }
}

impl fmt::Debug for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Fingerprint({})", self.hex())
    }
}

/// The hasher a fingerprint is made with: typed fields, each one tagged with its kind and, when
/// its length varies, prefixed with it, so that the bytes hashed determine the fields written.
///
/// A [`Describe`](crate::space::Describe) implementation writes its space's parameters into one:
///
/// ```
/// use statespace::cache::fingerprint::Content;
///
/// let mut a = Content::new("example");
/// a.u64(3).bytes(&[1, 2]).bytes(&[3]);
/// let mut b = Content::new("example");
/// b.u64(3).bytes(&[1]).bytes(&[2, 3]);
/// assert_ne!(a.finish(), b.finish()); // the same bytes, other fields
/// ```
pub struct Content {
    sha: Sha256,
}

impl Content {
    /// A hasher whose first field is `domain`: what is being fingerprinted.
    pub fn new(domain: &str) -> Content {
        let mut content = Content {
            sha: Sha256::default(),
        };
        content.str(domain);
        content
    }

    /// Adds an unsigned integer.
    pub fn u64(&mut self, value: u64) -> &mut Self {
        self.sha.update(b"u");
        self.sha.update(&value.to_le_bytes());
        self
    }

    /// Adds a run of bytes (its length first).
    pub fn bytes(&mut self, bytes: &[u8]) -> &mut Self {
        self.sha.update(b"b");
        self.sha.update(&(bytes.len() as u64).to_le_bytes());
        self.sha.update(bytes);
        self
    }

    /// Adds a string (its length first). For the structure of a description (`"moves"`), never
    /// for a name the user chose.
    pub fn str(&mut self, text: &str) -> &mut Self {
        self.sha.update(b"s");
        self.sha.update(&(text.len() as u64).to_le_bytes());
        self.sha.update(text.as_bytes());
        self
    }

    /// The fingerprint of everything added.
    pub fn finish(self) -> Fingerprint {
        Fingerprint(self.sha.finish())
    }
}
