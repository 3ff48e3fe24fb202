//! The CLI's conventions, one test each: `--version` and `--help`; usage errors that say
//! what was wrong (exit 2); data errors that name the byte (exit 1); a quiet end on a
//! closed pipe; `--format` on every command; the layout detected or chosen, with the real
//! cause when neither reads; `check` stopping at the first error unless `--all`;
//! `convert`; `encode`'s errors; plurals.

mod support;

use std::io::Read;
use std::process::Stdio;

use godot_variant_codec::stream::encode_frame;
use godot_variant_codec::{EncodeOptions, Value};
use support::{bin, cli, frame, golden, scratch, stderr, stdout};

const INT_7: [u8; 8] = [2, 0, 0, 0, 7, 0, 0, 0];

fn path(p: &std::path::Path) -> &str {
    p.to_str().unwrap()
}

/// `convert --from FROM --to TO IN OUT`, with `stdin`.
fn convert(from: &str, to: &str, input: &str, output: &str, stdin: &[u8]) -> std::process::Output {
    cli(
        &["convert", "--from", from, "--to", to, input, output],
        stdin,
    )
}

#[test]
fn version_and_help_print_and_exit_0() {
    let out = cli(&["--version"], b"");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        stdout(&out),
        format!("godot-variant {}\n", env!("CARGO_PKG_VERSION"))
    );
    let out = cli(&["--help"], b"");
    assert_eq!(out.status.code(), Some(0));
    for command in ["inspect", "check", "convert", "encode", "Exit status"] {
        assert!(stdout(&out).contains(command), "{}", stdout(&out));
    }
    let out = cli(&["check", "--help"], b"");
    assert!(stdout(&out).contains("--all"), "{}", stdout(&out));
}

#[test]
fn usage_errors_say_what_was_wrong_and_exit_2() {
    for (args, said) in [
        (
            &["inspect"][..],
            "the following required arguments were not provided:\n  <FILE>",
        ),
        (&["frobnicate", "-"], "unrecognized subcommand 'frobnicate'"),
        (&[], "requires a subcommand"),
        (
            &["check", "--format", "5", "-"],
            "invalid value '5' for '--format <4|3|2>'",
        ),
        (
            &["inspect", "--framed", "--raw", "-"],
            "'--framed' cannot be used with '--raw'",
        ),
        (
            &["check", "--frobnicate", "-"],
            "unexpected argument '--frobnicate'",
        ),
        (
            &["convert", "--to", "3", "a", "b"],
            "not provided:\n  --from <4|3|2>",
        ),
        (
            &["check", "/no/such/file"],
            "cannot read /no/such/file: No such file",
        ),
    ] {
        let out = cli(args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(said), "{args:?}: {}", stderr(&out));
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn data_errors_name_the_byte_and_exit_1() {
    // A good frame, a frame of an unknown type, then a cut-off frame.
    let mut bytes = frame(&INT_7);
    bytes.extend(frame(&[0x7F, 0, 0, 0]));
    bytes.extend_from_slice(&[100, 0, 0, 0, 1, 2]);
    let out = cli(&["inspect", "--json", "-"], &bytes);
    assert_eq!(out.status.code(), Some(1));
    let lines: Vec<&str> = std::str::from_utf8(&out.stdout).unwrap().lines().collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(
        lines[0].contains(r#""text":"7","value":7}"#),
        "{}",
        lines[0]
    );
    assert_eq!(
        lines[1],
        r#"{"offset":16,"error":"the value at byte 16: unknown type id 127 at byte 16"}"#
    );
    assert_eq!(
        lines[2],
        r#"{"offset":20,"error":"truncated frame at byte 20: its length prefix announces 100 bytes, 2 are left"}"#
    );
    // The plain form: values on stdout, errors on stderr, naming the input.
    let out = cli(&["inspect", "-"], &bytes);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out), "4: 7\n");
    assert_eq!(
        stderr(&out),
        "godot-variant: -: the value at byte 16: unknown type id 127 at byte 16\n\
         godot-variant: -: truncated frame at byte 20: its length prefix announces 100 bytes, 2 are left\n"
    );
    // A whole object without --objects says how to read it.
    let object = [
        24, 0, 0, 0, 5, 0, 0, 0, b'N', b'o', b'd', b'e', 0, 0, 0, 0, 0, 0, 0, 0,
    ];
    let out = cli(&["check", "--raw", "-"], &object);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("objects are not allowed at byte 0 (--objects reads whole objects)"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        cli(&["check", "--raw", "--objects", "-"], &object)
            .status
            .code(),
        Some(0)
    );
}

#[test]
fn a_closed_pipe_ends_the_run_quietly() {
    // Far more output than a pipe holds: the CLI is still writing when the reader goes.
    let mut bytes = Vec::new();
    for i in 0..200_000 {
        encode_frame(&Value::Int(i), &mut bytes, &EncodeOptions::default()).unwrap();
    }
    let dir = scratch("pipe");
    let file = dir.join("ints.bin");
    std::fs::write(&file, &bytes).unwrap();
    for args in [&["inspect"][..], &["inspect", "--json"]] {
        let mut child = bin()
            .args(args)
            .arg(&file)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut head = [0; 16];
        child.stdout.take().unwrap().read_exact(&mut head).unwrap();
        // The read end is dropped: the CLI's next write fails with EPIPE.
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert_eq!(stderr(&out), "", "{args:?}");
    }
}

#[test]
fn every_command_reads_and_writes_each_format() {
    let save = golden("godot3/save-3.6.2.bin");
    let out = cli(&["check", "--format", "3", path(&save)], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out)
        .ends_with(": ok, 436 values, length-prefixed values (store_var / put_var), Godot 3\n"));
    let out = cli(&["inspect", "--format", "3", path(&save)], b"");
    assert!(
        stdout(&out).starts_with("4: null\n12: [null, null]\n"),
        "{}",
        stdout(&out)
    );
    // Godot 2: a Vector2 has Godot 2's id 5 too, a Color 14 (Godot 4: 20).
    let color = [
        14, 0, 0, 0, 0, 0, 128, 63, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 128, 63,
    ];
    let out = cli(&["inspect", "--format", "2", "-"], &color);
    assert_eq!(stdout(&out), "0: Color(1, 0, 0, 1)\n");
    // encode writes the generation asked for, and refuses what it has no type for.
    let out = cli(
        &["encode", "--format", "2", "--raw"],
        br#"{"value":{"Color":[1.0,0,0,1]}}"#,
    );
    assert_eq!(out.stdout, color);
    let out = cli(
        &["encode", "--format", "3"],
        br#"{"value":{"Vector2i":[1,2]}}"#,
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains(
            "line 1: cannot write the value: Vector2i cannot be written in the Godot 3 format"
        ),
        "{}",
        stderr(&out)
    );
    // convert: --from and --to.
    let dir = scratch("formats");
    let out = convert("2", "4", "-", path(&dir.join("c.bin")), &color);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(std::fs::read(dir.join("c.bin")).unwrap()[0], 20);
}

#[test]
fn the_layout_is_detected_or_chosen_and_the_real_cause_named() {
    // A packet, and the same value as a stream of one frame.
    assert_eq!(stdout(&cli(&["inspect", "-"], &INT_7)), "0: 7\n");
    assert_eq!(stdout(&cli(&["inspect", "-"], &frame(&INT_7))), "4: 7\n");
    assert_eq!(cli(&["check", "-"], b"").status.code(), Some(0));

    // A valid packet followed by 2 bytes: neither reading is clean, and both say why.
    let mut bytes = INT_7.to_vec();
    bytes.extend([1, 2]);
    let out = cli(&["inspect", "-"], &bytes);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "godot-variant: -: neither layout reads: as length-prefixed values (store_var / \
         put_var), the value at byte 4: truncated header at byte 4; as one var_to_bytes \
         packet, the int at byte 0 ends at byte 8, and 2 bytes follow it (bytes_to_var \
         ignores them); --framed or --raw reads it one way\n"
    );
    let out = cli(&["inspect", "--raw", "-"], &bytes);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out), "0: 7\n");
    assert!(stderr(&out).ends_with("-: the value at byte 0 ends at byte 8, and 2 bytes follow it (bytes_to_var ignores them)\n"));

    // A String packet whose length runs past the end: the packet's own reason is named.
    let string = [4, 0, 0, 0, 16, 0, 0, 0, b'a', b'b', b'c', b'd', b'e'];
    let detected = stderr(&cli(&["check", "-"], &string));
    let raw = stderr(&cli(&["check", "--raw", "-"], &string));
    let cause = "the value at byte 0: String length 16 exceeds the remaining 5 bytes at byte 4";
    assert!(
        detected.contains(&format!("as one var_to_bytes packet, {cause}")),
        "{detected}"
    );
    assert_eq!(raw, format!("godot-variant: -: {cause}\n"));

    // A Godot 3 save read as Godot 4: the frame that fails says which format reads it.
    let save = golden("godot3/save-3.6.2.bin");
    let out = cli(&["check", path(&save)], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).ends_with("(it reads as Godot 3: --format 3)\n"),
        "{}",
        stderr(&out)
    );

    // Chosen: a packet read as frames, a frame read as a packet.
    assert_eq!(
        cli(&["inspect", "--framed", "-"], &INT_7).status.code(),
        Some(1)
    );
    assert_eq!(
        cli(&["inspect", "--raw", "-"], &frame(&INT_7))
            .status
            .code(),
        Some(1)
    );
}

#[test]
fn check_stops_at_the_first_error_unless_all() {
    let mut bytes = frame(&INT_7);
    bytes.extend(frame(&[0x7F, 0, 0, 0]));
    bytes.extend(frame(&INT_7));
    bytes.extend(frame(&[0x7E, 0, 0, 0]));
    let out = cli(&["check", "-"], &bytes);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "godot-variant: -: the value at byte 16: unknown type id 127 at byte 16\n"
    );
    assert!(out.stdout.is_empty());
    let out = cli(&["check", "--all", "-"], &bytes);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "godot-variant: -: the value at byte 16: unknown type id 127 at byte 16\n\
         godot-variant: -: the value at byte 36: unknown type id 126 at byte 36\n\
         godot-variant: -: 2 errors, 2 values read\n"
    );
}

#[test]
fn convert_carries_a_godot_3_save_to_godot_4_and_reports_what_did_not_carry_over() {
    let dir = scratch("convert");
    let save = golden("godot3/save-3.6.2.bin");
    let godot4 = dir.join("save4.bin");
    let out = convert("3", "4", path(&save), path(&godot4), b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stderr(&out), "", "every value carries over to Godot 4");
    // The same values (the same text), now Godot 4 bytes; and back to the same file.
    let text3 = stdout(&cli(
        &["inspect", "--format", "3", "--json", path(&save)],
        b"",
    ));
    let text4 = stdout(&cli(&["inspect", "--json", path(&godot4)], b""));
    assert_eq!(text3.lines().count(), 436);
    // Each line but its offset (the values' sizes may differ: Godot 4's Color has its own id).
    let values = |t: &str| {
        t.lines()
            .map(|l| l[l.find(",\"type\"").unwrap()..].to_owned())
            .collect::<Vec<_>>()
    };
    assert_eq!(values(&text3), values(&text4));
    let back = dir.join("save3.bin");
    assert_eq!(
        convert("4", "3", path(&godot4), path(&back), b"")
            .status
            .code(),
        Some(0)
    );
    assert_eq!(std::fs::read(&back).unwrap(), std::fs::read(&save).unwrap());

    // To Godot 2: what it cannot hold is written as null and listed, value and place.
    let out = convert("4", "2", path(&godot4), "-", b"");
    assert_eq!(out.status.code(), Some(0));
    let report = stderr(&out);
    assert!(report.contains("value 428 at [2][-4413353507740749348]: int -4413353507740749348 has no Godot 2 form (32 bits): written as null"), "{report}");
    assert!(
        report.ends_with(" of 436 values from Godot 4 to Godot 2, listed above\n"),
        "{report}"
    );

    // A bad input converts to nothing: the output file is not touched.
    std::fs::write(dir.join("out.bin"), b"old").unwrap();
    let mut bad = frame(&INT_7);
    bad.extend(frame(&[0x7F, 0, 0, 0]));
    let out = convert("4", "3", "-", path(&dir.join("out.bin")), &bad);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("unknown type id 127"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read(dir.join("out.bin")).unwrap(), b"old");
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        3,
        "no file left behind"
    );
    // Converting a file onto itself.
    let same = dir.join("same.bin");
    std::fs::copy(&godot4, &same).unwrap();
    assert_eq!(
        convert("4", "3", path(&same), path(&same), b"")
            .status
            .code(),
        Some(0)
    );
    assert_eq!(std::fs::read(&same).unwrap(), std::fs::read(&save).unwrap());
}

#[test]
fn encode_says_which_line_it_cannot_write_and_why() {
    for (input, said) in [
        (
            &br#"{"offset":16,"error":"unknown type id 127"}"#[..],
            "-: line 1: inspect's error, with no value to write: unknown type id 127",
        ),
        (
            b"\n{\"value\": [1,}",
            "-: line 2: column 14: expected a JSON value, found '}'",
        ),
        (
            br#"{"offset":0,"value":1}
{"offset":8,"value":2}"#,
            "-: line 2: a second value, but a packet holds one (--framed writes frames)",
        ),
        (
            br#"{"value":{"Vector2":[1,2,3]}}"#,
            "-: line 1: value.Vector2: expected 2 components, found 3",
        ),
        (
            br#"{"value":1,"precision":"mixed"}"#,
            "-: line 1: its math components are 32-bit and 64-bit",
        ),
        (
            b"[1]",
            "-: line 1: expected an object ({\"value\": …}), found an array",
        ),
    ] {
        let out = cli(&["encode"], input);
        assert_eq!(out.status.code(), Some(1));
        assert!(stderr(&out).contains(said), "{said}: {}", stderr(&out));
    }
    // The layout follows the first offset: 0 is a packet, anything else (or none) frames.
    assert_eq!(cli(&["encode"], br#"{"offset":0,"value":7}"#).stdout, INT_7);
    assert_eq!(cli(&["encode"], br#"{"value":7}"#).stdout, frame(&INT_7));
    assert_eq!(
        cli(&["encode", "--raw"], br#"{"offset":4,"value":7}"#).stdout,
        INT_7
    );
}

#[test]
fn counts_are_plural_only_when_they_are() {
    assert_eq!(
        stdout(&cli(&["check", "-"], &frame(&INT_7))),
        "-: ok, 1 value, length-prefixed values (store_var / put_var), Godot 4\n"
    );
    let mut two = frame(&INT_7);
    two.extend(frame(&INT_7));
    assert!(stdout(&cli(&["check", "-"], &two)).starts_with("-: ok, 2 values,"));
    let mut one_more = INT_7.to_vec();
    one_more.push(0);
    assert!(stderr(&cli(&["check", "--raw", "-"], &one_more)).contains("and 1 byte follows it"));
    let cut = [6, 0, 0, 0, 2, 0, 0, 0, 1];
    assert!(
        stderr(&cli(&["check", "--framed", "-"], &cut)).contains("announces 6 bytes, 5 are left")
    );
    let cut = [5, 0, 0, 0, 2];
    assert!(
        stderr(&cli(&["check", "--framed", "-"], &cut)).contains("announces 5 bytes, 1 is left")
    );
}
