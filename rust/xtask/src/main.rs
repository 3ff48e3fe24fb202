//! The project's commands: `cargo xtask demo`, `cargo xtask test`, `cargo xtask bench`.
//!
//! Each provisions what it needs (Godot 4.6.3 into `.cache/`, unless `GODOT` is set),
//! builds the addon, and runs the bundled Godot project headless. This file only
//! dispatches; each command lives in its module.

mod bench;
mod conformance;
mod e2e;
mod godot;
mod godot3;
mod package;
mod process;
mod publish;
mod setting;
mod suites;
/// The binding's switch names (its variables and probe names), read from its own file.
#[path = "../../fast-variant-codec/src/engine/switch_names.rs"]
mod switch_names;
mod tally;
mod test;
mod text_corpus;

use std::process::ExitCode;

use process::project_dir;

const USAGE: &str =
    "usage: cargo xtask <demo|test|bench|build-addon|golden|golden3|package|e2e|conformance>
  demo         build the addon and run the bundled project's demo headless
  test         run every test: Rust crates, golden-vector drift against the live engine,
               the Rust server against a Godot client (TCP and UDP), the CLI's text
               against the live engine's var_to_str,
               and the Godot parity suite in each setting (editor build, safe mode, each
               engine-layout probe failed alone, release export template), through the
               GDScript fallback FastVariant (with the library, and without it in the
               editor build and an export to a platform without it), then part of
               it under AddressSanitizer (scripts/asan.sh: in the engine built with it
               when scripts/provision-engine-build.sh has built one, else the library
               alone) and under Valgrind's Memcheck (scripts/memcheck.sh); ends with
               `N passed, N failed`
  bench        engine vs codec benchmark tables (best of N, same process), in the editor
               build, in safe mode and in the release export template, with what a
               GDScript call costs in each (call_cost.gd)
  build-addon  build the GDExtension into addons/fast_variant_codec/bin
  golden       regenerate tests/golden/godot4.json with the live engine
  golden3      regenerate the Godot 3 corpora, save files and sidecars in tests/golden/godot3
               with the live Godot 3.6.2 and 3.2.3 engines (save files also in
               godot_project/fixtures/godot3)
  conformance  regenerate tests/conformance/godot4.v1.json from the golden vectors
  publish      the publishing checks alone: `cargo package` of the pure crate and the
               CLI, their rust-version against Cargo.lock, the docs with -D warnings
  e2e          the end-to-end test alone: the crate's example server against a Godot
               client, 1000 messages each way over TCP and UDP
  package      build linux.x86_64, linux.arm64, windows.x86_64 and macOS (universal)
               release libraries and write target/package/fast_variant_codec-VERSION.zip
               and SHA256SUMS (docs/PLATFORMS.md);
               --check: then check each platform as far as this machine can (`N passed,
               N failed`)";

fn main() -> ExitCode {
    let command = std::env::args().nth(1).unwrap_or_default();
    let result = match command.as_str() {
        "demo" => godot::demo(),
        "test" => test::run(),
        "bench" => bench::run(),
        "build-addon" => godot::build_addon(),
        "golden" => godot::regenerate_golden(&project_dir().join("tests/golden/godot4.json")),
        "golden3" => godot3::regenerate_committed(&project_dir()),
        "package" => package::package(&std::env::args().skip(2).collect::<Vec<_>>()),
        "e2e" => e2e::alone(),
        "publish" => publish::alone(),
        "conformance" => conformance::write(&project_dir()),
        _ => Err(USAGE.to_owned()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask {command}: {message}");
            ExitCode::FAILURE
        }
    }
}
