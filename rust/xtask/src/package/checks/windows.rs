//! The Windows libraries' checks: each DLL's format, export and imports, and each
//! loaded in Wine.

use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

use super::output;
use crate::package::{libraries, niced, provision, Library, Package, ENTRY_SYMBOL, WINDOWS_X86_64};
use crate::tally::Tally;

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

/// The DLL's format, its one export and its imports (x86_64-w64-mingw32-objdump -p).
pub(super) fn check_dll(
    name: &str,
    library: &Path,
    objdump: &Path,
    tally: &mut Tally,
) -> Result<(), String> {
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
        &format!("{name}: exports exactly {ENTRY_SYMBOL}"),
        exports == [ENTRY_SYMBOL],
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
pub(super) fn check_in_wine(package: &Package, tally: &mut Tally) -> Result<(), String> {
    let root = provision("wine")?;
    let work = root.join("tmp/fvc-check");
    let _ = fs::remove_dir_all(&work);
    fs::create_dir_all(&work).map_err(|e| format!("{}: {e}", work.display()))?;
    fs::write(work.join("loader.c"), LOADER_C).map_err(|e| e.to_string())?;
    fs::write(work.join("control.c"), CONTROL_C).map_err(|e| e.to_string())?;
    let gcc = WINDOWS_X86_64.tool(&package.inputs.cross, "gcc");
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::process::project_dir;

    #[test]
    fn is_mount_point_sees_proc_and_not_a_plain_folder() {
        assert!(is_mount_point(Path::new("/proc")));
        assert!(!is_mount_point(&project_dir().join("rust")));
    }
}
