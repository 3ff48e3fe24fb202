//! `cargo xtask package [--check]`: the addon as the Godot Asset Library takes it, a zip
//! with release libraries for linux.x86_64, linux.arm64, windows.x86_64 and macOS
//! (universal: arm64 and x86_64), each for single- and for double-precision engines, every
//! release file of the addon folder, and a SHA256SUMS beside it; with `--check`, the checks
//! of each library that this machine can run. docs/PLATFORMS.md tells how each is built and
//! checked, and what is not.
//!
//! The cross builds use -Zbuild-std with the standard library's source from Debian, in their
//! own target directories (`target/cross`, `target/cross-double`), so that they never
//! invalidate the normal release build nor each other: Debian's cross compilers for Linux
//! arm64 and Windows, Zig's linker (through cargo-zigbuild) for macOS, whose slices are
//! merged and signed by rcodesign (scripts/provision-cross.sh puts them all in .cache/cross).
//! The double-precision builds have the `double-precision` feature and the API description
//! of a double-precision engine, which build.sh dumps (`--double-api`).

mod build;
mod checks;
mod macho;
mod notices;

use build::{build, double_api, stage_library};

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use serde_json::Value;

use crate::process::project_dir;

/// The binding crate: its version names the zip.
const CRATE: &str = "fast-variant-codec";
/// The addon's folder, in a project and in the zip.
const ADDON: &str = "addons/fast_variant_codec";
const GDEXTENSION: &str = "fast_variant_codec.gdextension";
/// The files of the addon folder that are for building it from a checkout, not for a
/// release: the development build script and `bin/` (the release's libraries replace it).
const DEVELOPMENT_ONLY: [&str; 2] = ["build.sh", "bin/"];
/// The repository's files that the release carries in the addon folder.
const RELEASE_DOCUMENTS: [&str; 2] = ["LICENSE", "CHANGELOG.md"];
/// Written by the packaging (notices.rs).
const NOTICES: &str = "THIRD_PARTY_NOTICES.md";
/// Beside the zip: `sha256sum -c SHA256SUMS` checks it.
const SUMS: &str = "SHA256SUMS";
/// The target cargo builds for without `--target` (the package is built on it).
const HOST: &str = "x86_64-unknown-linux-gnu";
/// The binding's features for double-precision engines, as build.sh --double builds it.
const DOUBLE_FEATURES: [&str; 3] = ["--no-default-features", "--features", DOUBLE_FEATURE];
const DOUBLE_FEATURE: &str = "double-precision";
/// The symbol Godot calls (the .gdextension's `entry_symbol`), the one each library exports.
const ENTRY_SYMBOL: &str = "gdext_rust_init";

const USAGE: &str = "usage: cargo xtask package [--check]";

/// How a platform's library is built.
pub(crate) enum Toolchain {
    /// cargo's own build for this machine: in cargo's target directory (which the tests use),
    /// or for double precision `addons/fast_variant_codec/build.sh --double` (into
    /// `target/double`, as for development).
    Host,
    /// Debian's GNU cross toolchain, whose tools are named `PREFIX-gcc`, `PREFIX-objdump`...
    Gnu {
        triple: &'static str,
        prefix: &'static str,
    },
    /// Zig's linker through cargo-zigbuild, one Mach-O slice per entry, merged into one
    /// universal library and signed ad hoc by rcodesign.
    Apple { slices: &'static [AppleSlice] },
}

/// One architecture of the macOS library.
pub(crate) struct AppleSlice {
    triple: &'static str,
    /// Apple's and Godot's name of the architecture.
    arch: &'static str,
    /// The Mach-O CPU type.
    cpu_type: u32,
    /// The deployment target: Godot's own for the architecture (`-mmacosx-version-min` in
    /// the engine's platform/macos/detect.py, the same from 4.4 to 4.7), so that the library
    /// loads on every Mac the engine runs on.
    min_macos: (u32, u32),
}

/// A platform the package ships libraries for, one per precision.
pub(crate) struct Platform {
    /// Godot's operating system and architecture: the .gdextension's keys are
    /// `OS.debug.ARCH` and `OS.release.ARCH`, or `OS.debug` and `OS.release` for a library
    /// of every architecture (`arch` None: the macOS universal library).
    os: &'static str,
    arch: Option<&'static str>,
    toolchain: Toolchain,
    /// The library cargo writes.
    built: &'static str,
    /// The single-precision library's name in the addon's `bin/` (Library::file).
    file: &'static str,
}

/// The precision of the engines a library is for: Godot's `single` or `double` feature
/// tag (`real_t` a float or a double: engines built with `precision=double`). A library
/// serves one precision only (gdext refuses to load into the other).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Precision {
    Single,
    Double,
}

/// Each platform's libraries, in the order they are built and checked.
const PRECISIONS: [Precision; 2] = [Precision::Single, Precision::Double];

impl Precision {
    /// The feature tag that ends the double-precision library's .gdextension keys, name and
    /// file name. The single-precision one has the plain keys: Godot takes the entry whose
    /// tags all match with the most tags, so a double engine takes `….double`, and a single
    /// one, which has no `double` tag, the plain entry.
    fn tag(self) -> Option<&'static str> {
        match self {
            Precision::Single => None,
            Precision::Double => Some(DOUBLE_TAG),
        }
    }

    /// cargo's feature arguments of its build.
    fn cargo_features(self) -> &'static [&'static str] {
        match self {
            Precision::Single => &[],
            Precision::Double => &DOUBLE_FEATURES,
        }
    }

    /// The target directory of its cross builds (in cargo's): apart, so that the two
    /// precisions' features and build scripts never rebuild each other.
    fn cross_dir(self) -> &'static str {
        match self {
            Precision::Single => "cross",
            Precision::Double => "cross-double",
        }
    }
}

/// The feature tag of double-precision engines (core/os/os.cpp, OS::has_feature).
const DOUBLE_TAG: &str = "double";

/// One library of the package: a platform's, for one precision.
#[derive(Clone, Copy)]
pub(crate) struct Library {
    platform: &'static Platform,
    precision: Precision,
}

/// Every library of the package: each platform's for each precision, in the order they
/// are built and checked.
pub(crate) fn libraries() -> Vec<Library> {
    PLATFORMS
        .iter()
        .flat_map(|&platform| PRECISIONS.map(|precision| platform.library(precision)))
        .collect()
}

pub(crate) const LINUX_X86_64: Platform = Platform {
    os: "linux",
    arch: Some("x86_64"),
    toolchain: Toolchain::Host,
    built: "libfast_variant_codec.so",
    file: "libfast_variant_codec.linux.x86_64.so",
};
pub(crate) const LINUX_ARM64: Platform = Platform {
    os: "linux",
    arch: Some("arm64"),
    toolchain: Toolchain::Gnu {
        triple: "aarch64-unknown-linux-gnu",
        prefix: "aarch64-linux-gnu",
    },
    built: "libfast_variant_codec.so",
    file: "libfast_variant_codec.linux.arm64.so",
};
pub(crate) const WINDOWS_X86_64: Platform = Platform {
    os: "windows",
    arch: Some("x86_64"),
    toolchain: Toolchain::Gnu {
        triple: "x86_64-pc-windows-gnu",
        prefix: "x86_64-w64-mingw32",
    },
    built: "fast_variant_codec.dll",
    file: "fast_variant_codec.windows.x86_64.dll",
};
pub(crate) const MACOS: Platform = Platform {
    os: "macos",
    arch: None,
    toolchain: Toolchain::Apple {
        slices: &[
            AppleSlice {
                triple: "aarch64-apple-darwin",
                arch: "arm64",
                cpu_type: macho::CPU_TYPE_ARM64,
                min_macos: (11, 0),
            },
            AppleSlice {
                triple: "x86_64-apple-darwin",
                arch: "x86_64",
                cpu_type: macho::CPU_TYPE_X86_64,
                min_macos: (10, 13),
            },
        ],
    },
    built: "libfast_variant_codec.dylib",
    file: "libfast_variant_codec.macos.universal.dylib",
};
/// Every platform of the package, in the order they are built and checked.
pub(crate) const PLATFORMS: [&Platform; 4] = [&LINUX_X86_64, &LINUX_ARM64, &WINDOWS_X86_64, &MACOS];

impl Platform {
    /// Its library for `precision`.
    pub(crate) const fn library(&'static self, precision: Precision) -> Library {
        Library {
            platform: self,
            precision,
        }
    }

    /// The Rust targets its library is built for (one per slice of a universal library).
    fn triples(&self) -> Vec<&'static str> {
        match &self.toolchain {
            Toolchain::Host => vec![HOST],
            Toolchain::Gnu { triple, .. } => vec![triple],
            Toolchain::Apple { slices } => slices.iter().map(|s| s.triple).collect(),
        }
    }

    /// A tool of its GNU toolchain (`objdump`, `strip`): the cross one in `cross/bin`, or
    /// the host's.
    fn tool(&self, cross: &Path, name: &str) -> PathBuf {
        match self.toolchain {
            Toolchain::Gnu { prefix, .. } => cross.join("bin").join(format!("{prefix}-{name}")),
            _ => PathBuf::from(name),
        }
    }
}

impl Library {
    /// `linux.x86_64`, `linux.x86_64.double`, `macos.universal.double`...
    pub(crate) fn name(&self) -> String {
        let p = self.platform;
        format!(
            "{}.{}{}",
            p.os,
            p.arch.unwrap_or("universal"),
            self.suffix()
        )
    }

    /// `.double` for the double-precision library, else nothing.
    fn suffix(&self) -> String {
        self.precision
            .tag()
            .map(|t| format!(".{t}"))
            .unwrap_or_default()
    }

    /// Its name in the addon's `bin/`: the platform's, with the precision's tag before the
    /// extension (`libfast_variant_codec.macos.universal.double.dylib`).
    pub(crate) fn file(&self) -> String {
        let file = self.platform.file;
        match file.rsplit_once('.') {
            Some((stem, extension)) => format!("{stem}{}.{extension}", self.suffix()),
            None => format!("{file}{}", self.suffix()),
        }
    }

    /// The .gdextension keys naming it: debug and release.
    fn keys(&self) -> [String; 2] {
        let (p, tag) = (self.platform, self.suffix());
        ["debug", "release"].map(|build| match p.arch {
            Some(arch) => format!("{}.{build}.{arch}{tag}", p.os),
            None => format!("{}.{build}{tag}", p.os),
        })
    }
}

/// One library: as built, and stripped (or signed) in the stage.
pub(crate) struct Built {
    library: Library,
    /// The file the build wrote.
    file: PathBuf,
    staged: PathBuf,
    seconds: f64,
}

/// What the builds need besides the library's own toolchain.
struct Inputs {
    /// .cache/cross (scripts/provision-cross.sh toolchains).
    cross: PathBuf,
    /// cargo's target directory.
    target_dir: PathBuf,
    /// The double-precision engine's API description (build.sh --double-api).
    double_api: PathBuf,
}

/// What `package` made, for the checks.
pub(crate) struct Package {
    version: String,
    /// What the libraries were built with: the cross toolchains, the API description the
    /// double-precision ones were built from.
    inputs: Inputs,
    /// target/package: the zip, its stage and the checks' projects.
    dir: PathBuf,
    zip: PathBuf,
    /// The entries the zip must hold (expected_entries).
    expected: Vec<String>,
    built: Vec<Built>,
}

impl Package {
    fn built(&self, library: &Library) -> &Built {
        self.built
            .iter()
            .find(|b| b.library.file() == library.file())
            .expect("every library is built")
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
    // With the double-precision feature too: the notices look up the crates of every
    // platform's build in it, and cargo metadata lists only the crates its features reach.
    let meta = cargo_metadata(
        &project_dir().join("Cargo.toml"),
        Some(&format!("{CRATE}/{DOUBLE_FEATURE}")),
    )?;
    let version = crate_version(&meta)?;
    let target_dir = PathBuf::from(
        meta["target_directory"]
            .as_str()
            .ok_or("no target_directory")?,
    );
    let cross = provision("toolchains")?;
    if PLATFORMS
        .iter()
        .any(|p| matches!(p.toolchain, Toolchain::Apple { .. }))
    {
        provision("apple")?;
    }
    let inputs = Inputs {
        cross,
        double_api: double_api()?,
        target_dir,
    };

    let mut built = Vec::new();
    for library in libraries() {
        built.push(build(library, &inputs)?);
    }

    let dir = inputs.target_dir.join("package");
    let stage = dir.join("stage");
    let addon_files = stage_addon(&stage, &mut built, &inputs.cross, &meta)?;
    let (zip, expected, entries) = write_zip(&dir, &stage, &version, &addon_files)?;

    print_summary(&version, &zip, &built, entries, started);

    let package = Package {
        version,
        inputs,
        dir,
        zip,
        expected,
        built,
    };
    if check {
        checks::run(&package)
    } else {
        Ok(())
    }
}

/// Lays the addon out in `stage` as the zip holds it: each platform's library in `bin/`,
/// every release file of the addon folder, the release documents and the notices. Returns
/// the addon's release files.
fn stage_addon(
    stage: &Path,
    built: &mut [Built],
    cross: &Path,
    meta: &Value,
) -> Result<Vec<String>, String> {
    let _ = fs::remove_dir_all(stage);
    let addon = stage.join(ADDON);
    fs::create_dir_all(addon.join("bin")).map_err(|e| format!("{}: {e}", addon.display()))?;
    for b in built.iter_mut() {
        b.staged = addon.join("bin").join(b.library.file());
        stage_library(b, cross)?;
    }
    let repo = project_dir();
    check_gdextension(&repo.join(ADDON).join(GDEXTENSION))?;
    let addon_files = addon_release_files()?;
    for file in &addon_files {
        let to = addon.join(file);
        if let Some(folder) = to.parent() {
            fs::create_dir_all(folder).map_err(|e| format!("{}: {e}", folder.display()))?;
        }
        copy(&repo.join(ADDON).join(file), &to)?;
    }
    for file in RELEASE_DOCUMENTS {
        copy(&repo.join(file), &addon.join(file))?;
    }
    let std_library = cross.join("sysroot/lib/rustlib/src/rust/library");
    let text = notices::third_party_notices(meta, &std_library)?;
    write(&addon.join(NOTICES), &text)?;
    Ok(addon_files)
}

/// Zips `stage` into `dir`, checks the zip holds exactly the Asset Library layout and
/// writes `SHA256SUMS` beside it. Returns the zip, the entries it must hold and how many
/// it holds.
fn write_zip(
    dir: &Path,
    stage: &Path,
    version: &str,
    addon_files: &[String],
) -> Result<(PathBuf, Vec<String>, usize), String> {
    let zip_name = format!("fast_variant_codec-{version}.zip");
    let zip = dir.join(&zip_name);
    zip_tool(&["create", &path_str(stage), &path_str(&zip)])?;
    let entries = zip_entries(&zip)?;
    let expected = expected_entries(addon_files);
    if entries != expected {
        return Err(format!(
            "{} holds {entries:?}, not the Asset Library layout {expected:?}",
            zip.display()
        ));
    }
    let sums = stdout_of(
        Command::new("sha256sum").current_dir(dir).arg(&zip_name),
        "sha256sum",
    )?;
    write(&dir.join(SUMS), &sums)?;
    Ok((zip, expected, entries.len()))
}

/// The zip, each library's build time and sizes, and the whole run's time.
fn print_summary(version: &str, zip: &Path, built: &[Built], entries: usize, started: Instant) {
    println!("\nfast_variant_codec {version}: {}", zip.display());
    println!("| platform | build | library | stripped |\n| --- | --- | --- | --- |");
    for b in built {
        println!(
            "| {} | {:.0} s | {} | {} |",
            b.library.name(),
            b.seconds,
            size_text(&b.file),
            size_text(&b.staged)
        );
    }
    println!("zip: {} ({entries} entries)", size_text(zip));
    println!("packaged in {:.0} s", started.elapsed().as_secs_f64());
}

/// The addon folder's files that a release carries (relative to the folder): those in
/// git, less the ones for developing it (DEVELOPMENT_ONLY). A file added to the folder is
/// released without any change here.
fn addon_release_files() -> Result<Vec<String>, String> {
    let listed = stdout_of(
        Command::new("git")
            .current_dir(project_dir())
            .args(["ls-files", "-z", "--", ADDON]),
        "git ls-files (the addon's files)",
    )?;
    Ok(release_files(&listed))
}

/// The release files among `git ls-files -z` output of the addon folder.
fn release_files(listed: &str) -> Vec<String> {
    let mut files: Vec<String> = listed
        .split('\0')
        .filter_map(|path| path.strip_prefix(ADDON)?.strip_prefix('/'))
        .filter(|file| {
            !DEVELOPMENT_ONLY
                .iter()
                .any(|dev| *file == *dev || (dev.ends_with('/') && file.starts_with(dev)))
        })
        .map(str::to_owned)
        .collect();
    files.sort();
    files
}

/// The zip's entries, sorted: the addon folder at its root, as the Asset Library wants it
/// (Godot's installer keeps the paths; its "ignore asset root" option is off by default),
/// with its release files, the repository's documents, the notices and each library, and
/// an entry for every folder.
fn expected_entries(addon_files: &[String]) -> Vec<String> {
    let mut files: Vec<String> = addon_files
        .iter()
        .map(String::as_str)
        .chain(RELEASE_DOCUMENTS)
        .chain([NOTICES])
        .map(|f| format!("{ADDON}/{f}"))
        .collect();
    files.extend(
        libraries()
            .iter()
            .map(|l| format!("{ADDON}/bin/{}", l.file())),
    );
    let mut entries = std::collections::BTreeSet::new();
    for file in &files {
        let mut folder = file.as_str();
        while let Some((parent, _)) = folder.rsplit_once('/') {
            entries.insert(format!("{parent}/"));
            folder = parent;
        }
    }
    entries.extend(files);
    entries.into_iter().collect()
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
    nice_at("19", program)
}

fn nice_at(niceness: &str, program: impl AsRef<std::ffi::OsStr>) -> Command {
    let mut cmd = Command::new("nice");
    cmd.args(["-n", niceness]).arg(program);
    cmd
}

/// Runs scripts/provision-cross.sh `what`, which prints the path provisioned.
fn provision(what: &str) -> Result<PathBuf, String> {
    printed_path("scripts/provision-cross.sh", what)
}

/// Runs the project's bash `script` with `arg`; the path it prints.
fn printed_path(script: &str, arg: &str) -> Result<PathBuf, String> {
    let script = project_dir().join(script);
    let command = format!("{} {arg}", script.display());
    let out = stdout_of(Command::new("bash").arg(&script).arg(arg), &command)?;
    Ok(PathBuf::from(out.trim()))
}

/// The tools provision-cross.sh `apple` puts in `.cache/cross`: cargo-zigbuild, Zig and
/// rcodesign.
fn apple_tool(cross: &Path, name: &str) -> PathBuf {
    match name {
        "zig" => cross.join("zig/ziglang/zig"),
        "cargo-zigbuild" => cross.join("zig/bin/cargo-zigbuild"),
        _ => cross.join("rcodesign/bin").join(name),
    }
}

/// The entries of one section (`[libraries]`, `[icons]`) of a .gdextension: (key, value).
fn gdextension_entries(text: &str, wanted: &str) -> Vec<(String, String)> {
    let mut section = "";
    let mut entries = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line;
        } else if section == wanted && !line.starts_with(';') {
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

/// The repository's .gdextension names exactly the packaged libraries: each library's
/// debug and release keys (`macos.debug` and `macos.release` for the universal library;
/// `linux.debug.x86_64.double`, `macos.debug.double` and their release twins for the
/// double-precision ones), both the release library in `bin/`.
fn check_gdextension(file: &Path) -> Result<(), String> {
    let text = fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let mut found = gdextension_entries(&text, "[libraries]");
    found.sort();
    let mut expected: Vec<(String, String)> = libraries()
        .iter()
        .flat_map(|l| l.keys().map(|key| (key, format!("./bin/{}", l.file()))))
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
    write_bytes(file, text.as_bytes())
}

fn write_bytes(file: &Path, bytes: &[u8]) -> Result<(), String> {
    fs::write(file, bytes).map_err(|e| format!("{}: {e}", file.display()))
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
        let without = |key: &str| -> String {
            text.lines()
                .filter(|l| l.split(" =").next() != Some(key))
                .map(|l| format!("{l}\n"))
                .collect()
        };
        let mut refused = Vec::new();
        for key in ["windows.release.x86_64", "macos.debug.double"] {
            fs::write(&file, without(key)).unwrap();
            refused.push((key, check_gdextension(&file)));
        }
        fs::remove_dir_all(&dir).unwrap();
        for (key, result) in refused {
            assert!(result.unwrap_err().contains(key), "{key}");
        }
    }

    #[test]
    fn each_platform_has_a_double_precision_library_with_its_own_file_and_keys() {
        let all = libraries();
        assert_eq!(all.len(), 2 * PLATFORMS.len());
        for (library, file, keys) in [
            (
                LINUX_ARM64.library(Precision::Double),
                "libfast_variant_codec.linux.arm64.double.so",
                ["linux.debug.arm64.double", "linux.release.arm64.double"],
            ),
            (
                WINDOWS_X86_64.library(Precision::Double),
                "fast_variant_codec.windows.x86_64.double.dll",
                [
                    "windows.debug.x86_64.double",
                    "windows.release.x86_64.double",
                ],
            ),
            (
                MACOS.library(Precision::Double),
                "libfast_variant_codec.macos.universal.double.dylib",
                ["macos.debug.double", "macos.release.double"],
            ),
        ] {
            assert_eq!(library.file(), file);
            assert_eq!(library.keys(), keys);
            assert_eq!(all.iter().filter(|l| l.file() == file).count(), 1, "{file}");
        }
        let single = MACOS.library(Precision::Single);
        assert_eq!(single.file(), MACOS.file);
        assert_eq!(single.keys(), ["macos.debug", "macos.release"]);
        assert_eq!(
            LINUX_X86_64.library(Precision::Double).name(),
            "linux.x86_64.double"
        );
        assert_eq!(
            MACOS.library(Precision::Double).name(),
            "macos.universal.double"
        );
    }

    #[test]
    fn gdextension_entries_reads_only_the_section_asked_for() {
        let text = "[configuration]\nentry_symbol = \"x\"\n[libraries]\n; a comment\nlinux.debug.x86_64 = \"./bin/a.so\"\n[icons]\nC = \"res://c.svg\"\n";
        assert_eq!(
            gdextension_entries(text, "[libraries]"),
            [("linux.debug.x86_64".to_owned(), "./bin/a.so".to_owned())]
        );
        assert_eq!(
            gdextension_entries(text, "[icons]"),
            [("C".to_owned(), "res://c.svg".to_owned())]
        );
    }

    #[test]
    fn the_release_takes_the_addon_files_but_its_development_ones() {
        let listed = format!(
            "{ADDON}/README.md\0{ADDON}/build.sh\0{ADDON}/bin/.gitignore\0{ADDON}/icon.svg\0\
             {ADDON}/fallback/fast_variant.gd\0{ADDON}s/other.txt\0README.md\0"
        );
        assert_eq!(
            release_files(&listed),
            ["README.md", "fallback/fast_variant.gd", "icon.svg"]
        );
    }

    #[test]
    fn expected_entries_name_every_folder_once_and_each_library() {
        let entries = expected_entries(&["README.md".into(), "fallback/a.gd".into()]);
        for entry in [
            "addons/".to_owned(),
            format!("{ADDON}/"),
            format!("{ADDON}/bin/"),
            format!("{ADDON}/fallback/"),
            format!("{ADDON}/fallback/a.gd"),
            format!("{ADDON}/CHANGELOG.md"),
            format!("{ADDON}/{NOTICES}"),
            format!("{ADDON}/bin/{}", MACOS.file),
            format!("{ADDON}/bin/libfast_variant_codec.macos.universal.double.dylib"),
        ] {
            assert_eq!(
                entries.iter().filter(|e| **e == entry).count(),
                1,
                "{entry}"
            );
        }
        assert!(entries.windows(2).all(|w| w[0] < w[1]));
    }
}
