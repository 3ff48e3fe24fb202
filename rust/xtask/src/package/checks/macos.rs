//! The macOS libraries' checks: each universal library's slices read by macho.rs, and
//! their ad-hoc signatures verified by rcodesign.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::output;
use crate::package::macho::{self, Slice};
use crate::package::{apple_tool, AppleSlice, Package, ENTRY_SYMBOL};
use crate::tally::Tally;

/// Libraries every Mac has: the system's own, under /usr/lib and /System/Library (in the
/// dyld shared cache since macOS 11). Nothing from @rpath, Homebrew or /usr/local.
const MAC_SYSTEM_PREFIXES: [&str; 2] = ["/usr/lib/", "/System/Library/"];
/// What rcodesign 0.29's `verify` says of an ad-hoc signature's CMS blob, which is empty
/// by definition (no certificate signs it): the one problem it reports of a good ad-hoc
/// signature. Its code-directory checks (each page's hash, the special slots) report
/// `code digest mismatch` and the like.
const ADHOC_CMS_NOTE: &str = "CMS error: missing further values";
/// The universal library: its slices, and of each its deployment target, install name,
/// exports, linked libraries and signature, read by macho.rs; its signatures verified by
/// rcodesign.
pub(super) fn check_universal(
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
        rcodesign: apple_tool(&package.inputs.cross, "rcodesign"),
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
