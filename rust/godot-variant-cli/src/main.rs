//! `godot-variant`: look inside Godot's binary Variant data.
//!
//! ```text
//! godot-variant inspect [--json] [--framed | --raw] FILE|-
//! godot-variant check [--framed | --raw] FILE|-
//! ```
//!
//! `inspect` prints each value of a `FileAccess.store_var` file, a `put_var` stream
//! (`--framed`: values after a 32-bit length each) or a single `var_to_bytes` packet
//! (`--raw`), detected when neither is given: its byte offset and exactly the text
//! Godot's `var_to_str` prints for it (`OFFSET: TEXT`), or with `--json` one JSON object a
//! line (see docs/RUST_KIT.md for the value mapping). `check` validates and reports the
//! first error. Exit status: 0 when every value is valid, 1 when one is not, 2 for a bad
//! invocation or an unreadable input.

mod json;

use std::io::{Read, Write};
use std::process::ExitCode;

use godot_variant_codec::stream::{announced_len, frame_at, FrameErrorKind, PREFIX_LEN};
use godot_variant_codec::text::var_to_str;
use godot_variant_codec::{decode_at, DecodeOptions, Value};

const USAGE: &str = "usage:
  godot-variant inspect [--json] [--framed | --raw] FILE|-
  godot-variant check [--framed | --raw] FILE|-

inspect  prints each value: its byte offset and the text var_to_str gives for it
         (--json: one JSON object a line, {offset, size, type, text, value})
check    validates the input and reports the first error with its byte offset
--framed the input is length-prefixed values (FileAccess.store_var, put_var)
--raw    the input is one var_to_bytes packet
         (neither: detected)";

/// How the input holds its values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Layout {
    Framed,
    Raw,
}

/// One value found in the input, or the error where one should have been.
struct Item {
    /// The value's first byte (after any length prefix).
    offset: usize,
    /// Its encoded length (a frame's body length; a packet's decoded size).
    size: usize,
    result: Result<Value, String>,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("godot-variant: {message}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> Result<ExitCode, String> {
    let (command, rest) = args.split_first().ok_or(USAGE)?;
    if matches!(command.as_str(), "-h" | "--help" | "help") {
        println!("{USAGE}");
        return Ok(ExitCode::SUCCESS);
    }
    let mut json = false;
    let mut layout = None;
    let mut path = None;
    for arg in rest {
        match arg.as_str() {
            "--json" if command == "inspect" => json = true,
            "--framed" => layout = Some(Layout::Framed),
            "--raw" => layout = Some(Layout::Raw),
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(ExitCode::SUCCESS);
            }
            _ if path.is_none() && (arg == "-" || !arg.starts_with('-')) => path = Some(arg),
            _ => return Err(format!("unexpected argument {arg:?}\n{USAGE}")),
        }
    }
    let path = path.ok_or(USAGE)?;
    let bytes = read_input(path)?;
    let (layout, items) = match layout {
        Some(layout) => (layout, items(&bytes, layout)),
        None => detect(&bytes),
    };
    let out = std::io::stdout();
    let mut out = std::io::BufWriter::new(out.lock());
    let result = match command.as_str() {
        "inspect" => inspect(&mut out, &items, json),
        "check" => check(&mut out, &items, layout, path),
        _ => return Err(USAGE.into()),
    };
    let ok = result
        .and_then(|ok| out.flush().map(|()| ok))
        .map_err(|e| format!("cannot write the output: {e}"))?;
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn read_input(path: &str) -> Result<Vec<u8>, String> {
    if path == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| format!("cannot read stdin: {e}"))?;
        Ok(bytes)
    } else {
        std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))
    }
}

fn opts() -> DecodeOptions {
    DecodeOptions::default()
}

/// Framed when the input is whole frames holding valid values; else raw when it is one
/// valid value; else framed when it is whole frames (some invalid), else raw unless its
/// first word reads as a length that fits. With the values, decoded once: those the
/// detection decoded when they are the input's.
fn detect(bytes: &[u8]) -> (Layout, Vec<Item>) {
    let (framed, tiles) = frames(bytes);
    if tiles && framed.iter().all(|i| i.result.is_ok()) {
        return (Layout::Framed, framed);
    }
    if let Ok((value, used)) = decode_at(bytes, 0, &opts()) {
        if used >= bytes.len() {
            let item = Item {
                offset: 0,
                size: used,
                result: Ok(value),
            };
            return (Layout::Raw, vec![item]);
        }
    }
    if tiles || frame_at(bytes, 0).is_ok() {
        (Layout::Framed, framed)
    } else {
        (Layout::Raw, items(bytes, Layout::Raw))
    }
}

/// The values of the input, each decoded, as the engine's `get_var` and `bytes_to_var`
/// decode them (without objects).
fn items(bytes: &[u8], layout: Layout) -> Vec<Item> {
    if layout == Layout::Framed {
        return frames(bytes).0;
    }
    let (result, size) = match decode_at(bytes, 0, &opts()) {
        Ok((value, used)) => (Ok(value), used),
        Err(e) => (Err(e.to_string()), bytes.len()),
    };
    vec![Item {
        offset: 0,
        size,
        result,
    }]
}

/// The input's frames, each value decoded, and whether the frames cover it exactly.
fn frames(bytes: &[u8]) -> (Vec<Item>, bool) {
    let mut items = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        match frame_at(bytes, at) {
            Ok(frame) => {
                let result = decode_at(frame.body, frame.body_offset, &opts())
                    .map(|(value, _)| value)
                    .map_err(|e| e.to_string());
                items.push(Item {
                    offset: frame.body_offset,
                    size: frame.body.len(),
                    result,
                });
                at += frame.len;
            }
            Err(FrameErrorKind::Incomplete { .. }) => {
                let left = bytes.len() - at;
                let what = match announced_len(bytes, at) {
                    None => format!("{left} bytes of a 4-byte length prefix"),
                    Some(len) => format!(
                        "its length prefix announces {len} bytes, {} are left",
                        left - PREFIX_LEN
                    ),
                };
                items.push(Item {
                    offset: at,
                    size: 0,
                    result: Err(format!("truncated frame at byte {at}: {what}")),
                });
                return (items, false);
            }
            Err(FrameErrorKind::Invalid(e)) => {
                items.push(Item {
                    offset: at,
                    size: 0,
                    result: Err(e.to_string()),
                });
                return (items, false);
            }
        }
    }
    (items, true)
}

fn inspect(out: &mut impl Write, items: &[Item], json: bool) -> std::io::Result<bool> {
    let mut ok = true;
    for item in items {
        match &item.result {
            Ok(value) if json => {
                writeln!(out, "{}", json::value_line(item.offset, item.size, value))?
            }
            Ok(value) => writeln!(out, "{}: {}", item.offset, var_to_str(value))?,
            Err(e) => {
                ok = false;
                if json {
                    writeln!(out, "{}", json::error_line(item.offset, e))?;
                } else {
                    eprintln!("godot-variant: the value at byte {}: {e}", item.offset);
                }
            }
        }
    }
    Ok(ok)
}

fn check(
    out: &mut impl Write,
    items: &[Item],
    layout: Layout,
    path: &str,
) -> std::io::Result<bool> {
    match items
        .iter()
        .find_map(|i| i.result.as_ref().err().map(|e| (i.offset, e)))
    {
        Some((offset, e)) => {
            eprintln!("godot-variant: {path}: the value at byte {offset}: {e}");
            Ok(false)
        }
        None => {
            let what = match layout {
                Layout::Framed => "length-prefixed values (store_var / put_var)",
                Layout::Raw => "one var_to_bytes packet",
            };
            writeln!(out, "{path}: ok, {} values, {what}", items.len())?;
            Ok(true)
        }
    }
}
