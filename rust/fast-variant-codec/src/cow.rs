//! Engine buffers made without the engine's zero-fill: the memory of a String or of a
//! packed array, allocated by the engine's allocator and laid out as the engine's
//! copy-on-write buffer (`CowData`), for the binding to fill.
//!
//! The interface can only size a PackedByteArray (or any packed array) through its
//! `resize`, which zero-fills the new elements: for a large array that is a second pass
//! over its memory, as long as the copy that fills it (`var_to_bytes` and `bytes_to_var`
//! allocate without it). And it makes a String from ASCII text through a loop that checks
//! every byte for NUL, which the decoder has already ruled out. Here, a buffer is allocated
//! through the interface (`mem_alloc`, the allocator `CowData` uses and frees with), its
//! header written, and the data left to the caller.
//!
//! `CowData` (core/templates/cowdata.h, Godot 4.5 on) is a pointer to the data, preceded by
//! the reference count, capacity and size (in elements), each a 64-bit word, the data
//! aligned to 16: offsets -32, -24, -16 from the data. A String is that one pointer; a
//! packed array (`Vector`) an empty write proxy, then the pointer. A probe at start-up
//! checks this against buffers the engine made and against its own reference counting;
//! if anything differs (an older engine, a changed layout), buffers are made the
//! interface's way instead.

use std::ffi::c_void;
use std::sync::OnceLock;

use godot::builtin::{GString, PackedArray, PackedByteArray};
use godot::meta::PackedElement;
use godot::sys::{self, GodotFfi};

/// Where the header words sit, counted back from the data, in bytes.
const REF_COUNT_BEFORE: usize = 32;
const CAPACITY_BEFORE: usize = 24;
const SIZE_BEFORE: usize = 16;
/// The header's size: the data's offset in the allocation.
const DATA_OFFSET: usize = 32;

/// Which 64-bit word of a packed array holds its data pointer (after the write proxy).
const PACKED_POINTER_WORD: usize = 1;

/// The allocator buffers are made with, once the probe has found the layout.
pub struct Buffers {
    mem_alloc: unsafe extern "C" fn(usize) -> *mut c_void,
}

/// The allocator, if the engine's buffers are laid out as this module expects.
pub fn buffers() -> Option<&'static Buffers> {
    static BUFFERS: OnceLock<Option<Buffers>> = OnceLock::new();
    BUFFERS
        .get_or_init(|| {
            // SAFETY: the library is loaded, so the interface is initialized; a plain read.
            let mem_alloc = unsafe { sys::get_interface() }.mem_alloc;
            let buffers = Buffers { mem_alloc };
            buffers.probe().then_some(buffers)
        })
        .as_ref()
}

/// The three header words before `data`.
///
/// # Safety
/// `data` must be the data pointer of a live `CowData` of the expected layout (or, in the
/// probe, of a buffer with at least 32 readable bytes before it, which `malloc` gives).
unsafe fn header(data: *const u8) -> [u64; 3] {
    unsafe {
        [
            data.sub(REF_COUNT_BEFORE).cast::<u64>().read(),
            data.sub(CAPACITY_BEFORE).cast::<u64>().read(),
            data.sub(SIZE_BEFORE).cast::<u64>().read(),
        ]
    }
}

/// The data pointer a String holds (null when empty): a String's only word.
fn string_data(text: &GString) -> *const u32 {
    // SAFETY: a String is one pointer (gdext's opaque size; the probe checks it is the
    // data pointer before anything else relies on it).
    unsafe { text.string_sys().cast::<*const u32>().read() }
}

/// The data pointer a packed array holds (null when empty).
fn packed_data<T: PackedElement>(array: &PackedArray<T>) -> *const u8 {
    // SAFETY: a packed array is at least two words (checked by gdext's opaque size).
    unsafe {
        array
            .sys()
            .cast::<*const u8>()
            .add(PACKED_POINTER_WORD)
            .read()
    }
}

impl Buffers {
    /// Checks the layout on buffers the engine made: a PackedByteArray grown from 5 to 6
    /// bytes (capacity 5, then 8: the engine grows by half), its count of references when
    /// shared, and a String of 5 characters (6 with its NUL).
    fn probe(&self) -> bool {
        let mut bytes = PackedByteArray::new();
        bytes.resize(5);
        bytes.resize(6);
        let data = bytes.as_slice().as_ptr();
        if packed_data(&bytes) != data || !(data as usize).is_multiple_of(16) {
            return false;
        }
        // SAFETY: `data` is the start of the engine's allocation plus at least 16 bytes
        // (plus 32 if the layout is as expected), and malloc headers precede it: 32
        // readable bytes either way.
        let alone = unsafe { header(data) };
        let shared = bytes.clone();
        // SAFETY: as above.
        let with_copy = unsafe { header(data) };
        drop(shared);
        let text = GString::from("probe");
        let chars = text.chars().as_ptr().cast::<u8>();
        let text_data = string_data(&text).cast::<u8>();
        // SAFETY: as for `data`.
        let text_header = unsafe { header(chars) };
        alone == [1, 8, 6]
            && with_copy == [2, 8, 6]
            && text_data == chars
            && text_header[0] == 1
            && text_header[2] == 6
            && text_header[1] >= 6
    }

    /// A new buffer of `len` elements of `T` (uninitialized), referenced once; returns its
    /// data pointer, or null if the allocation failed.
    fn allocate<T>(&self, len: usize) -> *mut T {
        let Some(bytes) = len
            .checked_mul(std::mem::size_of::<T>())
            .and_then(|n| n.checked_add(DATA_OFFSET))
        else {
            return std::ptr::null_mut();
        };
        // SAFETY: the engine's allocator, the one `CowData` allocates and frees with.
        let memory = unsafe { (self.mem_alloc)(bytes) }.cast::<u8>();
        if memory.is_null() {
            return memory.cast();
        }
        // SAFETY: the header words are within the allocation; the engine aligns it to 16,
        // so the words are aligned.
        unsafe {
            let data = memory.add(DATA_OFFSET);
            data.sub(REF_COUNT_BEFORE).cast::<u64>().write(1);
            data.sub(CAPACITY_BEFORE).cast::<u64>().write(len as u64);
            data.sub(SIZE_BEFORE).cast::<u64>().write(len as u64);
            data.cast()
        }
    }

    /// Gives the empty packed array at `array` (an engine `Vector<T>`, holding no buffer) a
    /// new buffer of `len` elements, not initialized; returns the pointer to the first, or
    /// null if the memory could not be allocated (the array stays empty).
    ///
    /// # Safety
    /// `array` must point to an empty engine packed array of `T` held only by the caller,
    /// and every element must be written before the array is read or its elements
    /// dropped.
    pub unsafe fn attach<T>(&self, array: *mut c_void, len: usize) -> *mut T {
        if len == 0 {
            return std::ptr::null_mut();
        }
        let data = self.allocate::<T>(len);
        if !data.is_null() {
            // SAFETY: the array holds no buffer (a null pointer) and takes this one, whose
            // one reference it owns from now on.
            unsafe { array.cast::<*mut T>().add(PACKED_POINTER_WORD).write(data) };
        }
        data
    }

    /// A new String of the characters of `text` (no NUL in it), as the engine's
    /// constructors make one: no buffer when empty, else the characters and a NUL. A `str`
    /// is valid UTF-8 already, so it is decoded in one pass (the engine's UTF-8 constructor
    /// checks it again first, and would take a leading U+FEFF for a byte order mark).
    pub fn string(&self, text: &str) -> Option<GString> {
        if text.is_empty() {
            return Some(GString::new());
        }
        let ascii = text.is_ascii();
        let len = if ascii {
            text.len()
        } else {
            text.chars().count()
        };
        let data = self.allocate::<u32>(len + 1);
        if data.is_null() {
            return None;
        }
        // SAFETY: the buffer holds `len + 1` characters, all written here; the String
        // takes its one reference.
        unsafe {
            if ascii {
                for (i, &b) in text.as_bytes().iter().enumerate() {
                    data.add(i).write(u32::from(b));
                }
            } else {
                for (i, c) in text.chars().enumerate() {
                    data.add(i).write(u32::from(c));
                }
            }
            data.add(len).write(0);
            Some(GString::new_with_uninit(|dest| {
                dest.cast::<*mut u32>().write(data)
            }))
        }
    }

    /// Asks the processor to bring the start of `text`'s buffer (its size word and first
    /// characters) into its cache, without waiting for it: a hint, which reads nothing.
    #[inline]
    pub fn prefetch_chars(&self, text: &GString) {
        let data = string_data(text).cast::<u8>();
        #[cfg(target_arch = "x86_64")]
        if !data.is_null() {
            // SAFETY: a prefetch only hints; it does not fault, whatever the address.
            unsafe {
                use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
                _mm_prefetch::<_MM_HINT_T0>(data.wrapping_sub(SIZE_BEFORE).cast());
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = data;
    }

    /// The characters of `text` (UTF-32 code units, without the NUL after them), read
    /// through the layout: no call into the engine (the interface takes two).
    pub fn chars<'s>(&self, text: &'s GString) -> &'s [u32] {
        let data = string_data(text);
        if data.is_null() {
            return &[];
        }
        // SAFETY: the layout is known: a live buffer's size word counts its characters and
        // the NUL after them, which stay as they are while `text` is borrowed.
        unsafe {
            let size = header(data.cast())[2] as usize;
            std::slice::from_raw_parts(data, size.saturating_sub(1))
        }
    }
}

/// The bytes of a PackedByteArray, read through the layout when it is known (no call into
/// the engine; gdext's `as_slice` makes three).
pub fn bytes_of(array: &PackedByteArray) -> &[u8] {
    if buffers().is_none() {
        return array.as_slice();
    }
    let data = packed_data(array);
    if data.is_null() {
        return &[];
    }
    // SAFETY: the layout is known: a live buffer's size word counts its bytes, which stay
    // as they are while `array` is borrowed.
    unsafe { std::slice::from_raw_parts(data, header(data)[2] as usize) }
}

/// Sizes the new, empty packed array `array` to `len` elements for the caller to write,
/// and returns the pointer to the first: made directly, the memory is not initialized;
/// otherwise `resize` fills it with default elements, which own nothing.
///
/// # Safety
/// Every element must be written (over what is there, without dropping it) before the
/// array is read or dropped.
pub unsafe fn sized<T: PackedElement>(array: &mut PackedArray<T>, len: usize) -> *mut T {
    if let Some(buffers) = buffers() {
        // SAFETY: a new array, held only by the caller, who writes every element.
        let data = unsafe { buffers.attach::<T>(array.sys_mut().cast(), len) };
        if !data.is_null() {
            return data;
        }
    }
    array.resize(len);
    array.as_mut_slice().as_mut_ptr()
}

/// Sizes the empty PackedByteArray at `bytes` (an engine `PackedByteArray*`) to `size`
/// bytes for the caller to overwrite entirely, and returns its memory (not zero-filled
/// when made directly); empty if it could not be allocated.
///
/// # Safety
/// `bytes` must point to an empty PackedByteArray held only by the caller that outlives
/// `'a` without being changed otherwise; every byte must be written before it is read.
pub unsafe fn sized_bytes<'a>(bytes: *mut c_void, size: usize) -> &'a mut [u8] {
    if let Some(buffers) = buffers() {
        // SAFETY: as the caller promises; the memory is the engine's, written before read.
        unsafe {
            let data = buffers.attach::<u8>(bytes, size);
            if !data.is_null() {
                return std::slice::from_raw_parts_mut(data, size);
            }
        }
    }
    // SAFETY: as the caller promises.
    unsafe { crate::raw::ffi().resize_bytes(bytes, size) }
}
