//! The value model: one Rust type per Godot 4 `Variant::Type`, shaped like the wire.
//!
//! Floating-point math types keep the precision they were decoded with ([`Reals`],
//! [`PackedReals`]) so that decode → encode gives back the exact bits, NaN payloads
//! included, and packed vector arrays can be copied in bulk.

use crate::header::ContainerKind;
use crate::types::VariantType;

/// `N` real numbers (`real_t` in the engine), in the precision they arrived in.
///
/// Godot's math types (Vector2, Transform3D, …) use `real_t`, which is `float` in a
/// default build and `double` in a `precision=double` build; the wire marks the latter
/// with a flag. Keeping the wire precision avoids a lossy or NaN-quieting conversion
/// unless the value is encoded for the other precision.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Reals<const N: usize> {
    /// 32-bit components: a default build's (a header without the 64-bit flag).
    Single([f32; N]),
    /// 64-bit components: a `precision=double` build's (a flagged header).
    Double([f64; N]),
}

impl<const N: usize> Reals<N> {
    /// The components as `f64` (exact for single precision).
    pub fn to_f64(&self) -> [f64; N] {
        match self {
            Reals::Single(v) => v.map(Real::wide),
            Reals::Double(v) => *v,
        }
    }

    /// The components as `f32`, rounded as the engine rounds `double` to `float`.
    pub fn to_f32(&self) -> [f32; N] {
        match self {
            Reals::Single(v) => *v,
            Reals::Double(v) => v.map(Real::narrow),
        }
    }
}

/// One real number as an engine's `real_t` holds it: `f32` in a default build, `f64` in a
/// `precision=double` one. Each converts to the other precision as the engine converts:
/// widened exactly, narrowed to the nearest `float`.
pub trait Real: crate::wire::Plain + real_seal::Sealed {
    /// Whether this is the double precision (what the wire's 64-bit flag marks).
    const WIDE: bool;
    /// As a double, exactly.
    fn wide(self) -> f64;
    /// As a float, rounded to the nearest.
    fn narrow(self) -> f32;
}

mod real_seal {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for f64 {}
}

impl Real for f32 {
    const WIDE: bool = false;
    #[inline(always)]
    fn wide(self) -> f64 {
        f64::from(self)
    }
    #[inline(always)]
    fn narrow(self) -> f32 {
        self
    }
}

impl Real for f64 {
    const WIDE: bool = true;
    #[inline(always)]
    fn wide(self) -> f64 {
        self
    }
    #[inline(always)]
    fn narrow(self) -> f32 {
        self as f32
    }
}

impl<const N: usize> From<[f32; N]> for Reals<N> {
    fn from(v: [f32; N]) -> Self {
        Reals::Single(v)
    }
}

impl<const N: usize> From<[f64; N]> for Reals<N> {
    fn from(v: [f64; N]) -> Self {
        Reals::Double(v)
    }
}

/// A packed array of `N`-component real vectors (PackedVector2/3/4Array), in wire precision.
#[derive(Debug, Clone, PartialEq)]
pub enum PackedReals<const N: usize> {
    /// Vectors of 32-bit components: a default build's (a header without the 64-bit flag).
    Single(Vec<[f32; N]>),
    /// Vectors of 64-bit components: a `precision=double` build's (a flagged header).
    Double(Vec<[f64; N]>),
}

impl<const N: usize> PackedReals<N> {
    /// The number of vectors (not of components).
    pub fn len(&self) -> usize {
        match self {
            PackedReals::Single(v) => v.len(),
            PackedReals::Double(v) => v.len(),
        }
    }

    /// Whether the array holds no vector.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl<const N: usize> Default for PackedReals<N> {
    fn default() -> Self {
        PackedReals::Single(Vec::new())
    }
}

/// The element (or key / value) type of a typed Array or Dictionary, as the header bits carry it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum ContainerType {
    /// An untyped container (`Array`, `Dictionary`).
    #[default]
    Untyped,
    /// A built-in type, e.g. `Array[int]`.
    Builtin(VariantType),
    /// Objects of a native or global class, e.g. `Array[Node]`.
    ClassName(String),
    /// Objects of a script, by its `res://` path.
    Script(String),
}

impl ContainerType {
    /// This element type as the engine writes and reads it with whole objects (`true`:
    /// `var_to_bytes_with_objects`, `allow_objects`) or without: without them, any object
    /// type (a class, a script, `Object` itself) becomes [`ENCODED_OBJECT_AS_ID`], the
    /// class of what object ids decode to; either way a `Nil` type is untyped.
    pub fn with_objects(self, whole_objects: bool) -> ContainerType {
        match self {
            ContainerType::Builtin(VariantType::Nil) => ContainerType::Untyped,
            ContainerType::Builtin(VariantType::Object)
            | ContainerType::ClassName(_)
            | ContainerType::Script(_)
                if !whole_objects =>
            {
                ContainerType::ClassName(ENCODED_OBJECT_AS_ID.to_owned())
            }
            t => t,
        }
    }

    /// How the header's bits say this type is written after the header.
    pub(crate) fn kind(&self) -> ContainerKind {
        match self {
            ContainerType::Untyped => ContainerKind::Untyped,
            ContainerType::Builtin(_) => ContainerKind::Builtin,
            ContainerType::ClassName(_) => ContainerKind::ClassName,
            ContainerType::Script(_) => ContainerKind::Script,
        }
    }
}

/// Name of the class the engine substitutes for objects it did not decode.
pub const ENCODED_OBJECT_AS_ID: &str = "EncodedObjectAsID";

/// An Object, in one of the three shapes the format has.
#[derive(Debug, Clone, PartialEq)]
pub enum Object {
    /// A null object (decoded from id 0 or an empty class name). The engine encodes a null
    /// or freed object as `nil`, and so does this codec.
    Null,
    /// An instance id (what `var_to_bytes` writes; decodes to `EncodedObjectAsID`).
    Id(u64),
    /// A whole object, as `var_to_bytes_with_objects` writes it.
    Full(Box<FullObject>),
}

/// An object written whole: its class and stored properties (`script` carries a `res://`
/// path as a String).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FullObject {
    /// The class, as Godot 4 names it: a Godot 3 or 2 name is read as its Godot 4 one and
    /// written back as the generation's (see [`crate::godot4_class`]).
    pub class: String,
    /// The properties in wire order, each its name and value.
    pub properties: Vec<(String, Value)>,
}

/// A NodePath: a list of node names and a list of subnames (properties, sub-resources),
/// and whether it starts at the root. `/root/Player:position:x` is absolute, with names
/// `root`, `Player` and subnames `position`, `x`.
///
/// The parts are kept as one text and where each part ends (two heap blocks for any
/// path, none for one without text), and read back as `&str`s. Two paths are equal when
/// their names, subnames and absolute flags are; [`Display`](std::fmt::Display) writes the
/// engine's `String(NodePath)` text and `NodePath::from(&str)` (or `str::parse`) parses
/// such a text as the engine's `NodePath(String)` does.
///
/// ```
/// use godot_variant_codec::NodePath;
///
/// let path = NodePath::new(["root", "Player"], ["position", "x"], true);
/// assert_eq!(path.to_string(), "/root/Player:position:x");
/// assert_eq!(path, NodePath::from("/root/Player:position:x"));
/// assert_eq!(path.names().collect::<Vec<_>>(), ["root", "Player"]);
/// assert_eq!(path.subname(1), Some("x"));
/// assert!(path.is_absolute());
/// assert!(NodePath::default().is_empty());
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct NodePath {
    /// Every part's text, the names then the subnames, one after another.
    text: Box<str>,
    /// Where each part ends in `text`, in the same order.
    ends: Box<[usize]>,
    /// How many of the parts are names.
    name_count: u32,
    /// Whether the path starts at the root.
    absolute: bool,
}

impl NodePath {
    /// The path of these names and subnames, absolute (a leading `/` in its text) or not.
    ///
    /// # Panics
    ///
    /// When there are more than `u32::MAX` names (the format's counts have 31 bits).
    pub fn new<N, S>(names: N, subnames: S, absolute: bool) -> NodePath
    where
        N: IntoIterator,
        N::Item: AsRef<str>,
        S: IntoIterator,
        S::Item: AsRef<str>,
    {
        let mut text = String::new();
        let mut ends = Vec::new();
        let mut push = |part: &str| {
            text.push_str(part);
            ends.push(text.len());
        };
        let mut name_count = 0;
        for name in names {
            push(name.as_ref());
            name_count += 1;
        }
        subnames.into_iter().for_each(|s| push(s.as_ref()));
        NodePath {
            text: text.into_boxed_str(),
            ends: ends.into_boxed_slice(),
            name_count: u32::try_from(name_count).expect("at most u32::MAX names"),
            absolute,
        }
    }

    /// The path of `parts`, the names (the first `name_count`) then the subnames, in
    /// blocks of the exact size.
    pub(crate) fn of_parts(parts: &[&str], name_count: usize, absolute: bool) -> NodePath {
        let mut text = String::with_capacity(parts.iter().map(|p| p.len()).sum());
        let ends = parts
            .iter()
            .map(|part| {
                text.push_str(part);
                text.len()
            })
            .collect();
        NodePath {
            text: text.into_boxed_str(),
            ends,
            name_count: u32::try_from(name_count).expect("at most u32::MAX names"),
            absolute,
        }
    }

    /// The node names, in order.
    pub fn names(&self) -> Parts<'_> {
        self.range(0, self.name_count())
    }

    /// The subnames, in order.
    pub fn subnames(&self) -> Parts<'_> {
        self.range(self.name_count(), self.ends.len())
    }

    /// The names then the subnames, in order (the order of the wire).
    pub(crate) fn parts(&self) -> Parts<'_> {
        self.range(0, self.ends.len())
    }

    fn range(&self, from: usize, to: usize) -> Parts<'_> {
        Parts {
            text: &self.text,
            start: self.start_of(from),
            ends: &self.ends[from..to],
        }
    }

    /// Where part `i` begins in the text.
    fn start_of(&self, i: usize) -> usize {
        i.checked_sub(1).map_or(0, |before| self.ends[before])
    }

    fn part(&self, i: usize) -> Option<&str> {
        let end = *self.ends.get(i)?;
        Some(&self.text[self.start_of(i)..end])
    }

    /// The `i`-th name, if there are more than `i`.
    pub fn name(&self, i: usize) -> Option<&str> {
        self.part(i).filter(|_| i < self.name_count())
    }

    /// The `i`-th subname, if there are more than `i`.
    pub fn subname(&self, i: usize) -> Option<&str> {
        self.part(self.name_count().checked_add(i)?)
    }

    /// How many names the path has.
    pub fn name_count(&self) -> usize {
        self.name_count as usize
    }

    /// How many subnames the path has.
    pub fn subname_count(&self) -> usize {
        self.ends.len() - self.name_count()
    }

    /// Whether the path starts at the root (a leading `/`): bit 0 of the flags word.
    pub fn is_absolute(&self) -> bool {
        self.absolute
    }

    /// Whether the path is the empty one (relative, no names, no subnames), which the
    /// engine's `NodePath()` is.
    pub fn is_empty(&self) -> bool {
        !self.absolute && self.ends.is_empty()
    }
}

/// The engine's `String(NodePath)`: `/` first when absolute, the names joined by `/`, then
/// `:` and the subnames joined by `:` unless that join is empty. Names holding `/` or `:`
/// and empty parts do not parse back to the same path.
impl std::fmt::Display for NodePath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        crate::text::write_node_path(f, self.absolute, self.names(), self.subnames())
    }
}

impl std::fmt::Debug for NodePath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NodePath")
            .field("names", &self.names())
            .field("subnames", &self.subnames())
            .field("absolute", &self.absolute)
            .finish()
    }
}

/// The engine's `NodePath(String)`: a leading `/` makes it absolute; up to the first `:`,
/// the names between `/`s (empty ones skipped), then the subnames between `:`s (an empty
/// one at the end skipped). Text that the engine refuses (an empty subname before a `:`)
/// gives the empty path, as there. The text ends at a NUL, as the engine's strings made
/// from UTF-8 do.
impl From<&str> for NodePath {
    fn from(text: &str) -> NodePath {
        crate::text::parse_node_path(text)
    }
}

impl std::str::FromStr for NodePath {
    type Err = std::convert::Infallible;

    /// As `NodePath::from(text)`: every text is some path.
    fn from_str(text: &str) -> Result<NodePath, Self::Err> {
        Ok(NodePath::from(text))
    }
}

/// The names or subnames of a [`NodePath`], as `&str`s.
#[derive(Clone)]
pub struct Parts<'a> {
    text: &'a str,
    /// Where the next part from the front begins.
    start: usize,
    /// Where each part left ends.
    ends: &'a [usize],
}

impl<'a> Iterator for Parts<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let (&end, rest) = self.ends.split_first()?;
        let part = &self.text[self.start..end];
        self.start = end;
        self.ends = rest;
        Some(part)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.ends.len(), Some(self.ends.len()))
    }
}

impl<'a> DoubleEndedIterator for Parts<'a> {
    fn next_back(&mut self) -> Option<&'a str> {
        let (&end, rest) = self.ends.split_last()?;
        self.ends = rest;
        Some(&self.text[rest.last().copied().unwrap_or(self.start)..end])
    }
}

impl ExactSizeIterator for Parts<'_> {}

impl std::iter::FusedIterator for Parts<'_> {}

impl std::fmt::Debug for Parts<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.clone()).finish()
    }
}

/// A Signal: its name and the object that emits it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Signal {
    /// The signal's name (a String on the wire).
    pub name: String,
    /// The instance id of the object that has the signal (64 bits on the wire).
    pub object_id: u64,
}

/// An Array: its element type and its elements.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Array {
    /// What the Array holds: [`ContainerType::Untyped`] but for a typed Array (Godot 4).
    pub element_type: ContainerType,
    /// The elements, in order.
    pub items: Vec<Value>,
}

/// A Dictionary: its entries in insertion order, keys unique as the engine keeps them.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Dictionary {
    /// The type of the keys: [`ContainerType::Untyped`] but for a typed Dictionary (Godot 4).
    pub key_type: ContainerType,
    /// The type of the values, likewise.
    pub value_type: ContainerType,
    /// The entries, each key then its value, in insertion order (the wire's).
    pub entries: Vec<(Value, Value)>,
}

/// A Godot 4 Variant. One variant per `Variant::Type`, in the engine's order.
///
/// The math types' components (the vectors, Rect2, Transform2D, Plane, Quaternion, AABB,
/// Basis, Transform3D, Projection, Color) are in wire order, which is also the order of
/// the engine's own memory layout of each type: Basis by rows, Transform2D and
/// Projection by columns, Transform3D its basis's rows then its origin. A binding may
/// therefore read and write a single-precision engine value's memory as its components.
///
/// Payloads larger than 40 bytes are boxed so that a `Value` stays 48 bytes: containers
/// hold many of them.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Value {
    /// `null`: the header alone.
    #[default]
    Nil,
    /// A bool: a 32-bit word, which reads as `true` when it is not 0.
    Bool(bool),
    /// An int: 32 bits on the wire when it fits, else 64, flagged (Godot 2 has 32 only).
    Int(i64),
    /// A float: 32 bits on the wire when that is exact, else 64, flagged (Godot 2: always
    /// 32, narrowed).
    Float(f64),
    /// A String: its UTF-8 length, its bytes, zeros up to a multiple of 4.
    String(String),
    /// x, y
    Vector2(Reals<2>),
    /// x, y
    Vector2i([i32; 2]),
    /// position x, y, size x, y
    Rect2(Reals<4>),
    /// position x, y, size x, y
    Rect2i([i32; 4]),
    /// x, y, z
    Vector3(Reals<3>),
    /// x, y, z
    Vector3i([i32; 3]),
    /// columns x, y, origin, each (x, y)
    Transform2D(Box<Reals<6>>),
    /// x, y, z, w
    Vector4(Reals<4>),
    /// x, y, z, w
    Vector4i([i32; 4]),
    /// normal x, y, z, d
    Plane(Reals<4>),
    /// x, y, z, w
    Quaternion(Reals<4>),
    /// position x, y, z, size x, y, z
    Aabb(Box<Reals<6>>),
    /// rows x, y, z, each (x, y, z)
    Basis(Box<Reals<9>>),
    /// basis rows then origin
    Transform3D(Box<Reals<12>>),
    /// columns x, y, z, w, each (x, y, z, w)
    Projection(Box<Reals<16>>),
    /// r, g, b, a: always single precision
    Color([f32; 4]),
    /// A StringName's text. Before Godot 4 there is none: it is written as a String, and
    /// reads back as one.
    StringName(String),
    /// A NodePath: its names, subnames and whether it is absolute.
    NodePath(NodePath),
    /// An RID's id. Before Godot 4 the engine writes none: an RID reads back as 0.
    Rid(u64),
    /// An Object: null, an instance id or a whole object.
    Object(Object),
    /// The format carries no Callable data: the engine writes only the header.
    Callable,
    /// A Signal.
    Signal(Signal),
    /// A Dictionary.
    Dictionary(Box<Dictionary>),
    /// An Array.
    Array(Box<Array>),
    /// The bytes: on the wire a count, the bytes, zeros up to a multiple of 4.
    PackedByteArray(Vec<u8>),
    /// 32-bit ints.
    PackedInt32Array(Vec<i32>),
    /// 64-bit ints.
    PackedInt64Array(Vec<i64>),
    /// 32-bit floats.
    PackedFloat32Array(Vec<f32>),
    /// 64-bit floats.
    PackedFloat64Array(Vec<f64>),
    /// Strings: on the wire each one's length counts a terminating NUL, which is written.
    PackedStringArray(Vec<String>),
    /// Vectors of x, y, in wire precision.
    PackedVector2Array(PackedReals<2>),
    /// Vectors of x, y, z, in wire precision.
    PackedVector3Array(PackedReals<3>),
    /// Colors of r, g, b, a: always single precision.
    PackedColorArray(Vec<[f32; 4]>),
    /// Vectors of x, y, z, w, in wire precision.
    PackedVector4Array(PackedReals<4>),
}

/// Dropping a value nested thousands deep must not recurse as deep (the default drop
/// would, and overflow the stack): containers hand the children that hold containers to
/// one heap stack instead. Leaves and containers of leaves (`[x, y]` keys, rows of
/// numbers) drop where they are, one level down.
fn drop_children(children: impl Iterator<Item = Value>) {
    let mut pending: Vec<Value> = children.filter(Value::holds_containers).collect();
    while let Some(value) = pending.pop() {
        match value {
            Value::Array(mut a) => pending.extend(
                std::mem::take(&mut a.items)
                    .into_iter()
                    .filter(Value::holds_containers),
            ),
            Value::Dictionary(mut d) => pending.extend(
                std::mem::take(&mut d.entries)
                    .into_iter()
                    .flat_map(|(k, v)| [k, v])
                    .filter(Value::holds_containers),
            ),
            Value::Object(Object::Full(mut f)) => pending.extend(
                std::mem::take(&mut f.properties)
                    .into_iter()
                    .map(|(_, v)| v)
                    .filter(Value::holds_containers),
            ),
            _ => {}
        }
    }
}

impl Drop for Array {
    fn drop(&mut self) {
        if self.items.iter().any(Value::holds_values) {
            drop_children(std::mem::take(&mut self.items).into_iter());
        }
    }
}

impl Drop for Dictionary {
    fn drop(&mut self) {
        if self
            .entries
            .iter()
            .any(|(k, v)| k.holds_values() || v.holds_values())
        {
            drop_children(
                std::mem::take(&mut self.entries)
                    .into_iter()
                    .flat_map(|(k, v)| [k, v]),
            );
        }
    }
}

impl Drop for FullObject {
    fn drop(&mut self) {
        if self.properties.iter().any(|(_, v)| v.holds_values()) {
            drop_children(
                std::mem::take(&mut self.properties)
                    .into_iter()
                    .map(|(_, v)| v),
            );
        }
    }
}

impl Value {
    /// Whether this is a container holding containers: dropping it reaches deeper than its
    /// own children (see [`drop_children`]).
    fn holds_containers(&self) -> bool {
        match self {
            Value::Array(a) => a.items.iter().any(Value::holds_values),
            Value::Dictionary(d) => d
                .entries
                .iter()
                .any(|(k, v)| k.holds_values() || v.holds_values()),
            Value::Object(Object::Full(f)) => f.properties.iter().any(|(_, v)| v.holds_values()),
            _ => false,
        }
    }

    /// The single-precision math value or Color of type `t` (Vector2, Rect2, Vector3,
    /// Transform2D, Vector4, Plane, Quaternion, AABB, Basis, Transform3D, Projection,
    /// Color), of `components` in wire order (as many as `t` has; missing ones are 0). Nil
    /// for any other `t`.
    pub fn single_reals(t: VariantType, components: &[f32]) -> Value {
        fn array<const N: usize>(components: &[f32]) -> [f32; N] {
            std::array::from_fn(|i| components.get(i).copied().unwrap_or(0.0))
        }
        fn single<const N: usize>(components: &[f32]) -> Reals<N> {
            Reals::Single(array(components))
        }
        use VariantType as T;
        match t {
            T::Vector2 => Value::Vector2(single(components)),
            T::Rect2 => Value::Rect2(single(components)),
            T::Vector3 => Value::Vector3(single(components)),
            T::Transform2D => Value::Transform2D(Box::new(single(components))),
            T::Vector4 => Value::Vector4(single(components)),
            T::Plane => Value::Plane(single(components)),
            T::Quaternion => Value::Quaternion(single(components)),
            T::Aabb => Value::Aabb(Box::new(single(components))),
            T::Basis => Value::Basis(Box::new(single(components))),
            T::Transform3D => Value::Transform3D(Box::new(single(components))),
            T::Projection => Value::Projection(Box::new(single(components))),
            T::Color => Value::Color(array(components)),
            _ => Value::Nil,
        }
    }

    /// The integer vector of type `t` (Vector2i, Rect2i, Vector3i, Vector4i) of
    /// `components` in wire order (as many as `t` has; missing ones are 0). Nil for any
    /// other `t`.
    pub fn int_components(t: VariantType, components: &[i32]) -> Value {
        fn array<const N: usize>(components: &[i32]) -> [i32; N] {
            std::array::from_fn(|i| components.get(i).copied().unwrap_or(0))
        }
        use VariantType as T;
        match t {
            T::Vector2i => Value::Vector2i(array(components)),
            T::Rect2i => Value::Rect2i(array(components)),
            T::Vector3i => Value::Vector3i(array(components)),
            T::Vector4i => Value::Vector4i(array(components)),
            _ => Value::Nil,
        }
    }

    /// Whether this value contains other values (Array, Dictionary, full Object).
    pub fn holds_values(&self) -> bool {
        matches!(
            self,
            Value::Array(_) | Value::Dictionary(_) | Value::Object(Object::Full(_))
        )
    }

    /// The engine's `Variant::Type` of this value.
    pub fn variant_type(&self) -> VariantType {
        use VariantType as T;
        match self {
            Value::Nil => T::Nil,
            Value::Bool(_) => T::Bool,
            Value::Int(_) => T::Int,
            Value::Float(_) => T::Float,
            Value::String(_) => T::String,
            Value::Vector2(_) => T::Vector2,
            Value::Vector2i(_) => T::Vector2i,
            Value::Rect2(_) => T::Rect2,
            Value::Rect2i(_) => T::Rect2i,
            Value::Vector3(_) => T::Vector3,
            Value::Vector3i(_) => T::Vector3i,
            Value::Transform2D(_) => T::Transform2D,
            Value::Vector4(_) => T::Vector4,
            Value::Vector4i(_) => T::Vector4i,
            Value::Plane(_) => T::Plane,
            Value::Quaternion(_) => T::Quaternion,
            Value::Aabb(_) => T::Aabb,
            Value::Basis(_) => T::Basis,
            Value::Transform3D(_) => T::Transform3D,
            Value::Projection(_) => T::Projection,
            Value::Color(_) => T::Color,
            Value::StringName(_) => T::StringName,
            Value::NodePath(_) => T::NodePath,
            Value::Rid(_) => T::Rid,
            Value::Object(_) => T::Object,
            Value::Callable => T::Callable,
            Value::Signal(_) => T::Signal,
            Value::Dictionary(_) => T::Dictionary,
            Value::Array(_) => T::Array,
            Value::PackedByteArray(_) => T::PackedByteArray,
            Value::PackedInt32Array(_) => T::PackedInt32Array,
            Value::PackedInt64Array(_) => T::PackedInt64Array,
            Value::PackedFloat32Array(_) => T::PackedFloat32Array,
            Value::PackedFloat64Array(_) => T::PackedFloat64Array,
            Value::PackedStringArray(_) => T::PackedStringArray,
            Value::PackedVector2Array(_) => T::PackedVector2Array,
            Value::PackedVector3Array(_) => T::PackedVector3Array,
            Value::PackedColorArray(_) => T::PackedColorArray,
            Value::PackedVector4Array(_) => T::PackedVector4Array,
        }
    }
}
