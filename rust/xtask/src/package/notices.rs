//! THIRD_PARTY_NOTICES.md of the package: every crate compiled into one of the libraries,
//! with its license, where its source is, and the license files it ships.
//!
//! Which crates are compiled in comes from `cargo tree` (normal dependencies of the
//! binding for each library's target, without procedural macros: what is linked, with
//! the features its build enables), for this workspace and for the standard library's
//! (the rust-src the cross builds use, of the toolchain's version: the native build links
//! the same crates, prebuilt); their license, repository and files from `cargo metadata`.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use super::{cargo_metadata, cargo_program, libraries, stdout_of, Library, CRATE};

/// The standard library's features that -Zbuild-std builds (cargo's default for it), so
/// that its tree is the one compiled.
const STD_FEATURES: &str = "std/panic-unwind,std/backtrace";

/// A crate as `cargo tree` names it: name and version.
type Id = (String, String);

/// One crate's entry.
struct Entry {
    license: String,
    source: String,
    /// The libraries it is compiled into (their names: `linux.x86_64.double`).
    platforms: BTreeSet<String>,
    /// Its license files: (file name, text).
    files: Vec<(String, String)>,
}

pub(super) fn third_party_notices(meta: &Value, std_library: &Path) -> Result<String, String> {
    let workspace = project_dir_of(meta)?;
    // Canonical, as cargo names the crates' folders.
    let std_library = std_library
        .canonicalize()
        .map_err(|e| format!("{}: {e}", std_library.display()))?;
    let std_manifest = std_library.join("Cargo.toml");
    let std_meta = cargo_metadata(&std_manifest, Some(STD_FEATURES))?;
    let std_root = std_library.parent().unwrap_or(&std_library).to_path_buf();

    let mut linked: BTreeMap<Id, Entry> = BTreeMap::new();
    let mut standard: BTreeMap<Id, Entry> = BTreeMap::new();
    let mut build_only: BTreeMap<Id, Entry> = BTreeMap::new();
    for library in libraries() {
        for triple in library.platform.triples() {
            let in_library = tree(
                &workspace.join("Cargo.toml"),
                CRATE,
                triple,
                "normal,no-proc-macro",
                library.precision.cargo_features(),
            )?;
            let to_build = tree(
                &workspace.join("Cargo.toml"),
                CRATE,
                triple,
                "normal,build",
                library.precision.cargo_features(),
            )?;
            for id in &in_library {
                add(&mut linked, id, &library, meta, &std_root)?;
            }
            for id in to_build.difference(&in_library) {
                add(&mut build_only, id, &library, meta, &std_root)?;
            }
            let std_crates = tree(
                &std_manifest,
                "std",
                triple,
                "normal,no-proc-macro",
                &["--features", STD_FEATURES],
            )?;
            for id in &std_crates {
                add(&mut standard, id, &library, &std_meta, &std_root)?;
            }
        }
    }
    // This project's own crates are under its LICENSE.
    let own: Vec<Id> = linked
        .iter()
        .filter(|(_, e)| {
            e.source
                .starts_with(&workspace.to_string_lossy().into_owned())
        })
        .map(|(id, _)| id.clone())
        .collect();
    for id in &own {
        linked.remove(id);
    }
    Ok(render(&linked, &standard, &build_only, &own))
}

fn project_dir_of(meta: &Value) -> Result<PathBuf, String> {
    meta["workspace_root"]
        .as_str()
        .map(PathBuf::from)
        .ok_or_else(|| "cargo metadata has no workspace_root".into())
}

/// The crates of `package`'s tree for the target `triple` along `edges`, with the feature
/// arguments `features`.
fn tree(
    manifest: &Path,
    package: &str,
    triple: &str,
    edges: &str,
    features: &[&str],
) -> Result<BTreeSet<Id>, String> {
    let mut cmd = Command::new(cargo_program());
    cmd.args(["tree", "--manifest-path"])
        .arg(manifest)
        .args(["-p", package, "--target", triple, "-e", edges])
        .args(["--prefix", "none", "--format", "{p}"])
        // The standard library's manifest uses unstable cargo features.
        .env("RUSTC_BOOTSTRAP", "1");
    cmd.args(features);
    let what = format!(
        "cargo tree --manifest-path {} -p {package}",
        manifest.display()
    );
    let out = stdout_of(&mut cmd, &what)?;
    let mut ids = BTreeSet::new();
    for line in out.lines() {
        let mut words = line.split_whitespace();
        if let (Some(name), Some(version)) = (words.next(), words.next()) {
            ids.insert((name.to_owned(), version.trim_start_matches('v').to_owned()));
        }
    }
    Ok(ids)
}

/// Adds crate `id` (compiled into `library`) to `entries`, from its `cargo metadata`.
fn add(
    entries: &mut BTreeMap<Id, Entry>,
    id: &Id,
    library: &Library,
    meta: &Value,
    std_root: &Path,
) -> Result<(), String> {
    if let Some(entry) = entries.get_mut(id) {
        entry.platforms.insert(library.name());
        return Ok(());
    }
    let package = meta["packages"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|p| p["name"] == id.0.as_str() && p["version"] == id.1.as_str())
        .ok_or_else(|| format!("{} {} is not in cargo metadata", id.0, id.1))?;
    let dir = Path::new(package["manifest_path"].as_str().unwrap_or_default())
        .parent()
        .unwrap_or(Path::new("/"))
        .to_path_buf();
    let in_std_source = dir.starts_with(std_root);
    let mut license = package["license"].as_str().unwrap_or_default().to_owned();
    let mut files = license_files(&dir);
    if in_std_source {
        // The standard library's own crates: the Rust project's license and COPYRIGHT.
        if license.is_empty() {
            license = "MIT OR Apache-2.0 (the Rust project's)".into();
        }
        if files.is_empty() {
            files = license_files(std_root);
        }
    }
    if license.is_empty() {
        return Err(format!(
            "{} {} declares no license: the notices cannot say under which terms it is shipped",
            id.0, id.1
        ));
    }
    let source = if package["source"].is_null() {
        if in_std_source {
            let folder = dir
                .strip_prefix(std_root)
                .unwrap_or(&dir)
                .display()
                .to_string();
            format!(
                "https://github.com/rust-lang/rust ({}), {folder}",
                rust_version()
            )
        } else {
            dir.to_string_lossy().into_owned()
        }
    } else {
        package["repository"]
            .as_str()
            .map(str::to_owned)
            .unwrap_or_else(|| format!("https://crates.io/crates/{}/{}", id.0, id.1))
    };
    entries.insert(
        id.clone(),
        Entry {
            license,
            source,
            platforms: BTreeSet::from([library.name()]),
            files,
        },
    );
    Ok(())
}

/// The toolchain's version (`1.95.0`), whose standard library is compiled in.
fn rust_version() -> String {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .and_then(|out| {
            String::from_utf8_lossy(&out.stdout)
                .split_whitespace()
                .nth(1)
                .map(str::to_owned)
        })
        .unwrap_or_else(|| "the toolchain's version".into())
}

/// The license, copyright and notice files at the top of a crate's folder.
fn license_files(dir: &Path) -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            let upper = name.to_uppercase();
            let is_license = [
                "LICENSE",
                "LICENCE",
                "COPYING",
                "COPYRIGHT",
                "NOTICE",
                "UNLICENSE",
            ]
            .iter()
            .any(|prefix| upper.starts_with(prefix));
            let text = is_license.then(|| fs::read_to_string(entry.path()).ok())??;
            Some((name, text))
        })
        .collect();
    files.sort();
    files
}

fn platforms_text(entry: &Entry) -> String {
    if entry.platforms.len() == libraries().len() {
        "all".into()
    } else {
        entry
            .platforms
            .iter()
            .cloned()
            .collect::<Vec<_>>()
            .join(", ")
    }
}

fn table(out: &mut String, entries: &BTreeMap<Id, Entry>, with_platforms: bool) {
    if with_platforms {
        out.push_str(
            "| crate | version | license | platforms | source |\n| --- | --- | --- | --- | --- |\n",
        );
    } else {
        out.push_str("| crate | version | license | source |\n| --- | --- | --- | --- |\n");
    }
    for ((name, version), e) in entries {
        let platforms = if with_platforms {
            format!(" {} |", platforms_text(e))
        } else {
            String::new()
        };
        out.push_str(&format!(
            "| {name} | {version} | {} |{platforms} {} |\n",
            e.license, e.source
        ));
    }
}

fn render(
    linked: &BTreeMap<Id, Entry>,
    standard: &BTreeMap<Id, Entry>,
    build_only: &BTreeMap<Id, Entry>,
    own: &[Id],
) -> String {
    let own_names: Vec<String> = own.iter().map(|(n, v)| format!("{n} {v}")).collect();
    let mut out = String::from("# Third-party notices\n\n");
    out.push_str(&format!(
        "The libraries in `bin/` are FastVariantCodec's crates ({}; MIT, see LICENSE) compiled \
         together with the crates below, and the Rust standard library. This file was written \
         by `cargo xtask package` from `cargo tree` and `cargo metadata`.\n\n",
        own_names.join(", ")
    ));
    out.push_str("## Crates compiled into the libraries\n\n");
    table(&mut out, linked, true);
    out.push_str(
        "\nThe `godot` crates (gdext, the Rust binding of Godot's GDExtension API) are under \
         the Mozilla Public License 2.0 (<https://mozilla.org/MPL/2.0/>), unmodified: their \
         source is on crates.io (the versions above) and at <https://github.com/godot-rust/gdext>.\n\n",
    );
    out.push_str("## The Rust standard library\n\n");
    out.push_str(
        "Compiled in too: the native library links the toolchain's prebuilt standard library, \
         the cross-built ones build it from the same version's source (`-Zbuild-std`).\n\n",
    );
    table(&mut out, standard, true);
    out.push_str("\n## Used to build the libraries, not compiled in\n\n");
    out.push_str(
        "Build scripts, procedural macros and gdext's code generator: the code they generate \
         (from Godot's extension API, in `gdextension-api`) is compiled in.\n\n",
    );
    table(&mut out, build_only, false);

    // The license files, each text once with the crates that ship it.
    let mut texts: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    let mut without: Vec<String> = Vec::new();
    for ((name, version), e) in linked.iter().chain(standard) {
        if e.files.is_empty() {
            without.push(format!("{name} {version} ({})", e.license));
        }
        for (file, text) in &e.files {
            texts
                .entry(text.as_str())
                .or_default()
                .push(format!("{name} {version}: {file}"));
        }
    }
    out.push_str("\n## License files of the crates compiled in\n\n");
    if !without.is_empty() {
        out.push_str(&format!(
            "These ship no license file; their license is the one named: {}.\n\n",
            without.join(", ")
        ));
    }
    for (text, shipped_by) in texts {
        out.push_str(&format!(
            "### {}\n\n```text\n{}\n```\n\n",
            shipped_by.join("; "),
            text.trim_end()
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_crate_without_a_license_is_refused() {
        let meta = serde_json::json!({"packages": [{
            "name": "nameless", "version": "1.0.0", "license": null, "source": "registry",
            "manifest_path": "/nonexistent/nameless/Cargo.toml", "repository": null
        }]});
        let mut entries = BTreeMap::new();
        let id = ("nameless".to_owned(), "1.0.0".to_owned());
        let refused = add(
            &mut entries,
            &id,
            &super::super::libraries()[0],
            &meta,
            Path::new("/rust-src"),
        );
        assert!(refused.unwrap_err().contains("declares no license"));
    }

    #[test]
    fn identical_license_texts_are_written_once() {
        let entry = |files: Vec<(String, String)>| Entry {
            license: "MIT".into(),
            source: "https://example.org".into(),
            platforms: BTreeSet::from(["linux.x86_64".to_owned()]),
            files,
        };
        let mit = ("LICENSE-MIT".to_owned(), "MIT text".to_owned());
        let linked = BTreeMap::from([
            (("a".into(), "1.0.0".into()), entry(vec![mit.clone()])),
            (("b".into(), "2.0.0".into()), entry(vec![mit])),
            (("c".into(), "3.0.0".into()), entry(vec![])),
        ]);
        let text = render(&linked, &BTreeMap::new(), &BTreeMap::new(), &[]);
        assert_eq!(text.matches("MIT text").count(), 1, "{text}");
        assert!(
            text.contains("### a 1.0.0: LICENSE-MIT; b 2.0.0: LICENSE-MIT"),
            "{text}"
        );
        assert!(
            text.contains("ship no license file; their license is the one named: c 3.0.0 (MIT)"),
            "{text}"
        );
        assert!(
            text.contains("| c | 3.0.0 | MIT | linux.x86_64 | https://example.org |"),
            "{text}"
        );
    }
}
