//! Bounded memory: every command reads a 200 MB input one value at a time, in at most
//! 100 MB of RSS (the peak the kernel reports for the CLI's process, `wait4`'s
//! `ru_maxrss`). The inputs: 200 MB of zeros (one null and 199999996 bytes that are no
//! value, read to the end to count them), and a `store_var` file of 1.35 million
//! Dictionaries (also from stdin), also through `inspect --json` and back through
//! `encode`.

mod support;

use std::io::{Read, Write};
use std::path::Path;
use std::process::Stdio;

use godot_variant_codec::stream::encode_frame;
use godot_variant_codec::{Array, ContainerType, Dictionary, EncodeOptions, Reals, Value};
use support::{bin, scratch};

const INPUT: usize = 200_000_000;
const MAX_RSS_KIB: i64 = 100 * 1024;

/// The kernel's peak RSS of a child counts the memory it shared with this process until
/// its `exec`: this process never holds more than a few MiB, writing and comparing the
/// files in pieces.
const PIECE: usize = 1 << 20;

/// Runs the CLI with `args`, stdout into `stdout` (or nowhere), and returns its exit code
/// and peak RSS in KiB. An argument `<FILE` is not passed on: FILE is the CLI's stdin.
fn run(args: &[&str], stdout: Option<&Path>) -> (i32, i64) {
    let stdin = match args.iter().find_map(|a| a.strip_prefix('<')) {
        Some(file) => Stdio::from(std::fs::File::open(file).unwrap()),
        None => Stdio::null(),
    };
    let out = match stdout {
        Some(path) => Stdio::from(std::fs::File::create(path).unwrap()),
        None => Stdio::null(),
    };
    #[expect(
        clippy::zombie_processes,
        reason = "reaped by wait4 below, which gives its rusage"
    )]
    let child = bin()
        .args(args.iter().filter(|a| !a.starts_with('<')))
        .stdin(stdin)
        .stdout(out)
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: an all-zero `rusage` is a valid value of the plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is this process's child, not waited for yet (`child` is never waited
    // on); `status` and `usage` are valid for writes for the call.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid, "wait4: {}", std::io::Error::last_os_error());
    assert!(
        libc::WIFEXITED(status),
        "{args:?} ended by a signal: {status}"
    );
    (libc::WEXITSTATUS(status), usage.ru_maxrss)
}

fn player(i: usize) -> Value {
    let s = |t: &str| Value::String(t.into());
    let items = Value::Array(Box::new(Array {
        element_type: ContainerType::Untyped,
        items: vec![
            Value::Int(i as i64),
            Value::Float(i as f64 * 0.25),
            s("sword"),
        ],
    }));
    Value::Dictionary(Box::new(Dictionary {
        key_type: ContainerType::Untyped,
        value_type: ContainerType::Untyped,
        entries: vec![
            (s("name"), s(&format!("player_{i}"))),
            (
                s("pos"),
                Value::Vector2(Reals::Single([i as f32 * 0.5, -1.25])),
            ),
            (s("hp"), Value::Int((i % 100) as i64)),
            (s("items"), items),
        ],
    }))
}

fn same_bytes(a: &Path, b: &Path) -> bool {
    let (mut a, mut b) = (
        std::fs::File::open(a).unwrap(),
        std::fs::File::open(b).unwrap(),
    );
    let (mut x, mut y) = (vec![0; PIECE], vec![0; PIECE]);
    loop {
        let n = a.read(&mut x).unwrap();
        if n == 0 {
            return b.read(&mut y).unwrap() == 0;
        }
        if b.read_exact(&mut y[..n]).is_err() || x[..n] != y[..n] {
            return false;
        }
    }
}

#[test]
fn a_200_mb_input_runs_in_100_mb() {
    let dir = scratch("memory");
    let path = |name: &str| dir.join(name).to_str().unwrap().to_owned();
    let mut peaks = Vec::new();
    let mut check = |args: &[&str], stdout: Option<&Path>, code: i32| {
        let (exit, rss) = run(args, stdout);
        assert_eq!(exit, code, "{args:?}");
        assert!(rss <= MAX_RSS_KIB, "{args:?}: {rss} KiB");
        peaks.push(format!("{args:?}: {rss} KiB"));
    };

    let mut zeros = std::io::BufWriter::new(std::fs::File::create(path("zeros.bin")).unwrap());
    for _ in 0..INPUT / PIECE {
        zeros.write_all(&[0; PIECE]).unwrap();
    }
    zeros.write_all(&vec![0; INPUT % PIECE]).unwrap();
    drop(zeros);
    check(&["check", &path("zeros.bin")], None, 1);
    check(&["inspect", "--raw", &path("zeros.bin")], None, 1);
    std::fs::remove_file(path("zeros.bin")).unwrap();

    let mut file = std::io::BufWriter::new(std::fs::File::create(path("values.bin")).unwrap());
    let (mut count, mut written, mut frame) = (0, 0, Vec::new());
    while written < INPUT {
        frame.clear();
        encode_frame(&player(count), &mut frame, &EncodeOptions::default()).unwrap();
        file.write_all(&frame).unwrap();
        written += frame.len();
        count += 1;
    }
    drop(file);
    check(&["check", &path("values.bin")], None, 0);
    check(
        &["check", "--all", "-", &format!("<{}", path("values.bin"))],
        None,
        0,
    );
    check(
        &[
            "convert",
            "--from",
            "4",
            "--to",
            "3",
            &path("values.bin"),
            &path("values3.bin"),
        ],
        None,
        0,
    );
    std::fs::remove_file(path("values3.bin")).unwrap();
    let json = dir.join("values.json");
    check(&["inspect", "--json", &path("values.bin")], Some(&json), 0);
    assert!(std::fs::metadata(&json).unwrap().len() > INPUT as u64);
    check(
        &["encode", &path("values.json"), "-o", &path("back.bin")],
        None,
        0,
    );
    assert!(same_bytes(&dir.join("back.bin"), &dir.join("values.bin")));
    std::fs::remove_dir_all(&dir).unwrap();
    eprintln!("{count} values; peak RSS: {}", peaks.join(", "));
}
