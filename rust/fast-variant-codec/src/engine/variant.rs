//! A Variant read in place: its type word and the value inside it (at the offset the
//! `variant` probe checks, else through the interface's getters), viewed without
//! reference counting, stored and dropped without a call into the engine when it owns
//! nothing; and the probe of that layout.

use std::ffi::c_void;
use std::mem::ManuallyDrop;

use godot::builtin::{
    real, Aabb, Basis, Color, GString, PackedArray, Plane, Projection, Quaternion, Rect2, Rect2i,
    StringName, Transform2D, Transform3D, VarArray, VarDictionary, Variant, VariantType, Vector2,
    Vector2i, Vector3, Vector3i, Vector4, Vector4i,
};
use godot::meta::{PackedElement, ToGodot};
use godot::sys::{self, GodotFfi};

use crate::engine::ffi::Ffi;
use crate::engine::layout::{VALUE_OFFSET, VARIANT_WORDS};
use crate::engine::math_types::math_types;
use crate::engine::probes::{Passed, ProbeResult};

/// A Variant as its words.
pub(super) type Words = [u64; VARIANT_WORDS];
/// A Variant's value union as its words.
pub(crate) type ValueWords = [u64; VARIANT_WORDS - 1];

/// The 32-bit type word at the start of a Variant (meaningful when the layout is known).
#[inline]
pub(super) fn type_word(v: &Variant) -> i32 {
    const { assert!(std::mem::size_of::<Variant>() == std::mem::size_of::<Words>()) };
    // SAFETY: every Variant starts with its type, a C++ enum of 32 bits.
    unsafe { std::ptr::from_ref(v).cast::<i32>().read() }
}

/// Copies the Variant `from` into `to` (not dropping either) as word loads and stores.
/// Copied as 16 bytes and 8 (the compiler's way), the 16-byte read of a Variant whose
/// words were just written one by one (as the decoder's results are) cannot be
/// forwarded from the processor's store buffer, and waits for the writes to reach the
/// cache (the shapes.gd rows of Arrays of ints, floats, bools and nils guard it).
///
/// # Safety
/// `to` must be valid for a write of a Variant.
#[inline(always)]
pub(super) unsafe fn copy_words(from: &Variant, to: *mut Variant) {
    let from = std::ptr::from_ref(from).cast::<u64>();
    let to = to.cast::<u64>();
    for i in 0..VARIANT_WORDS {
        // SAFETY: within both Variants; volatile, so that the words are not merged.
        unsafe { to.add(i).write_volatile(from.add(i).read_volatile()) };
    }
}

/// A Variant's value union (the engine zero-fills it, then writes the value).
pub(super) fn value_words(v: &Variant) -> ValueWords {
    // SAFETY: within the Variant, which ends with its value union.
    unsafe {
        std::ptr::from_ref(v)
            .cast::<u8>()
            .add(VALUE_OFFSET)
            .cast::<ValueWords>()
            .read_unaligned()
    }
}

/// `matches!(t, ...)` of the types listed after `also` and the math types of the group
/// named after `of` (see [`math_types!`]).
macro_rules! is_one_of {
    (
        $t:ident, also: [$($also:ident),*], of: inline,
        inline: [$(($inline:ident, $($_i:tt)*)),* $(,)?],
        boxed: [$(($_b:ident, $($_bt:tt)*)),* $(,)?] $(,)?
    ) => {
        matches!($t, $(VariantType::$also)|* $(| VariantType::$inline)*)
    };
    (
        $t:ident, also: [$($also:ident),*], of: boxed,
        inline: [$(($_i:ident, $($_it:tt)*)),* $(,)?],
        boxed: [$(($boxed:ident, $($_b:tt)*)),* $(,)?] $(,)?
    ) => {
        matches!($t, $(VariantType::$also)|* $(| VariantType::$boxed)*)
    };
}

/// The types whose value the probe checks sits at `VALUE_OFFSET`, and which are read and
/// made there: the scalars, Strings, StringNames, Arrays, Dictionaries and the math types
/// stored inline.
pub(super) fn stored_inline(t: VariantType) -> bool {
    math_types!(is_one_of! {
        t, also: [BOOL, INT, FLOAT, STRING, STRING_NAME, ARRAY, DICTIONARY], of: inline,
    })
}

/// The types the engine keeps in a block of their own (from its pools), the Variant
/// holding the block's address: the probe checks that address sits at `VALUE_OFFSET`,
/// which is then read instead of asking the engine's getter. The boxed math types.
pub(super) fn stored_boxed(t: VariantType) -> bool {
    math_types!(is_one_of! { t, also: [], of: boxed, })
}

/// The bytes of a math value in `v` (of type `t`) as gdext's type for it holds them; `None`
/// for a type that is not a math type.
pub(super) fn math_bytes(v: &Variant, t: VariantType) -> Option<Vec<u8>> {
    macro_rules! bytes_by_type {
        (
            inline: [$(($inline:ident, $_iw:ident, $inline_gd:ident, $($_i:tt)*)),* $(,)?],
            boxed: [$(($boxed:ident, $_bw:ident, $boxed_gd:ident, $($_b:tt)*)),* $(,)?] $(,)?
        ) => {
            Some(match t {
                $(VariantType::$inline => bytes_of(&v.to::<$inline_gd>()).to_vec(),)*
                $(VariantType::$boxed => bytes_of(&v.to::<$boxed_gd>()).to_vec(),)*
                _ => return None,
            })
        };
    }
    math_types!(bytes_by_type! {})
}

/// The bytes of a plain value (gdext's math types are `repr(C)` structs of 32-bit fields).
pub(super) fn bytes_of<T: Copy>(value: &T) -> &[u8] {
    // SAFETY: reading a plain value's own bytes; these types have no padding.
    unsafe {
        std::slice::from_raw_parts(
            std::ptr::from_ref(value).cast::<u8>(),
            std::mem::size_of::<T>(),
        )
    }
}

/// Types whose Variant owns nothing: dropping it needs no call into the engine. Nil, the
/// scalars, RIDs and the math types stored inline.
pub(super) fn owns_nothing(t: VariantType) -> bool {
    math_types!(is_one_of! { t, also: [NIL, BOOL, INT, FLOAT, RID], of: inline, })
}

/// gdext types that hold an engine value of `ENGINE_SIZE` bytes (and nothing else it would
/// have to set up), so that a bit copy of the engine value makes one.
pub trait Viewable: GodotFfi {
    const ENGINE_SIZE: usize;
}

impl Viewable for VarArray {
    const ENGINE_SIZE: usize = std::mem::size_of::<sys::types::OpaqueArray>();
}

impl Viewable for VarDictionary {
    const ENGINE_SIZE: usize = std::mem::size_of::<sys::types::OpaqueDictionary>();
}

impl<T: PackedElement> Viewable for PackedArray<T> {
    const ENGINE_SIZE: usize = std::mem::size_of::<sys::types::OpaquePackedByteArray>();
}

/// The bytes of a Variant's value union, in memory order.
fn value_bytes(v: &Variant) -> Vec<u8> {
    value_words(v)
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect()
}

/// A Variant of each boxed math type ([`stored_boxed`]), made by the engine, for the probe.
fn boxed_math_samples() -> [Variant; 5] {
    let basis = Basis::from_rows(
        Vector3::new(1.5, -2.0, 3.25),
        Vector3::new(0.5, 4.0, -5.5),
        Vector3::new(6.0, -7.5, 8.25),
    );
    [
        Transform2D::from_cols(
            Vector2::new(1.5, -2.0),
            Vector2::new(3.25, 0.5),
            Vector2::new(-4.0, 5.5),
        )
        .to_variant(),
        Aabb::new(Vector3::new(1.5, -2.0, 3.25), Vector3::new(0.5, 4.0, -5.5)).to_variant(),
        basis.to_variant(),
        Transform3D::new(basis, Vector3::new(9.5, -10.0, 11.75)).to_variant(),
        Projection::from_cols(
            Vector4::new(1.5, -2.0, 3.25, 0.5),
            Vector4::new(4.0, -5.5, 6.0, -7.5),
            Vector4::new(8.25, 9.5, -10.0, 11.75),
            Vector4::new(-12.0, 13.5, 14.0, -15.25),
        )
        .to_variant(),
    ]
}

impl Ffi {
    /// Checks the Variant layout against the engine's own functions on sample values of
    /// its own: the type word, the value's address (expected at `value_offset`) and bytes.
    pub(super) fn probe_layout(&self, value_offset: usize) -> ProbeResult {
        let ok = self.probe_plain_values(value_offset)
            && self.probe_inline_math(value_offset)
            && boxed_math_samples()
                .iter()
                .all(|v| self.probe_boxed(v, value_offset));
        if ok {
            Ok(Passed::checked(format!(
                "type word at 0 and value at {VALUE_OFFSET} of {} bytes (the address of \
                 a boxed math value's block there), checked on values of 24 types made by \
                 the engine",
                VARIANT_WORDS * 8
            )))
        } else {
            Err(format!(
                "a value made by the engine is not where it was expected (type word at 0, \
                 value at {value_offset})"
            ))
        }
    }

    /// Whether `v`, a Variant the engine made, holds its type word at 0 and its value at
    /// `value_offset` (where the engine's getter finds it), starting with `expected`.
    fn probe_holds_at(&self, v: &Variant, expected: &[u8], value_offset: usize) -> bool {
        // SAFETY: `v` is a live Variant.
        let t = VariantType::from_sys(unsafe { (self.get_type)(v.var_sys()) });
        // SAFETY: `t` is `v`'s type.
        let at = unsafe { self.internal_by_getter(v, t) };
        type_word(v) == t.sys()
            && at
                == std::ptr::from_ref(v)
                    .cast::<u8>()
                    .wrapping_add(value_offset)
                    .cast()
            && value_bytes(v)[..expected.len()] == *expected
    }

    /// The probe on a nil, a bool, an int, a float, a String, a StringName, an Array, a
    /// Dictionary, a Vector2, a Vector3 and a Color: each where expected (see
    /// [`probe_holds_at`](Self::probe_holds_at)), and an int made the raw way equal to the
    /// engine's.
    fn probe_plain_values(&self, value_offset: usize) -> bool {
        let check = |v: &Variant, expected: &[u8]| self.probe_holds_at(v, expected, value_offset);
        let nil = Variant::nil();
        let int = 0x0123_4567_89ab_cdef_i64;
        let float = -1.5e300_f64;
        let text = GString::from("probe");
        let name = StringName::from("probe_name");
        let array = VarArray::new();
        let dictionary = VarDictionary::new();
        // SAFETY: reads of the gdext values' own bytes (the engine values they wrap).
        let text_bytes: [u8; 8] = unsafe { text.string_sys().cast::<[u8; 8]>().read_unaligned() };
        // SAFETY: as above.
        let name_bytes: [u8; 8] = unsafe { name.string_sys().cast::<[u8; 8]>().read_unaligned() };
        // SAFETY: as above.
        let array_bytes: [u8; 8] = unsafe { array.sys().cast::<[u8; 8]>().read_unaligned() };
        let dictionary_bytes: [u8; 8] =
            // SAFETY: as above.
            unsafe { dictionary.sys().cast::<[u8; 8]>().read_unaligned() };
        // A Vector2's and a Vector3's reals (`real_t`: 4 or 8 bytes), a Color's floats.
        let reals: Vec<u8> = [1.5 as real, -2.0, 3.25]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        let real = std::mem::size_of::<real>();
        let floats: Vec<u8> = [1.5f32, -2.0, 3.25, 0.5]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        type_word(&nil) == 0
            && check(&true.to_variant(), &[1])
            && check(&int.to_variant(), &int.to_le_bytes())
            && check(&float.to_variant(), &float.to_le_bytes())
            && check(&text.to_variant(), &text_bytes)
            && check(&name.to_variant(), &name_bytes)
            && check(&array.to_variant(), &array_bytes)
            && check(&dictionary.to_variant(), &dictionary_bytes)
            && check(&Vector2::new(1.5, -2.0).to_variant(), &reals[..2 * real])
            && check(&Vector3::new(1.5, -2.0, 3.25).to_variant(), &reals)
            && check(&Color::from_rgba(1.5, -2.0, 3.25, 0.5).to_variant(), &floats)
            // The probe's own values made the raw way equal the engine's.
            && value_words(&int.to_variant())
                .iter()
                .enumerate()
                .all(|(i, &w)| w == if i == 0 { int as u64 } else { 0 })
    }

    /// The probe on the math types stored inline ([`stored_inline`]) besides Vector2,
    /// Vector3 and Color: each where expected, holding gdext's bytes of its value.
    fn probe_inline_math(&self, value_offset: usize) -> bool {
        [
            Vector2i::new(7, -8).to_variant(),
            Rect2::new(Vector2::new(1.5, -2.0), Vector2::new(3.25, 0.5)).to_variant(),
            Rect2i::new(Vector2i::new(1, -2), Vector2i::new(3, 4)).to_variant(),
            Vector3i::new(1, -2, 3).to_variant(),
            Vector4::new(1.5, -2.0, 3.25, 0.5).to_variant(),
            Vector4i::new(1, -2, 3, -4).to_variant(),
            Plane {
                normal: Vector3::new(1.5, -2.0, 3.25),
                d: 0.5,
            }
            .to_variant(),
            Quaternion {
                x: 1.5,
                y: -2.0,
                z: 3.25,
                w: 0.5,
            }
            .to_variant(),
        ]
        .iter()
        .all(|v| {
            // SAFETY: `v` is a live Variant.
            let t = VariantType::from_sys(unsafe { (self.get_type)(v.var_sys()) });
            stored_inline(t)
                && math_bytes(v, t)
                    .is_some_and(|expected| self.probe_holds_at(v, &expected, value_offset))
        })
    }

    /// Whether `v`, a Variant of a boxed math type the engine made ([`stored_boxed`]), holds
    /// the address of its value's block at `value_offset` (read from `v`'s own memory):
    /// the address the engine's getter gives for it, where the value's bytes are.
    pub(super) fn probe_boxed(&self, v: &Variant, value_offset: usize) -> bool {
        // SAFETY: `v` is a live Variant.
        let t = VariantType::from_sys(unsafe { (self.get_type)(v.var_sys()) });
        if !stored_boxed(t) || type_word(v) != t.sys() {
            return false;
        }
        // SAFETY: within the Variant (`value_offset` is 8 or 16, the Variant 24 or 40 bytes).
        let word = unsafe {
            std::ptr::from_ref(v)
                .cast::<u8>()
                .add(value_offset)
                .cast::<usize>()
                .read_unaligned()
        };
        // SAFETY: `t` is `v`'s type.
        let at = unsafe { self.internal_by_getter(v, t) };
        let Some(expected) = math_bytes(v, t) else {
            return false;
        };
        // SAFETY: the getter's address of `v`'s value, of `expected.len()` bytes (gdext's
        // types have the engine's layout); read only once it is the word found.
        word == at as usize
            && unsafe { std::slice::from_raw_parts(at.cast::<u8>(), expected.len()) } == expected
    }

    /// The engine's type of a Variant. Unlike `Variant::get_type`, a null or freed object
    /// is still `OBJECT`.
    #[inline]
    pub fn type_of(&self, v: &Variant) -> VariantType {
        if self.layout {
            VariantType::from_sys(type_word(v) as sys::GDExtensionVariantType)
        } else {
            // SAFETY: `v` is a live Variant.
            VariantType::from_sys(unsafe { (self.get_type)(v.var_sys()) })
        }
    }

    /// A pointer to the value inside `v`, which must be of type `t` (from
    /// [`type_of`](Self::type_of)): `bool`, `int64_t`, `double`, the math types' structs,
    /// `String`, `Array`, … as the engine lays them out.
    ///
    /// # Safety
    /// `t` must be `v`'s type. The pointer is valid while `v` is alive and unchanged.
    #[inline]
    pub unsafe fn internal(&self, v: &Variant, t: VariantType) -> *const c_void {
        if self.layout && stored_inline(t) {
            std::ptr::from_ref(v)
                .cast::<u8>()
                .wrapping_add(VALUE_OFFSET)
                .cast()
        } else if self.layout && stored_boxed(t) {
            value_words(v)[0] as *const c_void
        } else {
            // SAFETY: as the caller promises, `t` is `v`'s type.
            unsafe { self.internal_by_getter(v, t) }
        }
    }

    /// The value inside `v` through the interface's getter for type `t`.
    ///
    /// # Safety
    /// `t` must be `v`'s type: another type's getter would compute the address of a value
    /// that `v` does not hold.
    pub(super) unsafe fn internal_by_getter(&self, v: &Variant, t: VariantType) -> *const c_void {
        let getter = self.internal[t.sys() as usize].expect("every builtin type has a getter");
        // SAFETY: `t` is `v`'s type (the caller's promise), and that type's getter only
        // computes the address of the value inside `v` (`VariantInternal::get_*`): it
        // writes nothing, so the pointer it takes as mutable is never written through.
        unsafe { getter(sys::SysPtr::force_mut(v.var_sys())) }
    }

    /// The value inside `v`, which must be of type `t`, read as `T`: for the types the
    /// engine stores as plain data of that layout.
    ///
    /// # Safety
    /// `t` must be `v`'s type and `T` the layout of that type's value.
    #[inline]
    pub unsafe fn read<T: Copy>(&self, v: &Variant, t: VariantType) -> T {
        // SAFETY: `t` is `v`'s type and `T` its value's layout (the caller's promise): the
        // pointer is to a live value of `T`'s size.
        unsafe { self.internal(v, t).cast::<T>().read_unaligned() }
    }

    /// The value inside `v` (of type `t`) as a borrowed gdext value of the same layout
    /// (`GString`, `StringName`: transparent wrappers of the engine's).
    ///
    /// # Safety
    /// `t` must be `v`'s type and `T` a transparent wrapper of that type's value.
    #[inline]
    pub unsafe fn borrow<'v, T>(&self, v: &'v Variant, t: VariantType) -> &'v T {
        // SAFETY: as for `read`; the reference lives as long as `v`.
        unsafe { &*self.internal(v, t).cast::<T>() }
    }

    /// The value inside `v` (of type `t`) as a gdext value that shares it without owning a
    /// reference (a bit copy, no reference counting): for reading only, never to be
    /// dropped (hence `ManuallyDrop`) nor to outlive `v`.
    ///
    /// # Safety
    /// `t` must be `v`'s type and `T` gdext's type for it.
    #[inline]
    pub unsafe fn view<T: Viewable>(&self, v: &Variant, t: VariantType) -> ManuallyDrop<T> {
        // SAFETY: `t` is `v`'s type (the caller's promise), so the value inside is a `T`'s.
        unsafe { self.view_at(self.internal(v, t)) }
    }

    /// [`view`](Self::view) of the engine value at `value` (a type pointer, as a ptrcall
    /// passes an argument).
    ///
    /// # Safety
    /// `value` points to a live engine value of gdext's type `T`, which outlives the view.
    pub unsafe fn view_at<T: Viewable>(&self, value: *const c_void) -> ManuallyDrop<T> {
        let src = value.cast::<u8>();
        // SAFETY: gdext's value is the engine's bytes (plus caches it initializes itself);
        // `new_from_sys` would take a reference, which this view must not.
        ManuallyDrop::new(unsafe {
            T::new_with_uninit(|dst| {
                std::ptr::copy_nonoverlapping(src, dst.cast::<u8>(), T::ENGINE_SIZE)
            })
        })
    }

    /// Moves `value` into `slot`, dropping what was there.
    ///
    /// # Safety
    /// `slot` must point to a live Variant that may be replaced.
    #[inline]
    pub unsafe fn store(&self, slot: *mut Variant, value: Variant) {
        // SAFETY: `slot` is a live Variant that may be replaced (the caller's promise); a nil
        // owns nothing, so overwriting it drops nothing.
        unsafe {
            if self.layout && type_word(&*slot) == 0 {
                // A nil (a new slot) owns nothing: overwrite it, a word at a time (see
                // `copy_words`).
                copy_words(&ManuallyDrop::new(value), slot);
            } else {
                self.drop_variant(slot.replace(value));
            }
        }
    }

    /// Drops a Variant, without a call into the engine when it owns nothing.
    #[inline]
    pub fn drop_variant(&self, v: Variant) {
        let mut v = ManuallyDrop::new(v);
        // SAFETY: `v` is not used again.
        unsafe { self.drop_in_place(&mut *v) };
    }

    /// Drops the Variant at `slot` (leaving its memory to be written again), without a call
    /// into the engine when it owns nothing.
    ///
    /// # Safety
    /// `slot` points to a live Variant, not used again until it is written.
    #[inline]
    pub unsafe fn drop_in_place(&self, slot: *mut Variant) {
        // SAFETY: the caller's live Variant.
        if !(self.layout && owns_nothing(self.type_of(unsafe { &*slot }))) {
            // SAFETY: as the caller promises.
            unsafe { std::ptr::drop_in_place(slot) };
        }
    }

    /// The first word of the value `v` holds, when the layout is known: the one word of a
    /// String, StringName, NodePath, Array or Dictionary (read from `v`'s own memory).
    pub fn value_word(&self, v: &Variant) -> Option<u64> {
        self.layout.then(|| value_words(v)[0])
    }
}

#[cfg(test)]
mod tests {
    use godot::obj::EngineEnum;

    use super::*;

    /// What the math types' table makes of every type: stored inline, boxed, owning
    /// nothing, against each set spelled out type by type.
    #[test]
    fn the_table_classifies_every_type_as_the_engine_stores_it() {
        use VariantType as T;
        let inline_math = [
            T::VECTOR2,
            T::VECTOR2I,
            T::RECT2,
            T::RECT2I,
            T::VECTOR3,
            T::VECTOR3I,
            T::VECTOR4,
            T::VECTOR4I,
            T::PLANE,
            T::QUATERNION,
            T::COLOR,
        ];
        let inline: Vec<T> = [
            T::BOOL,
            T::INT,
            T::FLOAT,
            T::STRING,
            T::STRING_NAME,
            T::ARRAY,
            T::DICTIONARY,
        ]
        .into_iter()
        .chain(inline_math)
        .collect();
        let boxed = [
            T::TRANSFORM2D,
            T::AABB,
            T::BASIS,
            T::TRANSFORM3D,
            T::PROJECTION,
        ];
        let plain: Vec<T> = [T::NIL, T::BOOL, T::INT, T::FLOAT, T::RID]
            .into_iter()
            .chain(inline_math)
            .collect();
        for ord in 0..sys::GDEXTENSION_VARIANT_TYPE_VARIANT_MAX {
            let t = VariantType::from_ord(ord);
            assert_eq!(stored_inline(t), inline.contains(&t), "{t:?}");
            assert_eq!(stored_boxed(t), boxed.contains(&t), "{t:?}");
            assert_eq!(owns_nothing(t), plain.contains(&t), "{t:?}");
        }
    }
}
