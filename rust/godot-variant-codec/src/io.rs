//! Framed values over `std::io` and in pieces: what a Rust server needs to talk to a Godot
//! client's `StreamPeerTCP.put_var` / `get_var`, or to read a `FileAccess.store_var` file.
//!
//! The frames are [`stream`](crate::stream)'s (a 32-bit little-endian body length, then
//! the value's bytes); this module only moves them through readers, writers and buffers:
//!
//! * [`FrameDecoder`]: bytes go in as they arrive ([`feed`](FrameDecoder::feed)), whole
//!   values come out. A partial frame is "need more", never an error.
//! * [`FrameReader`]: values (or serde types) from any [`Read`], read as they arrive.
//! * [`FrameWriter`]: values (or serde types) framed onto any [`Write`], one `write_all`
//!   a frame (so a `TcpStream` with `set_nodelay(true)` sends each value at once).
//!
//! A length prefix is bounded like everything else: a frame announcing more than the
//! decoder's maximum ([`DEFAULT_MAX_FRAME_LEN`] unless set otherwise) is refused before
//! any of it is buffered, so a hostile peer cannot make the reader allocate 4 GiB.
//!
//! ```
//! use godot_variant_codec::io::{FrameReader, FrameWriter};
//! use godot_variant_codec::Value;
//!
//! let mut wire = Vec::new();
//! let mut writer = FrameWriter::new(&mut wire);
//! writer.write_value(&Value::Int(7)).unwrap();
//! writer.write_value(&Value::String("hi".into())).unwrap();
//!
//! let mut reader = FrameReader::new(&wire[..]);
//! assert_eq!(reader.read_value().unwrap(), Some(Value::Int(7)));
//! assert_eq!(reader.read_value().unwrap(), Some(Value::String("hi".into())));
//! assert_eq!(reader.read_value().unwrap(), None); // the end, between frames
//! ```
//!
//! `PacketPeerUDP.put_var` sends no length prefix: each datagram is one value's
//! `var_to_bytes`, read with [`decode`](crate::decode) and written with
//! [`encode`](crate::encode).

use std::io::{ErrorKind, Read, Write};

use crate::error::{DecodeError, EncodeError, GodotError};
use crate::stream::{announced_len, encode_frame, frame_at, Frame, PREFIX_LEN};
use crate::{decode_at, DecodeOptions, EncodeOptions, Value};

/// The largest frame body a [`FrameDecoder`] or [`FrameReader`] accepts unless told
/// otherwise: 16 MiB. The engine's own `get_var` has no bound short of 2 GiB; set a
/// larger one with [`FrameDecoder::with_max_frame_len`] if your messages need it.
pub const DEFAULT_MAX_FRAME_LEN: usize = 16 << 20;

/// The most a [`FrameReader`] reads at once.
const READ_CHUNK_MAX: usize = 1 << 20;
/// The least a [`FrameReader`] asks a read for.
const READ_CHUNK_MIN: usize = 8 << 10;

/// Why a stream could not be read or written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StreamErrorKind {
    /// The reader or writer failed.
    #[error("I/O error: {0}")]
    Io(#[source] std::io::Error),
    /// A length prefix announces more than the maximum frame length. The frame cannot be
    /// skipped without reading it: the decoder stops here.
    #[error("frame of {len} bytes is longer than the maximum of {max}")]
    FrameTooLong {
        /// The body length the prefix announces.
        len: usize,
        /// The decoder's maximum ([`FrameDecoder::max_frame_len`]).
        max: usize,
    },
    /// The stream ended inside a frame.
    #[error("the stream ends inside a frame, {needed} bytes short")]
    Truncated {
        /// How many more bytes the frame needs, as far as its prefix tells (while the
        /// prefix is cut short, the rest of the prefix).
        needed: usize,
    },
    /// The frame is whole but its value is not valid (the error's offset counts from the
    /// start of the stream). The frame is skipped: the next value read is the next frame's.
    #[error("{0}")]
    Invalid(DecodeError),
    /// The value could not be encoded (its offset counts from the start of the frame).
    #[error("{0}")]
    Encode(EncodeError),
    /// Serde could not map the value to or from the Rust type (when decoding, the error's
    /// offset counts from the value's first byte, after the length prefix). When
    /// decoding, the frame is skipped as for [`Invalid`](StreamErrorKind::Invalid).
    #[cfg(feature = "serde")]
    #[error("{0}")]
    Serde(crate::serde::Error),
}

/// A stream error: where the frame it concerns starts (its length prefix), counted in
/// bytes from the start of the stream, and what went wrong.
#[derive(Debug, thiserror::Error)]
#[error("frame at byte {offset}: {kind}")]
#[non_exhaustive]
pub struct StreamError {
    /// Offset of the frame's length prefix in the stream (for a failed write: where the
    /// frame would have started).
    pub offset: usize,
    /// What went wrong.
    pub kind: StreamErrorKind,
}

impl StreamError {
    /// The failure `kind` of the frame whose length prefix is at byte `offset`.
    pub fn new(offset: usize, kind: StreamErrorKind) -> Self {
        StreamError { offset, kind }
    }

    /// The `Error` the engine's `get_var` / `put_var` report in the same case.
    pub fn godot_error(&self) -> GodotError {
        match &self.kind {
            StreamErrorKind::Io(_) | StreamErrorKind::Truncated { .. } => GodotError::FileEof,
            StreamErrorKind::FrameTooLong { .. } => GodotError::OutOfMemory,
            StreamErrorKind::Invalid(e) => e.godot_error(),
            StreamErrorKind::Encode(e) => e.godot_error(),
            #[cfg(feature = "serde")]
            StreamErrorKind::Serde(_) => GodotError::InvalidData,
        }
    }

    /// Whether reading can go on after this error: the frame was whole and has been
    /// skipped (an invalid value, or one serde could not map).
    pub fn is_recoverable(&self) -> bool {
        match &self.kind {
            StreamErrorKind::Invalid(_) => true,
            #[cfg(feature = "serde")]
            StreamErrorKind::Serde(_) => true,
            _ => false,
        }
    }
}

/// An I/O error from outside the framing (a transport's, as `tokio_util::codec` hands
/// them over), its offset unknown: 0.
impl From<std::io::Error> for StreamError {
    fn from(e: std::io::Error) -> Self {
        StreamError::new(0, StreamErrorKind::Io(e))
    }
}

/// Where a whole frame lies in a decoder's buffer.
#[derive(Debug, Clone, Copy)]
struct Span {
    /// The body's first byte in the buffer.
    body_start: usize,
    /// One past the body's last byte in the buffer.
    body_end: usize,
    /// The frame's (its prefix's) offset in the stream.
    offset: usize,
}

/// An incremental decoder of framed values: [`feed`](Self::feed) it bytes as they
/// arrive, in any pieces, and take the whole values out.
///
/// ```
/// use godot_variant_codec::io::FrameDecoder;
/// use godot_variant_codec::stream::encode_frame;
/// use godot_variant_codec::{EncodeOptions, Value};
///
/// let mut bytes = Vec::new();
/// encode_frame(&Value::Int(1), &mut bytes, &EncodeOptions::default()).unwrap();
/// encode_frame(&Value::Bool(true), &mut bytes, &EncodeOptions::default()).unwrap();
///
/// let mut decoder = FrameDecoder::new();
/// decoder.feed(&bytes[..5]); // the first frame's prefix and one byte of its value
/// assert_eq!(decoder.next_value().unwrap(), None); // need more: not an error
/// decoder.feed(&bytes[5..]);
/// let values: Vec<Value> = decoder.values().collect::<Result<_, _>>().unwrap();
/// assert_eq!(values, [Value::Int(1), Value::Bool(true)]);
/// assert!(decoder.finish().is_ok()); // nothing left over
/// ```
#[derive(Debug, Clone)]
pub struct FrameDecoder {
    buf: Vec<u8>,
    /// The first byte of `buf` not yet taken.
    start: usize,
    /// Stream offset of `buf[0]`.
    base: usize,
    max_frame_len: usize,
    opts: DecodeOptions,
    /// A frame over the maximum was announced at this offset, with this length: nothing
    /// more can be read.
    too_long: Option<(usize, usize)>,
}

impl Default for FrameDecoder {
    fn default() -> Self {
        FrameDecoder::new()
    }
}

impl FrameDecoder {
    /// A decoder with the default [`DecodeOptions`] and [`DEFAULT_MAX_FRAME_LEN`].
    pub fn new() -> Self {
        FrameDecoder::with_options(DecodeOptions::default())
    }

    /// A decoder with these decode options.
    pub fn with_options(opts: DecodeOptions) -> Self {
        FrameDecoder {
            buf: Vec::new(),
            start: 0,
            base: 0,
            max_frame_len: DEFAULT_MAX_FRAME_LEN,
            opts,
            too_long: None,
        }
    }

    /// The same decoder, refusing frame bodies longer than `max` bytes.
    pub fn with_max_frame_len(mut self, max: usize) -> Self {
        self.max_frame_len = max;
        self
    }

    /// The longest frame body accepted.
    pub fn max_frame_len(&self) -> usize {
        self.max_frame_len
    }

    /// The decode options values are read with.
    pub fn options(&self) -> &DecodeOptions {
        &self.opts
    }

    /// Appends bytes received from the stream.
    pub fn feed(&mut self, bytes: &[u8]) {
        self.compact();
        self.buf.extend_from_slice(bytes);
    }

    /// Bytes fed and not yet taken as frames: the start of an incomplete frame.
    pub fn buffered(&self) -> usize {
        self.buf.len() - self.start
    }

    /// Stream offset of the next frame: the bytes taken so far.
    pub fn offset(&self) -> usize {
        self.base + self.start
    }

    /// The next whole frame (its value's bytes, not decoded), or `None` until more bytes
    /// are fed. The frame is taken: the next call looks at the one after it.
    pub fn next_frame(&mut self) -> Result<Option<Frame<'_>>, StreamError> {
        Ok(self.next_span()?.map(|span| self.frame(span)))
    }

    /// The next whole value, or `None` until more bytes are fed. An invalid value is an
    /// error whose frame is skipped ([`StreamError::is_recoverable`]).
    pub fn next_value(&mut self) -> Result<Option<Value>, StreamError> {
        match self.next_span()? {
            Some(span) => self.decode(span).map(Some),
            None => Ok(None),
        }
    }

    /// The next whole value as a `T` (through [`crate::serde`]), or `None` until more
    /// bytes are fed.
    #[cfg(feature = "serde")]
    pub fn next_deserialized<T: ::serde::de::DeserializeOwned>(
        &mut self,
    ) -> Result<Option<T>, StreamError> {
        match self.next_span()? {
            Some(span) => self.deserialize(span).map(Some),
            None => Ok(None),
        }
    }

    /// The whole values fed so far, one by one (see [`next_value`](Self::next_value)).
    /// The iterator ends when more bytes are needed, or after an error that stops the
    /// decoder.
    pub fn values(&mut self) -> Values<'_> {
        Values {
            decoder: self,
            done: false,
        }
    }

    /// Checks that the stream ended between frames: an error when a partial frame is
    /// left over (or a frame over the maximum was announced).
    pub fn finish(&self) -> Result<(), StreamError> {
        if let Some(e) = self.too_long_error() {
            return Err(e);
        }
        match frame_at(&self.buf, self.start) {
            Err(crate::stream::FrameErrorKind::Incomplete { needed }) if self.buffered() > 0 => {
                Err(StreamError::new(
                    self.offset(),
                    StreamErrorKind::Truncated { needed },
                ))
            }
            // Nothing left, or whole frames not yet taken (not cut off).
            _ => Ok(()),
        }
    }

    fn too_long_error(&self) -> Option<StreamError> {
        self.too_long.map(|(offset, len)| {
            StreamError::new(
                offset,
                StreamErrorKind::FrameTooLong {
                    len,
                    max: self.max_frame_len,
                },
            )
        })
    }

    /// Drops the bytes already taken when they are at least half the buffer, so that
    /// the buffer holds no more than about twice the incomplete frame.
    fn compact(&mut self) {
        if self.start > 0 && self.start >= self.buf.len() / 2 {
            self.buf.drain(..self.start);
            self.base += self.start;
            self.start = 0;
        }
    }

    /// How many more bytes the next frame needs (at least 1).
    fn needed(&self) -> usize {
        match frame_at(&self.buf, self.start) {
            Err(crate::stream::FrameErrorKind::Incomplete { needed }) => needed,
            _ => 1,
        }
    }

    fn next_span(&mut self) -> Result<Option<Span>, StreamError> {
        if let Some(e) = self.too_long_error() {
            return Err(e);
        }
        let offset = self.offset();
        match announced_len(&self.buf, self.start) {
            None => return Ok(None),
            Some(len) if len > self.max_frame_len => {
                self.too_long = Some((offset, len));
                return Err(self.too_long_error().expect("just set"));
            }
            Some(_) => {}
        }
        match frame_at(&self.buf, self.start) {
            Ok(frame) => {
                let body_start = frame.body_offset;
                let span = Span {
                    body_start,
                    body_end: body_start + frame.body.len(),
                    offset,
                };
                self.start += frame.len;
                Ok(Some(span))
            }
            Err(_) => {
                // Room for the rest of the frame, which is within the maximum.
                self.buf.reserve(self.needed());
                Ok(None)
            }
        }
    }

    fn frame(&self, span: Span) -> Frame<'_> {
        Frame {
            body: &self.buf[span.body_start..span.body_end],
            body_offset: span.offset + PREFIX_LEN,
            len: span.body_end - span.body_start + PREFIX_LEN,
        }
    }

    fn decode(&self, span: Span) -> Result<Value, StreamError> {
        let frame = self.frame(span);
        decode_at(frame.body, frame.body_offset, &self.opts)
            .map(|(value, _)| value)
            .map_err(|e| StreamError::new(span.offset, StreamErrorKind::Invalid(e)))
    }

    #[cfg(feature = "serde")]
    fn deserialize<T: ::serde::de::DeserializeOwned>(&self, span: Span) -> Result<T, StreamError> {
        crate::serde::from_slice(self.frame(span).body, &self.opts)
            .map(|(value, _)| value)
            .map_err(|e| StreamError::new(span.offset, StreamErrorKind::Serde(e)))
    }

    /// Reads once from `r` into the buffer: what the next frame still needs, within
    /// bounds. `Ok(0)` at the end of the stream.
    fn fill_from<R: Read + ?Sized>(&mut self, r: &mut R) -> std::io::Result<usize> {
        self.compact();
        let chunk = self.needed().clamp(READ_CHUNK_MIN, READ_CHUNK_MAX);
        let len = self.buf.len();
        self.buf.resize(len + chunk, 0);
        let result = loop {
            match r.read(&mut self.buf[len..]) {
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                other => break other,
            }
        };
        self.buf.truncate(len + *result.as_ref().unwrap_or(&0));
        result
    }
}

/// The whole values a [`FrameDecoder`] holds: see [`FrameDecoder::values`].
#[derive(Debug)]
pub struct Values<'a> {
    decoder: &'a mut FrameDecoder,
    done: bool,
}

impl Iterator for Values<'_> {
    type Item = Result<Value, StreamError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.decoder.next_value() {
            Ok(value) => value.map(Ok),
            Err(e) => {
                self.done = !e.is_recoverable();
                Some(Err(e))
            }
        }
    }
}

/// Reads framed values from any [`Read`] (a `TcpStream`, a file written with
/// `FileAccess.store_var`, stdin…), as they arrive.
///
/// Reads block as the reader does; for a non-blocking socket, feed a [`FrameDecoder`]
/// yourself. The reader buffers what it reads: wrapping it in a `BufReader` gains nothing.
#[derive(Debug)]
pub struct FrameReader<R> {
    inner: R,
    decoder: FrameDecoder,
    /// The iterator met an error that stops the stream.
    stopped: bool,
}

impl<R: Read> FrameReader<R> {
    /// A reader with the default [`DecodeOptions`] and [`DEFAULT_MAX_FRAME_LEN`].
    pub fn new(inner: R) -> Self {
        FrameReader::with_decoder(inner, FrameDecoder::new())
    }

    /// A reader whose frames go through `decoder` (its options and maximum frame length).
    pub fn with_decoder(inner: R, decoder: FrameDecoder) -> Self {
        FrameReader {
            inner,
            decoder,
            stopped: false,
        }
    }

    /// The next frame, read until whole; `None` when the stream ends between frames.
    pub fn read_frame(&mut self) -> Result<Option<Frame<'_>>, StreamError> {
        Ok(self.read_span()?.map(|span| self.decoder.frame(span)))
    }

    /// The next value; `None` when the stream ends between frames. An invalid value is an
    /// error whose frame is skipped ([`StreamError::is_recoverable`]).
    pub fn read_value(&mut self) -> Result<Option<Value>, StreamError> {
        match self.read_span()? {
            Some(span) => self.decoder.decode(span).map(Some),
            None => Ok(None),
        }
    }

    /// The next value as a `T` (through [`crate::serde`]); `None` when the stream ends
    /// between frames.
    #[cfg(feature = "serde")]
    pub fn read<T: ::serde::de::DeserializeOwned>(&mut self) -> Result<Option<T>, StreamError> {
        match self.read_span()? {
            Some(span) => self.decoder.deserialize(span).map(Some),
            None => Ok(None),
        }
    }

    /// Stream offset of the next frame: the bytes taken as frames so far.
    pub fn offset(&self) -> usize {
        self.decoder.offset()
    }

    /// The reader.
    pub fn get_ref(&self) -> &R {
        &self.inner
    }

    /// The reader, mutably: bytes read from it directly are lost to the frames.
    pub fn get_mut(&mut self) -> &mut R {
        &mut self.inner
    }

    /// The reader; bytes read from it and not yet taken as frames are dropped.
    pub fn into_inner(self) -> R {
        self.inner
    }

    fn read_span(&mut self) -> Result<Option<Span>, StreamError> {
        loop {
            if let Some(span) = self.decoder.next_span()? {
                return Ok(Some(span));
            }
            let offset = self.decoder.offset();
            let read = self
                .decoder
                .fill_from(&mut self.inner)
                .map_err(|e| StreamError::new(offset, StreamErrorKind::Io(e)))?;
            if read == 0 {
                self.decoder.finish()?;
                return Ok(None);
            }
        }
    }
}

impl<R: Read> Iterator for FrameReader<R> {
    type Item = Result<Value, StreamError>;

    /// The next value (see [`read_value`](Self::read_value)); after an error that stops
    /// the stream (I/O, a frame too long, a truncated frame), `None`.
    fn next(&mut self) -> Option<Self::Item> {
        if self.stopped {
            return None;
        }
        match self.read_value() {
            Ok(value) => value.map(Ok),
            Err(e) => {
                // Later reads would fail again, or read on from a broken stream.
                self.stopped = !e.is_recoverable();
                Some(Err(e))
            }
        }
    }
}

/// Writes framed values to any [`Write`], as `put_var` and `store_var` frame them: each
/// frame with one `write_all` call.
#[derive(Debug)]
pub struct FrameWriter<W: Write> {
    inner: W,
    opts: EncodeOptions,
    buf: Vec<u8>,
    written: usize,
}

impl<W: Write> FrameWriter<W> {
    /// A writer with the default [`EncodeOptions`].
    pub fn new(inner: W) -> Self {
        FrameWriter::with_options(inner, EncodeOptions::default())
    }

    /// A writer encoding with `opts` (for a double-precision engine, say).
    pub fn with_options(inner: W, opts: EncodeOptions) -> Self {
        FrameWriter {
            inner,
            opts,
            buf: Vec::new(),
            written: 0,
        }
    }

    /// Writes one value. On an encoding error nothing is written.
    pub fn write_value(&mut self, value: &Value) -> Result<(), StreamError> {
        self.buf.clear();
        encode_frame(value, &mut self.buf, &self.opts)
            .map_err(|e| StreamError::new(self.written, StreamErrorKind::Encode(e)))?;
        self.send()
    }

    /// Writes one value made from `value` through [`crate::serde`]. On an encoding error
    /// nothing is written.
    #[cfg(feature = "serde")]
    pub fn write<T: ::serde::Serialize + ?Sized>(&mut self, value: &T) -> Result<(), StreamError> {
        self.buf.clear();
        let opts = self.opts;
        crate::stream::frame_into(&mut self.buf, |out| {
            crate::serde::encode_into(value, out, &opts)
        })
        .map_err(|e| StreamError::new(self.written, StreamErrorKind::Serde(e)))?;
        self.send()
    }

    /// Writes one frame whose body is `body`, a value's bytes already encoded (by
    /// [`encode`](crate::encode), say). The body is not checked.
    pub fn write_encoded(&mut self, body: &[u8]) -> Result<(), StreamError> {
        self.buf.clear();
        crate::stream::frame_into(&mut self.buf, |out| {
            out.extend_from_slice(body);
            Ok::<_, EncodeError>(())
        })
        .map_err(|e| StreamError::new(self.written, StreamErrorKind::Encode(e)))?;
        self.send()
    }

    /// Flushes the writer.
    pub fn flush(&mut self) -> Result<(), StreamError> {
        self.inner
            .flush()
            .map_err(|e| StreamError::new(self.written, StreamErrorKind::Io(e)))
    }

    /// Bytes written so far.
    pub fn offset(&self) -> usize {
        self.written
    }

    /// The writer.
    pub fn get_ref(&self) -> &W {
        &self.inner
    }

    /// The writer, mutably: bytes written to it directly go between frames, and
    /// [`offset`](Self::offset) does not count them.
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.inner
    }

    /// The writer, which has been handed every frame (this one keeps none back).
    pub fn into_inner(self) -> W {
        self.inner
    }

    fn send(&mut self) -> Result<(), StreamError> {
        // After a failed write_all the peer may have part of the frame: the stream is
        // then out of step, as a failed `put_var` leaves it.
        self.inner
            .write_all(&self.buf)
            .map_err(|e| StreamError::new(self.written, StreamErrorKind::Io(e)))?;
        self.written += self.buf.len();
        Ok(())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::error::DecodeErrorKind;

    fn framed(values: &[Value]) -> Vec<u8> {
        let mut bytes = Vec::new();
        for v in values {
            encode_frame(v, &mut bytes, &EncodeOptions::default()).unwrap();
        }
        bytes
    }

    /// Values of a few kinds, a 256-byte one among them.
    pub(crate) fn sample() -> Vec<Value> {
        vec![
            Value::Int(-3),
            Value::String("héllo".into()),
            Value::PackedByteArray((0..=255).collect()),
            Value::Nil,
            Value::Float(0.5),
        ]
    }

    #[test]
    fn every_split_of_the_stream_gives_the_same_values() {
        let values = sample();
        let bytes = framed(&values);
        for cut in 0..=bytes.len() {
            let mut decoder = FrameDecoder::new();
            let mut got = Vec::new();
            for piece in [&bytes[..cut], &bytes[cut..]] {
                decoder.feed(piece);
                got.extend(decoder.values().map(Result::unwrap));
            }
            assert_eq!(got, values, "cut at {cut}");
            decoder.finish().unwrap();
        }
    }

    #[test]
    fn one_byte_at_a_time_partial_frames_wait() {
        let values = sample();
        let bytes = framed(&values);
        let mut decoder = FrameDecoder::new();
        let mut got = Vec::new();
        for (i, b) in bytes.iter().enumerate() {
            decoder.feed(std::slice::from_ref(b));
            while let Some(v) = decoder.next_value().unwrap() {
                got.push(v);
            }
            assert_eq!(decoder.offset() + decoder.buffered(), i + 1);
        }
        assert_eq!(got, values);
    }

    #[test]
    fn finish_reports_a_truncated_tail_with_its_offset() {
        let bytes = framed(&sample());
        let mut decoder = FrameDecoder::new();
        decoder.feed(&bytes[..bytes.len() - 3]);
        assert_eq!(decoder.values().count(), 4);
        let e = decoder.finish().unwrap_err();
        let last_frame = bytes.len() - 12; // the float: prefix 4 + header 4 + 4 bytes
        assert_eq!(e.offset, last_frame);
        assert!(
            matches!(e.kind, StreamErrorKind::Truncated { needed: 3 }),
            "{e}"
        );
        assert!(!e.is_recoverable());
    }

    #[test]
    fn a_hostile_length_prefix_is_refused_before_it_is_buffered() {
        let mut bytes = framed(&[Value::Int(1)]);
        bytes.extend_from_slice(&u32::MAX.to_le_bytes());
        let mut decoder = FrameDecoder::new().with_max_frame_len(1000);
        decoder.feed(&bytes);
        assert_eq!(decoder.next_value().unwrap(), Some(Value::Int(1)));
        let e = decoder.next_value().unwrap_err();
        assert_eq!(e.offset, 12);
        assert!(matches!(
            e.kind,
            StreamErrorKind::FrameTooLong {
                len: 0xFFFF_FFFF,
                max: 1000
            }
        ));
        assert!(decoder.buf.capacity() < 1000);
        // The decoder stays stopped.
        decoder.feed(&[0; 64]);
        assert!(decoder.next_value().is_err());
        assert!(decoder.finish().is_err());
    }

    #[test]
    fn the_default_maximum_is_16_mib() {
        let mut decoder = FrameDecoder::new();
        decoder.feed(&(16u32 << 20).to_le_bytes());
        assert_eq!(decoder.next_value().unwrap(), None);
        let mut decoder = FrameDecoder::new();
        decoder.feed(&((16u32 << 20) + 1).to_le_bytes());
        assert!(decoder.next_value().is_err());
    }

    #[test]
    fn an_invalid_value_is_skipped_and_the_next_frame_read() {
        let mut bytes = framed(&[Value::Int(1)]);
        bytes.extend_from_slice(&[4, 0, 0, 0, 0x7F, 0, 0, 0]); // a frame of an unknown type
        bytes.extend(framed(&[Value::Int(2)]));
        let mut decoder = FrameDecoder::new();
        decoder.feed(&bytes);
        let got: Vec<_> = decoder.values().collect();
        assert_eq!(got.len(), 3);
        assert_eq!(got[0].as_ref().unwrap(), &Value::Int(1));
        let e = got[1].as_ref().unwrap_err();
        assert_eq!(e.offset, 12);
        match &e.kind {
            StreamErrorKind::Invalid(d) => {
                assert_eq!(d.offset, 16);
                assert_eq!(d.kind, DecodeErrorKind::UnknownType(0x7F));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(e.godot_error(), GodotError::InvalidData);
        assert_eq!(got[2].as_ref().unwrap(), &Value::Int(2));
    }

    /// A reader that hands out at most `n` bytes a call, and `Interrupted` before each.
    struct Trickle<'a> {
        bytes: &'a [u8],
        n: usize,
        interrupt: bool,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            self.interrupt = !self.interrupt;
            if self.interrupt {
                return Err(ErrorKind::Interrupted.into());
            }
            let n = self.n.min(out.len()).min(self.bytes.len());
            out[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            Ok(n)
        }
    }

    #[test]
    fn a_reader_reads_values_as_they_trickle_in() {
        let values = sample();
        let bytes = framed(&values);
        for n in [1, 3, 7, 64, 100_000] {
            let reader = FrameReader::new(Trickle {
                bytes: &bytes,
                n,
                interrupt: false,
            });
            let got: Vec<Value> = reader.collect::<Result<_, _>>().unwrap();
            assert_eq!(got, values, "{n} bytes a read");
        }
    }

    #[test]
    fn a_reader_reports_a_stream_cut_inside_a_frame_then_stops() {
        let bytes = framed(&sample());
        let mut reader = FrameReader::new(&bytes[..bytes.len() - 1]);
        let got: Vec<_> = reader.by_ref().collect();
        assert_eq!(got.len(), 5);
        let e = got[4].as_ref().unwrap_err();
        assert!(matches!(e.kind, StreamErrorKind::Truncated { needed: 1 }));
        assert!(reader.next().is_none());
    }

    #[test]
    fn io_errors_carry_the_frame_offset() {
        struct Broken;
        impl Read for Broken {
            fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
                Err(ErrorKind::ConnectionReset.into())
            }
        }
        let e = FrameReader::new(Broken).read_value().unwrap_err();
        assert!(
            matches!(&e.kind, StreamErrorKind::Io(io) if io.kind() == ErrorKind::ConnectionReset)
        );
        assert_eq!(e.offset, 0);
    }

    #[test]
    fn the_writer_writes_what_encode_frame_writes_one_write_a_frame() {
        struct Counting(Vec<u8>, usize);
        impl Write for Counting {
            fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
                self.1 += 1;
                self.0.extend_from_slice(b);
                Ok(b.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let values = sample();
        let mut writer = FrameWriter::new(Counting(Vec::new(), 0));
        for v in &values {
            writer.write_value(v).unwrap();
        }
        writer.flush().unwrap();
        assert_eq!(writer.offset(), framed(&values).len());
        let inner = writer.into_inner();
        assert_eq!(inner.0, framed(&values));
        assert_eq!(inner.1, values.len());
    }

    #[test]
    fn write_encoded_frames_bytes_as_they_are() {
        let body = crate::encode(&Value::Int(9), &EncodeOptions::default()).unwrap();
        let mut writer = FrameWriter::new(Vec::new());
        writer.write_encoded(&body).unwrap();
        assert_eq!(writer.into_inner(), framed(&[Value::Int(9)]));
    }

    #[test]
    fn an_encoding_error_writes_nothing() {
        let mut deep = Value::Nil;
        for _ in 0..4 {
            deep = Value::Array(Box::new(crate::Array {
                items: vec![deep],
                element_type: crate::ContainerType::Untyped,
            }));
        }
        let opts = EncodeOptions::default().with_max_depth(2);
        let mut writer = FrameWriter::with_options(Vec::new(), opts);
        writer.write_value(&Value::Int(1)).unwrap();
        let e = writer.write_value(&deep).unwrap_err();
        assert!(matches!(e.kind, StreamErrorKind::Encode(_)));
        assert_eq!(e.offset, 12);
        assert_eq!(writer.into_inner(), framed(&[Value::Int(1)]));
    }

    #[cfg(feature = "serde")]
    #[test]
    fn serde_types_go_through_the_writer_reader_and_decoder() {
        use crate::serde::Vector2;
        #[derive(::serde::Serialize, ::serde::Deserialize, Debug, PartialEq)]
        struct Msg {
            id: i64,
            pos: Vector2,
        }
        let msgs: Vec<Msg> = (0..3)
            .map(|id| Msg {
                id,
                pos: Vector2 { x: 1.5, y: -2.0 },
            })
            .collect();
        let mut writer = FrameWriter::new(Vec::new());
        for m in &msgs {
            writer.write(m).unwrap();
        }
        let bytes = writer.into_inner();

        let mut reader = FrameReader::new(&bytes[..]);
        for m in &msgs {
            assert_eq!(reader.read::<Msg>().unwrap().as_ref(), Some(m));
        }
        assert_eq!(reader.read::<Msg>().unwrap(), None);

        let mut decoder = FrameDecoder::new();
        decoder.feed(&bytes);
        // The same frames as values: Dictionaries.
        let first = decoder.next_value().unwrap().unwrap();
        assert_eq!(first.variant_type(), crate::VariantType::Dictionary);
        // A value serde cannot map is an error, and its frame is skipped.
        let e = decoder.next_deserialized::<String>().unwrap_err();
        assert!(
            e.is_recoverable() && matches!(e.kind, StreamErrorKind::Serde(_)),
            "{e}"
        );
        assert_eq!(
            decoder.next_deserialized::<Msg>().unwrap(),
            Some(msgs.into_iter().nth(2).unwrap())
        );
    }
}
