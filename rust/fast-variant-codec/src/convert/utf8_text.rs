//! The engine's UTF-32 strings written as UTF-8 straight into the output, as the engine's
//! `String::utf8()` writes them, without making a Rust `String` first.

use godot_variant_codec::wire::{Sink, Text};

/// The characters of an engine String, checked to be Unicode scalar values, with the
/// length of their UTF-8 form.
#[derive(Debug, Clone, Copy)]
pub struct Utf32<'a> {
    chars: &'a [u32],
    utf8_len: usize,
}

impl<'a> Utf32<'a> {
    /// `None` when a character is not a Unicode scalar value (a surrogate, or above
    /// U+10FFFF): the engine writes such strings as bytes that are not UTF-8, which the
    /// codec does not write (the caller reports it).
    #[inline]
    pub fn new(chars: &'a [u32]) -> Option<Self> {
        // ASCII, the usual case, in one pass the compiler vectorizes.
        let all = chars.iter().fold(0, |acc, &c| acc | c);
        let utf8_len = if all < 0x80 {
            chars.len()
        } else {
            utf8_len(chars, all)?
        };
        Some(Utf32 { chars, utf8_len })
    }

    fn is_ascii(&self) -> bool {
        self.utf8_len == self.chars.len()
    }

    /// Writes the UTF-8 form into `out`, exactly `utf8_len` bytes long.
    fn write(&self, out: &mut [u8]) {
        if self.is_ascii() {
            narrow(self.chars, out);
        } else if (self.utf8_len - self.chars.len()) * ASCII_BLOCK_SHARE <= self.chars.len() {
            write_by_blocks(self.chars, out);
        } else {
            write_chars(self.chars, out);
        }
    }
}

/// Characters counted with 32-bit sums (in four lanes of a vector), added up after: a
/// chunk's UTF-8 length fits.
const CHUNK: usize = 1 << 20;

/// Characters narrowed a block at a time where a block is all ASCII.
const BLOCK: usize = 16;
/// A text is written by blocks ([`write_by_blocks`]) when its UTF-8 form is longer than
/// its characters by at most one byte in this many: it then has at most one character of
/// more bytes in 32, so at least half its blocks are all ASCII, each a test and a narrowing.
/// Any other text is written a character at a time, where most block tests would fail.
const ASCII_BLOCK_SHARE: usize = 32;

/// The length of the UTF-8 form of `chars`, not all ASCII (`all`: the bits set in any of
/// them); `None` when one is not a scalar value.
#[inline(never)]
fn utf8_len(chars: &[u32], all: u32) -> Option<usize> {
    if all < 0x800 {
        // Characters of one and two bytes only (Latin, Greek, Cyrillic…), all scalar values:
        // one comparison each.
        let long: usize = chars
            .chunks(CHUNK)
            .map(|chunk| chunk.iter().map(|&c| u32::from(c >= 0x80)).sum::<u32>() as usize)
            .sum();
        return Some(chars.len() + long);
    }
    // The length of each character's UTF-8 form from three comparisons, and whether it is a
    // scalar value from two, with no branch: a loop the compiler vectorizes.
    let mut utf8_len = 0;
    let mut invalid = false;
    for chunk in chars.chunks(CHUNK) {
        let (len, bad) = chunk.iter().fold((0u32, 0u32), |(len, bad), &c| {
            let extra = u32::from(c >= 0x80) + u32::from(c >= 0x800) + u32::from(c >= 0x1_0000);
            let surrogate = c.wrapping_sub(0xD800) < 0x800;
            (
                len + 1 + extra,
                bad | u32::from(surrogate | (c > 0x10_FFFF)),
            )
        });
        utf8_len += len as usize;
        invalid |= bad != 0;
    }
    (!invalid).then_some(utf8_len)
}

/// `chars`, all ASCII, as their bytes (as many as `out` holds).
#[inline(always)]
fn narrow(chars: &[u32], out: &mut [u8]) {
    for (byte, &c) in out.iter_mut().zip(chars) {
        *byte = c as u8;
    }
}

/// The UTF-8 form of `chars` (scalar values) into `out`, exactly its length: each block of
/// [`BLOCK`] characters that is all ASCII narrowed at once, any other block and the last
/// few characters by [`write_chars`].
#[inline(never)]
fn write_by_blocks(chars: &[u32], out: &mut [u8]) {
    let mut at = 0;
    let (blocks, rest) = chars.as_chunks::<BLOCK>();
    for block in blocks {
        let room: &mut [u8; BLOCK] = (&mut out[at..at + BLOCK]).try_into().expect("in the form");
        if narrow_ascii_block(block, room) {
            at += BLOCK;
        } else {
            at += write_chars(block, &mut out[at..]);
        }
    }
    write_chars(rest, &mut out[at..]);
}

/// Narrows `block` into `room` when it is all ASCII; whether it was (`room` is then
/// unchanged).
#[inline(always)]
fn narrow_ascii_block(block: &[u32; BLOCK], room: &mut [u8; BLOCK]) -> bool {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE2 is part of x86_64; the loads read `block`'s 64 bytes, the store writes
    // `room`'s 16 (unaligned loads and store).
    unsafe {
        use std::arch::x86_64::{
            _mm_and_si128, _mm_cmpeq_epi32, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128,
            _mm_packs_epi32, _mm_packus_epi16, _mm_set1_epi32, _mm_setzero_si128, _mm_storeu_si128,
        };
        let at = block.as_ptr().cast::<std::arch::x86_64::__m128i>();
        let [a, b, c, d] = [0, 1, 2, 3].map(|i| _mm_loadu_si128(at.add(i)));
        let all = _mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(c, d));
        let above_ascii = _mm_and_si128(all, _mm_set1_epi32(!0x7F));
        if _mm_movemask_epi8(_mm_cmpeq_epi32(above_ascii, _mm_setzero_si128())) != 0xFFFF {
            return false;
        }
        // Each character fits a byte: the saturating packs keep it as it is.
        let bytes = _mm_packus_epi16(_mm_packs_epi32(a, b), _mm_packs_epi32(c, d));
        _mm_storeu_si128(room.as_mut_ptr().cast(), bytes);
        true
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        if block.iter().fold(0, |acc, &c| acc | c) >= 0x80 {
            return false;
        }
        narrow(block, room);
        true
    }
}

/// Writes the UTF-8 form of `chars` (scalar values) at the start of `out`, which holds at
/// least its length; returns that length. Each character as one 4-byte store of its form
/// (the bytes past its length are overwritten by the next ones) while 4 bytes of room are
/// left; the last few through `char::encode_utf8`, which writes exactly its length.
#[inline(always)]
fn write_chars(chars: &[u32], out: &mut [u8]) -> usize {
    let mut at = 0;
    let mut rest = chars;
    while let Some((&c, tail)) = rest.split_first() {
        let Some(room) = out.get_mut(at..at + 4) else {
            break;
        };
        let (form, len) = utf8_form(c);
        room.copy_from_slice(&form.to_le_bytes());
        at += len;
        rest = tail;
    }
    for &c in rest {
        // Checked in `Utf32::new`: every character is a scalar value.
        let c = char::from_u32(c).unwrap_or(char::REPLACEMENT_CHARACTER);
        at += c.encode_utf8(&mut out[at..]).len();
    }
    at
}

/// The UTF-8 form of the scalar value `c` as the bytes of a little-endian word (first byte
/// lowest), and its length.
#[inline(always)]
fn utf8_form(c: u32) -> (u32, usize) {
    let continuation = |shift: u32| 0x80 | (c >> shift) & 0x3F;
    if c < 0x80 {
        (c, 1)
    } else if c < 0x800 {
        (0xC0 | c >> 6 | continuation(0) << 8, 2)
    } else if c < 0x1_0000 {
        (
            0xE0 | c >> 12 | continuation(6) << 8 | continuation(0) << 16,
            3,
        )
    } else {
        let form = 0xF0 | c >> 18 | continuation(12) << 8 | continuation(6) << 16;
        (form | continuation(0) << 24, 4)
    }
}

impl Text for Utf32<'_> {
    #[inline]
    fn utf8_len(&self) -> usize {
        self.utf8_len
    }

    #[inline]
    fn put_utf8<S: Sink + ?Sized>(&self, sink: &mut S) {
        sink.put_with(self.utf8_len, |out| self.write(out));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utf8(s: &[u32]) -> Option<Vec<u8>> {
        let text = Utf32::new(s)?;
        let mut out = Vec::new();
        text.put_utf8(&mut out);
        assert_eq!(out.len(), text.utf8_len());
        Some(out)
    }

    /// Every length up to 300 characters, drawn from all four UTF-8 lengths and their
    /// edges, against Rust's own encoding; and a non-scalar value at each position refused.
    #[test]
    fn writes_what_rust_writes_at_every_length() {
        let edges = [
            0x00, 0x41, 0x7F, 0x80, 0xE9, 0x7FF, 0x800, 0x65E5, 0xD7FF, 0xE000, 0xFFFF, 0x1_0000,
            0x1_F600, 0x10_FFFF,
        ];
        let mut seed = 0x2545_f491_u32;
        for len in 0..300 {
            let chars: Vec<u32> = (0..len)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 17;
                    seed ^= seed << 5;
                    edges[seed as usize % edges.len()]
                })
                .collect();
            let expected: String = chars.iter().map(|&c| char::from_u32(c).unwrap()).collect();
            assert_eq!(
                utf8(&chars).as_deref(),
                Some(expected.as_bytes()),
                "{chars:x?}"
            );
            for at in 0..len {
                for bad in [0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0x11_0000, u32::MAX] {
                    let mut broken = chars.clone();
                    broken[at] = bad;
                    assert_eq!(utf8(&broken), None, "{bad:x} at {at} of {len}");
                }
            }
        }
    }

    /// Mostly ASCII texts (written by blocks) of every length up to 300, with characters of
    /// every UTF-8 length at every place, in pairs of every two lengths (so also texts of
    /// 1- and 2-byte characters only), against Rust's own encoding.
    #[test]
    fn writes_mostly_ascii_text_by_blocks_as_rust_does() {
        let others = [0x80, 0xE9, 0x7FF, 0x800, 0xFFFF, 0x1_0000, 0x10_FFFF];
        for len in 1..300 {
            let ascii: Vec<u32> = (0..len).map(|i| 0x20 + (i as u32 * 7) % 0x5F).collect();
            for at in 0..len {
                for (i, &other) in others.iter().enumerate() {
                    let mut chars = ascii.clone();
                    chars[at] = other;
                    chars[(at + 37) % len] = others[(i + at) % others.len()];
                    let expected: String =
                        chars.iter().map(|&c| char::from_u32(c).unwrap()).collect();
                    assert_eq!(utf8(&chars).as_deref(), Some(expected.as_bytes()));
                }
            }
        }
    }

    #[test]
    fn writes_utf8_and_refuses_what_is_not_unicode() {
        for s in [
            "",
            "a",
            "héllo wörld",
            "日本語",
            "😀 emoji",
            "\0x\u{7f}\u{80}\u{7ff}\u{800}\u{ffff}\u{10000}\u{10ffff}",
        ] {
            let chars: Vec<u32> = s.chars().map(u32::from).collect();
            assert_eq!(utf8(&chars).as_deref(), Some(s.as_bytes()), "{s:?}");
        }
        assert_eq!(utf8(&[0x61, 0xD800]), None);
        assert_eq!(utf8(&[0xDFFF]), None);
        assert_eq!(utf8(&[0x11_0000]), None);
        assert_eq!(utf8(&[u32::MAX]), None);
    }
}
