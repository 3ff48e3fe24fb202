//! The Godot parity suite (godot_project/run_tests.sh) in each setting `test` runs it in,
//! and under the memory checkers (AddressSanitizer, Valgrind's Memcheck).

use std::path::Path;
use std::process::Command;

use crate::godot::{build_addon_with, engine_build, run_project_script};
use crate::process::project_dir;
use crate::setting::Setting;
use crate::tally::{run_counted, Tally};

/// The binding's engine-layout probes; the suite runs once with each failed alone, so that
/// each fallback runs by itself, and once with each run against a wrong layout, which the
/// report must show it rejected.
const PROBES: [&str; 6] = crate::switch_names::PROBE_NAMES;
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
/// default setting and in safe mode; Valgrind's Memcheck (the whole process, far
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
/// What the runs through the GDScript fallback test: its own suite, then the curated
/// parity, streams and batches, and values-with-history suites through it, with as many
/// values with a history as under the checkers (each run about 12 s, the one in the
/// release template about 20 s with the export it needs).
const FALLBACK_SUITES: [&str; 4] = [
    "--suite=fallback",
    "--suite=parity_curated",
    "--suite=streams_batches",
    "--suite=values_with_history",
];

/// The parity suite in every setting, in this order: the default, the demo, safe mode,
/// each probe failed alone and against a wrong layout, the release template, through the
/// GDScript fallback (with and without the library), in the double-precision engine, then
/// the checked suites under AddressSanitizer and under Memcheck.
pub fn every_setting(godot: &Path, tally: &mut Tally) -> Result<(), String> {
    run_parity_suite(godot, &Setting::default_paths(), &[], tally)?;
    let demo_ok = run_project_script(godot, "res://demo/demo.gd")?;
    tally.step("demo: codec and engine save games agree", demo_ok);
    run_parity_suite(godot, &Setting::safe_mode(), &[], tally)?;
    for probe in PROBES {
        let setting = Setting::failed_probe(probe);
        run_parity_suite(godot, &setting, &PROBE_RUN_SUITES, tally)?;
        let setting = Setting::wrong_layout(probe);
        run_parity_suite(godot, &setting, &["--suite=engine_layout"], tally)?;
    }
    run_parity_suite(godot, &Setting::release_template(), &[], tally)?;
    run_fallback(godot, tally)?;
    run_double(tally)?;
    run_asan(tally)?;
    let setting = Setting::default_paths();
    run_checked(Checker::Memcheck, &setting, &CHECKED_SUITES, tally)
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
    if setting.without_library {
        cmd.arg("--without-library");
    }
    cmd.args(args);
    setting.apply(&mut cmd);
    run_counted(&mut cmd, &setting.label, tally)
}

/// The suites through the GDScript fallback in each of its settings (see
/// [`Setting::fallback`]), counted in the tally and apart, for `fallback: N passed, N
/// failed`.
fn run_fallback(godot: &Path, tally: &mut Tally) -> Result<(), String> {
    let (before_passed, before_failed) = (tally.passed, tally.failed);
    for (library, release_template) in [(true, false), (false, false), (false, true)] {
        let mut setting = Setting::fallback(library, release_template);
        let counts = CHECKED_COUNTS.iter().map(|&(k, v)| (k, v.to_owned()));
        setting.env.extend(counts);
        run_parity_suite(godot, &setting, &FALLBACK_SUITES, tally)?;
    }
    tally.fallback = (tally.passed - before_passed, tally.failed - before_failed);
    Ok(())
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

/// The parity suite in the engine built with `precision=double`, in default and safe mode,
/// with the library built for it (`build.sh --double`), when there is such an engine
/// (`double precision: N passed, N failed`); else `double precision: skipped (WHY)`.
/// Fewer values with a history than in the other settings ([`CHECKED_COUNTS`]): the
/// history suite's rules do not depend on the precision.
fn run_double(tally: &mut Tally) -> Result<(), String> {
    let engine = match engine_build("double") {
        Ok(engine) => engine,
        Err(why) => {
            eprintln!("== double precision: skipped ({why})");
            tally.double = Err(why);
            return Ok(());
        }
    };
    let (before_passed, before_failed) = (tally.passed, tally.failed);
    let built = build_addon_with(&["--double"]);
    if let Err(e) = &built {
        eprintln!("{e}");
    }
    tally.step("build the double-precision addon", built.is_ok());
    if built.is_ok() {
        for setting in [Setting::default_paths(), Setting::safe_mode()] {
            let setting = Setting {
                label: format!("double precision, {}", setting.label),
                ..setting
            };
            let mut cmd = Command::new("bash");
            cmd.arg(project_dir().join("godot_project/run_tests.sh"))
                .env("GODOT", &engine);
            setting.apply(&mut cmd).envs(CHECKED_COUNTS);
            run_counted(&mut cmd, &setting.label, tally)?;
        }
    }
    tally.double = Ok((tally.passed - before_passed, tally.failed - before_failed));
    Ok(())
}

/// The checked suites under AddressSanitizer in default and safe mode: in the engine built
/// with it when there is one (`asan: N passed, N failed` at the end), else, with the
/// instrumented library alone in the plain engine (`asan: skipped (WHY)`).
fn run_asan(tally: &mut Tally) -> Result<(), String> {
    let engine = engine_build("asan");
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
