//! The fuzz targets' checks, one `check_*` function per target, and what they share.
//!
//! Each target binary calls its own function (so the others are unused there); the codec
//! crate's `tests/fuzz_regressions.rs` includes this file too and replays the committed seeds
//! and regression inputs through all three in the ordinary test command.
#![allow(dead_code)]

use godot_variant_codec::stream::{decode_frames, encode_frame, FrameErrorKind};
use godot_variant_codec::{
    decode, decode_inline, encode, encoded_size, ContainerType, DecodeError, DecodeOptions,
    EncodeErrorKind, EncodeOptions, Generation, Object, Precision, Reals, Value, ValueBuilder,
    MAX_RECURSION_DEPTH,
};

/// How deeply `v` nests: 0 for a value holding no other value, else 1 + the deepest inside.
/// The encoder refuses a value whose nesting exceeds its `max_depth`.
pub fn nesting(v: &Value) -> usize {
    children(v).map(|c| 1 + nesting(c)).max().unwrap_or(0)
}

/// Encodes a decoded `value`; `None` when it is legitimately too deep to encode.
///
/// A decoded value can nest deeper than its bytes did, in the engine too: a typed
/// `Array[Array]` converts a packed-array element into an Array, one level deeper (as
/// `Array::push_back` does). At the depth limit, `bytes_to_var` accepts such bytes and
/// `var_to_bytes` then fails ("Potential infinite recursion detected"; checked with Godot
/// 4.6.3: 1023 nested arrays around `Array[Array]([PackedByteArray([7])])`). Any other
/// failure, or `TooDeep` for a value within the limit, panics.
pub fn encode_decoded(value: &Value, eopts: &EncodeOptions, what: &str) -> Option<Vec<u8>> {
    match encode(value, eopts) {
        Ok(bytes) => Some(bytes),
        Err(e) if matches!(e.kind, EncodeErrorKind::TooDeep(_)) => {
            let depth = nesting(value);
            assert!(
                depth > eopts.max_depth,
                "{what}: encoding a decoded value nested {depth} deep (limit {}) failed: {e}\n\
                 value: {value:?}",
                eopts.max_depth
            );
            None
        }
        Err(e) => panic!("{what}: encoding a decoded {value:?} failed: {e}"),
    }
}

/// Whether some Dictionary in `v` has a key holding a null Object (at any depth of the key).
///
/// Such a dictionary is the one place where decode -> encode is not a fixed point, in the
/// engine too: a null Object and nil are different keys, but both are written as nil
/// (`encode_variant` writes a null object as NIL), so `{<Object#null>: 5, null: 7}`
/// re-encodes with two nil keys and decodes back as `{null: 7}`. Checked against Godot
/// 4.6.3: `var_to_bytes(bytes_to_var_with_objects(b))` changes again on a second round.
pub fn has_null_object_key(v: &Value) -> bool {
    fn holds_null_object(v: &Value) -> bool {
        match v {
            Value::Object(Object::Null) => true,
            _ => children(v).any(holds_null_object),
        }
    }
    if let Value::Dictionary(d) = v {
        if d.entries.iter().any(|(k, _)| holds_null_object(k)) {
            return true;
        }
    }
    children(v).any(has_null_object_key)
}

/// Whether some text in `v` starts with U+FEFF. The engine drops one leading UTF-8 BOM when
/// it reads text, so such text loses a character at every round trip, in the engine too
/// (checked against Godot 4.6.3: `"\u{FEFF}\u{FEFF}a"` reads back as `"\u{FEFF}a"`,
/// then `"a"`). Found by the `stream` target.
pub fn has_text_starting_with_bom(v: &Value) -> bool {
    let bom = |s: &String| s.starts_with('\u{FEFF}');
    let own = match v {
        Value::String(s) | Value::StringName(s) => bom(s),
        Value::PackedStringArray(items) => items.iter().any(bom),
        Value::NodePath(p) => p
            .names()
            .chain(p.subnames())
            .any(|s| s.starts_with('\u{FEFF}')),
        Value::Signal(sig) => bom(&sig.name),
        Value::Object(Object::Full(full)) => {
            bom(&full.class) || full.properties.iter().any(|(name, _)| bom(name))
        }
        Value::Array(a) => container_text(&a.element_type).is_some_and(bom),
        Value::Dictionary(d) => [&d.key_type, &d.value_type]
            .into_iter()
            .any(|t| container_text(t).is_some_and(bom)),
        _ => false,
    };
    own || children(v).any(has_text_starting_with_bom)
}

fn container_text(t: &ContainerType) -> Option<&String> {
    match t {
        ContainerType::ClassName(s) | ContainerType::Script(s) => Some(s),
        _ => None,
    }
}

/// The values directly inside `v`.
fn children(v: &Value) -> Box<dyn Iterator<Item = &Value> + '_> {
    match v {
        Value::Array(a) => Box::new(a.items.iter()),
        Value::Dictionary(d) => Box::new(d.entries.iter().flat_map(|(k, x)| [k, x])),
        Value::Object(Object::Full(full)) => Box::new(full.properties.iter().map(|(_, x)| x)),
        _ => Box::new(std::iter::empty()),
    }
}

/// `first` is the encoding of `value` (decoded with `dopts`): it must decode whole with the
/// same options and re-encode to the same bytes. The one exception, a null-Object key (see
/// [`has_null_object_key`]), must settle after one more round.
pub fn check_reencoding_stable(
    value: &Value,
    first: &[u8],
    dopts: &DecodeOptions,
    eopts: &EncodeOptions,
) {
    let what = format!("{:?}", eopts.precision);
    if has_text_starting_with_bom(value) {
        return;
    }
    let second = reencode(first, dopts, eopts, &what);
    if second == first {
        return;
    }
    assert!(
        has_null_object_key(value),
        "{what}: decode -> encode -> decode -> encode changed the bytes\n\
         value: {value:?}\nfirst:  {first:02x?}\nsecond: {second:02x?}"
    );
    let third = reencode(&second, dopts, eopts, &what);
    assert_eq!(
        second, third,
        "{what}: a null-Object key, but the encoding does not settle after a second round"
    );
}

/// decode (whole) then encode, panicking with context on any failure.
fn reencode(bytes: &[u8], dopts: &DecodeOptions, eopts: &EncodeOptions, what: &str) -> Vec<u8> {
    let (value, used) = decode(bytes, dopts)
        .unwrap_or_else(|e| panic!("{what}: decoding the encoding {bytes:02x?} failed: {e}"));
    assert_eq!(
        used,
        bytes.len(),
        "{what}: the encoding {bytes:02x?} was not read whole"
    );
    encode(&value, eopts)
        .unwrap_or_else(|e| panic!("{what}: re-encoding {value:?} (from {bytes:02x?}) failed: {e}"))
}

/// Every input of the `decode` target is read in each generation of the format.
const GENERATIONS: [Generation; 3] = [
    Generation::GODOT_4,
    Generation::GODOT_3,
    Generation::GODOT_2,
];

/// The `decode` target's option byte: `0xC0..=0xFF` sets `max_depth` 0..=63, anything else
/// keeps the engine's limit.
fn max_depth(option: u8) -> usize {
    if option >= 0xC0 {
        usize::from(option & 0x3F)
    } else {
        MAX_RECURSION_DEPTH
    }
}

/// `decode` on arbitrary bytes: it must never panic, and what it accepts must re-encode,
/// and the re-encoding must decode and re-encode to the same bytes (see `check_reencoding_stable` for
/// the one engine quirk that takes a second round).
///
/// The first input byte chooses the depth limit (0xC0..=0xFF: `max_depth` 0..=63, anything
/// else: the engine's 1024); the rest is the input, decoded in each generation (Godot 4, 3,
/// 2, re-encoded in the same one) with `allow_objects` off and on.
pub fn check_decode(data: &[u8]) {
    let Some((&option, bytes)) = data.split_first() else {
        return;
    };
    let max_depth = max_depth(option);
    for (generation, allow_objects) in GENERATIONS.iter().flat_map(|&g| [(g, false), (g, true)]) {
        let dopts = DecodeOptions::default()
            .with_allow_objects(allow_objects)
            .with_max_depth(max_depth)
            .with_generation(generation);
        let decoded = decode(bytes, &dopts);
        check_inline_shortcut(bytes, &dopts, &decoded);
        let (value, consumed) = match decoded {
            Ok(ok) => ok,
            Err(e) => {
                // An error points into the input.
                assert!(
                    e.offset <= bytes.len(),
                    "error offset {} past the input ({} bytes): {e}",
                    e.offset,
                    bytes.len()
                );
                continue;
            }
        };
        // The engine's count may run past the end into bytes it does not check.
        assert!(
            consumed <= bytes.len() + generation.max_counted_past_end(),
            "consumed {consumed} of {} bytes",
            bytes.len()
        );
        assert!(consumed >= 4, "consumed {consumed}: less than a header");

        // What decodes within `max_depth` encodes within it too, unless a typed container's
        // conversion made it deeper than its bytes (see `encode_decoded`).
        let eopts = EncodeOptions::default()
            .with_precision(Precision::Single)
            .with_max_depth(max_depth)
            .with_generation(generation);
        let Some(first) = encode_decoded(&value, &eopts, "re-encoding") else {
            continue;
        };
        assert_eq!(
            encoded_size(&value, &eopts).expect("encoded_size after encode"),
            first.len(),
            "encoded_size disagrees with encode"
        );

        // The re-encoding decodes whole, with the same options, and re-encodes to itself
        // (or, for a null-Object key, as the engine does, settles after a second round).
        check_reencoding_stable(&value, &first, &dopts, &eopts);
    }
}

/// `decode_inline` gives what `decode` gives (compared as printed: a NaN is the same NaN)
/// whenever it answers, and answers whenever `decode` gives a value a Variant holds in its
/// own bytes (see `decode_inline`).
pub fn check_inline_shortcut(
    bytes: &[u8],
    opts: &DecodeOptions,
    decoded: &Result<(Value, usize), DecodeError>,
) {
    match decode_inline(bytes, 0, opts, &mut ValueBuilder) {
        Some(shortcut) => assert_eq!(
            format!("{shortcut:?}"),
            format!("{decoded:?}"),
            "decode_inline disagrees with decode on {bytes:02x?}"
        ),
        None => assert!(
            !decoded.as_ref().is_ok_and(|(v, _)| is_inline(v)),
            "decode_inline left {decoded:?} to decode on {bytes:02x?}"
        ),
    }
}

/// Whether a Variant holds `value` in its own bytes: a scalar, or a math value of at most
/// four 32-bit components (`decode_inline`'s listing, said here by the value model).
fn is_inline(value: &Value) -> bool {
    matches!(
        value,
        Value::Nil
            | Value::Bool(_)
            | Value::Int(_)
            | Value::Float(_)
            | Value::Vector2(Reals::Single(_))
            | Value::Rect2(Reals::Single(_))
            | Value::Vector3(Reals::Single(_))
            | Value::Vector4(Reals::Single(_))
            | Value::Plane(Reals::Single(_))
            | Value::Quaternion(Reals::Single(_))
            | Value::Color(_)
            | Value::Vector2i(_)
            | Value::Rect2i(_)
            | Value::Vector3i(_)
            | Value::Vector4i(_)
    )
}

/// decode -> encode -> decode -> encode on arbitrary bytes: the two encodings must be
/// identical, writing for a default (`Single`) and a `precision=double` (`Double`) engine,
/// with objects allowed and not (see `check_reencoding_stable` for the one engine quirk that takes a
/// second round).
pub fn check_roundtrip(data: &[u8]) {
    for allow_objects in [false, true] {
        let dopts = DecodeOptions::default().with_allow_objects(allow_objects);
        let Ok((value, _)) = decode(data, &dopts) else {
            continue;
        };
        for precision in [Precision::Single, Precision::Double] {
            let eopts = EncodeOptions::default().with_precision(precision);
            let what = format!("{precision:?}");
            let Some(first) = encode_decoded(&value, &eopts, &what) else {
                continue;
            };
            check_reencoding_stable(&value, &first, &dopts, &eopts);
        }
    }
}

/// `stream::decode_frames` on arbitrary bytes: it must never panic, and an error must name
/// the value's index and a frame offset within the input, consistent with the frames
/// before it.
pub fn check_stream(data: &[u8]) {
    for allow_objects in [false, true] {
        let dopts = DecodeOptions::default().with_allow_objects(allow_objects);
        match decode_frames(data, &dopts) {
            Ok(values) => {
                // Every value re-frames, and the re-framed stream reads back to the same bytes.
                let eopts = EncodeOptions::default();
                // (Values made deeper than their bytes by a typed container's conversion may
                // not encode, as in the engine: see `encode_decoded`.)
                if values
                    .iter()
                    .any(|v| encode_decoded(v, &eopts, "framing").is_none())
                {
                    continue;
                }
                let mut framed = Vec::new();
                for v in &values {
                    encode_frame(v, &mut framed, &eopts)
                        .unwrap_or_else(|e| panic!("framing a decoded {v:?} failed: {e}"));
                }
                let again = decode_frames(&framed, &dopts)
                    .unwrap_or_else(|e| panic!("reading the re-framed stream failed: {e}"));
                assert_eq!(again.len(), values.len(), "re-framed stream: value count");
                for (a, b) in values.iter().zip(&again) {
                    if !has_null_object_key(a) && !has_text_starting_with_bom(a) {
                        assert_eq!(encode(a, &eopts).ok(), encode(b, &eopts).ok());
                    }
                }
            }
            Err(e) => {
                let len = data.len();
                assert!(
                    e.frame_offset < len,
                    "frame offset {} not within the {len}-byte input: {e}",
                    e.frame_offset
                );
                // The frames before the failing one read on their own, `index` of them.
                let before = decode_frames(&data[..e.frame_offset], &dopts).unwrap_or_else(|e2| {
                    panic!("the frames before the failing one ({e}) do not read: {e2}")
                });
                assert_eq!(
                    before.len(),
                    e.index,
                    "index disagrees with the frames before: {e}"
                );
                let rest = len - e.frame_offset;
                match &e.kind {
                    FrameErrorKind::Incomplete { needed } => {
                        assert!(*needed > 0, "incomplete, needing 0 bytes: {e}");
                        // It is the last frame: `needed` more bytes complete its prefix or body.
                        let total = rest + needed;
                        if rest >= 4 {
                            let body = u32::from_le_bytes(
                                data[e.frame_offset..e.frame_offset + 4].try_into().unwrap(),
                            ) as usize;
                            assert_eq!(total, 4 + body, "needed disagrees with the prefix: {e}");
                        } else {
                            assert_eq!(total, 4, "needed disagrees with the prefix: {e}");
                        }
                    }
                    FrameErrorKind::Invalid(d) => {
                        assert!(rest >= 4, "invalid frame without a whole prefix: {e}");
                        let body = u32::from_le_bytes(
                            data[e.frame_offset..e.frame_offset + 4].try_into().unwrap(),
                        ) as usize;
                        let frame_end = e.frame_offset + 4 + body;
                        assert!(frame_end <= len, "invalid frame past the input: {e}");
                        assert!(
                            d.offset >= e.frame_offset + 4 && d.offset <= frame_end,
                            "error offset {} outside its frame {}..{frame_end}: {e}",
                            d.offset,
                            e.frame_offset + 4
                        );
                    }
                    other => panic!("a frame error of a kind this check does not know: {other}"),
                }
            }
        }
    }
}
