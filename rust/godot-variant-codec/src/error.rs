//! Errors: where (byte offset) and what (kind), and the Godot `Error` the engine gives for the same input.

use crate::types::VariantType;

/// Godot's `Error` enum (`core/error/error_list.h`), the codes this codec can report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(i32)]
#[non_exhaustive]
pub enum GodotError {
    /// `OK`: no error (no error of this codec maps to it).
    Ok = 0,
    /// `ERR_UNAVAILABLE`: a script to write that is not a `res://` path.
    Unavailable = 2,
    /// `ERR_UNAUTHORIZED`: a whole object in the input while objects are not allowed.
    Unauthorized = 4,
    /// `ERR_OUT_OF_MEMORY`: nesting beyond the depth limit, or a frame over the maximum
    /// length.
    OutOfMemory = 6,
    /// `ERR_FILE_EOF`: a String running past the end of the input, or a stream that ends
    /// inside a frame (or cannot be read).
    FileEof = 18,
    /// `ERR_INVALID_DATA`: any other input that is not a valid value (in a stream, also
    /// a value serde cannot map).
    InvalidData = 30,
    /// `ERR_INVALID_PARAMETER`: a value the format cannot write (a length beyond `int`, a
    /// type the generation written has not).
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
    /// The input ends inside the item named (`"int"`, `"Vector3"`, `"Array count"`…);
    /// reported at the item's first byte.
    #[error("truncated {0}")]
    Truncated(&'static str),
    /// A text's length word announces more bytes (with their padding to 4) than the input
    /// has left, or more than `i32::MAX`; reported at the length word.
    #[error("String length {length} exceeds the remaining {remaining} bytes")]
    StringPastEnd {
        /// The length word.
        length: u32,
        /// The input's bytes after the length word.
        remaining: usize,
    },
    /// A text (after a leading BOM, up to its first NUL) that is not valid UTF-8;
    /// reported at its length word.
    #[error("invalid UTF-8 in String")]
    InvalidUtf8,
    /// A Godot 2 Image's format word (held here) is not below
    /// [`IMAGE_FORMAT_COUNT`](crate::godot2::IMAGE_FORMAT_COUNT); reported at that word.
    #[error("Godot 2 Image format {0} is not one of Godot 2's 23")]
    ImageFormat(u32),
    /// A header's type id (held here: its low byte, in Godot 2 the whole word) names no
    /// type of the generation read; reported at the header.
    #[error("unknown type id {0}")]
    UnknownType(u32),
    /// A typed container's built-in element (key, value) type id (held here) is no Godot 4
    /// type; reported at that id's word.
    #[error("unknown container element type id {0}")]
    UnknownContainerType(u32),
    /// A packed array's count announces more elements than the rest of the input holds, or
    /// more than `i32::MAX`; reported at the count word.
    #[error("{what} count {count} does not fit in the remaining {remaining} bytes")]
    CountPastEnd {
        /// The packed array's type.
        what: VariantType,
        /// The count word.
        count: u32,
        /// The input's bytes after the count word.
        remaining: usize,
    },
    /// A NodePath whose first word lacks the new-format bit: the obsolete string form,
    /// which the engine refuses too; reported at that word.
    #[error("NodePath in the obsolete string form")]
    ObsoleteNodePath,
    /// A value nested deeper than the `max_depth` held here (see
    /// [`DecodeOptions::max_depth`](crate::DecodeOptions::max_depth)); reported at its
    /// header.
    #[error("nesting deeper than {0}")]
    TooDeep(usize),
    /// A whole object while [`DecodeOptions::allow_objects`](crate::DecodeOptions) is
    /// off; reported at its header.
    #[error("encoded object, but objects are not allowed")]
    ObjectsNotAllowed,
    /// A script path (held here) that is not `res://` followed by more; reported at the
    /// path of a typed container's script type (only when objects are allowed: otherwise
    /// the type is [`ENCODED_OBJECT_AS_ID`](crate::ENCODED_OBJECT_AS_ID)), or at the
    /// value of a whole object's `script` property (Godot 4).
    #[error("invalid script path {0:?}")]
    InvalidScriptPath(String),
    /// A whole object's `script` property holds a value of the type held here, neither
    /// nil nor a String (Godot 4); reported at the value.
    #[error("\"script\" property is a {0}, not a String path")]
    ScriptNotAPath(VariantType),
}

/// A decoding failure: its kind and the byte offset (from the start of the input) where it was found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{kind} at byte {offset}")]
#[non_exhaustive]
pub struct DecodeError {
    /// Where the failure was found: a byte offset from the start of the input (of the
    /// larger buffer, for [`decode_at`](crate::decode_at)), never past its end.
    pub offset: usize,
    /// What went wrong.
    pub kind: DecodeErrorKind,
}

impl DecodeError {
    /// The failure `kind`, found at byte `offset`.
    pub fn new(offset: usize, kind: DecodeErrorKind) -> DecodeError {
        DecodeError { offset, kind }
    }

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
    /// A value nested deeper than the `max_depth` held here (see
    /// [`EncodeOptions::max_depth`](crate::EncodeOptions::max_depth)); reported where its
    /// header would go.
    #[error("nesting deeper than {0}")]
    TooDeep(usize),
    /// A length or count beyond the engine's `int` (`i32::MAX`), a NodePath of 2^31 names
    /// or more, or a frame body beyond its 32-bit prefix (`u32::MAX` bytes); reported where
    /// it would go (a frame body's: at the frame).
    #[error("{what} of length {len} is longer than the format can hold")]
    TooLong {
        /// Whose length it is: the value's type, or String for a text inside a value (a
        /// name, a class); for a frame body, its header's id read as a Godot 4 type.
        what: VariantType,
        /// The length: elements, or bytes for a text or a frame body.
        len: usize,
    },
    /// A script (a whole object's `script` property in Godot 4, a typed container's script
    /// type) whose path, held here, does not start with `res://`.
    #[error("script path {0:?} is not a res:// path")]
    InvalidScriptPath(String),
    /// A whole object's `script` property (Godot 4) holding a value of this type, neither
    /// nil nor a path: the engine writes a script as its path, and reads nothing else there.
    #[error("a script property holding a {0} is not a script path")]
    ScriptNotAPath(VariantType),
    /// A value the generation written cannot hold (a Vector2i for Godot 3, say), and where
    /// it sits in the value written: `[2]["pos"]` is the entry `"pos"` of the third element
    /// (empty for the value itself).
    #[error("{what}{} cannot be written in the {generation} format", at_path(path))]
    NotInGeneration {
        /// What cannot be written: a type's name, `int 4294967296`, `typed Array`,
        /// `whole object`…
        what: String,
        /// The generation written, by [`Generation::name`](crate::Generation::name).
        generation: &'static str,
        /// Where the value sits, as above (empty for the value itself).
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
#[doc(hidden)]
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
#[non_exhaustive]
pub struct EncodeError {
    /// Where the failing element would have gone: the output's length then (for
    /// [`encode_into`](crate::encode_into), counted from the start of its `out`).
    pub offset: usize,
    /// What went wrong.
    pub kind: EncodeErrorKind,
}

impl EncodeError {
    /// The failure `kind`, at byte `offset` of the output.
    pub fn new(offset: usize, kind: EncodeErrorKind) -> EncodeError {
        EncodeError { offset, kind }
    }

    /// The `Error` the engine's `encode_variant` returns in the same case (for a value
    /// the generation cannot hold, `ERR_INVALID_PARAMETER`).
    pub fn godot_error(&self) -> GodotError {
        match self.kind {
            EncodeErrorKind::TooDeep(_) => GodotError::OutOfMemory,
            EncodeErrorKind::TooLong { .. } | EncodeErrorKind::NotInGeneration { .. } => {
                GodotError::InvalidParameter
            }
            EncodeErrorKind::InvalidScriptPath(_) => GodotError::Unavailable,
            EncodeErrorKind::ScriptNotAPath(_) => GodotError::InvalidParameter,
        }
    }

    /// This error, found in element `index` of an Array (or packed array).
    #[cold]
    #[doc(hidden)]
    pub fn in_index(self, index: usize) -> Self {
        self.in_step(|| format!("[{index}]"))
    }

    /// This error, found under the Dictionary key `key`.
    #[cold]
    #[doc(hidden)]
    pub fn in_key(self, key: &PathKey) -> Self {
        self.in_step(|| format!("[{}]", key.0))
    }

    /// This error, found in a full object's property `name`.
    #[cold]
    #[doc(hidden)]
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
