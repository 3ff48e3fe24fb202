//! The wire layer: little-endian primitives with offsets and bounds, under the value codec.
//!
//! [`Reader`] never reads past its input and never allocates more than the input can
//! hold. [`Sink`] is where encoded bytes go: a `Vec<u8>` appends them, a [`SliceSink`]
//! writes them into a buffer sized beforehand, a [`SizeCounter`] only counts them, so the
//! encoded size comes from the very same walk as the bytes. [`Text`] is what the encoder
//! writes as a string: a `str`, or any text that can tell its UTF-8 length and write it.

mod scan;

pub(crate) use scan::{is_plain_16, padded_text, plain_text, window_text};
pub use scan::{short_word, short_words, text_until_nul, TEXT_WINDOW};

use crate::error::{DecodeError, DecodeErrorKind};

/// Plain numeric data whose little-endian bytes are its wire form (on a little-endian
/// host, its memory). Sealed: every bit pattern is a valid value and there is no padding.
pub trait Plain: Copy + sealed::Sealed {
    /// Its size in bytes, on the wire and in memory.
    const SIZE: usize;
    /// The value of the first `SIZE` bytes of `bytes`, little-endian.
    fn from_le(bytes: &[u8]) -> Self;
    /// Appends its `SIZE` little-endian bytes to `out`.
    fn put_le(self, out: &mut Vec<u8>);
    /// Writes the `SIZE` little-endian bytes to the start of `out`.
    fn write_le(self, out: &mut [u8]);
}

mod sealed {
    pub trait Sealed {}
}

macro_rules! plain_scalar {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl Plain for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            #[inline]
            fn from_le(bytes: &[u8]) -> Self {
                <$t>::from_le_bytes(bytes[..Self::SIZE].try_into().expect("sized by caller"))
            }
            #[inline]
            fn put_le(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            #[inline]
            fn write_le(self, out: &mut [u8]) {
                out[..Self::SIZE].copy_from_slice(&self.to_le_bytes());
            }
        }
    )*};
}
plain_scalar!(u8, i32, u32, i64, u64, f32, f64);

impl<T: Plain, const N: usize> sealed::Sealed for [T; N] {}
impl<T: Plain, const N: usize> Plain for [T; N] {
    const SIZE: usize = T::SIZE * N;
    #[inline]
    fn from_le(bytes: &[u8]) -> Self {
        let bytes = &bytes[..Self::SIZE];
        // One load of all N: element by element, each is a call, and the elements are
        // then stored one by one and read back whole, a load that waits for the stores.
        // SAFETY: `Plain` types have no padding and no invalid bit patterns, and `bytes`
        // holds exactly `SIZE` of them, which on a little-endian host are the value's memory.
        #[cfg(target_endian = "little")]
        return unsafe { bytes.as_ptr().cast::<Self>().read_unaligned() };
        #[cfg(not(target_endian = "little"))]
        std::array::from_fn(|i| T::from_le(&bytes[i * T::SIZE..]))
    }
    #[inline]
    fn put_le(self, out: &mut Vec<u8>) {
        // One capacity check and one copy for all N: element by element, each push
        // reloads the Vec's length after the store before it.
        #[cfg(target_endian = "little")]
        out.extend_from_slice(memory_of(std::slice::from_ref(&self)));
        #[cfg(not(target_endian = "little"))]
        for x in self {
            x.put_le(out);
        }
    }
    #[inline]
    fn write_le(self, out: &mut [u8]) {
        for (i, x) in self.into_iter().enumerate() {
            x.write_le(&mut out[i * T::SIZE..]);
        }
    }
}

/// The bytes of a slice of plain values, as they lie in memory: on a little-endian host,
/// their wire form.
#[cfg(target_endian = "little")]
pub fn memory_of<T: Plain>(items: &[T]) -> &[u8] {
    // SAFETY: `Plain` types have no padding and no invalid bit patterns, u8 has alignment 1,
    // and the length covers exactly the slice's memory.
    unsafe { std::slice::from_raw_parts(items.as_ptr().cast::<u8>(), std::mem::size_of_val(items)) }
}

/// The little-endian bytes of a slice of plain values: their memory on a little-endian
/// host, a converted copy elsewhere.
pub fn le_bytes_of<T: Plain>(items: &[T]) -> std::borrow::Cow<'_, [u8]> {
    #[cfg(target_endian = "little")]
    {
        std::borrow::Cow::Borrowed(memory_of(items))
    }
    #[cfg(not(target_endian = "little"))]
    {
        let mut out = Vec::with_capacity(items.len() * T::SIZE);
        items.iter().for_each(|&x| x.put_le(&mut out));
        std::borrow::Cow::Owned(out)
    }
}

/// Plain values from their little-endian bytes (a whole number of them): the bytes
/// themselves when they lie aligned on a little-endian host, else a copy.
pub fn plain_items<T: Plain>(bytes: &[u8]) -> std::borrow::Cow<'_, [T]> {
    debug_assert_eq!(bytes.len() % T::SIZE, 0);
    let count = bytes.len() / T::SIZE;
    #[cfg(target_endian = "little")]
    if bytes.as_ptr().align_offset(std::mem::align_of::<T>()) == 0 {
        // SAFETY: the pointer is aligned for `T`, the `count * T::SIZE` bytes are in bounds
        // and borrowed for the result's lifetime, and any bytes form valid `Plain` values
        // (no padding, no invalid bit patterns), whose memory is their little-endian form.
        return std::borrow::Cow::Borrowed(unsafe {
            std::slice::from_raw_parts(bytes.as_ptr().cast::<T>(), count)
        });
    }
    std::borrow::Cow::Owned(
        Reader::new(bytes, 0)
            .read_plain_vec(count, "plain values")
            .expect("a whole number of values"),
    )
}

/// Asks the processor to bring the cache line holding `address` into its cache, without
/// waiting for it: a hint, which reads nothing and cannot fault, whatever the address
/// (nothing on processors other than x86_64).
#[inline(always)]
pub fn prefetch_line(address: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch only hints; it neither reads nor faults, whatever the address.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(address.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = address;
}

/// Bytes read from the input with a cursor. The cursor may pass the end by bytes the engine
/// counts without checking they are there: the padding of a trailing PackedByteArray (up
/// to 3), in Godot 2 also an Image's padding or an InputEvent's length word (up to 4);
/// every read beyond the end fails.
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    input: &'a [u8],
    pos: usize,
    /// Added to positions in errors, for inputs that are a window into a larger buffer.
    base: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `input`; `base`, the input's offset in a larger buffer, is
    /// added to the offsets of errors.
    pub fn new(input: &'a [u8], base: usize) -> Self {
        Reader {
            input,
            pos: 0,
            base,
        }
    }

    /// Bytes consumed so far, as the engine counts them.
    pub fn consumed(&self) -> usize {
        self.pos
    }

    /// Absolute offset of the cursor, for error reports.
    pub fn offset(&self) -> usize {
        self.base + self.pos
    }

    /// The input's bytes from `start` (a position this reader had) to the cursor.
    #[inline]
    pub fn bytes_since(&self, start: usize) -> &'a [u8] {
        let end = self.pos.min(self.input.len());
        &self.input[start.min(end)..end]
    }

    /// The bytes after the cursor (none once it has passed the end).
    #[inline(always)]
    pub(crate) fn rest(&self) -> &'a [u8] {
        self.input.get(self.pos..).unwrap_or_default()
    }

    /// Asks the processor to bring the input's bytes `from..to` (clamped to the input) into
    /// its cache, a line at a time (see [`prefetch_line`]). Out of line and cold: a loop
    /// that calls it only now and then (after a long text) stays as tight as without it.
    #[cold]
    #[inline(never)]
    pub(crate) fn prefetch(&self, from: usize, to: usize) {
        let to = to.min(self.input.len());
        for at in (from..to).step_by(64) {
            prefetch_line(self.input.as_ptr().wrapping_add(at));
        }
    }

    /// Bytes after the cursor (none once it has passed the end).
    pub fn remaining(&self) -> usize {
        self.input.len().saturating_sub(self.pos)
    }

    /// An error at the cursor (see [`error_at`](Self::error_at)).
    pub fn error(&self, kind: DecodeErrorKind) -> DecodeError {
        self.error_at(self.pos, kind)
    }

    /// An error at `pos`; a cursor past the end (unchecked padding) reports the end, so an
    /// offset always lies within the input.
    #[cold]
    pub fn error_at(&self, pos: usize, kind: DecodeErrorKind) -> DecodeError {
        DecodeError {
            offset: self.base + pos.min(self.input.len()),
            kind,
        }
    }

    /// The next `n` bytes; `what` names the item for the truncation error.
    #[inline]
    pub fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], DecodeError> {
        match self.try_take(n) {
            Some(bytes) => Ok(bytes),
            None => Err(self.truncated(what)),
        }
    }

    /// The next `n` bytes, or `None` (the cursor unmoved) when the input holds fewer.
    #[inline(always)]
    pub(crate) fn try_take(&mut self, n: usize) -> Option<&'a [u8]> {
        // One range check: an end that wrapped around lies before the cursor, and a cursor
        // past the end (after unchecked padding) makes any range fail.
        let end = self.pos.wrapping_add(n);
        let bytes = self.input.get(self.pos..end)?;
        self.pos = end;
        Some(bytes)
    }

    /// Kept out of the readers' fast paths: input is rarely truncated.
    #[cold]
    #[inline(never)]
    fn truncated(&self, what: &'static str) -> DecodeError {
        self.error(DecodeErrorKind::Truncated(what))
    }

    /// The next value of `T`, little-endian; `what` names it for the truncation error.
    #[inline(always)]
    pub fn read<T: Plain>(&mut self, what: &'static str) -> Result<T, DecodeError> {
        self.take(T::SIZE, what).map(T::from_le)
    }

    /// The next 32-bit word without moving the cursor, if there is one.
    #[inline]
    pub fn peek_u32(&self) -> Option<u32> {
        // As in `try_take`: an end that wrapped around lies before the cursor.
        let bytes = self.input.get(self.pos..self.pos.wrapping_add(4))?;
        Some(<u32 as Plain>::from_le(bytes))
    }

    /// The next `N` bytes without moving the cursor, if there are that many.
    #[inline(always)]
    pub(crate) fn peek<const N: usize>(&self) -> Option<&'a [u8; N]> {
        // As in `try_take`: an end that wrapped around lies before the cursor.
        let bytes = self.input.get(self.pos..self.pos.wrapping_add(N))?;
        bytes.try_into().ok()
    }

    /// `count` plain values, after the caller checked they fit in the input.
    pub fn read_plain_vec<T: Plain>(
        &mut self,
        count: usize,
        what: &'static str,
    ) -> Result<Vec<T>, DecodeError> {
        let bytes = self.take(count * T::SIZE, what)?;
        #[cfg(target_endian = "little")]
        {
            let mut items = Vec::<T>::with_capacity(count);
            // SAFETY: `items` has room for `count` values, exactly `bytes.len()` bytes; `Plain`
            // values have no padding and any bytes form a valid one, so after the copy the
            // first `count` elements are initialized.
            unsafe {
                std::ptr::copy_nonoverlapping(
                    bytes.as_ptr(),
                    items.as_mut_ptr().cast::<u8>(),
                    bytes.len(),
                );
                items.set_len(count);
            }
            Ok(items)
        }
        #[cfg(not(target_endian = "little"))]
        {
            Ok(bytes.chunks_exact(T::SIZE).map(T::from_le).collect())
        }
    }

    /// Moves the cursor over `n` bytes without checking they are present, as the engine
    /// does over a PackedByteArray's padding (see [`Reader`]).
    pub fn skip_unchecked(&mut self, n: usize) {
        self.pos += n;
    }
}

/// Where encoded bytes go.
pub trait Sink {
    /// Bytes written (or counted) so far.
    fn position(&self) -> usize;
    /// Writes `bytes`.
    fn put_bytes(&mut self, bytes: &[u8]);
    /// Writes `n` zero bytes (padding).
    fn put_zeros(&mut self, n: usize);
    /// Writes one value's little-endian bytes.
    fn put<T: Plain>(&mut self, value: T);
    /// Writes the little-endian bytes of `items`, one after another (a packed array's
    /// elements: on a little-endian host, their memory).
    fn put_slice<T: Plain>(&mut self, items: &[T]);
    /// `n` bytes that `fill` writes into the slice it is given (exactly `n` long). A sink
    /// that only counts does not call `fill`.
    fn put_with(&mut self, n: usize, fill: impl FnOnce(&mut [u8]));
    /// The first `len` bytes of `chunk` (at most `N`): a `Vec` copies the whole fixed-size
    /// chunk, one capacity check and plain stores, and drops the tail again.
    #[inline]
    fn put_chunk_prefix<const N: usize>(&mut self, chunk: &[u8; N], len: usize) {
        self.put_bytes(&chunk[..len]);
    }
}

impl Sink for Vec<u8> {
    #[inline]
    fn position(&self) -> usize {
        Vec::len(self)
    }
    #[inline]
    fn put_bytes(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
    #[inline]
    fn put_zeros(&mut self, n: usize) {
        // Padding is 0 to 4 bytes: fixed-size stores rather than a call to memset.
        match n {
            0 => {}
            1 => self.push(0),
            2 => self.extend_from_slice(&[0; 2]),
            3 => self.extend_from_slice(&[0; 3]),
            4 => self.extend_from_slice(&[0; 4]),
            _ => self.resize(Vec::len(self) + n, 0),
        }
    }
    #[inline]
    fn put<T: Plain>(&mut self, value: T) {
        value.put_le(self);
    }
    fn put_slice<T: Plain>(&mut self, items: &[T]) {
        #[cfg(target_endian = "little")]
        self.extend_from_slice(memory_of(items));
        #[cfg(not(target_endian = "little"))]
        for &x in items {
            x.put_le(self);
        }
    }
    #[inline]
    fn put_with(&mut self, n: usize, fill: impl FnOnce(&mut [u8])) {
        let start = Vec::len(self);
        self.resize(start + n, 0);
        fill(&mut self[start..]);
    }
    #[inline]
    fn put_chunk_prefix<const N: usize>(&mut self, chunk: &[u8; N], len: usize) {
        debug_assert!(len <= N);
        let end = Vec::len(self) + len;
        self.extend_from_slice(chunk);
        self.truncate(end);
    }
}

impl<S: Sink + ?Sized> Sink for &mut S {
    #[inline]
    fn position(&self) -> usize {
        (**self).position()
    }
    #[inline]
    fn put_bytes(&mut self, bytes: &[u8]) {
        (**self).put_bytes(bytes)
    }
    #[inline]
    fn put_zeros(&mut self, n: usize) {
        (**self).put_zeros(n)
    }
    #[inline]
    fn put<T: Plain>(&mut self, value: T) {
        (**self).put(value)
    }
    #[inline]
    fn put_slice<T: Plain>(&mut self, items: &[T]) {
        (**self).put_slice(items)
    }
    #[inline]
    fn put_with(&mut self, n: usize, fill: impl FnOnce(&mut [u8])) {
        (**self).put_with(n, fill)
    }
    #[inline]
    fn put_chunk_prefix<const N: usize>(&mut self, chunk: &[u8; N], len: usize) {
        (**self).put_chunk_prefix(chunk, len)
    }
}

/// A sink that only counts: the encoded size without the bytes.
#[derive(Debug, Default, Clone, Copy)]
pub struct SizeCounter(pub usize);

impl Sink for SizeCounter {
    #[inline]
    fn position(&self) -> usize {
        self.0
    }
    #[inline]
    fn put_bytes(&mut self, bytes: &[u8]) {
        self.0 += bytes.len();
    }
    #[inline]
    fn put_zeros(&mut self, n: usize) {
        self.0 += n;
    }
    #[inline]
    fn put<T: Plain>(&mut self, _: T) {
        self.0 += T::SIZE;
    }
    #[inline]
    fn put_slice<T: Plain>(&mut self, items: &[T]) {
        self.0 += T::SIZE * items.len();
    }
    #[inline]
    fn put_with(&mut self, n: usize, _: impl FnOnce(&mut [u8])) {
        self.0 += n;
    }
}

/// A sink writing into a buffer sized beforehand (from a [`SizeCounter`] walk), e.g. the
/// memory of the array the bytes are returned in. Writing past its end writes nothing more
/// and marks it [overflowed](SliceSink::overflowed); it never panics.
#[derive(Debug)]
pub struct SliceSink<'a> {
    buf: &'a mut [u8],
    pos: usize,
    overflowed: bool,
}

impl<'a> SliceSink<'a> {
    /// A sink writing `buf` from its start.
    pub fn new(buf: &'a mut [u8]) -> Self {
        SliceSink {
            buf,
            pos: 0,
            overflowed: false,
        }
    }

    /// Whether more was written than the buffer holds (the walk that sized it wrote less).
    pub fn overflowed(&self) -> bool {
        self.overflowed
    }

    /// Whether exactly the whole buffer was written.
    pub fn is_full(&self) -> bool {
        !self.overflowed && self.pos == self.buf.len()
    }

    /// The next `n` bytes of the buffer, or `None` (and overflowed) if it is too short.
    #[inline]
    pub fn next_bytes(&mut self, n: usize) -> Option<&mut [u8]> {
        let end = self.pos.checked_add(n).filter(|&end| end <= self.buf.len());
        match end {
            Some(end) if !self.overflowed => {
                let bytes = &mut self.buf[self.pos..end];
                self.pos = end;
                Some(bytes)
            }
            _ => {
                self.overflowed = true;
                None
            }
        }
    }
}

impl Sink for SliceSink<'_> {
    #[inline]
    fn position(&self) -> usize {
        self.pos
    }
    #[inline]
    fn put_bytes(&mut self, bytes: &[u8]) {
        if let Some(out) = self.next_bytes(bytes.len()) {
            out.copy_from_slice(bytes);
        }
    }
    #[inline]
    fn put_zeros(&mut self, n: usize) {
        if let Some(out) = self.next_bytes(n) {
            out.fill(0);
        }
    }
    #[inline]
    fn put<T: Plain>(&mut self, value: T) {
        if let Some(out) = self.next_bytes(T::SIZE) {
            value.write_le(out);
        }
    }
    fn put_slice<T: Plain>(&mut self, items: &[T]) {
        if let Some(out) = self.next_bytes(T::SIZE * items.len()) {
            #[cfg(target_endian = "little")]
            out.copy_from_slice(memory_of(items));
            #[cfg(not(target_endian = "little"))]
            for (i, &x) in items.iter().enumerate() {
                x.write_le(&mut out[i * T::SIZE..]);
            }
        }
    }
    #[inline]
    fn put_with(&mut self, n: usize, fill: impl FnOnce(&mut [u8])) {
        if let Some(out) = self.next_bytes(n) {
            fill(out);
        }
    }
}

/// Text the encoder writes as a string: its UTF-8 bytes, whose length is known up front
/// (it is written before them). `str` is the plain case; the Godot binding writes the
/// engine's UTF-32 strings through it without making a Rust `String` first.
pub trait Text {
    /// Length of the UTF-8 form, in bytes.
    fn utf8_len(&self) -> usize;
    /// Puts exactly `utf8_len()` bytes, the UTF-8 form.
    fn put_utf8<S: Sink + ?Sized>(&self, sink: &mut S);
    /// The UTF-8 form itself, when the text holds it (a `str`), so that a short text can be
    /// written in one piece with what goes around it.
    #[inline]
    fn utf8_bytes(&self) -> Option<&[u8]> {
        None
    }
    /// The text as a Rust `String`.
    fn to_utf8(&self) -> String {
        let mut bytes = Vec::with_capacity(self.utf8_len());
        self.put_utf8(&mut bytes);
        // `put_utf8` puts UTF-8.
        String::from_utf8(bytes).unwrap_or_default()
    }
}

/// `str` and `String`: the text is its own UTF-8 form.
macro_rules! utf8_text {
    ($($t:ty),*) => {$(
        impl Text for $t {
            #[inline]
            fn utf8_len(&self) -> usize {
                self.len()
            }
            #[inline]
            fn put_utf8<S: Sink + ?Sized>(&self, sink: &mut S) {
                sink.put_bytes(self.as_bytes());
            }
            #[inline]
            fn utf8_bytes(&self) -> Option<&[u8]> {
                Some(self.as_bytes())
            }
        }
    )*};
}
utf8_text!(str, String);

/// Zero bytes that pad `len` to a multiple of 4.
#[inline]
pub fn padding(len: usize) -> usize {
    (4 - len % 4) % 4
}
