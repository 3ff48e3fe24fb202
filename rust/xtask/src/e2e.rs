//! The end-to-end test of `cargo xtask test`: the crate's example server
//! (rust/godot-variant-codec/examples/godot_server.rs) against the Godot client
//! (godot_project/e2e/client.gd), over TCP and UDP on 127.0.0.1, ephemeral ports.
//!
//! Bounded: the server stops itself after its deadline, the client's waits are bounded,
//! and both processes are killed if they outlive theirs here.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use crate::godot::godot;
use crate::process::{cargo, cargo_target_dir, project_dir};

/// Messages each way on each transport.
const MESSAGES: usize = 1000;
/// The server's own deadline, in seconds.
const SERVER_DEADLINE_S: u64 = 240;
/// How long the client may run.
const CLIENT_TIMEOUT: Duration = Duration::from_secs(200);
/// How long the server may take to finish after the client.
const SERVER_GRACE: Duration = Duration::from_secs(20);

/// Builds the server, runs it and the client, and tells whether both checked every
/// message (and exited in time).
pub fn run(project: &Path, godot: &Path, mut cargo: Command) -> Result<bool, String> {
    let built = cargo
        .args([
            "build",
            "--release",
            "--quiet",
            "-p",
            "godot-variant-codec",
            "--example",
            "godot_server",
        ])
        .status()
        .map_err(|e| e.to_string())?
        .success();
    if !built {
        return Err("building the example server failed".into());
    }
    let server_bin = cargo_target_dir().join("release/examples/godot_server");
    let mut server = Command::new(&server_bin)
        .args(["--count", &MESSAGES.to_string()])
        .args(["--deadline-secs", &SERVER_DEADLINE_S.to_string()])
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", server_bin.display()))?;
    let mut lines = BufReader::new(server.stdout.take().expect("piped")).lines();
    // The server prints its ports first (it exits by its deadline whatever happens).
    let first = lines.next().and_then(Result::ok).unwrap_or_default();
    let port = |name: &str| -> Option<String> {
        let field = first.split(' ').find_map(|f| f.strip_prefix(name))?;
        Some(field.to_owned())
    };
    let (Some(tcp), Some(udp)) = (port("tcp="), port("udp=")) else {
        let _ = server.kill();
        let _ = server.wait();
        return Err(format!("the server said {first:?}, not its ports"));
    };
    eprintln!("e2e: server listening on 127.0.0.1, TCP port {tcp}, UDP port {udp}");
    let server_output = thread::spawn(move || {
        for line in lines.map_while(Result::ok) {
            println!("server {line}");
        }
    });

    let mut client = Command::new(godot)
        .args(["--headless", "--path"])
        .arg(project.join("godot_project"))
        .args(["--script", "res://e2e/client.gd", "--"])
        .arg(format!("--tcp-port={tcp}"))
        .arg(format!("--udp-port={udp}"))
        .arg(format!("--count={MESSAGES}"))
        .spawn()
        .map_err(|e| format!("cannot start Godot: {e}"))?;
    let client_ok = wait_bounded(&mut client, CLIENT_TIMEOUT, "the Godot client");
    let server_ok = wait_bounded(&mut server, SERVER_GRACE, "the server");
    let _ = server_output.join();
    Ok(client_ok && server_ok)
}

/// Waits for `child` at most `limit`, killing it past that; whether it exited with 0.
fn wait_bounded(child: &mut Child, limit: Duration, what: &str) -> bool {
    let started = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                if !status.success() {
                    eprintln!("e2e: {what} exited with {status}");
                }
                return status.success();
            }
            Ok(None) if started.elapsed() < limit => thread::sleep(Duration::from_millis(50)),
            _ => {
                eprintln!("e2e: {what} did not finish within {limit:?}: killed");
                let _ = child.kill();
                let _ = child.wait();
                return false;
            }
        }
    }
}

/// `cargo xtask e2e`: the end-to-end step of `test`, alone.
pub fn alone() -> Result<(), String> {
    let ok = run(&project_dir(), &godot()?, cargo())?;
    ok.then_some(())
        .ok_or_else(|| "the end-to-end test failed".into())
}
