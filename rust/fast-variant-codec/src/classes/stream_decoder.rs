//! `FastVariantStreamDecoder`: values from a stream that arrives in pieces.
//!
//! Its own file and class, next to `FastVariantCodec` and sharing only its decoding
//! (`variant_builder::decode_variant`) and failure reporting: the frames are the pure crate's
//! (`godot_variant_codec::io::FrameDecoder`), bounded by the maximum frame size.

use godot::builtin::{GString, PackedByteArray, VarArray};
use godot::global::Error;
use godot::register::{godot_api, GodotClass};
use godot_variant_codec::io::{FrameDecoder, StreamError, StreamErrorKind, DEFAULT_MAX_FRAME_LEN};
use godot_variant_codec::{DecodeOptions, Generation, MAX_RECURSION_DEPTH};

use crate::classes::codec_class::generation_of;
use crate::classes::failure::Failure;
use crate::convert::variant_builder::decode_variant;

/// Decodes the values of a stream that arrives in pieces: a [StreamPeerTCP]'s bytes as
/// [method StreamPeer.get_partial_data] hands them over, a file read a chunk at a time.
/// The stream is framed as [method StreamPeer.put_var] and [method FileAccess.store_var]
/// write it (a 32-bit length, then the value's bytes).
/// [codeblock]
/// var decoder := FastVariantStreamDecoder.new()
/// func _process(_delta):
///     tcp.poll()
///     var got := tcp.get_partial_data(tcp.get_available_bytes())
///     decoder.feed(got[1])
///     for value in decoder.take_values():
///         handle(value)
///     if decoder.get_error() != OK:
///         push_error(decoder.get_error_message())
/// [/codeblock]
/// A value whose bytes have not all arrived waits for the next [method feed]: that is not
/// an error. An invalid value is: [method take_values] returns the values before it, and
/// [method get_error], [method get_error_offset] and [method get_error_message] tell what
/// and where; its frame is skipped, and the values after it come with the next call. A
/// frame announcing more than [member max_frame_size] bytes stops the decoder.
#[derive(GodotClass)]
#[class(base = RefCounted, init)]
pub struct FastVariantStreamDecoder {
    /// Decode whole objects, like [method @GlobalScope.bytes_to_var_with_objects]. Only
    /// from trusted bytes.
    #[var]
    allow_objects: bool,
    /// The generation of the format the stream is in, as [member FastVariantCodec.format]:
    /// 4 (the default), 3 (a Godot 3.x [code]put_var[/code] stream or [code]store_var[/code]
    /// file) or 2. Any other value fails with [constant ERR_INVALID_PARAMETER] and keeps
    /// the format as it was.
    #[var(set = set_format)]
    #[init(val = 4)]
    format: i64,
    /// The largest frame accepted, in bytes (16 MiB unless set): a longer frame stops the
    /// decoder with [constant ERR_OUT_OF_MEMORY] before any of it is buffered.
    #[var(set = set_max_frame_size)]
    #[init(val = DEFAULT_MAX_FRAME_LEN as i64)]
    max_frame_size: i64,
    decoder: FrameDecoder,
    /// The last failure of [method take_values] or [method finish] and where it was.
    failure: Option<(Failure, i64)>,
}

#[godot_api]
impl FastVariantStreamDecoder {
    /// Sets [member format]: 4, 3 or 2. Any other value fails (see [method get_error])
    /// and keeps the format as it was.
    #[func]
    fn set_format(&mut self, format: i64) {
        match generation_of(format) {
            Ok(_) => self.format = format,
            Err(failure) => self.failure = Some((failure, -1)),
        }
    }

    #[func]
    fn set_max_frame_size(&mut self, size: i64) {
        self.max_frame_size = size.max(0);
        let decoder = std::mem::take(&mut self.decoder);
        self.decoder =
            decoder.with_max_frame_len(usize::try_from(self.max_frame_size).unwrap_or(0));
    }

    /// Appends [param bytes] received from the stream.
    #[func]
    fn feed(&mut self, bytes: PackedByteArray) {
        self.decoder.feed(bytes.as_slice());
    }

    /// The values whose bytes have all arrived, in order, taken from the decoder. Stops at
    /// an invalid value: the values before it are returned, and [method get_error] tells
    /// about it (it is [constant OK] when none failed).
    #[func]
    fn take_values(&mut self) -> VarArray {
        self.failure = None;
        // `set_format` keeps it one of the generations.
        let generation = Generation::from_number(self.format).unwrap_or(Generation::GODOT_4);
        let opts = DecodeOptions::default()
            .with_allow_objects(self.allow_objects)
            .with_max_depth(MAX_RECURSION_DEPTH)
            .with_generation(generation);
        let mut values = VarArray::new();
        loop {
            let frame = match self.decoder.next_frame() {
                Ok(Some(frame)) => frame,
                Ok(None) => break,
                Err(e) => {
                    self.failure = Some(stream_failure(&e));
                    break;
                }
            };
            let frame_offset = (frame.body_offset - 4) as i64;
            match decode_variant(frame.body, frame.body_offset, &opts) {
                Ok((value, _)) => values.push(&value),
                Err(e) => {
                    self.failure = Some((Failure::from(e), frame_offset));
                    break;
                }
            }
        }
        values
    }

    /// Whether the stream can end here: [constant OK] between frames, else
    /// [constant ERR_FILE_EOF] (a frame is cut short) or the error that stopped the decoder.
    #[func]
    fn finish(&mut self) -> Error {
        match self.decoder.finish() {
            Ok(()) => Error::OK,
            Err(e) => {
                let failure = stream_failure(&e);
                let error = failure.0.error;
                self.failure = Some(failure);
                error
            }
        }
    }

    /// Bytes fed and not yet taken as values: the start of a value still arriving.
    #[func]
    fn get_buffered_size(&self) -> i64 {
        self.decoder.buffered() as i64
    }

    /// Offset in the stream of the next value's frame: the bytes taken so far.
    #[func]
    fn get_offset(&self) -> i64 {
        self.decoder.offset() as i64
    }

    /// The error of the last [method take_values], [method finish] or [member format]
    /// change, [constant OK] if it had none.
    #[func]
    fn get_error(&self) -> Error {
        self.failure.as_ref().map_or(Error::OK, |(f, _)| f.error)
    }

    /// Where the frame of that error starts in the stream (its length prefix), -1 without
    /// an error.
    #[func]
    fn get_error_offset(&self) -> i64 {
        self.failure.as_ref().map_or(-1, |(_, offset)| *offset)
    }

    /// What that error was, with the byte offset where it was found; empty without one.
    #[func]
    fn get_error_message(&self) -> GString {
        self.failure
            .as_ref()
            .map_or_else(GString::new, |(f, _)| GString::from(f.message.as_str()))
    }
}

fn stream_failure(e: &StreamError) -> (Failure, i64) {
    let error = match e.kind {
        StreamErrorKind::FrameTooLong { .. } => Error::ERR_OUT_OF_MEMORY,
        StreamErrorKind::Truncated { .. } => Error::ERR_FILE_EOF,
        _ => Error::ERR_INVALID_DATA,
    };
    (Failure::new(error, e.to_string()), e.offset as i64)
}
