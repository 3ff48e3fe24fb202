//! Building each library of the package: natively, with the cross toolchains
//! (-Zbuild-std), and the macOS slices merged into one universal library; then staged
//! (stripped) for the zip.

use crate::process::{project_dir, run_echoing};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use super::*;

/// The double-precision engine's API description, which gdext generates a double-precision
/// binding from: `build.sh --double-api` dumps it (when missing or older than the engine,
/// the one rule build.sh --double follows too) and prints its path. One description serves
/// every platform: it describes the engine's API, not a binary.
pub(super) fn double_api() -> Result<PathBuf, String> {
    printed_path(&format!("{ADDON}/build.sh"), "--double-api")
}

/// Builds the release library `library`: natively (cargo's own target directory, the build
/// build.sh and the tests use; build.sh --double for double precision), or with -Zbuild-std
/// and the cross toolchain into its precision's cross directory; a universal library slice
/// by slice, then merged.
pub(super) fn build(library: Library, inputs: &Inputs) -> Result<Built, String> {
    let (platform, name) = (library.platform, library.name());
    eprintln!("== building {name} ({})", platform.triples().join(", "));
    let started = Instant::now();
    let cross = &inputs.cross;
    let cross_target = inputs.target_dir.join(library.precision.cross_dir());
    let file = match (&platform.toolchain, library.precision) {
        (Toolchain::Host, Precision::Single) => {
            let mut cmd = niced(cargo_program());
            cmd.args(["build", "--release", "-p", CRATE]);
            run_build(&mut cmd, &name)?;
            inputs.target_dir.join("release").join(platform.built)
        }
        (Toolchain::Host, Precision::Double) => {
            let mut cmd = niced("bash");
            cmd.arg(project_dir().join(ADDON).join("build.sh"))
                .arg("--double");
            run_build(&mut cmd, &name)?;
            inputs
                .target_dir
                .join("double/release")
                .join(platform.built)
        }
        (Toolchain::Gnu { triple, .. }, _) => {
            let env_triple = triple.replace('-', "_");
            let path = std::env::var_os("PATH").unwrap_or_default();
            let mut paths = vec![cross.join("bin")];
            paths.extend(std::env::split_paths(&path));
            let mut cmd = cross_build(niced(cargo_program()), "build", triple, library, inputs);
            // rustc runs the toolchain's dlltool by name, and dlltool its assembler.
            cmd.env(
                "PATH",
                std::env::join_paths(paths).map_err(|e| e.to_string())?,
            )
            .env(
                format!("CARGO_TARGET_{}_LINKER", env_triple.to_uppercase()),
                platform.tool(cross, "gcc"),
            )
            .env(format!("CC_{env_triple}"), platform.tool(cross, "gcc"))
            .env(format!("AR_{env_triple}"), platform.tool(cross, "ar"));
            run_build(&mut cmd, &name)?;
            cross_target
                .join(triple)
                .join("release")
                .join(platform.built)
        }
        (Toolchain::Apple { slices }, _) => build_universal(library, slices, inputs)?,
    };
    let seconds = started.elapsed().as_secs_f64();
    eprintln!("== {name} built in {seconds:.0} s");
    Ok(Built {
        library,
        file,
        staged: PathBuf::new(),
        seconds,
    })
}

/// `cargo build` (or `zigbuild`) of `library` for `triple` with -Zbuild-std, the standard
/// library's source from provision-cross.sh, into its precision's cross directory; for
/// double precision with its features and the double-precision API description.
fn cross_build(
    mut cmd: Command,
    verb: &str,
    triple: &str,
    library: Library,
    inputs: &Inputs,
) -> Command {
    cmd.current_dir(project_dir())
        .args([
            verb,
            "--release",
            "-p",
            CRATE,
            "--target",
            triple,
            "-Zbuild-std",
        ])
        .args(library.precision.cargo_features())
        // The toolchain's rustc with the standard library's source (provision-cross.sh).
        .env("RUSTC", inputs.cross.join("rustc"))
        // -Zbuild-std on a stable toolchain.
        .env("RUSTC_BOOTSTRAP", "1")
        .env(
            "CARGO_TARGET_DIR",
            inputs.target_dir.join(library.precision.cross_dir()),
        );
    if library.precision == Precision::Double {
        cmd.env("GDRUST_GODOT_API_JSON", &inputs.double_api);
    }
    cmd
}

fn run_build(cmd: &mut Command, name: &str) -> Result<(), String> {
    let (ok, _) = run_echoing(cmd.current_dir(project_dir()))?;
    ok.then_some(())
        .ok_or_else(|| format!("building {name} failed"))
}

/// The niceness of the macOS builds, the heaviest of the package (the standard library is
/// built from source for each of the two slices).
const APPLE_NICENESS: &str = "10";

/// Each slice built by cargo-zigbuild with its deployment target, its export trie cut down
/// to the entry symbol, then the slices merged into one universal file (rcodesign
/// macho-universal-create, as `lipo -create`); signed when staged.
fn build_universal(
    library: Library,
    slices: &[AppleSlice],
    inputs: &Inputs,
) -> Result<PathBuf, String> {
    let (cross, name, file) = (&inputs.cross, library.name(), library.file());
    let cross_target = inputs.target_dir.join(library.precision.cross_dir());
    let out = cross_target.join("macos");
    fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut thin = Vec::new();
    for slice in slices {
        let started = Instant::now();
        let mut cmd = cross_build(
            nice_at(APPLE_NICENESS, apple_tool(cross, "cargo-zigbuild")),
            "zigbuild",
            slice.triple,
            library,
            inputs,
        );
        let (major, minor) = slice.min_macos;
        cmd.env("CARGO_ZIGBUILD_ZIG_PATH", apple_tool(cross, "zig"))
            // rustc, cargo-zigbuild (zig's target) and the cc crate all read it.
            .env("MACOSX_DEPLOYMENT_TARGET", format!("{major}.{minor}"))
            // rustc strips the symbol table with its own rust-objcopy after linking.
            .env("CARGO_PROFILE_RELEASE_STRIP", "symbols")
            .env(
                "RUSTFLAGS",
                format!(
                    // Rust's own symbols hidden: Zig's linker ignores the exported-symbols
                    // list rustc passes, so visibility is what keeps them out of the
                    // exports; then the install name a loadable library has.
                    "-Zdefault-visibility=hidden -Clink-arg=-Wl,-install_name,@rpath/{file}"
                ),
            );
        run_build(&mut cmd, &format!("{name} {}", slice.arch))?;
        eprintln!(
            "== {name} {} built in {:.0} s",
            slice.arch,
            started.elapsed().as_secs_f64()
        );
        let built = cross_target
            .join(slice.triple)
            .join("release")
            .join(library.platform.built);
        let mut bytes = fs::read(&built).map_err(|e| format!("{}: {e}", built.display()))?;
        // What else Zig's linker exports goes: its own `__mh_dylib_header` and
        // `___dso_handle`, the standard library's `___isOSVersionAtLeast` and
        // `___isPlatformVersionAtLeast`, psm's assembly functions.
        macho::keep_only_export(&mut bytes, &format!("_{ENTRY_SYMBOL}"))
            .map_err(|e| format!("{}: {e}", built.display()))?;
        let file = out.join(format!("{}.{}.dylib", CRATE, slice.arch));
        write_bytes(&file, &bytes)?;
        thin.push(file);
    }
    let universal = out.join(&file);
    let mut cmd = Command::new(apple_tool(cross, "rcodesign"));
    cmd.arg("macho-universal-create")
        .arg("--output")
        .arg(&universal)
        .args(&thin);
    stdout_of(&mut cmd, "rcodesign macho-universal-create")?;
    Ok(universal)
}

/// Copies the library into the stage: without symbols and debug information (the dynamic
/// symbols and the DLL's export table stay: the checks read them from the stripped file),
/// or, the macOS one (stripped when linked), with an ad-hoc code signature on each slice
/// (rcodesign; Apple Silicon runs no unsigned arm64 code).
pub(super) fn stage_library(b: &Built, cross: &Path) -> Result<(), String> {
    let mut cmd = match b.library.platform.toolchain {
        Toolchain::Apple { .. } => {
            let mut cmd = Command::new(apple_tool(cross, "rcodesign"));
            cmd.arg("sign").arg(&b.file).arg(&b.staged);
            cmd
        }
        _ => {
            let mut cmd = Command::new(b.library.platform.tool(cross, "strip"));
            cmd.arg("--strip-all").arg("-o").arg(&b.staged).arg(&b.file);
            cmd
        }
    };
    stdout_of(&mut cmd, &format!("staging {}", b.file.display())).map(drop)
}
