//! Writes, for each key type of `keys.rs`, the bytes of a Dictionary of N distinct keys of
//! that type (`var_to_bytes`, encoded by this crate) to `DIR/dict_<N>_<type>.bin`, for
//! timing `godot-variant check` on them:
//!
//! ```sh
//! cargo run --release -p godot-variant-codec --example dict_keys -- /tmp/dict_keys 200000
//! for f in /tmp/dict_keys/*; do /usr/bin/time -f "%e s $f" target/release/godot-variant check "$f"; done
//! ```

mod keys;

use godot_variant_codec::{encode, EncodeOptions};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dir, n] = args.as_slice() else {
        eprintln!("usage: dict_keys DIR N");
        std::process::exit(2);
    };
    let n: usize = n.parse().expect("N: a count of keys");
    std::fs::create_dir_all(dir).expect("DIR can be made");
    for kind in keys::KINDS {
        let bytes = encode(&keys::dictionary(kind, n), &EncodeOptions::default()).expect("encodes");
        let path = format!("{dir}/dict_{n}_{kind}.bin");
        std::fs::write(&path, bytes).expect("file written");
        println!("{path}");
    }
}
