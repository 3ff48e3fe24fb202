//! Godot `Variant` → bytes: a walk over engine values that writes each through the codec's
//! [`Encoder`], making the choices the engine's `encode_variant` (core/io/marshalls.cpp)
//! makes on the way: what an object becomes in id and in full mode, what a typed
//! container's element type is written as, and where nesting stops.
//!
//! The walk reads values in place (see [`ffi`](crate::engine::ffi)): no intermediate value model,
//! no Rust `String` per string (UTF-32 characters go to UTF-8 straight into the output),
//! packed arrays copied in bulk from their memory. It runs on the calling thread, which
//! the engine values belong to. Where the bytes go, and the calls that size and write a
//! value: [`encode_output`](crate::convert::encode_output).

use godot::builtin::inner::InnerArray;
use godot::builtin::{
    real, AnyArray, Color, GString, NodePath, PackedArray, PackedByteArray, Rid, Signal,
    StringName, VarArray, Variant, VariantType, Vector2, Vector3, Vector4,
};
use godot::classes::{ClassDb, Object, Resource};
use godot::global::Error;
use godot::meta::ToGodot;
use godot::obj::{EngineBitfield, Gd, Singleton};
use godot::register::info::PropertyUsageFlags;
use godot::sys::GodotFfi;
use godot_variant_codec::error::PathKey;
use godot_variant_codec::godot2::Godot2Value;
use godot_variant_codec::wire::Sink;
use godot_variant_codec::{
    check_script_path, ContainerType, EncodeError, Encoder, Value, VariantType as WireType,
    SCRIPT_PROPERTY,
};

use crate::convert::encode_output::is_noted;
use crate::convert::stack_room;
use crate::convert::utf8_text::Utf32;
use crate::engine::cow_data;
use crate::engine::ffi::{ffi, Ffi};
use crate::engine::math_types::math_types;
use crate::engine::node_path::{self, NodePathParts};
use crate::engine::packed_types::packed_types;

/// How many strings ahead of the one being written a PackedStringArray's characters are
/// asked for (`Ffi::prefetch_chars`): enough to cover a wait for memory.
const STRINGS_AHEAD: usize = 8;

/// Why a value could not be written: the format refused it (a length beyond `int`, a
/// script that is not a `res://` path), or the walk did.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WriteError {
    #[error(transparent)]
    Format(#[from] EncodeError),
    #[error(transparent)]
    Value(#[from] ValueError),
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{kind} at depth {depth}")]
pub struct ValueError {
    pub depth: usize,
    pub kind: ValueErrorKind,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ValueErrorKind {
    #[error("nesting deeper than {0} (a cyclic Array or Dictionary?)")]
    TooDeep(usize),
    #[error("class {0} cannot be instantiated, so its objects cannot be encoded whole")]
    NotInstantiable(String),
    #[error("script {0:?} has no res:// path")]
    ScriptWithoutPath(String),
    /// The engine writes such strings (lone surrogates, code points past U+10FFFF) as
    /// bytes that are not UTF-8, which the codec does not write.
    #[error("a {0} holds characters that UTF-8 cannot represent")]
    NotUnicode(&'static str),
    /// The list of a Dictionary's entries ended before its size (never seen: the engine
    /// keeps both together; the bytes would not say what they announce).
    #[error("a Dictionary of {size} entries lists only {walked}")]
    EntriesMissing { size: usize, walked: usize },
}

impl ValueError {
    /// The `Error` the engine's `encode_variant` returns in the same case
    /// (`ERR_INVALID_DATA` for a string the codec does not write, which the engine writes).
    pub fn godot_error(&self) -> Error {
        match self.kind {
            ValueErrorKind::TooDeep(_) => Error::ERR_OUT_OF_MEMORY,
            ValueErrorKind::NotInstantiable(_) => Error::ERR_INVALID_PARAMETER,
            ValueErrorKind::ScriptWithoutPath(_) => Error::ERR_UNAVAILABLE,
            ValueErrorKind::NotUnicode(_) | ValueErrorKind::EntriesMissing { .. } => {
                Error::ERR_INVALID_DATA
            }
        }
    }
}

/// How to write: the encoder's mode and depth limit.
#[derive(Debug, Clone, Copy)]
pub struct WriteMode {
    /// Objects whole (`var_to_bytes_with_objects`) rather than as instance ids.
    pub full_objects: bool,
}

/// Writes engine values through an [`Encoder`].
pub struct VariantWriter<S: Sink> {
    pub enc: Encoder<S>,
    mode: WriteMode,
    ffi: &'static Ffi,
    /// With full objects, a reference to each packed array written (see
    /// [`into_held`](Self::into_held)).
    held: Vec<Variant>,
}

/// Whether writing `v` (of type `t`) walks other values (and so calls into the engine per
/// element), as opposed to a value whose size is known at once.
pub fn holds_values(t: VariantType) -> bool {
    matches!(
        t,
        VariantType::ARRAY | VariantType::DICTIONARY | VariantType::OBJECT
    )
}

impl<S: Sink> VariantWriter<S> {
    pub fn new(enc: Encoder<S>, mode: WriteMode) -> Self {
        VariantWriter {
            enc,
            mode,
            ffi: ffi(),
            held: Vec::new(),
        }
    }

    /// The packed arrays written with full objects, each held as an array of its own that
    /// shares their elements: a sink that noted where the elements are (rather than copying
    /// them) may read them for as long as these are kept. A script run by a property getter
    /// meanwhile cannot change or free them: the engine copies elements that more than one
    /// array shares before changing them. (Copies of the Variant would not do: they share
    /// one array, which a script resizes in place through any of them.) Without full
    /// objects no script runs, and none is held.
    pub fn into_held(self) -> Vec<Variant> {
        self.held
    }

    /// Writes `v`, at nesting `depth` (0 for a top-level value).
    pub fn value(&mut self, v: &Variant, depth: usize) -> Result<(), WriteError> {
        if self.enc.check_depth(depth).is_err() {
            let max_depth = self.enc.options().max_depth;
            return Err(ValueError {
                depth,
                kind: ValueErrorKind::TooDeep(max_depth),
            }
            .into());
        }
        let t = self.ffi.type_of(v);
        if self.enc.options().generation.number() != 4 {
            self.check_type(t)?;
        }
        match t {
            VariantType::NIL => self.enc.nil(),
            // SAFETY: `t` is `v`'s type (`type_of` above), a `bool`: one byte, 0 or 1.
            VariantType::BOOL => self.enc.bool(unsafe { self.ffi.read::<u8>(v, t) } != 0),
            VariantType::INT => {
                // SAFETY: `t` is `v`'s type, an `int64_t`.
                let i = unsafe { self.ffi.read::<i64>(v, t) };
                self.enc.check_int(i)?;
                self.enc.int(i)
            }
            // SAFETY: `t` is `v`'s type, a `double`.
            VariantType::FLOAT => self.enc.float(unsafe { self.ffi.read::<f64>(v, t) }),
            VariantType::STRING => {
                // SAFETY: `t` is `v`'s type, a String, which gdext's `GString` wraps
                // transparently; borrowed while `v` is.
                let s: &GString = unsafe { self.ffi.borrow(v, t) };
                let text = self.text(s, "String", depth)?;
                self.enc.string(&text)?;
            }
            VariantType::VECTOR2 => self.reals::<2>(v, t, WireType::Vector2),
            VariantType::VECTOR3 => self.reals::<3>(v, t, WireType::Vector3),
            // SAFETY: `t` is `v`'s type, a Color: four `float`s (r, g, b, a).
            VariantType::COLOR => self.enc.color(unsafe { self.ffi.read(v, t) }),
            VariantType::ARRAY | VariantType::DICTIONARY => {
                stack_room::step(|| self.container(v, t, depth))?
            }
            _ => self.other(v, t, depth)?,
        }
        Ok(())
    }

    /// Refuses a value of a type the generation written has not.
    #[cold]
    fn check_type(&self, t: VariantType) -> Result<(), EncodeError> {
        let wire = u32::try_from(t.ord).ok().and_then(WireType::from_id);
        wire.map_or(Ok(()), |wire| self.enc.check_type(wire))
    }

    #[inline]
    fn ints<const N: usize>(&mut self, v: &Variant, t: VariantType, wire: WireType) {
        // SAFETY: `t` is `v`'s type, a math type of N `int32_t`s.
        let r: [i32; N] = unsafe { self.ffi.read(v, t) };
        self.enc.ints(wire, r);
    }

    #[inline]
    fn reals<const N: usize>(&mut self, v: &Variant, t: VariantType, wire: WireType) {
        // SAFETY: `t` is `v`'s type, a math type of N reals (this build's `real_t`, as
        // gdext's own math types have it), aligned as reals are.
        let r: &[real; N] = unsafe { self.ffi.borrow(v, t) };
        self.enc.reals_in_place(wire, r);
    }

    /// The characters of an engine string, checked to be writable.
    fn text<'s>(
        &self,
        s: &'s GString,
        what: &'static str,
        depth: usize,
    ) -> Result<Utf32<'s>, ValueError> {
        Utf32::new(self.ffi.chars(s)).ok_or(ValueError {
            depth,
            kind: ValueErrorKind::NotUnicode(what),
        })
    }

    /// The types no walk leans on: out of line, keeping `value`'s frame small. The math
    /// types are written here, in a frame as small as theirs (an Array of Transform3Ds or
    /// Projections writes nothing else); the rest in [`rest`](Self::rest), reached by a
    /// jump.
    ///
    /// `t` is `v`'s type, as `value` read it with `type_of` (as for `reals` and
    /// `container`): every read below leans on that. A plain value is read as the gdext
    /// type for it (`repr(C)`, the engine's layout: gdext hands these to the engine by
    /// pointer) or as the array of its components, in this build's single-precision
    /// `real_t`; any bits form such a value.
    #[inline(never)]
    fn other(&mut self, v: &Variant, t: VariantType, depth: usize) -> Result<(), WriteError> {
        if self.math(v, t) {
            return Ok(());
        }
        self.rest(v, t, depth)
    }

    /// [`other`](Self::other)'s types but the math types (which `other` wrote): packed
    /// arrays, StringNames, NodePaths, RIDs, objects, Callables and Signals.
    #[inline(never)]
    fn rest(&mut self, v: &Variant, t: VariantType, depth: usize) -> Result<(), WriteError> {
        macro_rules! packed_type_pattern {
            ([$(($engine:ident, $($_row:tt)*)),* $(,)?]) => {
                $(VariantType::$engine)|*
            };
        }
        match t {
            packed_types!(packed_type_pattern! {}) => self.packed(v, t, depth)?,
            VariantType::STRING_NAME => {
                // SAFETY: `t` is `v`'s type, a StringName, which gdext's `StringName`
                // wraps transparently; borrowed while `v` is.
                let name: &StringName = unsafe { self.ffi.borrow(v, t) };
                let s = GString::from(name);
                let text = self.text(&s, "StringName", depth)?;
                self.enc.string_name(&text)?;
            }
            VariantType::NODE_PATH => self.node_path(v, depth)?,
            VariantType::RID => self.enc.rid(v.to::<Rid>().to_u64()),
            VariantType::OBJECT => stack_room::step(|| self.object(v, depth))?,
            VariantType::CALLABLE => self.enc.callable(),
            VariantType::SIGNAL => {
                let signal: Signal = v.to();
                let name = GString::from(&signal.name());
                let text = self.text(&name, "Signal name", depth)?;
                // The engine writes the id even when its object is gone.
                let id = signal.object_id().map_or(0, |id| id.to_i64() as u64);
                self.enc.signal(&text, id)?;
            }
            // Handled by `value`.
            VariantType::NIL
            | VariantType::BOOL
            | VariantType::INT
            | VariantType::FLOAT
            | VariantType::STRING
            | VariantType::VECTOR2
            | VariantType::VECTOR3
            | VariantType::COLOR
            | VariantType::ARRAY
            | VariantType::DICTIONARY => unreachable!("written by `value`"),
            // A type newer than this build: the nearest the format has is nil.
            _ => self.enc.nil(),
        }
        Ok(())
    }

    /// Writes `v` if it is a math type (true; false for any other type, left unwritten):
    /// its memory is its components in wire order (see the codec's `Value`),
    /// single-precision reals in this build, or 32-bit ints; a Color always four floats.
    /// `t` is `v`'s type. (`value` writes Vector2, Vector3 and Color itself, before any
    /// other type reaches here.)
    #[inline(always)]
    fn math(&mut self, v: &Variant, t: VariantType) -> bool {
        macro_rules! write_one {
            (reals, $n:literal, $wire:ident) => {
                self.reals::<$n>(v, t, WireType::$wire)
            };
            (ints, $n:literal, $wire:ident) => {
                self.ints::<$n>(v, t, WireType::$wire)
            };
            (color, $n:literal, $wire:ident) => {
                // SAFETY: `t` is `v`'s type, a Color: four `float`s (r, g, b, a).
                self.enc.color(unsafe { self.ffi.read(v, t) })
            };
        }
        macro_rules! write_by_type {
            (
                inline: [$(($inline:ident, $iw:ident, $_ig:ident, $ik:ident, $in:literal)),* $(,)?],
                boxed: [$(($boxed:ident, $bw:ident, $_bg:ident, $bk:ident, $bn:literal)),* $(,)?] $(,)?
            ) => {
                match t {
                    $(VariantType::$inline => write_one!($ik, $in, $iw),)*
                    $(VariantType::$boxed => write_one!($bk, $bn, $bw),)*
                    _ => return false,
                }
            };
        }
        math_types!(write_by_type! {});
        true
    }

    /// A packed array, viewed (not owned, never dropped) while `v` is borrowed; writing
    /// runs no script that could change it. `t` is `v`'s type, a packed array type. With
    /// full objects, held (see [`into_held`](Self::into_held)) when its elements are a
    /// slice a sink may note rather than copy (a PackedStringArray's texts are written).
    fn packed(&mut self, v: &Variant, t: VariantType, depth: usize) -> Result<(), WriteError> {
        macro_rules! write_one {
            (plain $method:ident, $_name:ident, $_element:ty, $items:expr) => {
                self.enc.$method($items)?
            };
            (strings, $_name:ident, $_element:ty, $items:expr) => {
                self.strings($items, depth)?
            };
            (vectors $n:literal, $name:ident, $element:ty, $items:expr) => {
                self.enc
                    .packed_vectors(WireType::$name, plain::<$element, [real; $n]>($items))?
            };
            (colors, $_name:ident, $_element:ty, $items:expr) => {
                self.enc.packed_colors(plain($items))?
            };
        }
        macro_rules! write_by_type {
            ([$(($engine:ident, $name:ident, $element:ty, $kind:ident $($arg:tt)?)),* $(,)?]) => {
                match t {
                    $(VariantType::$engine => {
                        // SAFETY: `t` is `v`'s type, the array type viewed.
                        let a = unsafe { self.ffi.view::<PackedArray<$element>>(v, t) };
                        let items = cow_data::elements_of(&a);
                        if self.mode.full_objects
                            && t != VariantType::PACKED_STRING_ARRAY
                            && is_noted(std::mem::size_of_val(items))
                        {
                            // A Variant of its own array sharing the elements, not a copy
                            // of `v`, which would share the array a script may resize.
                            self.held.push(a.to_variant());
                        }
                        write_one!($kind $($arg)?, $name, $element, items);
                    })*
                    _ => unreachable!("not a packed array type: {t:?}"),
                }
            };
        }
        packed_types!(write_by_type! {});
        Ok(())
    }

    /// A PackedStringArray's strings.
    fn strings(&mut self, strings: &[GString], depth: usize) -> Result<(), WriteError> {
        self.enc.begin_packed_strings(strings.len())?;
        for (i, s) in strings.iter().enumerate() {
            // Each String's characters are an allocation of their own, away from the
            // others': asked for a few strings ahead, they are in the cache when their turn
            // comes, instead of a wait per string.
            if let Some(ahead) = strings.get(i + STRINGS_AHEAD) {
                self.ffi.prefetch_chars(ahead);
            }
            let text = self.text(s, "PackedStringArray", depth)?;
            self.enc.packed_string(&text)?;
        }
        Ok(())
    }

    /// An Array or a Dictionary, elements read in place. `t` is `v`'s type (from `type_of`).
    #[inline(never)]
    fn container(&mut self, v: &Variant, t: VariantType, depth: usize) -> Result<(), WriteError> {
        if t == VariantType::ARRAY {
            self.array(v, t, depth)
        } else {
            self.dictionary(v, t, depth)
        }
    }

    /// An Array (`t`, `v`'s type, is ARRAY): its element type, then its elements.
    fn array(&mut self, v: &Variant, t: VariantType, depth: usize) -> Result<(), WriteError> {
        let ffi = self.ffi;
        // SAFETY: `v` is of type `t`; the Array inside it is read while `v` is borrowed.
        let at = unsafe { ffi.internal(v, t) };
        // SAFETY: `at` is the Array inside `v`, live while `v` is borrowed.
        let element_type = if unsafe { ffi.array_is_typed(at) } {
            self.container_type(v, ARRAY_TYPE_QUERIES)
                .map_err(|kind| ValueError { depth, kind })?
        } else {
            ContainerType::Untyped
        };
        // SAFETY: `v` is an Array (`t` is ARRAY), viewed while `v` is borrowed.
        let array = unsafe { ffi.view::<VarArray>(v, t) };
        if !self.mode.full_objects {
            // Without full objects no script runs during the walk (as for dictionaries):
            // the array cannot change under it.
            return self.elements(&array, &element_type, depth);
        }
        // With full objects, property getters run during the walk and could change the
        // array (resize it, move its elements): it is walked as a shallow copy taken
        // first, which only this walk holds (as dictionaries are).
        let snapshot = InnerArray::from_outer(&array).duplicate(false);
        self.elements(&snapshot, &element_type, depth)
    }

    /// A Dictionary (`t`, `v`'s type, is DICTIONARY): its key and value types, then its
    /// entries; in Godot 2, a Dictionary of a Godot 2 type's form as that type.
    fn dictionary(&mut self, v: &Variant, t: VariantType, depth: usize) -> Result<(), WriteError> {
        let ffi = self.ffi;
        // SAFETY: `v` is of type `t`; the Dictionary inside it is read while `v` is borrowed.
        let at = unsafe { ffi.internal(v, t) };
        let fail = |kind| ValueError { depth, kind };
        // SAFETY: `at` is the Dictionary inside `v`, live while `v` is borrowed.
        let (key_type, value_type) = if unsafe { ffi.dictionary_is_typed(at) } {
            (
                self.container_type(v, KEY_TYPE_QUERIES).map_err(fail)?,
                self.container_type(v, VALUE_TYPE_QUERIES).map_err(fail)?,
            )
        } else {
            (ContainerType::Untyped, ContainerType::Untyped)
        };
        // SAFETY: `at` is the Dictionary inside `v`.
        let len = unsafe { ffi.dictionary_size(at) };
        if self.enc.options().generation.number() == 2 {
            if let Some(special) = godot2_value(v, len) {
                self.enc.godot2_value(&special);
                return Ok(());
            }
        }
        self.enc.begin_dictionary(&key_type, &value_type, len)?;
        if self.mode.full_objects {
            self.snapshot_entries(v, depth)
        } else {
            self.entries_in_place(v, len, depth)
        }
    }

    /// The `len` entries of the Dictionary in `v`, read in place (see `for_each_entry`), no
    /// copies. Only without full objects: then no script runs meanwhile, so the dictionary
    /// cannot change under the walk.
    fn entries_in_place(
        &mut self,
        v: &Variant,
        len: usize,
        depth: usize,
    ) -> Result<(), WriteError> {
        let walked = self
            .ffi
            .for_each_entry(v, len, |key, value| self.entry(key, value, depth))?;
        if walked != len {
            return Err(ValueError {
                depth,
                kind: ValueErrorKind::EntriesMissing { size: len, walked },
            }
            .into());
        }
        Ok(())
    }

    /// The entries of the Dictionary in `v`, taken first, as two arrays the engine fills
    /// from its own list (a snapshot, of the size just written: no script ran since): with
    /// full objects, property getters run during the walk and could change the dictionary.
    /// Two arrays per dictionary, the price of soundness here.
    fn snapshot_entries(&mut self, v: &Variant, depth: usize) -> Result<(), WriteError> {
        self.ffi
            .for_each_entry_of_copy(v, |key, value| self.entry(key, value, depth))?;
        Ok(())
    }

    /// One entry of a Dictionary at `depth`: its key, then its value, errors naming the key.
    #[inline]
    fn entry(&mut self, key: &Variant, value: &Variant, depth: usize) -> Result<(), WriteError> {
        self.value(key, depth + 1)
            .map_err(|e| e.in_key(|| path_key(key)))?;
        self.value(value, depth + 1)
            .map_err(|e| e.in_key(|| path_key(key)))
    }

    fn object(&mut self, v: &Variant, depth: usize) -> Result<(), WriteError> {
        if !self.enc.options().generation.has_object_payload() {
            // Godot 2 writes any object as its header alone.
            self.enc.bare_object();
            return Ok(());
        }
        // A freed (or null) object fails to convert; the engine writes it as nil.
        let Ok(object) = v.try_to::<Gd<Object>>() else {
            self.enc.null_object();
            return Ok(());
        };
        if !self.mode.full_objects {
            // Ids are 64-bit patterns; gdext hands them out as i64.
            self.enc.object_id(object.instance_id().to_i64() as u64);
            return Ok(());
        }
        let fail = |kind| ValueError { depth, kind };
        let class = object.get_class();
        let class_text = self.text(&class, "class name", depth)?;
        if !ClassDb::singleton().can_instantiate(&StringName::from(&class)) {
            return Err(fail(ValueErrorKind::NotInstantiable(class.to_string())).into());
        }
        // The stored properties, in the object's order, as `get_property_list` gives them.
        let storage = PropertyUsageFlags::STORAGE.ord() as i64;
        let mut names = Vec::new();
        for info in object.get_property_list().iter_shared() {
            let usage = info.get("usage").and_then(|u| u.try_to::<i64>().ok());
            if usage.unwrap_or(0) & storage == 0 {
                continue;
            }
            let name: GString = info
                .get("name")
                .and_then(|n| n.try_to().ok())
                .unwrap_or_default();
            names.push(name);
        }
        self.enc.begin_full_object(&class_text, names.len())?;
        for name in &names {
            let text = self.text(name, "property name", depth)?;
            self.enc.string_body(&text)?;
            if *name == SCRIPT_PROPERTY {
                match script_path(&object).map_err(fail)? {
                    Some(path) => self.enc.script_path(&path)?,
                    None => self.enc.nil(),
                }
            } else {
                self.value(&object.get(&StringName::from(name)), depth + 1)
                    .map_err(|e| e.in_property(&name.to_string()))?;
            }
        }
        Ok(())
    }

    /// A NodePath (`v`, of that type): its names read from its block where the
    /// `node_paths` probe found the layout, else asked of the engine one by one.
    fn node_path(&mut self, v: &Variant, depth: usize) -> Result<(), WriteError> {
        let asked;
        let parts = match node_path::node_paths() {
            // SAFETY: `v` is a NodePath, borrowed for the call; writing runs no script.
            Some(paths) => unsafe { paths.parts(v) },
            None => {
                let path: NodePath = v.to();
                asked = (
                    (0..path.get_name_count())
                        .map(|i| path.get_name(i))
                        .collect::<Vec<_>>(),
                    (0..path.get_subname_count())
                        .map(|i| path.get_subname(i))
                        .collect::<Vec<_>>(),
                );
                NodePathParts {
                    names: &asked.0,
                    subnames: &asked.1,
                    absolute: path.is_absolute(),
                }
            }
        };
        let texts: Vec<GString> = parts
            .names
            .iter()
            .chain(parts.subnames)
            .map(GString::from)
            .collect();
        let last_subname_empty =
            !parts.subnames.is_empty() && texts.last().is_some_and(GString::is_empty);
        self.enc.begin_node_path(
            parts.names.len(),
            parts.subnames.len(),
            parts.absolute,
            last_subname_empty,
        )?;
        for name in &texts {
            let text = self.text(name, "NodePath", depth)?;
            self.enc.string_body(&text)?;
        }
        Ok(())
    }

    /// An Array's header and elements, read where they lie (found by one call) when they
    /// lie one after the other, else one call per element. Nothing may change `array`
    /// meanwhile: no script runs, or only this walk holds it.
    fn elements(
        &mut self,
        array: &AnyArray,
        element_type: &ContainerType,
        depth: usize,
    ) -> Result<(), WriteError> {
        let ffi = self.ffi;
        let at = array.sys();
        // SAFETY: `at` is a live Array.
        let len = unsafe { ffi.array_size(at.cast()) };
        self.enc.begin_array(element_type, len)?;
        // SAFETY: `len` is the array's size, and nothing changes it during the walk.
        if let Some(elements) = unsafe { ffi.array_elements(at, len) } {
            for (i, item) in elements.iter().enumerate() {
                self.value(item, depth + 1).map_err(|e| e.in_index(i))?;
            }
            return Ok(());
        }
        for i in 0..len {
            // SAFETY: below the size, which nothing changes during the walk.
            let item = unsafe { ffi.array_element(at, i) };
            self.value(item, depth + 1).map_err(|e| e.in_index(i))?;
        }
        Ok(())
    }

    /// The element type of the Array or Dictionary in `v` as `_encode_container_type`
    /// writes it: in id mode every object type as `EncodedObjectAsID`; in full mode a
    /// script type as the script's path.
    ///
    /// It asks the engine by method name: gdext 0.5.5's `element_type()` registers the class
    /// name so that gdext's own later use of that engine class panics. Typed containers
    /// are the exception, so the few calls are of no weight.
    fn container_type(
        &self,
        v: &Variant,
        queries: TypeQueries,
    ) -> Result<ContainerType, ValueErrorKind> {
        let [is_typed, builtin, class_name, script] = queries;
        if !v.call(is_typed, &[]).booleanize() {
            return Ok(ContainerType::Untyped);
        }
        let builtin = v.call(builtin, &[]).try_to::<i64>().unwrap_or(0);
        let class_name: StringName = v.call(class_name, &[]).try_to().unwrap_or_default();
        let script = v.call(script, &[]).try_to::<Gd<Resource>>().ok();
        let full = self.mode.full_objects;
        // The names are read only where they are written: with whole objects.
        let text = |s: &GString, what| {
            if full {
                utf8(s, what)
            } else {
                Ok(String::new())
            }
        };
        let engine_type = match script {
            Some(script) => ContainerType::Script(text(&script.get_path(), "script path")?),
            None if !class_name.is_empty() => {
                ContainerType::ClassName(text(&GString::from(&class_name), "class name")?)
            }
            None => u32::try_from(builtin)
                .ok()
                .and_then(WireType::from_id)
                .map_or(ContainerType::Untyped, ContainerType::Builtin),
        };
        Ok(engine_type.with_objects(full))
    }
}

/// The names of a container's `is_typed…`, `get_typed…_builtin`, `…_class_name` and
/// `…_script` methods.
type TypeQueries = [&'static str; 4];
const ARRAY_TYPE_QUERIES: TypeQueries = [
    "is_typed",
    "get_typed_builtin",
    "get_typed_class_name",
    "get_typed_script",
];
const KEY_TYPE_QUERIES: TypeQueries = [
    "is_typed_key",
    "get_typed_key_builtin",
    "get_typed_key_class_name",
    "get_typed_key_script",
];
const VALUE_TYPE_QUERIES: TypeQueries = [
    "is_typed_value",
    "get_typed_value_builtin",
    "get_typed_value_class_name",
    "get_typed_value_script",
];

/// The `script` property as the engine writes it: the script's `res://` path, or nil.
fn script_path(object: &Gd<Object>) -> Result<Option<String>, ValueErrorKind> {
    let Ok(script) = object.get(SCRIPT_PROPERTY).try_to::<Gd<Resource>>() else {
        return Ok(None);
    };
    let path = utf8(&script.get_path(), "script path")?;
    match check_script_path(&path) {
        Ok(()) => Ok(Some(path)),
        Err(_) => Err(ValueErrorKind::ScriptWithoutPath(path)),
    }
}

impl WriteError {
    /// This error, found in element `index` of an Array.
    #[cold]
    fn in_index(self, index: usize) -> Self {
        match self {
            WriteError::Format(e) => WriteError::Format(e.in_index(index)),
            other => other,
        }
    }

    /// This error, found under a Dictionary key (made only when the error needs it).
    #[cold]
    fn in_key(self, key: impl FnOnce() -> PathKey) -> Self {
        match self {
            WriteError::Format(e) => WriteError::Format(e.in_key(&key())),
            other => other,
        }
    }

    /// This error, found in a full object's property `name`.
    #[cold]
    fn in_property(self, name: &str) -> Self {
        match self {
            WriteError::Format(e) => WriteError::Format(e.in_property(name)),
            other => other,
        }
    }
}

/// A Dictionary key as an error's path shows it (see [`PathKey`]).
fn path_key(key: &Variant) -> PathKey {
    match key.get_type() {
        VariantType::STRING | VariantType::STRING_NAME => PathKey::text(&key.to_string()),
        VariantType::INT => PathKey::int(key.to::<i64>()),
        t => u32::try_from(t.ord)
            .ok()
            .and_then(WireType::from_id)
            .map_or_else(|| PathKey::int(0), PathKey::of_type),
    }
}

/// The Godot 2 Image or InputEvent a Dictionary stands for, when it has the documented
/// form (see `godot_variant_codec::godot2`): its entries are read as values of the
/// codec's model, which only the form's types need (other entries end the match).
///
/// `v` is a Dictionary of `len` entries, walked as any other (see `Ffi::for_each_entry`).
fn godot2_value(v: &Variant, len: usize) -> Option<Godot2Value> {
    const MOST_ENTRIES: usize = 8;
    if len > MOST_ENTRIES {
        return None;
    }
    let mut entries = Vec::with_capacity(len);
    ffi()
        .for_each_entry(v, len, |key, value| {
            entries.push((form_value(key).ok_or(())?, form_value(value).ok_or(())?));
            Ok::<(), ()>(())
        })
        .ok()?;
    Godot2Value::from_entries(entries.iter().map(|(k, v)| (k, v)))
}

/// A value of a type the Godot 2 forms use (String, int, float, PackedByteArray).
fn form_value(v: &Variant) -> Option<Value> {
    Some(match v.get_type() {
        VariantType::STRING => Value::String(v.to_string()),
        VariantType::INT => Value::Int(v.to()),
        VariantType::FLOAT => Value::Float(v.to()),
        VariantType::PACKED_BYTE_ARRAY => {
            Value::PackedByteArray(v.to::<PackedByteArray>().to_vec())
        }
        _ => return None,
    })
}

/// A string as a Rust `String`, when it is Unicode (for the rare strings kept as such).
fn utf8(s: &GString, what: &'static str) -> Result<String, ValueErrorKind> {
    let text = Utf32::new(ffi().chars(s)).ok_or(ValueErrorKind::NotUnicode(what))?;
    let mut bytes = Vec::new();
    godot_variant_codec::wire::Text::put_utf8(&text, &mut bytes);
    String::from_utf8(bytes).map_err(|_| ValueErrorKind::NotUnicode(what))
}

/// A slice of gdext math values as the plain arrays of their components.
fn plain<T, P: Copy>(items: &[T]) -> &[P] {
    const { assert!(std::mem::size_of::<T>() == std::mem::size_of::<P>()) };
    const { assert!(std::mem::align_of::<T>() >= std::mem::align_of::<P>()) };
    // SAFETY: gdext's Vector2/3/4 are `repr(C)` structs of `real_t`s and Color of `f32`s,
    // with no padding, the same size as `P` (checked above).
    unsafe { std::slice::from_raw_parts(items.as_ptr().cast::<P>(), items.len()) }
}
