//! The serde `Deserializer` on arbitrary bytes: it must never panic, agree with `decode` on
//! what is valid (and on the error otherwise), and what typed targets read must re-encode
//! stably (see `serde_checks.rs`).
//!
//! The first input byte chooses the options (bit 0: `allow_objects`; 0xC0..=0xFF:
//! `max_depth` 0..=63, else the engine's 1024); the rest is the input.
#![no_main]

use libfuzzer_sys::fuzz_target;

mod serde_checks;

fuzz_target!(|data: &[u8]| serde_checks::check_serde_decode(data));
