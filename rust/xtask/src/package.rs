//! `cargo xtask package [--check]`: the addon as the Godot Asset Library takes it, a zip
//! with release libraries for linux.x86_64, linux.arm64 and windows.x86_64, and (with
//! `--check`) the checks of each platform that this machine can run. docs/PLATFORMS.md
//! tells how each is built and checked, and what is not.
//!
//! The cross builds use Debian's cross compilers and rust-src (scripts/provision-cross.sh
//! puts them in .cache/cross) with `-Zbuild-std`, in their own target directory
//! (`target/cross`), so that they never invalidate the normal release build.

mod checks;
mod notices;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use serde_json::Value;

use crate::process::{project_dir, run_echoing};

/// The binding crate: its version names the zip.
const CRATE: &str = "fast-variant-codec";
/// The addon's folder, in a project and in the zip.
const ADDON: &str = "addons/fast_variant_codec";
const GDEXTENSION: &str = "fast_variant_codec.gdextension";
/// The target cargo builds for without `--target` (the package is built on it).
const HOST: &str = "x86_64-unknown-linux-gnu";

const USAGE: &str = "usage: cargo xtask package [--check]";

/// A platform the package ships a library for.
pub(crate) struct Platform {
    /// Godot's operating system and architecture: the .gdextension's keys are
    /// `OS.debug.ARCH` and `OS.release.ARCH`.
    os: &'static str,
    arch: &'static str,
    /// Rust's target; `None` for the native build.
    triple: Option<&'static str>,
    /// The prefix of its cross toolchain's tools (`x86_64-w64-mingw32`); `None`: the host's.
    tools: Option<&'static str>,
    /// The library cargo writes.
    built: &'static str,
    /// Its name in the addon's `bin/`.
    file: &'static str,
}

pub(crate) const LINUX_X86_64: Platform = Platform {
    os: "linux",
    arch: "x86_64",
    triple: None,
    tools: None,
    built: "libfast_variant_codec.so",
    file: "libfast_variant_codec.linux.x86_64.so",
};
pub(crate) const LINUX_ARM64: Platform = Platform {
    os: "linux",
    arch: "arm64",
    triple: Some("aarch64-unknown-linux-gnu"),
    tools: Some("aarch64-linux-gnu"),
    built: "libfast_variant_codec.so",
    file: "libfast_variant_codec.linux.arm64.so",
};
pub(crate) const WINDOWS_X86_64: Platform = Platform {
    os: "windows",
    arch: "x86_64",
    triple: Some("x86_64-pc-windows-gnu"),
    tools: Some("x86_64-w64-mingw32"),
    built: "fast_variant_codec.dll",
    file: "fast_variant_codec.windows.x86_64.dll",
};
pub(crate) const PLATFORMS: [&Platform; 3] = [&LINUX_X86_64, &LINUX_ARM64, &WINDOWS_X86_64];

impl Platform {
    pub(crate) fn name(&self) -> String {
        format!("{}.{}", self.os, self.arch)
    }

    fn triple(&self) -> &'static str {
        self.triple.unwrap_or(HOST)
    }

    /// The .gdextension keys naming its library: debug and release.
    fn keys(&self) -> [String; 2] {
        ["debug", "release"].map(|build| format!("{}.{build}.{}", self.os, self.arch))
    }

    /// A tool of its toolchain (`objdump`, `strip`): the cross one in `cross/bin`, or the
    /// host's.
    fn tool(&self, cross: &Path, name: &str) -> PathBuf {
        match self.tools {
            Some(prefix) => cross.join("bin").join(format!("{prefix}-{name}")),
            None => PathBuf::from(name),
        }
    }
}

/// One platform's library: as built, and stripped in the stage.
pub(crate) struct Built {
    platform: &'static Platform,
    library: PathBuf,
    staged: PathBuf,
    seconds: f64,
}

/// What `package` made, for the checks.
pub(crate) struct Package {
    version: String,
    /// .cache/cross (scripts/provision-cross.sh toolchains).
    cross: PathBuf,
    /// target/package: the zip, its stage and the checks' projects.
    dir: PathBuf,
    zip: PathBuf,
    built: Vec<Built>,
}

impl Package {
    fn built(&self, platform: &Platform) -> &Built {
        self.built
            .iter()
            .find(|b| b.platform.file == platform.file)
            .expect("every platform is built")
    }
}

pub(crate) fn package(args: &[String]) -> Result<(), String> {
    let check = match args {
        [] => false,
        [flag] if flag == "--check" => true,
        _ => return Err(USAGE.into()),
    };
    if !(cfg!(target_os = "linux") && cfg!(target_arch = "x86_64")) {
        return Err(
            "the package is built on Linux x86_64 (Debian), which the cross toolchains run on"
                .into(),
        );
    }
    let started = Instant::now();
    let meta = cargo_metadata(&project_dir().join("Cargo.toml"), None)?;
    let version = crate_version(&meta)?;
    let target_dir = PathBuf::from(
        meta["target_directory"]
            .as_str()
            .ok_or("no target_directory")?,
    );
    let cross = provision("toolchains")?;

    let mut built = Vec::new();
    for platform in PLATFORMS {
        built.push(build(platform, &cross, &target_dir)?);
    }

    let dir = target_dir.join("package");
    let stage = dir.join("stage");
    let _ = fs::remove_dir_all(&stage);
    let addon = stage.join(ADDON);
    fs::create_dir_all(addon.join("bin")).map_err(|e| format!("{}: {e}", addon.display()))?;
    for b in &mut built {
        b.staged = addon.join("bin").join(b.platform.file);
        strip(b, &cross)?;
    }
    let repo = project_dir();
    let gdextension = repo.join(ADDON).join(GDEXTENSION);
    check_gdextension(&gdextension)?;
    copy(&gdextension, &addon.join(GDEXTENSION))?;
    copy(
        &repo.join(ADDON).join("README.md"),
        &addon.join("README.md"),
    )?;
    copy(&repo.join("LICENSE"), &addon.join("LICENSE"))?;
    let std_library = cross.join("sysroot/lib/rustlib/src/rust/library");
    let text = notices::third_party_notices(&meta, &std_library)?;
    write(&addon.join("THIRD_PARTY_NOTICES.md"), &text)?;

    let zip = dir.join(format!("fast_variant_codec-{version}.zip"));
    zip_tool(&["create", &path_str(&stage), &path_str(&zip)])?;
    let entries = zip_entries(&zip)?;
    let expected = expected_entries();
    if entries != expected {
        return Err(format!(
            "{} holds {entries:?}, not the Asset Library layout {expected:?}",
            zip.display()
        ));
    }

    print_summary(&version, &zip, &built, entries.len(), started);

    let package = Package {
        version,
        cross,
        dir,
        zip,
        built,
    };
    if check {
        checks::run(&package)
    } else {
        Ok(())
    }
}

/// The zip, each platform's build time and library sizes, and the whole run's time.
fn print_summary(version: &str, zip: &Path, built: &[Built], entries: usize, started: Instant) {
    println!("\nfast_variant_codec {version}: {}", zip.display());
    println!("| platform | build | library | stripped |\n| --- | --- | --- | --- |");
    for b in built {
        println!(
            "| {} | {:.0} s | {} | {} |",
            b.platform.name(),
            b.seconds,
            size_text(&b.library),
            size_text(&b.staged)
        );
    }
    println!("zip: {} ({entries} entries)", size_text(zip));
    println!("packaged in {:.0} s", started.elapsed().as_secs_f64());
}

/// The zip's entries, sorted: the addon folder at its root, as the Asset Library wants it
/// (Godot's installer keeps the paths; its "ignore asset root" option is off by default).
fn expected_entries() -> Vec<String> {
    let mut entries = vec![
        "addons/".to_owned(),
        format!("{ADDON}/"),
        format!("{ADDON}/bin/"),
        format!("{ADDON}/{GDEXTENSION}"),
        format!("{ADDON}/README.md"),
        format!("{ADDON}/LICENSE"),
        format!("{ADDON}/THIRD_PARTY_NOTICES.md"),
    ];
    entries.extend(PLATFORMS.iter().map(|p| format!("{ADDON}/bin/{}", p.file)));
    entries.sort();
    entries
}

/// `cargo metadata` of the workspace of `manifest` with `features` enabled (the standard
/// library's workspace needs RUSTC_BOOTSTRAP: its manifest uses unstable cargo features).
fn cargo_metadata(manifest: &Path, features: Option<&str>) -> Result<Value, String> {
    let mut cmd = Command::new(cargo_program());
    cmd.args(["metadata", "--format-version", "1", "--manifest-path"])
        .arg(manifest)
        .env("RUSTC_BOOTSTRAP", "1");
    if let Some(features) = features {
        cmd.args(["--features", features]);
    }
    let what = format!("cargo metadata --manifest-path {}", manifest.display());
    let json = stdout_of(&mut cmd, &what)?;
    serde_json::from_str(&json).map_err(|e| format!("{what}: {e}"))
}

/// Runs `cmd`, its errors shown as they come, and returns what it printed; an error naming
/// `what` when it fails.
fn stdout_of(cmd: &mut Command, what: &str) -> Result<String, String> {
    let out = cmd
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run {what}: {e}"))?;
    if !out.status.success() {
        return Err(format!("{what} failed"));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

fn crate_version(meta: &Value) -> Result<String, String> {
    meta["packages"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|p| p["name"] == CRATE && p["source"].is_null())
        .and_then(|p| p["version"].as_str())
        .map(str::to_owned)
        .ok_or_else(|| format!("no {CRATE} in the workspace"))
}

fn cargo_program() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".into())
}

/// `program` at the lowest priority: the machine is shared (2 cores, benchmarks).
fn niced(program: impl AsRef<std::ffi::OsStr>) -> Command {
    let mut cmd = Command::new("nice");
    cmd.args(["-n", "19"]).arg(program);
    cmd
}

/// Runs scripts/provision-cross.sh `what`, which prints the path provisioned.
fn provision(what: &str) -> Result<PathBuf, String> {
    let script = project_dir().join("scripts/provision-cross.sh");
    let command = format!("{} {what}", script.display());
    let out = stdout_of(Command::new("bash").arg(&script).arg(what), &command)?;
    Ok(PathBuf::from(out.trim()))
}

/// Builds the release library of `platform`: natively (cargo's own target directory, the
/// build build.sh and the tests use), or with -Zbuild-std and the cross toolchain into
/// `target/cross`.
fn build(platform: &'static Platform, cross: &Path, target_dir: &Path) -> Result<Built, String> {
    let mut cmd = niced(cargo_program());
    cmd.current_dir(project_dir())
        .args(["build", "--release", "-p", CRATE]);
    let library = match platform.triple {
        None => target_dir.join("release").join(platform.built),
        Some(triple) => {
            let cross_target = target_dir.join("cross");
            let env_triple = triple.replace('-', "_");
            let path = std::env::var_os("PATH").unwrap_or_default();
            let mut paths = vec![cross.join("bin")];
            paths.extend(std::env::split_paths(&path));
            cmd.args(["--target", triple, "-Zbuild-std"])
                // The toolchain's rustc with the standard library's source (provision-cross.sh).
                .env("RUSTC", cross.join("rustc"))
                // -Zbuild-std on a stable toolchain.
                .env("RUSTC_BOOTSTRAP", "1")
                .env("CARGO_TARGET_DIR", &cross_target)
                // rustc runs the toolchain's dlltool by name, and dlltool its assembler.
                .env(
                    "PATH",
                    std::env::join_paths(paths).map_err(|e| e.to_string())?,
                )
                .env(
                    format!("CARGO_TARGET_{}_LINKER", env_triple.to_uppercase()),
                    platform.tool(cross, "gcc"),
                )
                .env(format!("CC_{env_triple}"), platform.tool(cross, "gcc"))
                .env(format!("AR_{env_triple}"), platform.tool(cross, "ar"));
            cross_target
                .join(triple)
                .join("release")
                .join(platform.built)
        }
    };
    eprintln!("== building {} ({})", platform.name(), platform.triple());
    let started = Instant::now();
    let (ok, _) = run_echoing(&mut cmd)?;
    let seconds = started.elapsed().as_secs_f64();
    if !ok {
        return Err(format!("building {} failed", platform.name()));
    }
    eprintln!("== {} built in {seconds:.0} s", platform.name());
    Ok(Built {
        platform,
        library,
        staged: PathBuf::new(),
        seconds,
    })
}

/// Copies the library into the stage without symbols and debug information (the dynamic
/// symbols and the DLL's export table stay: the checks read them from the stripped file).
fn strip(b: &Built, cross: &Path) -> Result<(), String> {
    let tool = b.platform.tool(cross, "strip");
    let ok = Command::new(&tool)
        .arg("--strip-all")
        .arg("-o")
        .arg(&b.staged)
        .arg(&b.library)
        .status()
        .map_err(|e| format!("cannot run {}: {e}", tool.display()))?
        .success();
    ok.then_some(())
        .ok_or_else(|| format!("stripping {} failed", b.library.display()))
}

/// The `[libraries]` entries of a .gdextension: (key, path).
fn gdextension_libraries(text: &str) -> Vec<(String, String)> {
    let mut section = "";
    let mut entries = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line;
        } else if section == "[libraries]" && !line.starts_with(';') {
            if let Some((key, value)) = line.split_once('=') {
                entries.push((
                    key.trim().to_owned(),
                    value.trim().trim_matches('"').to_owned(),
                ));
            }
        }
    }
    entries
}

/// The repository's .gdextension names exactly the packaged libraries: each platform's
/// debug and release keys, both the release library in `bin/`. The entries of the `double`
/// feature tag name the double-precision library, which `build.sh --double` builds where
/// its engine is cached and the package does not hold yet (docs/PLATFORMS.md).
fn check_gdextension(file: &Path) -> Result<(), String> {
    let text = fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let mut found = gdextension_libraries(&text);
    found.retain(|(key, _)| !key.ends_with(".double"));
    found.sort();
    let mut expected: Vec<(String, String)> = PLATFORMS
        .iter()
        .flat_map(|p| p.keys().map(|key| (key, format!("./bin/{}", p.file))))
        .collect();
    expected.sort();
    (found == expected).then_some(()).ok_or_else(|| {
        format!(
            "{} lists {found:?}; the package needs exactly {expected:?}",
            file.display()
        )
    })
}

fn copy(from: &Path, to: &Path) -> Result<(), String> {
    fs::copy(from, to)
        .map(drop)
        .map_err(|e| format!("copying {} to {}: {e}", from.display(), to.display()))
}

fn write(file: &Path, text: &str) -> Result<(), String> {
    fs::write(file, text).map_err(|e| format!("{}: {e}", file.display()))
}

fn path_str(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// scripts/addon-zip.py (Python's zipfile: a fresh machine has python3, not zip).
fn zip_tool(args: &[&str]) -> Result<String, String> {
    let script = project_dir().join("scripts/addon-zip.py");
    let what = format!("python3 {} {}", script.display(), args.join(" "));
    stdout_of(Command::new("python3").arg(&script).args(args), &what)
}

fn zip_entries(zip: &Path) -> Result<Vec<String>, String> {
    let mut entries: Vec<String> = zip_tool(&["list", &path_str(zip)])?
        .lines()
        .map(str::to_owned)
        .collect();
    entries.sort();
    Ok(entries)
}

fn size_text(file: &Path) -> String {
    match fs::metadata(file) {
        Ok(m) => format!("{:.1} MB", m.len() as f64 / 1e6),
        Err(_) => "missing".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_repository_gdextension_names_every_packaged_library() {
        let file = project_dir().join(ADDON).join(GDEXTENSION);
        check_gdextension(&file).unwrap();
    }

    #[test]
    fn a_gdextension_without_a_platform_is_refused() {
        let dir = std::env::temp_dir().join(format!("fvc-gdextension-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let file = dir.join(GDEXTENSION);
        let text = fs::read_to_string(project_dir().join(ADDON).join(GDEXTENSION)).unwrap();
        let without_windows: String = text
            .lines()
            .filter(|l| !l.starts_with("windows.release"))
            .map(|l| format!("{l}\n"))
            .collect();
        fs::write(&file, without_windows).unwrap();
        let refused = check_gdextension(&file);
        fs::remove_dir_all(&dir).unwrap();
        assert!(refused.unwrap_err().contains("windows.release.x86_64"));
    }

    #[test]
    fn gdextension_libraries_reads_only_the_libraries_section() {
        let text = "[configuration]\nentry_symbol = \"x\"\n[libraries]\n; a comment\nlinux.debug.x86_64 = \"./bin/a.so\"\n";
        assert_eq!(
            gdextension_libraries(text),
            [("linux.debug.x86_64".to_owned(), "./bin/a.so".to_owned())]
        );
    }
}
