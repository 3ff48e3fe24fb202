//! `decode` on arbitrary bytes: it must never panic, and what it accepts must re-encode,
//! and the re-encoding must decode and re-encode to the same bytes (see `common.rs` for
//! the one engine quirk that takes a second round).
//!
//! The first input byte chooses the depth limit (0xC0..=0xFF: `max_depth` 0..=63, anything
//! else: the engine's 1024); the rest is the input, decoded with `allow_objects` off and on.
#![no_main]

use godot_variant_codec::{
    decode, encoded_size, DecodeOptions, EncodeOptions, Precision, MAX_RECURSION_DEPTH,
};
use libfuzzer_sys::fuzz_target;

mod common;

fn max_depth(option: u8) -> usize {
    if option >= 0xC0 {
        usize::from(option & 0x3F)
    } else {
        MAX_RECURSION_DEPTH
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&option, bytes)) = data.split_first() else {
        return;
    };
    let max_depth = max_depth(option);
    for allow_objects in [false, true] {
        let dopts = DecodeOptions {
            allow_objects,
            max_depth,
        };
        let (value, consumed) = match decode(bytes, &dopts) {
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
        // The engine's count may run past the end into a final PackedByteArray's padding.
        assert!(
            consumed <= bytes.len() + 3,
            "consumed {consumed} of {} bytes",
            bytes.len()
        );
        assert!(consumed >= 4, "consumed {consumed}: less than a header");

        // What decodes within `max_depth` encodes within it too, unless a typed container's
        // conversion made it deeper than its bytes (see `common::encode_decoded`).
        let eopts = EncodeOptions {
            precision: Precision::Single,
            max_depth,
        };
        let Some(first) = common::encode_decoded(&value, &eopts, "re-encoding") else {
            continue;
        };
        assert_eq!(
            encoded_size(&value, &eopts).expect("encoded_size after encode"),
            first.len(),
            "encoded_size disagrees with encode"
        );

        // The re-encoding decodes whole, with the same options, and re-encodes to itself
        // (or, for a null-Object key, as the engine does, settles after a second round).
        common::check_reencoding_stable(&value, &first, &dopts, &eopts);
    }
});
