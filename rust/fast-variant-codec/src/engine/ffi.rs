//! Direct access to engine values, for the walks that touch every element: a Variant's
//! type and the value inside it, an Array's elements and a Dictionary's entries in place,
//! a String's UTF-32 characters in place, Variants made without a call into the engine.
//! [`Ffi`] holds the interface's functions and what the probes found; its methods are
//! laid out by the kind of value they reach: [`variant`](super::variant) (reading a
//! Variant, its probe), [`make_variant`](super::make_variant) (making one),
//! [`array`](super::array), [`dictionary`](super::dictionary), [`string`](super::string),
//! [`packed_bytes`](super::packed_bytes) and [`node_path`](super::node_path).
//!
//! gdext's safe API converts (copies, with reference counting, through a call into the
//! engine) at every step, and walks a Dictionary with three hash lookups per entry. Here an
//! Array's elements cost one call for all of them (they lie one after the other) or one
//! each, and a Dictionary's entries none (the engine's list of entries, followed in place
//! from its head) or two arrays made by the engine (its keys and values, in order).
//!
//! Two levels:
//! - the GDExtension interface (functions that read a value in place, construct a String
//!   in place, …), always available;
//! - memory layouts: a Variant's (the type as a 32-bit word at offset 0 and the value, or
//!   the object holding it, at offset 8, the layout the engine has had since 4.0 and that
//!   its C# glue relies on), an Array's (its Variants one after the other) and a
//!   Dictionary's entries' (elements of a list, each holding its key and value), as
//!   [`layout`](super::layout) says. Each is used only after a probe at start-up has
//!   checked it against the engine's own functions on sample values; if a probe fails,
//!   what it covers goes through the interface. Safe mode and the test variables are
//!   decided in [`probes`].
//!
//! Everything runs on the calling thread, on values the caller holds for the duration.

use std::ffi::c_void;
use std::sync::OnceLock;

use godot::builtin::VariantType;
use godot::sys;

use crate::engine::cow_data::Buffers;
use crate::engine::layout::{DictionaryBlock, VALUE_OFFSET};
use crate::engine::probes::{self, Probe, Verdict};

/// The engine's number of Variant types this build knows (`Variant::VARIANT_MAX`).
pub(super) const TYPES: usize = sys::GDEXTENSION_VARIANT_TYPE_VARIANT_MAX as usize;

/// The interface functions the walks call, fetched once.
pub struct Ffi {
    pub(super) get_type: sys::GDExtensionInterfaceVariantGetType,
    /// Per type: a pointer to the value a Variant of that type holds.
    pub(super) internal: [sys::GDExtensionVariantGetInternalPtrFunc; TYPES],
    pub(super) dictionary_index_const: sys::GDExtensionInterfaceDictionaryOperatorIndexConst,
    pub(super) array_index_const: sys::GDExtensionInterfaceArrayOperatorIndexConst,
    pub(super) array_index: sys::GDExtensionInterfaceArrayOperatorIndex,
    pub(super) dictionary_index: sys::GDExtensionInterfaceDictionaryOperatorIndex,
    pub(super) string_to_utf32: sys::GDExtensionInterfaceStringToUtf32Chars,
    pub(super) string_index_const: sys::GDExtensionInterfaceStringOperatorIndexConst,
    pub(super) string_from_latin1: sys::GDExtensionInterfaceStringNewWithLatin1CharsAndLen,
    pub(super) construct: sys::GDExtensionInterfaceVariantConstruct,
    pub(super) string_from_utf8: sys::GDExtensionInterfaceStringNewWithUtf8CharsAndLen2,
    pub(super) string_from_utf32: sys::GDExtensionInterfaceStringNewWithUtf32CharsAndLen,
    pub(super) array_size: Method,
    pub(super) array_is_typed: Method,
    pub(super) array_is_read_only: Method,
    pub(super) array_resize: Method,
    pub(super) dictionary_size: Method,
    pub(super) dictionary_is_typed: Method,
    pub(super) bytes_resize: Method,
    pub(super) bytes_index: sys::GDExtensionInterfacePackedByteArrayOperatorIndex,
    /// The probe's verdict: Variants are laid out as described in the module docs.
    pub(super) layout: bool,
    /// The probe's verdict: a Dictionary's entries are laid out as `ENTRY_*` say, in a
    /// list that starts at [`dictionary_head`](Self::dictionary_head).
    pub(super) entry_layout: bool,
    /// Where a `DictionaryPrivate` holds its list's first element, on this engine (see
    /// [`DictionaryBlock`]); read only when `entry_layout` holds.
    pub(super) dictionary_head: usize,
    /// The probe's verdict: an Array's elements lie one after the other.
    pub(super) arrays_contiguous: bool,
    /// The probe's verdict: a read-only Array hands out its elements in place.
    pub(super) read_only_arrays_in_place: bool,
    /// Strings made directly, when the engine's buffers are laid out as `cow_data` expects.
    pub(super) buffers: Option<&'static Buffers>,
    /// What each probe of Variants, Arrays and Dictionaries found.
    pub(super) verdicts: Vec<(Probe, Verdict)>,
}

/// A builtin method, called directly (`ptrcall`): the engine's `Array::size`, …
pub(super) type Method = sys::GDExtensionPtrBuiltInMethod;

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
            string_from_utf32: interface.string_new_with_utf32_chars_and_len,
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
            dictionary_head: 0,
            arrays_contiguous: false,
            read_only_arrays_in_place: false,
            buffers: crate::engine::cow_data::buffers(),
            verdicts: Vec::new(),
        };
        ffi.run_probes();
        ffi
    })
}

impl Ffi {
    /// Runs the probes of Variants, Arrays and Dictionaries, each as [`probes::check`]
    /// decides, in the order
    /// of their dependencies.
    pub(super) fn run_probes(&mut self) {
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
        let block = Self::dictionary_block();
        let (entries, found) = probes::check(
            Probe::DictionaryEntries,
            &[(Probe::Variant, &variant)],
            |wrong| {
                let block = block.clone()?;
                let head = if wrong { block.head - 8 } else { block.head };
                self.probe_entry_layout(DictionaryBlock { head, ..block })
            },
        );
        self.entry_layout = found.is_some();
        self.dictionary_head = block.map_or(0, |block| block.head);
        self.verdicts = vec![
            (Probe::Variant, variant),
            (Probe::ArrayElements, arrays),
            (Probe::ReadOnlyArrays, read_only_arrays),
            (Probe::DictionaryEntries, entries),
        ];
    }

    /// Calls a builtin method without arguments on the value at `base`, returning `R`.
    ///
    /// # Safety
    /// `base` must point to a live value of the method's type, and `R` be its return type.
    #[inline]
    pub(super) unsafe fn call0<R: Default>(&self, m: Method, base: *const c_void) -> R {
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

    /// What each probe of Variants, Arrays and Dictionaries found, in [`Probe::ALL`]'s order.
    pub fn verdicts(&self) -> &[(Probe, Verdict)] {
        &self.verdicts
    }

    /// The verdict of one of the probes of Variants, Arrays and Dictionaries (`None` for
    /// another probe).
    pub fn verdict(&self, probe: Probe) -> Option<&Verdict> {
        self.verdicts
            .iter()
            .find(|(p, _)| *p == probe)
            .map(|(_, v)| v)
    }
}
