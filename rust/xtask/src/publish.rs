//! The publishing checks of `cargo xtask test`: the crates published (the pure crate and
//! the CLI) package and build from their `.crate` files, their `rust-version` is true of
//! every dependency in the lock file, and the pure crate's docs build without warnings.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use serde_json::Value;

use crate::process::{cargo, cargo_target_dir, run_echoing};
use crate::tally::Tally;

/// The workspace's published crates.
const PUBLISHED: [&str; 2] = ["godot-variant-codec", "godot-variant-cli"];

/// `cargo xtask publish`: the checks alone, ending with `N passed, N failed`.
pub fn alone() -> Result<(), String> {
    let mut tally = Tally::default();
    checks(&mut tally)?;
    println!("{} passed, {} failed", tally.passed, tally.failed);
    match tally.failed {
        0 => Ok(()),
        n => Err(format!("{n} failed")),
    }
}

/// Each check, one step.
pub fn checks(tally: &mut Tally) -> Result<(), String> {
    // Both at once: cargo verifies the CLI against the pure crate's `.crate`, which it
    // serves from a registry of its own (target/package/tmp-registry).
    // A fresh target directory: cargo takes a registry crate it built before for unchanged
    // (its name and version), so an earlier run's build of the pure crate would be linked.
    let verify_dir = cargo_target_dir().join("package-verify");
    let _ = std::fs::remove_dir_all(&verify_dir);
    forget_unpacked_packages()?;
    let mut package = cargo();
    package
        .args(["package", "--allow-dirty", "--target-dir"])
        .arg(&verify_dir);
    for name in PUBLISHED {
        package.args(["-p", name]);
    }
    let (ok, _) = run_echoing(&mut package)?;
    tally.step(
        "cargo package: the pure crate and the CLI package and build",
        ok,
    );

    let versions_ok = rust_versions().unwrap_or_else(|e| {
        eprintln!("rust-version: {e}");
        false
    });
    tally.step(
        "rust-version: no dependency in Cargo.lock needs a newer Rust than each crate says",
        versions_ok,
    );

    let (ok, _) = run_echoing(
        cargo()
            .args([
                "doc",
                "-p",
                "godot-variant-codec",
                "--no-deps",
                "--all-features",
            ])
            .env("RUSTDOCFLAGS", "-D warnings"),
    )?;
    tally.step("cargo doc -D warnings (the pure crate, every feature)", ok);
    Ok(())
}

/// Cargo verifies the CLI against the pure crate's `.crate`, unpacked under
/// `$CARGO_HOME/registry/src/` for its own registry, and reuses an unpacked copy of the
/// same name and version without reading the `.crate` again: a copy an earlier run left
/// would be built instead of the code packaged now. Those copies are removed first
/// (crates.io's, under `index.crates.io-*`, are left alone).
fn forget_unpacked_packages() -> Result<(), String> {
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| Path::new(&home).join(".cargo")))
        .ok_or("neither CARGO_HOME nor HOME is set")?;
    let Ok(registries) = std::fs::read_dir(cargo_home.join("registry/src")) else {
        return Ok(());
    };
    for registry in registries.flatten() {
        if registry
            .file_name()
            .to_string_lossy()
            .starts_with("index.crates.io")
        {
            continue;
        }
        for unpacked in std::fs::read_dir(registry.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            let name = unpacked.file_name().to_string_lossy().into_owned();
            if PUBLISHED.iter().any(|p| name.starts_with(&format!("{p}-"))) {
                std::fs::remove_dir_all(unpacked.path())
                    .map_err(|e| format!("{}: {e}", unpacked.path().display()))?;
            }
        }
    }
    Ok(())
}

/// Whether each published crate's `rust-version` is at least that of everything it
/// builds with (`cargo metadata`, every feature on): its dependencies of every kind, and
/// theirs but for their dev-dependencies. Prints each that is newer.
fn rust_versions() -> Result<bool, String> {
    let out = cargo()
        .args(["metadata", "--format-version", "1", "--all-features"])
        .output()
        .map_err(|e| format!("cannot run cargo metadata: {e}"))?;
    if !out.status.success() {
        return Err("cargo metadata failed".into());
    }
    let meta: Value = serde_json::from_slice(&out.stdout).map_err(|e| e.to_string())?;
    let packages: HashMap<&str, &Value> = meta["packages"]
        .as_array()
        .ok_or("no packages")?
        .iter()
        .filter_map(|p| Some((p["id"].as_str()?, p)))
        .collect();
    let deps: HashMap<&str, Vec<(&str, bool)>> = meta["resolve"]["nodes"]
        .as_array()
        .ok_or("no resolve graph")?
        .iter()
        .filter_map(|node| {
            let edges = node["deps"].as_array()?.iter().filter_map(|d| {
                let dev_only = d["dep_kinds"]
                    .as_array()?
                    .iter()
                    .all(|k| k["kind"].as_str() == Some("dev"));
                Some((d["pkg"].as_str()?, dev_only))
            });
            Some((node["id"].as_str()?, edges.collect()))
        })
        .collect();
    let mut all_ok = true;
    for name in PUBLISHED {
        let (id, package) = packages
            .iter()
            .find(|(_, p)| p["name"].as_str() == Some(name))
            .ok_or_else(|| format!("no package {name}"))?;
        let declared = package["rust_version"]
            .as_str()
            .ok_or_else(|| format!("{name} declares no rust-version"))?;
        let mut seen = HashSet::from([*id]);
        let mut pending = vec![(*id, true)];
        while let Some((at, with_dev)) = pending.pop() {
            for &(dep, dev_only) in deps.get(at).into_iter().flatten() {
                if (with_dev || !dev_only) && seen.insert(dep) {
                    pending.push((dep, false));
                }
            }
        }
        for dep in seen {
            let p = packages[dep];
            if let Some(needed) = p["rust_version"].as_str() {
                if version(needed) > version(declared) {
                    all_ok = false;
                    eprintln!(
                        "{name} says rust-version {declared}, but {} {} needs {needed}",
                        p["name"].as_str().unwrap_or("?"),
                        p["version"].as_str().unwrap_or("?")
                    );
                }
            }
        }
    }
    Ok(all_ok)
}

/// `1.88` or `1.88.0` as numbers, to compare.
fn version(text: &str) -> [u32; 3] {
    let mut parts = text.split('.').map(|p| p.parse().unwrap_or(0));
    [(); 3].map(|_| parts.next().unwrap_or(0))
}
