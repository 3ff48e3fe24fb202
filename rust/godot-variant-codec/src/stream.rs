//! Length-prefixed values, as `FileAccess.store_var` and `StreamPeer.put_var` write them:
//! a 32-bit little-endian byte count, then the value's bytes.

use crate::error::{DecodeError, EncodeError, GodotError};
use crate::wire::Sink;
use crate::{decode_at, encode_into, encoded_size, DecodeOptions, EncodeOptions, Value};

const PREFIX: usize = 4;

/// Appends one framed value to `out`. On error, `out` is left as it was.
pub fn encode_frame(
    value: &Value,
    out: &mut Vec<u8>,
    opts: &EncodeOptions,
) -> Result<(), EncodeError> {
    let size = encoded_size(value, opts)?;
    let start = out.len();
    out.reserve(PREFIX + size);
    out.put(size as u32);
    encode_into(value, out, opts).inspect_err(|_| out.truncate(start))
}

/// Why a stream could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FrameErrorKind {
    /// The buffer ends before the frame does: wait for more data.
    #[error("incomplete: the frame needs {needed} more bytes")]
    Incomplete { needed: usize },
    /// The frame is there but its value is invalid.
    #[error("{0}")]
    Invalid(DecodeError),
}

/// A stream error: which value (counting from 0) and where its frame starts.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("value {index} (frame at byte {frame_offset}): {kind}")]
pub struct FrameError {
    pub index: usize,
    pub frame_offset: usize,
    pub kind: FrameErrorKind,
}

impl FrameError {
    /// True when more bytes may complete the stream, as opposed to bytes that are wrong.
    pub fn is_incomplete(&self) -> bool {
        matches!(self.kind, FrameErrorKind::Incomplete { .. })
    }

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
    let prefix: [u8; PREFIX] = match rest.get(..PREFIX) {
        Some(p) => p.try_into().expect("sliced to PREFIX"),
        None => return Err(incomplete(rest.len(), PREFIX)),
    };
    let len = u32::from_le_bytes(prefix) as usize;
    let frame_len = PREFIX + len;
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
