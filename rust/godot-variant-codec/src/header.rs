//! The 4-byte header in front of every value: type id in the low byte, flags above.

use crate::value::ContainerType;

/// Low byte: the type id. Byte 1 is unused; the engine ignores it and every unused flag.
pub const TYPE_MASK: u32 = 0xFF;
/// Math types, int, float, packed vector arrays: the value is in 64-bit form.
/// Object: the value is an instance id (same bit).
pub const FLAG_64: u32 = 1 << 16;
/// Array element type kind (bits 16-17); Dictionary key type kind (16-17).
pub const ELEMENT_KIND_SHIFT: u32 = 16;
/// Dictionary value type kind (bits 18-19).
pub const VALUE_KIND_SHIFT: u32 = 18;

/// How a typed container's element type is written after the header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContainerKind {
    Untyped = 0,
    Builtin = 1,
    ClassName = 2,
    Script = 3,
}

impl ContainerKind {
    pub fn from_header(header: u32, shift: u32) -> ContainerKind {
        match (header >> shift) & 0b11 {
            0 => ContainerKind::Untyped,
            1 => ContainerKind::Builtin,
            2 => ContainerKind::ClassName,
            _ => ContainerKind::Script,
        }
    }

    pub fn of(t: &ContainerType) -> ContainerKind {
        match t {
            ContainerType::Untyped => ContainerKind::Untyped,
            ContainerType::Builtin(_) => ContainerKind::Builtin,
            ContainerType::ClassName(_) => ContainerKind::ClassName,
            ContainerType::Script(_) => ContainerKind::Script,
        }
    }

    pub fn bits(self, shift: u32) -> u32 {
        (self as u32) << shift
    }
}
