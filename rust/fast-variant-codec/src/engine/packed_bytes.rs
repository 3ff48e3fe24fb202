//! A PackedByteArray sized for the caller to fill: through the engine's `resize`, or a
//! buffer made directly (not zero-filled) when the `buffers` probe found the layout.

use std::ffi::c_void;

use crate::engine::ffi::Ffi;

impl Ffi {
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
    /// when made directly, see [`cow_data`](crate::engine::cow_data)); empty if it could not
    /// be allocated.
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
}
