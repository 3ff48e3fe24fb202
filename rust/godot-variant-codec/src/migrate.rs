//! Converting bytes from one generation of the format to another: a Godot 3 save file or
//! packet to Godot 4, say.
//!
//! Each value is read in the source generation (into Godot 4's model: a Godot 3 `Quat`
//! is a Quaternion, a `Spatial` a `Node3D`) and written in the target one. What the target
//! cannot hold — Godot 4's Vector2i, typed containers and the like, written for Godot 3 or
//! 2 — is written as null, and the [`Report`] says what and where: nothing is dropped
//! silently, and the rest of the value is carried over. Godot 3 and 2 values always fit
//! Godot 4 (a Godot 2 Image or InputEvent as its Dictionary form, see [`crate::godot2`]).

use crate::error::{DecodeError, PathKey};
use crate::stream::{frame_at, frame_into, FrameError, FrameErrorKind};
use crate::value::{ContainerType, Object, Value};
use crate::{decode_at, encode_into, DecodeOptions, EncodeOptions, Generation};

/// What a conversion could not carry over.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Report {
    /// Each value (or part of one) written as null or changed, in the order met.
    pub problems: Vec<Problem>,
}

/// One value the target generation cannot hold.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Problem {
    /// Which value of the input (0 for a packet; the value's place in a file).
    pub index: usize,
    /// Where in that value: `[2]["pos"]` (empty for the value itself).
    pub path: String,
    /// What was there and what became of it.
    pub message: String,
}

impl Report {
    /// Nothing was lost.
    pub fn is_clean(&self) -> bool {
        self.problems.is_empty()
    }

    fn push(&mut self, index: usize, path: String, message: String) {
        self.problems.push(Problem {
            index,
            path,
            message,
        });
    }
}

/// `value 0 at [1]["pos"]: …`: which value, where in it, what became of it.
impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let at = if self.path.is_empty() { "" } else { " at " };
        write!(f, "value {}{at}{}: {}", self.index, self.path, self.message)
    }
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.problems.is_empty() {
            return f.write_str("every value carried over");
        }
        self.problems.iter().try_for_each(|p| writeln!(f, "{p}"))
    }
}

/// One value in `bytes` (a packet, as `var2bytes` writes it), read in `from`'s
/// generation and written in `to`'s. Bytes after the value are ignored, as in
/// `bytes_to_var`.
pub fn convert_packet(
    bytes: &[u8],
    from: &DecodeOptions,
    to: &EncodeOptions,
) -> Result<(Vec<u8>, Report), DecodeError> {
    let (value, _) = decode_at(bytes, 0, from)?;
    let mut report = Report::default();
    let mut out = Vec::new();
    convert_value(value, 0, to, &mut out, &mut report);
    Ok((out, report))
}

/// Every value of a file written with `store_var` (or a stream of `put_var`: each value
/// after its 32-bit length), read in `from`'s generation and written, framed the same
/// way, in `to`'s.
pub fn convert_frames(
    bytes: &[u8],
    from: &DecodeOptions,
    to: &EncodeOptions,
) -> Result<(Vec<u8>, Report), FrameError> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut report = Report::default();
    let mut offset = 0;
    let mut index = 0;
    while offset < bytes.len() {
        let fail = |kind| FrameError {
            index,
            frame_offset: offset,
            kind,
        };
        let frame = frame_at(bytes, offset).map_err(fail)?;
        let (value, _) = decode_at(frame.body, frame.body_offset, from)
            .map_err(|e| fail(FrameErrorKind::Invalid(e)))?;
        convert_frame(value, index, to, &mut out, &mut report);
        offset += frame.len;
        index += 1;
    }
    Ok((out, report))
}

/// One value, read from a packet in the source generation, written in `to`'s onto the end
/// of `out` as a packet; what did not carry over is added to `report` as value `index`.
/// Always writes a value: one the target cannot hold at all (its length beyond the format's,
/// its nesting too deep) is written as null, and reported. The step [`convert_packet`]
/// takes; a caller reading values one at a time (from a file too large to hold) takes it
/// for each.
pub fn convert_value(
    mut value: Value,
    index: usize,
    to: &EncodeOptions,
    out: &mut Vec<u8>,
    report: &mut Report,
) {
    carry_over(
        &mut value,
        to.generation,
        &mut Walk::new(index, &mut *report),
    );
    if let Err(e) = encode_into(&value, out, to) {
        report.push(index, String::new(), format!("written as null: {e}"));
        encode_into(&Value::Nil, out, to).expect("null is always written");
    }
}

/// Like [`convert_value`], for a value read from a frame: written framed (its 32-bit
/// length, then its bytes). The step [`convert_frames`] takes for each frame.
pub fn convert_frame(
    value: Value,
    index: usize,
    to: &EncodeOptions,
    out: &mut Vec<u8>,
    report: &mut Report,
) {
    // `convert_value` always writes a value; only a body the prefix cannot count fails.
    frame_into(out, |out| {
        convert_value(value, index, to, out, report);
        Ok::<_, crate::EncodeError>(())
    })
    .unwrap_or_else(|e| report.push(index, String::new(), e.to_string()));
}

/// Where the walk is: the value's index and the path to the current part.
struct Walk<'r> {
    index: usize,
    path: Vec<String>,
    report: &'r mut Report,
}

impl<'r> Walk<'r> {
    fn new(index: usize, report: &'r mut Report) -> Self {
        Walk {
            index,
            path: Vec::new(),
            report,
        }
    }

    fn note(&mut self, message: String) {
        let path = self.path.concat();
        self.report.push(self.index, path, message);
    }

    fn within<R>(&mut self, step: String, work: impl FnOnce(&mut Self) -> R) -> R {
        self.path.push(step);
        let result = work(self);
        self.path.pop();
        result
    }
}

/// Makes `value` writable in `to`: what it cannot hold becomes null (a typed container,
/// untyped, its elements kept), each change noted, also those the encoder makes itself
/// (Godot 2's floats narrowed to 32 bits, its objects written without payload).
fn carry_over(value: &mut Value, to: Generation, walk: &mut Walk<'_>) {
    let t = value.variant_type();
    if to.wire_id(t).is_none() {
        walk.note(format!("{t} has no {to} type: written as null"));
        *value = Value::Nil;
        return;
    }
    match value {
        Value::Array(a) => {
            if a.element_type != ContainerType::Untyped && !to.has_typed_containers() {
                walk.note(format!(
                    "typed Array has no {to} form: written untyped, its elements kept"
                ));
                a.element_type = ContainerType::Untyped;
            }
            for (i, item) in a.items.iter_mut().enumerate() {
                walk.within(format!("[{i}]"), |w| {
                    crate::StackRoom::CODEC.run(|| carry_over(item, to, w))
                });
            }
        }
        Value::Dictionary(d) => {
            let typed =
                d.key_type != ContainerType::Untyped || d.value_type != ContainerType::Untyped;
            if typed && !to.has_typed_containers() {
                walk.note(format!(
                    "typed Dictionary has no {to} form: written untyped, its entries kept"
                ));
                d.key_type = ContainerType::Untyped;
                d.value_type = ContainerType::Untyped;
            }
            for (key, item) in d.entries.iter_mut() {
                let step = PathKey::of(key).to_string();
                walk.within(format!("[{step}]"), |w| {
                    crate::StackRoom::CODEC.run(|| {
                        carry_over(key, to, w);
                        carry_over(item, to, w);
                    })
                });
            }
        }
        Value::Int(i) if !to.holds_int(*i) => {
            walk.note(format!(
                "int {i} has no {to} form (32 bits): written as null"
            ));
            *value = Value::Nil;
        }
        Value::Float(d) if to.narrows_float(*d) => {
            walk.note(format!("float {d} written as the nearest 32-bit float"));
        }
        Value::Object(Object::Id(_) | Object::Full(_)) if !to.has_object_payload() => {
            walk.note(format!(
                "Object has no {to} payload: written as the null Object"
            ));
        }
        Value::Object(Object::Full(full)) => {
            for (name, item) in full.properties.iter_mut() {
                walk.within(format!(".{name}"), |w| {
                    crate::StackRoom::CODEC.run(|| carry_over(item, to, w))
                });
            }
        }
        _ => {}
    }
}
