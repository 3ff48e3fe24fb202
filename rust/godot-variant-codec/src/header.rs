//! Layer: wire. Every constant and bit rule of the format's words, in one place.
//!
//! The 4-byte header in front of every value (little-endian):
//!
//! ```text
//!  31        20 19   18 17   16 15       8 7          0
//! +------------+-------+-------+----------+------------+
//! |   unused   | value | elem/ |  unused  |  type id   |
//! |            | kind  |  key  |          |            |
//! +------------+-------+-------+----------+------------+
//!                       \_ FLAG_64 (bit 16) for math types, int, float, packed
//!                          vector arrays (64-bit payload) and Object (instance id)
//! ```
//!
//! Bits 16-17 and 18-19 are a typed container's element (or key) and value kinds
//! ([`ContainerKind`]); the engine ignores unused bits. A [`Header`] answers every
//! question about a header word read; [`header_word`] makes one to write.
//!
//! A NodePath's first words follow its header: the name count with
//! [`NODE_PATH_NEW_FORMAT`] set, the subname count, then flags ([`NODE_PATH_ABSOLUTE`],
//! [`NODE_PATH_OBSOLETE_PROPERTY`]). Container counts use the low 31 bits ([`COUNT_MASK`]).

/// Low byte: the type id. Byte 1 is unused; the engine ignores it and every unused flag.
pub const TYPE_MASK: u32 = 0xFF;
/// Math types, int, float, packed vector arrays: the value is in 64-bit form.
/// Object: the value is an instance id (same bit).
pub const FLAG_64: u32 = 1 << 16;
/// Array element type kind (bits 16-17); Dictionary key type kind (16-17).
pub const ELEMENT_KIND_SHIFT: u32 = 16;
/// Dictionary value type kind (bits 18-19).
pub const VALUE_KIND_SHIFT: u32 = 18;

/// A NodePath's first word: set in the current layout (the obsolete one is a string).
pub const NODE_PATH_NEW_FORMAT: u32 = 0x8000_0000;
/// A NodePath's flags word: the path is absolute.
pub const NODE_PATH_ABSOLUTE: u32 = 1;
/// A NodePath's flags word: an obsolete property name follows the subnames (read as one
/// more subname).
pub const NODE_PATH_OBSOLETE_PROPERTY: u32 = 2;
/// An Array's or Dictionary's count word: the count is in the low 31 bits (the top bit is
/// a flag the engine ignores).
pub const COUNT_MASK: u32 = 0x7FFF_FFFF;

use crate::types::{Generation, VariantType};

/// A value's header: its type's wire id (in the generation written) and its flags.
#[inline]
pub fn header_word(wire_id: u32, flags: u32) -> u32 {
    wire_id | flags
}

/// How a typed container's element type is written after the header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContainerKind {
    /// Not typed: nothing follows the header for this type.
    Untyped = 0,
    /// A built-in type: its id follows, a 32-bit word.
    Builtin = 1,
    /// Objects of a native or global class: its name follows, a String.
    ClassName = 2,
    /// Objects of a script: its `res://` path follows, a String.
    Script = 3,
}

impl ContainerKind {
    /// The kind in the two bits of `header` from `shift` on ([`ELEMENT_KIND_SHIFT`],
    /// [`VALUE_KIND_SHIFT`]).
    pub fn from_header(header: u32, shift: u32) -> ContainerKind {
        match (header >> shift) & 0b11 {
            0 => ContainerKind::Untyped,
            1 => ContainerKind::Builtin,
            2 => ContainerKind::ClassName,
            _ => ContainerKind::Script,
        }
    }

    /// The header bits of this kind at `shift`.
    pub fn bits(self, shift: u32) -> u32 {
        (self as u32) << shift
    }
}

/// A header word as read: every test of its bits, by the rules of the generation read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header(u32);

impl Header {
    /// A typed container's kind bits: the element (or key) kind and the value kind.
    const KIND_BITS: u32 = 0b1111 << ELEMENT_KIND_SHIFT;

    /// The header whose little-endian word is `word`.
    #[inline(always)]
    pub const fn from_word(word: u32) -> Header {
        Header(word)
    }

    /// The whole word.
    #[inline(always)]
    pub const fn word(self) -> u32 {
        self.0
    }

    /// The type id: the low byte where the upper bits are flags (Godot 3 and 4); the whole
    /// word in Godot 2 (see [`Generation::has_header_flags`]), where a word with any other
    /// bit set names no type.
    #[inline(always)]
    pub fn type_id(self, generation: Generation) -> u32 {
        if generation.has_header_flags() {
            self.0 & TYPE_MASK
        } else {
            self.0
        }
    }

    /// Whether the header names the type `t` in `generation`: its type id (as the
    /// generation reads the header) is `t`'s wire id there.
    #[inline(always)]
    pub fn names_type(self, t: VariantType, generation: Generation) -> bool {
        generation
            .wire_id(t)
            .is_some_and(|id| self.type_id(generation) == id)
    }

    /// Whether [`FLAG_64`] is set: an int's or float's payload is 64 bits, a math type's or
    /// packed vector array's reals are (see [`wide_reals`](Self::wide_reals)), an Object
    /// is an instance id.
    #[inline(always)]
    pub const fn is_wide(self) -> bool {
        self.0 & FLAG_64 != 0
    }

    /// Whether a math type's or packed array's reals are 64-bit: the header
    /// [`is_wide`](Self::is_wide), where the generation has such reals.
    #[inline(always)]
    pub fn wide_reals(self, generation: Generation) -> bool {
        self.is_wide() && generation.has_wide_reals()
    }

    /// A container's element (or key, value) type kind, from the bits at `shift`
    /// ([`ELEMENT_KIND_SHIFT`], [`VALUE_KIND_SHIFT`]): before Godot 4 those bits mean
    /// nothing, and every container is untyped.
    #[inline(always)]
    pub fn container_kind(self, shift: u32, generation: Generation) -> ContainerKind {
        if generation.has_typed_containers() {
            ContainerKind::from_header(self.0, shift)
        } else {
            ContainerKind::Untyped
        }
    }

    /// Whether a container's element, key and value kinds are all
    /// [`Untyped`](ContainerKind::Untyped) (no kind bit set, or a generation without typed
    /// containers): no element type follows the header.
    #[inline(always)]
    pub fn is_untyped_container(self, generation: Generation) -> bool {
        self.0 & Self::KIND_BITS == 0 || !generation.has_typed_containers()
    }
}
