//! Direct access to engine values, for the walks that touch every element: a Variant's
//! type and the value inside it, an Array's elements and a Dictionary's entries in place,
//! a String's UTF-32 characters in place, Variants made without a call into the engine.
//!
//! gdext's safe API converts (copies, with reference counting, through a call into the
//! engine) at every step, and walks a Dictionary with three hash lookups per entry. Here an
//! Array's elements cost one call for all of them (they lie one after the other) or one
//! each, and a Dictionary's entries none (the engine's list of entries, followed in place
//! from its head) or two arrays made by the engine (its keys and values, in order).
//!
//! A Dictionary is never walked by looking its keys up: a key changed since it was
//! inserted (an Array appended to) or a freed object key has a hash that no longer leads
//! to its entry, so a lookup misses it (Godot 4.6 then hands out a shared empty Variant;
//! 4.4 and 4.5 insert a new `key: null` entry, even into a read-only dictionary). The
//! engine's own `encode_variant` follows the same list.
//!
//! Two levels:
//! - the GDExtension interface (functions that read a value in place, construct a String
//!   in place, …), always available;
//! - memory layouts: a Variant's (the type as a 32-bit word at offset 0 and the value, or
//!   the object holding it, at offset 8, the layout the engine has had since 4.0 and that
//!   its C# glue relies on), an Array's (its Variants one after the other) and a
//!   Dictionary's entries' (elements of a list, each holding its key and value). Each is
//!   used only after a probe at start-up has checked it against the engine's own functions
//!   on sample values; if a probe fails, what it covers goes through the interface. Safe
//!   mode and the test variables are decided in [`probes`](crate::engine::probes).
//!
//! Read-only containers: Godot 4.4's `Array::operator[] const` hands out a read-only
//! array's elements through one scratch Variant, one at a time; later versions hand out the
//! element itself. A probe on a read-only array tells which the running engine does; where
//! it is the scratch, each array is asked whether it is read-only before its elements are
//! read in place. A Dictionary's list of entries is the same whether it is read-only or not.
//!
//! Everything runs on the calling thread, on values the caller holds for the duration.

use std::ffi::c_void;
use std::mem::ManuallyDrop;
use std::sync::OnceLock;

use godot::builtin::inner::InnerDictionary;
use godot::builtin::{
    Aabb, AnyArray, Basis, Color, GString, PackedArray, Plane, Projection, Quaternion, Rect2,
    Rect2i, StringName, Transform2D, Transform3D, VarArray, VarDictionary, Variant, VariantType,
    Vector2, Vector2i, Vector3, Vector3i, Vector4, Vector4i,
};
use godot::meta::{PackedElement, ToGodot};
use godot::sys::{self, GodotFfi};

use crate::engine::cow_data::Buffers;
use crate::engine::probes::{self, Probe, Verdict};
use crate::engine::string::{gstring, starts_with_bom};

/// The engine's number of Variant types this build knows (`Variant::VARIANT_MAX`).
const TYPES: usize = sys::GDEXTENSION_VARIANT_TYPE_VARIANT_MAX as usize;

/// Where a Variant keeps its value, when the layout is known.
const VALUE_OFFSET: usize = 8;

/// A Dictionary's entries, when their layout is known: each is an element of the engine's
/// hash map, in a list in the dictionary's order, holding the next element's address, the
/// previous one's, then the key and the value (Variants). The offsets, in bytes:
const ENTRY_NEXT_OFFSET: usize = 0;
const ENTRY_PREV_OFFSET: usize = 8;
const ENTRY_KEY_OFFSET: usize = 16;
const ENTRY_VALUE_OFFSET: usize = 40;

/// Where that list starts: a Dictionary is one pointer to its `DictionaryPrivate`
/// (core/variant/dictionary.cpp: a 4-byte reference count, the read-only scratch pointer,
/// then the `HashMap`), and the map holds its slots' and hashes' addresses, then the first
/// and the last element's, then its capacity index and its size (core/templates/hash_map.h).
/// The offsets in `DictionaryPrivate`, in bytes:
const DICTIONARY_HEAD_OFFSET: usize = 32;
const DICTIONARY_TAIL_OFFSET: usize = 40;
const DICTIONARY_SIZE_OFFSET: usize = 52;

/// The interface functions the walks call, fetched once.
pub struct Ffi {
    get_type: sys::GDExtensionInterfaceVariantGetType,
    /// Per type: a pointer to the value a Variant of that type holds.
    internal: [sys::GDExtensionVariantGetInternalPtrFunc; TYPES],
    dictionary_index_const: sys::GDExtensionInterfaceDictionaryOperatorIndexConst,
    array_index_const: sys::GDExtensionInterfaceArrayOperatorIndexConst,
    array_index: sys::GDExtensionInterfaceArrayOperatorIndex,
    dictionary_index: sys::GDExtensionInterfaceDictionaryOperatorIndex,
    string_to_utf32: sys::GDExtensionInterfaceStringToUtf32Chars,
    string_index_const: sys::GDExtensionInterfaceStringOperatorIndexConst,
    string_from_latin1: sys::GDExtensionInterfaceStringNewWithLatin1CharsAndLen,
    construct: sys::GDExtensionInterfaceVariantConstruct,
    string_from_utf8: sys::GDExtensionInterfaceStringNewWithUtf8CharsAndLen2,
    array_size: Method,
    array_is_typed: Method,
    array_is_read_only: Method,
    array_resize: Method,
    dictionary_size: Method,
    dictionary_is_typed: Method,
    bytes_resize: Method,
    bytes_index: sys::GDExtensionInterfacePackedByteArrayOperatorIndex,
    /// The probe's verdict: Variants are laid out as described in the module docs.
    layout: bool,
    /// The probe's verdict: a Dictionary's entries are laid out as `ENTRY_*` say, in a
    /// list that starts where `DICTIONARY_HEAD_OFFSET` says.
    entry_layout: bool,
    /// The probe's verdict: an Array's elements lie one after the other.
    arrays_contiguous: bool,
    /// The probe's verdict: a read-only Array hands out its elements in place.
    read_only_arrays_in_place: bool,
    /// Strings made directly, when the engine's buffers are laid out as `cow_data` expects.
    buffers: Option<&'static Buffers>,
    /// What each probe of this module found.
    verdicts: Vec<(Probe, Verdict)>,
}

/// A builtin method, called directly (`ptrcall`): the engine's `Array::size`, …
type Method = sys::GDExtensionPtrBuiltInMethod;

/// Builtin methods by type, name and hash (the hashes of the extension API, stable across
/// versions).
fn method(interface: &sys::GDExtensionInterface, t: VariantType, name: &str, hash: i64) -> Method {
    let name = godot::builtin::StringName::from(name);
    // SAFETY: a valid type and name; the engine returns null when it has no such method.
    unsafe { (interface.variant_get_ptr_builtin_method)(t.sys(), name.string_sys(), hash) }
}

const SIZE_HASH: i64 = 3173160232;
/// `is_typed` and `is_read_only`: both `bool () const`.
const IS_TYPED_HASH: i64 = 3918633141;
const RESIZE_HASH: i64 = 848867239;

/// The engine versions whose sources lay a Dictionary's entries out as `ENTRY_*` say
/// (`HashMapElement` in core/templates/hash_map.h: next, prev, key, value): on these the
/// probe reads the words of an entry, which lie inside it; on any other it does not run.
const ENTRY_LAYOUT_VERSIONS: std::ops::RangeInclusive<(i64, i64)> = (4, 4)..=(4, 6);

/// The functions, fetched on first use (the binding is initialized by then: this runs
/// inside calls from Godot).
pub fn ffi() -> &'static Ffi {
    static FFI: OnceLock<Ffi> = OnceLock::new();
    FFI.get_or_init(|| {
        // SAFETY: the library is loaded, so the interface is initialized; these are plain
        // function pointer reads.
        let interface = unsafe { sys::get_interface() };
        let getter = interface.variant_get_ptr_internal_getter;
        let mut ffi = Ffi {
            get_type: interface.variant_get_type,
            // Nil holds nothing (and the engine complains when asked).
            internal: std::array::from_fn(|t| match t {
                0 => None,
                // SAFETY: every id below VARIANT_MAX is a valid type to ask about.
                t => unsafe { getter(t as sys::GDExtensionVariantType) },
            }),
            dictionary_index_const: interface.dictionary_operator_index_const,
            array_index_const: interface.array_operator_index_const,
            array_index: interface.array_operator_index,
            dictionary_index: interface.dictionary_operator_index,
            string_to_utf32: interface.string_to_utf32_chars,
            string_index_const: interface.string_operator_index_const,
            string_from_latin1: interface.string_new_with_latin1_chars_and_len,
            string_from_utf8: interface.string_new_with_utf8_chars_and_len2,
            construct: interface.variant_construct,
            array_size: method(interface, VariantType::ARRAY, "size", SIZE_HASH),
            array_is_typed: method(interface, VariantType::ARRAY, "is_typed", IS_TYPED_HASH),
            array_is_read_only: method(
                interface,
                VariantType::ARRAY,
                "is_read_only",
                IS_TYPED_HASH,
            ),
            array_resize: method(interface, VariantType::ARRAY, "resize", RESIZE_HASH),
            dictionary_size: method(interface, VariantType::DICTIONARY, "size", SIZE_HASH),
            dictionary_is_typed: method(
                interface,
                VariantType::DICTIONARY,
                "is_typed",
                IS_TYPED_HASH,
            ),
            bytes_resize: method(
                interface,
                VariantType::PACKED_BYTE_ARRAY,
                "resize",
                RESIZE_HASH,
            ),
            bytes_index: interface.packed_byte_array_operator_index,
            layout: false,
            entry_layout: false,
            arrays_contiguous: false,
            read_only_arrays_in_place: false,
            buffers: crate::engine::cow_data::buffers(),
            verdicts: Vec::new(),
        };
        ffi.run_probes();
        ffi
    })
}

/// A Variant's 24 bytes as three words.
type Words = [u64; 3];

/// The 32-bit type word at the start of a Variant (meaningful when the layout is known).
#[inline]
fn type_word(v: &Variant) -> i32 {
    const { assert!(std::mem::size_of::<Variant>() == std::mem::size_of::<Words>()) };
    // SAFETY: every Variant starts with its type, a C++ enum of 32 bits.
    unsafe { std::ptr::from_ref(v).cast::<i32>().read() }
}

/// Copies the Variant `from` into `to` (not dropping either) as three word loads and
/// stores. Copied as 16 bytes and 8 (the compiler's way), the 16-byte read of a Variant
/// whose words were just written one by one (as the decoder's results are) cannot be
/// forwarded from the processor's store buffer, and waits for the writes to reach the
/// cache (the shapes.gd rows of Arrays of ints, floats, bools and nils guard it).
///
/// # Safety
/// `to` must be valid for a write of a Variant.
#[inline(always)]
unsafe fn copy_words(from: &Variant, to: *mut Variant) {
    let from = std::ptr::from_ref(from).cast::<u64>();
    let to = to.cast::<u64>();
    for i in 0..3 {
        // SAFETY: within both Variants; volatile, so that the words are not merged.
        unsafe { to.add(i).write_volatile(from.add(i).read_volatile()) };
    }
}

/// The 16 bytes of a Variant's value union (the engine zero-fills it, then writes the value).
fn value_words(v: &Variant) -> [u64; 2] {
    // SAFETY: within the Variant's 24 bytes.
    unsafe {
        std::ptr::from_ref(v)
            .cast::<u8>()
            .add(VALUE_OFFSET)
            .cast::<[u64; 2]>()
            .read_unaligned()
    }
}

/// The types whose value the probe checks sits at `VALUE_OFFSET`, and which are read and
/// made there.
fn stored_inline(t: VariantType) -> bool {
    matches!(
        t,
        VariantType::BOOL
            | VariantType::INT
            | VariantType::FLOAT
            | VariantType::STRING
            | VariantType::STRING_NAME
            | VariantType::VECTOR2
            | VariantType::VECTOR2I
            | VariantType::RECT2
            | VariantType::RECT2I
            | VariantType::VECTOR3
            | VariantType::VECTOR3I
            | VariantType::VECTOR4
            | VariantType::VECTOR4I
            | VariantType::PLANE
            | VariantType::QUATERNION
            | VariantType::COLOR
            | VariantType::ARRAY
            | VariantType::DICTIONARY
    )
}

/// The types the engine keeps in a block of their own (from its pools), the Variant
/// holding the block's address: the probe checks that address sits at `VALUE_OFFSET`,
/// which is then read instead of asking the engine's getter.
fn stored_boxed(t: VariantType) -> bool {
    matches!(
        t,
        VariantType::TRANSFORM2D
            | VariantType::AABB
            | VariantType::BASIS
            | VariantType::TRANSFORM3D
            | VariantType::PROJECTION
    )
}

/// The bytes of the math value in `v` (of type `t`) as gdext's type for it holds them;
/// `None` for a type that is not one of the math types the probe checks.
fn math_bytes(v: &Variant, t: VariantType) -> Option<Vec<u8>> {
    Some(match t {
        VariantType::VECTOR2I => bytes_of(&v.to::<Vector2i>()).to_vec(),
        VariantType::RECT2 => bytes_of(&v.to::<Rect2>()).to_vec(),
        VariantType::RECT2I => bytes_of(&v.to::<Rect2i>()).to_vec(),
        VariantType::VECTOR3I => bytes_of(&v.to::<Vector3i>()).to_vec(),
        VariantType::VECTOR4 => bytes_of(&v.to::<Vector4>()).to_vec(),
        VariantType::VECTOR4I => bytes_of(&v.to::<Vector4i>()).to_vec(),
        VariantType::PLANE => bytes_of(&v.to::<Plane>()).to_vec(),
        VariantType::QUATERNION => bytes_of(&v.to::<Quaternion>()).to_vec(),
        VariantType::TRANSFORM2D => bytes_of(&v.to::<Transform2D>()).to_vec(),
        VariantType::AABB => bytes_of(&v.to::<Aabb>()).to_vec(),
        VariantType::BASIS => bytes_of(&v.to::<Basis>()).to_vec(),
        VariantType::TRANSFORM3D => bytes_of(&v.to::<Transform3D>()).to_vec(),
        VariantType::PROJECTION => bytes_of(&v.to::<Projection>()).to_vec(),
        _ => return None,
    })
}

/// The bytes of a plain value (gdext's math types are `repr(C)` structs of 32-bit fields).
fn bytes_of<T: Copy>(value: &T) -> &[u8] {
    // SAFETY: reading a plain value's own bytes; these types have no padding.
    unsafe {
        std::slice::from_raw_parts(
            std::ptr::from_ref(value).cast::<u8>(),
            std::mem::size_of::<T>(),
        )
    }
}

/// Types whose Variant owns nothing: dropping it needs no call into the engine.
fn owns_nothing(t: VariantType) -> bool {
    matches!(
        t,
        VariantType::NIL
            | VariantType::BOOL
            | VariantType::INT
            | VariantType::FLOAT
            | VariantType::VECTOR2
            | VariantType::VECTOR2I
            | VariantType::RECT2
            | VariantType::RECT2I
            | VariantType::VECTOR3
            | VariantType::VECTOR3I
            | VariantType::VECTOR4
            | VariantType::VECTOR4I
            | VariantType::PLANE
            | VariantType::QUATERNION
            | VariantType::COLOR
            | VariantType::RID
    )
}

impl Ffi {
    /// Runs this module's probes, each as [`probes::check`] decides, in the order
    /// of their dependencies.
    fn run_probes(&mut self) {
        let (variant, found) = probes::check(Probe::Variant, &[], |wrong| {
            self.probe_layout(if wrong {
                VALUE_OFFSET + 8
            } else {
                VALUE_OFFSET
            })
        });
        self.layout = found.is_some();
        let (arrays, found) = probes::check(Probe::ArrayElements, &[], |wrong| {
            self.probe_arrays_contiguous(if wrong { 2 } else { 1 })
        });
        self.arrays_contiguous = found.is_some();
        let (read_only_arrays, found) = probes::check(
            Probe::ReadOnlyArrays,
            &[(Probe::ArrayElements, &arrays)],
            |wrong| self.probe_read_only_arrays(if wrong { 2 } else { 1 }),
        );
        self.read_only_arrays_in_place = found.is_some();
        // The wrong layout looks for the list's head one word early, where the map keeps
        // its hashes' address: still inside the `DictionaryPrivate` the probe made.
        let (entries, found) = probes::check(
            Probe::DictionaryEntries,
            &[(Probe::Variant, &variant)],
            |wrong| {
                self.probe_entry_layout(if wrong {
                    DICTIONARY_HEAD_OFFSET - 8
                } else {
                    DICTIONARY_HEAD_OFFSET
                })
            },
        );
        self.entry_layout = found.is_some();
        self.verdicts = vec![
            (Probe::Variant, variant),
            (Probe::ArrayElements, arrays),
            (Probe::ReadOnlyArrays, read_only_arrays),
            (Probe::DictionaryEntries, entries),
        ];
    }

    /// Checks the Variant layout against the engine's own functions on sample values of
    /// its own: the type word, the value's address (expected at `value_offset`) and bytes.
    fn probe_layout(&self, value_offset: usize) -> Result<((), String), String> {
        fn value_bytes(v: &Variant) -> [u8; 16] {
            let [a, b] = value_words(v);
            let mut out = [0; 16];
            out[..8].copy_from_slice(&a.to_le_bytes());
            out[8..].copy_from_slice(&b.to_le_bytes());
            out
        }
        let check = |v: &Variant, expected: &[u8]| {
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
        };
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
        let basis = Basis::from_rows(
            Vector3::new(1.5, -2.0, 3.25),
            Vector3::new(0.5, 4.0, -5.5),
            Vector3::new(6.0, -7.5, 8.25),
        );
        let mut floats = [0u8; 16];
        for (i, x) in [1.5f32, -2.0, 3.25, 0.5].iter().enumerate() {
            floats[i * 4..i * 4 + 4].copy_from_slice(&x.to_le_bytes());
        }
        let ok = type_word(&nil) == 0
            && check(&true.to_variant(), &[1])
            && check(&int.to_variant(), &int.to_le_bytes())
            && check(&float.to_variant(), &float.to_le_bytes())
            && check(&text.to_variant(), &text_bytes)
            && check(&name.to_variant(), &name_bytes)
            && check(&array.to_variant(), &array_bytes)
            && check(&dictionary.to_variant(), &dictionary_bytes)
            && check(&Vector2::new(1.5, -2.0).to_variant(), &floats[..8])
            && check(&Vector3::new(1.5, -2.0, 3.25).to_variant(), &floats[..12])
            && check(&Color::from_rgba(1.5, -2.0, 3.25, 0.5).to_variant(), &floats)
            && [
                Vector2i::new(7, -8).to_variant(),
                Rect2::new(Vector2::new(1.5, -2.0), Vector2::new(3.25, 0.5)).to_variant(),
                Rect2i::new(Vector2i::new(1, -2), Vector2i::new(3, 4)).to_variant(),
                Vector3i::new(1, -2, 3).to_variant(),
                Vector4::new(1.5, -2.0, 3.25, 0.5).to_variant(),
                Vector4i::new(1, -2, 3, -4).to_variant(),
                Plane { normal: Vector3::new(1.5, -2.0, 3.25), d: 0.5 }.to_variant(),
                Quaternion { x: 1.5, y: -2.0, z: 3.25, w: 0.5 }.to_variant(),
            ]
            .iter()
            .all(|v| {
                // SAFETY: `v` is a live Variant.
                let t = VariantType::from_sys(unsafe { (self.get_type)(v.var_sys()) });
                stored_inline(t) && math_bytes(v, t).is_some_and(|expected| check(v, &expected))
            })
            && [
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
            .iter()
            .all(|v| self.probe_boxed(v, value_offset))
            // The probe's own values made the raw way equal the engine's.
            && value_words(&int.to_variant()) == [int as u64, 0];
        if ok {
            Ok((
                (),
                format!(
                    "type word at 0 and value at {VALUE_OFFSET} of 24 bytes (the address of \
                     a boxed math value's block there), checked on values of 24 types made by \
                     the engine"
                ),
            ))
        } else {
            Err(format!(
                "a value made by the engine is not where it was expected (type word at 0, \
                 value at {value_offset})"
            ))
        }
    }

    /// Whether `v`, a Variant of a boxed math type the engine made ([`stored_boxed`]), holds
    /// the address of its value's block at `value_offset` (read from `v`'s own memory):
    /// the address the engine's getter gives for it, where the value's bytes are.
    fn probe_boxed(&self, v: &Variant, value_offset: usize) -> bool {
        // SAFETY: `v` is a live Variant.
        let t = VariantType::from_sys(unsafe { (self.get_type)(v.var_sys()) });
        if !stored_boxed(t) || type_word(v) != t.sys() {
            return false;
        }
        // SAFETY: within the Variant's 24 bytes (`value_offset` is 8 or 16).
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

    /// Whether an Array's elements lie one after the other, `stride` elements apart, as
    /// the engine's `Vector<Variant>` keeps them (stride 1): checked on an array of three,
    /// comparing the addresses both index functions give (nothing is read).
    fn probe_arrays_contiguous(&self, stride: usize) -> Result<((), String), String> {
        let mut array = VarArray::new();
        // SAFETY: an array held only here, of three elements after the resize.
        let ok = unsafe {
            self.array_resize(array.sys_mut(), 3);
            let mutable = array.sys_mut();
            let first = (self.array_index)(mutable, 0).cast::<Variant>();
            (1..3).all(|i| {
                let expected = first.wrapping_add(i as usize * stride);
                (self.array_index)(mutable, i).cast::<Variant>() == expected
                    && (self.array_index_const)(mutable.cast_const(), i).cast::<Variant>()
                        == expected
            })
        };
        if ok {
            Ok((
                (),
                "elements one after the other, checked on an array of three".into(),
            ))
        } else {
            Err(format!(
                "the elements of an array of three are not {stride} Variant(s) apart"
            ))
        }
    }

    /// Whether the const index of a read-only Array gives its elements themselves (one
    /// after the other, `stride` apart), not a scratch copy: an array of three, made
    /// read-only, compared by address with where its elements were (nothing is read).
    fn probe_read_only_arrays(&self, stride: usize) -> Result<((), String), String> {
        let mut array = VarArray::new();
        // SAFETY: an array held only here, of three elements after the resize.
        let first = unsafe {
            self.array_resize(array.sys_mut(), 3);
            (self.array_index)(array.sys_mut(), 0).cast::<Variant>()
        };
        let array = array.into_read_only();
        // SAFETY: indices below the size of a live array.
        let ok = (0..3).all(|i| unsafe {
            (self.array_index_const)(array.sys(), i).cast::<Variant>()
                == first.wrapping_add(i as usize * stride)
        });
        if ok {
            Ok((
                (),
                "a read-only array hands out its elements in place, checked on an array of three"
                    .into(),
            ))
        } else {
            Err("a read-only array hands out its elements through a scratch copy".into())
        }
    }

    /// Checks the entries' layout (`ENTRY_*`) and where their list starts (expected at
    /// `head_offset` in the `DictionaryPrivate`) on a dictionary of three int entries that
    /// the probe made: where the engine's lookup finds each value, its key is before it;
    /// the elements link to each other in the order the entries were made; and the
    /// dictionary's own block names the first and the last of them and its size. Runs only
    /// on the engine versions whose sources lay both out so ([`ENTRY_LAYOUT_VERSIONS`]),
    /// where every word it reads lies inside an entry the lookup found or inside that
    /// dictionary's block (which holds the map and two container types after it); it
    /// follows no address it read.
    fn probe_entry_layout(&self, head_offset: usize) -> Result<((), String), String> {
        let (major, minor, _) = probes::engine_version();
        if !ENTRY_LAYOUT_VERSIONS.contains(&(major, minor)) {
            return Err(format!(
                "not run: Godot {major}.{minor}'s dictionary entries are not known to be laid \
                 out as in 4.4 to 4.6"
            ));
        }
        let keys = [0x1111_i64, 0x2222, 0x3333];
        let value_of = |key: i64| key * 7 + 1;
        let mut dictionary = VarDictionary::new();
        for key in keys {
            self.set_entry(
                &mut dictionary,
                &key.to_variant(),
                value_of(key).to_variant(),
            );
        }
        let mut elements = Vec::new();
        for key in keys {
            // SAFETY: a live dictionary and key; the lookup of a key it holds does not
            // change it.
            let value = unsafe {
                (self.dictionary_index_const)(dictionary.sys(), key.to_variant().var_sys())
            };
            if value.is_null() {
                return Err("the engine did not find a key it was given".into());
            }
            elements.push(
                value
                    .cast_const()
                    .cast::<u8>()
                    .wrapping_sub(ENTRY_VALUE_OFFSET),
            );
        }
        let int = VariantType::INT.sys() as u64;
        let entries_ok = elements.iter().enumerate().all(|(i, &element)| {
            // SAFETY: on these versions each element is a `HashMapElement<Variant,
            // Variant>` of 64 bytes, and every offset read is below that.
            let word = |offset: usize| unsafe {
                element.wrapping_add(offset).cast::<u64>().read_unaligned()
            };
            let next = elements.get(i + 1).map_or(0, |&e| e as u64);
            let prev = i.checked_sub(1).map_or(0, |p| elements[p] as u64);
            word(ENTRY_NEXT_OFFSET) == next
                && word(ENTRY_PREV_OFFSET) == prev
                && word(ENTRY_KEY_OFFSET) as u32 as u64 == int
                && word(ENTRY_KEY_OFFSET + VALUE_OFFSET) == keys[i] as u64
                && word(ENTRY_VALUE_OFFSET) as u32 as u64 == int
                && word(ENTRY_VALUE_OFFSET + VALUE_OFFSET) == value_of(keys[i]) as u64
        });
        if !entries_ok {
            return Err(format!(
                "the entries of a dictionary of three are not laid out as expected (key at \
                 {ENTRY_KEY_OFFSET}, value at {ENTRY_VALUE_OFFSET})"
            ));
        }
        // SAFETY: a Dictionary is one pointer to its block, which on these versions is far
        // larger than the offsets read (the map ends at 56, two `ContainerTypeValidate`s
        // follow), and lives as long as `dictionary`.
        let (head, tail, size) = unsafe {
            let block = dictionary.sys().cast::<*const u8>().read();
            (
                block.add(head_offset).cast::<u64>().read_unaligned(),
                block
                    .add(DICTIONARY_TAIL_OFFSET)
                    .cast::<u64>()
                    .read_unaligned(),
                block
                    .add(DICTIONARY_SIZE_OFFSET)
                    .cast::<u32>()
                    .read_unaligned(),
            )
        };
        if head == elements[0] as u64 && tail == elements[2] as u64 && size == 3 {
            Ok((
                (),
                format!(
                    "Godot {major}.{minor}: entries in a list of elements (next, prev, key at \
                     {ENTRY_KEY_OFFSET}, value at {ENTRY_VALUE_OFFSET}) from the head at \
                     {DICTIONARY_HEAD_OFFSET} of the dictionary's block, checked on a \
                     dictionary of three"
                ),
            ))
        } else {
            Err(format!(
                "a dictionary of three does not name its first and last entries and its size \
                 where expected (head at {head_offset}, tail at {DICTIONARY_TAIL_OFFSET}, size \
                 at {DICTIONARY_SIZE_OFFSET})"
            ))
        }
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

    /// A pointer to the value inside `v`, which must be of type `t` (from [`type_of`]):
    /// `bool`, `int64_t`, `double`, the math types' structs, `String`, `Array`, … as the
    /// engine lays them out.
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
    unsafe fn internal_by_getter(&self, v: &Variant, t: VariantType) -> *const c_void {
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

    /// Calls a builtin method without arguments on the value at `base`, returning `R`.
    ///
    /// # Safety
    /// `base` must point to a live value of the method's type, and `R` be its return type.
    #[inline]
    unsafe fn call0<R: Default>(&self, m: Method, base: *const c_void) -> R {
        let m = m.expect("the engine has this builtin method");
        let mut ret = R::default();
        // SAFETY: `base` is a live value of the method's type and `R` its return type (the
        // caller's promise); no arguments.
        unsafe {
            m(
                base.cast_mut().cast(),
                std::ptr::null(),
                std::ptr::from_mut(&mut ret).cast(),
                0,
            )
        };
        ret
    }

    /// The size of the Array at `array` (an engine `Array*`).
    ///
    /// # Safety
    /// `array` must point to a live Array.
    #[inline]
    pub unsafe fn array_size(&self, array: *const c_void) -> usize {
        // SAFETY: a live Array (the caller's promise); `size` returns an int.
        unsafe { self.call0::<i64>(self.array_size, array) }.max(0) as usize
    }

    /// # Safety
    /// `array` must point to a live Array.
    #[inline]
    pub unsafe fn array_is_typed(&self, array: *const c_void) -> bool {
        // SAFETY: a live Array (the caller's promise); `is_typed` returns a bool.
        unsafe { self.call0::<u8>(self.array_is_typed, array) != 0 }
    }

    /// Resizes the Array at `array` (new elements are nil, or the default of a typed
    /// array's type).
    ///
    /// # Safety
    /// `array` must point to a live Array that may be changed.
    #[inline]
    pub unsafe fn array_resize(&self, array: sys::GDExtensionTypePtr, size: usize) {
        let m = self.array_resize.expect("the engine has Array::resize");
        let size = size as i64;
        let args = [std::ptr::from_ref(&size).cast::<c_void>()];
        let mut error = 0i64;
        // SAFETY: a live Array that may change (the caller's promise); one int argument, an
        // int (the error) returned.
        unsafe {
            m(
                array,
                args.as_ptr().cast(),
                std::ptr::from_mut(&mut error).cast(),
                1,
            )
        };
    }

    /// The size of the Dictionary at `dictionary` (an engine `Dictionary*`).
    ///
    /// # Safety
    /// `dictionary` must point to a live Dictionary.
    #[inline]
    pub unsafe fn dictionary_size(&self, dictionary: *const c_void) -> usize {
        // SAFETY: a live Dictionary (the caller's promise); `size` returns an int.
        unsafe { self.call0::<i64>(self.dictionary_size, dictionary) }.max(0) as usize
    }

    /// # Safety
    /// `dictionary` must point to a live Dictionary.
    #[inline]
    pub unsafe fn dictionary_is_typed(&self, dictionary: *const c_void) -> bool {
        // SAFETY: a live Dictionary (the caller's promise); `is_typed` returns a bool.
        unsafe { self.call0::<u8>(self.dictionary_is_typed, dictionary) != 0 }
    }

    /// Resizes the PackedByteArray at `bytes` (an engine `PackedByteArray*`, held only by
    /// the caller) to `size` bytes and returns its memory.
    ///
    /// # Safety
    /// `bytes` must point to a live PackedByteArray that may be changed and that outlives
    /// `'a` without being changed otherwise.
    pub unsafe fn resize_bytes<'a>(&self, bytes: *mut c_void, size: usize) -> &'a mut [u8] {
        let m = self
            .bytes_resize
            .expect("the engine has PackedByteArray::resize");
        let new_size = size as i64;
        let args = [std::ptr::from_ref(&new_size).cast::<c_void>()];
        let mut error = 0i64;
        // SAFETY: a live PackedByteArray that may change (the caller's promise); one int
        // argument, an int returned. Its memory, when not empty, holds `size` bytes until it
        // changes, which the caller rules out for `'a`.
        unsafe {
            m(
                bytes.cast(),
                args.as_ptr().cast(),
                std::ptr::from_mut(&mut error).cast(),
                1,
            );
            if size == 0 || error != 0 {
                return &mut [];
            }
            let data = (self.bytes_index)(bytes.cast(), 0);
            std::slice::from_raw_parts_mut(data, size)
        }
    }

    /// Sizes the empty PackedByteArray at `bytes` (an engine `PackedByteArray*`) to `size`
    /// bytes for the caller to overwrite entirely, and returns its memory (not zero-filled
    /// when made directly, see [`cow_data`](crate::engine::cow_data)); empty if it could not be allocated.
    ///
    /// # Safety
    /// `bytes` must point to an empty PackedByteArray held only by the caller that outlives
    /// `'a` without being changed otherwise; every byte must be written before it is read.
    pub unsafe fn sized_bytes<'a>(&self, bytes: *mut c_void, size: usize) -> &'a mut [u8] {
        if let Some(buffers) = self.buffers {
            // SAFETY: as the caller promises; the memory is the engine's, written before
            // it is read.
            unsafe {
                let data = buffers.attach::<u8>(bytes, size);
                if !data.is_null() {
                    return std::slice::from_raw_parts_mut(data, size);
                }
            }
        }
        // SAFETY: as the caller promises.
        unsafe { self.resize_bytes(bytes, size) }
    }

    /// Element `i` of the Array at `array` (its `sys()`), in place.
    ///
    /// # Safety
    /// `i` must be below the array's size, and the array outlive `'a` unchanged. For a
    /// read-only array, the element must be done with before another element of the same
    /// array is asked for: Godot 4.4 hands each out through one scratch Variant per array.
    #[inline]
    pub unsafe fn array_element<'a>(
        &self,
        array: sys::GDExtensionConstTypePtr,
        i: usize,
    ) -> &'a Variant {
        // SAFETY: `i` is below the size (the caller's promise), so the engine's const
        // `operator[]` returns a valid address: the element's, which stays valid while the
        // array is unchanged (the caller's promise); or, for a read-only array in Godot
        // 4.4, the array's scratch Variant holding a copy of the element, which stays
        // valid while the array lives and holds that copy until the next element of the
        // array is asked for (the caller's promise).
        unsafe { &*(self.array_index_const)(array, i as i64).cast::<Variant>() }
    }

    /// The `len` elements of the Array at `array` (its `sys()`), in place, when they lie
    /// one after the other in its memory (the engine's `Vector<Variant>`; probed at
    /// start-up): one call into the engine for them all, not one per element. On an engine
    /// that hands out a read-only array's elements through a scratch copy, `None` for a
    /// read-only array (one call more to ask).
    ///
    /// # Safety
    /// `len` must be the array's size, and the array outlive `'a` unchanged (no script
    /// may run meanwhile that could resize it).
    #[inline]
    pub unsafe fn array_elements<'a>(
        &self,
        array: sys::GDExtensionConstTypePtr,
        len: usize,
    ) -> Option<&'a [Variant]> {
        if !self.arrays_contiguous {
            return None;
        }
        if len == 0 {
            return Some(&[]);
        }
        if !self.read_only_arrays_in_place
            // SAFETY: `array` points to a live Array.
            && unsafe { self.call0::<u8>(self.array_is_read_only, array.cast()) } != 0
        {
            return None;
        }
        // SAFETY: below the size; the elements stay where they are while `array` does.
        unsafe {
            let first = (self.array_index_const)(array, 0).cast::<Variant>();
            Some(std::slice::from_raw_parts(first, len))
        }
    }

    /// The first element of the Array at `array` (its `sys_mut()`), of `len` that
    /// [`store`](Self::store) may replace in place, when they lie one after the other in
    /// its memory (see [`array_elements`](Self::array_elements)).
    ///
    /// # Safety
    /// `len` must be the array's size, the array held only here (its memory is not
    /// copied on write), unchanged while the pointer is used.
    #[inline]
    pub unsafe fn array_slots(
        &self,
        array: sys::GDExtensionTypePtr,
        len: usize,
    ) -> Option<*mut Variant> {
        if !self.arrays_contiguous || len == 0 {
            return None;
        }
        // SAFETY: below the size, of an array held only here.
        Some(unsafe { (self.array_index)(array, 0).cast() })
    }

    /// Stores `item` as element `i` of the Array at `array` (its `sys_mut()`), without
    /// conversion or copy.
    ///
    /// # Safety
    /// `i` must be below the array's size, the array held only here, and `item` of the
    /// array's element type if it is typed.
    #[inline]
    pub unsafe fn set_array_element(
        &self,
        array: sys::GDExtensionTypePtr,
        i: usize,
        item: Variant,
    ) {
        // SAFETY: `i` is below the size of an array held only here (the caller's promise): the
        // slot is the element itself, which `store` replaces.
        unsafe {
            let slot = (self.array_index)(array, i as i64).cast::<Variant>();
            self.store(slot, item);
        }
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

    /// `dictionary[key] = value`, as the engine's `Dictionary::operator[]` does it (the key
    /// checked against a typed dictionary's key type), moving `value` in.
    #[inline]
    pub fn set_entry(&self, dictionary: &mut VarDictionary, key: &Variant, value: Variant) {
        // SAFETY: live dictionary and key; the engine returns the entry's slot (inserting a
        // nil one if new), or a fallback slot when a typed dictionary refuses the key.
        unsafe {
            let slot =
                (self.dictionary_index)(dictionary.sys_mut(), key.var_sys()).cast::<Variant>();
            if !slot.is_null() {
                self.store(slot, value);
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

    /// Calls `f` with each entry of the Dictionary in `v` (a Variant of that type), in the
    /// dictionary's order, as the engine's `encode_variant` walks it: never by looking a key
    /// up (see the module docs). When the entries' layout is known, in place, following the
    /// list from its head; otherwise over the engine's `keys()` and `values()`, two arrays
    /// it fills from the same list. Returns how many entries `f` was called with.
    ///
    /// The dictionary must not change meanwhile (no script may run in `f`); the walk in
    /// place stops after `limit` entries whatever the list holds.
    pub fn for_each_entry<E>(
        &self,
        v: &Variant,
        limit: usize,
        mut f: impl FnMut(&Variant, &Variant) -> Result<(), E>,
    ) -> Result<usize, E> {
        if !self.entry_layout {
            return self.for_each_entry_of_copy(v, f);
        }
        let mut count = 0;
        // SAFETY: `v` is a live Dictionary, so the pointer inside it is its live block; the
        // probe checked on this engine that the block names the first element of the list
        // at `DICTIONARY_HEAD_OFFSET` and that each element holds the next one's address,
        // its key and its value where `ENTRY_*` say. The elements live as long as the
        // unchanged dictionary, and the last one's next address is null.
        unsafe {
            let dictionary = self.internal(v, VariantType::DICTIONARY);
            let block = dictionary.cast::<*const u8>().read();
            let mut element = block.add(DICTIONARY_HEAD_OFFSET).cast::<*const u8>().read();
            while !element.is_null() && count < limit {
                f(
                    &*element.add(ENTRY_KEY_OFFSET).cast::<Variant>(),
                    &*element.add(ENTRY_VALUE_OFFSET).cast::<Variant>(),
                )?;
                count += 1;
                element = element.add(ENTRY_NEXT_OFFSET).cast::<*const u8>().read();
            }
        }
        Ok(count)
    }

    /// As [`for_each_entry`](Self::for_each_entry), over the engine's `keys()` and
    /// `values()` of the Dictionary in `v`: arrays that only this walk holds, so a script
    /// that runs in `f` and changes the dictionary changes neither.
    pub fn for_each_entry_of_copy<E>(
        &self,
        v: &Variant,
        mut f: impl FnMut(&Variant, &Variant) -> Result<(), E>,
    ) -> Result<usize, E> {
        // SAFETY: `v` is a Dictionary, viewed while `v` is borrowed.
        let dictionary = unsafe { self.view::<VarDictionary>(v, VariantType::DICTIONARY) };
        let inner = InnerDictionary::from_outer(&dictionary);
        let keys: AnyArray = inner.keys();
        let values: AnyArray = inner.values();
        let count = keys.len().min(values.len());
        for i in 0..count {
            // SAFETY: both arrays hold at least `count` elements and are held here.
            let (key, value) = unsafe {
                (
                    self.array_element(keys.sys(), i),
                    self.array_element(values.sys(), i),
                )
            };
            f(key, value)?;
        }
        Ok(count)
    }

    /// Asks for the String's characters to be brought into the cache ahead of reading
    /// them (when the layout is known; else nothing).
    #[inline]
    pub fn prefetch_chars(&self, s: &GString) {
        if let Some(buffers) = self.buffers {
            buffers.prefetch_chars(s);
        }
    }

    /// A String's characters, in place (UTF-32 code units; not necessarily valid scalars).
    pub fn chars<'s>(&self, s: &'s GString) -> &'s [u32] {
        if let Some(buffers) = self.buffers {
            return buffers.chars(s);
        }
        // SAFETY: a live String; its buffer holds `len` characters (and a NUL after them)
        // while it is not modified.
        unsafe {
            let len = (self.string_to_utf32)(s.string_sys(), std::ptr::null_mut(), 0);
            if len <= 0 {
                return &[];
            }
            let data = (self.string_index_const)(s.string_sys(), 0);
            std::slice::from_raw_parts(data, len as usize)
        }
    }

    /// Makes the String `text` in `slot`, which holds an empty String (owning nothing) or
    /// nothing yet, holding exactly the characters of `text` (decoded text, which holds no
    /// NUL: it ends at the first). When the engine's layout is known its characters are
    /// written into a buffer made directly (see [`cow_data`](crate::engine::cow_data)); else the engine's
    /// constructors make it (Latin-1 for ASCII, the simpler one): the same String either way.
    ///
    /// # Safety
    /// `slot` must point to an empty String or to memory for one (overwritten, not dropped).
    #[inline]
    pub unsafe fn make_string(&self, slot: *mut GString, text: &str) {
        debug_assert!(!text.contains('\0'), "decoded text ends at its first NUL");
        let dest = slot.cast();
        // SAFETY: `slot` is an empty String or memory for one (the caller's promise); each
        // branch initializes it once, from text without NUL (the decoder's).
        unsafe {
            if let Some(s) = self.buffers.and_then(|buffers| buffers.string(text)) {
                slot.write(s);
            } else if starts_with_bom(text) {
                slot.write(gstring(text));
            } else if text.is_ascii() {
                (self.string_from_latin1)(dest, text.as_ptr().cast(), text.len() as i64);
            } else {
                (self.string_from_utf8)(dest, text.as_ptr().cast(), text.len() as i64);
            }
        }
    }

    /// [`make_string`](Self::make_string) for a text known to be ASCII without NUL (see
    /// [`RawText::plain`](godot_variant_codec::RawText::plain)).
    ///
    /// # Safety
    /// As for `make_string`.
    #[inline(always)]
    pub unsafe fn make_ascii_string(&self, slot: *mut GString, text: &str) {
        debug_assert!(text.bytes().all(|b| (1..0x80).contains(&b)));
        let buffers = self.buffers;
        if let Some(s) = buffers.and_then(|buffers| buffers.short_ascii_string(text)) {
            // SAFETY: as the caller promises.
            unsafe { slot.write(s) };
            return;
        }
        // SAFETY: as the caller promises.
        unsafe { self.make_string(slot, text) }
    }

    /// A new String of `text`.
    #[inline]
    pub fn string(&self, text: &str) -> GString {
        // SAFETY: the constructor initializes the String it is given.
        unsafe { GString::new_with_uninit(|dest| self.make_string(dest.cast(), text)) }
    }

    /// What each of this module's probes found, in [`Probe::ALL`]'s order.
    pub fn verdicts(&self) -> &[(Probe, Verdict)] {
        &self.verdicts
    }

    /// The verdict of one of this module's probes (`None` for another module's).
    pub fn verdict(&self, probe: Probe) -> Option<&Verdict> {
        self.verdicts
            .iter()
            .find(|(p, _)| *p == probe)
            .map(|(_, v)| v)
    }

    /// The first word of the value `v` holds, when the layout is known: the one word of a
    /// String, StringName, NodePath, Array or Dictionary (read from `v`'s own memory).
    pub fn value_word(&self, v: &Variant) -> Option<u64> {
        self.layout.then(|| value_words(v)[0])
    }

    /// A NodePath Variant of the NodePath whose one word is `data` (its `Data` block; null
    /// for the empty path), whose reference it takes over; `None` when the layout is not
    /// known (then nothing is taken).
    ///
    /// # Safety
    /// `data` must be null or a NodePath `Data` block laid out and allocated as the
    /// engine's, holding one reference for the caller.
    pub unsafe fn node_path_variant(&self, data: *mut c_void) -> Option<Variant> {
        // SAFETY: the layout is known; a NodePath is its one word, at the value offset
        // like every pointer-sized value (the `node_paths` probe checks that it is), and
        // a valid one as the caller promises.
        self.layout
            .then(|| unsafe { Self::from_words(VariantType::NODE_PATH, [data as u64, 0]) })
    }

    /// A Variant of type `t` whose value is the 16 bytes `value`.
    ///
    /// # Safety
    /// The layout must be known, and `value` a valid value of `t` (whose ownership, if it
    /// owns anything, passes to the Variant).
    #[inline]
    unsafe fn from_words(t: VariantType, value: [u64; 2]) -> Variant {
        let words: Words = [t.sys() as u32 as u64, value[0], value[1]];
        // SAFETY: the layout is known and `value` a valid value of `t` (the caller's promise):
        // these are the bytes of such a Variant.
        unsafe { std::mem::transmute::<Words, Variant>(words) }
    }

    /// A Variant of type `t` holding that type's default value (an empty packed array…),
    /// made by the engine's constructor in one call.
    pub fn default_variant(&self, t: VariantType) -> Variant {
        // SAFETY: a new Variant's memory, initialized by the constructor.
        unsafe { Variant::new_with_var_uninit(|dest| self.construct_default(dest, t)) }
    }

    /// Replaces the Variant at `slot` (dropped) by the default value of type `t`, made
    /// there: not moved after the engine's constructor wrote it, whose narrow writes a
    /// move's 16-byte reads would wait for.
    ///
    /// # Safety
    /// `slot` points to a live Variant that nothing else reads or writes meanwhile.
    pub unsafe fn make_default_at(&self, slot: *mut Variant, t: VariantType) {
        // SAFETY: the caller's Variant, dropped, then made again in its memory.
        unsafe {
            self.drop_in_place(slot);
            self.construct_default(slot.cast(), t);
        }
    }

    /// # Safety
    /// `dest` is the memory of a Variant, not initialized (or dropped).
    unsafe fn construct_default(
        &self,
        dest: sys::GDExtensionUninitializedVariantPtr,
        t: VariantType,
    ) {
        let mut error = sys::GDExtensionCallError {
            error: sys::GDEXTENSION_CALL_OK,
            argument: 0,
            expected: 0,
        };
        // SAFETY: the engine's constructor of a builtin type, given no arguments,
        // initializes the Variant it is handed with the type's default value.
        unsafe { (self.construct)(t.sys(), dest, std::ptr::null(), 0, &mut error) };
    }

    /// A nil Variant, made in place (gdext's `Variant::nil` is a call into the engine,
    /// which made Arrays of nils decode slower than the engine's own decoder).
    #[inline]
    pub fn nil(&self) -> Variant {
        if self.layout {
            // SAFETY: the layout is known; a nil holds nothing.
            unsafe { Self::from_words(VariantType::NIL, [0, 0]) }
        } else {
            Variant::nil()
        }
    }

    #[inline]
    pub fn int(&self, i: i64) -> Variant {
        if self.layout {
            // SAFETY: the layout is known; an int is its 8 bytes.
            unsafe { Self::from_words(VariantType::INT, [i as u64, 0]) }
        } else {
            i.to_variant()
        }
    }

    #[inline]
    pub fn float(&self, f: f64) -> Variant {
        if self.layout {
            // SAFETY: as for `int`.
            unsafe { Self::from_words(VariantType::FLOAT, [f.to_bits(), 0]) }
        } else {
            f.to_variant()
        }
    }

    #[inline]
    pub fn bool(&self, b: bool) -> Variant {
        if self.layout {
            // SAFETY: as for `int`; a C++ bool is one byte, 0 or 1.
            unsafe { Self::from_words(VariantType::BOOL, [u64::from(b), 0]) }
        } else {
            b.to_variant()
        }
    }

    /// A Variant of a type stored inline as plain data (the math types of 32-bit fields,
    /// Color), holding `components` (32-bit floats or ints), which must be that type's
    /// value in the engine's layout (the codec's wire order); `None` when Variants are not
    /// made through their layout, for another type, or for more than a Variant holds.
    ///
    /// The value's words are put together from the components in registers: copied
    /// through memory (a copy of the slice's length, then a 16-byte read), the read waits
    /// for the copy's narrower writes to reach the cache.
    #[inline]
    pub fn plain_variant<T: Copy>(&self, t: VariantType, components: &[T]) -> Option<Variant> {
        const { assert!(std::mem::size_of::<T>() == 4, "32-bit components") };
        if !(self.layout && stored_inline(t) && owns_nothing(t)) || components.len() > 4 {
            return None;
        }
        let bits = |i: usize| {
            components.get(i).map_or(0, |c| {
                // SAFETY: a component is 4 bytes of plain data (asserted above).
                u64::from(unsafe { std::mem::transmute_copy::<T, u32>(c) })
            })
        };
        let words = [bits(0) | bits(1) << 32, bits(2) | bits(3) << 32];
        // SAFETY: the layout is known and `t` stores its value inline as the plain data the
        // caller gives, in these words.
        Some(unsafe { Self::from_words(t, words) })
    }

    /// A Variant holding a new String of `text`.
    #[inline]
    pub fn string_variant(&self, text: &str) -> Variant {
        self.moved_into_variant(VariantType::STRING, self.string(text))
    }

    /// A Variant holding `name`, moved in (no reference counting).
    #[inline]
    pub fn string_name_variant(&self, name: StringName) -> Variant {
        self.moved_into_variant(VariantType::STRING_NAME, name)
    }

    /// A Variant holding the untyped `dictionary`, moved in (no reference counting).
    ///
    /// # Safety
    /// The dictionary's ownership passes to the Variant: the caller forgets `dictionary`
    /// (`std::mem::forget`) and does not use it again.
    #[inline(always)]
    pub unsafe fn dictionary_variant_at(&self, dictionary: &VarDictionary) -> Variant {
        // SAFETY: the caller's promise.
        unsafe { self.moved_into_variant_at(VariantType::DICTIONARY, dictionary) }
    }

    /// A Variant holding the untyped `array`, moved in (no reference counting).
    ///
    /// # Safety
    /// As [`dictionary_variant_at`](Self::dictionary_variant_at), for `array`.
    #[inline(always)]
    pub unsafe fn array_variant_at(&self, array: &VarArray) -> Variant {
        // SAFETY: the caller's promise.
        unsafe { self.moved_into_variant_at(VariantType::ARRAY, array) }
    }

    /// A Variant of type `t` holding `value`, an engine String, StringName, untyped Array
    /// or untyped Dictionary of that type, moved in (see
    /// [`moved_into_variant_at`](Self::moved_into_variant_at)).
    #[inline(always)]
    fn moved_into_variant<T: GodotFfi + ToGodot>(&self, t: VariantType, value: T) -> Variant {
        // SAFETY: `value` is forgotten right after.
        let variant = unsafe { self.moved_into_variant_at(t, &value) };
        std::mem::forget(value);
        variant
    }

    /// A Variant of type `t` holding `value`, an engine String, StringName, untyped Array
    /// or untyped Dictionary of that type: one pointer, which moves into the Variant when
    /// the layout is known (gdext's wrappers hold nothing else that owns: an Array's or
    /// Dictionary's cache of untyped element types owns nothing); else gdext's conversion.
    /// The word is read where `value` is: a moved wrapper is copied 16 bytes at a time,
    /// and reading that copy waits for the narrower writes that made it.
    ///
    /// # Safety
    /// The value's ownership passes to the Variant: the caller forgets `value` and does not
    /// use it again.
    #[inline(always)]
    unsafe fn moved_into_variant_at<T: GodotFfi + ToGodot>(
        &self,
        t: VariantType,
        value: &T,
    ) -> Variant {
        if self.layout {
            // SAFETY: the layout is known, and `value`, of type `t`, is the one word the
            // engine keeps at the value offset (the probe checks each of these types);
            // its ownership passes to the Variant, as the caller promises.
            unsafe {
                let word = value.sys().cast::<u64>().read_unaligned();
                Self::from_words(t, [word, 0])
            }
        } else {
            // SAFETY: the caller gives up `value`: this owned copy of it is dropped after
            // the conversion took its own reference.
            unsafe { std::ptr::read(value) }.to_variant()
        }
    }
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
