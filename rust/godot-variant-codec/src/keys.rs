//! Dictionary key identity as the engine's `HashMap<Variant, Variant, …, StringLikeVariantComparator>`
//! sees it, so that a repeated key replaces the earlier value in place, as `dict[key] = value` does.
//!
//! Keys are the same when `Variant::hash_compare` says so: same type (String and StringName
//! count as one), floats equal or both NaN, containers element by element. Objects are
//! never the same key unless both are null: each decoded object is a new instance.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::value::{Object, PackedReals, Reals, Value};

/// Entries collected in insertion order with the engine's key identity.
pub struct DictionaryBuilder {
    entries: Vec<(Value, Value)>,
    /// Key hash → index of the first entry with that hash; built once the dictionary
    /// outgrows a linear scan.
    index: Option<HashMap<u64, usize, BuildHasherDefault<FoldHasher>>>,
    hashes: Vec<u64>,
}

/// Up to this many entries, a linear scan beats hashing.
const LINEAR_SCAN_LIMIT: usize = 16;

impl DictionaryBuilder {
    pub fn with_capacity(capacity: usize) -> Self {
        DictionaryBuilder {
            entries: Vec::with_capacity(capacity),
            index: None,
            hashes: Vec::new(),
        }
    }

    pub fn insert(&mut self, key: Value, value: Value) {
        if self.entries.len() < LINEAR_SCAN_LIMIT {
            if let Some(entry) = self.entries.iter_mut().find(|(k, _)| same_key(k, &key)) {
                entry.1 = value;
            } else {
                self.entries.push((key, value));
            }
            return;
        }
        if self.index.is_none() {
            // Sized for the count the input announced (already capped by its length), so
            // that the index is not rebuilt as it grows.
            let capacity = self.entries.capacity();
            self.hashes = Vec::with_capacity(capacity);
            self.hashes
                .extend(self.entries.iter().map(|(k, _)| hash_of(k)));
            let mut index = HashMap::with_capacity_and_hasher(capacity, Default::default());
            for (i, &h) in self.hashes.iter().enumerate() {
                index.entry(h).or_insert(i);
            }
            self.index = Some(index);
        }
        let h = hash_of(&key);
        let index = self.index.as_mut().expect("built above");
        if let Some(&first) = index.get(&h) {
            let existing = (first..self.entries.len())
                .find(|&i| self.hashes[i] == h && same_key(&self.entries[i].0, &key));
            if let Some(i) = existing {
                self.entries[i].1 = value;
                return;
            }
        } else {
            index.insert(h, self.entries.len());
        }
        self.hashes.push(h);
        self.entries.push((key, value));
    }

    pub fn finish(self) -> Vec<(Value, Value)> {
        self.entries
    }
}

fn same_f64(a: f64, b: f64) -> bool {
    a == b || (a.is_nan() && b.is_nan())
}

fn same_f32s(a: &[f32], b: &[f32]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(&x, &y)| same_f64(x.into(), y.into()))
}

/// Math types compare in the engine's own precision (`float` in a default build).
fn same_reals<const N: usize>(a: &Reals<N>, b: &Reals<N>) -> bool {
    same_f32s(&a.to_f32(), &b.to_f32())
}

fn same_packed_reals<const N: usize>(a: &PackedReals<N>, b: &PackedReals<N>) -> bool {
    a.len() == b.len()
        && flat_f32(a)
            .zip(flat_f32(b))
            .all(|(x, y)| same_f64(x.into(), y.into()))
}

fn flat_f32<const N: usize>(p: &PackedReals<N>) -> Box<dyn Iterator<Item = f32> + '_> {
    match p {
        PackedReals::Single(v) => Box::new(v.iter().flatten().copied()),
        PackedReals::Double(v) => Box::new(v.iter().flatten().map(|&x| x as f32)),
    }
}

fn same_all(a: &[Value], b: &[Value]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same_key(x, y))
}

/// `StringLikeVariantComparator`: whether two keys are one entry.
///
/// Inlined for the usual keys, Strings and ints, which compare by plain equality.
#[inline]
pub fn same_key(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::String(x), Value::String(y)) => x == y,
        (Value::Int(x), Value::Int(y)) => x == y,
        _ => same_key_any(a, b),
    }
}

#[inline(never)]
fn same_key_any(a: &Value, b: &Value) -> bool {
    use Value as V;
    match (a, b) {
        (V::String(x) | V::StringName(x), V::String(y) | V::StringName(y)) => x == y,
        (V::Float(x), V::Float(y)) => same_f64(*x, *y),
        (V::Vector2(x), V::Vector2(y)) => same_reals(x, y),
        (V::Rect2(x), V::Rect2(y))
        | (V::Vector4(x), V::Vector4(y))
        | (V::Plane(x), V::Plane(y))
        | (V::Quaternion(x), V::Quaternion(y)) => same_reals(x, y),
        (V::Vector3(x), V::Vector3(y)) => same_reals(x, y),
        (V::Transform2D(x), V::Transform2D(y)) | (V::Aabb(x), V::Aabb(y)) => same_reals(x, y),
        (V::Basis(x), V::Basis(y)) => same_reals(x, y),
        (V::Transform3D(x), V::Transform3D(y)) => same_reals(x, y),
        (V::Projection(x), V::Projection(y)) => same_reals(x, y),
        (V::Color(x), V::Color(y)) => same_f32s(x, y),
        (V::Object(Object::Null), V::Object(Object::Null)) => true,
        (V::Object(_), V::Object(_)) => false,
        (V::Array(x), V::Array(y)) => same_all(&x.items, &y.items),
        (V::Dictionary(x), V::Dictionary(y)) => {
            x.entries.len() == y.entries.len()
                && x.entries
                    .iter()
                    .zip(&y.entries)
                    .all(|((k1, v1), (k2, v2))| same_key(k1, k2) && same_key(v1, v2))
        }
        (V::PackedFloat32Array(x), V::PackedFloat32Array(y)) => same_f32s(x, y),
        (V::PackedFloat64Array(x), V::PackedFloat64Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(&p, &q)| same_f64(p, q))
        }
        (V::PackedColorArray(x), V::PackedColorArray(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_f32s(p, q))
        }
        (V::PackedVector2Array(x), V::PackedVector2Array(y)) => same_packed_reals(x, y),
        (V::PackedVector3Array(x), V::PackedVector3Array(y)) => same_packed_reals(x, y),
        (V::PackedVector4Array(x), V::PackedVector4Array(y)) => same_packed_reals(x, y),
        // Everything else has no float in it: plain equality is the engine's.
        _ => a == b,
    }
}

/// A hash consistent with [`same_key`]: floats by value with all NaNs and both zeros as one,
/// String and StringName alike, containers by their elements.
fn hash_of(v: &Value) -> u64 {
    let mut h = FoldHasher::default();
    hash_key(v, &mut h);
    h.finish()
}

fn hash_float(x: f64, h: &mut FoldHasher) {
    let canonical = if x.is_nan() {
        f64::NAN
    } else if x == 0.0 {
        0.0
    } else {
        x
    };
    h.write_u64(canonical.to_bits());
}

fn hash_key(v: &Value, h: &mut FoldHasher) {
    use Value as V;
    match v {
        V::String(s) | V::StringName(s) => {
            h.write_u8(4);
            h.write(s.as_bytes());
        }
        V::Float(x) => hash_float(*x, h),
        V::Int(i) => h.write_u64(*i as u64),
        V::Bool(b) => h.write_u8(u8::from(*b)),
        V::Array(a) => a.items.iter().for_each(|x| hash_key(x, h)),
        V::Dictionary(d) => d.entries.iter().for_each(|(k, x)| {
            hash_key(k, h);
            hash_key(x, h);
        }),
        // Other types: by type and length only; `same_key` settles the rest.
        other => {
            h.write_u8(other.variant_type() as u8);
            h.write_usize(packed_len(other));
        }
    }
}

fn packed_len(v: &Value) -> usize {
    match v {
        Value::PackedByteArray(x) => x.len(),
        Value::PackedInt32Array(x) => x.len(),
        Value::PackedInt64Array(x) => x.len(),
        Value::PackedFloat32Array(x) => x.len(),
        Value::PackedFloat64Array(x) => x.len(),
        Value::PackedStringArray(x) => x.len(),
        Value::PackedColorArray(x) => x.len(),
        Value::PackedVector2Array(x) => x.len(),
        Value::PackedVector3Array(x) => x.len(),
        Value::PackedVector4Array(x) => x.len(),
        _ => 0,
    }
}

/// A small multiply-fold hasher: keys come from the input, but collisions only cost a
/// comparison against the entries with the same hash.
#[derive(Default)]
pub struct FoldHasher(u64);

impl Hasher for FoldHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
        self.write_usize(bytes.len());
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0 ^ x)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(23);
    }
    fn write_u8(&mut self, x: u8) {
        self.write_u64(u64::from(x));
    }
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_keys_replace_in_place() {
        for n in [3usize, 40] {
            let mut b = DictionaryBuilder::with_capacity(0);
            for i in 0..n {
                b.insert(Value::Int(i as i64), Value::Int(0));
            }
            b.insert(Value::StringName("a".into()), Value::Int(1));
            b.insert(Value::String("a".into()), Value::Int(2));
            b.insert(Value::Float(-0.0), Value::Int(3));
            b.insert(Value::Float(0.0), Value::Int(4));
            b.insert(Value::Float(f64::NAN), Value::Int(5));
            b.insert(Value::Float(-f64::NAN), Value::Int(6));
            b.insert(Value::Object(Object::Id(7)), Value::Int(7));
            b.insert(Value::Object(Object::Id(7)), Value::Int(8));
            let e = b.finish();
            assert_eq!(e.len(), n + 5);
            assert_eq!(e[n], (Value::StringName("a".into()), Value::Int(2)));
            assert_eq!(e[n + 1].1, Value::Int(4));
            assert_eq!(e[n + 2].1, Value::Int(6));
        }
    }
}
