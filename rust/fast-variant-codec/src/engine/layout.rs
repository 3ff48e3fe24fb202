//! The engine's memory layouts the binding relies on once a probe has checked them: where
//! each field lies, and the engine versions whose sources lay them out so.

/// Where a Variant keeps its value, when the layout is known.
pub const VALUE_OFFSET: usize = 8;

/// A Dictionary's entries, when their layout is known: each is an element of the engine's
/// hash map, in a list in the dictionary's order, holding the next element's address, the
/// previous one's, then the key and the value (Variants). The offsets, in bytes:
pub const ENTRY_NEXT_OFFSET: usize = 0;
pub const ENTRY_PREV_OFFSET: usize = 8;
pub const ENTRY_KEY_OFFSET: usize = 16;
pub const ENTRY_VALUE_OFFSET: usize = 40;

/// Where that list starts: a Dictionary is one pointer to its `DictionaryPrivate`
/// (core/variant/dictionary.cpp: a 4-byte reference count, the read-only scratch pointer,
/// then the `HashMap`), and the map holds its slots' and hashes' addresses, then the first
/// and the last element's, then its capacity index and its size (core/templates/hash_map.h).
/// The offsets in `DictionaryPrivate`, in bytes:
pub const DICTIONARY_HEAD_OFFSET: usize = 32;
pub const DICTIONARY_TAIL_OFFSET: usize = 40;
pub const DICTIONARY_SIZE_OFFSET: usize = 52;

/// The engine versions whose sources lay a Dictionary's entries out as `ENTRY_*` say
/// (`HashMapElement` in core/templates/hash_map.h: next, prev, key, value): on these the
/// probe reads the words of an entry, which lie inside it; on any other it does not run.
pub const ENTRY_LAYOUT_VERSIONS: std::ops::RangeInclusive<(i64, i64)> = (4, 4)..=(4, 6);

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
/// to 4.6; see [`node_path`](crate::engine::node_path)).
pub mod node_path {
    /// The engine versions whose sources lay a NodePath out as the offsets below say.
    pub const LAYOUT_VERSIONS: std::ops::RangeInclusive<(i64, i64)> = (4, 4)..=(4, 6);

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
