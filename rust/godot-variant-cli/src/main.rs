//! `godot-variant`: look inside Godot's binary Variant data, convert it between Godot 2, 3
//! and 4, and write it back from JSON.
//!
//! ```text
//! godot-variant inspect [--json] [--framed | --raw] [--format 4|3|2] [--objects] FILE|-
//! godot-variant check [--all] [--framed | --raw] [--format 4|3|2] [--objects] FILE|-
//! godot-variant convert --from 3 [--to 4] [--framed | --raw] [--objects] IN|- OUT|-
//! godot-variant encode [--framed | --raw] [--format 4|3|2] [-o OUT] [FILE|-]
//! ```
//!
//! The values are read one at a time (`values`): memory follows the largest value, not
//! the input. Exit status: 0 when every value is valid, 1 when one is not (or the input
//! is neither layout, or `encode` meets a line it cannot write), 2 for bad usage or an
//! input or output that cannot be read or written. A closed stdout (`| head`) ends the
//! run quietly.

mod input;
mod json;
mod output;
mod values;

use std::io::BufRead;
use std::process::ExitCode;

use clap::{Arg, ArgAction, ArgMatches, Command};
use godot_variant_codec::migrate::{self, Report};
use godot_variant_codec::stream::frame_into;
use godot_variant_codec::text::var_to_str;
use godot_variant_codec::{encode_into, DecodeOptions, EncodeOptions, Generation, Precision};

use input::Input;
use output::{Fail, Output};
use values::{Event, Layout, Values};

/// `1 value`, `2 values`.
pub fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// `--framed` and `--raw`.
fn layout_args() -> [Arg; 2] {
    [
        Arg::new("framed")
            .long("framed")
            .action(ArgAction::SetTrue)
            .conflicts_with("raw")
            .help("The input is length-prefixed values (FileAccess.store_var, put_var)"),
        Arg::new("raw")
            .long("raw")
            .action(ArgAction::SetTrue)
            .help("The input is one var_to_bytes packet [neither: detected from the first value]"),
    ]
}

/// `--NAME 4|3|2`: a format generation.
fn format_arg(name: &'static str, help: &'static str) -> Arg {
    Arg::new(name)
        .long(name)
        .value_name("4|3|2")
        .value_parser(["4", "3", "2"])
        .help(help)
}

fn objects_arg() -> Arg {
    Arg::new("objects")
        .long("objects")
        .action(ArgAction::SetTrue)
        .help("Read whole objects (bytes_to_var_with_objects); else they are an error")
}

/// `command` reading values from FILE: with the layout, the format and `--objects`.
fn reading(command: Command) -> Command {
    command
        .args(layout_args())
        .arg(format_arg("format", "The format generation read").default_value("4"))
        .arg(objects_arg())
        .arg(
            Arg::new("FILE")
                .required(true)
                .help("The file, or - for stdin"),
        )
}

fn cli() -> Command {
    Command::new("godot-variant")
        .version(env!("CARGO_PKG_VERSION"))
        .about("Look inside Godot's binary Variant data (store_var files, put_var streams, var_to_bytes packets), convert it between Godot 2, 3 and 4, write it back from JSON")
        .subcommand_required(true)
        .after_help(
            "A FILE of - is stdin. Exit status: 0 every value valid, 1 a value is not (or the \
             input is neither layout), 2 bad usage or an input or output that cannot be read \
             or written.",
        )
        .subcommand(reading(
            Command::new("inspect")
                .about("Print each value: its byte offset and the text var_to_str gives for it")
                .arg(
                    Arg::new("json")
                        .long("json")
                        .action(ArgAction::SetTrue)
                        .help("One JSON object a line: {offset, size, type, text, value}; `encode` reads them back"),
                ),
        ))
        .subcommand(reading(
            Command::new("check")
                .about("Validate the input; report the first error, with its byte offset")
                .arg(
                    Arg::new("all")
                        .long("all")
                        .action(ArgAction::SetTrue)
                        .help("Read on past errors and report every one"),
                ),
        ))
        .subcommand(
            Command::new("convert")
                .about("Convert a file or packet to another format generation (a Godot 3 save to Godot 4…), reporting what did not carry over")
                .arg(format_arg("from", "The generation read").required(true))
                .arg(format_arg("to", "The generation written").default_value("4"))
                .args(layout_args())
                .arg(objects_arg())
                .arg(Arg::new("IN").required(true).help("The file read, or - for stdin"))
                .arg(Arg::new("OUT").required(true).help("The file written, or - for stdout")),
        )
        .subcommand(
            Command::new("encode")
                .about("Write the bytes of the values `inspect --json` printed (frames, or the packet)")
                .args(layout_args().map(|a| match a.get_id().as_str() {
                    "framed" => a.help("Write length-prefixed values [neither: from the first line's offset, 0 for a packet]"),
                    _ => a.help("Write one var_to_bytes packet"),
                }))
                .arg(format_arg("format", "The format generation written").default_value("4"))
                .arg(
                    Arg::new("output")
                        .short('o')
                        .long("output")
                        .value_name("OUT")
                        .help("The file written [default: stdout]"),
                )
                .arg(Arg::new("FILE").default_value("-").help("The JSON lines, or - for stdin")),
        )
}

fn main() -> ExitCode {
    let matches = match cli().try_get_matches() {
        Ok(matches) => matches,
        // Help and version: stdout, 0; a usage error: stderr, 2.
        Err(e) => {
            let code = e.exit_code();
            let _ = e.print();
            return ExitCode::from(code as u8);
        }
    };
    let (command, args) = matches.subcommand().expect("a subcommand is required");
    let mut out = Output::new();
    let result = match command {
        "inspect" => inspect(args, &mut out),
        "check" => check(args, &mut out),
        "convert" => convert(args, &mut out),
        _ => encode(args, &mut out),
    };
    match result.and_then(|ok| out.finish().map(|()| ok)) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(Fail::Pipe) => ExitCode::SUCCESS,
        Err(Fail::Data(message)) => {
            out.error(&message);
            ExitCode::from(1)
        }
        Err(Fail::Io(message)) => {
            out.error(&message);
            ExitCode::from(2)
        }
    }
}

fn generation(args: &ArgMatches, name: &str) -> Generation {
    args.get_one::<String>(name)
        .and_then(|n| Generation::from_number(n.parse().ok()?))
        .unwrap_or(Generation::GODOT_4)
}

fn layout(args: &ArgMatches) -> Option<Layout> {
    if args.get_flag("framed") {
        Some(Layout::Framed)
    } else if args.get_flag("raw") {
        Some(Layout::Raw)
    } else {
        None
    }
}

/// The values of the input named `arg`, read in generation `format`.
fn open(args: &ArgMatches, arg: &str, format: &str) -> Result<Values, Fail> {
    let path = args.get_one::<String>(arg).expect("required");
    let opts = DecodeOptions::default()
        .with_generation(generation(args, format))
        .with_allow_objects(args.get_flag("objects"));
    Values::open(Input::open(path)?, opts, layout(args))
}

fn inspect(args: &ArgMatches, out: &mut Output) -> Result<bool, Fail> {
    let json = args.get_flag("json");
    let mut values = open(args, "FILE", "format")?;
    let mut ok = true;
    while let Some(event) = values.next_event()? {
        match event {
            Event::Value {
                offset,
                size,
                value,
            } if json => out.line(&json::value_line(offset, size, &value))?,
            Event::Value { offset, value, .. } => {
                out.line(&format!("{offset}: {}", var_to_str(&value)))?
            }
            Event::Error { offset, message } => {
                ok = false;
                if json {
                    out.line(&json::error_line(offset, &message))?;
                } else {
                    out.error(&format!("{}: {message}", values.name()));
                }
            }
        }
    }
    Ok(ok)
}

fn check(args: &ArgMatches, out: &mut Output) -> Result<bool, Fail> {
    let all = args.get_flag("all");
    let mut values = open(args, "FILE", "format")?;
    let (mut count, mut errors) = (0, 0);
    while let Some(event) = values.next_event()? {
        match event {
            Event::Value { .. } => count += 1,
            Event::Error { message, .. } => {
                errors += 1;
                out.error(&format!("{}: {message}", values.name()));
                if !all {
                    return Ok(false);
                }
            }
        }
    }
    let name = values.name();
    if errors > 0 {
        out.error(&format!(
            "{name}: {}, {} read",
            plural(errors, "error"),
            plural(count, "value")
        ));
        return Ok(false);
    }
    let format = generation(args, "format");
    let layout = values.layout().describe();
    out.line(&format!(
        "{name}: ok, {}, {layout}, {format}",
        plural(count, "value")
    ))?;
    Ok(true)
}

fn convert(args: &ArgMatches, out: &mut Output) -> Result<bool, Fail> {
    let (from, to) = (generation(args, "from"), generation(args, "to"));
    let mut values = open(args, "IN", "from")?;
    let opts = EncodeOptions::default().with_generation(to);
    let mut sink = out.binary(args.get_one::<String>("OUT").expect("required"))?;
    let (mut index, mut changes) = (0, 0);
    let mut bytes = Vec::new();
    let mut report = Report::default();
    while let Some(event) = values.next_event()? {
        let value = match event {
            Event::Value { value, .. } => value,
            Event::Error { message, .. } => {
                return Err(Fail::Data(format!("{}: {message}", values.name())))
            }
        };
        bytes.clear();
        match values.layout() {
            Layout::Framed => migrate::convert_frame(value, index, &opts, &mut bytes, &mut report),
            Layout::Raw => migrate::convert_value(value, index, &opts, &mut bytes, &mut report),
        }
        for problem in report.problems.drain(..) {
            changes += 1;
            out.error(&format!("{}: {problem}", values.name()));
        }
        sink.write(&bytes)?;
        index += 1;
    }
    sink.commit()?;
    if changes > 0 {
        out.error(&format!(
            "{}: {} of {} from {from} to {to}, listed above",
            values.name(),
            plural(changes, "change"),
            plural(index, "value")
        ));
    }
    Ok(true)
}

fn encode(args: &ArgMatches, out: &mut Output) -> Result<bool, Fail> {
    let path = args.get_one::<String>("FILE").expect("defaulted");
    let reader: Box<dyn BufRead> = if path == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        let file =
            std::fs::File::open(path).map_err(|e| Fail::Io(format!("cannot read {path}: {e}")))?;
        Box::new(std::io::BufReader::new(file))
    };
    let target = args.get_one::<String>("output").map_or("-", String::as_str);
    let mut sink = out.binary(target)?;
    let opts = EncodeOptions::default().with_generation(generation(args, "format"));
    let mut layout = layout(args);
    let mut written = 0;
    let mut bytes = Vec::new();
    for (i, line) in reader.lines().enumerate() {
        let at = |message: String| Fail::Data(format!("{path}: line {}: {message}", i + 1));
        let line = line.map_err(|e| match e.kind() {
            std::io::ErrorKind::InvalidData => at("not UTF-8 text".into()),
            _ => Fail::Io(format!("cannot read {path}: {e}")),
        })?;
        if line.trim().is_empty() {
            continue;
        }
        let (value, offset, precision) = line_value(&line).map_err(at)?;
        let layout = *layout.get_or_insert(if offset == Some(0) {
            Layout::Raw
        } else {
            Layout::Framed
        });
        if layout == Layout::Raw && written > 0 {
            return Err(at(
                "a second value, but a packet holds one (--framed writes frames)".into(),
            ));
        }
        let opts = opts.with_precision(precision);
        bytes.clear();
        match layout {
            Layout::Framed => frame_into(&mut bytes, |out| encode_into(&value, out, &opts)),
            Layout::Raw => encode_into(&value, &mut bytes, &opts),
        }
        .map_err(|e| at(format!("cannot write the value: {e}")))?;
        sink.write(&bytes)?;
        written += 1;
    }
    sink.commit()?;
    Ok(true)
}

/// A line's value, its `offset` if it has one, and the precision of its math components.
fn line_value(line: &str) -> Result<(godot_variant_codec::Value, Option<u64>, Precision), String> {
    use json::Json;
    let members = match json::parse(line)? {
        Json::Object(members) => members,
        other => {
            return Err(format!(
                "expected an object ({{\"value\": …}}), found {}",
                other.kind()
            ))
        }
    };
    let get = |key: &str| members.iter().find(|(k, _)| k == key).map(|(_, v)| v);
    let offset = match get("offset") {
        Some(Json::Number(n)) => n.parse().ok(),
        _ => None,
    };
    let Some(value) = get("value") else {
        return Err(match get("error") {
            Some(Json::String(e)) => format!("inspect's error, with no value to write: {e}"),
            _ => "no \"value\"".to_owned(),
        });
    };
    let precision =
        match get("precision") {
            None => Precision::Single,
            Some(Json::String(p)) if p == "double" => Precision::Double,
            Some(Json::String(p)) if p == "single" => Precision::Single,
            Some(Json::String(p)) if p == "mixed" => return Err(
                "its math components are 32-bit and 64-bit, which one value cannot be written with"
                    .into(),
            ),
            Some(other) => {
                return Err(format!(
                    "\"precision\" is \"single\" or \"double\", not {}",
                    other.kind()
                ))
            }
        };
    let double = precision == Precision::Double;
    let value = json::value_from_json(value, double).map_err(|e| e.to_string())?;
    Ok((value, offset, precision))
}
