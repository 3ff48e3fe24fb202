//! Text read into the engine's characters: the bytes of a string as the wire has them,
//! checked as UTF-8 and decoded into UTF-32 code units (one per character, as the engine's
//! Strings hold them) in one pass.

use std::mem::MaybeUninit;

use godot_variant_codec::wire::text_until_nul;

/// The most bytes of a text decoded into a buffer on the stack character by character,
/// then copied into one of exactly its length: texts of up to 16 characters in any script.
/// Past this, text of 3- and 4-byte characters is faster checked with SIMD first
/// (simdutf8), then decoded (see [`decode_checked_into`]; measured: docs/BENCHMARKS.md,
/// 2026-11-28).
pub const STACK_MAX: usize = 64;

/// Room for the characters of a text of up to [`STACK_MAX`] bytes.
pub type Chars = [MaybeUninit<u32>; STACK_MAX];

/// A buffer for [`decode_checked`], not initialized.
pub fn chars_buffer() -> Chars {
    [MaybeUninit::uninit(); STACK_MAX]
}

/// The most bytes of a text decoded into a buffer on the stack (see
/// [`decode_checked_medium`]), then copied into one of exactly its length: for texts of up
/// to a few hundred characters, the copy costs less than counting the characters first
/// to make a buffer of their length (measured: docs/BENCHMARKS.md, 2026-11-28).
pub const MEDIUM_MAX: usize = 512;

/// Room for the characters of a text of up to [`MEDIUM_MAX`] bytes.
pub type MediumChars = [MaybeUninit<u32>; MEDIUM_MAX];

/// A buffer for [`decode_checked_medium`], not initialized.
pub fn medium_chars_buffer() -> MediumChars {
    [MaybeUninit::uninit(); MEDIUM_MAX]
}

/// The characters of the text `window[..len]`, up to the first NUL, written into `chars`
/// (the window's bytes past the text, if any, may be read, and change nothing; `chars`
/// past the characters returned may be written); `None` when those bytes are not valid
/// UTF-8 by `str`'s rules (no overlong forms, surrogates, values above U+10FFFF or cut
/// sequences) or have more characters than `chars` has room for, else the characters
/// written. A `str` would be checked first and decoded after.
#[inline]
pub fn decode_checked<'c>(
    window: &[u8],
    len: usize,
    chars: &'c mut [MaybeUninit<u32>],
) -> Option<&'c [u32]> {
    let (_, count) = decode_checked_with::<true>(window, len, chars)?;
    // SAFETY: the first `count` characters were written.
    Some(unsafe { written(chars, count) })
}

/// [`decode_checked`] for a text of up to [`MEDIUM_MAX`] bytes (`None` past it), by
/// [`decode_checked_into`].
#[inline]
pub fn decode_checked_medium<'c>(bytes: &[u8], chars: &'c mut MediumChars) -> Option<&'c [u32]> {
    if bytes.len() > MEDIUM_MAX {
        return None;
    }
    // SAFETY: room for as many characters as the text has bytes.
    let count = unsafe { decode_checked_into(bytes, chars) }?;
    // SAFETY: the first `count` characters were written.
    Some(unsafe { written(chars, count) })
}

/// The first `count` characters of `chars`, which a decoder wrote.
///
/// # Safety
/// The first `count` elements of `chars` must be initialized.
#[inline(always)]
pub unsafe fn written(chars: &[MaybeUninit<u32>], count: usize) -> &[u32] {
    debug_assert!(count <= chars.len());
    // SAFETY: as the caller promises; `MaybeUninit<u32>` has the layout of `u32`.
    unsafe { std::slice::from_raw_parts(chars.as_ptr().cast::<u32>(), count) }
}

/// How many characters `bytes` hold if they are valid UTF-8: the bytes that are not
/// continuation bytes (`10xxxxxx`), marked 8 at a time as a 1 in a byte-sized counter of
/// a word, whose counters are summed every 255 words, before they could overflow.
pub fn count_chars(bytes: &[u8]) -> usize {
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const EVEN_BYTES: u64 = 0x00FF_00FF_00FF_00FF;
    // Bit 7 clear or bit 6 set: not a continuation byte.
    let chars = |word: &[u8; 8]| {
        let word = u64::from_le_bytes(*word);
        ((!word >> 7) | (word >> 6)) & ONES
    };
    // The eight counters summed: into four 16-bit ones, then by the multiply into the top.
    let sum = |counters: u64| {
        let pairs = (counters & EVEN_BYTES) + ((counters >> 8) & EVEN_BYTES);
        (pairs.wrapping_mul(0x0001_0001_0001_0001) >> 48) as usize
    };
    let (words, tail) = bytes.as_chunks::<8>();
    let in_words: usize = words
        .chunks(255)
        .map(|run| sum(run.iter().map(chars).sum()))
        .sum();
    in_words + tail.iter().filter(|&&b| b as i8 >= -0x40).count()
}

/// The characters of `bytes`, up to the first NUL, written into `chars`; how many, or
/// `None` as for [`decode_checked`]. Characters of 1 and 2 bytes are taken in runs, as
/// long as there are no others (ASCII, accented Latin, Cyrillic, Greek, Hebrew, Arabic);
/// from the first character of 3 or 4 bytes on (CJK, emoji), the rest is checked with SIMD
/// and decoded by `str::chars`, which is faster for such characters.
///
/// # Safety
/// `chars` must have room for [`count_chars`]`(bytes)` characters or more.
#[inline]
pub unsafe fn decode_checked_into(bytes: &[u8], chars: &mut [MaybeUninit<u32>]) -> Option<usize> {
    let (at, count) = decode_checked_with::<false>(bytes, bytes.len(), chars)?;
    if bytes.get(at).is_none_or(|&lead| lead < 0xE0) {
        return Some(count);
    }
    let rest = text_until_nul(&bytes[at..])?;
    // SAFETY: the text up to `at` is valid and has `count` characters, one for each byte
    // of it that is not a continuation byte, as the rest has: the room left (the caller's
    // promise) is enough for all of the rest's.
    Some(count + unsafe { decode_by_chars(rest, &mut chars[count..]) })
}

/// [`decode_checked_into`] for text known to be valid UTF-8 (a `str`, no NUL in it): the
/// rest from a character of 3 or 4 bytes on is not checked again. Returns how many
/// characters it wrote (all of them).
///
/// # Safety
/// `chars` must have room for every character of `text` (`text.chars().count()`).
#[inline]
pub unsafe fn decode_valid(text: &str, chars: &mut [MaybeUninit<u32>]) -> usize {
    // Valid text stops the decoder only at its end or at a character of 3 or 4 bytes.
    let bytes = text.as_bytes();
    let (at, count) = decode_checked_with::<false>(bytes, bytes.len(), chars).unwrap_or((0, 0));
    match text.get(at..) {
        Some(rest) if !rest.is_empty() => {
            // SAFETY: the characters written are the text's up to `at`: the room left (the
            // caller's promise) is enough for the rest's.
            count + unsafe { decode_by_chars(rest, &mut chars[count..]) }
        }
        _ => count,
    }
}

/// The checked decoder of the text `window[..end]` (`None` when the window is shorter):
/// runs of ASCII widened 16 at a time (from the window, which may hold more bytes after
/// the text: a short text's runs are taken in blocks too), runs of 2-byte characters
/// decoded four at a time from one 8-byte word, the others one at a time, up to the first
/// NUL or the end; with `LONG_CHARS` false, up to the first character of 3 or 4 bytes (its
/// lead byte at the offset returned), not checked. Returns the offset where it stopped and
/// how many characters it wrote (the first in `chars`); `None` for text that is not valid
/// (up to there) or more characters than `chars` has room for.
#[inline(always)]
fn decode_checked_with<const LONG_CHARS: bool>(
    window: &[u8],
    end: usize,
    chars: &mut [MaybeUninit<u32>],
) -> Option<(usize, usize)> {
    let bytes = window.get(..end)?;
    let byte = |at: usize| bytes.get(at).map_or(0, |&b| u32::from(b));
    let cont = |at: usize| {
        let b = byte(at);
        (b & 0xC0 == 0x80).then_some(b & 0x3F)
    };
    let mut at = 0;
    let mut count = 0;
    while at < end {
        let lead = byte(at);
        // A run of 1- or 2-byte characters, taken in blocks (see `ascii_run`, `two_byte_run`)
        // while a block is left: 16 bytes of ASCII (of the window), 8 of 2-byte characters
        // (shorter texts and ends go one character at a time, with no run set up for them).
        // A run of ASCII may look at the window's bytes past the text, and is cut at its end.
        let (read, decoded) = match lead {
            0x01..=0x7F if window.len() - at >= 16 => {
                let ascii = ascii_run(&window[at..], &mut chars[count..]).min(end - at);
                (ascii, ascii)
            }
            0xC2..=0xDF if end - at >= 8 => {
                let pairs = two_byte_run(&bytes[at..], &mut chars[count..]);
                (2 * pairs, pairs)
            }
            _ => (0, 0),
        };
        if read > 0 {
            at += read;
            count += decoded;
            continue;
        }
        let (c, len) = match lead {
            0x01..=0x7F => (lead, 1),
            0xC2..=0xDF => (two_byte_char(lead, cont(at + 1)?), 2),
            0 => break,
            0xE0.. if !LONG_CHARS => break,
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
    // A sequence cut by the end had its missing bytes read as 0, not a continuation: the
    // first `count` characters were written above (by `widen16`, four at a time or one at
    // a time; a block's characters past its ASCII prefix are rewritten before being
    // counted).
    Some((at, count))
}

/// Whether `bytes` have characters of 3 or 4 bytes (CJK, emoji, …): a lead byte of 0xE0 or
/// above, looked for 64 bytes at a time (the largest of each 64 in a loop the compiler
/// vectorizes) until one is found.
pub fn has_long_chars(bytes: &[u8]) -> bool {
    let long_lead = |bytes: &[u8]| bytes.iter().fold(0, |max, &b| max.max(b)) >= 0xE0;
    bytes.chunks(64).any(long_lead)
}

/// The characters of `text` written into `chars` by `str::chars`, how many: the fastest
/// loop for text of 3- and 4-byte characters and for mixed lengths. Kept out of line:
/// inlined into its caller, the loop compiled to slower code (docs/BENCHMARKS.md,
/// 2026-11-28).
///
/// # Safety
/// `chars` must have room for every character of `text` (`text.chars().count()`).
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

/// The run of ASCII (other than NUL) that `bytes` start with, widened into `chars` 16
/// bytes at a time while 16 bytes and room for 16 characters are left: how many (0 when
/// fewer than 16 are left). Characters after the run within its last block are written
/// too, to be written again by the caller.
#[inline(always)]
fn ascii_run(bytes: &[u8], chars: &mut [MaybeUninit<u32>]) -> usize {
    let mut ascii = 0;
    for (block, out) in bytes
        .as_chunks::<16>()
        .0
        .iter()
        .zip(chars.chunks_exact_mut(16))
    {
        let prefix = ascii_prefix(block);
        widen16(block, out);
        ascii += prefix;
        if prefix < 16 {
            break;
        }
    }
    ascii
}

/// The run of 2-byte characters that `bytes` start with, decoded into `chars` four at a
/// time from one 8-byte word while 8 bytes and room for 4 characters are left: how many
/// characters (of two bytes each).
#[inline(always)]
fn two_byte_run(bytes: &[u8], chars: &mut [MaybeUninit<u32>]) -> usize {
    let mut words = 0;
    for (word, out) in bytes
        .as_chunks::<8>()
        .0
        .iter()
        .zip(chars.as_chunks_mut::<4>().0)
    {
        let Some(four) = four_two_byte_chars(u64::from_le_bytes(*word)) else {
            break;
        };
        for (char, c) in out.iter_mut().zip(four) {
            *char = MaybeUninit::new(c);
        }
        words += 1;
    }
    4 * words
}

/// The four characters of `word` (8 bytes, little-endian) when it is four valid 2-byte
/// sequences: each a lead byte `110xxxxx` other than 0xC0 and 0xC1 (overlong forms) and a
/// continuation `10xxxxxx`.
#[inline(always)]
fn four_two_byte_chars(word: u64) -> Option<[u32; 4]> {
    const TOP_BITS: u64 = u64::from_le_bytes([0xE0, 0xC0, 0xE0, 0xC0, 0xE0, 0xC0, 0xE0, 0xC0]);
    const PATTERN: u64 = u64::from_le_bytes([0xC0, 0x80, 0xC0, 0x80, 0xC0, 0x80, 0xC0, 0x80]);
    // Each lead byte's bits 1 to 4 (all zero in 0xC0 and 0xC1 only), in its 16-bit lane:
    // adding 0x7FFF to a lane of at most 0x1E sets its top bit exactly when it is not 0.
    const LEAD_VALUE_BITS: u64 = 0x001E_001E_001E_001E;
    const LANE_CARRY: u64 = 0x7FFF_7FFF_7FFF_7FFF;
    const LANE_TOP: u64 = 0x8000_8000_8000_8000;
    let not_overlong = ((word & LEAD_VALUE_BITS) + LANE_CARRY) & LANE_TOP == LANE_TOP;
    (word & TOP_BITS == PATTERN && not_overlong).then(|| {
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
        // Every character of interest (each bit of a sequence set somewhere), and every
        // fault (cut, stray or overlong sequences, a byte below 0x40 or above 0xBF where a
        // continuation byte belongs, surrogates, values above U+10FFFF, a NUL), at each
        // place in texts of every length around the 16-byte blocks, in ASCII and in text
        // of 2-byte characters.
        let pieces: [&[u8]; 30] = [
            b"a",
            b"\x7F",
            "é".as_bytes(),
            "\u{7FF}".as_bytes(),
            "\u{800}".as_bytes(),
            "的".as_bytes(),
            "\u{FFFF}".as_bytes(),
            "\u{10000}".as_bytes(),
            "😀".as_bytes(),
            "\u{3FFFF}".as_bytes(),
            "\u{E01EF}".as_bytes(),
            "\u{10FFFF}".as_bytes(),
            // A byte below 0x40 where a continuation byte belongs, at each place.
            b"\xE6\x30\x97",
            b"\xE6\x97\x30",
            b"\xF0\x30\x98\x80",
            b"\xF0\x9F\x98\x30",
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
                        let (expected, n) = (reference(&bytes), bytes.len());
                        let decoded =
                            decode_checked(&bytes, n, &mut chars_buffer()).map(<[u32]>::to_vec);
                        assert_eq!(decoded, expected, "{bytes:?}");
                        // In a window with more bytes after the text: ASCII, which a run of
                        // ASCII would take if it were not cut at the text's end, or not.
                        for after in [b'x', 0x80] {
                            let mut window = bytes.clone();
                            window.resize(n + 32, after);
                            let decoded = decode_checked(&window, n, &mut chars_buffer())
                                .map(<[u32]>::to_vec);
                            assert_eq!(decoded, expected, "{bytes:?} in a window");
                        }
                        // Into exactly the room the text needs.
                        let room = expected.as_ref().map_or(0, Vec::len);
                        let mut exact = vec![MaybeUninit::uninit(); room];
                        let decoded = decode_checked(&bytes, n, &mut exact).map(<[u32]>::to_vec);
                        assert_eq!(decoded, expected, "{bytes:?} in its room");
                    }
                }
            }
        }
    }

    /// `decode_checked_medium`, and `decode_checked_into` in exactly the room
    /// `count_chars` gives, decode as `str` does: the pieces at places in texts of lengths
    /// past the short ones, in ASCII, 2-byte and mixed text (a character of 3 or 4 bytes
    /// hands the rest to `str::chars`).
    #[test]
    fn decodes_longer_texts_as_str_does() {
        let pieces: [&[u8]; 10] = [
            "é".as_bytes(),
            "的".as_bytes(),
            "😀".as_bytes(),
            b"\0",
            b"\x80",
            b"\xC1\xBF",
            b"\xC3",
            b"\xED\xA0\x80",
            b"\xF4\x90\x80\x80",
            b"\xFF",
        ];
        for base in [
            "abcdefghijklmnopqrstuvwxyz",
            "абвгдежзийклмнопрстуфхцчшщъыьэюя",
            "aéb日cж😀d",
        ] {
            let base: Vec<u8> = base.bytes().cycle().take(MEDIUM_MAX + 40).collect();
            let lengths = (0..200).chain([MEDIUM_MAX - 1, MEDIUM_MAX, MEDIUM_MAX + 40]);
            for len in lengths {
                for piece in pieces {
                    for at in (0..len).step_by(7).chain([len.saturating_sub(1)]) {
                        let mut bytes = base[..len].to_vec();
                        bytes.splice(at..(at + piece.len()).min(len), piece.iter().copied());
                        let expected = reference(&bytes);
                        let medium = decode_checked_medium(&bytes, &mut medium_chars_buffer())
                            .map(<[u32]>::to_vec);
                        if bytes.len() <= MEDIUM_MAX {
                            assert_eq!(medium, expected, "{bytes:?}");
                        } else {
                            assert_eq!(medium, None, "past MEDIUM_MAX");
                        }
                        let room = count_chars(&bytes);
                        let mut exact = vec![MaybeUninit::uninit(); room];
                        // SAFETY: the room `count_chars` gives.
                        let decoded = unsafe { decode_checked_into(&bytes, &mut exact) }.map(|n| {
                            // SAFETY: the first `n` were written.
                            exact[..n]
                                .iter()
                                .map(|c| unsafe { c.assume_init() })
                                .collect()
                        });
                        assert_eq!(decoded, expected, "{bytes:?} in {room}");
                    }
                }
            }
        }
    }

    /// `count_chars` counts the bytes that are not continuation bytes, of any bytes (each
    /// value at each place around its words and sums): a valid text's characters.
    #[test]
    fn counts_chars_as_str_does() {
        for len in (0..80usize).chain([2039, 2040, 2041, 4100]) {
            for byte in 0..=255u8 {
                for at in [0, len / 3, len.saturating_sub(1)] {
                    let mut bytes = vec![b'a'; len];
                    if let Some(b) = bytes.get_mut(at) {
                        *b = byte;
                    }
                    let expected = bytes.iter().filter(|&&b| b & 0xC0 != 0x80).count();
                    assert_eq!(count_chars(&bytes), expected, "{byte:#x} at {at} of {len}");
                }
            }
            let text = "aé日😀".repeat(len);
            assert_eq!(count_chars(text.as_bytes()), text.chars().count(), "{len}");
        }
    }

    /// `decode_valid` gives `str::chars`: characters of each length
    /// at each place in texts of every length around the 16-byte blocks and 8-byte words,
    /// in ASCII, 2-byte and mixed text; nothing is written past the text's characters.
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
            assert!(!has_long_chars(short.as_bytes()), "{len}");
            for long in ["\u{800}", "的", "\u{FFFF}", "😀", "\u{10FFFF}"] {
                // Between two repetitions of "aж" (3 bytes).
                for at in [0, len / 2 * 3, short.len()] {
                    let text = format!("{}{long}{}", &short[..at], &short[at..]);
                    assert!(has_long_chars(text.as_bytes()), "{long} at {at} of {len}");
                }
            }
        }
    }

    #[test]
    fn takes_no_more_than_its_room() {
        let text = "abcdefghijklmnopqrstuvwxyzé日😀".repeat(2);
        let room = text.chars().count();
        let mut short = vec![MaybeUninit::uninit(); room - 1];
        assert_eq!(
            decode_checked(text.as_bytes(), text.len(), &mut short),
            None
        );
        let mut exact = vec![MaybeUninit::uninit(); room];
        let decoded = decode_checked(text.as_bytes(), text.len(), &mut exact).map(<[u32]>::to_vec);
        assert_eq!(decoded, Some(text.chars().map(u32::from).collect()));
    }
}
