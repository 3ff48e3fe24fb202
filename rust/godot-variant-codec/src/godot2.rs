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
//! Ints are the 32-bit words of the format (signed but for the Image's format, width and
//! height, and KEY's modifiers and scancode); a Dictionary whose entries differ in any
//! way from the form (another key, a missing one, a value of another type or out of
//! range) is an ordinary Dictionary. In range means a value Godot 2 holds, so that it
//! reads back as itself: an Image that is empty or that Godot 2 builds from its fields
//! ([`Image::is_valid`]), KEY modifiers within [`KEY_MODIFIER_MASK`]. The one change on
//! the way is `axis_value`'s: narrowed to 32 bits like every Godot 2 float, it reads back
//! as the nearest `f32`.

use crate::error::{DecodeError, DecodeErrorKind};
use crate::types::Godot2Type;
use crate::value::{ContainerType, Dictionary, Value};
use crate::wire::{padding, Reader, Sink};

/// The first key of a Dictionary that stands for a Godot 2 Image or InputEvent.
pub const TYPE_KEY: &str = "godot2_type";

/// Godot 2's `Image::FORMAT_MAX`: formats at or beyond it are refused.
pub const IMAGE_FORMAT_COUNT: u32 = 23;

/// Godot 2's `Image::FORMAT_CUSTOM`: data of any size.
pub const IMAGE_FORMAT_CUSTOM: u32 = 22;

/// Godot 2's `Image::MAX_WIDTH` and `MAX_HEIGHT`.
pub const IMAGE_MAX_SIZE: u32 = 16384;

/// The modifier bits of a KEY event Godot 2 keeps (`KEY_MASK_SHIFT`, `_ALT`, `_META`,
/// `_CTRL`, bits 25 to 28); it drops any other on reading.
pub const KEY_MODIFIER_MASK: u32 = 0xF << 25;

/// Godot 2's InputEvent types.
pub mod event_type {
    /// No event: no fields.
    pub const NONE: i32 = 0;
    /// A key: modifiers and scancode.
    pub const KEY: i32 = 1;
    /// Mouse motion: no fields in the format.
    pub const MOUSE_MOTION: i32 = 2;
    /// A mouse button: its index.
    pub const MOUSE_BUTTON: i32 = 3;
    /// A joystick axis: the axis and its value.
    pub const JOYSTICK_MOTION: i32 = 4;
    /// A joystick button: its index.
    pub const JOYSTICK_BUTTON: i32 = 5;
    /// A touch: its index.
    pub const SCREEN_TOUCH: i32 = 6;
    /// A drag: no fields in the format.
    pub const SCREEN_DRAG: i32 = 7;
    /// An action: no fields in the format (not even its name).
    pub const ACTION: i32 = 8;
}

/// The value of an entry of a Godot 2 value's Dictionary form.
#[derive(Debug, Clone, PartialEq)]
pub enum FormValue {
    /// A String: the type's name, under [`TYPE_KEY`].
    Text(&'static str),
    /// An int field.
    Int(i64),
    /// A float field (an InputEvent's `axis_value`).
    Float(f64),
    /// A PackedByteArray (an Image's data).
    Bytes(Vec<u8>),
}

impl From<FormValue> for Value {
    fn from(value: FormValue) -> Value {
        match value {
            FormValue::Text(text) => Value::String(text.into()),
            FormValue::Int(i) => Value::Int(i),
            FormValue::Float(f) => Value::Float(f),
            FormValue::Bytes(bytes) => Value::PackedByteArray(bytes),
        }
    }
}

/// A Godot 2 Image, as the format carries it. The default is Godot 2's empty image
/// (GRAYSCALE, no mipmaps, 0×0, no data), which is what it reads any image it cannot build.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Image {
    /// Godot 2's `Image::Format` (0 to 22).
    pub format: u32,
    /// Mip levels beyond the base level (a negative count is the whole chain down to the
    /// format's smallest level).
    pub mipmaps: i32,
    /// Width in pixels: 1 to [`IMAGE_MAX_SIZE`] in an image Godot 2 keeps, 0 in the empty one.
    pub width: u32,
    /// Height in pixels, likewise.
    pub height: u32,
    /// The pixel data, mipmaps included.
    pub data: Vec<u8>,
}

/// A Godot 2 InputEvent: the fields the format carries.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct InputEvent {
    /// The event type ([`event_type`]; any other value is an event without fields).
    pub event_type: i32,
    /// The device the event came from.
    pub device: i32,
    /// The type's fields, in wire order: KEY: modifier mask, scancode; MOUSE_BUTTON,
    /// JOYSTICK_BUTTON: button index; JOYSTICK_MOTION: axis, then the axis value's bits
    /// (an `f32`); SCREEN_TOUCH: touch index.
    pub fields: EventFields,
}

/// An InputEvent's fields (see [`InputEvent::fields`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum EventFields {
    /// No fields: every type but those below.
    None,
    /// KEY's fields.
    Key {
        /// The modifier bits, within [`KEY_MODIFIER_MASK`] (others are dropped when read).
        modifiers: u32,
        /// Godot 2's scancode of the key.
        scancode: u32,
    },
    /// MOUSE_BUTTON's or JOYSTICK_BUTTON's button index.
    ButtonIndex(i32),
    /// JOYSTICK_MOTION's fields.
    JoystickMotion {
        /// The axis.
        axis: i32,
        /// Where the axis stands.
        axis_value: f32,
    },
    /// SCREEN_TOUCH's touch index.
    TouchIndex(i32),
}

/// A Godot 2 value without a Godot 4 twin.
#[derive(Debug, Clone, PartialEq)]
pub enum Godot2Value {
    /// An `Image`.
    Image(Image),
    /// An `InputEvent`.
    InputEvent(InputEvent),
}

impl EventFields {
    /// The fields an event of `event_type` carries, zeroed.
    fn of_type(event_type: i32) -> EventFields {
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
                sink.put([
                    image.format,
                    image.mipmaps as u32,
                    image.width,
                    image.height,
                ]);
                sink.put(image.data.len() as u32);
                sink.put_bytes(&image.data);
                sink.put_zeros(padding(image.data.len()));
            }
            Godot2Value::InputEvent(event) => {
                let total = 12 + event.fields.size();
                sink.put([event.event_type, event.device, total as i32]);
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

    /// The value's Dictionary form (see the module docs): its entries, in order.
    pub fn form(&self) -> Vec<(&'static str, FormValue)> {
        use FormValue::{Bytes, Float, Int, Text};
        let mut entries = Vec::with_capacity(8);
        match self {
            Godot2Value::Image(image) => {
                entries.extend([
                    (TYPE_KEY, Text("Image")),
                    ("format", Int(image.format.into())),
                    ("mipmaps", Int(image.mipmaps.into())),
                    ("width", Int(image.width.into())),
                    ("height", Int(image.height.into())),
                    ("data", Bytes(image.data.clone())),
                ]);
            }
            Godot2Value::InputEvent(event) => {
                entries.extend([
                    (TYPE_KEY, Text("InputEvent")),
                    ("type", Int(event.event_type.into())),
                    ("device", Int(event.device.into())),
                ]);
                match event.fields {
                    EventFields::None => {}
                    EventFields::Key {
                        modifiers,
                        scancode,
                    } => entries.extend([
                        ("modifiers", Int(modifiers.into())),
                        ("scancode", Int(scancode.into())),
                    ]),
                    EventFields::ButtonIndex(i) => entries.push(("button_index", Int(i.into()))),
                    EventFields::TouchIndex(i) => entries.push(("index", Int(i.into()))),
                    EventFields::JoystickMotion { axis, axis_value } => entries.extend([
                        ("axis", Int(axis.into())),
                        ("axis_value", Float(axis_value.into())),
                    ]),
                }
            }
        }
        entries
    }

    /// The value's Dictionary form (see the module docs) as a [`Value`].
    pub fn to_value(&self) -> Value {
        let entries = self
            .form()
            .into_iter()
            .map(|(key, value)| (Value::String(key.into()), value.into()))
            .collect();
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
                    mipmaps: signed("mipmaps")?,
                    width: word("width")?,
                    height: word("height")?,
                    data: data.clone(),
                };
                (image.is_valid() && fields.len() == 5).then_some(Godot2Value::Image(image))?
            }
            Value::String(k) if k == "InputEvent" => {
                let event_type = signed("type")?;
                let fields_of_type = match EventFields::of_type(event_type) {
                    EventFields::None => EventFields::None,
                    EventFields::Key { .. } => EventFields::Key {
                        modifiers: word("modifiers").filter(|m| m & !KEY_MODIFIER_MASK == 0)?,
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
    let [format, mipmaps, width, height, length]: [u32; 5] = r.read("Image")?;
    if format >= IMAGE_FORMAT_COUNT {
        return Err(r.error_at(at, DecodeErrorKind::ImageFormat(format)));
    }
    // The length is an `int`: zero or less is the empty image, whatever the other fields say.
    let length = length as i32;
    if length <= 0 {
        r.skip_unchecked(counted_without_data(length));
        return Ok(Image::default());
    }
    let data = r.take(length as usize, "Image data")?;
    // Counted, but not checked to be there.
    r.skip_unchecked(padding(data.len()));
    let mipmaps = mipmaps as i32;
    if !can_create_image(format, mipmaps, width, height, data.len()) {
        return Ok(Image::default());
    }
    Ok(Image {
        format,
        mipmaps,
        width,
        height,
        data: data.to_vec(),
    })
}

impl Image {
    /// Whether Godot 2 holds an image of these fields: the empty image, or one its
    /// `Image::create` keeps (width and height from 1 to [`IMAGE_MAX_SIZE`], and but for
    /// the CUSTOM format exactly the data size the format needs for them and the mipmaps).
    /// Only such an image reads back as itself.
    pub fn is_valid(&self) -> bool {
        *self == Image::default()
            || (self.format < IMAGE_FORMAT_COUNT
                && can_create_image(
                    self.format,
                    self.mipmaps,
                    self.width,
                    self.height,
                    self.data.len(),
                ))
    }
}

/// The bytes Godot 2 counts after an Image's five words for a data length of 0 or less.
/// Its count of data and padding, `length + 4 - length % 4` (C's remainder; `length` for
/// a multiple of 4), is 4 for -3 to -1, 0 for 0 and -5 to -7, and less for any other
/// length, which would step back into the words: the codec never steps back, and counts 0.
fn counted_without_data(length: i32) -> usize {
    if (-3..=-1).contains(&length) {
        4
    } else {
        0
    }
}

/// Whether Godot 2's `Image::create` keeps an image of these fields and `length` bytes of
/// data: width and height from 1 to [`IMAGE_MAX_SIZE`], and, but for the CUSTOM format,
/// exactly the data size the format needs. Otherwise it keeps nothing, and the decoded
/// image is the empty one.
fn can_create_image(format: u32, mipmaps: i32, width: u32, height: u32, length: usize) -> bool {
    let fits = |side: u32| (1..=IMAGE_MAX_SIZE).contains(&side);
    fits(width)
        && fits(height)
        && (format == IMAGE_FORMAT_CUSTOM
            || i64::from(image_data_size(
                format,
                width as i32,
                height as i32,
                mipmaps,
            )) == length as i64)
}

/// The data size of a Godot 2 image (`Image::_get_dst_image_size`): the format's palette
/// (INDEXED 768, INDEXED_ALPHA 1024 bytes), then each level's `width × height × pixel size
/// >> shift`, from the base level down through `mipmaps` more, halving width and height
/// after each but not below the format's smallest level; a negative `mipmaps` is the
/// whole chain, down to the smallest level. Summed in 32 bits, wrapping, like the engine's
/// `int` (a long chain of smallest levels can pass `i32::MAX`; the levels are added in one
/// step once they stop shrinking). Called for sides of 1 to [`IMAGE_MAX_SIZE`], whose
/// levels fit in an `int`.
fn image_data_size(format: u32, width: i32, height: i32, mipmaps: i32) -> i32 {
    const BC1: u32 = 9;
    const BC4: u32 = 12;
    const BC5: u32 = 13;
    const PVRTC2: u32 = 14;
    const PVRTC2_ALPHA: u32 = 15;
    const PVRTC4: u32 = 16;
    const PVRTC4_ALPHA: u32 = 17;
    const ETC: u32 = 18;
    const ATC: u32 = 19;
    const ATC_ALPHA_INTERPOLATED: u32 = 21;
    let (palette, pixel_size) = match format {
        2 | 7 => (0, 2), // GRAYSCALE_ALPHA, YUV_422
        3 | 8 => (0, 3), // RGB, YUV_444
        4 => (0, 4),     // RGBA
        5 => (768, 1),   // INDEXED
        6 => (1024, 1),  // INDEXED_ALPHA
        _ => (0, 1),     // GRAYSCALE, INTENSITY, the compressed formats
    };
    let shift = match format {
        BC1 | BC4 | ATC | PVRTC4 | PVRTC4_ALPHA | ETC => 1,
        PVRTC2 | PVRTC2_ALPHA => 2,
        _ => 0,
    };
    let (min_width, min_height) = match format {
        BC1..=BC5 | ETC => (4, 4),
        PVRTC2 | PVRTC2_ALPHA => (16, 8),
        PVRTC4 | PVRTC4_ALPHA | ATC..=ATC_ALPHA_INTERPOLATED => (8, 8),
        _ => (1, 1),
    };
    let (mut w, mut h) = (width, height);
    let mut size: i32 = palette;
    let mut level = 0;
    loop {
        let level_size = w.wrapping_mul(h).wrapping_mul(pixel_size) >> shift;
        size = size.wrapping_add(level_size);
        if mipmaps >= 0 && level == mipmaps {
            return size;
        }
        if mipmaps < 0 && w == min_width && h == min_height {
            return size;
        }
        let next = (min_width.max(w >> 1), min_height.max(h >> 1));
        if mipmaps >= 0 && next == (w, h) {
            // The smallest level: each of the `mipmaps - level` still to come is this size.
            return size.wrapping_add(level_size.wrapping_mul(mipmaps - level));
        }
        (w, h) = next;
        level += 1;
    }
}

fn read_input_event(r: &mut Reader<'_>) -> Result<InputEvent, DecodeError> {
    let [event_type, device]: [i32; 2] = r.read("InputEvent")?;
    let fields = EventFields::of_type(event_type);
    if fields == EventFields::None {
        // The length word is never read: Godot 2 counts it without checking it is there.
        r.skip_unchecked(4);
    } else {
        let _length: u32 = r.read("InputEvent length")?;
    }
    let fields = match fields {
        EventFields::None => EventFields::None,
        EventFields::Key { .. } => {
            let [modifiers, scancode]: [u32; 2] = r.read("InputEvent key")?;
            EventFields::Key {
                modifiers: modifiers & KEY_MODIFIER_MASK,
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
        device,
        fields,
    })
}
