//! The values of the input, one at a time: each frame of a `store_var` file or `put_var`
//! stream, or the one value of a `var_to_bytes` packet, decoded as the engine's
//! `get_var` / `bytes_to_var` decode it; the layout chosen, or detected from the first
//! value. Only the value being read is held, never the input.

use std::collections::VecDeque;

use godot_variant_codec::error::{DecodeError, DecodeErrorKind};
use godot_variant_codec::stream::{announced_len, PREFIX_LEN};
use godot_variant_codec::{decode_at, DecodeOptions, Generation, Value};

use crate::input::Input;
use crate::output::Fail;
use crate::plural;

/// How the input holds its values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Values after a 32-bit length each (`FileAccess.store_var`, `StreamPeer.put_var`).
    Framed,
    /// One value (`var_to_bytes`, `PacketPeer.put_var`).
    Raw,
}

impl Layout {
    /// What `check` says the input is.
    pub fn describe(self) -> &'static str {
        match self {
            Layout::Framed => "length-prefixed values (store_var / put_var)",
            Layout::Raw => "one var_to_bytes packet",
        }
    }
}

/// A value found in the input, or what is wrong where one should be.
pub enum Event {
    /// A value: its first byte (after any length prefix) and its encoded length (a frame's
    /// body length; a packet's decoded size).
    Value {
        offset: usize,
        size: usize,
        value: Value,
    },
    /// What is wrong, and the byte it concerns.
    Error { offset: usize, message: String },
}

/// The input's values, read one at a time.
pub struct Values {
    input: Input,
    opts: DecodeOptions,
    layout: Layout,
    /// What detection read, decoded once.
    first: First,
    /// Events already found (by detection, or the second of a frame's two).
    pending: VecDeque<Event>,
    done: bool,
}

/// The frame at the start of the input's window, not consumed.
enum Frame {
    /// Nothing left.
    End,
    /// The input ends inside it (at its stream offset, with what is missing).
    Cut { offset: usize, message: String },
    /// Whole, `len` bytes of body after the prefix, decoded.
    Whole {
        len: usize,
        decoded: Result<(Value, usize), DecodeError>,
    },
}

/// The first frame or packet, read (and decoded) by detection and not yet consumed.
enum First {
    None,
    Frame(Frame),
    Packet(Result<(Value, usize), DecodeError>),
}

impl Values {
    /// The values of `input` in `layout`, or in the layout detected: framed when the first
    /// frame is whole and holds exactly one valid value, else raw when the input is exactly
    /// one valid value, else framed when the first frame holds a valid value and more; else
    /// a [`Fail::Data`] saying what each reading found.
    pub fn open(
        mut input: Input,
        opts: DecodeOptions,
        layout: Option<Layout>,
    ) -> Result<Values, Fail> {
        let (layout, first) = match layout {
            Some(layout) => (layout, First::None),
            None => detect(&mut input, &opts)?,
        };
        Ok(Values {
            input,
            opts,
            layout,
            first,
            pending: VecDeque::new(),
            done: false,
        })
    }

    /// The layout read.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// How messages name the input.
    pub fn name(&self) -> &str {
        &self.input.name
    }

    /// The next value or error; `None` at the end (or after an error that stops reading:
    /// a cut frame, an invalid packet). `Err` when the input cannot be read.
    pub fn next_event(&mut self) -> Result<Option<Event>, Fail> {
        if let Some(event) = self.pending.pop_front() {
            return Ok(Some(event));
        }
        if self.done {
            return Ok(None);
        }
        match self.layout {
            Layout::Framed => self.next_frame()?,
            Layout::Raw => self.packet()?,
        }
        Ok(self.pending.pop_front())
    }

    fn next_frame(&mut self) -> Result<(), Fail> {
        let at = self.input.offset();
        let frame = match std::mem::replace(&mut self.first, First::None) {
            First::Frame(frame) => frame,
            _ => read_frame(&mut self.input, &self.opts)?,
        };
        match frame {
            Frame::End => self.done = true,
            Frame::Cut { offset, message } => {
                self.pending.push_back(Event::Error { offset, message });
                self.done = true;
            }
            Frame::Whole { len, decoded } => {
                let body = &self.input.available()[PREFIX_LEN..PREFIX_LEN + len];
                let offset = at + PREFIX_LEN;
                match decoded {
                    Ok((value, used)) => {
                        self.pending.push_back(Event::Value {
                            offset,
                            size: len,
                            value,
                        });
                        if used < len {
                            self.pending.push_back(Event::Error {
                                offset: offset + used,
                                message: slack(offset, used, len),
                            });
                        }
                    }
                    Err(e) => {
                        let hint = hints(&e, body, &self.opts);
                        self.pending.push_back(Event::Error {
                            offset,
                            message: format!("the value at byte {offset}: {e}{hint}"),
                        });
                    }
                }
                self.input.consume(PREFIX_LEN + len);
            }
        }
        Ok(())
    }

    fn packet(&mut self) -> Result<(), Fail> {
        self.done = true;
        let packet = match std::mem::replace(&mut self.first, First::None) {
            First::Packet(packet) => packet,
            _ => read_packet(&mut self.input, &self.opts)?,
        };
        match packet {
            Ok((value, used)) => {
                self.pending.push_back(Event::Value {
                    offset: 0,
                    size: used,
                    value,
                });
                let held = self.input.available().len();
                self.input.consume(used.min(held));
                let after = self.input.skip_rest()?;
                if after > 0 {
                    self.pending.push_back(Event::Error {
                        offset: used,
                        message: trailing("the value", used, after),
                    });
                }
            }
            Err(e) => {
                let hint = hints(&e, self.input.available(), &self.opts);
                self.pending.push_back(Event::Error {
                    offset: 0,
                    message: format!("the value at byte 0: {e}{hint}"),
                });
            }
        }
        Ok(())
    }
}

/// The layout of the input, from its first value (see [`Values::open`]), and that value
/// as decoded (its bytes are left in the window).
fn detect(input: &mut Input, opts: &DecodeOptions) -> Result<(Layout, First), Fail> {
    let frame = read_frame(input, opts)?;
    let framed = match &frame {
        // An empty stream: no values.
        Frame::End => None,
        Frame::Whole {
            len,
            decoded: Ok((_, used)),
        } if used >= len => None,
        Frame::Whole {
            len,
            decoded: Ok((_, used)),
        } => Some(slack(PREFIX_LEN, *used, *len)),
        Frame::Whole {
            decoded: Err(e), ..
        } => Some(format!("the value at byte {PREFIX_LEN}: {e}")),
        Frame::Cut { message, .. } => Some(message.clone()),
    };
    let Some(framed) = framed else {
        return Ok((Layout::Framed, First::Frame(frame)));
    };
    let packet = read_packet(input, opts)?;
    match &packet {
        Ok((_, used)) => {
            input.fill(used + 1)?;
            if input.available().len() <= *used {
                return Ok((Layout::Raw, First::Packet(packet)));
            }
        }
        // Frames, the first with bytes its value leaves over, which reading reports.
        Err(_) if matches!(frame, Frame::Whole { decoded: Ok(_), .. }) => {
            return Ok((Layout::Framed, First::Frame(frame)))
        }
        Err(_) => {}
    }
    let hint = other_generation(input, opts)
        .map(reads_as)
        .unwrap_or_default();
    let raw = match packet {
        Ok((value, used)) => {
            // Nothing is consumed yet: the rest is the whole input.
            let after = input.skip_rest()? - used;
            trailing(&format!("the {}", value.variant_type()), used, after)
        }
        Err(e) => format!("the value at byte 0: {e}"),
    };
    Err(Fail::Data(format!(
        "{}: neither layout reads: as length-prefixed values (store_var / put_var), {framed}; \
         as one var_to_bytes packet, {raw}{hint}; --framed or --raw reads it one way",
        input.name
    )))
}

/// The generation other than the one read in which all of the input read so far reads
/// cleanly: whole frames each holding exactly one valid value (the last may be cut where
/// the input goes on), or, when that is the whole input, exactly one valid value.
fn other_generation(input: &Input, opts: &DecodeOptions) -> Option<Generation> {
    let bytes = input.available();
    let frames = |opts: &DecodeOptions| {
        let mut at = 0;
        while let Some(len) = announced_len(bytes, at) {
            match bytes.get(at + PREFIX_LEN..(at + PREFIX_LEN).checked_add(len)?) {
                Some(body) if exactly_one(body, opts) => at += PREFIX_LEN + len,
                Some(_) => return None,
                None => break,
            }
        }
        (at > 0 && (at == bytes.len() || !input.at_eof())).then_some(())
    };
    Generation::ALL
        .into_iter()
        .filter(|g| *g != opts.generation)
        .find(|g| {
            let opts = opts.with_generation(*g);
            frames(&opts).is_some() || (input.at_eof() && exactly_one(bytes, &opts))
        })
}

/// Whether `bytes` hold one valid value and nothing else.
fn exactly_one(bytes: &[u8], opts: &DecodeOptions) -> bool {
    decode_at(bytes, 0, opts).is_ok_and(|(_, used)| used >= bytes.len())
}

/// What may help with a value that did not decode: the generation it reads in, or the
/// option that accepts it.
fn hints(e: &DecodeError, bytes: &[u8], opts: &DecodeOptions) -> String {
    if matches!(e.kind, DecodeErrorKind::ObjectsNotAllowed) {
        return " (--objects reads whole objects)".into();
    }
    Generation::ALL
        .into_iter()
        .filter(|g| *g != opts.generation)
        .find(|g| exactly_one(bytes, &opts.with_generation(*g)))
        .map(reads_as)
        .unwrap_or_default()
}

/// ` (it reads as Godot 3: --format 3)`.
fn reads_as(g: Generation) -> String {
    format!(" (it reads as {g}: --format {})", g.number())
}

/// A frame's value that ends before its frame does.
fn slack(offset: usize, used: usize, len: usize) -> String {
    format!(
        "the value at byte {offset} ends at byte {}, {} before its frame does \
         (get_var ignores them)",
        offset + used,
        plural(len - used, "byte")
    )
}

/// Bytes after a packet's value (`what`: "the value", "the int"…).
fn trailing(what: &str, used: usize, after: usize) -> String {
    format!(
        "{what} at byte 0 ends at byte {used}, and {} {} it (bytes_to_var ignores them)",
        plural(after, "byte"),
        if after == 1 { "follows" } else { "follow" }
    )
}

/// Reads the frame at the start of the window (not consuming it).
fn read_frame(input: &mut Input, opts: &DecodeOptions) -> Result<Frame, Fail> {
    input.fill(PREFIX_LEN)?;
    let at = input.offset();
    let Some(len) = announced_len(input.available(), 0) else {
        let left = input.available().len();
        if left == 0 {
            return Ok(Frame::End);
        }
        return Ok(Frame::Cut {
            offset: at,
            message: format!(
                "truncated frame at byte {at}: {} of a 4-byte length prefix",
                plural(left, "byte")
            ),
        });
    };
    let cut = |left: usize| Frame::Cut {
        offset: at,
        message: format!(
            "truncated frame at byte {at}: its length prefix announces {}, {} left",
            plural(len, "byte"),
            match left {
                1 => "1 is".to_owned(),
                n => format!("{n} are"),
            }
        ),
    };
    let frame_len = PREFIX_LEN.saturating_add(len);
    // A regular file says at once whether the frame fits; only then is it read.
    if let Some(remaining) = input.remaining().filter(|r| *r < frame_len) {
        return Ok(cut(remaining - PREFIX_LEN));
    }
    input.fill(frame_len)?;
    let held = input.available().len();
    if held < frame_len {
        return Ok(cut(held - PREFIX_LEN));
    }
    let body = &input.available()[PREFIX_LEN..frame_len];
    Ok(Frame::Whole {
        len,
        decoded: decode_at(body, at + PREFIX_LEN, opts),
    })
}

/// Decodes the value at the start of the window (not consuming it), reading on while the
/// value runs past what is read: no more of the input is held than the value needs.
fn read_packet(
    input: &mut Input,
    opts: &DecodeOptions,
) -> Result<Result<(Value, usize), DecodeError>, Fail> {
    input.fill(1)?;
    loop {
        let decoded = decode_at(input.available(), input.offset(), opts);
        match &decoded {
            Err(e) if !input.at_eof() && runs_past_end(e) => {
                let more = input.available().len().saturating_mul(2);
                input.fill(more)?;
            }
            _ => return Ok(decoded),
        }
    }
}

/// An error more of the input may remove: the value runs past the bytes read.
fn runs_past_end(e: &DecodeError) -> bool {
    matches!(
        e.kind,
        DecodeErrorKind::Truncated(_)
            | DecodeErrorKind::StringPastEnd { .. }
            | DecodeErrorKind::CountPastEnd { .. }
    )
}
