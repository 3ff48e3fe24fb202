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
use std::path::Path;
use std::process::Command;
use std::time::Instant;

use super::macho::{self};
use super::{
    libraries, zip_entries, Library, Package, Precision, Toolchain, ADDON, DOUBLE_TAG,
    ENTRY_SYMBOL, GDEXTENSION, SUMS, WINDOWS_X86_64,
};
use crate::godot::godot;
use crate::process::project_dir;
use crate::tally::Tally;

mod macos;
mod projects;
mod windows;

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
/// The Asset Library's icon (linked from its page, not in the zip): a square PNG, 64x64
/// or larger, as its submission guidelines ask.
const ASSET_LIBRARY_ICON: &str = "docs/images/asset-library-icon.png";

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

    let double_api = api_version(&package.inputs.double_api)?;
    for library in libraries() {
        check_binary(package, &library, &mut tally)?;
        check_precision(package, &library, &double_api, &mut tally)?;
    }
    windows::check_in_wine(package, &mut tally)?;

    let godot = godot()?;
    projects::check_demo_project(package, &godot, &mut tally)?;
    projects::check_parity_projects(package, &godot, &mut tally)?;
    projects::check_double_project(package, &mut tally)?;

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
    let objdump = platform.tool(&package.inputs.cross, "objdump");
    if let Toolchain::Apple { slices } = platform.toolchain {
        return macos::check_universal(package, &name, library, slices, tally);
    }
    if platform.os == WINDOWS_X86_64.os {
        return windows::check_dll(&name, library, &objdump, tally);
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
        .find(|l| l.split_whitespace().last() == Some(ENTRY_SYMBOL));
    println!(
        "{name}: {}",
        entry.unwrap_or(&format!("no {ENTRY_SYMBOL} among the dynamic symbols"))
    );
    tally.step(
        &format!("{name}: exports {ENTRY_SYMBOL} (objdump -T)"),
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
}
