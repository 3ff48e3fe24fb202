//! Value → bytes, exactly as the engine's `encode_variant` writes them.
//!
//! [`Encoder`] is the format, one operation per wire element (a header and its payload, a
//! container's start, an object's properties…), each applying the engine's rules: 32- or
//! 64-bit ints and floats, padding, flags, typed-container headers, length limits. The
//! [`Value`] walker here drives it, and so does the Godot binding's walker over engine
//! Variants: each rule is said once.

use crate::error::{EncodeError, EncodeErrorKind, PathKey};
use crate::godot2::Godot2Value;
use crate::header::{
    header_word, ELEMENT_KIND_SHIFT, FLAG_64, NODE_PATH_ABSOLUTE, NODE_PATH_NEW_FORMAT,
    NODE_PATH_OBSOLETE_PROPERTY, TYPE_MASK, VALUE_KIND_SHIFT,
};
use crate::script::{check_script_path, is_script_path_property};
use crate::types::VariantType;
use crate::value::{
    Array, ContainerType, Dictionary, FullObject, NodePath, Object, PackedReals, Real, Reals, Value,
};
use crate::wire::{padding, short_words, Plain, Sink, Text};
use crate::{within_depth, EncodeOptions, Precision, StackRoom};

/// The engine's lengths are `int`: anything longer cannot be written.
const MAX_LEN: usize = i32::MAX as usize;

/// The format's writer: each method writes one wire element into the [`Sink`] as the
/// engine writes it. Callers walk their values and call these in the engine's order (a
/// container's start, then its elements; a full object's start, then each property name
/// followed by its value).
///
/// Errors are the engine's refusals (a length beyond `int`, a script that is not a
/// `res://` path, nesting beyond [`EncodeOptions::max_depth`]); after one, the bytes
/// written so far are to be discarded.
#[derive(Debug)]
pub struct Encoder<S: Sink> {
    sink: S,
    opts: EncodeOptions,
}

impl<S: Sink> Encoder<S> {
    /// A writer into `sink`, by the rules of `opts` (generation, precision, depth limit).
    pub fn new(sink: S, opts: EncodeOptions) -> Self {
        Encoder { sink, opts }
    }

    /// Where the bytes went, as written so far.
    pub fn sink(&self) -> &S {
        &self.sink
    }

    /// Where the bytes go, to reach into it directly (to set a count written before the
    /// elements were counted, say).
    pub fn sink_mut(&mut self) -> &mut S {
        &mut self.sink
    }

    /// Where the bytes went, the writer done.
    pub fn into_sink(self) -> S {
        self.sink
    }

    /// The options the bytes are written by.
    pub fn options(&self) -> &EncodeOptions {
        &self.opts
    }

    /// An error at the current output position.
    pub fn error(&self, kind: EncodeErrorKind) -> EncodeError {
        EncodeError {
            offset: self.sink.position(),
            kind,
        }
    }

    /// Refuses a value nested deeper than [`EncodeOptions::max_depth`] (the top value is at
    /// depth 0, the elements of a container one deeper than the container), and a value
    /// of a type the generation written has not. Walkers call it before each value.
    #[inline]
    pub fn check_value(&self, t: VariantType, depth: usize) -> Result<(), EncodeError> {
        self.check_depth(depth)?;
        self.check_type(t)
    }

    /// Refuses a value nested deeper than [`EncodeOptions::max_depth`].
    #[inline]
    pub fn check_depth(&self, depth: usize) -> Result<(), EncodeError> {
        if !within_depth(depth, self.opts.max_depth) {
            return Err(self.error(EncodeErrorKind::TooDeep(self.opts.max_depth)));
        }
        Ok(())
    }

    /// Refuses a value of a type the generation written has not.
    #[inline]
    pub fn check_type(&self, t: VariantType) -> Result<(), EncodeError> {
        if self.opts.generation.wire_id(t).is_none() {
            return Err(self.not_in_generation(t.name()));
        }
        Ok(())
    }

    #[cold]
    fn not_in_generation(&self, what: &str) -> EncodeError {
        self.error(EncodeErrorKind::NotInGeneration {
            what: what.to_owned(),
            generation: self.opts.generation.name(),
            path: String::new(),
        })
    }

    /// A value's header: its type's wire id in the generation written, and its flags.
    #[inline]
    fn header(&mut self, t: VariantType, flags: u32) {
        self.sink.put(self.header_word(t, flags));
    }

    #[inline(always)]
    fn header_word(&self, t: VariantType, flags: u32) -> u32 {
        let id = self.opts.generation.wire_id(t);
        debug_assert!(id.is_some(), "{t} checked by `check_value`");
        debug_assert!(
            flags == 0 || self.opts.generation.has_header_flags(),
            "{t} with flags {flags:#x} in {}",
            self.opts.generation
        );
        header_word(id.unwrap_or(TYPE_MASK), flags)
    }

    /// Math types and packed vector arrays are written in 64 bits.
    #[inline(always)]
    fn wide_reals(&self) -> bool {
        self.opts.precision == Precision::Double && self.opts.generation.has_wide_reals()
    }

    /// A length or count word, refusing what the engine's `int` cannot hold.
    #[inline]
    fn length(&mut self, what: VariantType, len: usize) -> Result<(), EncodeError> {
        if len > MAX_LEN {
            return Err(self.error(EncodeErrorKind::TooLong { what, len }));
        }
        self.sink.put(len as u32);
        Ok(())
    }

    /// A string without a header, as the engine's `_encode_string` writes it: a length
    /// word, the UTF-8 bytes, zeros up to a multiple of 4. Also the form of a full
    /// object's class and property names, NodePath parts and typed-container class names.
    #[inline]
    pub fn string_body<T: Text + ?Sized>(&mut self, s: &T) -> Result<(), EncodeError> {
        let len = s.utf8_len();
        self.length(VariantType::String, len)?;
        s.put_utf8(&mut self.sink);
        self.sink.put_zeros(padding(len));
        Ok(())
    }

    fn precision_flag(&self) -> u32 {
        if self.wide_reals() {
            FLAG_64
        } else {
            0
        }
    }

    /// A nil: its header alone.
    pub fn nil(&mut self) {
        self.header(VariantType::Nil, 0);
    }

    /// A bool: a 32-bit word, 1 or 0.
    pub fn bool(&mut self, b: bool) {
        self.header(VariantType::Bool, 0);
        self.sink.put(u32::from(b));
    }

    /// Refuses an int the generation written cannot hold: one beyond 32 bits in Godot 2
    /// (see [`Generation::holds_int`]). Walkers call it before [`int`](Self::int).
    ///
    /// [`Generation::holds_int`]: crate::Generation::holds_int
    #[inline]
    pub fn check_int(&self, i: i64) -> Result<(), EncodeError> {
        if !self.opts.generation.holds_int(i) {
            return Err(self.not_in_generation(&format!("int {i}")));
        }
        Ok(())
    }

    /// An int: 32 bits when it fits, else 64 bits, flagged (checked first with
    /// [`check_int`](Self::check_int): Godot 2 has no 64-bit ints).
    #[inline]
    pub fn int(&mut self, i: i64) {
        match i32::try_from(i) {
            Ok(small) => {
                self.header(VariantType::Int, 0);
                self.sink.put(small);
            }
            Err(_) => {
                self.header(VariantType::Int, FLAG_64);
                self.sink.put(i);
            }
        }
    }

    /// A float: 32 bits when the value survives the round trip through `float`, else 64
    /// bits, flagged. NaN never compares equal, so it is always written in 64 bits. Godot
    /// 2's floats are always 32 bits: there it is narrowed to the nearest `float`.
    #[inline]
    pub fn float(&mut self, d: f64) {
        let single = d as f32;
        if f64::from(single) == d || !self.opts.generation.has_wide_scalars() {
            self.header(VariantType::Float, 0);
            self.sink.put(single);
        } else {
            self.header(VariantType::Float, FLAG_64);
            self.sink.put(d);
        }
    }

    /// A String: its header, then the text as [`string_body`](Self::string_body) writes it.
    #[inline]
    pub fn string<T: Text + ?Sized>(&mut self, s: &T) -> Result<(), EncodeError> {
        self.text_value(VariantType::String, s)
    }

    /// A StringName, written as a String is; before Godot 4, with a String's header (see
    /// [`Generation::wire_id`](crate::Generation::wire_id)).
    pub fn string_name<T: Text + ?Sized>(&mut self, s: &T) -> Result<(), EncodeError> {
        self.text_value(VariantType::StringName, s)
    }

    /// A String or StringName: the header, then the text as [`string_body`] writes it.
    /// Texts of up to 16 bytes held as UTF-8 (struct keys, most names) are assembled with
    /// their header, length and padding in one 24-byte chunk, written at once.
    ///
    /// [`string_body`]: Encoder::string_body
    #[inline]
    fn text_value<T: Text + ?Sized>(&mut self, t: VariantType, s: &T) -> Result<(), EncodeError> {
        match s.utf8_bytes() {
            Some(bytes) if bytes.len() <= 16 => {
                let len = bytes.len();
                // The text as two words, zero past its end: its padding included.
                let [low, high] = short_words(bytes);
                let mut chunk = [0u8; 24];
                chunk[..4].copy_from_slice(&self.header_word(t, 0).to_le_bytes());
                chunk[4..8].copy_from_slice(&(len as u32).to_le_bytes());
                chunk[8..16].copy_from_slice(&low.to_le_bytes());
                chunk[16..].copy_from_slice(&high.to_le_bytes());
                self.sink.put_chunk_prefix(&chunk, 8 + len + padding(len));
                Ok(())
            }
            _ => {
                self.header(t, 0);
                self.string_body(s)
            }
        }
    }

    /// A math type of `real_t` components (Vector2, Rect2, Vector3, Transform2D, Vector4,
    /// Plane, Quaternion, AABB, Basis, Transform3D, Projection), in the precision of the
    /// engine being written for.
    pub fn reals<const N: usize>(&mut self, t: VariantType, v: &Reals<N>) {
        self.reals_as(t, || v.to_f64(), || v.to_f32());
    }

    /// [`reals`](Self::reals) of components read where they lie, single or double precision
    /// (a binding's `real_t` values, without a copy into a [`Reals`] first).
    #[inline(always)]
    pub fn reals_in_place<R: Real, const N: usize>(&mut self, t: VariantType, v: &[R; N]) {
        self.reals_as(t, || v.map(R::wide), || v.map(R::narrow));
    }

    /// A math type's header, then its components as `wide` or `narrow` gives them, in the
    /// precision of the engine being written for.
    #[inline(always)]
    fn reals_as<const N: usize>(
        &mut self,
        t: VariantType,
        wide: impl FnOnce() -> [f64; N],
        narrow: impl FnOnce() -> [f32; N],
    ) {
        self.header(t, self.precision_flag());
        if self.wide_reals() {
            self.sink.put(wide())
        } else {
            self.sink.put(narrow())
        }
    }

    /// A type of 32-bit integers: Vector2i, Rect2i, Vector3i, Vector4i.
    pub fn ints<const N: usize>(&mut self, t: VariantType, v: [i32; N]) {
        self.header(t, 0);
        self.sink.put(v);
    }

    /// A value of type `t` whose payload is `bytes`, already in its wire form (a math type's
    /// components as the header without flags announces them).
    #[inline]
    pub(crate) fn wire_payload<const N: usize>(&mut self, t: VariantType, bytes: &[u8; N]) {
        self.header(t, 0);
        self.sink.put_bytes(bytes);
    }

    /// A Color: always four 32-bit floats.
    pub fn color(&mut self, c: [f32; 4]) {
        self.header(VariantType::Color, 0);
        self.sink.put(c);
    }

    /// An RID: its id (Godot 4), or its header alone (before: the engine writes no id).
    pub fn rid(&mut self, id: u64) {
        self.header(VariantType::Rid, 0);
        if self.opts.generation.has_rid_payload() {
            self.sink.put(id);
        }
    }

    /// A Callable: the format carries only its header.
    pub fn callable(&mut self) {
        self.header(VariantType::Callable, 0);
    }

    /// A Signal: its name as [`string_body`](Self::string_body) writes it, then the
    /// instance id of its object in 64 bits.
    pub fn signal<T: Text + ?Sized>(
        &mut self,
        name: &T,
        object_id: u64,
    ) -> Result<(), EncodeError> {
        self.header(VariantType::Signal, 0);
        self.string_body(name)?;
        self.sink.put(object_id);
        Ok(())
    }

    /// A NodePath's start; then each of the names and subnames follows as
    /// [`string_body`](Self::string_body). `last_subname_empty` says whether the last
    /// subname is empty: Godot 2 writes the last subname as the path's property (see
    /// [`Generation::has_node_path_property`]) and reads an empty property as none, so
    /// there a path ending in an empty subname keeps all its subnames as subnames.
    ///
    /// [`Generation::has_node_path_property`]: crate::Generation::has_node_path_property
    pub fn begin_node_path(
        &mut self,
        name_count: usize,
        subname_count: usize,
        absolute: bool,
        last_subname_empty: bool,
    ) -> Result<(), EncodeError> {
        self.header(VariantType::NodePath, 0);
        if name_count >= NODE_PATH_NEW_FORMAT as usize {
            return Err(self.error(EncodeErrorKind::TooLong {
                what: VariantType::NodePath,
                len: name_count,
            }));
        }
        self.sink.put(name_count as u32 | NODE_PATH_NEW_FORMAT);
        let absolute = if absolute { NODE_PATH_ABSOLUTE } else { 0 };
        let property = subname_count > 0 && !last_subname_empty;
        if property && self.opts.generation.has_node_path_property() {
            // The last subname is the property: the texts are written in the same order.
            self.length(VariantType::NodePath, subname_count - 1)?;
            self.sink.put(absolute | NODE_PATH_OBSOLETE_PROPERTY);
        } else {
            self.length(VariantType::NodePath, subname_count)?;
            self.sink.put(absolute);
        }
        Ok(())
    }

    /// A null (or freed) object, which the engine writes as nil (Godot 2: as
    /// [`bare_object`](Self::bare_object)).
    pub fn null_object(&mut self) {
        if self.opts.generation.has_object_payload() {
            self.nil();
        } else {
            self.bare_object();
        }
    }

    /// An object as its instance id (what `var_to_bytes` writes; Godot 2: as
    /// [`bare_object`](Self::bare_object)).
    pub fn object_id(&mut self, id: u64) {
        if !self.opts.generation.has_object_payload() {
            return self.bare_object();
        }
        self.header(VariantType::Object, FLAG_64);
        self.sink.put(id);
    }

    /// Any object, null or not, where objects carry nothing after their header (Godot 2;
    /// see [`Generation::has_object_payload`]): the header alone. Walkers write a whole
    /// object so there, not with [`begin_full_object`](Self::begin_full_object).
    ///
    /// [`Generation::has_object_payload`]: crate::Generation::has_object_payload
    pub fn bare_object(&mut self) {
        self.header(VariantType::Object, 0);
    }

    /// A whole object's start (what `var_to_bytes_with_objects` writes): its class and how
    /// many properties follow, each as [`string_body`](Self::string_body) of its name then
    /// its value. The `script` property's value is its script's path, checked with
    /// [`script_path`](Self::script_path). Refused in Godot 2, whose objects are
    /// [bare](Self::bare_object).
    pub fn begin_full_object<T: Text + ?Sized>(
        &mut self,
        class: &T,
        property_count: usize,
    ) -> Result<(), EncodeError> {
        if !self.opts.generation.has_object_payload() {
            return Err(self.not_in_generation("whole object"));
        }
        self.header(VariantType::Object, 0);
        if self.opts.generation.number() == 4 {
            self.string_body(class)?;
        } else {
            let class = class.to_utf8();
            self.string_body(self.opts.generation.wire_class(&class))?;
        }
        self.length(VariantType::Object, property_count)
    }

    /// A script travels as its path inside the project: a `res://` path, else refused.
    pub fn script_path(&mut self, path: &str) -> Result<(), EncodeError> {
        self.check_script_property(path)?;
        self.string(path)
    }

    /// A full object's `script` property given as a String: in Godot 4 a `res://` path,
    /// else refused; before, a String like any other.
    pub fn check_script_property(&self, path: &str) -> Result<(), EncodeError> {
        if self.opts.generation.has_script_paths() {
            check_script_path(path).map_err(|kind| self.error(kind))?;
        }
        Ok(())
    }

    /// An Array's start; its `len` elements follow.
    #[inline]
    pub fn begin_array(
        &mut self,
        element_type: &ContainerType,
        len: usize,
    ) -> Result<(), EncodeError> {
        let t = VariantType::Array;
        self.check_untyped(element_type, "typed Array")?;
        self.header(t, element_type.kind().bits(ELEMENT_KIND_SHIFT));
        self.container_type(element_type)?;
        self.length(t, len)
    }

    /// A Dictionary's start; its `len` entries follow, each key then its value.
    #[inline]
    pub fn begin_dictionary(
        &mut self,
        key_type: &ContainerType,
        value_type: &ContainerType,
        len: usize,
    ) -> Result<(), EncodeError> {
        let t = VariantType::Dictionary;
        self.check_untyped(key_type, "typed Dictionary")?;
        self.check_untyped(value_type, "typed Dictionary")?;
        let flags =
            key_type.kind().bits(ELEMENT_KIND_SHIFT) | value_type.kind().bits(VALUE_KIND_SHIFT);
        self.header(t, flags);
        self.container_type(key_type)?;
        self.container_type(value_type)?;
        self.length(t, len)
    }

    /// Before Godot 4 there are no typed containers: one is refused.
    #[inline]
    fn check_untyped(&self, t: &ContainerType, what: &str) -> Result<(), EncodeError> {
        if *t != ContainerType::Untyped && !self.opts.generation.has_typed_containers() {
            return Err(self.not_in_generation(what));
        }
        Ok(())
    }

    /// A container's element (or key, value) type; untyped, the usual case, writes nothing.
    #[inline]
    fn container_type(&mut self, t: &ContainerType) -> Result<(), EncodeError> {
        match t {
            ContainerType::Untyped => Ok(()),
            typed => self.typed_container(typed),
        }
    }

    #[inline(never)]
    fn typed_container(&mut self, t: &ContainerType) -> Result<(), EncodeError> {
        match t {
            ContainerType::Untyped => Ok(()),
            ContainerType::Builtin(b) => {
                self.sink.put(b.id());
                Ok(())
            }
            ContainerType::ClassName(name) => self.string_body(name.as_str()),
            ContainerType::Script(path) => {
                check_script_path(path).map_err(|kind| self.error(kind))?;
                self.string_body(path.as_str())
            }
        }
    }

    fn packed<T: Plain>(&mut self, t: VariantType, items: &[T]) -> Result<(), EncodeError> {
        self.header(t, 0);
        self.length(t, items.len())?;
        self.sink.put_slice(items);
        Ok(())
    }

    /// A PackedByteArray: its count, the bytes, then zeros up to a multiple of 4.
    pub fn packed_bytes(&mut self, bytes: &[u8]) -> Result<(), EncodeError> {
        self.packed(VariantType::PackedByteArray, bytes)?;
        self.sink.put_zeros(padding(bytes.len()));
        Ok(())
    }

    /// A PackedInt32Array: its count, then the 32-bit ints.
    pub fn packed_int32s(&mut self, items: &[i32]) -> Result<(), EncodeError> {
        self.packed(VariantType::PackedInt32Array, items)
    }

    /// A PackedInt64Array: its count, then the 64-bit ints.
    pub fn packed_int64s(&mut self, items: &[i64]) -> Result<(), EncodeError> {
        self.packed(VariantType::PackedInt64Array, items)
    }

    /// A PackedFloat32Array: its count, then the 32-bit floats.
    pub fn packed_float32s(&mut self, items: &[f32]) -> Result<(), EncodeError> {
        self.packed(VariantType::PackedFloat32Array, items)
    }

    /// A PackedFloat64Array: its count, then the 64-bit floats.
    pub fn packed_float64s(&mut self, items: &[f64]) -> Result<(), EncodeError> {
        self.packed(VariantType::PackedFloat64Array, items)
    }

    /// A PackedColorArray: its count, then each color's r, g, b, a in 32 bits.
    pub fn packed_colors(&mut self, items: &[[f32; 4]]) -> Result<(), EncodeError> {
        self.packed(VariantType::PackedColorArray, items)
    }

    /// A PackedVector2/3/4Array (`t`, with `N` its components) of single- or
    /// double-precision vectors, in the precision of the engine being written for: copied
    /// as they lie when the two agree, else converted one by one.
    pub fn packed_vectors<R: Real, const N: usize>(
        &mut self,
        t: VariantType,
        items: &[[R; N]],
    ) -> Result<(), EncodeError> {
        self.header(t, self.precision_flag());
        self.length(t, items.len())?;
        match (self.wide_reals(), R::WIDE) {
            (true, true) | (false, false) => self.sink.put_slice(items),
            (true, false) => items.iter().for_each(|x| self.sink.put(x.map(R::wide))),
            (false, true) => items.iter().for_each(|x| self.sink.put(x.map(R::narrow))),
        }
        Ok(())
    }

    /// A PackedStringArray's start; its `count` strings follow, each as
    /// [`packed_string`](Self::packed_string).
    pub fn begin_packed_strings(&mut self, count: usize) -> Result<(), EncodeError> {
        let t = VariantType::PackedStringArray;
        self.header(t, 0);
        self.length(t, count)
    }

    /// One string of a PackedStringArray: unlike a String, its length counts a
    /// terminating NUL, which is written.
    #[inline]
    pub fn packed_string<T: Text + ?Sized>(&mut self, s: &T) -> Result<(), EncodeError> {
        let len = s.utf8_len();
        self.length(VariantType::PackedStringArray, len + 1)?;
        s.put_utf8(&mut self.sink);
        self.sink.put_zeros(1 + padding(len + 1));
        Ok(())
    }

    /// A Godot 2 Image or InputEvent (Godot 2 only; see [`crate::godot2`]).
    pub fn godot2_value(&mut self, v: &Godot2Value) {
        let id = self.opts.generation.godot2_wire_id(v.godot2_type());
        debug_assert!(id.is_some(), "Godot 2 types are written in Godot 2 only");
        self.sink.put(header_word(id.unwrap_or(TYPE_MASK), 0));
        v.write_payload(&mut self.sink);
    }

    /// Writes a whole [`Value`] at nesting `depth` (0 for a top-level value).
    pub fn value(&mut self, v: &Value, depth: usize) -> Result<(), EncodeError> {
        self.check_value(v.variant_type(), depth)?;
        // Only containers recurse; keeping everything else out of line keeps each level's
        // stack frame small (nesting reaches 1025 levels on threads with small stacks).
        match v {
            Value::Dictionary(_) | Value::Array(_) | Value::Object(Object::Full(_)) => {
                self.container(v, depth)
            }
            leaf => self.leaf(leaf),
        }
    }

    /// A value holding values, walked with room on the stack ([`StackRoom::run`]). Out of
    /// line, so that `value`, which every element passes through, stays a small frame with
    /// little to save.
    #[inline(never)]
    fn container(&mut self, v: &Value, depth: usize) -> Result<(), EncodeError> {
        StackRoom::CODEC.run(|| match v {
            Value::Dictionary(d) => self.dictionary(d, depth),
            Value::Array(a) => self.array(a, depth),
            Value::Object(Object::Full(full)) => self.full_object(full, depth),
            leaf => self.leaf(leaf),
        })
    }

    #[inline(never)]
    fn dictionary(&mut self, d: &Dictionary, depth: usize) -> Result<(), EncodeError> {
        if self.opts.generation.number() == 2 {
            let entries = d.entries.iter().map(|(k, v)| (k, v));
            if let Some(special) = Godot2Value::from_entries(entries) {
                self.godot2_value(&special);
                return Ok(());
            }
        }
        self.begin_dictionary(&d.key_type, &d.value_type, d.entries.len())?;
        for (key, value) in &d.entries {
            self.value(key, depth + 1)
                .map_err(|e| e.in_key(&PathKey::of(key)))?;
            self.value(value, depth + 1)
                .map_err(|e| e.in_key(&PathKey::of(key)))?;
        }
        Ok(())
    }

    #[inline(never)]
    fn array(&mut self, a: &Array, depth: usize) -> Result<(), EncodeError> {
        self.begin_array(&a.element_type, a.items.len())?;
        for (i, item) in a.items.iter().enumerate() {
            self.value(item, depth + 1).map_err(|e| e.in_index(i))?;
        }
        Ok(())
    }

    #[inline(never)]
    fn full_object(&mut self, full: &FullObject, depth: usize) -> Result<(), EncodeError> {
        if !self.opts.generation.has_object_payload() {
            self.bare_object();
            return Ok(());
        }
        self.begin_full_object(full.class.as_str(), full.properties.len())?;
        for (name, value) in &full.properties {
            if is_script_path_property(name, self.opts.generation) {
                match value {
                    Value::Nil => {}
                    Value::String(path) => self.check_script_property(path)?,
                    other => {
                        let kind = EncodeErrorKind::ScriptNotAPath(other.variant_type());
                        return Err(self.error(kind));
                    }
                }
            }
            self.string_body(name.as_str())?;
            self.value(value, depth + 1)
                .map_err(|e| e.in_property(name))?;
        }
        Ok(())
    }

    /// A value that holds no other value.
    #[inline(never)]
    fn leaf(&mut self, v: &Value) -> Result<(), EncodeError> {
        use VariantType as T;
        match v {
            Value::Nil => self.nil(),
            Value::Callable => self.callable(),
            Value::Bool(b) => self.bool(*b),
            Value::Int(i) => {
                self.check_int(*i)?;
                self.int(*i)
            }
            Value::Float(d) => self.float(*d),
            Value::String(s) => self.string(s.as_str())?,
            Value::StringName(s) => self.string_name(s.as_str())?,
            Value::Vector2(r) => self.reals(T::Vector2, r),
            Value::Rect2(r) => self.reals(T::Rect2, r),
            Value::Vector3(r) => self.reals(T::Vector3, r),
            Value::Transform2D(r) => self.reals(T::Transform2D, r),
            Value::Vector4(r) => self.reals(T::Vector4, r),
            Value::Plane(r) => self.reals(T::Plane, r),
            Value::Quaternion(r) => self.reals(T::Quaternion, r),
            Value::Aabb(r) => self.reals(T::Aabb, r),
            Value::Basis(r) => self.reals(T::Basis, r),
            Value::Transform3D(r) => self.reals(T::Transform3D, r),
            Value::Projection(r) => self.reals(T::Projection, r),
            Value::Vector2i(c) => self.ints(T::Vector2i, *c),
            Value::Vector3i(c) => self.ints(T::Vector3i, *c),
            Value::Rect2i(c) => self.ints(T::Rect2i, *c),
            Value::Vector4i(c) => self.ints(T::Vector4i, *c),
            Value::Color(c) => self.color(*c),
            Value::NodePath(p) => self.node_path(p)?,
            Value::Rid(id) => self.rid(*id),
            Value::Object(Object::Null) => self.null_object(),
            Value::Object(Object::Id(id)) => self.object_id(*id),
            Value::Signal(s) => self.signal(s.name.as_str(), s.object_id)?,
            Value::Dictionary(_) | Value::Array(_) | Value::Object(Object::Full(_)) => {
                unreachable!("values holding values are encoded by `value`")
            }
            Value::PackedByteArray(bytes) => self.packed_bytes(bytes)?,
            Value::PackedInt32Array(items) => self.packed_int32s(items)?,
            Value::PackedInt64Array(items) => self.packed_int64s(items)?,
            Value::PackedFloat32Array(items) => self.packed_float32s(items)?,
            Value::PackedFloat64Array(items) => self.packed_float64s(items)?,
            Value::PackedColorArray(items) => self.packed_colors(items)?,
            Value::PackedStringArray(strings) => {
                self.begin_packed_strings(strings.len())?;
                for s in strings {
                    self.packed_string(s.as_str())?;
                }
            }
            Value::PackedVector2Array(p) => self.packed_reals(T::PackedVector2Array, p)?,
            Value::PackedVector3Array(p) => self.packed_reals(T::PackedVector3Array, p)?,
            Value::PackedVector4Array(p) => self.packed_reals(T::PackedVector4Array, p)?,
        }
        Ok(())
    }

    fn packed_reals<const N: usize>(
        &mut self,
        t: VariantType,
        v: &PackedReals<N>,
    ) -> Result<(), EncodeError> {
        match v {
            PackedReals::Single(items) => self.packed_vectors(t, items),
            PackedReals::Double(items) => self.packed_vectors(t, items),
        }
    }

    fn node_path(&mut self, p: &NodePath) -> Result<(), EncodeError> {
        let last_subname_empty = p.subnames().next_back().is_some_and(str::is_empty);
        self.begin_node_path(
            p.name_count(),
            p.subname_count(),
            p.is_absolute(),
            last_subname_empty,
        )?;
        for part in p.parts() {
            self.string_body(part)?;
        }
        Ok(())
    }
}
