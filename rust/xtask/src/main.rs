//! The project's commands: `cargo xtask demo`, `cargo xtask test`, `cargo xtask bench`.
//!
//! Each provisions what it needs (Godot 4.6.3 into `.cache/`, unless `GODOT` is set),
//! builds the addon, and runs the bundled Godot project headless.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::thread;

const USAGE: &str = "usage: cargo xtask <demo|test|bench|build-addon|golden>
  demo         build the addon and run the bundled project's demo headless
  test         run every test: Rust crates, golden-vector drift against the live engine,
               and the Godot parity suite; ends with `N passed, N failed`
  bench        engine vs codec benchmark table (best of N, same process)
  build-addon  build the GDExtension into addons/fast_variant_codec/bin
  golden       regenerate tests/golden/godot4.json with the live engine";

fn main() -> ExitCode {
    let command = std::env::args().nth(1).unwrap_or_default();
    let result = match command.as_str() {
        "demo" => demo(),
        "test" => test(),
        "bench" => bench(),
        "build-addon" => build_addon(),
        "golden" => regenerate_golden(&project_dir().join("tests/golden/godot4.json")),
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

fn project_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("project dir exists")
}

/// The Godot binary: `$GODOT`, or the cached Debian build, provisioned on first use.
fn godot() -> Result<PathBuf, String> {
    let script = project_dir().join("scripts/provision-godot.sh");
    let out = Command::new("bash")
        .arg(&script)
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", script.display()))?;
    if !out.status.success() {
        return Err("could not provision Godot".into());
    }
    Ok(PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()))
}

/// Runs a command, echoing its output, and returns the output lines and whether it succeeded.
fn run_echoing(cmd: &mut Command) -> Result<(bool, Vec<String>), String> {
    eprintln!("$ {cmd:?}");
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {cmd:?}: {e}"))?;
    let stderr = child.stderr.take().expect("piped");
    let err_lines = thread::spawn(move || {
        BufReader::new(stderr)
            .lines()
            .map_while(Result::ok)
            .inspect(|l| eprintln!("{l}"))
            .collect::<Vec<_>>()
    });
    let mut lines: Vec<String> = BufReader::new(child.stdout.take().expect("piped"))
        .lines()
        .map_while(Result::ok)
        .inspect(|l| println!("{l}"))
        .collect();
    lines.extend(err_lines.join().unwrap_or_default());
    let status = child.wait().map_err(|e| e.to_string())?;
    Ok((status.success(), lines))
}

fn cargo() -> Command {
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.current_dir(project_dir());
    cmd
}

/// Builds the GDExtension into the addon's `bin/` (the addon's own build script).
fn build_addon() -> Result<(), String> {
    let script = project_dir().join("addons/fast_variant_codec/build.sh");
    let ok = Command::new("bash")
        .arg(&script)
        .status()
        .map_err(|e| format!("cannot run {}: {e}", script.display()))?
        .success();
    ok.then_some(())
        .ok_or_else(|| "building the addon failed".into())
}

/// Imports the bundled project, which registers the extension (`.godot/extension_list.cfg`).
/// Godot 4.6.3 may abort at the very end of a fresh project's first import, after writing
/// its files; a second import then succeeds.
fn import_project(godot: &Path) -> Result<(), String> {
    let project = project_dir().join("godot_project");
    for _ in 0..2 {
        let quiet = Command::new(godot)
            .args(["--headless", "--path"])
            .arg(&project)
            .arg("--import")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .map_err(|e| e.to_string())?;
        if quiet.success() {
            return Ok(());
        }
    }
    Err("importing godot_project failed twice".into())
}

/// Runs a script of the bundled project headless.
fn run_project_script(godot: &Path, script: &str) -> Result<bool, String> {
    import_project(godot)?;
    let mut cmd = Command::new(godot);
    cmd.args(["--headless", "--path"])
        .arg(project_dir().join("godot_project"))
        .args(["--script", script]);
    Ok(run_echoing(&mut cmd)?.0)
}

fn demo() -> Result<(), String> {
    let godot = godot()?;
    build_addon()?;
    let ok = run_project_script(&godot, "res://demo/demo.gd")?;
    ok.then_some(()).ok_or_else(|| "the demo failed".into())
}

/// Both benchmarks: the Godot project's engine-vs-codec table (one process, best of N)
/// and the pure-Rust crate's criterion benches against the peer crate. The tables are
/// printed and written to `target/bench/`.
fn bench() -> Result<(), String> {
    let dir = project_dir();
    let out = dir.join("target/bench");
    std::fs::create_dir_all(&out).map_err(|e| e.to_string())?;

    let rust_ok = cargo()
        .args(["bench", "-p", "godot-variant-codec", "--bench", "codec"])
        .status()
        .map_err(|e| e.to_string())?
        .success();
    let rust_table = dir.join("target/criterion/godot-variant-codec/summary.md");

    let godot = godot()?;
    build_addon()?;
    import_project(&godot)?;
    let godot_table = out.join("godot.md");
    let mut cmd = Command::new(&godot);
    cmd.args(["--headless", "--path"])
        .arg(dir.join("godot_project"))
        .args(["--script", "res://bench/bench.gd", "--"])
        .arg(format!("--out={}", godot_table.display()));
    let (godot_ok, _) = run_echoing(&mut cmd)?;

    println!("\n## Godot: engine vs FastVariantCodec (same process)\n");
    println!(
        "{}",
        std::fs::read_to_string(&godot_table).unwrap_or_else(|_| "(no table)".into())
    );
    println!("\n## Rust: godot-variant-codec (thread CPU time; see rust/godot-variant-codec/benches/README.md)\n");
    println!(
        "{}",
        std::fs::read_to_string(&rust_table).unwrap_or_else(|_| "(no table)".into())
    );
    (rust_ok && godot_ok)
        .then_some(())
        .ok_or_else(|| "a benchmark failed".into())
}

/// Runs the generator against the live engine, writing `out`.
fn regenerate_golden(out: &Path) -> Result<(), String> {
    let godot = godot()?;
    let dir = project_dir();
    let mut cmd = Command::new(godot);
    cmd.args(["--headless", "--path"])
        .arg(dir.join("tests/golden/project"))
        .args(["--script", "res://generate.gd", "--"])
        .arg(format!("--out={}", out.display()));
    let (ok, _) = run_echoing(&mut cmd)?;
    ok.then_some(())
        .ok_or_else(|| "the golden-vector generator failed".into())
}

/// Counts of one test step.
#[derive(Default)]
struct Tally {
    passed: usize,
    failed: usize,
}

impl Tally {
    fn add(&mut self, passed: usize, failed: usize) {
        self.passed += passed;
        self.failed += failed;
    }

    /// A step with no count of its own is one test.
    fn step(&mut self, name: &str, ok: bool) {
        eprintln!("== {name}: {}", if ok { "ok" } else { "FAILED" });
        self.add(usize::from(ok), usize::from(!ok));
    }
}

/// `N passed` / `N failed` from lines such as cargo's `test result: ok. 5 passed; 0 failed; …`
/// and the Godot runner's `N passed, N failed`.
fn counts(lines: &[String], marker: &str) -> (usize, usize) {
    let number_before = |line: &str, word: &str| -> usize {
        line.split(word)
            .next()
            .and_then(|head| {
                head.split(|c: char| !c.is_ascii_digit())
                    .rfind(|s| !s.is_empty())
            })
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    };
    lines
        .iter()
        .filter(|l| l.contains(marker))
        .fold((0, 0), |(p, f), l| {
            (
                p + number_before(l, " passed"),
                f + number_before(l, " failed"),
            )
        })
}

fn test() -> Result<(), String> {
    let dir = project_dir();
    let mut tally = Tally::default();

    let godot = godot()?;

    let (ok, lines) = run_echoing(cargo().args(["test", "--workspace", "--release"]))?;
    let (passed, failed) = counts(&lines, "test result:");
    tally.add(passed, failed);
    if !ok && failed == 0 {
        tally.step("cargo test (build)", false);
    }

    let (fmt_ok, _) = run_echoing(cargo().args(["fmt", "--all", "--", "--check"]))?;
    tally.step("cargo fmt --check", fmt_ok);
    let (clippy_ok, _) = run_echoing(cargo().args([
        "clippy",
        "--workspace",
        "--release",
        "--all-targets",
        "--quiet",
        "--",
        "-D",
        "warnings",
    ]))?;
    tally.step("cargo clippy -D warnings", clippy_ok);

    let regenerated = dir.join("target/golden-regenerated.json");
    let committed = dir.join("tests/golden/godot4.json");
    let drift_ok = regenerate_golden(&regenerated).is_ok() && {
        let same = std::fs::read(&regenerated).ok() == std::fs::read(&committed).ok();
        if !same {
            eprintln!(
                "golden vectors drifted: {} differs from the committed {}",
                regenerated.display(),
                committed.display()
            );
        }
        same
    };
    tally.step("golden vectors match the live engine", drift_ok);

    match build_addon() {
        Ok(()) => {
            let suite = project_dir().join("godot_project/run_tests.sh");
            let (suite_ok, lines) =
                run_echoing(Command::new("bash").arg(suite).env("GODOT", &godot))?;
            let (passed, failed) = counts(&lines, " passed, ");
            tally.add(passed, failed);
            if !suite_ok && failed == 0 {
                tally.step("Godot parity suite", false);
            }
            let demo_ok = run_project_script(&godot, "res://demo/demo.gd")?;
            tally.step("demo: codec and engine save games agree", demo_ok);
        }
        Err(e) => {
            eprintln!("{e}");
            tally.step("build the addon", false);
        }
    }

    println!("{} passed, {} failed", tally.passed, tally.failed);
    if tally.failed == 0 {
        Ok(())
    } else {
        Err(format!("{} failed", tally.failed))
    }
}
