//! Variants made in place: their words written as the engine lays them out (when the
//! `variant` probe found that layout), else through gdext's conversions or the engine's
//! constructors.

use godot::builtin::{VarArray, VarDictionary, Variant, VariantType};
use godot::meta::ToGodot;
use godot::sys::{self, GodotFfi};

use crate::engine::ffi::Ffi;
use crate::engine::layout::VARIANT_WORDS;
use crate::engine::variant::{owns_nothing, stored_inline, ValueWords, Words};

impl Ffi {
    /// A Variant of type `t` whose value union holds `value`.
    ///
    /// # Safety
    /// The layout must be known, and `value` a valid value of `t` (whose ownership, if it
    /// owns anything, passes to the Variant).
    #[inline]
    pub(super) unsafe fn from_words(t: VariantType, value: ValueWords) -> Variant {
        let mut words: Words = [0; VARIANT_WORDS];
        words[0] = t.sys() as u32 as u64;
        words[1..].copy_from_slice(&value);
        // SAFETY: the layout is known and `value` a valid value of `t` (the caller's promise):
        // these are the bytes of such a Variant.
        unsafe { std::mem::transmute::<Words, Variant>(words) }
    }

    /// A Variant of type `t` whose value is the one word `word`, the rest of its union 0.
    ///
    /// # Safety
    /// As for [`from_words`](Self::from_words).
    #[inline]
    pub(super) unsafe fn from_word(t: VariantType, word: u64) -> Variant {
        // SAFETY: the caller's promise.
        unsafe { Self::from_words(t, value_words_of([word])) }
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
    pub(super) unsafe fn construct_default(
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
            unsafe { Self::from_word(VariantType::NIL, 0) }
        } else {
            Variant::nil()
        }
    }

    #[inline]
    pub fn int(&self, i: i64) -> Variant {
        if self.layout {
            // SAFETY: the layout is known; an int is its 8 bytes.
            unsafe { Self::from_word(VariantType::INT, i as u64) }
        } else {
            i.to_variant()
        }
    }

    #[inline]
    pub fn float(&self, f: f64) -> Variant {
        if self.layout {
            // SAFETY: as for `int`.
            unsafe { Self::from_word(VariantType::FLOAT, f.to_bits()) }
        } else {
            f.to_variant()
        }
    }

    #[inline]
    pub fn bool(&self, b: bool) -> Variant {
        if self.layout {
            // SAFETY: as for `int`; a C++ bool is one byte, 0 or 1.
            unsafe { Self::from_word(VariantType::BOOL, u64::from(b)) }
        } else {
            b.to_variant()
        }
    }

    /// A Variant of a type stored inline as plain data (the math types, Color), holding
    /// `components` (32-bit ints or floats, or the reals of a double-precision build),
    /// which must be that type's value in the engine's layout (the codec's wire order);
    /// `None` when Variants are not made through their layout, for another type, or for
    /// more than a Variant holds.
    ///
    /// The value's words are put together from the components in registers: copied
    /// through memory (a copy of the slice's length, then a 16-byte read), the read waits
    /// for the copy's narrower writes to reach the cache.
    #[inline]
    pub fn plain_variant<T: Copy>(&self, t: VariantType, components: &[T]) -> Option<Variant> {
        let size = std::mem::size_of::<T>();
        const {
            assert!(
                matches!(std::mem::size_of::<T>(), 4 | 8),
                "4- or 8-byte components"
            )
        };
        if !(self.layout && stored_inline(t) && owns_nothing(t))
            || std::mem::size_of_val(components) > std::mem::size_of::<ValueWords>()
        {
            return None;
        }
        let words = if size == 4 {
            let bits = |i: usize| {
                components.get(i).map_or(0, |c| {
                    // SAFETY: a component is 4 bytes of plain data (checked above).
                    u64::from(unsafe { std::ptr::from_ref(c).cast::<u32>().read_unaligned() })
                })
            };
            value_words_of([bits(0) | bits(1) << 32, bits(2) | bits(3) << 32])
        } else {
            let bits = |i: usize| {
                components.get(i).map_or(0, |c| {
                    // SAFETY: a component is 8 bytes of plain data (checked above).
                    unsafe { std::ptr::from_ref(c).cast::<u64>().read_unaligned() }
                })
            };
            value_words_of([bits(0), bits(1), bits(2), bits(3)])
        };
        // SAFETY: the layout is known and `t` stores its value inline as the plain data the
        // caller gives, in these words.
        Some(unsafe { Self::from_words(t, words) })
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
    pub(super) fn moved_into_variant<T: GodotFfi + ToGodot>(
        &self,
        t: VariantType,
        value: T,
    ) -> Variant {
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
    pub(super) unsafe fn moved_into_variant_at<T: GodotFfi + ToGodot>(
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
                Self::from_word(t, word)
            }
        } else {
            // SAFETY: the caller gives up `value`: this owned copy of it is dropped after
            // the conversion took its own reference.
            unsafe { std::ptr::read(value) }.to_variant()
        }
    }
}

/// A value union holding `words` first, then zeros (only the words that fit: callers check
/// that their value does).
#[inline(always)]
fn value_words_of<const N: usize>(words: [u64; N]) -> ValueWords {
    let mut value: ValueWords = [0; VARIANT_WORDS - 1];
    let n = N.min(value.len());
    value[..n].copy_from_slice(&words[..n]);
    value
}
