//! The checks that run the packaged libraries in Godot: the demo and the parity suites in
//! fresh projects of the zip (linux.x86_64, linux.x86_64.double, linux.arm64 under qemu).

use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use super::output;
use crate::godot::{engine_build, import_project_at};
use crate::package::{
    niced, path_str, provision, zip_tool, Package, Precision, ADDON, DOUBLE_TAG, LINUX_ARM64,
    LINUX_X86_64,
};
use crate::process::{project_dir, run_echoing};
use crate::setting::Setting;
use crate::tally::{counts, Tally};

/// The values of the random parity run in the arm64 Godot (FVC_RANDOM_VALUES): about 20 s
/// under emulation; 1000 and more generate every type the suite's coverage check asks for.
const ARM64_RANDOM_VALUES: &str = "2000";
/// Longest a Godot run under qemu-user may take (seconds; `timeout`).
const EMULATED_RUN_LIMIT: &str = "1200";

/// A fresh Godot project in `dir` with the zip unpacked into it and `files` of the bundled
/// project copied (folders too), imported by the editor `godot`, which registers the
/// extension from the zip's .gdextension.
fn fresh_project(
    package: &Package,
    godot: &Path,
    dir: &Path,
    files: &[&str],
    project_godot: &str,
) -> Result<(), String> {
    let _ = fs::remove_dir_all(dir);
    fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    fs::write(dir.join("project.godot"), project_godot).map_err(|e| e.to_string())?;
    let bundled = project_dir().join("godot_project");
    for file in files {
        copy_tree(&bundled.join(file), &dir.join(file))?;
    }
    zip_tool(&["extract", &path_str(&package.zip), &path_str(dir)])?;
    import_project_at(godot, dir)?;
    let extensions = fs::read_to_string(dir.join(".godot/extension_list.cfg")).unwrap_or_default();
    if !extensions.contains(&format!("res://{ADDON}/")) {
        return Err(format!(
            "{}: the import registered no extension from the zip ({extensions:?})",
            dir.display()
        ));
    }
    Ok(())
}

fn copy_tree(from: &Path, to: &Path) -> Result<(), String> {
    if from.is_dir() {
        fs::create_dir_all(to).map_err(|e| format!("{}: {e}", to.display()))?;
        for entry in fs::read_dir(from).map_err(|e| format!("{}: {e}", from.display()))? {
            let entry = entry.map_err(|e| e.to_string())?;
            copy_tree(&entry.path(), &to.join(entry.file_name()))?;
        }
        Ok(())
    } else {
        fs::copy(from, to)
            .map(drop)
            .map_err(|e| format!("copying {}: {e}", from.display()))
    }
}

/// The demo (a save game written and read by the codec and by the engine, compared) in a
/// fresh project that has only the unpacked zip and the demo script.
pub(super) fn check_demo_project(
    package: &Package,
    godot: &Path,
    tally: &mut Tally,
) -> Result<(), String> {
    let dir = package.dir.join("check/demo-project");
    let project = "; A fresh project: the addon from the zip, and the demo.\nconfig_version=5\n\n\
                   [application]\n\nconfig/name=\"FastVariantCodec package demo\"\n";
    fresh_project(package, godot, &dir, &["demo"], project)?;
    let mut cmd = Command::new(godot);
    cmd.args(["--headless", "--path"])
        .arg(&dir)
        .args(["--script", "res://demo/demo.gd"]);
    Setting::default_paths().apply(&mut cmd);
    let (ok, lines) = run_echoing(&mut cmd)?;
    tally.step(
        &format!(
            "{}: the demo runs in a fresh project with the unpacked zip",
            LINUX_X86_64.library(Precision::Single).name()
        ),
        ok && lines.iter().any(|l| l == "codec and engine agree"),
    );
    Ok(())
}

/// Runs the test runner of the project in `dir` with `godot` (a command: the editor, or the
/// arm64 one under qemu-user) and `args`; one step, passed when some tests ran and none
/// failed.
fn run_suites(
    godot: &[&std::ffi::OsStr],
    dir: &Path,
    args: &[&str],
    env: &[(&str, String)],
    what: &str,
    tally: &mut Tally,
) -> Result<(), String> {
    let mut cmd = niced("timeout");
    cmd.arg(EMULATED_RUN_LIMIT)
        .args(godot)
        .args(["--headless", "--path"])
        .arg(dir)
        .args(["--", "--run-tests"])
        .args(args);
    Setting::default_paths().apply(&mut cmd);
    cmd.envs(env.iter().map(|(k, v)| (k, v)));
    let started = Instant::now();
    let (ok, lines) = run_echoing(&mut cmd)?;
    let (passed, failed) = counts(&lines, " passed, ");
    println!(
        "{what}: {passed} passed, {failed} failed in {:.0} s",
        started.elapsed().as_secs_f64()
    );
    tally.step(what, ok && passed > 0 && failed == 0);
    Ok(())
}

/// A fresh project in `dir` of the unpacked zip and the bundled project's tests (its
/// settings, test runner, suites and fixtures), imported by `godot`.
fn parity_project(package: &Package, godot: &Path, dir: &Path) -> Result<(), String> {
    let project = fs::read_to_string(project_dir().join("godot_project/project.godot"))
        .map_err(|e| e.to_string())?;
    fresh_project(
        package,
        godot,
        dir,
        &["test_runner", "tests", "fixtures"],
        &project,
    )
}

/// The curated parity suite in the double-precision Godot built here
/// (scripts/provision-engine-build.sh double), in a fresh project of the zip and the
/// bundled project's tests, imported by that engine: it takes the `.double` entries of
/// the .gdextension (a single-precision library would not initialize in it: gdext stops
/// on a precision that is not its own), so the packaged linux.x86_64.double library runs.
pub(super) fn check_double_project(package: &Package, tally: &mut Tally) -> Result<(), String> {
    let double = engine_build(DOUBLE_TAG)?;
    let dir = package.dir.join("check/double-project");
    parity_project(package, &double, &dir)?;
    let (_, version) = output(Command::new(&double).arg("--version"))?;
    println!(
        "double-precision Godot {} ({})",
        version.trim(),
        double.display()
    );
    run_suites(
        &[double.as_os_str()],
        &dir,
        &["--suite=parity_curated"],
        &[],
        &format!(
            "{}: curated parity suite in the double-precision Godot (packaged library)",
            LINUX_X86_64.library(Precision::Double).name()
        ),
        tally,
    )
}

/// The curated parity suite with the packaged linux.x86_64 library, and in Debian's arm64
/// Godot under qemu-user with the packaged linux.arm64 one, plus a bounded random parity
/// run there, in a project of the zip and the bundled project's tests. The editor here
/// imports it (20 times faster than under emulation; the import is the same on both).
pub(super) fn check_parity_projects(
    package: &Package,
    godot: &Path,
    tally: &mut Tally,
) -> Result<(), String> {
    let dir = package.dir.join("check/parity-project");
    parity_project(package, godot, &dir)?;

    let native = [godot.as_os_str()];
    run_suites(
        &native,
        &dir,
        &["--suite=parity_curated"],
        &[],
        &format!(
            "{}: curated parity suite (packaged library)",
            LINUX_X86_64.library(Precision::Single).name()
        ),
        tally,
    )?;

    let arm64 = provision("godot-arm64")?;
    let (_, version) = output(Command::new(&arm64).arg("--version"))?;
    println!(
        "{}: Debian's arm64 Godot {} under qemu-user",
        LINUX_ARM64.library(Precision::Single).name(),
        version.trim()
    );
    let emulated = [arm64.as_os_str()];
    run_suites(
        &emulated,
        &dir,
        &["--suite=parity_curated"],
        &[],
        &format!(
            "{}: curated parity suite in arm64 Godot (qemu-user)",
            LINUX_ARM64.library(Precision::Single).name()
        ),
        tally,
    )?;
    // A new seed each run (printed by the suite; FVC_SEED replays one), unless FVC_SEED is set.
    let seed = std::env::var("FVC_SEED").unwrap_or_else(|_| {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default();
        (now.as_secs() % 1_000_000_007).to_string()
    });
    let env = [
        ("FVC_SEED", seed),
        ("FVC_RANDOM_VALUES", ARM64_RANDOM_VALUES.to_owned()),
    ];
    run_suites(
        &emulated,
        &dir,
        &["--suite=parity_random", "match_the_engine"],
        &env,
        &format!(
            "{}: random parity ({ARM64_RANDOM_VALUES} values) in arm64 Godot (qemu-user)",
            LINUX_ARM64.library(Precision::Single).name()
        ),
        tally,
    )?;
    Ok(())
}
