//! Wild twists in the search state: the slots whose twist is set to 0 after every move when
//! the piece there is wild (twsearch's `?`, [`Definition::wild`]; see
//! [`tws`](crate::tws#wildcards) for what it means and what is refused with it).
//!
//! Cost: none without wildcards (the list is empty, and [`PermSpace`](crate::PermSpace)'s move
//! tests that once); with them, per move one pass over the slots of the orbits that have wild
//! pieces, a label read and a mask bit each.

use super::def::{ByteIndex, Definition};
use super::index::OrbitBytes;
use statespace::cache::fingerprint::Content;

/// The slots to zero and the wild labels' masks (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct WildTwists {
    /// Per slot of an orbit with wild pieces: its label byte, its orientation byte and the
    /// orbit's mask in `masks`.
    slots: Vec<(ByteIndex, ByteIndex, u16)>,
    /// Per orbit with wild pieces: the mask of its wild labels.
    masks: Vec<[u64; 4]>,
}

impl WildTwists {
    /// The wild twists of `def` laid out as `bytes` says
    /// ([`Packer::orbit_bytes`](crate::Packer::orbit_bytes)).
    pub fn new(def: &Definition, bytes: &OrbitBytes) -> WildTwists {
        let mut wild = WildTwists::default();
        for (o, &(labels, oris, slots)) in bytes.iter().enumerate() {
            let (Some(labels_wild), Some(oris)) = (def.wild.get(o), oris) else {
                continue;
            };
            if labels_wild.is_empty() {
                continue;
            }
            let mut mask = [0u64; 4];
            for &l in labels_wild {
                mask[usize::from(l / 64)] |= 1 << (l % 64);
            }
            // Fewer orbits than bytes, and bytes fit a `ByteIndex`.
            let m = wild.masks.len() as u16;
            wild.masks.push(mask);
            for slot in 0..slots {
                let (label, ori) = ((labels + slot) as ByteIndex, (oris + slot) as ByteIndex);
                wild.slots.push((label, ori, m));
            }
        }
        wild
    }

    /// True without wild pieces.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Sets the twist of every wild piece in `s` (a packed state) to 0.
    #[inline]
    pub fn apply<const N: usize>(&self, s: &mut [u8; N]) {
        for &(label, ori, m) in &self.slots {
            let l = s[usize::from(label) % N];
            if self.masks[usize::from(m)][usize::from(l / 64)] >> (l % 64) & 1 != 0 {
                s[usize::from(ori) % N] = 0;
            }
        }
    }

    /// Adds the wild slots to a space's description, only when there are some: the
    /// fingerprints of every other puzzle stay as they were.
    pub fn describe(&self, content: &mut Content) {
        if self.is_empty() {
            return;
        }
        content.str("wild").u64(self.masks.len() as u64);
        for &(label, ori, m) in &self.slots {
            content.u64(label.into()).u64(ori.into()).u64(m.into());
        }
        for mask in &self.masks {
            for &word in mask {
                content.u64(word);
            }
        }
    }
}
