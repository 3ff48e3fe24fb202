//! Bytes → Godot `Variant`s, straight from the bytes: the codec's decoder reads the format
//! and calls this builder, which makes each engine value as it goes (no intermediate value
//! model for the common types; packed arrays copied in bulk into their memory).
//!
//! What the codec works out on its own value model (typed containers' conversions, full
//! objects, the math types) arrives as a [`Value`] and is made by
//! [`to_variant`]. Runs on the calling thread: it creates the engine
//! values for that thread.

use std::sync::atomic::{AtomicUsize, Ordering};

use crate::engine::string::string_name;
use godot::builtin::{
    Color, GString, PackedArray, PackedByteArray, PackedStringArray, VarArray, VarDictionary,
    Variant, VariantType, Vector2, Vector3, Vector4,
};
use godot::meta::PackedElement;
use godot::meta::ToGodot;
use godot::obj::EngineEnum;
use godot::sys::GodotFfi;
use godot_variant_codec::{
    decode_inline, decode_with, Build, ContainerType, DecodeError, DecodeOptions, Packed,
    RawNodePath, RawText, Value, VariantType as WireType,
};

use crate::convert::builder_caches::{self, return_caches, take_thread_caches, Caches};
use crate::convert::to_variant::{self, element_spec, ToVariantError};
use crate::engine::cow_data;
use crate::engine::ffi::{ffi, Ffi};
use crate::engine::layout::VARIANT_WORDS;
use crate::engine::math_types::WIDE_REALS;
use crate::engine::node_path;
use crate::engine::packed_types::packed_types;
use crate::engine::parallel;
use crate::engine::typed_containers::{typed_array, typed_dictionary, ElementSpec};

/// Why bytes could not be made into a value (see [`ReadErrorKind`]). Boxed: every call of
/// the decoder returns it in a `Result`, which so stays little more than the Variant it
/// holds when there is no error (the usual case, which moves less).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error(transparent)]
pub struct ReadError(Box<ReadErrorKind>);

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ReadErrorKind {
    /// The format refused the bytes.
    #[error(transparent)]
    Format(DecodeError),
    /// The engine could not make what they hold (a class that cannot be instantiated, a
    /// missing script).
    #[error(transparent)]
    Value(ToVariantError),
}

impl ReadError {
    pub fn into_kind(self) -> ReadErrorKind {
        *self.0
    }
}

impl From<DecodeError> for ReadError {
    #[cold]
    fn from(e: DecodeError) -> Self {
        ReadError(Box::new(ReadErrorKind::Format(e)))
    }
}

impl From<ToVariantError> for ReadError {
    #[cold]
    fn from(e: ToVariantError) -> Self {
        ReadError(Box::new(ReadErrorKind::Value(e)))
    }
}

/// The strings of a PackedStringArray made per piece when they are shared with the pool.
const STRINGS_PIECE: usize = 2048;

/// PackedStringArrays of fewer strings are made on the calling thread alone (one piece);
/// from two pieces on, sharing them pays where [`strings_shared`] says so (bench.gd's
/// PackedStringArray rows, also with the pool off and beside a busy core).
const PARALLEL_STRINGS_MIN: usize = 4096;

/// Where the engine's allocations queue on each other ([`parallel::allocations_shared`]),
/// a PackedStringArray's texts are shared with the pool only when they average at least
/// this many bytes: then reading and widening them outweighs the wait per String
/// (shapes.gd's 40k texts of 64–256 bytes gain, its 100k texts of 16 bytes and bench.gd's
/// of 0–23 lose).
const QUEUED_ALLOCATION_TEXT_MIN: usize = 64;

/// Whether making the Strings of `strings` gains from the pool (at least
/// [`PARALLEL_STRINGS_MIN`] of them, which `parallel::in_pieces` checks).
fn strings_shared(strings: &[RawText<'_>]) -> bool {
    parallel::allocations_shared()
        || strings.len() >= PARALLEL_STRINGS_MIN
            && strings.iter().map(RawText::encoded_len).sum::<usize>()
                >= strings.len() * QUEUED_ALLOCATION_TEXT_MIN
}

/// The builder of engine Variants.
pub struct VariantBuilder {
    ffi: &'static Ffi,
    /// The Dictionaries begun (see [`KeyCache`](crate::convert::builder_caches::KeyCache)
    /// for the keys of the first).
    dictionaries: usize,
    /// Made when first needed: one small value per call needs neither cache, and a builder
    /// of one word to set and one to check when dropped costs such a call least.
    caches: Option<Box<Caches>>,
}

impl VariantBuilder {
    pub fn new() -> Self {
        VariantBuilder {
            ffi: ffi(),
            dictionaries: 0,
            caches: None,
        }
    }

    fn caches(&mut self) -> &mut Caches {
        self.caches.get_or_insert_with(take_thread_caches)
    }

    /// As [`decode_variant`], by this builder (a batch decodes all its packets by one, so
    /// that they share its keys).
    pub fn decode(
        &mut self,
        bytes: &[u8],
        base: usize,
        opts: &DecodeOptions,
    ) -> Result<(Variant, usize), ReadError> {
        decode_with(bytes, base, opts, self).map(|(item, used)| (item.into_variant(), used))
    }
}

impl Drop for VariantBuilder {
    /// The check for caches inline (a builder of one small value has none), their return
    /// to the thread out of line: the drop of the `Option` would be a call for every
    /// builder.
    #[inline(always)]
    fn drop(&mut self) {
        if let Some(caches) = self.caches.take() {
            return_caches(caches);
        }
    }
}

/// A decoded Variant on its way through the decoder to its container, held as its words
/// (three, or five in a double-precision build). Moved as a Variant (opaque bytes), the compiler copies it 16 bytes at a time,
/// and a 16-byte read of memory just written by narrower stores waits for the writes to
/// reach the cache: the processor cannot forward them from its store buffer. So the words
/// are read into an item as they were written ([`new`](Self::new) for a Variant made here
/// a word at a time, [`from_engine`](Self::from_engine) for one the engine made), and out
/// of it one at a time (volatile reads, which the compiler does not merge); in between, as
/// integers, they are mostly moved a word at a time (the shapes.gd rows of Arrays of
/// bools/nulls, Vector3 and Transform3D guard this).
///
/// Plain `u64`s, not `MaybeUninit` (the 4 bytes after the Variant's 32-bit type are
/// padding, which the engine may leave unset): `MaybeUninit` words are moved as bytes
/// again, and the waits come back. The words are only moved, never looked at.
#[repr(C)]
pub struct VariantWords([u64; VARIANT_WORDS]);

impl VariantWords {
    /// An item of a Variant made here, from its words.
    #[inline(always)]
    fn new(v: Variant) -> Self {
        // SAFETY: a Variant is `VARIANT_WORDS` words, aligned as words; the item owns it
        // from now on.
        VariantWords(unsafe { std::mem::transmute::<Variant, [u64; VARIANT_WORDS]>(v) })
    }

    /// An item of a Variant the engine made (a constructor writes the 32-bit type, then
    /// the value): its first word read as its two halves, then the others.
    #[inline(always)]
    fn from_engine(v: Variant) -> Self {
        let v = std::mem::ManuallyDrop::new(v);
        let at = std::ptr::from_ref(&*v).cast::<u64>();
        let mut words = [0; VARIANT_WORDS];
        // SAFETY: a Variant is `VARIANT_WORDS` words, aligned as words, read within; the
        // item owns it from now on (`v` is not dropped).
        unsafe {
            let halves = at.cast::<u32>();
            words[0] =
                u64::from(halves.read_volatile()) | u64::from(halves.add(1).read_volatile()) << 32;
            for (i, word) in words.iter_mut().enumerate().skip(1) {
                *word = at.add(i).read_volatile();
            }
        }
        VariantWords(words)
    }

    /// The item's words, read one at a time (volatile reads, which the compiler does not
    /// merge); its Variant's ownership passes to the caller.
    #[inline(always)]
    fn into_words(self) -> [u64; VARIANT_WORDS] {
        let item = std::mem::ManuallyDrop::new(self);
        let mut words = [0; VARIANT_WORDS];
        for (word, own) in words.iter_mut().zip(&item.0) {
            // SAFETY: a read of the item's own word.
            *word = unsafe { std::ptr::from_ref(own).read_volatile() };
        }
        words
    }

    #[inline(always)]
    fn into_variant(self) -> Variant {
        // SAFETY: the words of the Variant the item owned, whose ownership passes back.
        unsafe { std::mem::transmute::<[u64; VARIANT_WORDS], Variant>(self.into_words()) }
    }

    /// Moves the item's Variant into `*dst`, a word at a time, dropping the one there.
    ///
    /// # Safety
    /// `dst` points to a live Variant that nothing else reads or writes meanwhile.
    #[inline(always)]
    unsafe fn replace(self, dst: *mut Variant) {
        // The value union is written in pairs of words.
        const { assert!(VARIANT_WORDS % 2 == 1) };
        let words = self.into_words();
        // SAFETY: the caller's promise; the words of the item's Variant, whose ownership
        // passes to `*dst`.
        unsafe {
            ffi().drop_in_place(dst);
            let at = dst.cast::<u64>();
            at.write(words[0]);
            for i in (1..VARIANT_WORDS).step_by(2) {
                write_pair(at.add(i), words[i], words[i + 1]);
            }
        }
    }
}

/// Writes `b` and `c` to the two words at `at` as one 16-byte store: the engine reads a
/// Variant's value (its last two words) back as one 16-byte load, which waits for the
/// writes to reach the cache when they were two (see [`VariantWords`]) — a varcall's caller reads
/// its return value right after the call.
///
/// # Safety
/// `at` is valid for writes of two words, aligned as words.
#[inline(always)]
unsafe fn write_pair(at: *mut u64, b: u64, c: u64) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE2 is part of x86_64; `at` as the caller promises (an unaligned store).
    unsafe {
        use std::arch::x86_64::{_mm_set_epi64x, _mm_storeu_si128};
        _mm_storeu_si128(at.cast(), _mm_set_epi64x(c as i64, b as i64));
    }
    #[cfg(not(target_arch = "x86_64"))]
    // SAFETY: as the caller promises.
    unsafe {
        at.write(b);
        at.add(1).write(c);
    }
}

impl Drop for VariantWords {
    fn drop(&mut self) {
        // SAFETY: as in `into_variant`; the item is not used again.
        drop(unsafe { std::mem::transmute::<[u64; VARIANT_WORDS], Variant>(self.0) });
    }
}

/// An Array being filled. It is sized up front (to what the input can hold) and filled in
/// place, except that a typed one checks its items as the engine's decoder has them
/// checked (by `push_back`); see [`Elements`].
pub struct ArrayFill {
    array: VarArray,
    elements: Elements,
    reserved: usize,
    /// The first of the `reserved` elements, when they lie one after the other (null
    /// otherwise: each is then found by a call into the engine).
    slots: *mut Variant,
    len: usize,
}

/// What an Array's items must be to go in place.
enum Elements {
    /// Untyped: anything.
    Any,
    /// Typed with a builtin type: items of that type, which the engine's check lets
    /// through unchanged. Anything else goes through the engine's `push_back` on the
    /// `scratch` array of the same type, which converts it (an int into a float array) or
    /// refuses it with the engine's error, as decoding with the engine does.
    Builtin {
        variant_type: VariantType,
        scratch: Option<VarArray>,
    },
    /// Typed with a class or script: every item through the engine's `push_back`.
    Checked,
}

/// A Dictionary being filled.
pub struct DictionaryFill {
    dictionary: VarDictionary,
    typed: bool,
}

impl Build for VariantBuilder {
    type Value = VariantWords;
    type Array = ArrayFill;
    type Dictionary = DictionaryFill;
    type Error = ReadError;
    // The engine's typed Arrays and Dictionaries filled here check each element themselves.
    const CHECKS_ELEMENTS: bool = false;

    fn value(&mut self, v: Value) -> Result<VariantWords, ReadError> {
        Ok(VariantWords::from_engine(to_variant::variant(&v)?))
    }

    #[inline(always)]
    fn single_reals(&mut self, t: WireType, components: &[f32]) -> Result<VariantWords, ReadError> {
        // The types a Variant holds inline are made in place, of `real_t`s (a Color of
        // floats); the others (Transform2D, AABB, Basis, Transform3D, Projection) from their
        // components by the engine.
        let made = if WIDE_REALS && t != WireType::Color {
            widened(components)
                .and_then(|(wide, n)| self.ffi.plain_variant(engine_type(t), &wide[..n]))
        } else {
            self.ffi.plain_variant(engine_type(t), components)
        };
        if let Some(made) = made {
            return Ok(VariantWords::new(made));
        }
        match to_variant::boxed_math(t, components) {
            Some(made) => Ok(VariantWords::from_engine(made)),
            None => self.value(Value::single_reals(t, components)),
        }
    }

    fn int_components(
        &mut self,
        t: WireType,
        components: &[i32],
    ) -> Result<VariantWords, ReadError> {
        match self.ffi.plain_variant(engine_type(t), components) {
            Some(made) => Ok(VariantWords::new(made)),
            None => self.value(Value::int_components(t, components)),
        }
    }

    #[inline]
    fn nil(&mut self) -> Result<VariantWords, ReadError> {
        Ok(VariantWords::new(self.ffi.nil()))
    }

    #[inline]
    fn bool(&mut self, b: bool) -> Result<VariantWords, ReadError> {
        Ok(VariantWords::new(self.ffi.bool(b)))
    }

    #[inline]
    fn int(&mut self, i: i64) -> Result<VariantWords, ReadError> {
        Ok(VariantWords::new(self.ffi.int(i)))
    }

    #[inline]
    fn float(&mut self, f: f64) -> Result<VariantWords, ReadError> {
        Ok(VariantWords::new(self.ffi.float(f)))
    }

    #[inline]
    fn string(&mut self, s: &str) -> Result<VariantWords, ReadError> {
        Ok(VariantWords::new(self.ffi.string_variant(s)))
    }

    #[inline]
    fn raw_string(&mut self, raw: &RawText<'_>) -> Result<VariantWords, ReadError> {
        Ok(VariantWords::new(self.ffi.raw_string_variant(raw)?))
    }

    fn string_name(&mut self, s: &str) -> Result<VariantWords, ReadError> {
        Ok(VariantWords::new(
            self.ffi.string_name_variant(string_name(s)),
        ))
    }

    fn node_path(&mut self, path: RawNodePath<'_>) -> Result<VariantWords, ReadError> {
        // Made from its names where the `node_paths` probe found the layout.
        let made = || {
            node_path::node_paths()
                .and_then(|paths| paths.make(path.names(), path.subnames(), path.absolute))
        };
        match path.encoded() {
            // Kept by its bytes (see `builder_caches::NodePathCache`); made, else the
            // engine's own decoding of the same bytes.
            Some(encoded) => Ok(VariantWords::from_engine(
                self.caches().node_paths.get(encoded, made),
            )),
            // A path the generation's rules changed: made from its texts.
            None => match made() {
                Some(path) => Ok(VariantWords::from_engine(path)),
                None => self.value(Value::NodePath(path.to_node_path())),
            },
        }
    }

    fn packed(&mut self, p: Packed<'_>) -> Result<VariantWords, ReadError> {
        Ok(VariantWords::from_engine(packed_array(p)))
    }

    fn packed_strings(&mut self, strings: &[RawText<'_>]) -> Result<VariantWords, ReadError> {
        let mut array = PackedStringArray::new();
        // SAFETY: a new array; every slot is written below.
        let slots = unsafe { cow_data::sized(&mut array, strings.len()) } as usize;
        let slot = |i: usize| (slots as *mut GString).wrapping_add(i);
        let ffi = self.ffi;
        let first_invalid = AtomicUsize::new(usize::MAX);
        // Reading a text and making its String is memory work (the engine's allocator,
        // which any thread may call, and a copy of the text) into a slot nothing else
        // writes: large arrays share it with the pool (see `strings_shared`).
        let made = parallel::in_pieces(
            strings.len(),
            STRINGS_PIECE,
            match strings_shared(strings) {
                true => PARALLEL_STRINGS_MIN,
                false => usize::MAX,
            },
            &|piece| {
                for i in piece.clone() {
                    let raw = &strings[i];
                    // Below the size, a slot is not initialized or an empty String, which
                    // owns nothing; each slot is in one piece only.
                    let made = match raw.plain() {
                        Some(text) => {
                            // SAFETY: as said above; a plain text is ASCII without NUL.
                            unsafe { ffi.make_ascii_string(slot(i), text) };
                            Ok(())
                        }
                        // SAFETY: as said above.
                        None if unsafe { ffi.make_string_from_utf8(slot(i), raw) } => Ok(()),
                        None => raw.text_by_rules().map(|text| {
                            // SAFETY: as said above.
                            unsafe { ffi.make_string(slot(i), text) }
                        }),
                    };
                    if made.is_err() {
                        first_invalid.fetch_min(i, Ordering::Relaxed);
                        // The rest of the piece holds empty Strings, for the array's drop.
                        // SAFETY: as above.
                        (i..piece.end).for_each(|j| unsafe { slot(j).write(GString::new()) });
                        return;
                    }
                }
            },
        );
        if let Err(panic) = made {
            // A piece that panicked may have left slots uninitialized, which the array's drop
            // would read: it is leaked instead (on this path only), and the panic raised
            // again now that every piece is done (`guarded` reports it as ERR_BUG).
            std::mem::forget(array);
            panic.resume();
        }
        // The error of the first invalid text, as reading them in order would give it.
        match strings.get(first_invalid.into_inner()).map(RawText::text) {
            Some(Err(invalid)) => Err(invalid.into()),
            _ => Ok(VariantWords::from_engine(array.to_variant())),
        }
    }

    #[inline(always)]
    fn begin_array(
        &mut self,
        element_type: &ContainerType,
        capacity: usize,
    ) -> Result<ArrayFill, ReadError> {
        let (mut array, elements) = match element_type {
            ContainerType::Untyped => (VarArray::new(), Elements::Any),
            typed => {
                let spec = element_spec(typed)?;
                let elements = match spec.variant_type {
                    VariantType::NIL => Elements::Any,
                    VariantType::OBJECT => Elements::Checked,
                    variant_type => Elements::Builtin {
                        variant_type,
                        scratch: None,
                    },
                };
                (typed_array(&spec), elements)
            }
        };
        let reserved = match elements {
            Elements::Checked => 0,
            _ => capacity,
        };
        let mut slots = std::ptr::null_mut();
        if reserved > 0 {
            // SAFETY: a new array held only here. A typed one's new slots hold its type's
            // default value, which `push` replaces.
            unsafe {
                self.ffi.array_resize(array.sys_mut(), reserved);
                slots = self
                    .ffi
                    .array_slots(array.sys_mut(), reserved)
                    .unwrap_or(slots);
            }
        }
        Ok(ArrayFill {
            array,
            elements,
            reserved,
            slots,
            len: 0,
        })
    }

    #[inline]
    fn push(&mut self, fill: &mut ArrayFill, item: VariantWords) -> Result<(), ReadError> {
        let item = item.into_variant();
        let item = match &mut fill.elements {
            Elements::Any => item,
            Elements::Builtin { variant_type, .. } if self.ffi.type_of(&item) == *variant_type => {
                item
            }
            Elements::Builtin {
                variant_type,
                scratch,
            } => {
                let scratch = scratch
                    .get_or_insert_with(|| typed_array(&ElementSpec::builtin(*variant_type)));
                scratch.push(&item);
                match scratch.pop() {
                    Some(converted) => converted,
                    // Refused (the engine printed why): the item is dropped, as there.
                    None => return Ok(()),
                }
            }
            // Never reserved: the tail below appends it by `push_back`.
            Elements::Checked => item,
        };
        if fill.len < fill.reserved {
            // SAFETY: below the size it was given, held only here (unchanged since `slots`
            // was found), and `item` of the array's element type if it is typed.
            unsafe {
                if fill.slots.is_null() {
                    self.ffi
                        .set_array_element(fill.array.sys_mut(), fill.len, item);
                } else {
                    self.ffi.store(fill.slots.add(fill.len), item);
                }
            }
        } else {
            // Beyond the room reserved (none for an array typed with a class; less than the
            // count once the input's reservation budget is spent): the engine's
            // `push_back` appends it, checking a typed array's item as its decoder does.
            fill.array.push(&item);
        }
        fill.len += 1;
        Ok(())
    }

    #[inline(always)]
    fn end_array(
        &mut self,
        mut fill: ArrayFill,
        _element_type: ContainerType,
    ) -> Result<VariantWords, ReadError> {
        if fill.len < fill.reserved {
            // SAFETY: as in `begin_array`.
            unsafe { self.ffi.array_resize(fill.array.sys_mut(), fill.len) };
        }
        Ok(match fill.elements {
            Elements::Any => {
                // SAFETY: the array is forgotten right after; its reference is the Variant's.
                let array = unsafe { self.ffi.array_variant_at(&fill.array) };
                std::mem::forget(fill.array);
                VariantWords::new(array)
            }
            _ => VariantWords::from_engine(fill.array.to_variant()),
        })
    }

    #[inline(always)]
    fn begin_dictionary(
        &mut self,
        key_type: &ContainerType,
        value_type: &ContainerType,
        _capacity: usize,
    ) -> Result<DictionaryFill, ReadError> {
        self.dictionaries = self.dictionaries.saturating_add(1);
        let typed = *key_type != ContainerType::Untyped || *value_type != ContainerType::Untyped;
        let dictionary = if typed {
            typed_dictionary(&element_spec(key_type)?, &element_spec(value_type)?)
        } else {
            VarDictionary::new()
        };
        Ok(DictionaryFill { dictionary, typed })
    }

    #[inline(always)]
    fn insert(
        &mut self,
        fill: &mut DictionaryFill,
        key: VariantWords,
        value: VariantWords,
    ) -> Result<(), ReadError> {
        let mut key = std::mem::ManuallyDrop::new(key.into_variant());
        // The engine's `dict[key] = value`: the key is checked, the value is not.
        self.ffi
            .set_entry(&mut fill.dictionary, &key, value.into_variant());
        // SAFETY: the key's own Variant, not used again. Dropped where it is: moved into
        // `drop_variant` it would be copied in wider loads than the writes that made it.
        unsafe { self.ffi.drop_in_place(&mut *key) };
        Ok(())
    }

    /// A short ASCII key is taken as its text, to be found in (or added to) the thread's
    /// [`KeyCache`], as is any other short key the cache holds. Any other key is made from
    /// its text as the input holds it, checked and decoded in one pass (as a String value
    /// is), and kept when it is short and the cache may add it.
    ///
    /// [`KeyCache`]: crate::convert::builder_caches::KeyCache
    #[inline]
    fn text_key(&mut self, key: &RawText<'_>) -> Result<Option<VariantWords>, ReadError> {
        let (window, len) = key.window_by_rules();
        if len > builder_caches::SHORT_KEY {
            return self.raw_string(key).map(Some);
        }
        if key.plain().is_some() {
            return Ok(None);
        }
        let bytes = &window[..len];
        let first_dictionary = self.dictionaries <= 1;
        let ffi = self.ffi;
        let keys = &mut self.caches().keys;
        if keys.holds(bytes) {
            return Ok(None);
        }
        let made = ffi.raw_string_variant(key)?;
        keys.keep(bytes, first_dictionary, &made);
        // Read as one the engine wrote (its 32-bit type, then its words), which takes a
        // Variant written as words too, and is how safe mode's is written.
        Ok(Some(VariantWords::from_engine(made)))
    }

    #[inline]
    fn insert_text_key(
        &mut self,
        fill: &mut DictionaryFill,
        key: &str,
        value: VariantWords,
    ) -> Result<(), ReadError> {
        let value = value.into_variant();
        let ffi = self.ffi;
        let first_dictionary = self.dictionaries <= 1;
        let kept = self.caches().keys.get(ffi, key, first_dictionary);
        match kept {
            Some(key) => ffi.set_entry(&mut fill.dictionary, key, value),
            None => {
                let key = ffi.string_variant(key);
                ffi.set_entry(&mut fill.dictionary, &key, value);
            }
        }
        Ok(())
    }

    #[inline(always)]
    fn end_dictionary(
        &mut self,
        fill: DictionaryFill,
        _key_type: ContainerType,
        _value_type: ContainerType,
    ) -> Result<VariantWords, ReadError> {
        Ok(if fill.typed {
            VariantWords::from_engine(fill.dictionary.to_variant())
        } else {
            // SAFETY: as in `end_array`.
            let dictionary = unsafe { self.ffi.dictionary_variant_at(&fill.dictionary) };
            std::mem::forget(fill.dictionary);
            VariantWords::new(dictionary)
        })
    }
}

/// The engine's type of a Godot 4 wire type: the wire's type ids are the engine's
/// `Variant::Type`.
fn engine_type(t: WireType) -> VariantType {
    VariantType::from_ord(t.id() as i32)
}

/// A packed array of `count` elements of `T` whose memory is `fill`ed (all of it).
fn filled<T: PackedElement>(count: usize, fill: impl FnOnce(&mut [T])) -> PackedArray<T> {
    let mut array = PackedArray::<T>::new();
    // SAFETY: a new array of plain elements, all written by `fill` before it is read.
    unsafe {
        let data = cow_data::sized(&mut array, count);
        fill(std::slice::from_raw_parts_mut(data, count));
    }
    array
}

/// A Variant holding a new packed array (of type `t`, elements `T`) of `count` elements
/// whose memory is `fill`ed (all of it). Where the engine's buffers are known, the array
/// is the one the Variant holds, given its buffer in place; else [`filled`], copied in.
fn filled_variant<T: PackedElement>(
    t: VariantType,
    count: usize,
    fill: impl FnOnce(&mut [T]),
) -> Variant {
    if let (Some(buffers), true) = (cow_data::buffers(), count > 0) {
        let ffi = ffi();
        let made = ffi.default_variant(t);
        // SAFETY: `made` is a new Variant of type `t`: its packed array (a `Vector<T>`, what
        // the getter points to) is empty and held only here. Every element is written by
        // `fill` before the array is read.
        unsafe {
            let array = ffi.internal(&made, t).cast_mut();
            let data = buffers.attach::<T>(array, count);
            if !data.is_null() {
                fill(std::slice::from_raw_parts_mut(data, count));
                return made;
            }
        }
    }
    filled::<T>(count, fill).to_variant()
}

/// A Variant holding the packed array (of type `t`, elements `T`) whose elements' memory
/// is the bytes `p` holds.
fn plain_packed<T: PackedElement>(t: VariantType, p: &Packed<'_>) -> Variant {
    filled_variant::<T>(t, p.count, |m| copy_into(m, p.bytes))
}

/// Copies the input's bytes into the memory of a packed array of plain elements.
fn copy_into<T>(items: &mut [T], bytes: &[u8]) {
    // SAFETY: `T` is a plain type (numbers, or gdext's repr(C) vectors and Color of f32s)
    // that any bytes form; the slice covers exactly its memory.
    let memory = unsafe {
        std::slice::from_raw_parts_mut(
            items.as_mut_ptr().cast::<u8>(),
            std::mem::size_of_val(items),
        )
    };
    parallel::copy(memory, bytes);
}

/// A packed array of plain elements, made from the input's bytes: an element's memory is
/// its components in wire order (the codec's `Value` states this for every math type),
/// so the bytes are copied as they are when they are of this build's precision (`real_t`);
/// vectors of the other precision are converted as the engine converts them.
fn packed_array(p: Packed<'_>) -> Variant {
    // The decoder hands only arrays of plain elements here (PackedStringArrays go to
    // `packed_strings`); any other type would be made from its value.
    let by_value = |p: Packed<'_>| to_variant::variant(&p.to_value()).unwrap_or_default();
    macro_rules! make_one {
        (plain $_method:ident, $engine:ident, $element:ty) => {
            plain_packed::<$element>(VariantType::$engine, &p)
        };
        (colors, $engine:ident, $element:ty) => {
            plain_packed::<$element>(VariantType::$engine, &p)
        };
        // Vectors of the other precision (`real_t`): rare, made from their value, which
        // converts each as the engine does.
        (vectors $_n:literal, $engine:ident, $element:ty) => {
            if p.wide == WIDE_REALS {
                plain_packed::<$element>(VariantType::$engine, &p)
            } else {
                by_value(p)
            }
        };
        (strings, $engine:ident, $element:ty) => {
            by_value(p)
        };
    }
    macro_rules! make_by_type {
        ([$(($engine:ident, $name:ident, $element:ty, $kind:ident $($arg:tt)?)),* $(,)?]) => {
            match p.array_type {
                $(WireType::$name => make_one!($kind $($arg)?, $engine, $element),)*
                _ => by_value(p),
            }
        };
    }
    packed_types!(make_by_type! {})
}

/// Single-precision components as doubles (a double-precision build's `real_t`) and their
/// count, when there are few enough for a Variant to hold them inline (four).
fn widened(components: &[f32]) -> Option<([f64; 4], usize)> {
    let mut wide = [0.0; 4];
    (components.len() <= wide.len()).then(|| {
        for (w, &c) in wide.iter_mut().zip(components) {
            *w = f64::from(c);
        }
        (wide, components.len())
    })
}

/// The bytes of an input PackedByteArray, read in place.
pub fn input(bytes: &PackedByteArray) -> &[u8] {
    cow_data::elements_of(bytes)
}

/// Decodes the value at the start of `bytes` (a window of a larger input starting at
/// `base`, for error offsets) into `*dst` (whose Variant it drops), written there a word
/// at a time: a returned Variant is moved 16 bytes at a time, each move a wait (see
/// [`VariantWords`]), which one small value per call notices. Returns the bytes it used; `*dst`
/// is left as it was on error.
///
/// # Safety
/// `dst` points to a live Variant that nothing else reads or writes during the call.
pub unsafe fn decode_into(
    bytes: &[u8],
    base: usize,
    opts: &DecodeOptions,
    dst: *mut Variant,
) -> Result<usize, ReadError> {
    // One scalar or small math value (a common packet) is made straight from its bytes,
    // without the decoder.
    let (item, used) = match decode_inline(bytes, base, opts, &mut VariantBuilder::new()) {
        Some(made) => made?,
        None => decode_with(bytes, base, opts, &mut VariantBuilder::new())?,
    };
    // SAFETY: the caller's promise.
    unsafe { item.replace(dst) };
    Ok(used)
}

/// Decodes one value from the start of `bytes` (a window of a larger input starting at
/// `base`, for error offsets) into an engine Variant; returns it and the bytes it used.
pub fn decode_variant(
    bytes: &[u8],
    base: usize,
    opts: &DecodeOptions,
) -> Result<(Variant, usize), ReadError> {
    VariantBuilder::new().decode(bytes, base, opts)
}
