//! What the decoder makes of the values it reads: the [`Build`] trait, the [`Packed`]
//! arrays it hands over, and [`ValueBuilder`], the builder of this crate's [`Value`]s.

use super::{RawNodePath, RawText};
use crate::error::DecodeError;
use crate::keys::DictionaryBuilder;
use crate::types::VariantType;
use crate::value::{Array, ContainerType, PackedReals, Value};
use crate::wire::{Plain, Reader};

/// What the decoder makes of the values it reads.
///
/// The decoder calls one method per value, in the order of the bytes: for an Array,
/// `begin_array`, then `push` with each element it keeps, then `end_array` (likewise for a
/// Dictionary, whose keys it has already checked against the key type). Typed containers'
/// conversions and full objects are worked out on [`Value`]s and arrive through
/// [`value`](Build::value); so do the types without a method of their own, and by default
/// every type. A builder's error ends the decoding.
pub trait Build {
    /// A decoded value.
    type Value;
    /// An Array being filled.
    type Array;
    /// A Dictionary being filled.
    type Dictionary;
    /// The builder's error; the decoder's own errors convert into it.
    type Error: From<DecodeError>;

    /// Whether the decoder applies typed containers' element rules (convert or drop, as
    /// `Array::push_back` and `dict[key] = value` do) before handing elements over. A builder
    /// that fills the engine's own typed containers says no: those apply the engine's full
    /// rules themselves, conversions this crate does not perform included.
    const CHECKS_ELEMENTS: bool = true;

    /// Any value, as the codec's own model has it.
    fn value(&mut self, v: Value) -> Result<Self::Value, Self::Error>;

    /// A nil.
    fn nil(&mut self) -> Result<Self::Value, Self::Error> {
        self.value(Value::Nil)
    }
    /// A bool.
    fn bool(&mut self, b: bool) -> Result<Self::Value, Self::Error> {
        self.value(Value::Bool(b))
    }
    /// An int (one of 32 bits sign-extended).
    fn int(&mut self, i: i64) -> Result<Self::Value, Self::Error> {
        self.value(Value::Int(i))
    }
    /// A float (one of 32 bits widened, exactly).
    fn float(&mut self, f: f64) -> Result<Self::Value, Self::Error> {
        self.value(Value::Float(f))
    }
    /// A String's text (after the engine's BOM and NUL rules), borrowed from the input.
    fn string(&mut self, s: &str) -> Result<Self::Value, Self::Error> {
        self.value(Value::String(s.to_owned()))
    }
    /// A String whose text is not yet read: [`string`](Self::string) of its
    /// [`RawText::text`] by default. A builder may read the text its own way (see
    /// [`RawText::window_by_rules`]), and must fail with `RawText::text`'s error when that
    /// fails.
    fn raw_string(&mut self, raw: &RawText<'_>) -> Result<Self::Value, Self::Error> {
        self.string(raw.text()?)
    }
    /// A StringName's text, as [`string`](Self::string) has a String's (Godot 4 only:
    /// before, names travel as Strings).
    fn string_name(&mut self, s: &str) -> Result<Self::Value, Self::Error> {
        self.value(Value::StringName(s.to_owned()))
    }
    /// A NodePath, its texts checked and borrowed from the input.
    fn node_path(&mut self, path: RawNodePath<'_>) -> Result<Self::Value, Self::Error> {
        self.value(Value::NodePath(path.to_node_path()))
    }
    /// A packed array of plain elements, as the bytes of the input hold them.
    fn packed(&mut self, p: Packed<'_>) -> Result<Self::Value, Self::Error> {
        self.value(p.to_value())
    }
    /// A single-precision math value or a Color: `t` and its components in wire order, as
    /// many as `t` has ([`Value::single_reals`] by default). A builder that makes these
    /// straight from their components saves the value model.
    fn single_reals(
        &mut self,
        t: VariantType,
        components: &[f32],
    ) -> Result<Self::Value, Self::Error> {
        self.value(Value::single_reals(t, components))
    }
    /// An integer vector (Vector2i, Rect2i, Vector3i, Vector4i): `t` and its components in
    /// wire order, as many as `t` has ([`Value::int_components`] by default).
    fn int_components(
        &mut self,
        t: VariantType,
        components: &[i32],
    ) -> Result<Self::Value, Self::Error> {
        self.value(Value::int_components(t, components))
    }
    /// A PackedStringArray's strings, borrowed from the input, their texts not yet read:
    /// the builder reads each through [`RawText::text`] and fails with the first error in
    /// their order (a builder may read them in any order, or at once, to get there).
    fn packed_strings(&mut self, strings: &[RawText<'_>]) -> Result<Self::Value, Self::Error> {
        let texts = strings
            .iter()
            .map(|raw| raw.text().map(str::to_owned))
            .collect::<Result<_, _>>()?;
        self.value(Value::PackedStringArray(texts))
    }

    /// A new Array of `element_type`; `capacity` is how many elements the input can still
    /// hold, at most the count it announces.
    fn begin_array(
        &mut self,
        element_type: &ContainerType,
        capacity: usize,
    ) -> Result<Self::Array, Self::Error>;
    /// Appends an element the decoder keeps (of a typed Array: converted already, when
    /// [`CHECKS_ELEMENTS`](Self::CHECKS_ELEMENTS)).
    fn push(&mut self, array: &mut Self::Array, item: Self::Value) -> Result<(), Self::Error>;
    /// The finished Array (`element_type` is the one it began with).
    fn end_array(
        &mut self,
        array: Self::Array,
        element_type: ContainerType,
    ) -> Result<Self::Value, Self::Error>;

    /// A new Dictionary of `key_type` and `value_type`; `capacity` is how many entries the
    /// input can still hold, at most the count it announces.
    fn begin_dictionary(
        &mut self,
        key_type: &ContainerType,
        value_type: &ContainerType,
        capacity: usize,
    ) -> Result<Self::Dictionary, Self::Error>;
    /// `dictionary[key] = value`: a key already there keeps its place and takes the value.
    fn insert(
        &mut self,
        dictionary: &mut Self::Dictionary,
        key: Self::Value,
        value: Self::Value,
    ) -> Result<(), Self::Error>;
    /// The value of a Dictionary's String key made from its text as the input holds it
    /// (its error, if any, before the entry's value is read), or `None` when the builder
    /// takes the key as its checked text instead (see
    /// [`insert_text_key`](Self::insert_text_key)): a builder may make a key it has seen
    /// before only once. By default the text is taken. Only for keys the decoder hands over
    /// unchecked (untyped dictionaries, or builders that do not check elements).
    fn text_key(&mut self, _key: &RawText<'_>) -> Result<Option<Self::Value>, Self::Error> {
        Ok(None)
    }
    /// `dictionary[key] = value` for a String key that [`text_key`](Self::text_key) did not
    /// make, given as its text (after the engine's BOM and NUL rules, borrowed from the
    /// input).
    fn insert_text_key(
        &mut self,
        dictionary: &mut Self::Dictionary,
        key: &str,
        value: Self::Value,
    ) -> Result<(), Self::Error> {
        let key = self.string(key)?;
        self.insert(dictionary, key, value)
    }
    /// The finished Dictionary (`key_type` and `value_type` are the ones it began with).
    fn end_dictionary(
        &mut self,
        dictionary: Self::Dictionary,
        key_type: ContainerType,
        value_type: ContainerType,
    ) -> Result<Self::Value, Self::Error>;
}

/// A packed array of plain elements in the input: PackedByteArray, PackedInt32/64Array,
/// PackedFloat32/64Array, PackedColorArray, PackedVector2/3/4Array.
#[derive(Debug, Clone, Copy)]
pub struct Packed<'a> {
    /// Which packed array it is (one of those above).
    pub array_type: VariantType,
    /// For PackedVector2/3/4Array: the components are 64-bit floats.
    pub wide: bool,
    /// How many elements: `bytes` holds `count` × [`element_size`](Self::element_size).
    pub count: usize,
    /// The elements' little-endian bytes (for a PackedByteArray, without its padding).
    pub bytes: &'a [u8],
}

impl Packed<'_> {
    /// The bytes of one element.
    pub fn element_size(array_type: VariantType, wide: bool) -> usize {
        use VariantType as T;
        let real = if wide { 8 } else { 4 };
        match array_type {
            T::PackedByteArray => 1,
            T::PackedInt32Array | T::PackedFloat32Array => 4,
            T::PackedInt64Array | T::PackedFloat64Array => 8,
            T::PackedColorArray => 16,
            T::PackedVector2Array => 2 * real,
            T::PackedVector3Array => 3 * real,
            T::PackedVector4Array => 4 * real,
            _ => 0,
        }
    }

    /// The elements, copied out of the input.
    pub fn to_vec<T: Plain>(&self) -> Vec<T> {
        debug_assert_eq!(self.bytes.len(), self.count * T::SIZE);
        Reader::new(self.bytes, 0)
            .read_plain_vec(self.count, "packed array")
            .expect("sized by the decoder")
    }

    /// The array as a [`Value`].
    pub fn to_value(&self) -> Value {
        use VariantType as T;
        match (self.array_type, self.wide) {
            (T::PackedByteArray, _) => Value::PackedByteArray(self.to_vec()),
            (T::PackedInt32Array, _) => Value::PackedInt32Array(self.to_vec()),
            (T::PackedInt64Array, _) => Value::PackedInt64Array(self.to_vec()),
            (T::PackedFloat32Array, _) => Value::PackedFloat32Array(self.to_vec()),
            (T::PackedFloat64Array, _) => Value::PackedFloat64Array(self.to_vec()),
            (T::PackedColorArray, _) => Value::PackedColorArray(self.to_vec()),
            (T::PackedVector2Array, false) => {
                Value::PackedVector2Array(PackedReals::Single(self.to_vec()))
            }
            (T::PackedVector2Array, true) => {
                Value::PackedVector2Array(PackedReals::Double(self.to_vec()))
            }
            (T::PackedVector3Array, false) => {
                Value::PackedVector3Array(PackedReals::Single(self.to_vec()))
            }
            (T::PackedVector3Array, true) => {
                Value::PackedVector3Array(PackedReals::Double(self.to_vec()))
            }
            (T::PackedVector4Array, false) => {
                Value::PackedVector4Array(PackedReals::Single(self.to_vec()))
            }
            (T::PackedVector4Array, true) => {
                Value::PackedVector4Array(PackedReals::Double(self.to_vec()))
            }
            (other, _) => unreachable!("{other} is not a packed array of plain elements"),
        }
    }
}

/// The builder of this crate's [`Value`]s.
#[derive(Debug, Default, Clone, Copy)]
pub struct ValueBuilder;

impl Build for ValueBuilder {
    type Value = Value;
    type Array = Vec<Value>;
    type Dictionary = DictionaryBuilder;
    type Error = DecodeError;

    #[inline]
    fn value(&mut self, v: Value) -> Result<Value, DecodeError> {
        Ok(v)
    }

    #[inline]
    fn begin_array(
        &mut self,
        _element_type: &ContainerType,
        capacity: usize,
    ) -> Result<Vec<Value>, DecodeError> {
        Ok(Vec::with_capacity(capacity))
    }

    #[inline]
    fn push(&mut self, items: &mut Vec<Value>, item: Value) -> Result<(), DecodeError> {
        items.push(item);
        Ok(())
    }

    #[inline]
    fn end_array(
        &mut self,
        items: Vec<Value>,
        element_type: ContainerType,
    ) -> Result<Value, DecodeError> {
        Ok(Value::Array(Box::new(Array {
            element_type,
            items,
        })))
    }

    #[inline]
    fn begin_dictionary(
        &mut self,
        _key_type: &ContainerType,
        _value_type: &ContainerType,
        capacity: usize,
    ) -> Result<DictionaryBuilder, DecodeError> {
        Ok(DictionaryBuilder::with_capacity(capacity))
    }

    #[inline]
    fn insert(
        &mut self,
        entries: &mut DictionaryBuilder,
        key: Value,
        value: Value,
    ) -> Result<(), DecodeError> {
        entries.insert(key, value);
        Ok(())
    }

    #[inline]
    fn end_dictionary(
        &mut self,
        entries: DictionaryBuilder,
        key_type: ContainerType,
        value_type: ContainerType,
    ) -> Result<Value, DecodeError> {
        Ok(Value::Dictionary(Box::new(
            entries.into_dictionary(key_type, value_type),
        )))
    }
}
