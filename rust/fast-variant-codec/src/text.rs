//! Layer: builder/writer. The engine's UTF-32 strings written as UTF-8 straight into the output, as the engine's
//! `String::utf8()` writes them, without making a Rust `String` first.

use std::ffi::CStr;

use godot::builtin::{Encoding, StringName};
use godot_variant_codec::wire::{Sink, Text};

use crate::raw::gstring;

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
        let mut utf8_len = 0;
        for &c in chars {
            utf8_len += match c {
                0..=0x7F => 1,
                0x80..=0x7FF => 2,
                0xD800..=0xDFFF => return None,
                0x800..=0xFFFF => 3,
                0x1_0000..=0x10_FFFF => 4,
                _ => return None,
            };
        }
        Some(Utf32 { chars, utf8_len })
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
        let mut at = 0;
        for &c in self.chars {
            // Checked in `new`: every character is a scalar value.
            let c = char::from_u32(c).unwrap_or(char::REPLACEMENT_CHARACTER);
            at += c.encode_utf8(&mut out[at..]).len();
        }
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

/// Names shorter than this many bytes, in ASCII, are handed to the engine as a C string
/// (see [`string_name`]); the bytes and their NUL are copied onto the stack first.
const SHORT_NAME: usize = 64;

/// A StringName holding exactly `s` (see [`gstring`]): names read from the bytes (classes,
/// properties, NodePath parts) keep a leading U+FEFF, as they do in the engine.
///
/// A short ASCII name goes to the engine's `StringName(const char *)` (the interface's
/// `string_name_new_with_latin1_chars`; ASCII is Latin-1), which finds a name that already
/// exists without making a String first: the usual case, since names repeat. Any other
/// text (non-ASCII, long, or holding a NUL) is made into a String first.
pub fn string_name(s: &str) -> StringName {
    if s.len() < SHORT_NAME && s.is_ascii() {
        let mut bytes = [0u8; SHORT_NAME];
        bytes[..s.len()].copy_from_slice(s.as_bytes());
        if let Ok(c_string) = CStr::from_bytes_with_nul(&bytes[..=s.len()]) {
            if let Ok(name) = StringName::try_from_cstr(c_string, Encoding::Latin1) {
                return name;
            }
        }
    }
    StringName::from(&gstring(s))
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
