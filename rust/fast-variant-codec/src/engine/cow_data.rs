//! Engine buffers made without the engine's zero-fill: the memory of
//! a String or of a packed array, allocated by the engine's allocator and laid out as the
//! engine's copy-on-write buffer (`CowData`), for the binding to fill.
//!
//! The interface can only size a PackedByteArray (or any packed array) through its
//! `resize`, which zero-fills the new elements: for a large array that is a second pass
//! over its memory, as long as the copy that fills it (`var_to_bytes` and `bytes_to_var`
//! allocate without it). And it makes a String from ASCII text through a loop that checks
//! every byte for NUL, which the decoder has already ruled out. Here, a buffer is allocated
//! through the interface (the allocator `CowData` uses and frees with, with the same
//! padding: `mem_alloc2(size, false)` where the engine has it, else `mem_alloc`, which is
//! `Memory::alloc_static(size, false)` too), its header written, and the data left to the
//! caller.
//!
//! `CowData` (core/templates/cowdata.h, Godot 4.6 on: godotengine/godot PR #105928, after
//! 4.5-stable) is a pointer to the data, preceded by a 32-byte header: the reference count
//! (the block's first word), the capacity and the size (in elements), each a 64-bit word,
//! then a word of padding to align the data to 16. Godot 4.4's and 4.5's header is 16
//! bytes (no capacity): there the probe fails and buffers are made the interface's way
//! (and NodePaths, whose probe builds on this one, too). A String is that one pointer; a packed array (`Vector`) an
//! empty write proxy, then the pointer.
//!
//! The probe ([`Buffers::find`]) reads no engine memory it does not own: it hands the
//! engine a buffer of its own, with far more room before the data than any header, and
//! asks the engine's own functions what they see in it (the size, the characters, what a
//! copy does to the reference count), then takes it back. Only when the engine reads that
//! header as expected does it let the engine resize and free a buffer made here (the
//! allocator's pairing), and from then on read the size word of the engine's buffers.

use std::ffi::c_void;
use std::mem::MaybeUninit;
use std::sync::OnceLock;

use godot::builtin::{GString, PackedArray, PackedByteArray};
use godot::meta::PackedElement;
use godot::sys::{self, GodotFfi};
use godot_variant_codec::wire::{prefetch_line, TEXT_WINDOW};

use crate::engine::layout::cow_data::{
    CAPACITY_BEFORE, DATA_OFFSET, PACKED_POINTER_WORD, PADDING_BEFORE, REF_COUNT_BEFORE,
    SIZE_BEFORE,
};
use crate::engine::probes::{self, Passed, Probe, ProbeResult, Verdict};
use crate::engine::utf32;

/// Room the probe's own buffer keeps before its data: eight times the header expected, so
/// that an engine with any header up to this size reads and counts only inside it.
const PROBE_ROOM: usize = 256;
/// What the probe's buffer holds: its first bytes as a packed array, or its first
/// characters as a String (the size counts the NUL).
const PROBE_BYTES: [u8; 6] = [0x61, 0x62, 0x63, 0x64, 0x65, 0x66];
const PROBE_TEXT: &str = "probe";
/// The room after the probe buffer's data, in bytes.
const PROBE_DATA_ROOM: usize = 64;

type Alloc2 = unsafe extern "C" fn(usize, sys::GDExtensionBool) -> *mut c_void;
type Free2 = unsafe extern "C" fn(*mut c_void, sys::GDExtensionBool);

/// The engine's allocator, as `CowData` uses it (without padding).
#[derive(Clone, Copy)]
enum Allocator {
    /// `mem_alloc2` / `mem_free2` (Godot 4.6 on), padding flag explicit.
    Explicit { alloc: Alloc2, free: Free2 },
    /// `mem_alloc` / `mem_free`: `Memory::alloc_static(size)`, whose padding flag defaults
    /// to `false` in every 4.x, as `CowData`'s.
    Legacy {
        alloc: unsafe extern "C" fn(usize) -> *mut c_void,
        free: unsafe extern "C" fn(*mut c_void),
    },
}

impl Allocator {
    /// Looks the functions up (on the main thread, at initialization).
    fn find() -> Self {
        // SAFETY: the binding is initialized (this runs inside a call from Godot, on the
        // main thread); the names are null-terminated.
        let (alloc2, free2) = unsafe {
            (
                sys::get_ffi_ptr_by_cstr(b"mem_alloc2\0"),
                sys::get_ffi_ptr_by_cstr(b"mem_free2\0"),
            )
        };
        if let (Some(alloc), Some(free)) = (alloc2, free2) {
            // SAFETY: the engine's functions of these names have these signatures
            // (gdextension_interface.h, Godot 4.6).
            unsafe {
                return Allocator::Explicit {
                    alloc: std::mem::transmute::<unsafe extern "C" fn(), Alloc2>(alloc),
                    free: std::mem::transmute::<unsafe extern "C" fn(), Free2>(free),
                };
            }
        }
        // SAFETY: the library is loaded, so the interface is initialized; a plain read.
        let interface = unsafe { sys::get_interface() };
        Allocator::Legacy {
            alloc: interface.mem_alloc,
            free: interface.mem_free,
        }
    }

    fn alloc(self, bytes: usize) -> *mut u8 {
        // SAFETY: the engine's allocator; any size (null when it fails).
        unsafe {
            match self {
                Allocator::Explicit { alloc, .. } => alloc(bytes, 0),
                Allocator::Legacy { alloc, .. } => alloc(bytes),
            }
        }
        .cast()
    }

    /// # Safety
    /// `memory` must come from [`alloc`](Self::alloc) and be freed once.
    unsafe fn free(self, memory: *mut u8) {
        // SAFETY: as the caller promises; the same padding as the allocation.
        unsafe {
            match self {
                Allocator::Explicit { free, .. } => free(memory.cast(), 0),
                Allocator::Legacy { free, .. } => free(memory.cast()),
            }
        }
    }

    fn name(self) -> &'static str {
        match self {
            Allocator::Explicit { .. } => "mem_alloc2(size, false)",
            Allocator::Legacy { .. } => "mem_alloc (Memory::alloc_static(size, false))",
        }
    }
}

/// The allocator buffers are made with, once the probe has found the layout.
pub struct Buffers {
    allocator: Allocator,
}

/// The probe's verdict and, when the layout is in use, the allocator.
fn probed() -> &'static (Verdict, Option<Buffers>) {
    static PROBED: OnceLock<(Verdict, Option<Buffers>)> = OnceLock::new();
    PROBED.get_or_init(|| probes::check(Probe::Buffers, &[], Buffers::find))
}

/// The allocator, if the engine's buffers are laid out as this module expects.
pub fn buffers() -> Option<&'static Buffers> {
    probed().1.as_ref()
}

/// What the probe found.
pub fn verdict() -> &'static Verdict {
    &probed().0
}

/// The size word of the buffer whose data is at `data`.
///
/// # Safety
/// `data` must be the data pointer of a live `CowData` of the expected layout.
pub unsafe fn size_word(data: *const u8) -> u64 {
    // SAFETY: the size word lies inside the buffer's header, as the caller promises.
    unsafe { data.sub(SIZE_BEFORE).cast::<u64>().read() }
}

/// The data pointer a String holds (null when empty): a String's only word.
fn string_data(text: &GString) -> *const u32 {
    // SAFETY: a String is one pointer (gdext's opaque size), read from the String's own
    // memory; what it is, the probe checks before anything else relies on it.
    unsafe { text.string_sys().cast::<*const u32>().read() }
}

/// The data pointer the packed array at `array` holds (null when empty).
///
/// # Safety
/// `array` points to a live packed array.
unsafe fn packed_data(array: *const c_void) -> *const u8 {
    // SAFETY: a packed array is at least two words (checked by gdext's opaque size), read
    // from the caller's live array.
    unsafe { array.cast::<*const u8>().add(PACKED_POINTER_WORD).read() }
}

/// The probe's own buffer: [`PROBE_ROOM`] bytes of distinct non-zero words before the
/// data (the expected header among them), freed when dropped.
struct ProbeBuffer {
    allocator: Allocator,
    block: *mut u8,
}

impl ProbeBuffer {
    /// A buffer whose header says `size` elements, holding `data`; `None` if the
    /// allocation failed.
    fn new(allocator: Allocator, size: u64, data: &[u8]) -> Option<Self> {
        let block = allocator.alloc(PROBE_ROOM + PROBE_DATA_ROOM);
        if block.is_null() {
            return None;
        }
        let buffer = ProbeBuffer { allocator, block };
        let words = buffer.block.cast::<u64>();
        for i in 0..PROBE_ROOM / 8 {
            // SAFETY: within the block, which the engine aligns to 16. Every word is
            // distinct and at least 0x100: none reads as a size the probe checks for, and
            // none is zero, so no engine that took one for a reference count and counted
            // it up and down again would free the block.
            unsafe { words.add(i).write(0x100 + i as u64) };
        }
        buffer.set_word(REF_COUNT_BEFORE, 1);
        buffer.set_word(SIZE_BEFORE, size);
        // SAFETY: `data` fits in the room after the data pointer.
        unsafe {
            std::ptr::write_bytes(buffer.data(), 0, PROBE_DATA_ROOM);
            std::ptr::copy_nonoverlapping(data.as_ptr(), buffer.data(), data.len());
        }
        Some(buffer)
    }

    fn data(&self) -> *mut u8 {
        // SAFETY: within the block.
        unsafe { self.block.add(PROBE_ROOM) }
    }

    fn word(&self, before: usize) -> u64 {
        // SAFETY: within the block's room before the data; aligned.
        unsafe { self.data().sub(before).cast::<u64>().read() }
    }

    fn set_word(&self, before: usize, value: u64) {
        // SAFETY: within the block's room before the data; aligned.
        unsafe { self.data().sub(before).cast::<u64>().write(value) }
    }

    /// The words before the data, in order.
    fn room(&self) -> Vec<u64> {
        (1..=PROBE_ROOM / 8)
            .rev()
            .map(|i| self.word(i * 8))
            .collect()
    }
}

impl Drop for ProbeBuffer {
    fn drop(&mut self) {
        // SAFETY: allocated by `new`, freed once; no engine value holds it any more.
        unsafe { self.allocator.free(self.block) }
    }
}

impl Buffers {
    /// The probe (see the module docs): the layout on a buffer of its own, then the
    /// allocator's pairing on a buffer made as the codec makes them. With `wrong`, the
    /// layout is checked against a wrong one, which it must reject.
    fn find(wrong: bool) -> ProbeResult<Self> {
        let allocator = Allocator::find();
        Self::check_packed_layout(allocator, wrong)?;
        Self::check_string_layout(allocator)?;
        let buffers = Buffers { allocator };
        buffers.check_engine_resizes_and_frees()?;
        Ok(Passed {
            found: buffers,
            detail: format!(
                "reference count, capacity and size {REF_COUNT_BEFORE}, {CAPACITY_BEFORE} \
                 and {SIZE_BEFORE} bytes before the data, as the engine read and counted \
                 them in a buffer of the probe's own; a buffer made with {} resized and \
                 freed by the engine",
                allocator.name()
            ),
        })
    }

    /// A PackedByteArray holding the probe's buffer: the engine must see its size and
    /// bytes, and a copy must count its reference count (and nothing else) up, then down.
    /// With `wrong`, the size is written one word off, where a sound probe must notice.
    fn check_packed_layout(allocator: Allocator, wrong: bool) -> Result<(), String> {
        let buffer = ProbeBuffer::new(allocator, PROBE_BYTES.len() as u64, &PROBE_BYTES)
            .ok_or("could not allocate the probe's buffer")?;
        if wrong {
            // The size in the padding word, the size word left as filler.
            buffer.set_word(SIZE_BEFORE, buffer.word(PADDING_BEFORE));
            buffer.set_word(PADDING_BEFORE, PROBE_BYTES.len() as u64);
        }
        let before = buffer.room();
        let mut bytes = PackedByteArray::new();
        // SAFETY: the new array, held here.
        if !unsafe { packed_data(bytes.sys().cast()) }.is_null() {
            return Err("a new PackedByteArray holds a buffer".into());
        }
        // SAFETY: the array is empty (its pointer word is null) and held only here; it
        // takes the probe's buffer, which it gives back below before anything else sees it.
        unsafe {
            bytes
                .sys_mut()
                .cast::<*mut u8>()
                .add(PACKED_POINTER_WORD)
                .write(buffer.data())
        };
        // The bytes are read only if the size is the expected one: a larger one would
        // reach past the buffer.
        let len = bytes.len();
        let seen = (len == PROBE_BYTES.len()).then(|| bytes.as_slice().to_vec());
        let copy = bytes.clone();
        let counted = buffer.room();
        drop(copy);
        let after = buffer.room();
        // SAFETY: give the buffer back: the array is empty again, as it was made.
        unsafe {
            bytes
                .sys_mut()
                .cast::<*mut u8>()
                .add(PACKED_POINTER_WORD)
                .write(std::ptr::null_mut())
        };
        drop(bytes);
        if seen.as_deref() != Some(&PROBE_BYTES[..]) {
            return Err(format!(
                "the engine read a PackedByteArray of the probe's buffer as {len} bytes {seen:?}"
            ));
        }
        let ref_count_word = (PROBE_ROOM - REF_COUNT_BEFORE) / 8;
        let mut expected = before.clone();
        expected[ref_count_word] += 1;
        if counted != expected || after != before {
            return Err("a copy did not count the reference count word up and down".into());
        }
        Ok(())
    }

    /// A String holding the probe's buffer: the engine must read its characters.
    fn check_string_layout(allocator: Allocator) -> Result<(), String> {
        let chars: Vec<u8> = PROBE_TEXT
            .chars()
            .chain(['\0'])
            .flat_map(|c| u32::from(c).to_le_bytes())
            .collect();
        let buffer = ProbeBuffer::new(allocator, PROBE_TEXT.len() as u64 + 1, &chars)
            .ok_or("could not allocate the probe's buffer")?;
        let mut text = GString::new();
        if !string_data(&text).is_null() {
            return Err("a new String holds a buffer".into());
        }
        // SAFETY: the String is empty (its one word is null) and held only here; it takes
        // the probe's buffer, which it gives back below.
        unsafe { text.string_sys_mut().cast::<*mut u8>().write(buffer.data()) };
        // The characters are read only if the length is the expected one.
        let len = text.len();
        let seen = (len == PROBE_TEXT.len()).then(|| text.to_string());
        // SAFETY: give the buffer back: the String is empty again.
        unsafe {
            text.string_sys_mut()
                .cast::<*mut u8>()
                .write(std::ptr::null_mut())
        };
        drop(text);
        if seen.as_deref() != Some(PROBE_TEXT) {
            return Err(format!(
                "the engine read a String of the probe's buffer as {len} characters {seen:?}"
            ));
        }
        Ok(())
    }

    /// A PackedByteArray of a buffer made as the codec makes them, grown by the engine
    /// (which reallocates it), shared and changed (copied on write), then dropped (freed
    /// by the engine): the same allocator and padding, or the engine's allocator would
    /// have complained or crashed here, at start-up, not in a game.
    fn check_engine_resizes_and_frees(&self) -> Result<(), String> {
        let mut bytes = PackedByteArray::new();
        // SAFETY: a new array held only here; every byte is written right after.
        let data = unsafe { self.attach::<u8>(bytes.sys_mut().cast(), PROBE_BYTES.len()) };
        if data.is_null() {
            return Err("could not allocate a buffer".into());
        }
        // SAFETY: the buffer holds `PROBE_BYTES.len()` bytes.
        unsafe { std::ptr::copy_nonoverlapping(PROBE_BYTES.as_ptr(), data, PROBE_BYTES.len()) };
        let mut shared = bytes.clone();
        shared.resize(3);
        bytes.resize(PROBE_BYTES.len() + 1);
        bytes.resize(4096);
        let kept = bytes.as_slice()[..PROBE_BYTES.len() + 1].to_vec();
        let mut expected = PROBE_BYTES.to_vec();
        expected.push(0);
        if kept != expected || shared.as_slice() != &PROBE_BYTES[..3] || bytes.len() != 4096 {
            return Err("a buffer made here did not keep its bytes when the engine grew it".into());
        }
        Ok(())
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
        let memory = self.allocator.alloc(bytes);
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
            data.sub(PADDING_BEFORE).cast::<u64>().write(len as u64);
            data.cast()
        }
    }

    /// A block of `size` bytes, not initialized, from the allocator `memnew` takes an engine
    /// object's memory from (`Memory::alloc_static(size, false)`, as `allocate`'s
    /// buffers), which `memdelete` frees; null if the allocation failed.
    pub fn allocate_block(&self, size: usize) -> *mut u8 {
        self.allocator.alloc(size)
    }

    /// Frees a block from [`allocate_block`](Self::allocate_block).
    ///
    /// # Safety
    /// `block` must come from `allocate_block` and be freed once, by nothing else.
    pub unsafe fn free_block(&self, block: *mut u8) {
        // SAFETY: as the caller promises.
        unsafe { self.allocator.free(block) }
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
    /// constructors make one: no buffer when empty, else the characters and a NUL. (The
    /// engine's UTF-8 constructor would take a leading U+FEFF for a byte order mark.)
    ///
    /// A short text is widened into a buffer of one character per byte (room enough: a
    /// text has no more characters than bytes) in the same pass that tells whether it is
    /// ASCII, the usual case; only a text that is not is then decoded into it again, the
    /// size word set to their count (the capacity stays the room, as after the engine's own
    /// growth). A longer one is decoded as the wire's texts are (see
    /// [`utf32::decode_checked_medium`] and [`string_from_utf8`](Self::string_from_utf8)),
    /// into a buffer of exactly its length.
    pub fn string(&self, text: &str) -> Option<GString> {
        /// Texts of up to this many bytes are widened before they are known to be ASCII.
        const SHORT_TEXT: usize = 64;
        let bytes = text.as_bytes();
        if bytes.is_empty() {
            return Some(GString::new());
        }
        if bytes.len() > utf32::MEDIUM_MAX {
            return self.string_decoded(bytes, |chars| {
                // SAFETY: room for the characters the text has, counted.
                Some(unsafe { utf32::decode_valid(text, chars) })
            });
        }
        if bytes.len() > SHORT_TEXT {
            let mut chars = utf32::medium_chars_buffer();
            // SAFETY: room for as many characters as the text has bytes; the first `count`
            // are written.
            let chars = unsafe {
                let count = utf32::decode_valid(text, &mut chars);
                utf32::written(&chars, count)
            };
            return self.string_of_chars(chars);
        }
        let room = bytes.len();
        let data = self.allocate::<u32>(room + 1);
        if data.is_null() {
            return None;
        }
        // SAFETY: the buffer holds `room + 1` characters; the first `len` (at most `room`)
        // are written here and the NUL after them by `string_of_written`.
        unsafe {
            let mut all = 0;
            for (i, &b) in bytes.iter().enumerate() {
                data.add(i).write(u32::from(b));
                all |= b;
            }
            let len = if all < 0x80 {
                room
            } else {
                // A text has no more characters than bytes (its room).
                utf32::decode_valid(text, std::slice::from_raw_parts_mut(data.cast(), room))
            };
            Some(string_of_written(data, room, len))
        }
    }

    /// A new String of the text `bytes` hold up to their first NUL, when they are valid
    /// UTF-8, checked and decoded straight into its buffer (see
    /// [`utf32::decode_checked_into`]), made with room for the characters the text would
    /// have whole ([`utf32::count_chars`]; a NUL in it leaves the rest as capacity, as after
    /// the engine's own growth). `None` when the text is not valid or the allocation failed.
    pub fn string_from_utf8(&self, bytes: &[u8]) -> Option<GString> {
        // SAFETY: `string_decoded` gives the room `count_chars` counts.
        self.string_decoded(bytes, |chars| unsafe {
            utf32::decode_checked_into(bytes, chars)
        })
    }

    /// A new String of the characters `decode` writes into a new buffer with room for
    /// [`utf32::count_chars`]`(bytes)` characters, given how many it wrote (none: an empty
    /// String, which holds no buffer); `None` when `decode` gives `None` (a text that is
    /// not valid) or the allocation failed. A buffer not taken is freed.
    fn string_decoded(
        &self,
        bytes: &[u8],
        decode: impl FnOnce(&mut [MaybeUninit<u32>]) -> Option<usize>,
    ) -> Option<GString> {
        let room = utf32::count_chars(bytes);
        let data = self.allocate::<u32>(room + 1);
        if data.is_null() {
            return None;
        }
        // SAFETY: the buffer holds `room + 1` characters, of which `decode` writes at most
        // `room` (the slice it is given) and `string_of_written` the NUL after them; a
        // buffer not taken is freed once, here.
        unsafe {
            match decode(std::slice::from_raw_parts_mut(data.cast(), room)) {
                Some(len) if len > 0 => Some(string_of_written(data, room, len)),
                made => {
                    self.free_block(data.cast::<u8>().sub(DATA_OFFSET));
                    made.map(|_| GString::new())
                }
            }
        }
    }

    /// A new String of `chars` (characters without NUL, not checked), in a buffer of
    /// exactly their count; `None` when the allocation failed.
    pub fn string_of_chars(&self, chars: &[u32]) -> Option<GString> {
        if chars.is_empty() {
            return Some(GString::new());
        }
        let data = self.allocate::<u32>(chars.len() + 1);
        if data.is_null() {
            return None;
        }
        // SAFETY: the buffer holds `chars.len() + 1` characters, its size word says so; the
        // characters are copied into the first and `string_of` writes the NUL.
        unsafe {
            std::ptr::copy_nonoverlapping(chars.as_ptr(), data, chars.len());
            Some(string_of(data, chars.len()))
        }
    }

    /// A new String of `text`, 1 to [`BLOCKS_MAX`] bytes of ASCII without NUL (the
    /// caller's check: any other byte would be taken for a character of its own), widened
    /// in blocks (see [`widen_in_blocks`]); `None` when the length is out of range or the
    /// allocation failed.
    #[inline(always)]
    pub fn short_ascii_string(&self, text: &str) -> Option<GString> {
        let len = text.len();
        if !(1..=BLOCKS_MAX).contains(&len) {
            return None;
        }
        let data = self.allocate::<u32>(len + 1);
        if data.is_null() {
            return None;
        }
        // SAFETY: the buffer holds `len + 1` characters: the text's, which `widen_in_blocks`
        // writes, and the NUL, which `string_of` writes; its size word says `len + 1`.
        unsafe {
            widen_in_blocks(text.as_bytes(), data);
            Some(string_of(data, len))
        }
    }

    /// Asks the processor to bring the start of `text`'s buffer (its size word and first
    /// characters) into its cache, without waiting for it: a hint, which reads nothing.
    #[inline]
    pub fn prefetch_chars(&self, text: &GString) {
        let data = string_data(text).cast::<u8>();
        if !data.is_null() {
            prefetch_line(data.wrapping_sub(SIZE_BEFORE));
        }
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
            let size = size_word(data.cast()) as usize;
            std::slice::from_raw_parts(data, size.saturating_sub(1))
        }
    }
}

/// The String of the buffer whose data is `data`, its first `len` characters written: the
/// NUL written after them, the buffer's one reference taken by the String.
///
/// # Safety
/// `data` comes from [`Buffers::allocate`] with room for `len + 1` characters, its first
/// `len` written and its size word `len + 1`; nothing else holds it.
#[inline(always)]
unsafe fn string_of(data: *mut u32, len: usize) -> GString {
    // SAFETY: as the caller promises.
    unsafe {
        data.add(len).write(0);
        GString::new_with_uninit(|dest| dest.cast::<*mut u32>().write(data))
    }
}

/// [`string_of`] for a buffer made for `room + 1` characters (its size word says so) of
/// which the first `len` (at most `room`) are written: the size word set to `len + 1` first
/// when they are fewer (the rest stays capacity, as after the engine's own growth).
///
/// # Safety
/// As for `string_of`, but for the size word.
#[inline(always)]
unsafe fn string_of_written(data: *mut u32, room: usize, len: usize) -> GString {
    // SAFETY: as the caller promises; the size word is the buffer's.
    unsafe {
        if len != room {
            data.cast::<u8>()
                .sub(SIZE_BEFORE)
                .cast::<u64>()
                .write(len as u64 + 1);
        }
        string_of(data, len)
    }
}

/// The longest text [`widen_in_blocks`] takes: as long as a plain text can be (one in a
/// PackedStringArray's window of [`TEXT_WINDOW`] bytes).
const BLOCKS_MAX: usize = TEXT_WINDOW;

/// Widens `bytes` (1 to [`BLOCKS_MAX`] of them) into characters at `data`, one byte each:
/// in eight blocks of four bytes whatever the length, the last ones overlapping the ones
/// before (three bytes for a text shorter than a block). Texts of varying lengths would
/// mispredict the end of a loop over them, which costs more than the blocks.
///
/// # Safety
/// `data` must be writable for `bytes.len()` characters.
#[inline(always)]
unsafe fn widen_in_blocks(bytes: &[u8], data: *mut u32) {
    let len = bytes.len();
    debug_assert!((1..=BLOCKS_MAX).contains(&len));
    if len < 4 {
        // The first, middle and last bytes are all of them.
        for at in [0, len / 2, len - 1] {
            // SAFETY: below `len`, for which the caller made room.
            unsafe { data.add(at).write(u32::from(bytes[at])) };
        }
        return;
    }
    for k in 0..BLOCKS_MAX / 4 {
        // At most `len - 4`: the block's four bytes and characters are the text's.
        let at = (4 * k).min(len - 4);
        let block = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap_or_default());
        // SAFETY: four characters from `at`, within the `len` the caller made room for.
        unsafe { widen_block(block, data.add(at)) };
    }
}

/// Widens the four bytes of `block` (little-endian) into four characters at `chars`.
///
/// # Safety
/// `chars` must be writable for 4 characters (16 bytes; no alignment needed).
#[inline(always)]
unsafe fn widen_block(block: u32, chars: *mut u32) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE2 is part of x86_64; one unaligned 16-byte write, which the caller allows.
    unsafe {
        use std::arch::x86_64::{
            _mm_cvtsi32_si128, _mm_setzero_si128, _mm_storeu_si128, _mm_unpacklo_epi16,
            _mm_unpacklo_epi8,
        };
        let zero = _mm_setzero_si128();
        let bytes = _mm_cvtsi32_si128(block as i32);
        let widened = _mm_unpacklo_epi16(_mm_unpacklo_epi8(bytes, zero), zero);
        _mm_storeu_si128(chars.cast(), widened);
    }
    #[cfg(not(target_arch = "x86_64"))]
    // SAFETY: as the caller promises.
    unsafe {
        let widened = block.to_le_bytes().map(u32::from);
        chars.cast::<[u32; 4]>().write_unaligned(widened);
    }
}

/// The elements of a packed array, read through the layout when it is known (no call into
/// the engine; gdext's `as_slice` makes three).
pub fn elements_of<T: PackedElement>(array: &PackedArray<T>) -> &[T] {
    // SAFETY: `array`'s own memory, borrowed for the slice's life.
    unsafe { elements_at(array.sys().cast()) }.unwrap_or_else(|| array.as_slice())
}

/// The elements of the packed array at `array` (a type pointer, as a ptrcall passes an
/// argument), read through the layout; `None` when it is not known.
///
/// # Safety
/// `array` points to a live packed array of `T`, left as it is while the slice lives.
pub unsafe fn elements_at<'a, T: PackedElement>(array: *const c_void) -> Option<&'a [T]> {
    buffers()?;
    // SAFETY: the caller's live array.
    let data = unsafe { packed_data(array) };
    if data.is_null() {
        return Some(&[]);
    }
    // SAFETY: the layout is known: a live buffer's size word counts its elements, which
    // stay as they are while the caller leaves the array as it is; the engine aligns its
    // buffers' data to 16 bytes, enough for any element.
    Some(unsafe { std::slice::from_raw_parts(data.cast::<T>(), size_word(data) as usize) })
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
