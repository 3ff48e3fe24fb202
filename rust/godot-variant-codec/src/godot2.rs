//! Godot 2's Image and InputEvent: the two Godot 2 types with no Godot 4 twin.
//!
//! They are read as Dictionaries of a documented form, so that every front end (the
//! [`Value`] model, GDScript through the binding, serde) holds them without a type of its
//! own, and a Dictionary of exactly that form is written back as the Godot 2 type, byte
//! for byte. The form's first key is [`TYPE_KEY`], naming the type:
//!
//! ```text
//! { "godot2_type": "Image", "format": int, "mipmaps": int, "width": int, "height": int,
//!   "data": PackedByteArray }
//! { "godot2_type": "InputEvent", "type": int, "device": int, <the type's fields> }
//! ```
//!
//! An InputEvent's fields, by its `type`: KEY (1) `"modifiers"`, `"scancode"`;
//! MOUSE_BUTTON (3) and JOYSTICK_BUTTON (5) `"button_index"`; JOYSTICK_MOTION (4)
//! `"axis"`, `"axis_value"` (a float); SCREEN_TOUCH (6) `"index"`; every other type none.
//! Nothing else of an event is in the format (pressed, positions, the action's name…).
//! Ints are the 32-bit words of the format; a Dictionary whose entries differ in any way
//! from the form (another key, a missing one, a value of another type or out of range)
//! is an ordinary Dictionary.

use crate::error::{DecodeError, DecodeErrorKind};
use crate::types::Godot2Type;
use crate::value::{ContainerType, Dictionary, Value};
use crate::wire::{padding, Reader, Sink};

/// The first key of a Dictionary that stands for a Godot 2 Image or InputEvent.
pub const TYPE_KEY: &str = "godot2_type";

/// Godot 2's `Image::FORMAT_MAX`: formats at or beyond it are refused.
pub const IMAGE_FORMAT_COUNT: u32 = 23;

/// Godot 2's InputEvent types.
pub mod event_type {
    pub const NONE: u32 = 0;
    pub const KEY: u32 = 1;
    pub const MOUSE_MOTION: u32 = 2;
    pub const MOUSE_BUTTON: u32 = 3;
    pub const JOYSTICK_MOTION: u32 = 4;
    pub const JOYSTICK_BUTTON: u32 = 5;
    pub const SCREEN_TOUCH: u32 = 6;
    pub const SCREEN_DRAG: u32 = 7;
    pub const ACTION: u32 = 8;
}

/// A Godot 2 Image, as the format carries it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Image {
    /// Godot 2's `Image::Format` (0 to 22).
    pub format: u32,
    pub mipmaps: u32,
    pub width: u32,
    pub height: u32,
    /// The pixel data, mipmaps included.
    pub data: Vec<u8>,
}

/// A Godot 2 InputEvent: the fields the format carries.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct InputEvent {
    /// The event type ([`event_type`]).
    pub event_type: u32,
    pub device: i32,
    /// The type's fields, in wire order: KEY: modifier mask, scancode; MOUSE_BUTTON,
    /// JOYSTICK_BUTTON: button index; JOYSTICK_MOTION: axis, then the axis value's bits
    /// (an `f32`); SCREEN_TOUCH: touch index.
    pub fields: EventFields,
}

/// An InputEvent's fields (see [`InputEvent::fields`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum EventFields {
    None,
    Key { modifiers: u32, scancode: u32 },
    ButtonIndex(i32),
    JoystickMotion { axis: i32, axis_value: f32 },
    TouchIndex(i32),
}

/// A Godot 2 value without a Godot 4 twin.
#[derive(Debug, Clone, PartialEq)]
pub enum Godot2Value {
    Image(Image),
    InputEvent(InputEvent),
}

impl EventFields {
    /// The fields an event of `event_type` carries, zeroed.
    fn of_type(event_type: u32) -> EventFields {
        use self::event_type as E;
        match event_type {
            E::KEY => EventFields::Key {
                modifiers: 0,
                scancode: 0,
            },
            E::MOUSE_BUTTON | E::JOYSTICK_BUTTON => EventFields::ButtonIndex(0),
            E::JOYSTICK_MOTION => EventFields::JoystickMotion {
                axis: 0,
                axis_value: 0.0,
            },
            E::SCREEN_TOUCH => EventFields::TouchIndex(0),
            _ => EventFields::None,
        }
    }

    /// The fields' names in the Dictionary form, in wire order.
    fn names(&self) -> &'static [&'static str] {
        match self {
            EventFields::None => &[],
            EventFields::Key { .. } => &["modifiers", "scancode"],
            EventFields::ButtonIndex(_) => &["button_index"],
            EventFields::JoystickMotion { .. } => &["axis", "axis_value"],
            EventFields::TouchIndex(_) => &["index"],
        }
    }

    /// The payload's size after the 12 bytes of type, device and length.
    fn size(&self) -> usize {
        4 * self.names().len()
    }
}

impl Godot2Value {
    /// Reads the payload (after the header) of a value of type `t`.
    pub(crate) fn read(r: &mut Reader<'_>, t: Godot2Type) -> Result<Godot2Value, DecodeError> {
        match t {
            Godot2Type::Image => read_image(r).map(Godot2Value::Image),
            Godot2Type::InputEvent => read_input_event(r).map(Godot2Value::InputEvent),
        }
    }

    /// Writes the payload (after the header).
    pub(crate) fn write_payload<S: Sink>(&self, sink: &mut S) {
        match self {
            Godot2Value::Image(image) => {
                sink.put([image.format, image.mipmaps, image.width, image.height]);
                sink.put(image.data.len() as u32);
                sink.put_bytes(&image.data);
                sink.put_zeros(padding(image.data.len()));
            }
            Godot2Value::InputEvent(event) => {
                let total = 12 + event.fields.size();
                sink.put([event.event_type, event.device as u32, total as u32]);
                match event.fields {
                    EventFields::None => {}
                    EventFields::Key {
                        modifiers,
                        scancode,
                    } => sink.put([modifiers, scancode]),
                    EventFields::ButtonIndex(i) | EventFields::TouchIndex(i) => sink.put(i),
                    EventFields::JoystickMotion { axis, axis_value } => {
                        sink.put(axis);
                        sink.put(axis_value);
                    }
                }
            }
        }
    }

    /// The type on the wire.
    pub fn godot2_type(&self) -> Godot2Type {
        match self {
            Godot2Value::Image(_) => Godot2Type::Image,
            Godot2Value::InputEvent(_) => Godot2Type::InputEvent,
        }
    }

    /// The value's Dictionary form (see the module docs).
    pub fn to_value(&self) -> Value {
        let mut entries = Vec::with_capacity(8);
        let mut put = |key: &str, value: Value| entries.push((Value::String(key.into()), value));
        match self {
            Godot2Value::Image(image) => {
                put(TYPE_KEY, Value::String("Image".into()));
                put("format", Value::Int(image.format.into()));
                put("mipmaps", Value::Int(image.mipmaps.into()));
                put("width", Value::Int(image.width.into()));
                put("height", Value::Int(image.height.into()));
                put("data", Value::PackedByteArray(image.data.clone()));
            }
            Godot2Value::InputEvent(event) => {
                put(TYPE_KEY, Value::String("InputEvent".into()));
                put("type", Value::Int(event.event_type.into()));
                put("device", Value::Int(event.device.into()));
                match event.fields {
                    EventFields::None => {}
                    EventFields::Key {
                        modifiers,
                        scancode,
                    } => {
                        put("modifiers", Value::Int(modifiers.into()));
                        put("scancode", Value::Int(scancode.into()));
                    }
                    EventFields::ButtonIndex(i) => put("button_index", Value::Int(i.into())),
                    EventFields::TouchIndex(i) => put("index", Value::Int(i.into())),
                    EventFields::JoystickMotion { axis, axis_value } => {
                        put("axis", Value::Int(axis.into()));
                        put("axis_value", Value::Float(axis_value.into()));
                    }
                }
            }
        }
        Value::Dictionary(Box::new(Dictionary {
            key_type: ContainerType::Untyped,
            value_type: ContainerType::Untyped,
            entries,
        }))
    }

    /// The Godot 2 value a Dictionary stands for, if it has exactly the documented form
    /// (see the module docs); `entries` are its keys and values in order.
    pub fn from_entries<'v>(
        entries: impl IntoIterator<Item = (&'v Value, &'v Value)>,
    ) -> Option<Godot2Value> {
        let mut entries = entries.into_iter();
        let (key, kind) = entries.next()?;
        if !matches!(key, Value::String(k) if k == TYPE_KEY) {
            return None;
        }
        let fields: Vec<(&str, &Value)> = entries
            .map(|(k, v)| match k {
                Value::String(k) => Some((k.as_str(), v)),
                _ => None,
            })
            .collect::<Option<_>>()?;
        let field = |name: &str| fields.iter().find(|(k, _)| *k == name).map(|(_, v)| *v);
        let int = |name: &str| match field(name)? {
            Value::Int(i) => Some(*i),
            _ => None,
        };
        let word = |name: &str| u32::try_from(int(name)?).ok();
        let signed = |name: &str| i32::try_from(int(name)?).ok();
        let value = match kind {
            Value::String(k) if k == "Image" => {
                let Value::PackedByteArray(data) = field("data")? else {
                    return None;
                };
                let image = Image {
                    format: word("format")?,
                    mipmaps: word("mipmaps")?,
                    width: word("width")?,
                    height: word("height")?,
                    data: data.clone(),
                };
                (image.format < IMAGE_FORMAT_COUNT && fields.len() == 5)
                    .then_some(Godot2Value::Image(image))?
            }
            Value::String(k) if k == "InputEvent" => {
                let event_type = word("type")?;
                let fields_of_type = match EventFields::of_type(event_type) {
                    EventFields::None => EventFields::None,
                    EventFields::Key { .. } => EventFields::Key {
                        modifiers: word("modifiers")?,
                        scancode: word("scancode")?,
                    },
                    EventFields::ButtonIndex(_) => {
                        EventFields::ButtonIndex(signed("button_index")?)
                    }
                    EventFields::TouchIndex(_) => EventFields::TouchIndex(signed("index")?),
                    EventFields::JoystickMotion { .. } => EventFields::JoystickMotion {
                        axis: signed("axis")?,
                        axis_value: match field("axis_value")? {
                            Value::Float(f) => *f as f32,
                            _ => return None,
                        },
                    },
                };
                if fields.len() != 2 + fields_of_type.names().len() {
                    return None;
                }
                Godot2Value::InputEvent(InputEvent {
                    event_type,
                    device: signed("device")?,
                    fields: fields_of_type,
                })
            }
            _ => return None,
        };
        Some(value)
    }
}

fn read_image(r: &mut Reader<'_>) -> Result<Image, DecodeError> {
    let at = r.consumed();
    let [format, mipmaps, width, height]: [u32; 4] = r.read("Image")?;
    if format >= IMAGE_FORMAT_COUNT {
        return Err(r.error_at(at, DecodeErrorKind::ImageFormat(format)));
    }
    let length: u32 = r.read("Image data length")?;
    let data = r.take(length as usize, "Image data")?.to_vec();
    r.skip_unchecked(padding(length as usize));
    if data.is_empty() {
        return Ok(Image::default());
    }
    Ok(Image {
        format,
        mipmaps,
        width,
        height,
        data,
    })
}

fn read_input_event(r: &mut Reader<'_>) -> Result<InputEvent, DecodeError> {
    let [event_type, device, _total]: [u32; 3] = r.read("InputEvent")?;
    let fields = match EventFields::of_type(event_type) {
        EventFields::None => EventFields::None,
        EventFields::Key { .. } => {
            let [modifiers, scancode]: [u32; 2] = r.read("InputEvent key")?;
            EventFields::Key {
                modifiers,
                scancode,
            }
        }
        EventFields::ButtonIndex(_) => EventFields::ButtonIndex(r.read("InputEvent button")?),
        EventFields::TouchIndex(_) => EventFields::TouchIndex(r.read("InputEvent touch")?),
        EventFields::JoystickMotion { .. } => {
            let axis = r.read("InputEvent axis")?;
            let axis_value = r.read("InputEvent axis value")?;
            EventFields::JoystickMotion { axis, axis_value }
        }
    };
    Ok(InputEvent {
        event_type,
        device: device as i32,
        fields,
    })
}
