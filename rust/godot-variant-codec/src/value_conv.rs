//! Making and taking apart [`Value`]s as with `serde_json::Value`: `From` the Rust types
//! each Godot type stands for, `TryFrom` back to them, accessors, lookups by key or index,
//! and `FromIterator` for [`Array`] and [`Dictionary`]. (The math types and the packed
//! vector arrays convert from and to the structs of [`crate::serde`], under its feature.)

use std::fmt;

use crate::keys::{same_key, DictionaryBuilder};
use crate::types::VariantType;
use crate::value::{Array, ContainerType, Dictionary, FullObject, NodePath, Object, Signal, Value};

/// `Value::from` each type: the variant it becomes, and how the payload is made.
macro_rules! value_from {
    ($($ty:ty => $variant:ident($make:expr);)*) => {$(
        impl From<$ty> for Value {
            #[doc = concat!("A `Value::", stringify!($variant), "`.")]
            fn from(v: $ty) -> Value {
                #[allow(clippy::redundant_closure_call)]
                Value::$variant(($make)(v))
            }
        }
    )*};
}

value_from! {
    bool => Bool(|v| v);
    i8 => Int(i64::from);
    i16 => Int(i64::from);
    i32 => Int(i64::from);
    i64 => Int(|v| v);
    u8 => Int(i64::from);
    u16 => Int(i64::from);
    u32 => Int(i64::from);
    f32 => Float(f64::from);
    f64 => Float(|v| v);
    &str => String(str::to_owned);
    String => String(|v| v);
    Vec<Value> => Array(|items| Box::new(Array::from(items)));
    Array => Array(Box::new);
    Dictionary => Dictionary(Box::new);
    NodePath => NodePath(|v| v);
    Signal => Signal(|v| v);
    Object => Object(|v| v);
    FullObject => Object(|v| Object::Full(Box::new(v)));
    Vec<u8> => PackedByteArray(|v| v);
    Vec<i32> => PackedInt32Array(|v| v);
    Vec<i64> => PackedInt64Array(|v| v);
    Vec<f32> => PackedFloat32Array(|v| v);
    Vec<f64> => PackedFloat64Array(|v| v);
    Vec<String> => PackedStringArray(|v| v);
}

impl<T: Into<Value>> From<Option<T>> for Value {
    /// `None` is nil, `Some(v)` is `v`'s value.
    fn from(v: Option<T>) -> Value {
        v.map_or(Value::Nil, Into::into)
    }
}

/// A [`Value`] of another type than the one asked for (from `TryFrom<Value>`): the type
/// asked for, and the value itself, given back.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct WrongType {
    /// The type the conversion takes.
    pub expected: VariantType,
    /// The value it was given.
    pub value: Value,
}

impl WrongType {
    /// The error for `value`, which is not of type `expected`.
    pub fn new(expected: VariantType, value: Value) -> WrongType {
        WrongType { expected, value }
    }
}

impl fmt::Display for WrongType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "expected a {}, found a {}",
            self.expected,
            self.value.variant_type()
        )
    }
}

impl std::error::Error for WrongType {}

/// `TryFrom<Value>` for each type: the variants it is taken from, and how.
macro_rules! try_from_value {
    ($($ty:ty: $expected:ident, $($variant:ident)|+ => $take:expr;)*) => {$(
        impl TryFrom<Value> for $ty {
            type Error = WrongType;
            #[doc = concat!("From a `Value::", stringify!($expected), "`; any other value is a [`WrongType`].")]
            fn try_from(value: Value) -> Result<$ty, WrongType> {
                match value {
                    #[allow(clippy::redundant_closure_call)]
                    $(Value::$variant(v))|+ => Ok(($take)(v)),
                    other => Err(WrongType::new(VariantType::$expected, other)),
                }
            }
        }
    )*};
}

try_from_value! {
    bool: Bool, Bool => |v| v;
    i64: Int, Int => |v| v;
    f64: Float, Float => |v| v;
    String: String, String | StringName => |v| v;
    Array: Array, Array => |v: Box<Array>| *v;
    Vec<Value>: Array, Array => |mut v: Box<Array>| std::mem::take(&mut v.items);
    Dictionary: Dictionary, Dictionary => |v: Box<Dictionary>| *v;
    NodePath: NodePath, NodePath => |v| v;
    Signal: Signal, Signal => |v| v;
    Object: Object, Object => |v| v;
    Vec<u8>: PackedByteArray, PackedByteArray => |v| v;
    Vec<i32>: PackedInt32Array, PackedInt32Array => |v| v;
    Vec<i64>: PackedInt64Array, PackedInt64Array => |v| v;
    Vec<f32>: PackedFloat32Array, PackedFloat32Array => |v| v;
    Vec<f64>: PackedFloat64Array, PackedFloat64Array => |v| v;
    Vec<String>: PackedStringArray, PackedStringArray => |v| v;
}

/// What [`Value::get`] and [`Dictionary::get`] look up: an Array's element by its index
/// (`usize`), or a Dictionary's entry by its key: a `usize` is an int key, a `&str` a
/// String or StringName key, a [`Value`] a key equal to it.
///
/// Keys compare as the engine's Dictionary compares them (its `StringLikeVariantComparator`,
/// as [`decode`](crate::decode) keeps a Dictionary's keys): a String and a StringName of
/// the same text are one key, floats are one when equal or both NaN (`0.0` and `-0.0`
/// too), containers element by element; two objects are never one key but for the null
/// object (each stands for an instance of its own, as each decoded object is). Implemented
/// for these types only.
pub trait ValueIndex: sealed::Sealed {
    /// The element of `items` this index names, if any.
    #[doc(hidden)]
    fn in_array<'v>(&self, items: &'v [Value]) -> Option<&'v Value>;
    /// Whether `key` is the key this index names.
    #[doc(hidden)]
    fn is_key(&self, key: &Value) -> bool;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for usize {}
    impl Sealed for str {}
    impl Sealed for String {}
    impl Sealed for crate::Value {}
    impl<T: Sealed + ?Sized> Sealed for &T {}
}

impl ValueIndex for usize {
    fn in_array<'v>(&self, items: &'v [Value]) -> Option<&'v Value> {
        items.get(*self)
    }
    fn is_key(&self, key: &Value) -> bool {
        matches!(key, Value::Int(i) if u64::try_from(*i) == Ok(*self as u64))
    }
}

impl ValueIndex for str {
    fn in_array<'v>(&self, _: &'v [Value]) -> Option<&'v Value> {
        None
    }
    fn is_key(&self, key: &Value) -> bool {
        key.as_str() == Some(self)
    }
}

impl ValueIndex for String {
    fn in_array<'v>(&self, items: &'v [Value]) -> Option<&'v Value> {
        self.as_str().in_array(items)
    }
    fn is_key(&self, key: &Value) -> bool {
        self.as_str().is_key(key)
    }
}

impl ValueIndex for Value {
    fn in_array<'v>(&self, items: &'v [Value]) -> Option<&'v Value> {
        usize::try_from(self.as_int()?).ok()?.in_array(items)
    }
    fn is_key(&self, key: &Value) -> bool {
        same_key(self, key)
    }
}

impl<T: ValueIndex + ?Sized> ValueIndex for &T {
    fn in_array<'v>(&self, items: &'v [Value]) -> Option<&'v Value> {
        (**self).in_array(items)
    }
    fn is_key(&self, key: &Value) -> bool {
        (**self).is_key(key)
    }
}

/// What `value[index]` gives for an index or key that is not there, as `serde_json` does.
static NIL: Value = Value::Nil;

impl<I: ValueIndex> std::ops::Index<I> for Value {
    type Output = Value;

    /// As [`Value::get`], but nil when there is no such element or entry.
    fn index(&self, index: I) -> &Value {
        self.get(index).unwrap_or(&NIL)
    }
}

impl Value {
    /// Whether this is nil.
    pub fn is_nil(&self) -> bool {
        matches!(self, Value::Nil)
    }

    /// The bool, if this is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The int, if this is one.
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }

    /// The float, if this is one (an int is not: Godot keeps the two types apart).
    pub fn as_float(&self) -> Option<f64> {
        match self {
            Value::Float(x) => Some(*x),
            _ => None,
        }
    }

    /// The text of a String or a StringName.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) | Value::StringName(s) => Some(s),
            _ => None,
        }
    }

    /// The Array, if this is one.
    pub fn as_array(&self) -> Option<&Array> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The Array, to change, if this is one.
    pub fn as_array_mut(&mut self) -> Option<&mut Array> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The Dictionary, if this is one.
    pub fn as_dictionary(&self) -> Option<&Dictionary> {
        match self {
            Value::Dictionary(d) => Some(d),
            _ => None,
        }
    }

    /// The Dictionary, to change, if this is one.
    pub fn as_dictionary_mut(&mut self) -> Option<&mut Dictionary> {
        match self {
            Value::Dictionary(d) => Some(d),
            _ => None,
        }
    }

    /// The bytes of a PackedByteArray.
    pub fn as_bytes(&self) -> Option<&[u8]> {
        match self {
            Value::PackedByteArray(b) => Some(b),
            _ => None,
        }
    }

    /// An Array's element or a Dictionary's value (see [`ValueIndex`]: `value.get(0)`,
    /// `value.get("hp")`); `None` for any other value, or when there is none such.
    /// `value["hp"]["x"]` does the same, nil when there is none.
    pub fn get<I: ValueIndex>(&self, index: I) -> Option<&Value> {
        match self {
            Value::Array(a) => index.in_array(&a.items),
            Value::Dictionary(d) => d.get(index),
            _ => None,
        }
    }
}

impl Array {
    /// An untyped Array of `items`.
    pub fn new(items: Vec<Value>) -> Array {
        Array {
            element_type: ContainerType::Untyped,
            items,
        }
    }
}

impl From<Vec<Value>> for Array {
    /// An untyped Array of these elements.
    fn from(items: Vec<Value>) -> Array {
        Array::new(items)
    }
}

impl<T: Into<Value>> FromIterator<T> for Array {
    /// An untyped Array of these elements.
    fn from_iter<I: IntoIterator<Item = T>>(items: I) -> Array {
        Array::new(items.into_iter().map(Into::into).collect())
    }
}

impl<T: Into<Value>> FromIterator<T> for Value {
    /// An untyped Array of these elements.
    fn from_iter<I: IntoIterator<Item = T>>(items: I) -> Value {
        Value::from(items.into_iter().collect::<Array>())
    }
}

impl Dictionary {
    /// The value of the entry of `key` (see [`ValueIndex`]), found by a linear search of
    /// the entries.
    pub fn get<I: ValueIndex>(&self, key: I) -> Option<&Value> {
        self.entries
            .iter()
            .find(|(k, _)| key.is_key(k))
            .map(|(_, v)| v)
    }

    /// Sets the value of `key`, as the engine's `dict[key] = value` does: an existing
    /// entry of that key (see [`ValueIndex`]) keeps its place and gets the value (the old
    /// one is returned), else the entry is added last. The entry is found by a linear
    /// search: to make a large Dictionary, collect its entries instead (`FromIterator`),
    /// which finds repeated keys through a hash index, in time linear in the count.
    pub fn insert(&mut self, key: impl Into<Value>, value: impl Into<Value>) -> Option<Value> {
        let key = key.into();
        let value = value.into();
        match self.entries.iter_mut().find(|(k, _)| key.is_key(k)) {
            Some((_, old)) => Some(std::mem::replace(old, value)),
            None => {
                self.entries.push((key, value));
                None
            }
        }
    }
}

impl<K: Into<Value>, V: Into<Value>> FromIterator<(K, V)> for Dictionary {
    /// An untyped Dictionary of these entries, in order; a key met again (see
    /// [`ValueIndex`]) sets the value of its first entry, as [`Dictionary::insert`] does,
    /// found through the hash index that [`decode`](crate::decode) keeps keys with: linear
    /// time in the count, whatever the keys.
    fn from_iter<I: IntoIterator<Item = (K, V)>>(entries: I) -> Dictionary {
        let entries = entries.into_iter();
        let mut unique = DictionaryBuilder::with_capacity(entries.size_hint().0);
        for (key, value) in entries {
            unique.insert(key.into(), value.into());
        }
        unique.into_dictionary(ContainerType::Untyped, ContainerType::Untyped)
    }
}

impl<K: Into<Value>, V: Into<Value>, const N: usize> From<[(K, V); N]> for Dictionary {
    /// An untyped Dictionary of these entries, as [`FromIterator`] makes it.
    fn from(entries: [(K, V); N]) -> Dictionary {
        entries.into_iter().collect()
    }
}

impl<K: Into<Value>, V: Into<Value>, const N: usize> From<[(K, V); N]> for Value {
    /// A Dictionary of these entries (see [`Dictionary`]'s `FromIterator`).
    fn from(entries: [(K, V); N]) -> Value {
        Value::from(Dictionary::from(entries))
    }
}
