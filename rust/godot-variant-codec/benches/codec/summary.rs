//! The summary of a measuring run: each row's median and best time read back from
//! criterion's files, beside its baseline's, written as `summary.json` and `summary.md`.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use serde_json::{json, Value as Json};

/// What one benchmark processes per iteration, for the summary table.
pub(crate) struct Entry {
    pub(crate) group: &'static str,
    pub(crate) function: String,
    pub(crate) value: &'static str,
    pub(crate) bytes: u64,
    pub(crate) elements: u64,
    /// The benchmark this one is compared with (the peer crate, or memcpy), as `function/value`.
    pub(crate) baseline: Option<String>,
}

/// Where criterion writes its results: `$CRITERION_HOME`, else `<cargo target dir>/criterion`,
/// found as criterion finds it.
fn criterion_dir() -> PathBuf {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return home.into();
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .or_else(|| {
            let cargo = std::env::var_os("CARGO")?;
            let out = std::process::Command::new(cargo)
                .args(["metadata", "--format-version", "1", "--no-deps"])
                .output()
                .ok()?;
            let meta: Json = serde_json::from_slice(&out.stdout).ok()?;
            Some(meta["target_directory"].as_str()?.into())
        })
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target"));
    target.join("criterion")
}

fn read_json(path: &Path) -> Option<Json> {
    serde_json::from_slice(&std::fs::read(path).ok()?).ok()
}

/// Median and best (fastest sample) nanoseconds per iteration of one benchmark's last run,
/// if that run was not before `since`.
fn timings(dir: &Path, group: &str, id: &str, since: SystemTime) -> Option<(f64, f64)> {
    let new = dir.join(group).join(id).join("new");
    let modified = std::fs::metadata(new.join("estimates.json"))
        .ok()?
        .modified()
        .ok()?;
    if modified < since {
        return None;
    }
    let estimates = read_json(&new.join("estimates.json"))?;
    let median = estimates["median"]["point_estimate"].as_f64()?;
    let sample = read_json(&new.join("sample.json"))?;
    let iters = sample["iters"].as_array()?;
    let times = sample["times"].as_array()?;
    let best = iters
        .iter()
        .zip(times)
        .filter_map(|(n, t)| Some(t.as_f64()? / n.as_f64()?))
        .fold(f64::INFINITY, f64::min);
    Some((median, best))
}

/// Reads back the results of the benchmarks run since `since` and, when there are any,
/// writes `summary.json` and `summary.md` into `<criterion dir>/godot-variant-codec/` and
/// prints the table.
pub(crate) fn summarize(entries: &[Entry], notes: &[String], since: SystemTime) {
    let dir = criterion_dir();
    let mut rows = Vec::new();
    let mut table = String::from(
        "| benchmark | median ms | best ms | GB/s (best) | Melem/s (best) | vs baseline (median, best) |\n\
         |---|---:|---:|---:|---:|---|\n",
    );
    for e in entries {
        let id = if e.value.is_empty() {
            e.function.clone()
        } else {
            format!("{}/{}", e.function, e.value)
        };
        let Some((median, best)) = timings(&dir, e.group, &id, since) else {
            continue;
        };
        let baseline = e
            .baseline
            .as_ref()
            .and_then(|b| timings(&dir, e.group, b, since));
        // The baseline's time over ours: above 1, ours is faster.
        let ratio_median = baseline.map(|(m, _)| m / median);
        let ratio_best = baseline.map(|(_, b)| b / best);
        let gbps = e.bytes as f64 / best;
        let melems = e.elements as f64 * 1e3 / best;
        let vs = match (&e.baseline, ratio_median, ratio_best) {
            (Some(b), Some(m), Some(x)) if b.ends_with("memcpy") => {
                format!("{:.0}%, {:.0}% of memcpy's speed", 100.0 * m, 100.0 * x)
            }
            (Some(b), Some(m), Some(x)) => format!("{m:.1}×, {x:.1}× {b}"),
            _ => String::new(),
        };
        table.push_str(&format!(
            "| {}/{} | {:.3} | {:.3} | {:.2} | {:.1} | {} |\n",
            e.group,
            id,
            median / 1e6,
            best / 1e6,
            gbps,
            melems,
            vs
        ));
        rows.push(json!({
            "group": e.group,
            "id": id,
            "median_ns": median,
            "best_ns": best,
            "bytes": e.bytes,
            "elements": e.elements,
            "gb_per_s_median": e.bytes as f64 / median,
            "gb_per_s_best": gbps,
            "baseline": e.baseline,
            "speedup_median": ratio_median,
            "speedup_best": ratio_best,
        }));
    }
    if rows.is_empty() {
        return;
    }
    for n in notes {
        table.push_str(&format!("\n{n}\n"));
    }
    let out = dir.join("godot-variant-codec");
    let written = std::fs::create_dir_all(&out)
        .and_then(|()| {
            std::fs::write(
                out.join("summary.json"),
                serde_json::to_string_pretty(&json!({ "rows": rows, "notes": notes }))
                    .expect("plain JSON"),
            )
        })
        .and_then(|()| std::fs::write(out.join("summary.md"), &table));
    println!("\n{table}");
    match written {
        Ok(()) => println!("written to {}", out.display()),
        Err(e) => println!("could not write {}: {e}", out.display()),
    }
}
