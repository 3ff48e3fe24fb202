//! Reads a save file a Godot game wrote with `FileAccess.store_var` into Rust structs.
//!
//! `cargo run --example read_save -- path/to/save.bin` (without a path: the repository's
//! `tests/golden/save/save.bin`, written by Godot 4.6.3 with `make_save.gd` beside it).

use std::fs::File;
use std::io::BufReader;

use godot_variant_codec::io::FrameReader;
use godot_variant_codec::serde::{PackedInt32Array, Vector2};
use serde::Deserialize;

/// The game's first record: `store_var({"player": "Ada", "level": 3, …})`.
#[derive(Deserialize, Debug, PartialEq)]
struct Save {
    player: String,
    level: u32,
    health: f64,
    position: Vector2,
    inventory: Vec<String>,
    quests_done: PackedInt32Array,
}

/// The second record: `store_var({"autosave": true})`.
#[derive(Deserialize, Debug, PartialEq)]
struct Settings {
    autosave: bool,
}

fn read(path: &str) -> Result<(Save, Settings), Box<dyn std::error::Error>> {
    let mut records = FrameReader::new(BufReader::new(File::open(path)?));
    let save = records.read::<Save>()?.ok_or("no save record")?;
    let settings = records.read::<Settings>()?.ok_or("no settings record")?;
    Ok((save, settings))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| REPOSITORY_SAVE.to_owned());
    let (save, settings) = read(&path)?;
    println!("{save:#?}\n{settings:?}");
    Ok(())
}

const REPOSITORY_SAVE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/golden/save/save.bin"
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_save_godot_wrote() {
        if !std::path::Path::new(REPOSITORY_SAVE).exists() {
            eprintln!("skipped: {REPOSITORY_SAVE} is in the repository, not in the package");
            return;
        }
        let (save, settings) = read(REPOSITORY_SAVE).unwrap();
        let expected = Save {
            player: "Ada".into(),
            level: 3,
            health: 97.5,
            position: Vector2 { x: 1.5, y: -2.0 },
            inventory: vec!["sword".into(), "shield".into(), "potion".into()],
            quests_done: PackedInt32Array(vec![1, 4, 7]),
        };
        assert_eq!(save, expected);
        assert_eq!(settings, Settings { autosave: true });
    }
}
