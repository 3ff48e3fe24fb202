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
#[non_exhaustive]
pub enum DecodeErrorKind {
    #[error("truncated {0}")]
    Truncated(&'static str),
    #[error("String length {length} exceeds the remaining {remaining} bytes")]
    StringPastEnd { length: u32, remaining: usize },
    #[error("invalid UTF-8 in String")]
    InvalidUtf8,
    #[error("Godot 2 Image format {0} is not one of Godot 2's 23")]
    ImageFormat(u32),
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
            | K::ImageFormat(_)
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
#[non_exhaustive]
pub enum EncodeErrorKind {
    #[error("nesting deeper than {0}")]
    TooDeep(usize),
    #[error("{what} of {len} elements is longer than the format's 2^31 - 1")]
    TooLong { what: VariantType, len: usize },
    #[error("script path {0:?} is not a res:// path")]
    InvalidScriptPath(String),
    /// A value the generation written cannot hold (a Vector2i for Godot 3, say), and where
    /// it sits in the value written: `[2]["pos"]` is the entry `"pos"` of the third element
    /// (empty for the value itself).
    #[error("{what}{} cannot be written in the {generation} format", at_path(path))]
    NotInGeneration {
        what: String,
        generation: &'static str,
        path: String,
    },
}

fn at_path(path: &str) -> String {
    if path.is_empty() {
        String::new()
    } else {
        format!(" at {path}")
    }
}

impl std::fmt::Display for PathKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A Dictionary key as an error's path shows it: a String or StringName quoted, an int as
/// it is, any other key by its type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathKey(String);

impl PathKey {
    /// The key `key` as a path step.
    pub fn of(key: &crate::Value) -> PathKey {
        use crate::Value;
        match key {
            Value::String(s) | Value::StringName(s) => PathKey::text(s),
            Value::Int(i) => PathKey::int(*i),
            other => PathKey::of_type(other.variant_type()),
        }
    }

    /// A String or StringName key.
    pub fn text(s: &str) -> PathKey {
        PathKey(format!("{s:?}"))
    }

    /// An int key.
    pub fn int(i: i64) -> PathKey {
        PathKey(i.to_string())
    }

    /// A key of any other type.
    pub fn of_type(t: VariantType) -> PathKey {
        PathKey(t.name().to_owned())
    }
}

/// An encoding failure, with the byte offset in the output where it happened.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{kind} at byte {offset}")]
pub struct EncodeError {
    pub offset: usize,
    pub kind: EncodeErrorKind,
}

impl EncodeError {
    /// The `Error` the engine's `encode_variant` returns in the same case (for a value
    /// the generation cannot hold, `ERR_INVALID_PARAMETER`).
    pub fn godot_error(&self) -> GodotError {
        match self.kind {
            EncodeErrorKind::TooDeep(_) => GodotError::OutOfMemory,
            EncodeErrorKind::TooLong { .. } | EncodeErrorKind::NotInGeneration { .. } => {
                GodotError::InvalidParameter
            }
            EncodeErrorKind::InvalidScriptPath(_) => GodotError::Unavailable,
        }
    }

    /// This error, found in element `index` of an Array (or packed array).
    #[cold]
    pub fn in_index(self, index: usize) -> Self {
        self.in_step(|| format!("[{index}]"))
    }

    /// This error, found under the Dictionary key `key`.
    #[cold]
    pub fn in_key(self, key: &PathKey) -> Self {
        self.in_step(|| format!("[{}]", key.0))
    }

    /// This error, found in a full object's property `name`.
    #[cold]
    pub fn in_property(self, name: &str) -> Self {
        self.in_step(|| format!(".{name}"))
    }

    fn in_step(mut self, step: impl FnOnce() -> String) -> Self {
        if let EncodeErrorKind::NotInGeneration { path, .. } = &mut self.kind {
            path.insert_str(0, &step());
        }
        self
    }
}
