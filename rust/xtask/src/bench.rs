//! `cargo xtask bench`: both benchmarks. The Godot project's engine-vs-codec tables (one
//! process, best of N; bench.gd's targets, shapes.gd's other shapes, call_cost.gd's cost of
//! a call) in each bench setting, memory.gd's peak memory (a process per call), and the
//! pure-Rust crate's criterion benches against the peer crate. The tables are printed and written to `target/bench/`, each headed by its
//! setting.

use std::path::{Path, PathBuf};

use crate::godot::{build_addon, godot, import_project};
use crate::process::{cargo, cargo_target_dir, project_dir, run_echoing};
use crate::setting::Setting;

/// One table: its heading, the table (`None` if the run made none) and the file it is
/// written to.
struct Table {
    title: String,
    table: Option<String>,
    file: PathBuf,
}

pub fn run() -> Result<(), String> {
    let dir = project_dir();
    let out = dir.join("target/bench");
    std::fs::create_dir_all(&out).map_err(|e| e.to_string())?;

    let rust_ok = cargo()
        .args(["bench", "-p", "godot-variant-codec", "--bench", "codec"])
        .status()
        .map_err(|e| e.to_string())?
        .success();
    let rust_table = cargo_target_dir().join("criterion/godot-variant-codec/summary.md");

    let godot = godot()?;
    build_addon()?;
    import_project(&godot)?;
    let mut godot_ok = true;
    let mut tables = Vec::new();
    for (setting, args, with_shapes) in runs() {
        godot_ok &= bench_table(&godot, &setting, args, &out, &mut tables)?;
        if with_shapes {
            godot_ok &= other_tables(&godot, &setting, &out, &mut tables)?;
        }
    }

    for setting in [
        Setting::default_paths(),
        Setting::safe_mode(),
        Setting::release_template(),
    ] {
        godot_ok &= memory_table(&godot, &setting, &out, &mut tables)?;
    }

    print_tables(&tables, &rust_table);
    (rust_ok && godot_ok)
        .then_some(())
        .ok_or_else(|| "a benchmark failed".into())
}

/// Each bench setting, bench.gd's arguments in it, and whether shapes.gd and call_cost.gd
/// run in it too. The whole table in each build and in safe mode; then the
/// PackedStringArray rows, whose strings the pool shares out, without the pool and beside
/// a busy core.
fn runs() -> [(Setting, Vec<String>, bool); 7] {
    let strings_only = || vec!["--only=PackedStringArray".to_owned()];
    [
        (Setting::default_paths(), vec![], true),
        (Setting::safe_mode(), vec![], true),
        (Setting::release_template(), vec![], true),
        (Setting::pool_off(false), strings_only(), false),
        (Setting::pool_off(true), strings_only(), false),
        (Setting::busy_core(false), strings_only(), false),
        (Setting::busy_core(true), strings_only(), false),
    ]
}

/// bench.gd's engine-vs-codec table in `setting`, which it writes to its file in `out`;
/// whether the run succeeded.
fn bench_table(
    godot: &Path,
    setting: &Setting,
    mut args: Vec<String>,
    out: &Path,
    tables: &mut Vec<Table>,
) -> Result<bool, String> {
    let build = setting.description();
    let bench_file = setting.table_file(out, "godot");
    let _ = std::fs::remove_file(&bench_file);
    args.push(format!("--out={}", bench_file.display()));
    args.extend(setting.args.iter().cloned());
    let mut cmd = setting.project_script(godot, "res://bench/bench.gd", "--bench", &args);
    let (ok, _) = run_echoing(&mut cmd)?;
    let table = std::fs::read_to_string(&bench_file).ok();
    tables.push(Table {
        title: format!("Godot ({build}): engine vs FastVariantCodec (same process)"),
        table,
        file: bench_file,
    });
    Ok(ok)
}

/// shapes.gd's and call_cost.gd's tables in `setting`, read from their output; whether
/// both runs succeeded.
fn other_tables(
    godot: &Path,
    setting: &Setting,
    out: &Path,
    tables: &mut Vec<Table>,
) -> Result<bool, String> {
    let build = setting.description();
    let mut all_ok = true;
    // Each script by name (its release-template entry and table file: the name with
    // dashes), what its table shows, and its table's header.
    let others = [
        ("shapes", "other shapes", "| shape |"),
        ("call_cost", "the cost of a call", "| call |"),
    ];
    for (name, what, header) in others {
        let script = format!("res://bench/{name}.gd");
        let dashed = name.replace('_', "-");
        let mut cmd = setting.project_script(godot, &script, &format!("--{dashed}"), &[]);
        let (ok, lines) = run_echoing(&mut cmd)?;
        all_ok &= ok;
        tables.push(Table {
            title: format!("Godot ({build}): {what} ({name}.gd)"),
            table: last_table(&lines, header),
            file: setting.table_file(out, &dashed),
        });
    }
    Ok(all_ok)
}

/// memory.gd's peak memory of each call, engine and codec, each in a fresh process in
/// `setting`; whether every run succeeded (a codec result that differs from the engine's
/// fails its run).
fn memory_table(
    godot: &Path,
    setting: &Setting,
    out: &Path,
    tables: &mut Vec<Table>,
) -> Result<bool, String> {
    let mib = |bytes: f64| bytes / f64::from(1 << 20);
    // The rows and calls as memory.gd lists them (`rows: A B`, `calls: C D`).
    let script = "res://bench/memory.gd";
    let mut list = setting.project_script(godot, script, "--memory", &["--list".into()]);
    let (listed, lines) = run_echoing(&mut list)?;
    let names = |label: &str| -> Vec<String> {
        lines
            .iter()
            .find_map(|l| l.strip_prefix(label))
            .map(|names| names.split_whitespace().map(str::to_owned).collect())
            .unwrap_or_default()
    };
    let (rows, calls) = (names("rows:"), names("calls:"));
    let mut all_ok = listed && !rows.is_empty() && !calls.is_empty();
    let mut table = String::from(
        "| value | call | engine MiB | codec MiB | codec / engine | engine ms | codec ms |\n\
         |---|---|---:|---:|---:|---:|---:|\n",
    );
    for row in &rows {
        for call in &calls {
            let mut measured = Vec::new();
            for side in ["engine", "codec"] {
                let args = [
                    format!("--row={row}"),
                    format!("--side={side}"),
                    format!("--call={call}"),
                ];
                let mut cmd = setting.project_script(godot, script, "--memory", &args);
                let (ok, lines) = run_echoing(&mut cmd)?;
                all_ok &= ok;
                let field = |name: &str| {
                    lines
                        .iter()
                        .find_map(|l| l.strip_prefix(name)?.trim().parse::<f64>().ok())
                        .unwrap_or(f64::NAN)
                };
                measured.push((field("peak:"), field("ms:")));
            }
            let [(engine, engine_ms), (codec, codec_ms)] = measured[..] else {
                unreachable!("two sides")
            };
            table += &format!(
                "| {row} | {call} | {:.0} | {:.0} | {:.2} | {engine_ms:.0} | {codec_ms:.0} |\n",
                mib(engine),
                mib(codec),
                codec / engine.max(1.0),
            );
        }
    }
    table += "\nPeak resident memory above the input, one fresh process per cell (memory.gd).\n";
    tables.push(Table {
        title: format!("Godot ({}): peak memory (memory.gd)", setting.description()),
        table: Some(table),
        file: setting.table_file(out, "memory"),
    });
    Ok(all_ok)
}

/// Writes each table to its file and prints it, then the Rust benches' summary.
fn print_tables(tables: &[Table], rust_table: &Path) {
    for Table { title, table, file } in tables {
        let table = table.as_deref().unwrap_or("(no table)\n");
        let labelled = format!("## {title}\n\n{table}");
        if let Err(e) = std::fs::write(file, &labelled) {
            eprintln!("cannot write {}: {e}", file.display());
        }
        println!("\n{labelled}");
    }
    println!("\n## Rust: godot-variant-codec (thread CPU time; see rust/godot-variant-codec/benches/README.md)\n");
    println!(
        "{}",
        std::fs::read_to_string(rust_table).unwrap_or_else(|_| "(no table)".into())
    );
}

/// A bench script's table from its output (shapes.gd prints each row as it goes, then the
/// whole table; each ends with a line on how it was timed): the last table whose header
/// starts with `header`, and that line.
fn last_table(lines: &[String], header: &str) -> Option<String> {
    let start = lines.iter().rposition(|l| l.starts_with(header))?;
    let mut table: Vec<&str> = lines[start..]
        .iter()
        .take_while(|l| l.starts_with('|'))
        .map(String::as_str)
        .collect();
    if let Some(note) = lines
        .get(start + table.len())
        .filter(|l| l.starts_with("Best of"))
    {
        table.extend(["", note]);
    }
    Some(table.join("\n") + "\n")
}
