//! decode -> encode -> decode -> encode on arbitrary bytes: the two encodings must be
//! identical, writing for a default (`Single`) and a `precision=double` (`Double`) engine,
//! with objects allowed and not (see `common.rs` for the one engine quirk that takes a
//! second round).
#![no_main]

use godot_variant_codec::{decode, DecodeOptions, EncodeOptions, Precision};
use libfuzzer_sys::fuzz_target;

mod common;

fuzz_target!(|data: &[u8]| {
    for allow_objects in [false, true] {
        let dopts = DecodeOptions {
            allow_objects,
            ..DecodeOptions::default()
        };
        let Ok((value, _)) = decode(data, &dopts) else {
            continue;
        };
        for precision in [Precision::Single, Precision::Double] {
            let eopts = EncodeOptions {
                precision,
                ..EncodeOptions::default()
            };
            let what = format!("{precision:?}");
            let Some(first) = common::encode_decoded(&value, &eopts, &what) else {
                continue;
            };
            common::check_reencoding_stable(&value, &first, &dopts, &eopts);
        }
    }
});
