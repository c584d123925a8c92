//! The transposition table: one entry per slot, shared by the search
//! threads without locks (each slot holds the key xor the data beside the
//! data, so a torn write reads as a miss), kept from move to move and from
//! game to game (an entry is a fact about a position, whatever game it
//! came from).
//!
//! The key is a hash of the two bitboards (side to move first): the side to
//! move and the ply follow from the bead counts, so the two bitboards are
//! the whole position.
//!
//! One entry per slot: a new position always replaces the old.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::search::Bound;

/// One entry as read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub value: i32,
    pub depth: i32,
    pub bound: Bound,
    /// The best (or cutting) move's cell, if any.
    pub cell: Option<u8>,
}

/// The splitmix64 finaliser.
#[inline]
fn mix(mut x: u64) -> u64 {
    x ^= x >> 30;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The key of a position: the mover's beads and the other side's.
#[inline]
pub fn key(me: u64, opp: u64) -> u64 {
    mix(me ^ 0x9e37_79b9_7f4a_7c15) ^ mix(opp).rotate_left(29)
}

/// The shared table.
pub struct Table {
    slots: Vec<[AtomicU64; 2]>,
    mask: u64,
}

const NO_CELL: u64 = 0x7F;

impl Table {
    /// A table of `2^bits` entries (16 bytes each), every page touched now
    /// so that no search pays for first touches.
    pub fn new(bits: u32) -> Self {
        let n = 1usize << bits;
        let slots: Vec<[AtomicU64; 2]> = (0..n)
            .map(|_| [AtomicU64::new(0), AtomicU64::new(0)])
            .collect();
        let table = Table {
            slots,
            mask: n as u64 - 1,
        };
        // The compiler makes the loop above a zeroed allocation, whose
        // pages the system maps only on first touch (in a search, between
        // two looks at the clock). Behind `black_box` it cannot know the
        // memory is zero, so these stores touch every page now.
        std::hint::black_box(&table).clear();
        table
    }

    /// Entries the table holds.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Forgets everything.
    pub fn clear(&self) {
        for s in &self.slots {
            s[0].store(0, Ordering::Relaxed);
            s[1].store(0, Ordering::Relaxed);
        }
    }

    fn pack(value: i32, depth: i32, bound: Bound, cell: Option<u8>) -> u64 {
        let b = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        let c = cell.map_or(NO_CELL, u64::from);
        (value as i16 as u16 as u64)
            | (depth.clamp(-1, 126) as i8 as u8 as u64) << 16
            | b << 24
            | c << 26
    }

    /// The entry in slot `i` if it holds `key`.
    #[inline]
    fn read(&self, i: usize, key: u64) -> Option<Entry> {
        let s = &self.slots[i];
        let check = s[0].load(Ordering::Relaxed);
        let data = s[1].load(Ordering::Relaxed);
        if check ^ data != key {
            return None;
        }
        Self::unpack(data)
    }

    fn unpack(data: u64) -> Option<Entry> {
        let bound = match (data >> 24) & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        let c = (data >> 26) & 0x7F;
        Some(Entry {
            value: data as u16 as i16 as i32,
            depth: (data >> 16) as u8 as i8 as i32,
            bound,
            cell: (c != NO_CELL).then_some(c as u8),
        })
    }

    /// The entry of `key`, if stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.read((key & self.mask) as usize, key)
    }

    /// Stores an entry: the same position's slot is replaced unless it
    /// holds it searched deeper (and the new entry is not exact); a new
    /// position takes its slot.
    #[inline]
    pub fn store(&self, key: u64, value: i32, depth: i32, bound: Bound, cell: Option<u8>) {
        let i = (key & self.mask) as usize;
        if let Some(old) = self.read(i, key) {
            if old.depth > depth && bound != Bound::Exact {
                return;
            }
        }
        let (s, data) = (&self.slots[i], Self::pack(value, depth, bound, cell));
        s[0].store(key ^ data, Ordering::Relaxed);
        s[1].store(data, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The resident bytes (`Rss`) of the mapping of this process that
    /// holds `addr`, from `/proc/self/smaps`.
    #[cfg(target_os = "linux")]
    fn resident_bytes_at(addr: usize) -> Option<usize> {
        let smaps = std::fs::read_to_string("/proc/self/smaps").ok()?;
        let mut inside = false;
        for line in smaps.lines() {
            let head = line.split_whitespace().next().unwrap_or("");
            if let Some((a, b)) = head.split_once('-') {
                if let (Ok(a), Ok(b)) = (usize::from_str_radix(a, 16), usize::from_str_radix(b, 16))
                {
                    inside = a <= addr && addr < b;
                    continue;
                }
            }
            if inside {
                if let Some(kb) = line.strip_prefix("Rss:") {
                    return kb
                        .trim()
                        .trim_end_matches("kB")
                        .trim()
                        .parse::<usize>()
                        .ok()
                        .map(|k| k * 1024);
                }
            }
        }
        None
    }

    /// The overshoot at short budgets: the table's memory came from a
    /// zeroed allocation (the compiler turns the zero-filling loop into
    /// one), so the system mapped its pages only when a search first
    /// touched them, and the first moves paid thousands of page faults
    /// between two looks at the clock. Every page must be resident once
    /// the table is built. Counted in bytes, not timed.
    #[cfg(target_os = "linux")]
    #[test]
    fn every_page_of_a_new_table_is_resident() {
        let t = Table::new(22); // 64 MiB
        let bytes = t.len() * 16;
        let addr = t.slots.as_ptr() as usize;
        let rss = resident_bytes_at(addr).expect("the table's mapping in /proc/self/smaps");
        assert!(rss >= bytes, "{rss} of {bytes} bytes resident");
    }

    #[test]
    fn entries_round_trip_and_other_keys_miss() {
        let t = Table::new(10);
        assert_eq!(t.len(), 1024);
        let k = key(0b1011, 0b0100 << 16);
        assert_eq!(t.probe(k), None);
        t.store(k, -9_950, 12, Bound::Lower, Some(63));
        assert_eq!(
            t.probe(k),
            Some(Entry {
                value: -9_950,
                depth: 12,
                bound: Bound::Lower,
                cell: Some(63)
            })
        );
        assert_eq!(t.probe(k ^ 1 << 40), None);
        // A shallower bound does not replace a deeper one; anything exact does.
        t.store(k, 5, 3, Bound::Upper, None);
        assert_eq!(t.probe(k).unwrap().depth, 12);
        t.store(k, 5, 3, Bound::Exact, None);
        assert_eq!(t.probe(k).unwrap().cell, None);
        t.clear();
        assert_eq!(t.probe(k), None);
    }

    #[test]
    fn swapping_the_sides_changes_the_key() {
        assert_ne!(key(1, 2), key(2, 1));
        assert_ne!(key(0, 0), key(0, 1));
    }
}
