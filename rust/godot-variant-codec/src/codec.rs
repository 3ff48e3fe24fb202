//! A [`tokio_util::codec`] Decoder and Encoder of framed values (cargo feature `tokio`):
//! `Framed::new(tcp_stream, VariantCodec::new())` is a `Stream` of the [`Value`]s a Godot
//! client's `StreamPeerTCP.put_var` sends and a `Sink` of the ones its `get_var` reads.
//!
//! The frames and their bounds are [`crate::io`]'s: a length prefix over the maximum frame
//! length is refused before anything is buffered; an invalid value is an error (`Framed`
//! ends the stream on errors).
//!
//! ```
//! use bytes::BytesMut;
//! use godot_variant_codec::codec::VariantCodec;
//! use godot_variant_codec::Value;
//! use tokio_util::codec::{Decoder, Encoder};
//!
//! let mut codec = VariantCodec::new();
//! let mut buf = BytesMut::new();
//! codec.encode(&Value::Int(7), &mut buf).unwrap();
//! let mut first = buf.split_to(5); // the prefix and a byte of the value
//! assert_eq!(codec.decode(&mut first).unwrap(), None); // need more
//! first.unsplit(buf);
//! assert_eq!(codec.decode(&mut first).unwrap(), Some(Value::Int(7)));
//! ```

use bytes::{Buf, BytesMut};
use tokio_util::codec::{Decoder, Encoder};

use crate::io::{StreamError, StreamErrorKind, DEFAULT_MAX_FRAME_LEN};
use crate::stream::{announced_len, encode_frame, frame_at, FrameErrorKind, PREFIX_LEN};
use crate::{decode_at, DecodeOptions, EncodeOptions, Value};

/// Decodes and encodes framed values for `tokio_util::codec::Framed` (and `FramedRead`,
/// `FramedWrite`).
#[derive(Debug, Clone)]
pub struct VariantCodec {
    decode: DecodeOptions,
    encode: EncodeOptions,
    max_frame_len: usize,
    /// Stream offset of the first byte not yet decoded.
    read: usize,
    /// Bytes encoded so far.
    written: usize,
    /// Reused for each frame encoded.
    scratch: Vec<u8>,
}

impl Default for VariantCodec {
    fn default() -> Self {
        VariantCodec::new()
    }
}

impl VariantCodec {
    /// A codec with the default options and [`DEFAULT_MAX_FRAME_LEN`].
    pub fn new() -> Self {
        VariantCodec::with_options(DecodeOptions::default(), EncodeOptions::default())
    }

    /// A codec decoding and encoding with these options.
    pub fn with_options(decode: DecodeOptions, encode: EncodeOptions) -> Self {
        VariantCodec {
            decode,
            encode,
            max_frame_len: DEFAULT_MAX_FRAME_LEN,
            read: 0,
            written: 0,
            scratch: Vec::new(),
        }
    }

    /// The same codec, refusing frame bodies longer than `max` bytes.
    pub fn with_max_frame_len(mut self, max: usize) -> Self {
        self.max_frame_len = max;
        self
    }
}

impl Decoder for VariantCodec {
    type Item = Value;
    type Error = StreamError;

    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<Value>, StreamError> {
        let offset = self.read;
        match announced_len(src, 0) {
            None => return Ok(None),
            Some(len) if len > self.max_frame_len => {
                let max = self.max_frame_len;
                return Err(StreamError::new(
                    offset,
                    StreamErrorKind::FrameTooLong { len, max },
                ));
            }
            Some(_) => {}
        }
        match frame_at(src, 0) {
            Ok(frame) => {
                let len = frame.len;
                let value = decode_at(frame.body, offset + PREFIX_LEN, &self.decode)
                    .map(|(value, _)| value)
                    .map_err(|e| StreamError::new(offset, StreamErrorKind::Invalid(e)));
                src.advance(len);
                self.read += len;
                value.map(Some)
            }
            Err(FrameErrorKind::Incomplete { needed }) => {
                src.reserve(needed);
                Ok(None)
            }
            Err(FrameErrorKind::Invalid(e)) => {
                Err(StreamError::new(offset, StreamErrorKind::Invalid(e)))
            }
        }
    }

    fn decode_eof(&mut self, src: &mut BytesMut) -> Result<Option<Value>, StreamError> {
        match self.decode(src)? {
            Some(value) => Ok(Some(value)),
            None if src.is_empty() => Ok(None),
            None => {
                let needed = match frame_at(src, 0) {
                    Err(FrameErrorKind::Incomplete { needed }) => needed,
                    _ => 0,
                };
                Err(StreamError::new(
                    self.read,
                    StreamErrorKind::Truncated { needed },
                ))
            }
        }
    }
}

impl Encoder<&Value> for VariantCodec {
    type Error = StreamError;

    fn encode(&mut self, value: &Value, dst: &mut BytesMut) -> Result<(), StreamError> {
        self.scratch.clear();
        encode_frame(value, &mut self.scratch, &self.encode)
            .map_err(|e| StreamError::new(self.written, StreamErrorKind::Encode(e)))?;
        dst.extend_from_slice(&self.scratch);
        self.written += self.scratch.len();
        Ok(())
    }
}

impl Encoder<Value> for VariantCodec {
    type Error = StreamError;

    fn encode(&mut self, value: Value, dst: &mut BytesMut) -> Result<(), StreamError> {
        self.encode(&value, dst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::tests::sample;

    #[test]
    fn values_come_back_from_any_split() {
        let mut codec = VariantCodec::new();
        let mut all = BytesMut::new();
        for v in sample() {
            codec.encode(v, &mut all).unwrap();
        }
        let mut expected_bytes = Vec::new();
        for v in sample() {
            encode_frame(&v, &mut expected_bytes, &EncodeOptions::default()).unwrap();
        }
        assert_eq!(&all[..], &expected_bytes[..]);
        for cut in 0..=all.len() {
            let mut codec = VariantCodec::new();
            let mut buf = BytesMut::from(&all[..cut]);
            let mut got = Vec::new();
            while let Some(v) = codec.decode(&mut buf).unwrap() {
                got.push(v);
            }
            buf.extend_from_slice(&all[cut..]);
            while let Some(v) = codec.decode_eof(&mut buf).unwrap() {
                got.push(v);
            }
            assert_eq!(got, sample(), "cut at {cut}");
        }
    }

    #[test]
    fn bad_input_is_an_error_with_its_offset() {
        let mut codec = VariantCodec::new().with_max_frame_len(100);
        let mut buf = BytesMut::new();
        codec.encode(&Value::Int(1), &mut buf).unwrap();
        buf.extend_from_slice(&[4, 0, 0, 0, 0x7F, 0, 0, 0]);
        buf.extend_from_slice(&101u32.to_le_bytes());
        assert_eq!(codec.decode(&mut buf).unwrap(), Some(Value::Int(1)));
        let e = codec.decode(&mut buf).unwrap_err();
        assert_eq!(e.offset, 12);
        assert!(matches!(e.kind, StreamErrorKind::Invalid(ref d) if d.offset == 16));
        let e = codec.decode(&mut buf).unwrap_err();
        assert_eq!(e.offset, 20);
        assert!(matches!(
            e.kind,
            StreamErrorKind::FrameTooLong { len: 101, max: 100 }
        ));

        let mut codec = VariantCodec::new();
        let mut cut = BytesMut::from(&[9u8, 0, 0, 0, 2][..]);
        let e = codec.decode_eof(&mut cut).unwrap_err();
        assert!(
            matches!(e.kind, StreamErrorKind::Truncated { needed: 8 }),
            "{e}"
        );
    }
}
