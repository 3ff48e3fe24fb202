//! What a failed call reports: the engine's `Error` for it and a message saying what and where.

use godot::global::Error;
use godot::obj::EngineEnum;
use godot_variant_codec::stream::FrameError;
use godot_variant_codec::{DecodeError, EncodeError, GodotError};

use crate::convert::to_variant::ToVariantError;
use crate::convert::variant_builder::{ReadError, ReadErrorKind};
use crate::convert::variant_writer::{ValueError, WriteError};
use crate::engine::parallel::PoolPanic;

#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    pub error: Error,
    pub message: String,
}

impl Failure {
    pub fn new(error: Error, message: impl Into<String>) -> Self {
        Failure {
            error,
            message: message.into(),
        }
    }

    /// The same failure, naming which element of a batch or stream it belongs to.
    pub fn of_element(self, index: usize) -> Self {
        Failure {
            error: self.error,
            message: format!("value {index}: {}", self.message),
        }
    }
}

fn engine_error(e: GodotError) -> Error {
    // The codec's codes are the engine's; FAILED only if the two enums ever drift apart.
    Error::try_from_ord(e.code()).unwrap_or(Error::FAILED)
}

impl From<EncodeError> for Failure {
    fn from(e: EncodeError) -> Self {
        Failure::new(engine_error(e.godot_error()), e.to_string())
    }
}

impl From<DecodeError> for Failure {
    fn from(e: DecodeError) -> Self {
        Failure::new(engine_error(e.godot_error()), e.to_string())
    }
}

impl From<FrameError> for Failure {
    fn from(e: FrameError) -> Self {
        Failure::new(engine_error(e.godot_error()), e.to_string())
    }
}

impl From<ValueError> for Failure {
    fn from(e: ValueError) -> Self {
        Failure::new(e.godot_error(), e.to_string())
    }
}

impl From<WriteError> for Failure {
    fn from(e: WriteError) -> Self {
        match e {
            WriteError::Format(e) => e.into(),
            WriteError::Value(e) => e.into(),
        }
    }
}

impl From<ReadError> for Failure {
    fn from(e: ReadError) -> Self {
        match e.into_kind() {
            ReadErrorKind::Format(e) => e.into(),
            ReadErrorKind::Value(e) => e.into(),
        }
    }
}

impl From<ToVariantError> for Failure {
    fn from(e: ToVariantError) -> Self {
        Failure::new(e.godot_error(), e.to_string())
    }
}

/// A bug: reported as the binding's `guarded` reports a panic on the calling thread.
impl From<PoolPanic> for Failure {
    fn from(e: PoolPanic) -> Self {
        Failure::new(
            Error::ERR_BUG,
            format!("internal error (please report): {e}"),
        )
    }
}

#[cfg(test)]
mod tests {
    use godot_variant_codec::{decode, DecodeOptions};

    use super::*;

    #[test]
    fn keeps_the_engines_code_and_the_byte() {
        let error = decode(&[4, 0, 0, 0, 9, 0, 0, 0, b'a'], &DecodeOptions::default()).unwrap_err();
        let failure = Failure::from(error).of_element(3);
        assert_eq!(failure.error, Error::ERR_FILE_EOF);
        assert!(
            failure.message.starts_with("value 3: "),
            "{}",
            failure.message
        );
        assert!(
            failure.message.ends_with("at byte 4"),
            "{}",
            failure.message
        );
    }
}
