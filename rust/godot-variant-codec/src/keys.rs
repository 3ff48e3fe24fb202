//! Dictionary key identity as the engine's `HashMap<Variant, Variant, …, StringLikeVariantComparator>`
//! sees it, so that a repeated key replaces the earlier value in place, as `dict[key] = value` does.
//!
//! Keys are the same when `Variant::hash_compare` says so: same type (String and StringName
//! count as one), floats equal or both NaN, containers element by element. Objects are
//! never the same key unless both are null: each decoded object is a new instance.
//!
//! Keys come from the input, so finding a repeated one must cost the same on any input:
//! every key is hashed over all that the identity compares (with -0.0 and 0.0 alike, and
//! all NaNs alike), by a hasher seeded at random (std's SipHash-1-3 under a [`RandomState`]),
//! so that no input can choose keys of one hash; a new key is compared only with the keys
//! of its own hash.
//!
//! The index of a large Dictionary is an open-addressing table of 4-byte slots, each an
//! entry's number and bits of its hash, so that a new key costs one random access to a
//! table of 5 to 11 bytes a key (a `HashMap<u64, usize>` takes 20 and two accesses), and
//! that access is prefetched while the next entries are decoded: at 200 000 keys the table
//! is out of the core's cache, and its misses would cost more than the rest of decoding
//! an int key.

use std::collections::VecDeque;
use std::hash::{BuildHasher, Hasher, RandomState};

use crate::types::VariantType;
use crate::value::{ContainerType, Dictionary, Object, PackedReals, Reals, Value};
use crate::wire::prefetch_line;
use crate::StackRoom;

/// Entries collected in insertion order with the engine's key identity. `S` hashes the
/// keys: a [`RandomState`] but in the tests, which hash with weaker ones.
pub struct DictionaryBuilder<S = RandomState> {
    entries: Vec<(Value, Value)>,
    /// Built once the dictionary outgrows a linear scan.
    index: Option<Index<S>>,
    /// Keys compared with [`same_key`] so far.
    #[cfg(test)]
    comparisons: usize,
}

/// The entries' keys by hash: a table with linear probing, at most ¾ full, whose slots
/// hold an entry's number plus one (0: empty) in the low bits, under the high bits of the
/// entry's hash (its tag) in the bits the number leaves free. A slot whose tag differs
/// from the new key's is passed over without reading the entry; the entries of one hash
/// all sit on the probe sequence from that hash's home slot, so that a new key meets
/// every earlier key of its hash before an empty slot. Keys that no other key can equal
/// (they hold an object) have no slot.
struct Index<S> {
    slots: Vec<u32>,
    /// Per entry: its key's hash (0 for a key with no slot), checked before the key is.
    hashes: Vec<u64>,
    /// The numbers of the last entries whose slot is yet to be found, oldest first, at
    /// most [`LOOKAHEAD`] of them (see [`DictionaryBuilder::insert`]).
    pending: VecDeque<usize>,
    /// The entries, in order, whose key an earlier entry holds: their value went to that
    /// entry, and [`DictionaryBuilder::finish`] drops them.
    repeated: Vec<usize>,
    hasher: S,
}

/// How many entries later a key's slot is looked up: its cache line is prefetched when
/// the key is hashed, and read once this many more entries are decoded. At 200 000 keys
/// the table is out of the core's cache, and decoding one entry takes less time than a
/// miss to memory.
const LOOKAHEAD: usize = 8;

/// Up to this many entries, a linear scan beats hashing.
const LINEAR_SCAN_LIMIT: usize = 16;

impl DictionaryBuilder {
    pub fn with_capacity(capacity: usize) -> Self {
        Self::with_capacity_in(capacity)
    }
}

impl<S: BuildHasher + Default> DictionaryBuilder<S>
where
    S::Hasher: Clone,
{
    fn with_capacity_in(capacity: usize) -> Self {
        DictionaryBuilder {
            entries: Vec::with_capacity(capacity),
            index: None,
            #[cfg(test)]
            comparisons: 0,
        }
    }

    pub fn insert(&mut self, key: Value, value: Value) {
        if self.entries.len() < LINEAR_SCAN_LIMIT {
            #[cfg(test)]
            {
                self.comparisons += self.entries.len();
            }
            if let Some(entry) = self.entries.iter_mut().find(|(k, _)| same_key(k, &key)) {
                entry.1 = value;
            } else {
                self.entries.push((key, value));
            }
            return;
        }
        let index = self.index.get_or_insert_with(|| Index::of(&self.entries));
        let h = index.hash(&key);
        // A key that no key equals (`None`) is a new entry, with no slot.
        index.hashes.push(h.unwrap_or(0));
        self.entries.push((key, value));
        if let Some(h) = h {
            // Repeated entries keep their numbers until `finish`, so the table grows with
            // every entry: a slot holds a number below its count of slots.
            if 4 * self.entries.len() > 3 * index.slots.len() {
                index.grow();
            }
            let home = h as usize & (index.slots.len() - 1);
            prefetch_line(index.slots.as_ptr().wrapping_add(home).cast());
            index.pending.push_back(self.entries.len() - 1);
            if index.pending.len() > LOOKAHEAD {
                self.settle_oldest();
            }
        }
    }

    /// Looks up the oldest entry of those [`insert`](Self::insert) left pending: its value
    /// goes to the earlier entry of its key, if there is one, else the entry gets a slot.
    /// Entries are looked up in order, so an earlier entry of the same key has its slot.
    fn settle_oldest(&mut self) {
        let Some(index) = self.index.as_mut() else {
            return;
        };
        let Some(new) = index.pending.pop_front() else {
            return;
        };
        let h = index.hashes[new];
        let mask = index.slots.len() - 1;
        let numbers = mask as u32;
        let tag = tag(h, numbers);
        let mut at = h as usize & mask;
        loop {
            let slot = index.slots[at];
            if slot == 0 {
                break;
            }
            if slot & !numbers == tag {
                let i = (slot & numbers) as usize - 1;
                if index.hashes[i] == h {
                    #[cfg(test)]
                    {
                        self.comparisons += 1;
                    }
                    if same_key(&self.entries[i].0, &self.entries[new].0) {
                        // The repeated entry's key and value are dropped now, its place
                        // at `finish`.
                        let (_, value) = std::mem::take(&mut self.entries[new]);
                        self.entries[i].1 = value;
                        index.repeated.push(new);
                        return;
                    }
                }
            }
            at = (at + 1) & mask;
        }
        index.slots[at] = tag | slot_number(new);
    }

    /// Looks up every entry [`insert`](Self::insert) left pending.
    fn settle_pending(&mut self) {
        while self
            .index
            .as_ref()
            .is_some_and(|index| !index.pending.is_empty())
        {
            self.settle_oldest();
        }
    }

    /// The entries in order, each key once (its first place, its last value).
    pub fn finish(mut self) -> Vec<(Value, Value)> {
        self.settle_pending();
        let repeated = self.index.map(|index| index.repeated).unwrap_or_default();
        if !repeated.is_empty() {
            let mut repeated = repeated.into_iter().peekable();
            let mut at = 0;
            self.entries.retain(|_| {
                let keep = repeated.next_if_eq(&at).is_none();
                at += 1;
                keep
            });
        }
        self.entries
    }

    /// The Dictionary of these entries, of these key and value types.
    pub fn into_dictionary(self, key_type: ContainerType, value_type: ContainerType) -> Dictionary {
        Dictionary {
            key_type,
            value_type,
            entries: self.finish(),
        }
    }
}

/// The bits of `h` a slot keeps above the entry numbers, which take the bits of `numbers`.
#[inline]
fn tag(h: u64, numbers: u32) -> u32 {
    (h >> 32) as u32 & !numbers
}

/// The slot's number for entry `i`. A Dictionary's count is 31 bits, and the table has
/// more slots than entries, so the number fits the bits of the slot's index.
#[inline]
fn slot_number(i: usize) -> u32 {
    u32::try_from(i + 1).expect("a Dictionary has fewer than 2^31 entries")
}

impl<S: BuildHasher + Default> Index<S>
where
    S::Hasher: Clone,
{
    /// The index of `entries`, distinct keys, sized for as many entries as they have room
    /// for: the count the input announced (already capped by its length), so that the
    /// index is not rebuilt as it grows. A ¾-full table probes a few more slots than a
    /// half-full one, in the same cache line, and is half the size to miss in.
    fn of(entries: &Vec<(Value, Value)>) -> Self {
        let capacity = entries.capacity().max(LINEAR_SCAN_LIMIT + 1);
        let mut index = Index {
            slots: vec![0; (capacity * 4 / 3 + 1).next_power_of_two()],
            hashes: Vec::with_capacity(capacity),
            pending: VecDeque::with_capacity(LOOKAHEAD + 1),
            repeated: Vec::new(),
            hasher: S::default(),
        };
        for (i, (key, _)) in entries.iter().enumerate() {
            match index.hash(key) {
                Some(h) => {
                    index.place(h, slot_number(i));
                    index.hashes.push(h);
                }
                None => index.hashes.push(0),
            }
        }
        index
    }

    /// Puts entry `number` (its slot number) of hash `h`, a key no entry has, in the
    /// first empty slot from its home.
    fn place(&mut self, h: u64, number: u32) {
        let mask = self.slots.len() - 1;
        let mut at = h as usize & mask;
        while self.slots[at] != 0 {
            at = (at + 1) & mask;
        }
        self.slots[at] = tag(h, mask as u32) | number;
    }

    /// Twice the slots, every entry placed again by its hash: for a Dictionary whose
    /// input announced fewer entries than it has.
    fn grow(&mut self) {
        let larger = vec![0; 2 * self.slots.len()];
        let old = std::mem::replace(&mut self.slots, larger);
        let numbers = (old.len() - 1) as u32;
        for slot in old.into_iter().filter(|&s| s != 0) {
            let number = slot & numbers;
            self.place(self.hashes[number as usize - 1], number);
        }
    }

    /// The hash of `key`, or `None` when no key equals it.
    fn hash(&self, key: &Value) -> Option<u64> {
        let mut h = Blocks::new(self.hasher.build_hasher());
        hash_key(key, &mut h).then(|| h.finish())
    }
}

/// The most bytes [`Blocks`] holds before passing them on.
const BLOCK_SIZE: usize = 64;

/// The bytes fed to a hasher, passed on in blocks of up to [`BLOCK_SIZE`]: SipHash costs
/// much per call of `write` and little per byte, and [`hash_key`] feeds a key as many
/// small parts (a type, each length, each string, each number). The hash is the inner
/// hasher's of the same bytes in fewer calls.
struct Blocks<H> {
    inner: H,
    buffer: [u8; BLOCK_SIZE],
    len: usize,
}

impl<H: Hasher + Clone> Blocks<H> {
    fn new(inner: H) -> Self {
        Blocks {
            inner,
            buffer: [0; BLOCK_SIZE],
            len: 0,
        }
    }
}

impl<H: Hasher + Clone> Hasher for Blocks<H> {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        if self.len + bytes.len() > BLOCK_SIZE {
            self.inner.write(&self.buffer[..self.len]);
            self.len = 0;
            if bytes.len() > BLOCK_SIZE {
                self.inner.write(bytes);
                return;
            }
        }
        self.buffer[self.len..self.len + bytes.len()].copy_from_slice(bytes);
        self.len += bytes.len();
    }

    /// The hash of every byte fed: the inner hasher's state (a copy of a few words) fed
    /// the buffered rest.
    fn finish(&self) -> u64 {
        let mut inner = self.inner.clone();
        inner.write(&self.buffer[..self.len]);
        inner.finish()
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
        // Containers nest as deep as the decoder allowed: each level on a stack with room.
        (V::Array(x), V::Array(y)) => StackRoom::CODEC.run(|| same_all(&x.items, &y.items)),
        (V::Dictionary(x), V::Dictionary(y)) => StackRoom::CODEC.run(|| {
            x.entries.len() == y.entries.len()
                && x.entries
                    .iter()
                    .zip(&y.entries)
                    .all(|((k1, v1), (k2, v2))| same_key(k1, k2) && same_key(v1, v2))
        }),
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

/// Feeds `h` all that [`same_key`] compares of `v`, so that keys it calls the same hash
/// alike and any two others differ in what `h` is fed: the type (String and StringName as
/// one), then the content, every variable-length part after its length. Floats are fed
/// with all NaNs as one and -0.0 as 0.0, math types in the engine's precision, containers
/// element by element (their element types are not compared).
///
/// False when no key equals `v`: it holds an object other than null (`h` then holds part
/// of `v`).
fn hash_key<H: Hasher>(v: &Value, h: &mut H) -> bool {
    use Value as V;
    let t = match v {
        V::StringName(_) => VariantType::String,
        _ => v.variant_type(),
    };
    h.write_u8(t as u8);
    match v {
        V::Nil | V::Callable | V::Object(Object::Null) => {}
        V::Object(_) => return false,
        V::Bool(b) => h.write_u8(u8::from(*b)),
        V::Int(i) => h.write_i64(*i),
        V::Float(x) => h.write_u64(canonical_f64(*x)),
        V::String(s) | V::StringName(s) => hash_str(s, h),
        V::Vector2(r) => hash_f32s(&r.to_f32(), h),
        V::Rect2(r) | V::Vector4(r) | V::Plane(r) | V::Quaternion(r) => hash_f32s(&r.to_f32(), h),
        V::Vector3(r) => hash_f32s(&r.to_f32(), h),
        V::Transform2D(r) | V::Aabb(r) => hash_f32s(&r.to_f32(), h),
        V::Basis(r) => hash_f32s(&r.to_f32(), h),
        V::Transform3D(r) => hash_f32s(&r.to_f32(), h),
        V::Projection(r) => hash_f32s(&r.to_f32(), h),
        V::Color(c) => hash_f32s(c, h),
        V::Vector2i(x) => hash_i32s(x, h),
        V::Rect2i(x) | V::Vector4i(x) => hash_i32s(x, h),
        V::Vector3i(x) => hash_i32s(x, h),
        V::NodePath(p) => {
            h.write_u8(u8::from(p.is_absolute()));
            hash_strs(p.names(), h);
            hash_strs(p.subnames(), h);
        }
        V::Rid(id) => h.write_u64(*id),
        V::Signal(s) => {
            hash_str(&s.name, h);
            h.write_u64(s.object_id);
        }
        // Containers nest as deep as the decoder allowed: each level on a stack with room.
        V::Array(a) => {
            h.write_usize(a.items.len());
            return StackRoom::CODEC.run(|| a.items.iter().all(|x| hash_key(x, h)));
        }
        V::Dictionary(d) => {
            h.write_usize(d.entries.len());
            return StackRoom::CODEC.run(|| {
                d.entries
                    .iter()
                    .all(|(k, x)| hash_key(k, h) && hash_key(x, h))
            });
        }
        V::PackedByteArray(x) => {
            h.write_usize(x.len());
            h.write(x);
        }
        V::PackedInt32Array(x) => {
            h.write_usize(x.len());
            hash_i32s(x, h);
        }
        V::PackedInt64Array(x) => {
            h.write_usize(x.len());
            x.iter().for_each(|&i| h.write_i64(i));
        }
        V::PackedFloat32Array(x) => {
            h.write_usize(x.len());
            hash_f32s(x, h);
        }
        V::PackedFloat64Array(x) => {
            h.write_usize(x.len());
            x.iter().for_each(|&f| h.write_u64(canonical_f64(f)));
        }
        V::PackedStringArray(x) => hash_strs(x.iter().map(String::as_str), h),
        V::PackedColorArray(x) => {
            h.write_usize(x.len());
            x.iter().for_each(|c| hash_f32s(c, h));
        }
        V::PackedVector2Array(p) => hash_packed_reals(p, h),
        V::PackedVector3Array(p) => hash_packed_reals(p, h),
        V::PackedVector4Array(p) => hash_packed_reals(p, h),
    }
    true
}

/// The bits of `x` with all NaNs as one and -0.0 as 0.0, as [`same_f64`] compares.
fn canonical_f64(x: f64) -> u64 {
    if x.is_nan() {
        f64::NAN.to_bits()
    } else {
        (x + 0.0).to_bits()
    }
}

fn canonical_f32(x: f32) -> u32 {
    if x.is_nan() {
        f32::NAN.to_bits()
    } else {
        (x + 0.0).to_bits()
    }
}

fn hash_f32s<H: Hasher>(xs: &[f32], h: &mut H) {
    xs.iter().for_each(|&x| h.write_u32(canonical_f32(x)));
}

fn hash_i32s<H: Hasher>(xs: &[i32], h: &mut H) {
    xs.iter().for_each(|&x| h.write_i32(x));
}

fn hash_str<H: Hasher>(s: &str, h: &mut H) {
    h.write_usize(s.len());
    h.write(s.as_bytes());
}

fn hash_strs<'a, H: Hasher>(strings: impl ExactSizeIterator<Item = &'a str>, h: &mut H) {
    h.write_usize(strings.len());
    strings.for_each(|s| hash_str(s, h));
}

fn hash_packed_reals<const N: usize, H: Hasher>(p: &PackedReals<N>, h: &mut H) {
    h.write_usize(p.len());
    flat_f32(p).for_each(|x| h.write_u32(canonical_f32(x)));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::{Array, ContainerType, Dictionary, NodePath};
    use std::hash::BuildHasherDefault;

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

    fn array(items: Vec<Value>, element_type: ContainerType) -> Value {
        Value::Array(Box::new(Array {
            element_type,
            items,
        }))
    }

    fn dictionary(entries: Vec<(Value, Value)>) -> Value {
        Value::Dictionary(Box::new(Dictionary {
            entries,
            key_type: ContainerType::Untyped,
            value_type: ContainerType::Untyped,
        }))
    }

    fn node_path(i: usize) -> Value {
        Value::NodePath(NodePath::new(
            ["root".into(), format!("n{i}")],
            [format!("{}", i % 7)],
            i.is_multiple_of(2),
        ))
    }

    /// Pairs of keys that differ in their values but are one key to the engine.
    fn same_key_pairs() -> Vec<(Value, Value)> {
        let quiet_nan = f64::NAN;
        let other_nan = f64::from_bits(quiet_nan.to_bits() | 0x1234);
        vec![
            (Value::String("k".into()), Value::StringName("k".into())),
            (Value::Float(-0.0), Value::Float(0.0)),
            (Value::Float(quiet_nan), Value::Float(-other_nan)),
            (
                Value::Vector2(Reals::Single([1.5, -0.0])),
                Value::Vector2(Reals::Double([1.5, 0.0])),
            ),
            (
                Value::Vector3(Reals::Single([0.1, f32::NAN, 3.0])),
                Value::Vector3(Reals::Double([0.1, -f64::NAN, 3.0])),
            ),
            (
                Value::Color([-0.0, 0.5, 1.0, 1.0]),
                Value::Color([0.0, 0.5, 1.0, 1.0]),
            ),
            (
                Value::PackedVector3Array(PackedReals::Single(vec![[1.0, -0.0, 2.5]])),
                Value::PackedVector3Array(PackedReals::Double(vec![[1.0, 0.0, 2.5]])),
            ),
            (
                Value::PackedFloat64Array(vec![quiet_nan, -0.0]),
                Value::PackedFloat64Array(vec![other_nan, 0.0]),
            ),
            (
                array(vec![Value::Float(-0.0)], ContainerType::Untyped),
                array(
                    vec![Value::Float(0.0)],
                    ContainerType::Builtin(VariantType::Float),
                ),
            ),
            (
                dictionary(vec![(Value::StringName("x".into()), Value::Float(-0.0))]),
                dictionary(vec![(Value::String("x".into()), Value::Float(0.0))]),
            ),
            (Value::Object(Object::Null), Value::Object(Object::Null)),
        ]
    }

    #[test]
    fn keys_the_engine_calls_one_hash_alike_and_replace_in_place() {
        let hasher = RandomState::new();
        let hash = |key: &Value| {
            let mut h = hasher.build_hasher();
            assert!(hash_key(key, &mut h), "{key:?} can equal a key");
            h.finish()
        };
        let pairs = same_key_pairs();
        for (a, b) in &pairs {
            assert!(same_key(a, b), "{a:?} and {b:?} are one key");
            assert_eq!(hash(a), hash(b), "{a:?} and {b:?} hash alike");
        }
        // Past the linear scan: the index finds the first of each pair.
        let mut d = DictionaryBuilder::with_capacity(0);
        for i in 0..LINEAR_SCAN_LIMIT {
            d.insert(Value::Int(i as i64), Value::Nil);
        }
        for (i, (a, _)) in pairs.iter().enumerate() {
            d.insert(a.clone(), Value::Int(i as i64));
        }
        for (i, (_, b)) in pairs.iter().enumerate() {
            d.insert(b.clone(), Value::Int(-(i as i64)));
        }
        let entries = d.finish();
        assert_eq!(entries.len(), LINEAR_SCAN_LIMIT + pairs.len());
        for (i, (a, _)) in pairs.iter().enumerate() {
            let (key, value) = &entries[LINEAR_SCAN_LIMIT + i];
            assert!(same_key(key, a) && format!("{key:?}") == format!("{a:?}"));
            assert_eq!(value, &Value::Int(-(i as i64)));
        }
    }

    #[test]
    fn objects_are_no_key_but_their_own() {
        let hasher = RandomState::new();
        for key in [
            Value::Object(Object::Id(7)),
            array(vec![Value::Object(Object::Id(7))], ContainerType::Untyped),
            dictionary(vec![(Value::Int(1), Value::Object(Object::Id(7)))]),
        ] {
            assert!(!same_key(&key, &key.clone()));
            assert!(!hash_key(&key, &mut hasher.build_hasher()));
        }
    }

    /// One key of each kind the old hash took by type and length only, numbered `i`.
    fn keys_of_kind(kind: usize, n: usize) -> Vec<Value> {
        (0..n)
            .map(|i| {
                let (x, y) = ((i % 200) as i32, (i / 200) as i32);
                let f = i as f32 * 0.25 - 1000.0;
                match kind {
                    0 => Value::Int(i as i64),
                    1 => Value::Float(f64::from(f)),
                    2 => Value::String(format!("key_{i}")),
                    3 => Value::StringName(format!("key_{i}")),
                    4 => Value::Vector2i([x, y]),
                    5 => Value::Vector3(Reals::Single([f, -f, 0.5])),
                    6 => Value::Color([f, 0.5, 0.25, 1.0]),
                    7 => node_path(i),
                    8 => Value::PackedByteArray((i as u32).to_le_bytes().to_vec()),
                    9 => array(
                        vec![Value::Int(x.into()), Value::Int(y.into())],
                        ContainerType::Untyped,
                    ),
                    10 => {
                        Value::PackedVector2Array(PackedReals::Single(vec![[x as f32, y as f32]]))
                    }
                    _ => Value::Object(Object::Id(i as u64)),
                }
            })
            .collect()
    }

    const KINDS: usize = 12;

    /// The entries a linear scan of every earlier key keeps: what the index must keep.
    fn scanned(pairs: &[(Value, Value)]) -> Vec<(Value, Value)> {
        let mut entries: Vec<(Value, Value)> = Vec::new();
        for (k, v) in pairs {
            match entries.iter_mut().find(|(e, _)| same_key(e, k)) {
                Some(entry) => entry.1 = v.clone(),
                None => entries.push((k.clone(), v.clone())),
            }
        }
        entries
    }

    /// Keys of every kind repeated at every distance around the look-ahead (among the
    /// entries still to be looked up and past them, the first place also before the index
    /// was built), some several times in a row, and at the end (still pending at
    /// `finish`): the entries a linear scan keeps, each value in its key's first place.
    #[test]
    fn keys_repeated_near_and_far_replace_in_place() {
        // Every kind of key but objects (never one key); a String key repeated as its
        // StringName, which the engine takes for the same key.
        for kind in 0..KINDS - 1 {
            let keys = keys_of_kind(kind, 120);
            let again = |i: usize| match &keys[i] {
                Value::String(text) => Value::StringName(text.clone()),
                key => key.clone(),
            };
            for distance in 1..=2 * LOOKAHEAD + 2 {
                let mut pairs = Vec::new();
                for (i, key) in keys.iter().enumerate() {
                    pairs.push((key.clone(), Value::Int(i as i64)));
                    if i >= distance && i % 3 == 0 {
                        pairs.push((again(i - distance), Value::Int(-(i as i64))));
                    }
                    if i % 50 == 0 {
                        for j in 0..3 {
                            pairs.push((again(i), Value::Int(1000 + j)));
                        }
                    }
                }
                for i in 0..distance {
                    pairs.push((again(119 - i), Value::Int(-1000 - i as i64)));
                }
                let mut d = DictionaryBuilder::with_capacity(0);
                for (k, v) in &pairs {
                    d.insert(k.clone(), v.clone());
                }
                let entries = d.finish();
                assert_eq!(entries.len(), 120, "distance {distance}");
                assert_eq!(format!("{entries:?}"), format!("{:?}", scanned(&pairs)));
            }
        }
    }

    /// Keys fed to the hasher in parts longer than a block, and across blocks (non-ASCII
    /// Strings and byte arrays of up to 300 bytes, NodePaths of several such names), each
    /// inserted twice: the index keeps the entries a linear scan keeps.
    #[test]
    fn keys_longer_than_a_block_are_found_again() {
        let long = |i: usize| format!("ключ_{i}_{}", "名前é".repeat(i % 40));
        let mut pairs = Vec::new();
        for i in 0..200 {
            let key = match i % 3 {
                0 => Value::String(long(i)),
                1 => Value::PackedByteArray(long(i).into_bytes()),
                _ => Value::NodePath(NodePath::new([long(i), long(i + 1)], [long(i + 2)], true)),
            };
            pairs.push((key, Value::Int(i as i64)));
        }
        for i in 0..pairs.len() {
            pairs.push((pairs[i].0.clone(), Value::Int(-(i as i64))));
        }
        let mut d = DictionaryBuilder::with_capacity(0);
        for (k, v) in &pairs {
            d.insert(k.clone(), v.clone());
        }
        let entries = d.finish();
        assert_eq!(entries.len(), 200);
        assert_eq!(format!("{entries:?}"), format!("{:?}", scanned(&pairs)));
    }

    /// All keys of one hash: each new key is compared with every earlier one of its hash,
    /// and the entries are still those of a linear scan.
    #[test]
    fn keys_of_one_hash_keep_apart() {
        #[derive(Default, Clone)]
        struct OneHash;
        impl Hasher for OneHash {
            fn finish(&self) -> u64 {
                7
            }
            fn write(&mut self, _: &[u8]) {}
        }
        let mut pairs = Vec::new();
        for kind in 0..KINDS {
            for key in keys_of_kind(kind, 40) {
                pairs.push((key, Value::Int(pairs.len() as i64)));
            }
        }
        // Every key again with a new value, interleaved with new keys.
        for (i, key) in pairs.clone().into_iter().map(|(k, _)| k).enumerate() {
            pairs.push((key, Value::Int(-(i as i64))));
            pairs.push((Value::String(format!("new_{i}")), Value::Int(i as i64)));
        }
        let mut d = DictionaryBuilder::<BuildHasherDefault<OneHash>>::with_capacity_in(0);
        for (k, v) in &pairs {
            d.insert(k.clone(), v.clone());
        }
        d.settle_pending();
        let comparisons = d.comparisons;
        let entries = d.finish();
        let expected = scanned(&pairs);
        assert_eq!(entries.len(), expected.len());
        assert_eq!(format!("{entries:?}"), format!("{expected:?}"));
        // Objects are in no chain: only the other keys were compared, each new one with
        // every earlier one.
        let chained = entries.len() - 2 * 40;
        assert!(comparisons >= chained * (chained - 1) / 2, "{comparisons}");
    }

    /// Keys that the old hash took by type and length alone (Vector2i, Vector3, NodePath,
    /// packed arrays, …): distinct ones are compared with almost none, a repeated one with
    /// about one; a hash by type and length alone would compare N²/2 times.
    #[test]
    fn distinct_keys_of_every_kind_are_not_compared() {
        const N: usize = 20_000;
        for kind in 0..KINDS {
            let keys = keys_of_kind(kind, N);
            let mut d = DictionaryBuilder::with_capacity(N);
            for (i, key) in keys.iter().enumerate() {
                d.insert(key.clone(), Value::Int(i as i64));
            }
            d.settle_pending();
            let first = d.comparisons;
            for (i, key) in keys.iter().enumerate() {
                d.insert(key.clone(), Value::Int(-(i as i64)));
            }
            d.settle_pending();
            let comparisons = d.comparisons;
            let entries = d.finish();
            // Objects are never the same key: every insertion is an entry.
            let repeats = if kind == KINDS - 1 { 0 } else { N };
            assert_eq!(entries.len(), 2 * N - repeats, "kind {kind}");
            assert!(first <= N / 100, "kind {kind}: {first} comparisons");
            assert!(
                comparisons <= 2 * N,
                "kind {kind}: {comparisons} comparisons"
            );
            if repeats > 0 {
                for (i, (key, value)) in entries.iter().enumerate() {
                    assert!(same_key(key, &keys[i]));
                    assert_eq!(value, &Value::Int(-(i as i64)));
                }
            }
        }
    }
}
