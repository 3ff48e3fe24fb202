//! `cargo xtask package --check`: each packaged library checked as far as this machine can,
//! from the zip's own files. Ends with `N passed, N failed`.
//!
//! - the zip: its entries, SHA256SUMS beside it, the icons;
//! - every library, single and double precision alike: its precision (the API version gdext
//!   compiled in, which names `double` in the double-precision ones only);
//! - every Linux and Windows library: its file format and machine, its entry symbol
//!   `gdext_rust_init` exported, and the libraries it needs (objdump of its toolchain);
//! - both macOS libraries: read by macho.rs, each slice's deployment target, install name,
//!   exports, linked libraries and code signature's place; the ad-hoc signatures verified
//!   by rcodesign, which must also reject a copy with a byte changed in each slice;
//! - both Windows libraries: loaded by a small Windows program (built with mingw) that
//!   calls LoadLibrary and GetProcAddress("gdext_rust_init"), in Wine 10 (a Debian sid root,
//!   in a chroot); a DLL without the symbol, which must fail, shows that the loader can;
//! - linux.x86_64: the zip unpacked into a fresh Godot project runs the demo, and the
//!   curated parity suite passes with the packaged (stripped) library;
//! - linux.x86_64.double: the curated parity suite in the double-precision Godot built here
//!   (scripts/provision-engine-build.sh double), in a fresh project of the zip, which
//!   takes the `.double` entries of the .gdextension;
//! - linux.arm64: the curated parity suite and a bounded random parity run in Debian's
//!   arm64 Godot under qemu-user, in the same kind of project.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use super::macho::{self, Slice};
use super::{
    apple_tool, libraries, niced, path_str, provision, zip_entries, zip_tool, AppleSlice, Library,
    Package, Precision, Toolchain, ADDON, DOUBLE_TAG, ENTRY_SYMBOL, GDEXTENSION, LINUX_ARM64,
    LINUX_X86_64, SUMS, WINDOWS_X86_64,
};
use crate::godot::{engine_build, godot, import_project_at};
use crate::process::{project_dir, run_echoing};
use crate::setting::Setting;
use crate::tally::{counts, Tally};

/// The values of the random parity run in the arm64 Godot (FVC_RANDOM_VALUES): about 20 s
/// under emulation; 1000 and more generate every type the suite's coverage check asks for.
const ARM64_RANDOM_VALUES: &str = "2000";
/// Longest a Godot run under qemu-user may take (seconds; `timeout`).
const EMULATED_RUN_LIMIT: &str = "1200";

/// Libraries a Linux build may need: the C library's own.
const LINUX_NEEDED: [&str; 8] = [
    "libc.so.6",
    "libm.so.6",
    "libgcc_s.so.1",
    "libpthread.so.0",
    "libdl.so.2",
    "librt.so.1",
    "ld-linux-x86-64.so.2",
    "ld-linux-aarch64.so.1",
];
/// DLLs the Windows build may import: Windows' own (and its api-ms-win-* API sets), never
/// a mingw runtime DLL (libgcc_s_seh-1.dll, libwinpthread-1.dll), which a user lacks.
const WINDOWS_IMPORTS: [&str; 9] = [
    "kernel32.dll",
    "ntdll.dll",
    "msvcrt.dll",
    "userenv.dll",
    "ws2_32.dll",
    "bcryptprimitives.dll",
    "advapi32.dll",
    "bcrypt.dll",
    "shell32.dll",
];

/// The Windows program that loads a DLL and finds the entry symbol in it.
const LOADER_C: &str = r#"#include <windows.h>
#include <stdio.h>

int main(int argc, char **argv) {
  if (argc != 2) { fprintf(stderr, "usage: loader DLL\n"); return 2; }
  HMODULE library = LoadLibraryA(argv[1]);
  if (!library) { printf("LoadLibrary(%s) failed: error %lu\n", argv[1], GetLastError()); return 1; }
  FARPROC entry = GetProcAddress(library, "gdext_rust_init");
  if (!entry) { printf("GetProcAddress(%s, gdext_rust_init) failed: error %lu\n", argv[1], GetLastError()); return 1; }
  printf("LoadLibrary(%s) and GetProcAddress(gdext_rust_init) succeeded: %p\n", argv[1], (void *)entry);
  return 0;
}
"#;
/// A DLL without the entry symbol: the loader must fail on it.
const CONTROL_C: &str = "__declspec(dllexport) int not_the_entry(void) { return 1; }\n";

pub(super) fn run(package: &Package) -> Result<(), String> {
    let started = Instant::now();
    let mut tally = Tally::default();

    let entries = zip_entries(&package.zip)?;
    tally.step(
        &format!(
            "the zip's layout ({} entries, addons/fast_variant_codec/ at its root)",
            entries.len()
        ),
        entries == package.expected,
    );
    check_sums(package, &mut tally)?;
    check_icons(package, &mut tally)?;

    let double_api = api_version(&package.double_api)?;
    for library in libraries() {
        check_binary(package, &library, &mut tally)?;
        check_precision(package, &library, &double_api, &mut tally)?;
    }
    check_in_wine(package, &mut tally)?;

    let godot = godot()?;
    check_demo_project(package, &godot, &mut tally)?;
    check_parity_projects(package, &godot, &mut tally)?;
    check_double_project(package, &mut tally)?;

    println!(
        "\npackage checks of fast_variant_codec {} took {:.0} s",
        package.version,
        started.elapsed().as_secs_f64()
    );
    println!("{} passed, {} failed", tally.passed, tally.failed);
    if tally.failed == 0 {
        Ok(())
    } else {
        Err(format!("{} failed", tally.failed))
    }
}

/// Output of a command, stdout and stderr; an error when it cannot start.
fn output(cmd: &mut Command) -> Result<(bool, String), String> {
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run {cmd:?}: {e}"))?;
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    Ok((out.status.success(), text))
}

/// The ELF machine of a 64-bit little-endian ELF file (`e_machine`), or `None`.
fn elf_machine(bytes: &[u8]) -> Option<u16> {
    let is_elf64_le =
        bytes.len() > 20 && bytes.starts_with(b"\x7fELF") && bytes[4] == 2 && bytes[5] == 1;
    is_elf64_le.then(|| u16::from_le_bytes([bytes[18], bytes[19]]))
}

/// Format, machine, entry symbol and needed libraries of the staged (packaged) library.
fn check_binary(package: &Package, packaged: &Library, tally: &mut Tally) -> Result<(), String> {
    let (platform, name) = (packaged.platform, packaged.name());
    let library = &package.built(packaged).staged;
    let objdump = platform.tool(&package.cross, "objdump");
    if let Toolchain::Apple { slices } = platform.toolchain {
        return check_universal(package, &name, library, slices, tally);
    }
    if platform.os == "windows" {
        return check_dll(&name, library, &objdump, tally);
    }
    let bytes = fs::read(library).map_err(|e| format!("{}: {e}", library.display()))?;
    // EM_X86_64, EM_AARCH64
    let machine = if platform.arch == Some("arm64") {
        183
    } else {
        62
    };
    let found = elf_machine(&bytes);
    println!("{name}: ELF machine {found:?} (want {machine})");
    tally.step(
        &format!("{name}: a 64-bit ELF shared library"),
        found == Some(machine),
    );

    let (ok, symbols) = output(Command::new(&objdump).arg("-T").arg(library))?;
    let entry = symbols
        .lines()
        .find(|l| l.split_whitespace().last() == Some("gdext_rust_init"));
    println!(
        "{name}: {}",
        entry.unwrap_or("no gdext_rust_init among the dynamic symbols")
    );
    tally.step(
        &format!("{name}: exports gdext_rust_init (objdump -T)"),
        ok && entry.is_some_and(|l| l.contains(".text") && l.contains(" g ")),
    );
    let glibc = symbols
        .split("(GLIBC_")
        .skip(1)
        .filter_map(|rest| rest.split(')').next())
        .max_by_key(|v| {
            v.split('.')
                .map(|n| n.parse::<u32>().unwrap_or(0))
                .collect::<Vec<_>>()
        });
    println!("{name}: needs glibc {}", glibc.unwrap_or("?"));

    let (ok, headers) = output(Command::new(&objdump).arg("-p").arg(library))?;
    let needed: Vec<&str> = headers
        .lines()
        .filter_map(|l| l.trim().strip_prefix("NEEDED"))
        .map(str::trim)
        .collect();
    println!("{name}: needs {}", needed.join(", "));
    let unexpected: Vec<&&str> = needed
        .iter()
        .filter(|n| !LINUX_NEEDED.contains(n))
        .collect();
    tally.step(
        &format!("{name}: needs only the C library's own libraries {unexpected:?}"),
        ok && !needed.is_empty() && unexpected.is_empty(),
    );
    Ok(())
}

/// The version name of the engine whose API description `json` is (its header's
/// `version_full_name` without `Godot Engine `, as gdext's code generator takes it:
/// godot-codegen's GodotApiVersion::from_json), which must be a double-precision engine's:
/// its header says `"precision": "double"`, and the engine names such a build's version
/// `….double` (core/version.h, GODOT_VERSION_FULL_CONFIG).
fn api_version(json: &Path) -> Result<String, String> {
    let text = fs::read_to_string(json).map_err(|e| format!("{}: {e}", json.display()))?;
    let api: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", json.display()))?;
    let header = &api["header"];
    let version = header["version_full_name"]
        .as_str()
        .map(|v| v.strip_prefix("Godot Engine ").unwrap_or(v));
    match (header["precision"].as_str(), version) {
        (Some(DOUBLE_TAG), Some(version)) if version.contains(&format!(".{DOUBLE_TAG}")) => {
            Ok(version.to_owned())
        }
        _ => Err(format!(
            "{}: not a double-precision engine's API description (header {header})",
            json.display()
        )),
    }
}

/// Whether `bytes` hold `text`.
fn holds(bytes: &[u8], text: &str) -> bool {
    !text.is_empty() && bytes.windows(text.len()).any(|w| w == text.as_bytes())
}

/// The library's precision, from what gdext compiles into it: the version name of the API
/// description it was generated from (`GdextBuild::godot_static_version_string`,
/// godot-codegen's gdext_build_struct.rs; the string stays in a stripped library). The
/// double-precision libraries are generated from the double-precision engine's (`api`,
/// `v4.6.3.stable.double…`), the single-precision ones from gdext's prebuilt description of
/// a single-precision 4.4: each `.double` library holds `api`, in every slice, and each
/// single one does not.
fn check_precision(
    package: &Package,
    packaged: &Library,
    api: &str,
    tally: &mut Tally,
) -> Result<(), String> {
    let (name, double) = (packaged.name(), packaged.precision == Precision::Double);
    let file = &package.built(packaged).staged;
    let bytes = fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let parts: Vec<&[u8]> = match packaged.platform.toolchain {
        Toolchain::Apple { .. } => macho::slices(&bytes)
            .unwrap_or_default()
            .iter()
            .map(|s| &bytes[s.range.clone()])
            .collect(),
        _ => vec![&bytes],
    };
    let held: Vec<bool> = parts.iter().map(|part| holds(part, api)).collect();
    println!("{name}: holds the API version {api:?} (per slice): {held:?}");
    let what = if double { "holds" } else { "does not hold" };
    tally.step(
        &format!("{name}: {what} the double-precision API's version {api:?}"),
        !held.is_empty() && held.iter().all(|&h| h == double),
    );
    Ok(())
}

/// The DLL's format, its one export and its imports (x86_64-w64-mingw32-objdump -p).
fn check_dll(name: &str, library: &Path, objdump: &Path, tally: &mut Tally) -> Result<(), String> {
    let (ok, headers) = output(Command::new(objdump).arg("-p").arg(library))?;
    let format = headers
        .lines()
        .find(|l| l.contains("file format"))
        .unwrap_or("no file format");
    println!("{name}: {}", format.trim());
    tally.step(
        &format!("{name}: a PE32+ x86-64 DLL"),
        ok && format.trim_end().ends_with("pei-x86-64"),
    );

    // The export table's names follow "[Ordinal/Name Pointer] Table".
    let exports: Vec<&str> = headers
        .lines()
        .skip_while(|l| !l.contains("[Ordinal/Name Pointer] Table"))
        .skip(1)
        .map_while(|l| {
            l.trim()
                .strip_prefix('[')
                .and_then(|r| r.split_once(']'))
                .map(|(_, n)| n.trim())
        })
        .collect();
    println!("{name}: exports {exports:?}");
    tally.step(
        &format!("{name}: exports exactly gdext_rust_init"),
        exports == ["gdext_rust_init"],
    );

    let imports: Vec<String> = headers
        .lines()
        .filter_map(|l| l.trim().strip_prefix("DLL Name:"))
        .map(|n| n.trim().to_lowercase())
        .collect();
    println!("{name}: imports {}", imports.join(", "));
    let unexpected: Vec<&String> = imports
        .iter()
        .filter(|n| !(WINDOWS_IMPORTS.contains(&n.as_str()) || n.starts_with("api-ms-win-")))
        .collect();
    tally.step(
        &format!("{name}: imports only Windows' own DLLs {unexpected:?}"),
        !imports.is_empty() && unexpected.is_empty(),
    );
    Ok(())
}

/// Libraries every Mac has: the system's own, under /usr/lib and /System/Library (in the
/// dyld shared cache since macOS 11). Nothing from @rpath, Homebrew or /usr/local.
const MAC_SYSTEM_PREFIXES: [&str; 2] = ["/usr/lib/", "/System/Library/"];
/// What rcodesign 0.29's `verify` says of an ad-hoc signature's CMS blob, which is empty
/// by definition (no certificate signs it): the one problem it reports of a good ad-hoc
/// signature. Its code-directory checks (each page's hash, the special slots) report
/// `code digest mismatch` and the like.
const ADHOC_CMS_NOTE: &str = "CMS error: missing further values";
/// The Asset Library's icon (linked from its page, not in the zip): a square PNG, 64x64
/// or larger, as its submission guidelines ask.
const ASSET_LIBRARY_ICON: &str = "docs/images/asset-library-icon.png";

/// `sha256sum -c` of SHA256SUMS beside the zip.
fn check_sums(package: &Package, tally: &mut Tally) -> Result<(), String> {
    let (ok, text) = output(
        Command::new("sha256sum")
            .current_dir(&package.dir)
            .args(["-c", SUMS]),
    )?;
    println!("{SUMS}: {}", text.trim());
    tally.step(&format!("{SUMS} beside the zip matches it"), ok);
    Ok(())
}

/// The width and height of a PNG (its IHDR chunk), or `None`.
fn png_size(bytes: &[u8]) -> Option<(u32, u32)> {
    let is_png = bytes.starts_with(b"\x89PNG\r\n\x1a\n") && bytes.get(12..16) == Some(b"IHDR");
    let word = |at: usize| Some(u32::from_be_bytes(bytes.get(at..at + 4)?.try_into().ok()?));
    is_png.then(|| Some((word(16)?, word(20)?))).flatten()
}

/// The `[icons]` of the zipped .gdextension name files of the zip, and the Asset Library's
/// icon is a square PNG of 64x64 or more.
fn check_icons(package: &Package, tally: &mut Tally) -> Result<(), String> {
    let gdextension = package.dir.join("stage").join(ADDON).join(GDEXTENSION);
    let text =
        fs::read_to_string(&gdextension).map_err(|e| format!("{}: {e}", gdextension.display()))?;
    let icons = super::gdextension_entries(&text, "[icons]");
    let missing: Vec<&String> = icons
        .iter()
        .map(|(_, path)| path)
        .filter(|path| {
            !path
                .strip_prefix("res://")
                .is_some_and(|file| package.expected.iter().any(|e| e == file))
        })
        .collect();
    println!("{GDEXTENSION} [icons]: {icons:?}");
    tally.step(
        &format!("the .gdextension's [icons] name files in the zip {missing:?}"),
        !icons.is_empty() && missing.is_empty(),
    );
    let file = project_dir().join(ASSET_LIBRARY_ICON);
    let size = png_size(&fs::read(&file).map_err(|e| format!("{}: {e}", file.display()))?);
    println!("{ASSET_LIBRARY_ICON}: {size:?}");
    tally.step(
        "the Asset Library icon is a square PNG of 64x64 or more",
        size.is_some_and(|(w, h)| w == h && w >= 64),
    );
    Ok(())
}

/// The universal library: its slices, and of each its deployment target, install name,
/// exports, linked libraries and signature, read by macho.rs; its signatures verified by
/// rcodesign.
fn check_universal(
    package: &Package,
    name: &str,
    library: &Path,
    slices: &[AppleSlice],
    tally: &mut Tally,
) -> Result<(), String> {
    let bytes = fs::read(library).map_err(|e| format!("{}: {e}", library.display()))?;
    let is_universal = bytes.starts_with(&macho::FAT_MAGIC.to_be_bytes());
    let found = macho::slices(&bytes).unwrap_or_else(|e| {
        println!("{name}: {e}");
        Vec::new()
    });
    let mut cpus: Vec<u32> = found.iter().map(|s| s.cpu_type).collect();
    let mut wanted: Vec<u32> = slices.iter().map(|s| s.cpu_type).collect();
    cpus.sort_unstable();
    wanted.sort_unstable();
    let archs: Vec<&str> = slices.iter().map(|s| s.arch).collect();
    println!("{name}: universal {is_universal}, CPU types {cpus:x?}");
    tally.step(
        &format!(
            "{name}: a universal Mach-O dylib of {}",
            archs.join(" and ")
        ),
        is_universal && cpus == wanted && found.iter().all(|s| s.is_dylib),
    );
    for want in slices {
        if let Some(slice) = found.iter().find(|s| s.cpu_type == want.cpu_type) {
            check_slice(&format!("{name} {}", want.arch), want, slice, tally);
        }
    }
    check_signatures(package, name, library, &bytes, &found, tally)
}

fn check_slice(label: &str, want: &AppleSlice, slice: &Slice, tally: &mut Tally) {
    let (major, minor) = want.min_macos;
    println!("{label}: deployment target {:?}", slice.min_macos);
    tally.step(
        &format!("{label}: deployment target no higher than Godot's macOS {major}.{minor}"),
        slice
            .min_macos
            .is_some_and(|(a, b, _)| (a, b) <= (major, minor)),
    );
    println!("{label}: install name {:?}", slice.install_name);
    tally.step(
        &format!("{label}: install name @rpath/..."),
        slice
            .install_name
            .as_deref()
            .is_some_and(|n| n.starts_with("@rpath/")),
    );
    println!("{label}: exports {:?}", slice.exports);
    tally.step(
        &format!("{label}: exports exactly _{ENTRY_SYMBOL} (export trie)"),
        slice.exports == [format!("_{ENTRY_SYMBOL}")],
    );
    println!("{label}: links {}", slice.linked.join(", "));
    let unexpected: Vec<&String> = slice
        .linked
        .iter()
        .filter(|l| !MAC_SYSTEM_PREFIXES.iter().any(|p| l.starts_with(p)))
        .collect();
    tally.step(
        &format!("{label}: links only libraries every Mac has {unexpected:?}"),
        slice
            .linked
            .iter()
            .any(|l| l == "/usr/lib/libSystem.B.dylib")
            && unexpected.is_empty(),
    );
    let len = slice.range.len();
    println!(
        "{label}: code signature {:?}, __LINKEDIT ends at {:?}, slice of {len} bytes",
        slice.signature, slice.linkedit_end
    );
    tally.step(
        &format!("{label}: a code signature, last in __LINKEDIT and in the slice"),
        slice.signature.as_ref().is_some_and(|s| s.end == len) && slice.linkedit_end == Some(len),
    );
}

/// The problems `rcodesign verify` lists, as (slice index, text): its lines `@N: TEXT`.
fn verify_problems(text: &str) -> Vec<(usize, String)> {
    text.lines()
        .filter_map(|line| {
            let (index, problem) = line.strip_prefix('@')?.split_once(": ")?;
            Some((index.parse().ok()?, problem.to_owned()))
        })
        .collect()
}

/// Each slice signed ad hoc (print-signature-info), every slice's code directory verified
/// by `rcodesign verify` with no problem but the ad-hoc signature's empty CMS blob, and the
/// same verifier failing with a digest mismatch in each slice of a copy with one byte of
/// each slice's code changed (a control). rcodesign's own reading of each slice's
/// deployment target agrees with macho.rs's.
fn check_signatures(
    package: &Package,
    name: &str,
    library: &Path,
    bytes: &[u8],
    found: &[Slice],
    tally: &mut Tally,
) -> Result<(), String> {
    let check = SignatureCheck {
        rcodesign: apple_tool(&package.cross, "rcodesign"),
        name,
        library,
        found,
    };
    check.adhoc_signed(tally)?;
    check.verified(tally)?;
    check.verify_control(&package.dir, bytes, tally)?;
    check.deployment_targets(tally)
}

/// rcodesign run on the library `name` at `library`, whose slices macho.rs `found`.
struct SignatureCheck<'a> {
    rcodesign: PathBuf,
    name: &'a str,
    library: &'a Path,
    found: &'a [Slice],
}

impl SignatureCheck<'_> {
    /// Whether `rcodesign ARGS… LIBRARY` succeeded, and its output.
    fn run(&self, args: &[&str]) -> Result<(bool, String), String> {
        output(Command::new(&self.rcodesign).args(args).arg(self.library))
    }

    /// Each slice has an ad-hoc signature, as `rcodesign print-signature-info` reads it.
    fn adhoc_signed(&self, tally: &mut Tally) -> Result<(), String> {
        let name = self.name;
        let (_, info) = self.run(&["print-signature-info"])?;
        let adhoc = info.matches("flags: CodeSignatureFlags(ADHOC)").count();
        println!(
            "{name}: {adhoc} of {} slices signed ad hoc",
            self.found.len()
        );
        tally.step(
            &format!("{name}: each slice has an ad-hoc signature"),
            !self.found.is_empty() && adhoc == self.found.len(),
        );
        Ok(())
    }

    /// `rcodesign verify` finds no problem in any slice but the ad-hoc signature's empty CMS
    /// blob, which it notes once for each slice.
    fn verified(&self, tally: &mut Tally) -> Result<(), String> {
        let name = self.name;
        let (_, text) = self.run(&["verify"])?;
        let problems = verify_problems(&text);
        println!("{name}: rcodesign verify: {problems:?}");
        let notes: Vec<usize> = problems
            .iter()
            .filter(|(_, p)| p.starts_with(ADHOC_CMS_NOTE))
            .map(|(i, _)| *i)
            .collect();
        let others: Vec<&(usize, String)> = problems
            .iter()
            .filter(|(_, p)| !p.starts_with(ADHOC_CMS_NOTE))
            .collect();
        tally.step(
            &format!("{name}: rcodesign verify finds every slice's code as signed {others:?}"),
            notes == (0..self.found.len()).collect::<Vec<_>>() && others.is_empty(),
        );
        Ok(())
    }

    /// The control: `rcodesign verify` fails with a digest mismatch in each slice of a copy
    /// (written under `dir`/check) with one byte of each slice's code changed.
    fn verify_control(&self, dir: &Path, bytes: &[u8], tally: &mut Tally) -> Result<(), String> {
        let mut changed = bytes.to_vec();
        for slice in self.found {
            // A quarter into the slice: in its code (__TEXT is most of the file), which the
            // signature's page hashes cover.
            changed[slice.range.start + slice.range.len() / 4] ^= 0xff;
        }
        let control = dir.join("check/control.dylib");
        fs::create_dir_all(dir.join("check")).map_err(|e| e.to_string())?;
        fs::write(&control, changed).map_err(|e| format!("{}: {e}", control.display()))?;
        let (ok, text) = output(Command::new(&self.rcodesign).arg("verify").arg(&control))?;
        let mut mismatched: Vec<usize> = verify_problems(&text)
            .into_iter()
            .filter(|(_, p)| p.starts_with("code digest mismatch"))
            .map(|(i, _)| i)
            .collect();
        mismatched.dedup();
        println!("control: rcodesign verify finds a changed page in slices {mismatched:?}");
        tally.step(
            "rcodesign verify fails on a copy with a byte changed in each slice (control)",
            !ok && mismatched == (0..self.found.len()).collect::<Vec<_>>(),
        );
        Ok(())
    }

    /// rcodesign reads each slice's minimum macOS as macho.rs does.
    fn deployment_targets(&self, tally: &mut Tally) -> Result<(), String> {
        let name = self.name;
        let mut agree = !self.found.is_empty();
        for (i, slice) in self.found.iter().enumerate() {
            let (_, target) = self.run(&[
                "extract",
                "--universal-index",
                &i.to_string(),
                "macho-target",
            ])?;
            let theirs = target
                .lines()
                .find_map(|l| l.strip_prefix("Minimum OS: "))
                .map(str::to_owned);
            let ours = slice.min_macos.map(|(a, b, c)| format!("{a}.{b}.{c}"));
            println!("{name} slice {i}: rcodesign reads minimum OS {theirs:?}");
            agree &= theirs.is_some() && theirs == ours;
        }
        tally.step(
            &format!("{name}: rcodesign reads the same deployment targets"),
            agree,
        );
        Ok(())
    }
}

/// Whether `dir` is a mount point now (/proc/self/mountinfo's fifth field).
fn is_mount_point(dir: &Path) -> bool {
    let dir = dir.to_string_lossy();
    fs::read_to_string("/proc/self/mountinfo")
        .unwrap_or_default()
        .lines()
        .any(|l| l.split(' ').nth(4) == Some(&*dir))
}

/// Each DLL (single and double precision) loaded in Wine 10 by a mingw-built program:
/// LoadLibrary and GetProcAddress("gdext_rust_init"); then the same program on a DLL
/// without the symbol, which must fail. Wine runs in a chroot of a Debian sid root, in new
/// mount and PID namespaces whose /proc (--mount-proc) goes away with them: nothing stays
/// mounted, and wineserver ends with the run.
fn check_in_wine(package: &Package, tally: &mut Tally) -> Result<(), String> {
    let root = provision("wine")?;
    let work = root.join("tmp/fvc-check");
    let _ = fs::remove_dir_all(&work);
    fs::create_dir_all(&work).map_err(|e| format!("{}: {e}", work.display()))?;
    fs::write(work.join("loader.c"), LOADER_C).map_err(|e| e.to_string())?;
    fs::write(work.join("control.c"), CONTROL_C).map_err(|e| e.to_string())?;
    let gcc = WINDOWS_X86_64.tool(&package.cross, "gcc");
    for args in [
        ["-O2", "-Wall", "-o", "loader.exe", "loader.c"].as_slice(),
        ["-shared", "-o", "control.dll", "control.c"].as_slice(),
    ] {
        let (ok, text) = output(Command::new(&gcc).current_dir(&work).args(args))?;
        if !ok {
            return Err(format!("{} {}: {text}", gcc.display(), args.join(" ")));
        }
    }
    let dlls: Vec<Library> = libraries()
        .into_iter()
        .filter(|l| l.platform.os == WINDOWS_X86_64.os)
        .collect();
    for dll in &dlls {
        fs::copy(&package.built(dll).staged, work.join(dll.file())).map_err(|e| e.to_string())?;
    }

    let wine = |dll: &str| -> Result<(bool, String), String> {
        let script = "cd /tmp/fvc-check && wine --version && wine loader.exe \"$1\"; status=$?; \
                      for server in /usr/lib/*/wine/wineserver /usr/lib/wine/wineserver; do \
                      [ -x \"$server\" ] && \"$server\" -w && break; done; exit $status";
        let mut cmd = niced("unshare");
        cmd.args(["--mount", "--pid", "--fork"])
            .arg(format!("--mount-proc={}", root.join("proc").display()))
            .arg("chroot")
            .arg(&root)
            .args([
                "/usr/bin/env",
                "-i",
                "PATH=/usr/bin:/bin",
                "HOME=/root",
                "WINEDEBUG=-all",
            ])
            .args(["WINEPREFIX=/root/.wine-fvc", "XDG_RUNTIME_DIR=/tmp"])
            .args(["/bin/sh", "-c", script, "sh", dll]);
        let started = Instant::now();
        let result = output(&mut cmd)?;
        println!(
            "in Wine ({dll}, {:.1} s):\n{}",
            started.elapsed().as_secs_f64(),
            result.1.trim_end()
        );
        Ok(result)
    };
    for dll in &dlls {
        let (ok, text) = wine(&dll.file())?;
        tally.step(
            &format!(
                "{}: LoadLibrary + GetProcAddress(gdext_rust_init) in Wine 10",
                dll.name()
            ),
            ok && text.contains("wine-10")
                && text.contains("GetProcAddress(gdext_rust_init) succeeded"),
        );
    }
    let (ok, text) = wine("control.dll")?;
    tally.step(
        "the Wine loader fails on a DLL without gdext_rust_init (control)",
        !ok && text.contains("GetProcAddress(control.dll, gdext_rust_init) failed"),
    );
    tally.step(
        "no /proc left mounted in the Wine root",
        !is_mount_point(&root.join("proc")),
    );
    Ok(())
}

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
fn check_demo_project(package: &Package, godot: &Path, tally: &mut Tally) -> Result<(), String> {
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

/// The curated parity suite in the double-precision Godot built here
/// (scripts/provision-engine-build.sh double), in a fresh project of the zip and the
/// bundled project's tests, imported by that engine: it takes the `.double` entries of
/// the .gdextension (a single-precision library would not initialize in it: gdext stops
/// on a precision that is not its own), so the packaged linux.x86_64.double library runs.
fn check_double_project(package: &Package, tally: &mut Tally) -> Result<(), String> {
    let double = engine_build(DOUBLE_TAG)?;
    let dir = package.dir.join("check/double-project");
    let project = fs::read_to_string(project_dir().join("godot_project/project.godot"))
        .map_err(|e| e.to_string())?;
    fresh_project(
        package,
        &double,
        &dir,
        &["test_runner", "tests", "fixtures"],
        &project,
    )?;
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
fn check_parity_projects(package: &Package, godot: &Path, tally: &mut Tally) -> Result<(), String> {
    let dir = package.dir.join("check/parity-project");
    let project = fs::read_to_string(project_dir().join("godot_project/project.godot"))
        .map_err(|e| e.to_string())?;
    fresh_project(
        package,
        godot,
        &dir,
        &["test_runner", "tests", "fixtures"],
        &project,
    )?;

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elf_machine_reads_the_header() {
        let mut header = vec![0u8; 64];
        header[..4].copy_from_slice(b"\x7fELF");
        header[4] = 2;
        header[5] = 1;
        header[18..20].copy_from_slice(&183u16.to_le_bytes());
        assert_eq!(elf_machine(&header), Some(183));
        header[4] = 1; // 32-bit
        assert_eq!(elf_machine(&header), None);
        assert_eq!(elf_machine(b"MZ\x90\x00"), None);
    }

    #[test]
    fn api_version_takes_a_double_precision_header_only() {
        let dir = std::env::temp_dir().join(format!("fvc-api-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let read = |precision: &str, name: &str| {
            let file = dir.join(format!("{precision}.json"));
            let header = serde_json::json!({"header": {
                "version_full_name": name, "precision": precision}});
            fs::write(&file, header.to_string()).unwrap();
            api_version(&file)
        };
        let double = read("double", "Godot Engine v4.6.3.stable.double.custom_build");
        let single = read("single", "Godot Engine v4.6.3.stable.custom_build");
        let unnamed = read("double", "Godot Engine v4.6.3.stable.custom_build");
        fs::remove_dir_all(&dir).unwrap();
        assert_eq!(double.unwrap(), "v4.6.3.stable.double.custom_build");
        assert!(single.unwrap_err().contains("not a double-precision"));
        assert!(unnamed.is_err());
    }

    #[test]
    fn holds_finds_a_text_anywhere_and_nothing_in_less() {
        let bytes = b"\0\x7fELFv4.6.3.stable.double.custom_buildeditor\0";
        assert!(holds(bytes, "v4.6.3.stable.double.custom_build"));
        assert!(!holds(bytes, "v4.6.3.stable.double.official"));
        assert!(!holds(b"v4.6", "v4.6.3"));
        assert!(!holds(bytes, ""));
    }

    #[test]
    fn png_size_reads_the_header_and_refuses_other_files() {
        let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
        png.extend_from_slice(&144u32.to_be_bytes());
        png.extend_from_slice(&96u32.to_be_bytes());
        assert_eq!(png_size(&png), Some((144, 96)));
        assert_eq!(png_size(&png[..20]), None);
        assert_eq!(png_size(b"GIF89a"), None);
    }

    #[test]
    fn the_asset_library_icon_is_a_square_png_of_64_or_more() {
        let bytes = fs::read(project_dir().join(ASSET_LIBRARY_ICON)).unwrap();
        let (width, height) = png_size(&bytes).unwrap();
        assert_eq!(width, height);
        assert!(width >= 64);
    }

    #[test]
    fn verify_problems_reads_the_index_and_text_of_each() {
        let text = "signing\n@0: CMS error: missing further values (at position 0)\n\
                    @1: code digest mismatch for entry 3; recorded digest ab\nError: problems\n";
        assert_eq!(
            verify_problems(text),
            [
                (
                    0,
                    "CMS error: missing further values (at position 0)".to_owned()
                ),
                (
                    1,
                    "code digest mismatch for entry 3; recorded digest ab".to_owned()
                )
            ]
        );
    }

    #[test]
    fn is_mount_point_sees_proc_and_not_a_plain_folder() {
        assert!(is_mount_point(Path::new("/proc")));
        assert!(!is_mount_point(&project_dir().join("rust")));
    }
}
