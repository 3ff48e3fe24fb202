//! The project's commands: `cargo xtask demo`, `cargo xtask test`, `cargo xtask bench`.
//!
//! Each provisions what it needs (Godot 4.6.3 into `.cache/`, unless `GODOT` is set),
//! builds the addon, and runs the bundled Godot project headless.

mod conformance;
mod e2e;
mod godot3;
mod text_corpus;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::thread;
use std::time::Instant;

mod package;

const USAGE: &str =
    "usage: cargo xtask <demo|test|bench|build-addon|golden|golden3|package|e2e|conformance>
  demo         build the addon and run the bundled project's demo headless
  test         run every test: Rust crates, golden-vector drift against the live engine,
               the Rust server against a Godot client (TCP and UDP), the CLI's text
               against the live engine's var_to_str,
               and the Godot parity suite in each setting (editor build, safe mode, each
               engine-layout probe failed alone, release export template), then part of
               it under AddressSanitizer (scripts/asan.sh: in the engine built with it
               when scripts/provision-asan-godot.sh has built one, else the library
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
  e2e          the end-to-end test alone: the crate's example server against a Godot
               client, 1000 messages each way over TCP and UDP
  package      build linux.x86_64, linux.arm64 and windows.x86_64 release libraries and
               write target/package/fast_variant_codec-VERSION.zip (docs/PLATFORMS.md);
               --check: then check each platform as far as this machine can (`N passed,
               N failed`)";

fn main() -> ExitCode {
    let command = std::env::args().nth(1).unwrap_or_default();
    let result = match command.as_str() {
        "demo" => demo(),
        "test" => test(),
        "bench" => bench(),
        "build-addon" => build_addon(),
        "golden" => regenerate_golden(&project_dir().join("tests/golden/godot4.json")),
        "golden3" => godot3::regenerate_committed(&project_dir()),
        "package" => package::package(&std::env::args().skip(2).collect::<Vec<_>>()),
        "e2e" => e2e_alone(),
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

fn project_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("project dir exists")
}

/// Where cargo puts what it builds: `$CARGO_TARGET_DIR` when set (relative to the project),
/// else the project's `target/`.
fn cargo_target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) if !dir.is_empty() => project_dir().join(dir),
        _ => project_dir().join("target"),
    }
}

/// The binding's switch for its engine-memory fast paths: `off` is safe mode (the public
/// GDExtension interface only).
const ENGINE_LAYOUT_VAR: &str = "FAST_VARIANT_CODEC_ENGINE_LAYOUT";
/// Layout probes the binding treats as failed (comma-separated names).
const FAILED_PROBES_VAR: &str = "FAST_VARIANT_CODEC_FAILED_PROBES";
/// The size of the binding's thread pool (`0`: none, all work on the calling thread).
const POOL_THREADS_VAR: &str = "FAST_VARIANT_CODEC_POOL_THREADS";
/// Layout probes the binding runs against a deliberately wrong layout (a test switch).
const WRONG_LAYOUT_VAR: &str = "FAST_VARIANT_CODEC_PROBE_WRONG_LAYOUT";
/// The binding's engine-layout probes; the suite runs once with each failed alone, so that
/// each fallback runs by itself, and once with each run against a wrong layout, which the
/// report must show it rejected.
const PROBES: [&str; 6] = [
    "variant",
    "array_elements",
    "read_only_arrays",
    "dictionary_entries",
    "buffers",
    "node_paths",
];
/// What those runs test (run_tests.sh arguments; a suite that is not there selects
/// nothing): encode and decode of every type, arrays, dictionaries, strings and packed
/// arrays (the curated parity suite), streams and batches (the parallel paths), read-only
/// containers, containers that property getters change mid-walk, and values with a
/// history (keys changed or freed after insertion). About half the whole suite's time: the
/// random, fuzz, thread and layout-probe suites run in the other settings.
const PROBE_RUN_SUITES: [&str; 5] = [
    "--suite=parity_curated",
    "--suite=streams_batches",
    "--suite=read_only_containers",
    "--suite=containers_changed_by_getters",
    "--suite=values_with_history",
];
/// What runs under the memory checkers: the curated parity suite, the hostile-input suite
/// and values with a history. AddressSanitizer (the codec's library instrumented) in the
/// default setting and in safe mode; Valgrind's Memcheck (the whole process, some 40 times
/// slower) in the default setting, where the codec reads and makes engine values in the
/// engine's memory layout.
const CHECKED_SUITES: [&str; 3] = [
    "--suite=parity_curated",
    "--suite=differential_fuzz",
    "--suite=values_with_history",
];
/// Fewer values with a history under the checkers than in the other settings, which run
/// the full count.
const CHECKED_COUNTS: [(&str, &str); 1] = [("FVC_HISTORY_CASES", "1000")];
/// The line test_values_with_history.gd prints: `history cases: N agreed, N disagreed`.
const HISTORY_MARKER: &str = "history cases:";

/// One way of running the bundled Godot project: the engine build (the editor, a debug
/// build, or the release export template through scripts/release-template.sh) and the
/// binding's environment.
struct Setting {
    label: String,
    env: Vec<(&'static str, String)>,
    release_template: bool,
    /// Arguments for bench.gd in this setting.
    args: Vec<String>,
}

impl Setting {
    fn new(label: &str, env: &[(&'static str, &str)], release_template: bool) -> Self {
        Setting {
            label: label.into(),
            env: env.iter().map(|&(k, v)| (k, v.to_owned())).collect(),
            release_template,
            args: Vec::new(),
        }
    }

    /// The codec's thread pool off: all its work on the calling thread.
    fn pool_off(release_template: bool) -> Self {
        let label = if release_template {
            "release template, pool off"
        } else {
            "pool off"
        };
        Self::new(label, &[(POOL_THREADS_VAR, "0")], release_template)
    }

    /// A CPU-bound thread beside the benchmark for its whole run.
    fn busy_core(release_template: bool) -> Self {
        let label = if release_template {
            "release template, busy core"
        } else {
            "busy core"
        };
        let mut setting = Self::new(label, &[], release_template);
        setting.args.push("--busy-core".into());
        setting
    }

    fn default_paths() -> Self {
        Self::new("default", &[], false)
    }

    fn safe_mode() -> Self {
        Self::new("safe mode", &[(ENGINE_LAYOUT_VAR, "off")], false)
    }

    fn failed_probe(probe: &str) -> Self {
        let label = format!("failed probe {probe}");
        Self::new(&label, &[(FAILED_PROBES_VAR, probe)], false)
    }

    fn wrong_layout(probe: &str) -> Self {
        let label = format!("wrong layout {probe}");
        Self::new(&label, &[(WRONG_LAYOUT_VAR, probe)], false)
    }

    fn release_template() -> Self {
        Self::new("release template", &[], true)
    }

    /// The engine build and the label: "editor build, safe mode", "release template".
    fn description(&self) -> String {
        if self.release_template {
            self.label.clone()
        } else {
            format!("editor build, {}", self.label)
        }
    }

    /// This setting's table `STEM` in `dir`: `STEM.md` for the default, else
    /// `STEM-LABEL.md` (as `godot-safe-mode.md`).
    fn table_file(&self, dir: &Path, stem: &str) -> PathBuf {
        match self.label.as_str() {
            "default" => dir.join(format!("{stem}.md")),
            label => dir.join(format!(
                "{stem}-{}.md",
                label.replace(", ", "-").replace(' ', "-")
            )),
        }
    }

    /// Gives `cmd` this setting's environment; the binding's variables it does not set are
    /// removed, so that the caller's environment cannot change what a setting tests.
    fn apply<'c>(&self, cmd: &'c mut Command) -> &'c mut Command {
        cmd.env_remove(ENGINE_LAYOUT_VAR)
            .env_remove(FAILED_PROBES_VAR)
            .env_remove(WRONG_LAYOUT_VAR)
            .env_remove(POOL_THREADS_VAR)
            .envs(self.env.iter().map(|(k, v)| (k, v)))
    }

    /// A command that runs the bundled project headless with the user args `args`: in the
    /// editor build the `--script` `script`, in the release template (which cannot run
    /// `--script`) the main scene, which runs that script on `entry` (test_runner.gd).
    fn project_script(&self, godot: &Path, script: &str, entry: &str, args: &[String]) -> Command {
        let dir = project_dir();
        let mut cmd;
        if self.release_template {
            cmd = Command::new("bash");
            cmd.arg(dir.join("scripts/release-template.sh"))
                .env("GODOT", godot)
                .arg(entry);
        } else {
            cmd = Command::new(godot);
            cmd.args(["--headless", "--path"])
                .arg(dir.join("godot_project"))
                .args(["--script", script, "--"]);
        }
        cmd.args(args);
        self.apply(&mut cmd);
        cmd
    }
}

/// The Godot binary: `$GODOT`, or the cached Debian build, provisioned on first use.
/// The Godot built with AddressSanitizer (scripts/provision-asan-godot.sh --check), or why
/// there is none: it takes hours to build, so `test` only uses it when a user or an
/// earlier run has built it.
fn asan_godot() -> Result<PathBuf, String> {
    let script = project_dir().join("scripts/provision-asan-godot.sh");
    let out = Command::new("bash")
        .arg(&script)
        .arg("--check")
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", script.display()))?;
    let said = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    if out.status.success() {
        Ok(PathBuf::from(said))
    } else {
        Err(said)
    }
}

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
    import_project_at(godot, &project_dir().join("godot_project"))
}

/// Imports the Godot project in `project` (as `import_project`).
fn import_project_at(godot: &Path, project: &Path) -> Result<(), String> {
    for _ in 0..2 {
        let quiet = Command::new(godot)
            .args(["--headless", "--path"])
            .arg(project)
            .arg("--import")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .map_err(|e| e.to_string())?;
        if quiet.success() {
            return Ok(());
        }
    }
    Err(format!("importing {} failed twice", project.display()))
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

/// Both benchmarks: the Godot project's engine-vs-codec tables (one process, best of N;
/// bench.gd's targets, shapes.gd's other shapes, call_cost.gd's cost of a call) in each
/// bench setting, and the pure-Rust crate's criterion benches against the peer crate. The
/// tables are printed and written to `target/bench/`, each headed by its setting.
fn bench() -> Result<(), String> {
    let dir = project_dir();
    let out = dir.join("target/bench");
    std::fs::create_dir_all(&out).map_err(|e| e.to_string())?;

    let rust_ok = cargo()
        .args(["bench", "-p", "godot-variant-codec", "--bench", "codec"])
        .status()
        .map_err(|e| e.to_string())?
        .success();
    let rust_table = cargo_target_dir().join("criterion/godot-variant-codec/summary.md");

    let godot = godot()?;
    build_addon()?;
    import_project(&godot)?;
    let mut godot_ok = true;
    let mut tables = Vec::new();
    // The whole table in each build and in safe mode; then the PackedStringArray rows,
    // whose strings the pool shares out, without the pool and beside a busy core.
    let strings_only = || vec!["--only=PackedStringArray".to_owned()];
    let runs = [
        (Setting::default_paths(), vec![], true),
        (Setting::safe_mode(), vec![], true),
        (Setting::release_template(), vec![], true),
        (Setting::pool_off(false), strings_only(), false),
        (Setting::pool_off(true), strings_only(), false),
        (Setting::busy_core(false), strings_only(), false),
        (Setting::busy_core(true), strings_only(), false),
    ];
    for (setting, mut args, with_shapes) in runs {
        let build = setting.description();
        let bench_file = setting.table_file(&out, "godot");
        let _ = std::fs::remove_file(&bench_file);
        args.push(format!("--out={}", bench_file.display()));
        args.extend(setting.args.iter().cloned());
        let mut cmd = setting.project_script(&godot, "res://bench/bench.gd", "--bench", &args);
        let (ok, _) = run_echoing(&mut cmd)?;
        godot_ok &= ok;
        let table = std::fs::read_to_string(&bench_file).ok();
        tables.push((
            format!("Godot ({build}): engine vs FastVariantCodec (same process)"),
            table,
            bench_file,
        ));
        if !with_shapes {
            continue;
        }

        // Each script by name (its release-template entry and table file: the name with
        // dashes), what its table shows, and its table's header.
        let others = [
            ("shapes", "other shapes", "| shape |"),
            ("call_cost", "the cost of a call", "| call |"),
        ];
        for (name, what, header) in others {
            let script = format!("res://bench/{name}.gd");
            let dashed = name.replace('_', "-");
            let mut cmd = setting.project_script(&godot, &script, &format!("--{dashed}"), &[]);
            let (ok, lines) = run_echoing(&mut cmd)?;
            godot_ok &= ok;
            tables.push((
                format!("Godot ({build}): {what} ({name}.gd)"),
                last_table(&lines, header),
                setting.table_file(&out, &dashed),
            ));
        }
    }

    for (title, table, file) in &tables {
        let table = table.as_deref().unwrap_or("(no table)\n");
        let labelled = format!("## {title}\n\n{table}");
        if let Err(e) = std::fs::write(file, &labelled) {
            eprintln!("cannot write {}: {e}", file.display());
        }
        println!("\n{labelled}");
    }
    println!("\n## Rust: godot-variant-codec (thread CPU time; see rust/godot-variant-codec/benches/README.md)\n");
    println!(
        "{}",
        std::fs::read_to_string(&rust_table).unwrap_or_else(|_| "(no table)".into())
    );
    (rust_ok && godot_ok)
        .then_some(())
        .ok_or_else(|| "a benchmark failed".into())
}

/// A bench script's table from its output (shapes.gd prints each row as it goes, then the
/// whole table; each ends with a line on how it was timed): the last table whose header
/// starts with `header`, and that line.
fn last_table(lines: &[String], header: &str) -> Option<String> {
    let start = lines.iter().rposition(|l| l.starts_with(header))?;
    let mut table: Vec<&str> = lines[start..]
        .iter()
        .take_while(|l| l.starts_with('|'))
        .map(String::as_str)
        .collect();
    if let Some(note) = lines
        .get(start + table.len())
        .filter(|l| l.starts_with("Best of"))
    {
        table.extend(["", note]);
    }
    Some(table.join("\n") + "\n")
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
struct Tally {
    passed: usize,
    failed: usize,
    /// The parity suite's `LABEL: N passed, N failed` line of each setting it ran in.
    settings: Vec<String>,
    /// Values with a history that agreed with the engine in every way, and that did not,
    /// over every setting.
    history: (usize, usize),
    /// The counts of the suites in the engine built with AddressSanitizer, or why they
    /// did not run.
    asan: Result<(usize, usize), String>,
}

impl Default for Tally {
    fn default() -> Self {
        Tally {
            passed: 0,
            failed: 0,
            settings: Vec::new(),
            history: (0, 0),
            asan: Err("not reached".into()),
        }
    }
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
    marked_counts(lines, marker, " passed", " failed")
}

/// The numbers before `first` and before `second`, summed over the lines holding `marker`.
fn marked_counts(lines: &[String], marker: &str, first: &str, second: &str) -> (usize, usize) {
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
        .fold((0, 0), |(a, b), l| {
            (a + number_before(l, first), b + number_before(l, second))
        })
}

/// Runs the Godot parity suite (run_tests.sh with `args`) in `setting`, adds its counts
/// to `tally`, and prints them on a line of their own, `LABEL: N passed, N failed`, and the
/// run's wall time. A run that fails without a failed test (the build, the import or the
/// export failed, or the engine crashed) counts one failure.
fn run_parity_suite(
    godot: &Path,
    setting: &Setting,
    args: &[&str],
    tally: &mut Tally,
) -> Result<(), String> {
    let mut cmd = Command::new("bash");
    cmd.arg(project_dir().join("godot_project/run_tests.sh"))
        .env("GODOT", godot);
    if setting.release_template {
        cmd.arg("--release-template");
    }
    cmd.args(args);
    setting.apply(&mut cmd);
    run_counted(&mut cmd, &setting.label, tally)
}

/// A memory checker that runs suites of the bundled project: its script, which ends with
/// the runner's `N passed, N failed` and fails on any report of the checker.
#[derive(Clone, Copy)]
enum Checker {
    /// AddressSanitizer in the codec's library (scripts/asan.sh).
    Asan,
    /// Valgrind's Memcheck over the whole process (scripts/memcheck.sh).
    Memcheck,
}

impl Checker {
    fn name(self) -> &'static str {
        match self {
            Checker::Asan => "asan",
            Checker::Memcheck => "memcheck",
        }
    }
}

/// The suites `args` under `checker` in `setting`, with fewer values with a history
/// ([`CHECKED_COUNTS`]), counted as [`run_parity_suite`] counts them under the label
/// `CHECKER, LABEL`.
fn run_checked(
    checker: Checker,
    setting: &Setting,
    args: &[&str],
    tally: &mut Tally,
) -> Result<(), String> {
    let script = format!("scripts/{}.sh", checker.name());
    let mut cmd = Command::new("bash");
    cmd.arg(project_dir().join(script)).args(args);
    setting.apply(&mut cmd).envs(CHECKED_COUNTS);
    let label = format!("{}, {}", checker.name(), setting.label);
    run_counted(&mut cmd, &label, tally)
}

/// The checked suites under AddressSanitizer in default and safe mode: in the engine built
/// with it when there is one (`asan: N passed, N failed` at the end), else, with the
/// instrumented library alone in the plain engine (`asan: skipped (WHY)`).
fn run_asan(tally: &mut Tally) -> Result<(), String> {
    let engine = asan_godot();
    let (before_passed, before_failed) = (tally.passed, tally.failed);
    for setting in [Setting::default_paths(), Setting::safe_mode()] {
        match &engine {
            Ok(engine) => {
                let mut args = vec![format!("--engine={}", engine.display())];
                args.extend(CHECKED_SUITES.iter().map(|s| s.to_string()));
                let args: Vec<&str> = args.iter().map(String::as_str).collect();
                run_checked(Checker::Asan, &setting, &args, tally)?;
            }
            Err(_) => {
                let setting = Setting {
                    label: format!("library only, {}", setting.label),
                    ..setting
                };
                run_checked(Checker::Asan, &setting, &CHECKED_SUITES, tally)?;
            }
        }
    }
    tally.asan = match engine {
        Ok(_) => Ok((tally.passed - before_passed, tally.failed - before_failed)),
        Err(why) => {
            eprintln!("== asan: skipped ({why})");
            Err(why)
        }
    };
    Ok(())
}

/// Runs `cmd` (a script that runs the suites and ends with the runner's `N passed, N
/// failed`), adds its counts to `tally` and prints them as `LABEL: N passed, N failed`,
/// with its wall time.
fn run_counted(cmd: &mut Command, label: &str, tally: &mut Tally) -> Result<(), String> {
    let started = Instant::now();
    let (ok, lines) = run_echoing(cmd)?;
    let seconds = started.elapsed().as_secs_f64();
    let (passed, mut failed) = counts(&lines, " passed, ");
    if !ok && failed == 0 {
        failed = 1;
    }
    tally.add(passed, failed);
    let (agreed, disagreed) = marked_counts(&lines, HISTORY_MARKER, " agreed", " disagreed");
    tally.history.0 += agreed;
    tally.history.1 += disagreed;
    let line = format!("{label}: {passed} passed, {failed} failed");
    eprintln!("== {label} took {seconds:.1} s");
    println!("{line}");
    tally.settings.push(line);
    Ok(())
}

/// `cargo xtask e2e`: the end-to-end step of `test`, alone.
fn e2e_alone() -> Result<(), String> {
    let ok = e2e::run(&project_dir(), &godot()?, cargo())?;
    ok.then_some(())
        .ok_or_else(|| "the end-to-end test failed".into())
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
    // The crate's tokio codec, behind its feature (its tests and its lints).
    let tokio = [
        "-p",
        "godot-variant-codec",
        "--release",
        "--features",
        "tokio",
    ];
    for target in ["--lib", "--doc"] {
        let (ok, lines) = run_echoing(cargo().args(["test", target]).args(tokio).arg("codec"))?;
        let (passed, failed) = counts(&lines, "test result:");
        tally.add(passed, failed);
        if !ok && failed == 0 {
            tally.step("cargo test --features tokio (build)", false);
        }
    }
    let (clippy_ok, _) = run_echoing(
        cargo()
            .args(["clippy", "--all-targets", "--quiet"])
            .args(tokio)
            .args(["--", "-D", "warnings"]),
    )?;
    tally.step("cargo clippy --features tokio -D warnings", clippy_ok);

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
    let godot3_ok = godot3::up_to_date(&dir).unwrap_or_else(|e| {
        eprintln!("Godot 3 corpora: {e}");
        false
    });
    tally.step(
        "Godot 3 corpora match the live Godot 3.6.2 and 3.2.3 engines (and the fixtures)",
        godot3_ok,
    );
    let suite_ok = conformance::up_to_date(&dir).unwrap_or_else(|e| {
        eprintln!("conformance: {e}");
        false
    });
    tally.step(
        "the conformance suite is the golden vectors' (up to date)",
        suite_ok,
    );

    let e2e_ok = e2e::run(&dir, &godot, cargo()).unwrap_or_else(|e| {
        eprintln!("e2e: {e}");
        false
    });
    tally.step(
        "end-to-end: Rust server and Godot client, 1000 messages each way over TCP and UDP",
        e2e_ok,
    );
    let text_ok = text_corpus::run(&dir, &godot, cargo()).unwrap_or_else(|e| {
        eprintln!("text corpus: {e}");
        false
    });
    tally.step(
        "godot-variant inspect prints var_to_str's text for the engine's store_var file",
        text_ok,
    );

    match build_addon() {
        Ok(()) => {
            run_parity_suite(&godot, &Setting::default_paths(), &[], &mut tally)?;
            let demo_ok = run_project_script(&godot, "res://demo/demo.gd")?;
            tally.step("demo: codec and engine save games agree", demo_ok);
            run_parity_suite(&godot, &Setting::safe_mode(), &[], &mut tally)?;
            for probe in PROBES {
                let setting = Setting::failed_probe(probe);
                run_parity_suite(&godot, &setting, &PROBE_RUN_SUITES, &mut tally)?;
                let setting = Setting::wrong_layout(probe);
                run_parity_suite(&godot, &setting, &["--suite=engine_layout"], &mut tally)?;
            }
            run_parity_suite(&godot, &Setting::release_template(), &[], &mut tally)?;
            run_asan(&mut tally)?;
            let setting = Setting::default_paths();
            run_checked(Checker::Memcheck, &setting, &CHECKED_SUITES, &mut tally)?;
        }
        Err(e) => {
            eprintln!("{e}");
            tally.step("build the addon", false);
        }
    }

    if !tally.settings.is_empty() {
        println!("\nGodot parity suite, by setting:");
        for line in &tally.settings {
            println!("{line}");
        }
        let (agreed, disagreed) = tally.history;
        println!("history: {agreed} passed, {disagreed} failed");
        match &tally.asan {
            Ok((passed, failed)) => println!("asan: {passed} passed, {failed} failed"),
            Err(why) => println!("asan: skipped ({why})"),
        }
    }
    println!("{} passed, {} failed", tally.passed, tally.failed);
    if tally.failed == 0 {
        Ok(())
    } else {
        Err(format!("{} failed", tally.failed))
    }
}
