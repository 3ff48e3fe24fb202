//! An Array's elements, read and replaced in place: one call for all of them when they lie
//! one after the other (the `array_elements` probe), else one per element; and the probes
//! of that layout.
//!
//! Read-only containers: Godot 4.4's `Array::operator[] const` hands out a read-only
//! array's elements through one scratch Variant, one at a time; later versions hand out the
//! element itself. A probe on a read-only array tells which the running engine does; where
//! it is the scratch, each array is asked whether it is read-only before its elements are
//! read in place. A Dictionary's list of entries is the same whether it is read-only or not.

use std::ffi::c_void;

use godot::builtin::{VarArray, Variant};
use godot::sys::{self, GodotFfi};

use crate::engine::ffi::Ffi;
use crate::engine::probes::{Passed, ProbeResult};

impl Ffi {
    /// Whether an Array's elements lie one after the other, `stride` elements apart, as
    /// the engine's `Vector<Variant>` keeps them (stride 1): checked on an array of three,
    /// comparing the addresses both index functions give (nothing is read).
    pub(super) fn probe_arrays_contiguous(&self, stride: usize) -> ProbeResult {
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
            Ok(Passed::checked(
                "elements one after the other, checked on an array of three",
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
    pub(super) fn probe_read_only_arrays(&self, stride: usize) -> ProbeResult {
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
            Ok(Passed::checked(
                "a read-only array hands out its elements in place, checked on an array of three",
            ))
        } else {
            Err("a read-only array hands out its elements through a scratch copy".into())
        }
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
}
