//! Throughput of the pure-Rust codec, against the crate `godot-binary-serialization` 0.2 and
//! against a plain memcpy. See `benches/README.md` for the command and where the numbers
//! land.
//!
//! Groups (each iteration does the whole batch):
//! - `small_dicts_100k`: 100 000 messages `{"id": int, "name": String, "pos": Vector2}`, each
//!   encoded into its own `Vec<u8>` / decoded from its own bytes; ours through the `Value`
//!   model, ours through serde (a `#[derive(Serialize, Deserialize)]` struct), serde's own
//!   floor (`serde_floor`: no format work), and the peer crate's.
//! - `packed_1m`: 1 000 000-element packed arrays, encode and decode, beside a memcpy of the
//!   same number of bytes into a fresh buffer.
//! - `packed_string_array_100k`: a PackedStringArray of 100 000 strings.
//! - `dict_10k_small_arrays`: one Dictionary of 10 000 String keys, each holding a small Array.
//! - `dict_keys`: Dictionaries of 50 000 and 200 000 distinct keys of one type (int, float,
//!   String, StringName, Vector2i, Vector3, Color, NodePath, PackedByteArray, Array), decoded
//!   into the `Value` model and through serde, into a `Vec` of pairs (the codec's work) and
//!   into a `HashMap` (plus the map's): the cost of a key type, and whether it grows linearly
//!   with the count.
//!
//! One module per group: `small_dicts`, `large_values` (`packed_1m` and the two groups of
//! one large value), `dict_keys`; `measure` is the time criterion takes and `summary` the
//! table written after a measuring run.

mod dict_keys;
mod large_values;
mod measure;
mod small_dicts;
mod summary;

use std::time::{Duration, SystemTime};

use criterion::measurement::WallTime;
use criterion::Criterion;

use measure::ThreadCpuTime;
use summary::summarize;

type Bench = Criterion<ThreadCpuTime>;

/// A fixed pseudo-random sequence (SplitMix64): the same data on every run.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    pub(crate) fn f32(&mut self) -> f32 {
        (self.below(2_000_000) as f32 - 1_000_000.0) / 64.0
    }
    /// ASCII letters, digits and `_`, of a length in `0..max_len`.
    pub(crate) fn word(&mut self, max_len: u64) -> String {
        const CHARS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_";
        let len = self.below(max_len);
        (0..len)
            .map(|_| CHARS[self.below(CHARS.len() as u64) as usize] as char)
            .collect()
    }
}

fn main() {
    let start = SystemTime::now();
    let mut c = Criterion::default()
        .with_measurement(ThreadCpuTime(WallTime))
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    let mut entries = Vec::new();
    let mut notes = Vec::new();
    small_dicts::small_dicts(&mut c, &mut entries, &mut notes);
    large_values::packed(&mut c, &mut entries);
    large_values::string_array(&mut c, &mut entries);
    large_values::dict_of_arrays(&mut c, &mut entries);
    dict_keys::dict_keys(&mut c, &mut entries);
    c.final_summary();
    // Nothing is summed up after `--test`, `--list` or `--profile-time` runs: they write no
    // estimates.
    summarize(&entries, &notes, start);
}
