//! Golden vectors made by the real engine (tests/golden/godot4.json, written by
//! tests/golden/project/generate.gd under Godot 4.6.3): every input is accepted or rejected
//! as the engine did, consumes what it consumed, and re-encodes to the engine's bytes.
//!
//! With `allow_objects`, part of what the engine does depends on its class database: whether
//! a class can be instantiated, whether a script exists, which properties a class stores and
//! which classes inherit which. A pure-Rust decoder cannot know that, so for values that hold
//! full objects or object-typed containers this test checks the format only (the engine's
//! acceptance implies ours); the GDExtension, which has the engine, is held to all of it by
//! the bundled project's suite.

use std::collections::BTreeMap;

use godot_variant_codec::{
    decode, encode, ContainerType, DecodeOptions, EncodeOptions, Object, Value, VariantType,
};
#[path = "support/golden_file.rs"]
mod golden_file;

use golden_file::{hex, unhex};

/// Whether what the engine makes of this value depends on its class database.
fn needs_class_database(v: &Value) -> bool {
    let object_typed =
        |t: &ContainerType| matches!(t, ContainerType::ClassName(_) | ContainerType::Script(_));
    match v {
        Value::Object(Object::Full(_)) => true,
        Value::Array(a) => {
            object_typed(&a.element_type) || a.items.iter().any(needs_class_database)
        }
        Value::Dictionary(d) => {
            object_typed(&d.key_type)
                || object_typed(&d.value_type)
                || d.entries
                    .iter()
                    .any(|(k, x)| needs_class_database(k) || needs_class_database(x))
        }
        _ => false,
    }
}

#[test]
fn codec_agrees_with_the_engine_on_every_golden_vector() {
    let golden = golden_file::load();
    assert!(
        golden.engine.starts_with("4."),
        "made by Godot 4: {}",
        golden.engine
    );
    let mut failures = Vec::new();
    for case in &golden.cases {
        let bytes = unhex(&case.bytes);
        let opts = DecodeOptions::default().with_allow_objects(case.allow_objects);
        let outcome = decode(&bytes, &opts);
        let problem = match (&outcome, case.accepted) {
            (Err(e), true) => Some(format!("rejected ({e}), the engine accepted")),
            (Ok((value, _)), false) if !(case.allow_objects && needs_class_database(value)) => {
                Some("accepted, the engine rejected".to_owned())
            }
            (Ok(_), false) => None,
            (Ok((value, used)), true) if case.allow_objects && needs_class_database(value) => {
                (*used as i64 != case.decoded_size)
                    .then(|| format!("consumed {used}, the engine {}", case.decoded_size))
            }
            (Err(_), false) => None,
            (Ok((value, used)), true) => {
                let reencoded = encode(value, &EncodeOptions::default());
                if *used as i64 != case.decoded_size {
                    Some(format!("consumed {used}, the engine {}", case.decoded_size))
                } else {
                    match (&case.reencoded, reencoded) {
                        (_, Err(e)) => Some(format!("re-encoding failed: {e}")),
                        (Some(expected), Ok(ours)) if hex(&ours) != *expected => {
                            Some(format!("re-encoded {}, the engine {expected}", hex(&ours)))
                        }
                        _ => None,
                    }
                }
            }
        };
        if let Some(p) = problem {
            failures.push(format!("{}: {p}", case.name));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} golden vectors disagree:\n{}",
        failures.len(),
        golden.cases.len(),
        failures.join("\n")
    );
}

#[test]
fn golden_vectors_cover_every_type() {
    let golden = golden_file::load();
    let mut per_category: BTreeMap<&str, usize> = BTreeMap::new();
    for case in &golden.cases {
        *per_category
            .entry(case.name.split('/').next().unwrap_or_default())
            .or_default() += 1;
    }
    assert!(golden.cases.len() >= 500, "{} cases", golden.cases.len());
    for t in VariantType::ALL {
        let n = per_category.get(t.name()).copied().unwrap_or(0);
        assert!(n >= 5, "only {n} golden vectors for {t}");
    }
    assert!(
        per_category.get("reject").copied().unwrap_or(0) >= 50,
        "{per_category:?}"
    );
}
