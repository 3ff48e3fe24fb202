//! `stream::decode_frames` on arbitrary bytes: it must never panic, and an error must name
//! the value's index and a frame offset within the input, consistent with the frames
//! before it.
#![no_main]

use libfuzzer_sys::fuzz_target;

mod common;

fuzz_target!(|data: &[u8]| common::check_stream(data));
