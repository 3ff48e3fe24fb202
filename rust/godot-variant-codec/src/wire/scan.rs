//! Texts scanned a word at a time: where a NUL ends them, whether they are ASCII, and
//! the words of short ones, read without a loop over single bytes.

use super::Plain;

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

/// Whether `len` is at most 16 and the first `len` bytes of `window` are each 0x01 to
/// 0x7F (the rule of [`plain_text`]), found with no branch on `len`: for runs of short
/// texts whose lengths vary, where a branch on the length would mispredict.
#[inline(always)]
pub(crate) fn is_plain_16(window: &[u8; 16], len: usize) -> bool {
    const LOW: u128 = u128::from_le_bytes([0x01; 16]);
    const HIGH: u128 = u128::from_le_bytes([0x80; 16]);
    let word = u128::from_le_bytes(*window);
    // The high bit of each byte that is 0 or above 0x7F, and maybe of bytes above such a
    // byte (a borrow into a byte comes only from a zero below it), so the lowest flag is
    // the first byte outside the rule; none flagged: 128 trailing zeros, which passes for
    // any `len` up to 16.
    let flagged = (word.wrapping_sub(LOW) | word) & HIGH;
    u64::from(flagged.trailing_zeros()) >= 8 * len as u64
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
/// processor has it, many bytes per step, where `std::str::from_utf8` takes non-ASCII
/// characters one at a time).
#[inline(always)]
fn checked_text(text: &[u8], high_bits: u64) -> Option<&str> {
    if high_bits & HIGH_BITS == 0 {
        // SAFETY: no byte of `text` has its high bit set: it is ASCII, which is valid UTF-8.
        Some(unsafe { std::str::from_utf8_unchecked(text) })
    } else {
        simdutf8::basic::from_utf8(text).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::padding;

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

    /// `is_plain_16` says what `plain_text` says, for every length (also past 16) and
    /// every kind of byte at every place, before, at and past the text's end.
    #[test]
    fn is_plain_16_is_plain_text_without_a_branch() {
        for len in 0..=20 {
            for at in 0..16 {
                for byte in [0x00, 0x01, 0x7F, 0x80, 0xC3, 0xFF] {
                    let mut window = *b"abcdefghijklmnop";
                    window[at] = byte;
                    let expected = plain_text(&window, len).is_some();
                    assert_eq!(is_plain_16(&window, len), expected, "{len} {at} {byte:#x}");
                }
            }
        }
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
