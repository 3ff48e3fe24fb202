//! The engine's memory layouts the binding relies on once a probe has checked them: where
//! each field lies, and the engine versions whose sources lay them out so.

/// A Variant's size in 64-bit words: its 32-bit type (then padding), then its value union
/// of four `real_t`s — 3 words in a single-precision build, 5 in a double-precision one
/// (gdext's `Variant` has the engine's size for the build's precision).
pub const VARIANT_WORDS: usize = std::mem::size_of::<godot::builtin::Variant>() / 8;

/// Where a Variant keeps its value, when the layout is known.
pub const VALUE_OFFSET: usize = 8;

/// A Dictionary's entries, when their layout is known: each is an element of the engine's
/// hash map, in a list in the dictionary's order, holding the next element's address, the
/// previous one's, then the key and the value (Variants). The offsets, in bytes:
pub const ENTRY_NEXT_OFFSET: usize = 0;
pub const ENTRY_PREV_OFFSET: usize = 8;
pub const ENTRY_KEY_OFFSET: usize = 16;
pub const ENTRY_VALUE_OFFSET: usize = ENTRY_KEY_OFFSET + VARIANT_WORDS * 8;

/// Where a Dictionary's list starts and its size lies: a Dictionary is one pointer to its
/// `DictionaryPrivate` (core/variant/dictionary.cpp: a 4-byte reference count, the
/// read-only scratch pointer, then the `HashMap`), and the map holds its slots' and
/// hashes' addresses, then the first and the last element's, then its capacity index and
/// its size (core/templates/hash_map.h). Offsets in the `DictionaryPrivate`, in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DictionaryBlock {
    pub head: usize,
    pub tail: usize,
    pub size: usize,
}

impl DictionaryBlock {
    /// The block of Godot `major.minor`, on the versions whose sources were read: 4.4's
    /// `HashMap` holds its allocator as a member before its slots (8 bytes more); from 4.5 it
    /// is an empty base (read in the 4.4.1 sources, in sources based on 4.5.2, in 4.6.3's, and
    /// in 4.7-dev's and 4.8-dev's, which bound 4.7). The entries (`ENTRY_*`) are laid out
    /// alike on all of these; on any other version neither is known.
    pub fn of_version(major: i64, minor: i64) -> Option<DictionaryBlock> {
        match (major, minor) {
            (4, 4) => Some(DictionaryBlock {
                head: 40,
                tail: 48,
                size: 60,
            }),
            (4, 5..=7) => Some(DictionaryBlock {
                head: 32,
                tail: 40,
                size: 52,
            }),
            _ => None,
        }
    }
}

/// `CowData` (core/templates/cowdata.h, Godot 4.6 on), the buffer of Strings and packed
/// arrays: a pointer to the data, preceded by a 32-byte header (see
/// [`cow_data`](crate::engine::cow_data)).
pub mod cow_data {
    /// Where the header words sit, counted back from the data, in bytes.
    pub const REF_COUNT_BEFORE: usize = 32;
    pub const CAPACITY_BEFORE: usize = 24;
    pub const SIZE_BEFORE: usize = 16;
    /// The padding word: written with the capacity too, so that whichever of the two words an
    /// engine takes for its capacity holds it.
    pub const PADDING_BEFORE: usize = 8;
    /// The header's size: the data's offset in the allocation.
    pub const DATA_OFFSET: usize = 32;

    /// Which 64-bit word of a packed array holds its data pointer (after the write proxy).
    pub const PACKED_POINTER_WORD: usize = 1;
}

/// A NodePath's data block (core/string/node_path.h and core/templates/vector.h, Godot 4.4
/// to 4.7; see [`node_path`](crate::engine::node_path)).
pub mod node_path {
    /// The engine versions whose sources lay a NodePath out as the offsets below say (read
    /// in 4.4.1's, 4.5.2-based, 4.6.3's, and 4.7-dev's and 4.8-dev's, which bound 4.7).
    pub const LAYOUT_VERSIONS: std::ops::RangeInclusive<(i64, i64)> = (4, 4)..=(4, 7);

    /// The size of a NodePath's data block.
    pub const DATA_SIZE: usize = 64;
    /// Where the block holds each field, in bytes.
    pub const REF_COUNT_AT: usize = 0;
    pub const NAMES_AT: usize = 8;
    pub const SUBNAMES_AT: usize = 24;
    pub const CONCATENATED_NAMES_AT: usize = 40;
    pub const CONCATENATED_SUBNAMES_AT: usize = 48;
    pub const ABSOLUTE_AT: usize = 56;
    pub const HASH_VALID_AT: usize = 57;
    /// Where a `Vector` holds its buffer pointer (after the write proxy), in bytes.
    pub const VECTOR_POINTER_AT: usize = 8;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The dictionary block by version: 4.4's map is 8 bytes longer before its list; 4.5 to
    /// 4.7 share one layout; no other version has one.
    #[test]
    fn dictionary_block_follows_the_version() {
        let at = |major, minor| DictionaryBlock::of_version(major, minor).map(|b| b.head);
        assert_eq!(at(4, 4), Some(40));
        for minor in 5..=7 {
            assert_eq!(at(4, minor), Some(32));
        }
        for (major, minor) in [(4, 3), (4, 8), (5, 0), (3, 6)] {
            assert_eq!(at(major, minor), None);
        }
        let block = DictionaryBlock::of_version(4, 4).unwrap();
        assert_eq!((block.tail, block.size), (48, 60));
    }
}
