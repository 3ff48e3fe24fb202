//! A Rust server for Godot clients: values over TCP (`StreamPeerTCP.put_var` /
//! `get_var`) and UDP (`PacketPeerUDP.put_var` / `get_var`), built on this crate.
//!
//! It is also the Rust half of the project's end-to-end test (`cargo xtask test`): the
//! GDScript half is `godot_project/e2e/client.gd`. Both sides build message `i` on their
//! own from `i` alone (nested Dictionaries and Arrays, every packed array type, every
//! math type, typed containers, a serde struct, large payloads, frames sent in small
//! pieces), and each checks every value it receives against the one it built:
//!
//! * client → server: message `i`, checked here (the serde messages as a `#[derive]`d
//!   struct, the others as [`Value`]s);
//! * server → client: a reply `{"ack": i, "echo": message i, "from_rust": message i + 3}`
//!   built here (the serde messages: the struct, moved on), checked by the client.
//!
//! ```sh
//! cargo run --release --example godot_server -- [--count N] [--deadline-secs S]
//! ```
//!
//! It listens on 127.0.0.1 on ephemeral ports, prints `listening tcp=PORT udp=PORT`,
//! serves one TCP client and `N` UDP messages (1000 each by default), prints a summary
//! and exits: 0 when every message was as expected, 1 otherwise, 3 when the deadline
//! (120 s by default) passed first.

use std::io::{Read, Write};
use std::net::{TcpListener, UdpSocket};
use std::process::exit;
use std::time::Duration;

use godot_variant_codec::io::{FrameReader, FrameWriter};
use godot_variant_codec::serde::{from_slice, to_vec, Color, PackedInt32Array, Vector2, Vector3};
use godot_variant_codec::stream::frame_into;
use godot_variant_codec::{
    decode, encode, Array, ContainerType, DecodeOptions, Dictionary, EncodeError, EncodeOptions,
    NodePath, PackedReals, Reals, Value, VariantType,
};
use serde::{Deserialize, Serialize};

/// Kinds of message, by `i % KINDS`.
const KINDS: usize = 8;
const KIND_SERDE: usize = 2;
const KIND_LARGE: usize = 4;
const KIND_PIECES: usize = 6;

fn main() {
    let mut count = 1000usize;
    let mut deadline = 120u64;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let value = args.next().and_then(|v| v.parse().ok());
        match (arg.as_str(), value) {
            ("--count", Some(n)) => count = n as usize,
            ("--deadline-secs", Some(s)) => deadline = s,
            _ => {
                eprintln!("usage: godot_server [--count N] [--deadline-secs S]");
                exit(2);
            }
        }
    }
    // Everything below is bounded by this watchdog, whatever the client does.
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_secs(deadline));
        eprintln!("godot_server: deadline of {deadline} s passed");
        exit(3);
    });

    let tcp = TcpListener::bind("127.0.0.1:0").expect("bind TCP");
    let udp = UdpSocket::bind("127.0.0.1:0").expect("bind UDP");
    println!(
        "listening tcp={} udp={}",
        tcp.local_addr().unwrap().port(),
        udp.local_addr().unwrap().port()
    );
    std::io::stdout().flush().ok();

    let tcp_thread = std::thread::spawn(move || serve_tcp(tcp, count));
    let udp_thread = std::thread::spawn(move || serve_udp(udp, count));
    let mut ok = true;
    for (name, thread) in [("tcp", tcp_thread), ("udp", udp_thread)] {
        match thread.join().expect("no panic") {
            Ok(summary) => println!("{name}: {summary}"),
            Err(e) => {
                println!("{name}: FAILED: {e}");
                ok = false;
            }
        }
    }
    exit(if ok { 0 } else { 1 });
}

/// Counts the calls to `read`, to tell which frames arrived in more than one.
struct CountingReader<R> {
    inner: R,
    reads: usize,
}

impl<R: Read> Read for CountingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.reads += 1;
        self.inner.read(buf)
    }
}

/// The first few mismatches, and how many there were.
#[derive(Default)]
struct Mismatches {
    count: usize,
    first: Vec<String>,
}

impl Mismatches {
    fn check(&mut self, i: usize, same: bool, detail: impl FnOnce() -> String) {
        if !same {
            self.count += 1;
            if self.first.len() < 3 {
                self.first.push(format!("message {i}: {}", detail()));
            }
        }
    }

    fn result(self, summary: String) -> Result<String, String> {
        if self.count == 0 {
            Ok(summary)
        } else {
            Err(format!(
                "{} mismatches; {}",
                self.count,
                self.first.join("; ")
            ))
        }
    }
}

fn serve_tcp(listener: TcpListener, count: usize) -> Result<String, String> {
    let (stream, _) = listener.accept().map_err(|e| e.to_string())?;
    stream.set_nodelay(true).map_err(|e| e.to_string())?;
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .map_err(|e| e.to_string())?;
    let mut writer = FrameWriter::new(stream.try_clone().map_err(|e| e.to_string())?);
    let mut reader = FrameReader::new(CountingReader {
        inner: stream,
        reads: 0,
    });
    let mut bad = Mismatches::default();
    let mut split = 0;
    for i in 0..count {
        let reads_before = reader.get_ref().reads;
        let frame = reader
            .read_frame()
            .map_err(|e| format!("message {i}: {e}"))?
            .ok_or_else(|| format!("the client closed after {i} messages"))?;
        let body = frame.body.to_vec();
        // A frame whose bytes took two reads or more arrived in pieces.
        split += usize::from(reader.get_ref().reads - reads_before >= 2);
        let reply = answer(i, &body, false, &mut bad)?;
        if i % KINDS == KIND_PIECES {
            // The reply in pieces of a few bytes, each sent on its own.
            let mut frame = Vec::new();
            frame_into(&mut frame, |out| {
                out.extend_from_slice(&reply);
                Ok::<_, EncodeError>(())
            })
            .map_err(|e| e.to_string())?;
            for piece in frame.chunks(1 + i % 5) {
                writer
                    .get_mut()
                    .write_all(piece)
                    .map_err(|e| e.to_string())?;
                std::thread::sleep(Duration::from_micros(200));
            }
        } else {
            writer.write_encoded(&reply).map_err(|e| e.to_string())?;
        }
    }
    // The client closes the connection after its last reply: the stream ends between
    // frames.
    if let Some(extra) = reader.read_value().map_err(|e| e.to_string())? {
        return Err(format!("a message past the last: {extra:?}"));
    }
    if split < count / KINDS {
        return Err(format!(
            "only {split} frames arrived in pieces, expected at least {}",
            count / KINDS
        ));
    }
    bad.result(format!(
        "{count} messages received and checked ({split} arrived in pieces), {count} replies sent"
    ))
}

fn serve_udp(socket: UdpSocket, count: usize) -> Result<String, String> {
    socket
        .set_read_timeout(Some(Duration::from_secs(30)))
        .map_err(|e| e.to_string())?;
    let mut buf = vec![0u8; 65536];
    let mut bad = Mismatches::default();
    for i in 0..count {
        let (len, from) = socket
            .recv_from(&mut buf)
            .map_err(|e| format!("waiting for message {i}: {e}"))?;
        let reply = answer(i, &buf[..len], true, &mut bad)?;
        socket.send_to(&reply, from).map_err(|e| e.to_string())?;
    }
    bad.result(format!(
        "{count} packets received and checked, {count} replies sent"
    ))
}

/// Checks message `i` (the bytes `body`) and returns the bytes of the reply.
fn answer(i: usize, body: &[u8], udp: bool, bad: &mut Mismatches) -> Result<Vec<u8>, String> {
    let opts = EncodeOptions::default();
    if i % KINDS == KIND_SERDE {
        let (player, _) = from_slice::<PlayerState>(body, &DecodeOptions::default())
            .map_err(|e| format!("message {i} as a PlayerState: {e}"))?;
        bad.check(i, player == PlayerState::new(i), || format!("{player:?}"));
        return to_vec(&player.moved_on(), &opts).map_err(|e| e.to_string());
    }
    let (value, _) =
        decode(body, &DecodeOptions::default()).map_err(|e| format!("message {i}: {e}"))?;
    let expected = message(i, udp);
    bad.check(i, value == expected, || format!("got {value:?}"));
    // The engine's bytes are this crate's bytes for the same value.
    let ours = encode(&expected, &opts).map_err(|e| e.to_string())?;
    bad.check(i, body == ours, || {
        let at = body.iter().zip(&ours).take_while(|(a, b)| a == b).count();
        format!("the engine's bytes differ from ours at byte {at}")
    });
    encode(&reply(i, value, udp), &opts).map_err(|e| e.to_string())
}

/// The reply to message `i`, whose value was `echo`.
fn reply(i: usize, echo: Value, udp: bool) -> Value {
    dict(vec![
        (s("ack"), Value::Int(i as i64)),
        (s("echo"), echo),
        (s("from_rust"), message(i + 3, udp)),
    ])
}

/// The serde messages: a `#[derive]`d struct, a Dictionary on the wire.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct PlayerState {
    id: i64,
    name: String,
    position: Vector2,
    velocity: Vector3,
    health: f64,
    tags: Vec<String>,
    inventory: Vec<Item>,
    color: Color,
    alive: bool,
    data: PackedInt32Array,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Item {
    kind: String,
    count: i32,
}

impl PlayerState {
    fn new(i: usize) -> Self {
        let f = i as f32;
        PlayerState {
            id: i as i64,
            name: format!("player-{i}"),
            position: Vector2 { x: f, y: f * 0.5 },
            velocity: Vector3 {
                x: 1.0,
                y: -f,
                z: 0.25,
            },
            health: 100.0 - i as f64 * 0.25,
            tags: vec![format!("t{i}"), "x".into()],
            inventory: vec![Item {
                kind: "gem".into(),
                count: (i % 7) as i32,
            }],
            color: Color {
                r: 0.5,
                g: 0.25,
                b: 1.0,
                a: 1.0,
            },
            alive: !i.is_multiple_of(3),
            data: PackedInt32Array(vec![i as i32, i as i32 + 1]),
        }
    }

    /// What the server sends back: the player one step on.
    fn moved_on(mut self) -> Self {
        let f = self.id as f32;
        self.position = Vector2 {
            x: f + 1.0,
            y: f * 0.5 - f,
        };
        self.health -= 1.0;
        self.tags.push("seen".into());
        self.inventory.push(Item {
            kind: "coin".into(),
            count: 1,
        });
        self
    }
}

fn s(text: &str) -> Value {
    Value::String(text.into())
}

fn dict(entries: Vec<(Value, Value)>) -> Value {
    Value::Dictionary(Box::new(Dictionary {
        entries,
        key_type: ContainerType::Untyped,
        value_type: ContainerType::Untyped,
    }))
}

fn array(items: Vec<Value>) -> Value {
    typed_array(ContainerType::Untyped, items)
}

fn typed_array(element_type: ContainerType, items: Vec<Value>) -> Value {
    Value::Array(Box::new(Array {
        element_type,
        items,
    }))
}

fn v2(x: f32, y: f32) -> Value {
    Value::Vector2(Reals::Single([x, y]))
}

/// Message `i` (the GDScript client's `message(i, udp)` builds the same): over UDP, the
/// kinds that only make sense on a stream (large, sent in pieces) are kind 0.
fn message(i: usize, udp: bool) -> Value {
    let mut kind = i % KINDS;
    if udp && (kind == KIND_LARGE || kind == KIND_PIECES) {
        kind = 0;
    }
    match kind {
        0 | KIND_PIECES => nested_containers(i),
        1 => packed_arrays(i),
        KIND_SERDE => player_state(i),
        3 => math_types(i),
        KIND_LARGE => large_payload(i),
        5 => typed_containers(i),
        _ => scalars(i),
    }
}

/// Kinds 0 and 6: Dictionaries and Arrays nested in each other.
fn nested_containers(i: usize) -> Value {
    let f = i as f64;
    dict(vec![
        (s("i"), Value::Int(i as i64)),
        (s("name"), s(&text(i))),
        (
            s("nested"),
            dict(vec![
                (
                    s("list"),
                    array(vec![
                        Value::Int(i as i64),
                        Value::Float(f / 8.0),
                        s("x"),
                        Value::Nil,
                        Value::Bool(true),
                    ]),
                ),
                (
                    s("deep"),
                    dict(vec![(
                        s("a"),
                        array(vec![array(vec![Value::Int(i as i64)]), dict(vec![])]),
                    )]),
                ),
            ]),
        ),
        (
            Value::StringName("tag".into()),
            v2((f * 0.1) as f32, -(i as f32)),
        ),
    ])
}

/// Kind 1: one of each packed array type.
fn packed_arrays(i: usize) -> Value {
    let n = i as i64;
    let f = i as f64;
    let f32_ = i as f32;
    array(vec![
        Value::PackedByteArray((0..i % 50).map(|k| ((k * 7 + i) % 256) as u8).collect()),
        Value::PackedInt32Array(vec![i as i32, -(i as i32), i32::MAX]),
        Value::PackedInt64Array(vec![n << 33, -1]),
        Value::PackedFloat32Array(vec![f32_ * 0.5, 0.1]),
        Value::PackedFloat64Array(vec![f * 0.1, -(f * 0.0)]),
        Value::PackedStringArray(vec!["a".into(), text(i), String::new()]),
        Value::PackedVector2Array(PackedReals::Single(vec![[f32_, 0.5]])),
        Value::PackedVector3Array(PackedReals::Single(vec![[1.0, 2.0, f32_]])),
        Value::PackedColorArray(vec![[0.5, 0.25, 1.0, 0.125]]),
        Value::PackedVector4Array(PackedReals::Single(vec![[f32_, 1.0, 2.0, 3.0]])),
    ])
}

/// Kind 2: the Dictionary that `PlayerState::new(i)` is on the wire.
fn player_state(i: usize) -> Value {
    let p = PlayerState::new(i);
    dict(vec![
        (s("id"), Value::Int(i as i64)),
        (s("name"), s(&p.name)),
        (s("position"), v2(p.position.x, p.position.y)),
        (
            s("velocity"),
            Value::Vector3(Reals::Single([1.0, -(i as f32), 0.25])),
        ),
        (s("health"), Value::Float(p.health)),
        (s("tags"), array(p.tags.iter().map(|t| s(t)).collect())),
        (
            s("inventory"),
            array(vec![dict(vec![
                (s("kind"), s("gem")),
                (s("count"), Value::Int((i % 7) as i64)),
            ])]),
        ),
        (s("color"), Value::Color([0.5, 0.25, 1.0, 1.0])),
        (s("alive"), Value::Bool(p.alive)),
        (s("data"), Value::PackedInt32Array(p.data.0)),
    ])
}

/// Kind 3: every math type, a NodePath, a StringName, an RID and big numbers.
fn math_types(i: usize) -> Value {
    let f = i as f64;
    let f32_ = i as f32;
    // Basis and Transform3D travel as rows; the client builds them from columns
    // (1, 0, i), (0, 1, 0), (0, 0, 1).
    let rows = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, f32_, 0.0, 1.0];
    let mut transform = [0.0; 12];
    transform[..9].copy_from_slice(&rows);
    transform[9..].copy_from_slice(&[f32_, 0.0, 1.0]);
    let mut projection = [0.0f32; 16];
    for (k, c) in projection.iter_mut().enumerate() {
        *c = k as f32 + f32_;
    }
    array(vec![
        v2((f * 0.1) as f32, 2.0),
        Value::Vector2i([i as i32, -(i as i32)]),
        Value::Rect2(Reals::Single([1.0, 2.0, f32_, 4.0])),
        Value::Rect2i([i as i32, 2, 3, 4]),
        Value::Vector3(Reals::Single([f32_, 0.1, 3.0])),
        Value::Vector3i([1, i as i32, 3]),
        Value::Transform2D(Box::new(Reals::Single([1.0, f32_, 0.5, 1.0, f32_, 7.0]))),
        Value::Vector4(Reals::Single([1.0, 2.0, 3.0, f32_])),
        Value::Vector4i([i as i32, 2, 3, 4]),
        Value::Plane(Reals::Single([1.0, 2.0, 4.0, f32_])),
        Value::Quaternion(Reals::Single([0.0, 0.0, 0.5, f32_])),
        Value::Aabb(Box::new(Reals::Single([1.0, 2.0, 3.0, f32_, 5.0, 6.0]))),
        Value::Basis(Box::new(Reals::Single(rows))),
        Value::Transform3D(Box::new(Reals::Single(transform))),
        Value::Projection(Box::new(Reals::Single(projection))),
        Value::Color([0.1, 0.2, 0.3, 1.0]),
        Value::NodePath(NodePath::new(
            ["root", "Main", &format!("Player{i}")],
            ["position", "x"],
            true,
        )),
        Value::StringName(format!("name{i}")),
        Value::Rid(i as u64 + 1),
        Value::Int((1 << 40) + i as i64),
        Value::Float(f * 0.1),
    ])
}

/// Kind 4 (TCP only): a PackedByteArray of 20 000 to 24 999 bytes and a 6000-byte String.
fn large_payload(i: usize) -> Value {
    array(vec![
        Value::PackedByteArray(
            (0..20_000 + (i * 13) % 5000)
                .map(|k| ((k * 31 + i) % 251) as u8)
                .collect(),
        ),
        s(&"é".repeat(3000)),
    ])
}

/// Kind 5: a typed Array and a typed Dictionary.
fn typed_containers(i: usize) -> Value {
    array(vec![
        typed_array(
            ContainerType::Builtin(VariantType::Int),
            vec![Value::Int(i as i64), Value::Int(2), Value::Int(3)],
        ),
        Value::Dictionary(Box::new(Dictionary {
            key_type: ContainerType::Builtin(VariantType::String),
            value_type: ContainerType::Builtin(VariantType::Float),
            entries: vec![
                (s("a"), Value::Float(i as f64 * 0.5)),
                (s("b"), Value::Float(1.0)),
            ],
        })),
        typed_array(ContainerType::Builtin(VariantType::String), vec![s("x")]),
    ])
}

/// Kind 7: nil, bools, ints, floats, a String, an empty StringName and NodePath, and a
/// Callable.
fn scalars(i: usize) -> Value {
    let n = i as i64;
    let f = i as f64;
    array(vec![
        Value::Nil,
        Value::Bool(true),
        Value::Bool(false),
        Value::Int(n),
        Value::Int(-n * 1_000_003),
        Value::Int((1 << 40) + n),
        Value::Float(f / 8.0),
        Value::Float(0.1 * f),
        s("ünïcødé 🎮"),
        Value::StringName(String::new()),
        Value::NodePath(NodePath::default()),
        Value::Callable,
    ])
}

fn text(i: usize) -> String {
    format!("msg-{i}-ü€🎮")
}
