//! Errors: where (byte offset) and what (kind), and the Godot `Error` the engine gives for the same input.

use crate::types::VariantType;

/// Godot's `Error` enum (`core/error/error_list.h`), the codes this codec can report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(i32)]
pub enum GodotError {
    Ok = 0,
    Unavailable = 2,
    Unauthorized = 4,
    OutOfMemory = 6,
    FileEof = 18,
    InvalidData = 30,
    InvalidParameter = 31,
}

impl GodotError {
    /// The numeric `Error` value, as GDScript sees it.
    pub fn code(self) -> i32 {
        self as i32
    }
}

/// What went wrong while decoding.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeErrorKind {
    #[error("truncated {0}")]
    Truncated(&'static str),
    #[error("String length {length} exceeds the remaining {remaining} bytes")]
    StringPastEnd { length: u32, remaining: usize },
    #[error("invalid UTF-8 in String")]
    InvalidUtf8,
    #[error("unknown type id {0}")]
    UnknownType(u32),
    #[error("unknown container element type id {0}")]
    UnknownContainerType(u32),
    #[error("{what} count {count} does not fit in the remaining {remaining} bytes")]
    CountPastEnd {
        what: VariantType,
        count: u32,
        remaining: usize,
    },
    #[error("NodePath in the obsolete string form")]
    ObsoleteNodePath,
    #[error("nesting deeper than {0}")]
    TooDeep(usize),
    #[error("encoded object, but objects are not allowed")]
    ObjectsNotAllowed,
    #[error("invalid script path {0:?}")]
    InvalidScriptPath(String),
    #[error("\"script\" property is a {0}, not a String path")]
    ScriptNotAPath(VariantType),
}

/// A decoding failure: its kind and the byte offset (from the start of the input) where it was found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{kind} at byte {offset}")]
pub struct DecodeError {
    pub offset: usize,
    pub kind: DecodeErrorKind,
}

impl DecodeError {
    /// The `Error` the engine's `decode_variant` returns for the same input.
    pub fn godot_error(&self) -> GodotError {
        use DecodeErrorKind as K;
        match self.kind {
            K::StringPastEnd { .. } => GodotError::FileEof,
            K::TooDeep(_) => GodotError::OutOfMemory,
            K::ObjectsNotAllowed => GodotError::Unauthorized,
            K::Truncated(_)
            | K::InvalidUtf8
            | K::UnknownType(_)
            | K::UnknownContainerType(_)
            | K::CountPastEnd { .. }
            | K::ObsoleteNodePath
            | K::InvalidScriptPath(_)
            | K::ScriptNotAPath(_) => GodotError::InvalidData,
        }
    }
}

/// What went wrong while encoding.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EncodeErrorKind {
    #[error("nesting deeper than {0}")]
    TooDeep(usize),
    #[error("{what} of {len} elements is longer than the format's 2^31 - 1")]
    TooLong { what: VariantType, len: usize },
    #[error("script path {0:?} is not a res:// path")]
    InvalidScriptPath(String),
}

/// An encoding failure, with the byte offset in the output where it happened.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{kind} at byte {offset}")]
pub struct EncodeError {
    pub offset: usize,
    pub kind: EncodeErrorKind,
}

impl EncodeError {
    /// The `Error` the engine's `encode_variant` returns in the same case.
    pub fn godot_error(&self) -> GodotError {
        match self.kind {
            EncodeErrorKind::TooDeep(_) => GodotError::OutOfMemory,
            EncodeErrorKind::TooLong { .. } => GodotError::InvalidParameter,
            EncodeErrorKind::InvalidScriptPath(_) => GodotError::Unavailable,
        }
    }
}
