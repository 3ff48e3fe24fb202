//! `decode` on arbitrary bytes: it must never panic, and what it accepts must re-encode,
//! and the re-encoding must decode and re-encode to the same bytes (see `common.rs` for
//! the one engine quirk that takes a second round).
//!
//! The first input byte chooses the depth limit (0xC0..=0xFF: `max_depth` 0..=63, anything
//! else: the engine's 1024); the rest is the input, decoded in each generation of the format
//! (Godot 4, 3 and 2) with `allow_objects` off and on.
#![no_main]

use libfuzzer_sys::fuzz_target;

mod common;

fuzz_target!(|data: &[u8]| common::check_decode(data));
