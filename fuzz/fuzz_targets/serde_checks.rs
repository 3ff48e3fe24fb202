//! The `serde_decode` target's checks, shared with the codec crate's
//! `tests/fuzz_regressions.rs`, which replays the committed inputs through them.
//!
//! Input: the first byte chooses the options (bit 0: `allow_objects`; `0xC0..=0xFF`:
//! `max_depth` = byte & 0x3F, else 1024), the rest is read by the serde `Deserializer`.

use std::collections::BTreeMap;

use godot_variant_codec::serde::{
    from_slice, to_vec, Color, ErrorKind, PackedByteArray, PackedFloat32Array, PackedStringArray,
    PackedVector3Array, Vector2,
};
use godot_variant_codec::{decode, DecodeOptions, EncodeOptions, Value, MAX_RECURSION_DEPTH};
use serde::de::{DeserializeOwned, IgnoredAny};
use serde::{Deserialize, Serialize};

/// The message of the benchmarks, as a game server declares it.
#[derive(Serialize, Deserialize)]
struct Message {
    id: i64,
    name: String,
    pos: Vector2,
}

#[derive(Serialize, Deserialize, Default)]
enum Kind {
    #[default]
    Idle,
    Moving(Vector2),
    Named {
        name: String,
        rank: u8,
    },
}

/// Most of the mapping in one type; every field optional, so partial inputs get far.
#[derive(Serialize, Deserialize, Default)]
#[serde(default)]
struct Shapes {
    id: i64,
    name: String,
    small: Option<i16>,
    ratio: f32,
    tags: Vec<String>,
    weights: PackedFloat32Array,
    points: PackedVector3Array,
    color: Option<Color>,
    kind: Kind,
    table: BTreeMap<String, i32>,
    bytes: PackedByteArray,
    strings: PackedStringArray,
    pairs: Vec<(i32, f64)>,
}

/// The options the first byte chooses.
fn options(byte: u8) -> DecodeOptions {
    DecodeOptions::default()
        .with_allow_objects(byte & 1 != 0)
        .with_max_depth(if byte >= 0xC0 {
            usize::from(byte & 0x3F)
        } else {
            MAX_RECURSION_DEPTH
        })
}

/// Never panics; `deserialize_any` (through `IgnoredAny`) accepts exactly what `decode`
/// accepts, consuming as much, and fails with the decoder's error and offset otherwise;
/// typed targets (the crate's `Value` among them) fail with an offset inside the input,
/// and what they read re-encodes to bytes that read back to the same encoding.
pub fn check_serde_decode(data: &[u8]) {
    let Some((&option_byte, input)) = data.split_first() else {
        return;
    };
    let opts = options(option_byte);
    match (from_slice::<IgnoredAny>(input, &opts), decode(input, &opts)) {
        (Ok((_, ours)), Ok((_, used))) => assert_eq!(ours, used, "bytes consumed"),
        (Err(ours), Err(expected)) => {
            assert_eq!(
                ours.kind(),
                &ErrorKind::Decode(expected),
                "the decoder's error"
            )
        }
        (ours, expected) => panic!(
            "serde {:?}, decoder {:?}",
            ours.map(|(_, n)| n),
            expected.map(|(_, n)| n)
        ),
    }
    check_typed::<Message>(input, &opts);
    check_typed::<Shapes>(input, &opts);
    // Any value, as a server reads untrusted input into a `Value` through serde.
    check_typed::<Value>(input, &opts);
}

fn check_typed<T: Serialize + DeserializeOwned>(input: &[u8], opts: &DecodeOptions) {
    match from_slice::<T>(input, opts) {
        Ok((value, used)) => {
            assert!(
                used <= input.len() + opts.generation.max_counted_past_end(),
                "consumed {used} of {}",
                input.len()
            );
            let bytes = to_vec(&value, &EncodeOptions::default()).expect("re-encoding");
            let (again, n) = from_slice::<T>(&bytes, &DecodeOptions::default())
                .unwrap_or_else(|e| panic!("reading the re-encoding {bytes:?}: {e}"));
            assert_eq!(n, bytes.len());
            // A text that starts with U+FEFF loses it at every reading, in the engine too
            // (its leading BOM is dropped): such bytes read back to a shorter text. Any
            // other re-encoding is stable.
            if !bytes.windows(3).any(|w| w == "\u{FEFF}".as_bytes()) {
                assert_eq!(to_vec(&again, &EncodeOptions::default()).unwrap(), bytes);
            }
        }
        Err(e) => assert!(
            e.offset().is_some_and(|at| at <= input.len()),
            "error offset beyond the input: {e}"
        ),
    }
}
