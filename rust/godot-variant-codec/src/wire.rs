//! The wire layer: little-endian primitives with offsets and bounds, under the value codec.
//!
//! [`Reader`] never reads past its input and never allocates more than the input can
//! hold. [`Sink`] is where encoded bytes go: a `Vec<u8>` appends them, a [`SliceSink`]
//! writes them into a buffer sized beforehand, a [`SizeCounter`] only counts them, so the
//! encoded size comes from the very same walk as the bytes. [`Text`] is what the encoder
//! writes as a string: a `str`, or any text that can tell its UTF-8 length and write it.

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
        // One load of all N: element by element, each was a call, and the elements were
        // then stored one by one and read back whole (a stalled load; a third of the
        // decoding of an Array of Vector3s).
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
        // reloads the Vec's length after the store before it (a Projection's 16 floats
        // took longer than the engine's whole encode of one).
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

impl Text for str {
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

impl Text for String {
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

/// The text of a string's bytes: up to the first NUL (where the engine's text ends), as
/// UTF-8, or `None` when that is not valid UTF-8.
///
/// One pass, a word at a time, finds the NUL and tells ASCII (the usual case, which needs no
/// further validation) from text that `std::str::from_utf8` must check. The last word is
/// the last 8 bytes, overlapping the words before it (which hold no NUL, and whose bytes
/// ORed again change nothing): no loop over single bytes, whose varying trip count costs
/// mispredicted branches.
pub fn text_until_nul(bytes: &[u8]) -> Option<&str> {
    let mut high_bits = 0;
    let len = bytes.len();
    let end = if len < 8 {
        scan_word(short_word(bytes), (1u64 << (8 * len)) - 1, &mut high_bits)
    } else {
        let mut end = None;
        let mut at = 0;
        while end.is_none() && at + 8 < len {
            end = scan_word(
                <u64 as Plain>::from_le(&bytes[at..]),
                u64::MAX,
                &mut high_bits,
            )
            .map(|k| at + k);
            at += 8;
        }
        end.or_else(|| {
            scan_word(
                <u64 as Plain>::from_le(&bytes[len - 8..]),
                u64::MAX,
                &mut high_bits,
            )
            .map(|k| len - 8 + k)
        })
    };
    checked_text(&bytes[..end.unwrap_or(len)], high_bits)
}

/// At most 8 bytes as the low bytes of a little-endian word (zero above), from at most
/// three loads: two overlapping 4-byte loads, or the first, middle and last byte.
#[inline(always)]
pub fn short_word(bytes: &[u8]) -> u64 {
    let n = bytes.len();
    match n {
        0 => 0,
        1..=3 => {
            u64::from(bytes[0])
                | u64::from(bytes[n / 2]) << (8 * (n / 2))
                | u64::from(bytes[n - 1]) << (8 * (n - 1))
        }
        _ => {
            let low = <u32 as Plain>::from_le(bytes);
            let high = <u32 as Plain>::from_le(&bytes[n - 4..]);
            u64::from(low) | u64::from(high) << (8 * (n - 4))
        }
    }
}

/// At most 16 bytes as the low bytes of two little-endian words (zero above): up to 8 as
/// [`short_word`] reads them; from 9 on, the first 8 and the last 8, shifted down past the
/// bytes the two share. No call and no loop, whatever the length.
#[inline(always)]
pub fn short_words(bytes: &[u8]) -> [u64; 2] {
    let n = bytes.len();
    debug_assert!(n <= 16, "{n} bytes");
    if n <= 8 {
        return [short_word(bytes), 0];
    }
    let first = <u64 as Plain>::from_le(bytes);
    let last = <u64 as Plain>::from_le(&bytes[n - 8..]);
    [first, last >> (8 * (16 - n))]
}

/// [`text_until_nul`] of `padded[start..end]`, where `padded` holds a string's bytes and
/// then their padding (a multiple of 4 bytes in all, `end` among the last 4), or is 8 (16)
/// bytes that begin with a string of at most 8 (9 to 16). Most strings (keys, names) fit
/// in 16 bytes: those are one word, or two as in `text_until_nul` (the second being the
/// last 8 bytes), read with what follows them, which is then masked off.
#[inline(always)]
pub(crate) fn padded_text(padded: &[u8], start: usize, end: usize) -> Option<&str> {
    let mut high_bits = 0;
    let text_len = match padded.len() {
        4 | 8 => {
            let word = match padded.len() {
                4 => u64::from(<u32 as Plain>::from_le(padded)),
                _ => <u64 as Plain>::from_le(padded),
            };
            let in_text = bytes_below(end) >> (8 * start);
            scan_word(word >> (8 * start), in_text, &mut high_bits).unwrap_or(end - start)
        }
        12 | 16 => {
            // `end` is past the first word: all of its bytes from `start` are the string's.
            let first = <u64 as Plain>::from_le(padded) >> (8 * start);
            let last_at = padded.len() - 8;
            let last = <u64 as Plain>::from_le(&padded[last_at..]);
            let in_last = end - last_at;
            match scan_word(first, u64::MAX >> (8 * start), &mut high_bits) {
                Some(k) => k,
                None => {
                    let k =
                        scan_word(last, bytes_below(in_last), &mut high_bits).unwrap_or(in_last);
                    last_at + k - start
                }
            }
        }
        _ => return text_until_nul(&padded[start..end]),
    };
    checked_text(&padded[start..][..text_len], high_bits)
}

/// The first `len` bytes of `words` (16 or 24) as text when each is 0x01 to 0x7F (ASCII
/// without a NUL, the usual key or name), found with a few word operations; `None` when
/// any other byte is among them, or `len` passes `N`. (A PackedStringArray's texts, which
/// end at a NUL, are read from a wider window: [`window_text`].)
#[inline(always)]
pub(crate) fn plain_text<const N: usize>(words: &[u8; N], len: usize) -> Option<&str> {
    const LOW: u64 = u64::from_le_bytes([0x01; 8]);
    // A byte of `word` in the low `n` has its high bit set here when it is 0 or above 0x7F
    // (a borrow into a byte above comes only from a zero below it, flagged already).
    let outside =
        |word: u64, n: usize| (word.wrapping_sub(LOW) | word) & HIGH_BITS & bytes_below(n);
    let word = |at: usize| <u64 as Plain>::from_le(&words[at..]);
    let flagged = match len {
        0..=8 => outside(word(0), len),
        9..=16 if N >= 16 => outside(word(0), 8) | outside(word(8), len - 8),
        17..=24 if N >= 24 => {
            outside(word(0), 8) | outside(word(8), 8) | outside(word(16), len - 16)
        }
        _ => return None,
    };
    if flagged != 0 {
        return None;
    }
    checked_text(&words[..len], 0)
}

/// How many bytes from a short text's start a PackedStringArray's walk hands on with it:
/// a text read from a window this wide is read the same way whatever its length.
pub const TEXT_WINDOW: usize = 32;

/// The text of the first `len` bytes of `window` (`len` at most [`TEXT_WINDOW`]) when they
/// are ASCII up to the first NUL, where the text ends (as the engine writes a
/// PackedStringArray's strings: each with its NUL): the usual string, found with no branch
/// on its length (strings of varying lengths would mispredict one). `None` for any other:
/// non-ASCII (a BOM included), or `len` past the window.
#[inline(always)]
pub(crate) fn window_text(window: &[u8; TEXT_WINDOW], len: usize) -> Option<&str> {
    if len > TEXT_WINDOW {
        return None;
    }
    let (zeros, high) = byte_flags(window);
    // The text ends at its first NUL, or at `len`.
    let end = (zeros | 1 << len).trailing_zeros() as usize;
    if high & ((1 << end) - 1) != 0 {
        return None;
    }
    // SAFETY: the first `end` bytes have no high bit set: ASCII, which is valid UTF-8.
    Some(unsafe { std::str::from_utf8_unchecked(&window[..end]) })
}

/// Bit `i` of the first mask is set when byte `i` of `window` is 0, of the second when its
/// high bit is: the SSE2 comparisons every x86_64 processor has.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn byte_flags(window: &[u8; TEXT_WINDOW]) -> (u64, u64) {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_setzero_si128,
    };
    // SAFETY: SSE2 is part of x86_64; the two unaligned loads read the window's 32 bytes.
    unsafe {
        let low = _mm_loadu_si128(window.as_ptr().cast::<__m128i>());
        let high = _mm_loadu_si128(window.as_ptr().add(16).cast::<__m128i>());
        let zero = _mm_setzero_si128();
        let mask = |lo, hi| (lo as u32 as u64) | (hi as u32 as u64) << 16;
        (
            mask(
                _mm_movemask_epi8(_mm_cmpeq_epi8(low, zero)),
                _mm_movemask_epi8(_mm_cmpeq_epi8(high, zero)),
            ),
            mask(_mm_movemask_epi8(low), _mm_movemask_epi8(high)),
        )
    }
}

/// [`byte_flags`] a byte at a time, where there is no SSE2 (and as its test's reference).
#[cfg(any(test, not(target_arch = "x86_64")))]
fn byte_flags_portable(window: &[u8; TEXT_WINDOW]) -> (u64, u64) {
    window
        .iter()
        .enumerate()
        .fold((0, 0), |(zeros, high), (i, &b)| {
            (
                zeros | u64::from(b == 0) << i,
                high | u64::from(b >> 7) << i,
            )
        })
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn byte_flags(window: &[u8; TEXT_WINDOW]) -> (u64, u64) {
    byte_flags_portable(window)
}

/// A mask of the low `n` bytes of a word (`n` up to 8).
#[inline(always)]
fn bytes_below(n: usize) -> u64 {
    u64::MAX.checked_shr(64 - 8 * n as u32).unwrap_or(0)
}

const HIGH_BITS: u64 = u64::from_le_bytes([0x80; 8]);

/// The first zero byte among the bytes of `x` that `in_bytes` covers (0xFF each), if any;
/// ORs the bytes before it into `high_bits`.
#[inline(always)]
fn scan_word(x: u64, in_bytes: u64, high_bits: &mut u64) -> Option<usize> {
    const LOW: u64 = u64::from_le_bytes([0x01; 8]);
    // Flags the zero bytes; a flag can be wrong only above a true zero, so the lowest one
    // is the first zero.
    let zeros = x.wrapping_sub(LOW) & !x & HIGH_BITS & in_bytes;
    if zeros == 0 {
        *high_bits |= x & in_bytes;
        return None;
    }
    let k = zeros.trailing_zeros() / 8;
    *high_bits |= x & ((1u64 << (8 * k)) - 1);
    Some(k as usize)
}

/// `text` as a `str`: ASCII when no byte ORed into `high_bits` has its high bit set, which
/// needs no further check; else when it is valid UTF-8 (checked with SIMD where the
/// processor has it: a long text of non-ASCII characters is read several times faster
/// than by `std::str::from_utf8`).
#[inline(always)]
fn checked_text(text: &[u8], high_bits: u64) -> Option<&str> {
    if high_bits & HIGH_BITS == 0 {
        // SAFETY: no byte of `text` has its high bit set: it is ASCII, which is valid UTF-8.
        Some(unsafe { std::str::from_utf8_unchecked(text) })
    } else {
        simdutf8::basic::from_utf8(text).ok()
    }
}

/// Zero bytes that pad `len` to a multiple of 4.
#[inline]
pub fn padding(len: usize) -> usize {
    (4 - len % 4) % 4
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `text_until_nul` must equal: cut at the first NUL, then validate.
    fn reference(bytes: &[u8]) -> Option<&str> {
        std::str::from_utf8(bytes.split(|&b| b == 0).next().unwrap_or_default()).ok()
    }

    /// `len` ASCII letters, and the same with each of `fillers` put in at each position
    /// (over the letters there; past the end, making the text longer).
    fn texts_with(len: usize, fillers: &[&[u8]]) -> Vec<Vec<u8>> {
        let base: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
        let mut texts = vec![base.clone()];
        for at in 0..len {
            for filler in fillers {
                let mut bytes = base.clone();
                bytes.splice(at..(at + filler.len()).min(len), filler.iter().copied());
                texts.push(bytes);
            }
        }
        texts
    }

    #[test]
    fn text_until_nul_is_the_plain_rule() {
        // Every length up to 3 words, with a NUL, a non-ASCII byte, a multi-byte character
        // or a truncated one placed at each position (and bytes around 0x80 that fool naive
        // zero tests).
        let fillers: [&[u8]; 6] = [b"\0", b"\x80", b"\x81", "é".as_bytes(), b"\xC3", b"\x7F"];
        for len in 0..24 {
            let base: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
            assert_eq!(text_until_nul(&base), reference(&base));
            for at in 0..len {
                for filler in fillers {
                    for tail in [0u8, 1, 0x80, 0xFF] {
                        let mut bytes = base.clone();
                        bytes.splice(at..(at + filler.len()).min(len), filler.iter().copied());
                        bytes.push(tail);
                        assert_eq!(text_until_nul(&bytes), reference(&bytes), "{bytes:?}");
                        bytes.pop();
                        assert_eq!(text_until_nul(&bytes), reference(&bytes), "{bytes:?}");
                    }
                }
            }
        }
        // A zero byte right after 0x01 bytes: flags above the first zero may be false.
        let tricky = [b'a', 0, 1, 1, 0x80, 1, 1, 1, b'b'];
        assert_eq!(text_until_nul(&tricky), Some("a"));
    }

    #[test]
    fn long_texts_are_checked_as_utf8() {
        // Texts long enough for the SIMD check's blocks (64 bytes and more), of one- to
        // four-byte characters, with an invalid or cut sequence, a surrogate, an overlong
        // form or a NUL put at each position of interest.
        let characters = ["a", "é", "日", "😀"];
        let faults: [&[u8]; 7] = [
            b"\x80",
            b"\xFF",
            b"\xC3",
            b"\xE6\x97",
            b"\xED\xA0\x80",
            b"\xC0\xAF",
            b"\0",
        ];
        for character in characters {
            for count in [16, 63, 64, 65, 200] {
                let base = character.repeat(count).into_bytes();
                assert_eq!(text_until_nul(&base), reference(&base));
                for at in [0, 1, base.len() / 2, base.len() - 1, base.len()] {
                    for fault in faults {
                        let mut bytes = base.clone();
                        bytes.splice(at..at, fault.iter().copied());
                        assert_eq!(text_until_nul(&bytes), reference(&bytes), "{bytes:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn window_text_is_the_text_rule_for_ascii() {
        // Texts of every length the window holds, ending at `len` or at a NUL (as in a
        // PackedStringArray), with a NUL, a non-ASCII byte, a multi-byte character or a BOM
        // at each position, followed by bytes that would change the text were they read.
        let fillers: [&[u8]; 5] = [b"\0", b"\x80", b"\xFF", "é".as_bytes(), b"\xEF\xBB\xBF"];
        for len in 0..=TEXT_WINDOW {
            for mut bytes in texts_with(len, &fillers) {
                // A character cut short at the end of the text is invalid UTF-8.
                bytes.truncate(len);
                for after in [0u8, 0x80, b'x'] {
                    let mut window = [after; TEXT_WINDOW];
                    window[..len].copy_from_slice(&bytes);
                    let text = reference(&bytes);
                    let expected = text.filter(|t| t.is_ascii());
                    assert_eq!(
                        window_text(&window, len),
                        expected,
                        "{window:?}, {len} bytes"
                    );
                }
            }
        }
        assert_eq!(window_text(&[b'a'; TEXT_WINDOW], TEXT_WINDOW + 1), None);
    }

    #[test]
    fn byte_flags_flag_zero_and_high_bytes() {
        let mut window = [0u8; TEXT_WINDOW];
        for seed in 0..2000u32 {
            for (i, b) in window.iter_mut().enumerate() {
                let x = seed.wrapping_mul(2_654_435_761).rotate_left(i as u32 % 32) ^ i as u32;
                *b = [0, 1, 0x7F, 0x80, 0xFF, b'a'][(x % 6) as usize];
            }
            let zeros = (0..TEXT_WINDOW)
                .filter(|&i| window[i] == 0)
                .fold(0, |m, i| m | 1 << i);
            let high = (0..TEXT_WINDOW)
                .filter(|&i| window[i] >= 0x80)
                .fold(0, |m, i| m | 1 << i);
            assert_eq!(byte_flags(&window), (zeros, high), "{window:?}");
            assert_eq!(byte_flags_portable(&window), (zeros, high), "{window:?}");
        }
    }

    #[test]
    fn short_word_is_the_bytes_zero_extended() {
        let bytes = [0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88];
        for len in 0..=8 {
            let mut padded = [0; 8];
            padded[..len].copy_from_slice(&bytes[..len]);
            assert_eq!(
                short_word(&bytes[..len]),
                u64::from_le_bytes(padded),
                "{len} bytes"
            );
        }
    }

    #[test]
    fn short_words_are_the_bytes_zero_extended() {
        let bytes: Vec<u8> = (1..=16).collect();
        for len in 0..=16 {
            let mut padded = [0; 16];
            padded[..len].copy_from_slice(&bytes[..len]);
            let expected = [
                u64::from_le_bytes(padded[..8].try_into().unwrap()),
                u64::from_le_bytes(padded[8..].try_into().unwrap()),
            ];
            assert_eq!(short_words(&bytes[..len]), expected, "{len} bytes");
        }
    }

    #[test]
    fn padded_text_ignores_the_padding() {
        // Strings of every length up to 3 words, from their start or after a BOM's 3 bytes,
        // with a NUL or a non-ASCII byte at each position, padded with bytes that would
        // change the text were they read as part of it.
        let fillers: [&[u8]; 3] = [b"\0", b"\x80", "é".as_bytes()];
        for len in 0..24 {
            for bytes in texts_with(len, &fillers) {
                let len = bytes.len();
                for pad in [0u8, 0x80, b'x'] {
                    let mut padded = bytes.clone();
                    padded.resize(len + padding(len), pad);
                    for start in [0, 3].into_iter().filter(|&start| start <= len) {
                        let expected = reference(&bytes[start..]);
                        let text = padded_text(&padded, start, len);
                        assert_eq!(text, expected, "{padded:?} from {start}");
                        if len <= 16 {
                            // The 8 (16) bytes from the string's start, whatever follows it.
                            let mut words = bytes.clone();
                            words.resize(if len <= 8 { 8 } else { 16 }, pad);
                            let text = padded_text(&words, start, len);
                            assert_eq!(text, expected, "{words:?} from {start}");
                            // A plain text is the text; any other is left to the rules.
                            let plain = bytes.iter().all(|b| (1..=0x7F).contains(b));
                            let expected = plain.then(|| reference(&bytes)).flatten();
                            words.resize(16, pad);
                            let words16: &[u8; 16] = words.as_slice().try_into().unwrap();
                            assert_eq!(plain_text(words16, len), expected);
                            words.resize(24, pad);
                            let words24: &[u8; 24] = words.as_slice().try_into().unwrap();
                            assert_eq!(plain_text(words24, len), expected);
                        }
                    }
                }
            }
        }
    }
}
