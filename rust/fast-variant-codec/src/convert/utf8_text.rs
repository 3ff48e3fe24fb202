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
        if all < 0x80 {
            return Some(Utf32 {
                chars,
                utf8_len: chars.len(),
            });
        }
        // The length of each character's UTF-8 form from three comparisons, and whether it
        // is a scalar value from two, with no branch: a loop the compiler vectorizes. The
        // sums are 32-bit within a chunk (a chunk's UTF-8 length fits), added up after.
        const CHUNK: usize = 1 << 20;
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
        (!invalid).then_some(Utf32 { chars, utf8_len })
    }

    fn is_ascii(&self) -> bool {
        self.utf8_len == self.chars.len()
    }

    /// Writes the UTF-8 form into `out`, exactly `utf8_len` bytes long.
    fn write(&self, out: &mut [u8]) {
        if self.is_ascii() {
            for (byte, &c) in out.iter_mut().zip(self.chars) {
                *byte = c as u8;
            }
            return;
        }
        // Each character as one 4-byte store of its form (the bytes past its length are
        // overwritten by the next ones) while 4 bytes of room are left; the last few
        // through `char::encode_utf8`, which writes exactly its length.
        let mut at = 0;
        let mut rest = self.chars;
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
            // Checked in `new`: every character is a scalar value.
            let c = char::from_u32(c).unwrap_or(char::REPLACEMENT_CHARACTER);
            at += c.encode_utf8(&mut out[at..]).len();
        }
    }
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
