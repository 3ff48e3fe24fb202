//! Text read into the engine's characters: the bytes of a string as the wire has them,
//! checked as UTF-8 and decoded into UTF-32 code units (one per character, as the engine's
//! Strings hold them) in one pass.

use std::mem::MaybeUninit;

/// The most bytes of a text decoded into a buffer on the stack, then copied into one of
/// exactly its length: texts of up to 16 characters in any script. Past this, checking the
/// text with SIMD first (simdutf8), then decoding it, is as fast or faster for text of
/// 3- and 4-byte characters (measured: docs/BENCHMARKS.md, 2026-11-28).
pub const STACK_MAX: usize = 64;

/// Room for the characters of a text of up to [`STACK_MAX`] bytes.
pub type Chars = [MaybeUninit<u32>; STACK_MAX];

/// A buffer for [`decode_checked`], not initialized.
pub fn chars_buffer() -> Chars {
    [MaybeUninit::uninit(); STACK_MAX]
}

/// The characters of `bytes`, up to the first NUL, written into `chars`; `None` when those
/// bytes are not valid UTF-8 by `str`'s rules (no overlong forms, surrogates, values above
/// U+10FFFF or cut sequences) or have more characters than `chars` has room for, else the
/// characters written. ASCII is taken 16 bytes at a time; a `str` would be checked first
/// and decoded after.
#[inline]
pub fn decode_checked<'c>(bytes: &[u8], chars: &'c mut [MaybeUninit<u32>]) -> Option<&'c [u32]> {
    let end = bytes.len();
    let room = chars.len();
    let byte = |at: usize| bytes.get(at).map_or(0, |&b| u32::from(b));
    let cont = |at: usize| {
        let b = byte(at);
        (b & 0xC0 == 0x80).then_some(b & 0x3F)
    };
    let mut at = 0;
    let mut count = 0;
    while at < end {
        let lead = byte(at);
        // A run of ASCII: the 16 bytes from its start widened, as many counted as are ASCII
        // (at least this one, unless it is the NUL).
        if lead < 0x80 && at + 16 <= end && count + 16 <= room {
            let block: &[u8; 16] = bytes[at..at + 16].try_into().ok()?;
            let ascii = ascii_prefix(block);
            widen16(block, &mut chars[count..count + 16]);
            at += ascii;
            count += ascii;
            if ascii > 0 {
                continue;
            }
        }
        let (c, len) = match lead {
            0 => break,
            0x01..=0x7F => (lead, 1),
            0xC2..=0xDF => (two_byte_char(lead, cont(at + 1)?), 2),
            0xE0..=0xEF => {
                let c = ((lead & 0x0F) << 12) | (cont(at + 1)? << 6) | cont(at + 2)?;
                if c < 0x800 || (0xD800..0xE000).contains(&c) {
                    return None;
                }
                (c, 3)
            }
            0xF0..=0xF4 => {
                let c = ((lead & 0x07) << 18)
                    | (cont(at + 1)? << 12)
                    | (cont(at + 2)? << 6)
                    | cont(at + 3)?;
                if !(0x1_0000..=0x10_FFFF).contains(&c) {
                    return None;
                }
                (c, 4)
            }
            _ => return None,
        };
        *chars.get_mut(count)? = MaybeUninit::new(c);
        count += 1;
        at += len;
    }
    // A sequence cut by the end had its missing bytes read as 0, not a continuation.
    // SAFETY: the first `count` characters were written above (by `widen16` or one at a
    // time; a block's characters past its ASCII prefix are rewritten before being counted).
    Some(unsafe { std::slice::from_raw_parts(chars.as_ptr().cast::<u32>(), count) })
}

/// The characters of `text` written into `chars`; how many (all of them). The text is
/// valid UTF-8 (a `str`), so nothing is checked again. Text of 1- and 2-byte characters
/// only (ASCII, accented Latin, Cyrillic, Greek, Hebrew, Arabic): see
/// [`decode_one_or_two_byte_chars`]; any other (CJK, emoji, a mix) by `str::chars`, whose
/// loop is the fastest for characters of 3 and 4 bytes and for mixed lengths.
///
/// # Safety
/// `chars` must have room for every character of `text` (`text.chars().count()`).
pub unsafe fn decode_valid(text: &str, chars: &mut [MaybeUninit<u32>]) -> usize {
    if !has_long_chars(text) {
        decode_one_or_two_byte_chars(text.as_bytes(), chars)
    } else {
        // SAFETY: as the caller promises.
        unsafe { decode_by_chars(text, chars) }
    }
}

/// Whether `text` has characters of 3 or 4 bytes (CJK, emoji, …): a lead byte of 0xE0 or
/// above, looked for 64 bytes at a time (the largest of each 64 in a loop the compiler
/// vectorizes) until one is found.
pub fn has_long_chars(text: &str) -> bool {
    let long_lead = |bytes: &[u8]| bytes.iter().fold(0, |max, &b| max.max(b)) >= 0xE0;
    text.as_bytes().chunks(64).any(long_lead)
}

/// [`decode_valid`] for text of 1- and 2-byte characters: runs of ASCII widened 16 at a
/// time, runs of 2-byte characters decoded four at a time from one 8-byte word, the
/// others one at a time.
fn decode_one_or_two_byte_chars(bytes: &[u8], chars: &mut [MaybeUninit<u32>]) -> usize {
    let (end, room) = (bytes.len(), chars.len());
    let (mut at, mut count) = (0, 0);
    while at < end && count < room {
        if let (Some(block), Some(out)) = (
            bytes
                .get(at..at + 16)
                .and_then(|b| <&[u8; 16]>::try_from(b).ok()),
            chars.get_mut(count..count + 16),
        ) {
            let ascii = ascii_prefix(block);
            if ascii > 0 {
                widen16(block, out);
                at += ascii;
                count += ascii;
                continue;
            }
            let word = u64::from_le_bytes(*block.first_chunk::<8>().expect("16 bytes"));
            if let Some(four) = four_two_byte_chars(word) {
                for (char, c) in out.iter_mut().zip(four) {
                    *char = MaybeUninit::new(c);
                }
                at += 8;
                count += 4;
                continue;
            }
        }
        let lead = u32::from(bytes[at]);
        let (c, len) = if lead < 0x80 {
            (lead, 1)
        } else {
            let cont = bytes.get(at + 1).map_or(0, |&b| u32::from(b));
            (two_byte_char(lead, cont), 2)
        };
        chars[count] = MaybeUninit::new(c);
        count += 1;
        at += len;
    }
    count
}

/// The characters of `text` written into `chars` by `str::chars`, how many: what
/// [`decode_valid`] does with text of 3- and 4-byte characters (for a caller that knows
/// the text has them: [`has_long_chars`]). Kept out of line: inlined into its caller, the
/// loop compiled to slower code (docs/BENCHMARKS.md, 2026-11-28).
///
/// # Safety
/// As for [`decode_valid`]: `chars` has room for every character of `text`.
#[inline(never)]
pub unsafe fn decode_by_chars(text: &str, chars: &mut [MaybeUninit<u32>]) -> usize {
    let data = chars.as_mut_ptr();
    let mut count = 0;
    for c in text.chars() {
        // SAFETY: below the number of characters, which the caller made room for (a
        // bound checked here slows the loop on 3- and 4-byte text measurably).
        unsafe { data.add(count).write(MaybeUninit::new(u32::from(c))) };
        count += 1;
    }
    count
}

/// The four characters of `word` (8 bytes of valid UTF-8, little-endian) when it is four
/// 2-byte sequences: each a lead byte `110xxxxx` and a continuation `10xxxxxx`.
#[inline(always)]
fn four_two_byte_chars(word: u64) -> Option<[u32; 4]> {
    const TOP_BITS: u64 = u64::from_le_bytes([0xE0, 0xC0, 0xE0, 0xC0, 0xE0, 0xC0, 0xE0, 0xC0]);
    const PATTERN: u64 = u64::from_le_bytes([0xC0, 0x80, 0xC0, 0x80, 0xC0, 0x80, 0xC0, 0x80]);
    (word & TOP_BITS == PATTERN).then(|| {
        std::array::from_fn(|i| {
            let pair = (word >> (16 * i)) as u32;
            two_byte_char(pair, pair >> 8)
        })
    })
}

/// The character of a 2-byte sequence: the lead byte's low 5 bits, then the
/// continuation byte's low 6 (bits above either are ignored).
#[inline(always)]
fn two_byte_char(lead: u32, cont: u32) -> u32 {
    ((lead & 0x1F) << 6) | (cont & 0x3F)
}

/// How many of the 16 bytes of `block` are ASCII other than NUL before the first that is
/// not (16: all).
#[inline(always)]
fn ascii_prefix(block: &[u8; 16]) -> usize {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE2 is part of x86_64; one unaligned read of the block's 16 bytes.
    unsafe {
        use std::arch::x86_64::{
            _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_setzero_si128,
        };
        let bytes = _mm_loadu_si128(block.as_ptr().cast());
        let nul = _mm_cmpeq_epi8(bytes, _mm_setzero_si128());
        let stops = (_mm_movemask_epi8(bytes) | _mm_movemask_epi8(nul)) as u32;
        (stops | 0x1_0000).trailing_zeros() as usize
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        block
            .iter()
            .position(|&b| b.wrapping_sub(1) >= 0x7F)
            .unwrap_or(16)
    }
}

/// Widens the 16 bytes of `block` into 16 characters, one per byte.
#[inline(always)]
fn widen16(block: &[u8; 16], chars: &mut [MaybeUninit<u32>]) {
    assert!(chars.len() >= 16);
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE2 is part of x86_64; one unaligned 16-byte read of the block and four
    // unaligned 16-byte writes within `chars` (16 characters at least, checked).
    unsafe {
        use std::arch::x86_64::{
            __m128i, _mm_loadu_si128, _mm_setzero_si128, _mm_storeu_si128, _mm_unpackhi_epi16,
            _mm_unpackhi_epi8, _mm_unpacklo_epi16, _mm_unpacklo_epi8,
        };
        let zero = _mm_setzero_si128();
        let bytes = _mm_loadu_si128(block.as_ptr().cast());
        let low = _mm_unpacklo_epi8(bytes, zero);
        let high = _mm_unpackhi_epi8(bytes, zero);
        let out = chars.as_mut_ptr().cast::<__m128i>();
        _mm_storeu_si128(out, _mm_unpacklo_epi16(low, zero));
        _mm_storeu_si128(out.add(1), _mm_unpackhi_epi16(low, zero));
        _mm_storeu_si128(out.add(2), _mm_unpacklo_epi16(high, zero));
        _mm_storeu_si128(out.add(3), _mm_unpackhi_epi16(high, zero));
    }
    #[cfg(not(target_arch = "x86_64"))]
    for (char, &b) in chars.iter_mut().zip(block) {
        *char = MaybeUninit::new(u32::from(b));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `decode_checked` must give: the text up to the first NUL, checked by `str`.
    fn reference(bytes: &[u8]) -> Option<Vec<u32>> {
        let text = bytes.split(|&b| b == 0).next().unwrap_or_default();
        std::str::from_utf8(text)
            .ok()
            .map(|text| text.chars().map(u32::from).collect())
    }

    #[test]
    fn decodes_and_checks_as_str_does() {
        // Every character of interest, and every fault (cut, stray or overlong sequences,
        // surrogates, values above U+10FFFF, a NUL), at each place in texts of every length
        // around the 16-byte blocks, in ASCII and in text of 2-byte characters.
        let pieces: [&[u8]; 24] = [
            b"a",
            b"\x7F",
            "é".as_bytes(),
            "\u{7FF}".as_bytes(),
            "\u{800}".as_bytes(),
            "的".as_bytes(),
            "\u{FFFF}".as_bytes(),
            "\u{10000}".as_bytes(),
            "😀".as_bytes(),
            "\u{10FFFF}".as_bytes(),
            b"\0",
            b"\x80",
            b"\xBF",
            b"\xC0\xAF",
            b"\xC1\xBF",
            b"\xC3",
            b"\xE0\x9F\xBF",
            b"\xED\xA0\x80",
            b"\xED\xBF\xBF",
            b"\xE6\x97",
            b"\xF0\x8F\xBF\xBF",
            b"\xF4\x90\x80\x80",
            b"\xF5\x80\x80\x80",
            b"\xFF",
        ];
        for base in [
            "abcdefghijklmnopqrstuvwxyz",
            "абвгдежзийклмнопрстуфхцчшщъыьэюя",
        ] {
            let base: Vec<u8> = base.bytes().cycle().take(STACK_MAX).collect();
            for len in 0..=STACK_MAX {
                for piece in pieces {
                    for at in 0..len {
                        let mut bytes = base[..len].to_vec();
                        bytes.splice(at..(at + piece.len()).min(len), piece.iter().copied());
                        let expected = reference(&bytes);
                        let decoded =
                            decode_checked(&bytes, &mut chars_buffer()).map(<[u32]>::to_vec);
                        assert_eq!(decoded, expected, "{bytes:?}");
                        // Into exactly the room the text needs.
                        let room = expected.as_ref().map_or(0, Vec::len);
                        let mut exact = vec![MaybeUninit::uninit(); room];
                        let decoded = decode_checked(&bytes, &mut exact).map(<[u32]>::to_vec);
                        assert_eq!(decoded, expected, "{bytes:?} in its room");
                    }
                }
            }
        }
    }

    /// `decode_valid` gives `str::chars`: characters of each length at each place in
    /// texts of every length around the 16-byte blocks and 8-byte words, in ASCII, 2-byte
    /// and mixed text; nothing is written past the text's characters.
    #[test]
    fn decodes_valid_text_as_chars_does() {
        let pieces = [
            "a",
            " ",
            "\u{7F}",
            "é",
            "\u{80}",
            "\u{7FF}",
            "ж",
            "\u{800}",
            "的",
            "\u{FFFF}",
            "😀",
            "\u{10FFFF}",
        ];
        for base in [
            "abcdefghijklmnopqrstuvwxyz",
            "абвгдежзийклмнопрстуфхцчшщъыьэюя",
            "aéb日cж😀d",
        ] {
            let base: Vec<char> = base.chars().cycle().take(40).collect();
            for len in 0..=base.len() {
                for piece in pieces {
                    for at in 0..=len {
                        let mut text: String = base[..at].iter().collect();
                        text.push_str(piece);
                        text.extend(&base[at..len]);
                        let expected: Vec<u32> = text.chars().map(u32::from).collect();
                        let room = expected.len();
                        {
                            let mut chars = vec![MaybeUninit::new(u32::MAX); room + 4];
                            // SAFETY: room for every character of the text.
                            let written = unsafe { decode_valid(&text, &mut chars[..room]) };
                            assert_eq!(written, room, "{text:?} in {room}");
                            // SAFETY: the first `written` were written (checked above: all
                            // of the room), the rest hold u32::MAX from the start.
                            let got: Vec<u32> =
                                chars.iter().map(|c| unsafe { c.assume_init() }).collect();
                            assert_eq!(got[..room], expected[..room], "{text:?} in {room}");
                            assert!(got[room..].iter().all(|&c| c == u32::MAX), "past {room}");
                        }
                    }
                }
            }
        }
    }

    /// `has_long_chars` finds a character of 3 or 4 bytes wherever it is, also past the
    /// first 64 bytes, and nothing in text of 1- and 2-byte characters.
    #[test]
    fn finds_long_chars_anywhere() {
        for len in [0, 1, 63, 64, 65, 200] {
            let short = "aж".repeat(len);
            assert!(!has_long_chars(&short), "{len}");
            for long in ["\u{800}", "的", "\u{FFFF}", "😀", "\u{10FFFF}"] {
                // Between two repetitions of "aж" (3 bytes).
                for at in [0, len / 2 * 3, short.len()] {
                    let text = format!("{}{long}{}", &short[..at], &short[at..]);
                    assert!(has_long_chars(&text), "{long} at {at} of {len}");
                }
            }
        }
    }

    #[test]
    fn takes_no_more_than_its_room() {
        let text = "abcdefghijklmnopqrstuvwxyzé日😀".repeat(2);
        let room = text.chars().count();
        let mut short = vec![MaybeUninit::uninit(); room - 1];
        assert_eq!(decode_checked(text.as_bytes(), &mut short), None);
        let mut exact = vec![MaybeUninit::uninit(); room];
        let decoded = decode_checked(text.as_bytes(), &mut exact).map(<[u32]>::to_vec);
        assert_eq!(decoded, Some(text.chars().map(u32::from).collect()));
    }
}
