//! Runs the conformance suite (tests/conformance/godot4.v1.json) against this crate and the
//! Rust peer `godot-binary-serialization`, and prints their pass rates as a Markdown table.
//!
//! ```sh
//! cargo run --release --example conformance [-- SUITE] [--list-failures]
//! ```
//!
//! Criteria, each over the cases it applies to (tests/conformance/README.md):
//! verdict (accepted or rejected as the engine did), decoded size (of accepted cases),
//! re-encoding (of accepted cases whose value the engine re-encodes to fixed bytes),
//! text (`var_to_str` of accepted cases without objects; only this crate makes it).
//!
//! The peer runs in a child process of this one (`--peer-worker`), one case after the
//! other: a case that makes it abort or hang (a hostile length it allocates) counts as
//! failed everywhere, and the run goes on with the next case.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use godot_binary_serialization::decoder::Decoder as PeerDecoder;
use godot_binary_serialization::encoder::Encoder as PeerEncoder;
use godot_variant_codec::text::var_to_str;
use godot_variant_codec::{decode, encode, DecodeOptions, EncodeOptions};
use serde_json::Value as Json;

/// How long one case may take the peer.
const CASE_TIMEOUT: Duration = Duration::from_secs(10);

struct Case {
    name: String,
    bytes: Vec<u8>,
    allow_objects: bool,
    accepted: bool,
    decoded_size: Option<usize>,
    reencoded: Option<Vec<u8>>,
    text: Option<String>,
}

/// One implementation's result for one case: whether it accepted, and what it gave.
#[derive(Default)]
struct Outcome {
    accepted: bool,
    size: Option<usize>,
    reencoded: Option<Vec<u8>>,
    text: Option<String>,
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn load(path: &str) -> (String, Vec<Case>) {
    let suite: Json = serde_json::from_str(&std::fs::read_to_string(path).expect("the suite"))
        .expect("the suite is JSON");
    assert_eq!(suite["version"], 1, "a suite of version 1");
    let cases = suite["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .map(|c| Case {
            name: c["name"].as_str().unwrap_or_default().to_owned(),
            bytes: unhex(c["bytes"].as_str().unwrap()),
            allow_objects: c["allow_objects"].as_bool().unwrap(),
            accepted: c["verdict"] == "accept",
            decoded_size: c["decoded_size"].as_u64().map(|s| s as usize),
            reencoded: c["reencoded"].as_str().map(unhex),
            text: c["text"].as_str().map(str::to_owned),
        })
        .collect();
    (suite["engine"].as_str().unwrap_or("?").to_owned(), cases)
}

fn ours(case: &Case) -> Outcome {
    let opts = DecodeOptions::default().with_allow_objects(case.allow_objects);
    match decode(&case.bytes, &opts) {
        Ok((value, used)) => Outcome {
            accepted: true,
            size: Some(used),
            reencoded: encode(&value, &EncodeOptions::default()).ok(),
            text: Some(var_to_str(&value)),
        },
        Err(_) => Outcome::default(),
    }
}

fn peer(bytes: &[u8]) -> Outcome {
    match PeerDecoder::decode_variant(bytes) {
        Ok(value) => Outcome {
            accepted: true,
            size: Some(value.byte_length()),
            reencoded: PeerEncoder::encode_variant(&*value).ok(),
            text: None,
        },
        Err(_) => Outcome::default(),
    }
}

/// Pass counts of one implementation: (passed, applicable) per criterion.
#[derive(Default)]
struct Tally {
    verdict: (usize, usize),
    size: (usize, usize),
    reencoded: (usize, usize),
    text: (usize, usize),
    crashed: usize,
}

impl Tally {
    /// Counts the case; whether it passed every criterion that applies to it.
    fn add(&mut self, case: &Case, got: Option<&Outcome>) -> bool {
        let mut all = true;
        let mut count = |slot: &mut (usize, usize), ok: bool| {
            slot.0 += usize::from(ok);
            slot.1 += 1;
            all &= ok;
        };
        self.crashed += usize::from(got.is_none());
        let accepted = got.is_some_and(|o| o.accepted);
        count(
            &mut self.verdict,
            got.is_some() && accepted == case.accepted,
        );
        if case.accepted {
            let got = got.filter(|o| o.accepted);
            count(
                &mut self.size,
                got.is_some_and(|o| o.size == case.decoded_size),
            );
            if let Some(expected) = &case.reencoded {
                count(
                    &mut self.reencoded,
                    got.is_some_and(|o| o.reencoded.as_ref() == Some(expected)),
                );
            }
            if let Some(text) = &case.text {
                count(
                    &mut self.text,
                    got.is_some_and(|o| o.text.as_ref() == Some(text)),
                );
            }
        }
        all
    }

    fn row(&self, name: &str) -> String {
        let rate = |(passed, of): (usize, usize)| {
            if of == 0 {
                "n/a".to_owned()
            } else {
                format!("{:.1}% ({passed}/{of})", 100.0 * passed as f64 / of as f64)
            }
        };
        let text = if self.text.0 == 0 && name != "godot-variant-codec (this project)" {
            "not made".to_owned()
        } else {
            rate(self.text)
        };
        format!(
            "| {name} | {} | {} | {} | {text} | {} |",
            rate(self.verdict),
            rate(self.size),
            rate(self.reencoded),
            self.crashed
        )
    }
}

/// `--peer-worker FIRST`: the peer on every case from `FIRST` on, one line each:
/// `accepted size reencoded-hex` or `rejected`.
fn peer_worker(cases: &[Case], first: usize) {
    let mut out = std::io::stdout().lock();
    for case in &cases[first..] {
        let o = peer(&case.bytes);
        let line = if o.accepted {
            format!(
                "accepted {} {}",
                o.size.unwrap_or(usize::MAX),
                o.reencoded.as_deref().map_or("-".into(), hex)
            )
        } else {
            "rejected".to_owned()
        };
        writeln!(out, "{line}").expect("stdout");
        out.flush().expect("stdout");
    }
}

/// The peer's outcome of every case (`None`: it crashed or hung on that case).
fn run_peer(path: &str, cases: &[Case]) -> Vec<Option<Outcome>> {
    let mut outcomes: Vec<Option<Outcome>> = Vec::with_capacity(cases.len());
    while outcomes.len() < cases.len() {
        let first = outcomes.len();
        let mut child = Command::new(std::env::current_exe().expect("this program"))
            .args([path, "--peer-worker", &first.to_string()])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the peer worker starts");
        let (tx, rx) = mpsc::channel();
        let stdout = child.stdout.take().expect("piped");
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        loop {
            match rx.recv_timeout(CASE_TIMEOUT) {
                Ok(line) => {
                    let mut words = line.split(' ');
                    outcomes.push(Some(match words.next() {
                        Some("accepted") => Outcome {
                            accepted: true,
                            size: words.next().and_then(|s| s.parse().ok()),
                            reencoded: words.next().filter(|h| *h != "-").map(unhex),
                            text: None,
                        },
                        _ => Outcome::default(),
                    }));
                    if outcomes.len() == cases.len() {
                        break;
                    }
                }
                Err(_) => {
                    // It died or hangs on this case: that case failed; go on after it.
                    let _ = child.kill();
                    outcomes.push(None);
                    break;
                }
            }
        }
        let _ = child.kill();
        let _ = child.wait();
    }
    outcomes
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args
        .first()
        .filter(|a| !a.starts_with("--"))
        .cloned()
        .unwrap_or_else(|| {
            concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../tests/conformance/godot4.v1.json"
            )
            .into()
        });
    let (engine, cases) = load(&path);
    if let Some(at) = args.iter().position(|a| a == "--peer-worker") {
        let first = args.get(at + 1).and_then(|s| s.parse().ok()).unwrap_or(0);
        return peer_worker(&cases, first);
    }
    let mut mine = Tally::default();
    let mut failed = Vec::new();
    for case in &cases {
        if !mine.add(case, Some(&ours(case))) {
            failed.push(format!(
                "{} (allow_objects: {})",
                case.name, case.allow_objects
            ));
        }
    }
    if args.iter().any(|a| a == "--list-failures") {
        eprintln!("cases this crate fails:\n  {}", failed.join("\n  "));
    }
    let mut theirs = Tally::default();
    for (case, outcome) in cases.iter().zip(run_peer(&path, &cases)) {
        theirs.add(case, outcome.as_ref());
    }
    println!(
        "Conformance suite v1 ({} cases, made by Godot {engine})\n",
        cases.len()
    );
    println!("| implementation | verdict | decoded size | re-encoding | var_to_str text | crashed or hung |");
    println!("|---|---|---|---|---|---|");
    println!("{}", mine.row("godot-variant-codec (this project)"));
    println!("{}", theirs.row("godot-binary-serialization 0.2 (Rust)"));
}
