//! Where the project is, and how xtask runs a command: echoing its output as it comes and
//! keeping its lines for the counts.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread;

/// The repository's root: this crate is `rust/xtask` in it.
pub fn project_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("project dir exists")
}

/// Where cargo puts what it builds: `$CARGO_TARGET_DIR` when set (relative to the project),
/// else the project's `target/`.
pub fn cargo_target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) if !dir.is_empty() => project_dir().join(dir),
        _ => project_dir().join("target"),
    }
}

/// Runs a command, echoing its output, and returns the output lines and whether it succeeded.
pub fn run_echoing(cmd: &mut Command) -> Result<(bool, Vec<String>), String> {
    eprintln!("$ {cmd:?}");
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {cmd:?}: {e}"))?;
    let stderr = child.stderr.take().expect("piped");
    let err_lines = thread::spawn(move || {
        BufReader::new(stderr)
            .lines()
            .map_while(Result::ok)
            .inspect(|l| eprintln!("{l}"))
            .collect::<Vec<_>>()
    });
    let mut lines: Vec<String> = BufReader::new(child.stdout.take().expect("piped"))
        .lines()
        .map_while(Result::ok)
        .inspect(|l| println!("{l}"))
        .collect();
    lines.extend(err_lines.join().unwrap_or_default());
    let status = child.wait().map_err(|e| e.to_string())?;
    Ok((status.success(), lines))
}

/// Cargo (`$CARGO`, else `cargo` from `PATH`), run in the project's root.
pub fn cargo() -> Command {
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.current_dir(project_dir());
    cmd
}
