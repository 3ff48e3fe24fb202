//! Length-prefixed values, as `FileAccess.store_var` and `StreamPeer.put_var` write them:
//! a 32-bit little-endian byte count, then the value's bytes.

use crate::error::{DecodeError, EncodeError, EncodeErrorKind, GodotError};
use crate::types::VariantType;
use crate::wire::Sink;
use crate::{decode_at, encode_into, encoded_size, DecodeOptions, EncodeOptions, Value};

/// Length of a frame's prefix: the body's byte count, 32 bits little-endian.
pub const PREFIX_LEN: usize = 4;
const PREFIX: usize = PREFIX_LEN;

/// Appends one framed value to `out`. On error, `out` is left as it was.
pub fn encode_frame(
    value: &Value,
    out: &mut Vec<u8>,
    opts: &EncodeOptions,
) -> Result<(), EncodeError> {
    let size = encoded_size(value, opts)?;
    out.reserve(PREFIX.saturating_add(size));
    frame_into(out, |out| encode_into(value, out, opts))
}

/// Appends one frame to `out` whose body `write_body` appends (a value's bytes, however
/// made: [`encode_into`], serde's `encode_into`…): the prefix is written first and set to
/// the body's length once it is known. On error (the body's, or a body longer than the
/// prefix can count, `EncodeErrorKind::TooLong`), `out` is left as it was.
pub fn frame_into<E: From<EncodeError>>(
    out: &mut Vec<u8>,
    write_body: impl FnOnce(&mut Vec<u8>) -> Result<(), E>,
) -> Result<(), E> {
    let start = out.len();
    out.put(0u32);
    if let Err(e) = write_body(out) {
        out.truncate(start);
        return Err(e);
    }
    let len = out.len() - start - PREFIX;
    match frame_prefix(start, len, out[start + PREFIX]) {
        Ok(prefix) => {
            out[start..start + PREFIX].copy_from_slice(&prefix);
            Ok(())
        }
        Err(e) => {
            out.truncate(start);
            Err(e.into())
        }
    }
}

/// The prefix of a frame at `start` whose body is `len` bytes long and begins with
/// `first_byte` (its header's type byte): the length, 32 bits little-endian; a body longer
/// than that counts is `EncodeErrorKind::TooLong`, naming the body's type.
pub fn frame_prefix(start: usize, len: usize, first_byte: u8) -> Result<[u8; PREFIX], EncodeError> {
    let Ok(prefix) = u32::try_from(len) else {
        let what = VariantType::from_id(u32::from(first_byte)).unwrap_or(VariantType::Nil);
        return Err(EncodeError {
            offset: start,
            kind: EncodeErrorKind::TooLong { what, len },
        });
    };
    Ok(prefix.to_le_bytes())
}

/// The body length a frame's prefix announces, when `bytes` holds the prefix of a frame
/// at `offset`.
pub fn announced_len(bytes: &[u8], offset: usize) -> Option<usize> {
    let prefix: [u8; PREFIX] = bytes.get(offset..)?.get(..PREFIX)?.try_into().ok()?;
    Some(u32::from_le_bytes(prefix) as usize)
}

/// Why a stream could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FrameErrorKind {
    /// The buffer ends before the frame does: wait for more data.
    #[error("incomplete: the frame needs {needed} more bytes")]
    Incomplete {
        /// How many more bytes the frame needs, as far as its prefix tells.
        needed: usize,
    },
    /// The frame is there but its value is invalid.
    #[error("{0}")]
    Invalid(DecodeError),
}

/// A stream error: which value (counting from 0) and where its frame starts.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("value {index} (frame at byte {frame_offset}): {kind}")]
#[non_exhaustive]
pub struct FrameError {
    /// The value's position in the stream, from 0.
    pub index: usize,
    /// The byte where its frame (its length prefix) starts.
    pub frame_offset: usize,
    /// What is wrong.
    pub kind: FrameErrorKind,
}

impl FrameError {
    /// The failure `kind` of value `index`, whose frame starts at byte `frame_offset`.
    pub fn new(index: usize, frame_offset: usize, kind: FrameErrorKind) -> FrameError {
        FrameError {
            index,
            frame_offset,
            kind,
        }
    }

    /// True when more bytes may complete the stream, as opposed to bytes that are wrong.
    pub fn is_incomplete(&self) -> bool {
        matches!(self.kind, FrameErrorKind::Incomplete { .. })
    }

    /// The `Error` the engine's `get_var` gives for the same stream.
    pub fn godot_error(&self) -> GodotError {
        match &self.kind {
            FrameErrorKind::Incomplete { .. } => GodotError::FileEof,
            FrameErrorKind::Invalid(e) => e.godot_error(),
        }
    }
}

/// A frame found in a stream: its value's bytes and where they start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Frame<'a> {
    /// The value's bytes (the frame without its length prefix).
    pub body: &'a [u8],
    /// Offset of `body` in the stream.
    pub body_offset: usize,
    /// The frame's total length, prefix included.
    pub len: usize,
}

/// The frame at `offset` in `bytes`, or how many more bytes it needs.
pub fn frame_at(bytes: &[u8], offset: usize) -> Result<Frame<'_>, FrameErrorKind> {
    let rest = bytes.get(offset..).unwrap_or_default();
    let incomplete = |have: usize, want: usize| FrameErrorKind::Incomplete {
        needed: want - have,
    };
    let Some(len) = announced_len(bytes, offset) else {
        return Err(incomplete(rest.len(), PREFIX));
    };
    // Saturating: where `usize` is 32 bits, a prefix near `u32::MAX` must not wrap (no such
    // frame fits in memory there; the count of bytes still needed is then its floor).
    let frame_len = PREFIX.saturating_add(len);
    match rest.get(PREFIX..frame_len) {
        Some(body) => Ok(Frame {
            body,
            body_offset: offset + PREFIX,
            len: frame_len,
        }),
        None => Err(incomplete(rest.len(), frame_len)),
    }
}

/// Decodes the frame at `offset` in `bytes`; returns the value and the frame's total
/// length (prefix included). The value must lie within its frame, as in `get_var`.
pub fn decode_frame(
    bytes: &[u8],
    offset: usize,
    opts: &DecodeOptions,
) -> Result<(Value, usize), FrameErrorKind> {
    let frame = frame_at(bytes, offset)?;
    let (value, _) =
        decode_at(frame.body, frame.body_offset, opts).map_err(FrameErrorKind::Invalid)?;
    Ok((value, frame.len))
}

/// Decodes every frame in `bytes`.
pub fn decode_frames(bytes: &[u8], opts: &DecodeOptions) -> Result<Vec<Value>, FrameError> {
    let mut values = Vec::new();
    let mut offset = 0;
    while offset < bytes.len() {
        let (value, len) = decode_frame(bytes, offset, opts).map_err(|kind| FrameError {
            index: values.len(),
            frame_offset: offset,
            kind,
        })?;
        values.push(value);
        offset += len;
    }
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_round_trip_and_tell_incomplete_from_invalid() {
        let opts = EncodeOptions::default();
        let mut bytes = Vec::new();
        for v in [Value::Int(1), Value::String("hé".into()), Value::Nil] {
            encode_frame(&v, &mut bytes, &opts).unwrap();
        }
        let values = decode_frames(&bytes, &DecodeOptions::default()).unwrap();
        assert_eq!(values[1], Value::String("hé".into()));

        let cut = decode_frames(&bytes[..bytes.len() - 2], &DecodeOptions::default()).unwrap_err();
        assert!(cut.is_incomplete());
        assert_eq!(cut.index, 2);

        bytes[16] = 0x7F; // the String's header (frame 1 at 12, after its prefix): unknown type
        let bad = decode_frames(&bytes, &DecodeOptions::default()).unwrap_err();
        assert!(!bad.is_incomplete());
        assert_eq!((bad.index, bad.frame_offset), (1, 12));
        assert!(bad.to_string().contains("at byte 16"), "{bad}");
    }
}
