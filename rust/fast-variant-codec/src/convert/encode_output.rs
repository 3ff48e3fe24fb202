//! Where the writer's bytes go, and the calls that size and write a value: memory sized
//! beforehand (the PackedByteArray the bytes are returned in, large packed arrays copied
//! into it in parallel), the thread's buffer for containers, and the walk that only counts.

use std::ffi::c_void;

use godot::builtin::{PackedByteArray, Variant};
use godot::sys::GodotFfi;
use godot_variant_codec::stream::{frame_prefix, PREFIX_LEN};
use godot_variant_codec::wire::{memory_of, Plain, Sink, SizeCounter, SliceSink};
use godot_variant_codec::{EncodeError, EncodeOptions, Encoder};

use crate::convert::variant_writer::{holds_values, VariantWriter, WriteError, WriteMode};
use crate::engine::ffi::ffi;
use crate::engine::parallel;

/// Writes into memory sized beforehand (the PackedByteArray the bytes are returned in),
/// copying large packed arrays in parallel.
pub struct OutSink<'a>(SliceSink<'a>);

impl<'a> OutSink<'a> {
    pub fn new(buf: &'a mut [u8]) -> Self {
        OutSink(SliceSink::new(buf))
    }
}

impl Sink for OutSink<'_> {
    #[inline]
    fn position(&self) -> usize {
        self.0.position()
    }
    #[inline]
    fn put_bytes(&mut self, bytes: &[u8]) {
        self.0.put_bytes(bytes)
    }
    #[inline]
    fn put_zeros(&mut self, n: usize) {
        self.0.put_zeros(n)
    }
    #[inline]
    fn put<T: Plain>(&mut self, value: T) {
        self.0.put(value)
    }
    fn put_slice<T: Plain>(&mut self, items: &[T]) {
        let bytes = memory_of(items);
        if bytes.len() < parallel::PARALLEL_COPY_MIN {
            self.0.put_bytes(bytes);
        } else if let Some(out) = self.0.next_bytes(bytes.len()) {
            parallel::copy(out, bytes);
        }
    }
    #[inline]
    fn put_with(&mut self, n: usize, fill: impl FnOnce(&mut [u8])) {
        self.0.put_with(n, fill)
    }
}

/// A new PackedByteArray holding `bytes` (copied in parallel when large).
pub fn packed_bytes(bytes: &[u8]) -> PackedByteArray {
    let mut out = PackedByteArray::new();
    // SAFETY: a new array, held here, whose every byte is copied in.
    let memory = unsafe { ffi().sized_bytes(out.sys_mut().cast(), bytes.len()) };
    parallel::copy(memory, bytes);
    out
}

thread_local! {
    /// The buffer a container is written into, kept between calls on this thread.
    static BUFFER: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}

/// Above this, the thread's buffer is given back to the allocator after use.
const KEPT_BUFFER: usize = 1 << 20;

/// Runs `work` with this thread's buffer, empty (a call made while it is lent out, from a
/// script run by a property getter, gets a new one).
pub fn with_buffer<R>(work: impl FnOnce(&mut Vec<u8>) -> R) -> R {
    let mut buffer = BUFFER.take();
    buffer.clear();
    let result = work(&mut buffer);
    if buffer.capacity() <= KEPT_BUFFER {
        BUFFER.set(buffer);
    }
    result
}

/// Slices shorter than this are copied at once, those from this size on left for one copy
/// straight into the returned memory (see [`is_noted`]).
const GATHERED_SLICE_MIN: usize = 4096;

/// Whether a slice of `len` bytes is noted and copied later, straight into the returned
/// memory ([`GatherSink`], the batches' deferred copies), rather than copied at once.
#[inline]
pub fn is_noted(len: usize) -> bool {
    len >= GATHERED_SLICE_MIN
}

/// Writes a container's bytes into a buffer, but for its large slices (a packed array's
/// elements), which are only noted and copied from their own memory once the returned
/// memory exists: the buffer then holds the rest alone, headers and small values.
///
/// The slices are read where the written values hold them, after the walk, and must not
/// change until [`copy_into`](Self::copy_into) is done: without full objects no script
/// runs during the walk and the calling thread stays in the call; with them, the writer's
/// [`into_held`](VariantWriter::into_held) references keep the arrays as they were.
pub struct GatherSink<'b> {
    buffer: &'b mut Vec<u8>,
    /// The noted slices in the order written, each with where it goes in the buffer.
    slices: Vec<GatheredSlice>,
    /// The noted slices' bytes in all.
    gathered: usize,
}

struct GatheredSlice {
    /// The buffer's length when the slice was written: its bytes go there.
    at: usize,
    src: *const u8,
    len: usize,
}

impl<'b> GatherSink<'b> {
    pub fn new(buffer: &'b mut Vec<u8>) -> Self {
        GatherSink {
            buffer,
            slices: Vec::new(),
            gathered: 0,
        }
    }

    /// Writes one frame, as `store_var` / `put_var` write a value (the stream's framing
    /// rule: [`frame_prefix`]): its length, then the body `write_body` writes. On error the
    /// sink holds part of the frame: the caller drops it.
    pub fn frame<E: From<EncodeError>>(
        &mut self,
        write_body: impl FnOnce(&mut Self) -> Result<(), E>,
    ) -> Result<(), E> {
        let start = self.position();
        let at = self.buffer.len();
        self.buffer.put(0u32);
        write_body(self)?;
        let len = self.position() - start - PREFIX_LEN;
        // The body's header, put whole, lies in the buffer.
        let prefix = frame_prefix(start, len, self.buffer[at + PREFIX_LEN])?;
        self.buffer[at..at + PREFIX_LEN].copy_from_slice(&prefix);
        Ok(())
    }

    /// A new PackedByteArray holding every byte (see [`copy_into`](Self::copy_into)).
    pub fn packed_bytes(&self) -> PackedByteArray {
        let mut out = PackedByteArray::new();
        // SAFETY: a new array, held here, whose every byte `copy_into` writes.
        let memory = unsafe { ffi().sized_bytes(out.sys_mut().cast(), self.position()) };
        self.copy_into(memory);
        out
    }

    /// Writes every byte into `out` (exactly [`position`](Sink::position) long): the
    /// buffer's bytes with the noted slices in their places.
    pub fn copy_into(&self, out: &mut [u8]) {
        assert_eq!(out.len(), self.position(), "memory of the written size");
        let (mut from, mut to) = (0, 0);
        for slice in &self.slices {
            let part = &self.buffer[from..slice.at];
            parallel::copy(&mut out[to..to + part.len()], part);
            to += part.len();
            // SAFETY: a slice of a packed array the written value holds, unchanged since it
            // was noted (see the type's docs).
            let src = unsafe { std::slice::from_raw_parts(slice.src, slice.len) };
            parallel::copy(&mut out[to..to + slice.len], src);
            to += slice.len;
            from = slice.at;
        }
        parallel::copy(&mut out[to..], &self.buffer[from..]);
    }
}

impl Sink for GatherSink<'_> {
    #[inline]
    fn position(&self) -> usize {
        self.buffer.len() + self.gathered
    }
    #[inline]
    fn put_bytes(&mut self, bytes: &[u8]) {
        self.buffer.put_bytes(bytes)
    }
    #[inline]
    fn put_zeros(&mut self, n: usize) {
        self.buffer.put_zeros(n)
    }
    #[inline]
    fn put<T: Plain>(&mut self, value: T) {
        self.buffer.put(value)
    }
    fn put_slice<T: Plain>(&mut self, items: &[T]) {
        let bytes = memory_of(items);
        if !is_noted(bytes.len()) {
            self.buffer.put_bytes(bytes);
        } else {
            self.slices.push(GatheredSlice {
                at: self.buffer.len(),
                src: bytes.as_ptr(),
                len: bytes.len(),
            });
            self.gathered += bytes.len();
        }
    }
    #[inline]
    fn put_with(&mut self, n: usize, fill: impl FnOnce(&mut [u8])) {
        self.buffer.put_with(n, fill)
    }
    #[inline]
    fn put_chunk_prefix<const N: usize>(&mut self, chunk: &[u8; N], len: usize) {
        self.buffer.put_chunk_prefix(chunk, len)
    }
}

/// A sink writing into memory sized beforehand, which can tell whether it was filled.
pub trait Filled: Sink {
    fn is_full(&self) -> bool;
}

impl Filled for OutSink<'_> {
    fn is_full(&self) -> bool {
        self.0.is_full()
    }
}

/// Writes `v` into the memory `memory(size)` gives once the size is known, through the
/// sink `sink` makes of it.
///
/// A value whose size is known without walking other values (a packed array, a string…)
/// is sized first, then written straight into that memory. A container is written in one
/// walk into a buffer, then copied: a second walk to size it would cost more than the copy
/// (the walk calls into the engine per element; the copy is a memcpy). The container's
/// large packed arrays are not copied into the buffer but straight from their own memory
/// into the returned memory (see [`GatherSink`]), so the call holds little more than the
/// returned bytes.
pub fn encode_with<'m, S: Filled>(
    v: &Variant,
    opts: EncodeOptions,
    mode: WriteMode,
    memory: impl FnOnce(usize) -> &'m mut [u8],
    sink: impl FnOnce(&'m mut [u8]) -> S,
) -> Result<(), WriteError> {
    if holds_values(ffi().type_of(v)) {
        return with_buffer(|buffer| {
            let mut gather = GatherSink::new(buffer);
            let mut writer = VariantWriter::new(Encoder::new(&mut gather, opts), mode);
            writer.value(v, 0)?;
            // Kept until the noted arrays are copied.
            let held = writer.into_held();
            gather.copy_into(memory(gather.position()));
            drop(held);
            Ok(())
        });
    }
    let size = encoded_size(v, opts, mode)?;
    let mut writer = VariantWriter::new(Encoder::new(sink(memory(size)), opts), mode);
    writer.value(v, 0)?;
    // Nothing runs between the two walks of a value that holds no others.
    assert!(
        writer.enc.sink().is_full(),
        "the value changed while it was written"
    );
    Ok(())
}

/// The bytes of `v`, into the PackedByteArray at `bytes` (an engine `PackedByteArray*`):
/// sized once, every byte written. On error it is as it was.
///
/// # Safety
/// `bytes` points to an empty PackedByteArray held only by the caller, which nothing else
/// reads or changes during the call.
pub unsafe fn encode_into(
    v: &Variant,
    opts: &EncodeOptions,
    mode: WriteMode,
    bytes: *mut c_void,
) -> Result<(), WriteError> {
    encode_with(
        v,
        *opts,
        mode,
        // SAFETY: (the memory) the caller's empty array: `encode_with` sizes it once and
        // writes every byte.
        |size| unsafe { ffi().sized_bytes(bytes, size) },
        OutSink::new,
    )
}

/// How many bytes `v` takes, from a walk that only counts.
pub fn encoded_size(
    v: &Variant,
    opts: EncodeOptions,
    mode: WriteMode,
) -> Result<usize, WriteError> {
    let mut counter = VariantWriter::new(Encoder::new(SizeCounter::default(), opts), mode);
    counter.value(v, 0)?;
    Ok(counter.enc.sink().0)
}
