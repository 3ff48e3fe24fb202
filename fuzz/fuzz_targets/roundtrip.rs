//! decode -> encode -> decode -> encode on arbitrary bytes: the two encodings must be
//! identical, writing for a default (`Single`) and a `precision=double` (`Double`) engine,
//! with objects allowed and not (see `common.rs` for the one engine quirk that takes a
//! second round).
#![no_main]

use libfuzzer_sys::fuzz_target;

mod common;

fuzz_target!(|data: &[u8]| common::check_roundtrip(data));
