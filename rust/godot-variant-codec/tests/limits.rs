//! Hostile lengths: a few bytes that claim billions of elements must fail fast, and the
//! decoder's peak allocation must stay bounded by the input, whatever the claim.

use std::time::{Duration, Instant};

use godot_variant_codec::{decode, DecodeOptions, VariantType};

#[path = "support/counting_alloc.rs"]
mod counting_alloc;

/// Peak bytes allocated above the starting point while `f` runs, and how long it took.
fn measure<R>(f: impl FnOnce() -> R) -> (R, usize, Duration) {
    let start = Instant::now();
    let (result, peak) = counting_alloc::peak_of(f);
    (result, peak, start.elapsed())
}

fn with_objects() -> DecodeOptions {
    DecodeOptions::default().with_allow_objects(true)
}

#[test]
fn huge_declared_lengths_fail_fast_without_allocating() {
    // Every type with a length or count right after the header (containers and packed
    // arrays, strings, names, paths, objects' class names), claiming 2^31 - 1 and 2^32 - 1.
    for t in VariantType::ALL {
        for claim in [0x7FFF_FFFFu32, 0xFFFF_FFFF, 0x8000_0000] {
            let mut bytes = t.id().to_le_bytes().to_vec();
            bytes.extend_from_slice(&claim.to_le_bytes());
            bytes.extend_from_slice(&[0; 8]);
            let (outcome, peak, mut elapsed) =
                measure(|| decode(&bytes, &with_objects()).map(|_| ()));
            // Best of three: a preempted run on a busy machine says nothing about the decoder.
            for _ in 0..2 {
                elapsed = elapsed.min(measure(|| decode(&bytes, &with_objects()).map(|_| ())).2);
            }
            assert!(
                peak < 4096,
                "{t} claiming {claim:#x}: peak allocation {peak} bytes"
            );
            assert!(
                elapsed < Duration::from_millis(1),
                "{t} claiming {claim:#x}: took {elapsed:?}"
            );
            // Types whose first word is not a length decode 16 bytes, or fail on them.
            if let Err(e) = outcome {
                assert!(
                    e.offset <= bytes.len(),
                    "{t}: error offset {} beyond input",
                    e.offset
                );
            }
        }
    }
}

#[test]
fn nested_claims_stay_bounded_by_the_input() {
    // 1000 nested arrays each claiming 2^31 - 1 items: reservations are capped by what the
    // rest of the input could hold, so the peak stays proportional to the 8 KB input.
    let mut bytes = Vec::new();
    for _ in 0..1000 {
        bytes.extend_from_slice(&[28, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0x7F]);
    }
    let (outcome, peak, _) = measure(|| decode(&bytes, &DecodeOptions::default()).map(|_| ()));
    assert!(outcome.is_err());
    assert!(
        peak < 64 * bytes.len(),
        "peak {peak} bytes for an input of {}",
        bytes.len()
    );
}
