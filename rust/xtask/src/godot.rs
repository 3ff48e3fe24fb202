//! The Godot engines xtask runs and what it runs in them: provisioning, the addon's build,
//! importing the bundled project, running its scripts (the demo, the golden-vector
//! generator).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::process::{project_dir, run_echoing};

/// A Godot built from source for one purpose (`asan`, `double`; see
/// scripts/provision-engine-build.sh), or why there is none: it takes an hour or more to
/// build, so `test` only uses it when a user or an earlier run has built it.
pub fn engine_build(variant: &str) -> Result<PathBuf, String> {
    let script = project_dir().join("scripts/provision-engine-build.sh");
    let out = Command::new("bash")
        .arg(&script)
        .args([variant, "--check"])
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

/// The Godot binary: `$GODOT`, or the cached Debian build, provisioned on first use.
pub fn godot() -> Result<PathBuf, String> {
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

/// Builds the GDExtension into the addon's `bin/` (the addon's own build script).
pub fn build_addon() -> Result<(), String> {
    build_addon_with(&[])
}

/// Runs the addon's own build script with `args` (`--double`: the double-precision library).
pub fn build_addon_with(args: &[&str]) -> Result<(), String> {
    let script = project_dir().join("addons/fast_variant_codec/build.sh");
    let ok = Command::new("bash")
        .arg(&script)
        .args(args)
        .status()
        .map_err(|e| format!("cannot run {}: {e}", script.display()))?
        .success();
    ok.then_some(())
        .ok_or_else(|| "building the addon failed".into())
}

/// Imports the bundled project, which registers the extension (`.godot/extension_list.cfg`).
/// Godot 4.6.3 may abort at the very end of a fresh project's first import, after writing
/// its files; a second import then succeeds.
pub fn import_project(godot: &Path) -> Result<(), String> {
    import_project_at(godot, &project_dir().join("godot_project"))
}

/// Imports the Godot project in `project` (as `import_project`).
pub fn import_project_at(godot: &Path, project: &Path) -> Result<(), String> {
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
pub fn run_project_script(godot: &Path, script: &str) -> Result<bool, String> {
    import_project(godot)?;
    let mut cmd = Command::new(godot);
    cmd.args(["--headless", "--path"])
        .arg(project_dir().join("godot_project"))
        .args(["--script", script]);
    Ok(run_echoing(&mut cmd)?.0)
}

/// `cargo xtask demo`: the bundled project's demo, headless.
pub fn demo() -> Result<(), String> {
    let godot = godot()?;
    build_addon()?;
    let ok = run_project_script(&godot, "res://demo/demo.gd")?;
    ok.then_some(()).ok_or_else(|| "the demo failed".into())
}

/// Runs the generator against the live engine, writing `out`.
pub fn regenerate_golden(out: &Path) -> Result<(), String> {
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
