//! Strings and StringNames: a String's characters read in place, Strings made from text
//! exactly as the engine holds it (a leading U+FEFF kept; the characters written into a
//! buffer made directly when the `buffers` probe found the layout), short ASCII names
//! found without a String.

use std::ffi::CStr;

use godot::builtin::{Encoding, GString, StringName, Variant, VariantType};
use godot::sys::GodotFfi;
use godot_variant_codec::{DecodeError, RawText};

use crate::engine::ffi::Ffi;
use crate::engine::utf32;

/// A Godot String holding exactly `s`. The engine's UTF-8 constructors drop a leading
/// U+FEFF as a byte order mark, which the decoder already dropped once (as `bytes_to_var`
/// does, once): such text is built from its characters instead.
pub fn gstring(s: &str) -> godot::builtin::GString {
    if starts_with_bom(s) {
        godot::builtin::GString::from(s.chars().collect::<Vec<char>>().as_slice())
    } else {
        godot::builtin::GString::from(s)
    }
}

/// Whether the engine's UTF-8 constructors would take the start of `s` for a byte order mark.
pub fn starts_with_bom(s: &str) -> bool {
    s.starts_with('\u{FEFF}')
}

/// Names shorter than this many bytes, in ASCII, are handed to the engine as a C string
/// (see [`string_name`]); the bytes and their NUL are copied onto the stack first.
const SHORT_NAME: usize = 64;

/// A StringName holding exactly `s` (see [`gstring`]): names read from the bytes (classes,
/// properties, NodePath parts) keep a leading U+FEFF, as they do in the engine.
///
/// A short ASCII name goes to the engine's `StringName(const char *)` (the interface's
/// `string_name_new_with_latin1_chars`; ASCII is Latin-1), which finds a name that already
/// exists without making a String first: the usual case, since names repeat. Any other
/// text (non-ASCII, long, or holding a NUL) is made into a String first.
pub fn string_name(s: &str) -> StringName {
    // ASCII without NUL, told in one pass: the bytes 1 to 127.
    if s.len() < SHORT_NAME && s.bytes().all(|b| b.wrapping_sub(1) < 0x7f) {
        let mut bytes = [0u8; SHORT_NAME];
        bytes[..s.len()].copy_from_slice(s.as_bytes());
        // SAFETY: the text's bytes, none of them NUL, then the NUL of the zeroed buffer.
        let c_string = unsafe { CStr::from_bytes_with_nul_unchecked(&bytes[..=s.len()]) };
        if let Ok(name) = StringName::try_from_cstr(c_string, Encoding::Latin1) {
            return name;
        }
    }
    StringName::from(&gstring(s))
}

impl Ffi {
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
    /// written into a buffer made directly (see [`cow_data`](crate::engine::cow_data)); else
    /// the engine's constructors make it (Latin-1 for ASCII, the simpler one; UTF-32, from
    /// the characters decoded here, for text of 3- and 4-byte characters): the same String
    /// either way.
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
            } else if utf32::has_long_chars(text.as_bytes()) {
                // Text of 3- and 4-byte characters is decoded here (it is valid UTF-8
                // already: `decode_by_chars` has room for all its characters, and
                // `set_len` keeps the ones it wrote), then copied by the engine's UTF-32
                // constructor, which changes none of valid characters: its UTF-8 one
                // would check the text again and decode such characters slower. (It
                // decodes text of 1- and 2-byte characters faster than the copy costs.)
                let mut chars = Vec::with_capacity(text.chars().count());
                let written = utf32::decode_by_chars(text, chars.spare_capacity_mut());
                chars.set_len(written);
                (self.string_from_utf32)(dest, chars.as_ptr(), written as i64);
            } else {
                (self.string_from_utf8)(dest, text.as_ptr().cast(), text.len() as i64);
            }
        }
    }

    /// Makes in `slot` (as [`make_string`](Self::make_string) does) the String of the text
    /// `raw` holds (its bytes after the BOM rule, up to their first NUL), when they are
    /// valid UTF-8: checked and decoded in one pass. A text of up to [`utf32::STACK_MAX`]
    /// bytes (not ASCII) or [`utf32::MEDIUM_MAX`] is decoded on the stack (see
    /// [`utf32::decode_checked`], which takes runs of ASCII from the text's window, and
    /// [`utf32::decode_checked_medium`]), then copied into the String's buffer (made
    /// directly when the engine's layout is known, else by the engine's UTF-32
    /// constructor, which checks each character and changes none of valid text, or its
    /// Latin-1 one for ASCII); a longer one, when the layout is known, straight into the
    /// String's buffer
    /// ([`Buffers::string_from_utf8`](crate::engine::cow_data::Buffers::string_from_utf8)).
    /// Returns whether it did; else `slot` is left as it was, for the caller to read the
    /// text by the decoder's rules (and to get their error) and make it from that.
    ///
    /// # Safety
    /// As for `make_string`.
    #[inline]
    pub unsafe fn make_string_from_utf8(&self, slot: *mut GString, raw: &RawText<'_>) -> bool {
        let (window, len) = raw.window_by_rules();
        let bytes = &window[..len];
        if bytes.len() <= utf32::STACK_MAX {
            // ASCII is made faster from the checked text: widened straight into the
            // String's buffer, or by the engine's Latin-1 constructor.
            if bytes.is_ascii() {
                return false;
            }
            let mut chars = utf32::chars_buffer();
            // SAFETY: as the caller promises.
            utf32::decode_checked(window, len, &mut chars)
                .is_some_and(|chars| unsafe { self.make_string_of_chars(slot, chars) })
        } else if bytes.len() <= utf32::MEDIUM_MAX {
            let mut chars = utf32::medium_chars_buffer();
            let Some(chars) = utf32::decode_checked_medium(bytes, &mut chars) else {
                return false;
            };
            // A character per byte up to the end or the NUL: ASCII, which the engine's
            // Latin-1 constructor takes faster than its UTF-32 one. (The text before a
            // character of more bytes holds no NUL.)
            let ascii = bytes.get(chars.len()).is_none_or(|&b| b == 0);
            if self.buffers.is_none() && ascii {
                // SAFETY: `slot` is memory for a String (the caller's promise), which the
                // constructor initializes from the text's bytes, none of them NUL.
                unsafe {
                    let text = bytes.as_ptr().cast();
                    (self.string_from_latin1)(slot.cast(), text, chars.len() as i64)
                };
                return true;
            }
            // SAFETY: as the caller promises.
            unsafe { self.make_string_of_chars(slot, chars) }
        } else if let Some(buffers) = self.buffers {
            // A long text: counted, then decoded straight into its String's buffer.
            match buffers.string_from_utf8(bytes) {
                Some(s) => {
                    // SAFETY: as the caller promises.
                    unsafe { slot.write(s) };
                    true
                }
                None => false,
            }
        } else {
            false
        }
    }

    /// Makes in `slot` the String of `chars` (characters without NUL); whether it did.
    ///
    /// # Safety
    /// As for `make_string`.
    #[inline(always)]
    unsafe fn make_string_of_chars(&self, slot: *mut GString, chars: &[u32]) -> bool {
        match self.buffers {
            Some(buffers) => match buffers.string_of_chars(chars) {
                Some(s) => {
                    // SAFETY: as the caller promises.
                    unsafe { slot.write(s) };
                    true
                }
                None => false,
            },
            // SAFETY: `slot` is memory for a String (the caller's promise), which the
            // constructor initializes from `chars.len()` characters, none of them NUL.
            None => unsafe {
                (self.string_from_utf32)(slot.cast(), chars.as_ptr(), chars.len() as i64);
                true
            },
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

    /// A Variant holding a new String of the text `raw` holds (see
    /// [`make_string_from_utf8`](Self::make_string_from_utf8)), or the error reading it.
    /// Inlined: the String comes back in a register, where a `Result<Variant, _>` would come
    /// back through memory, written in words and read back in wider loads that wait for
    /// those writes to reach the cache.
    #[inline(always)]
    pub fn raw_string_variant(&self, raw: &RawText<'_>) -> Result<Variant, DecodeError> {
        match self.string_of_raw_text(raw) {
            Some(s) => Ok(self.moved_into_variant(VariantType::STRING, s)),
            None => raw.text().map(|text| self.string_variant(text)),
        }
    }

    /// A new String of the text `raw` holds when it is plain (ASCII without NUL) or
    /// [`make_string_from_utf8`](Self::make_string_from_utf8) makes it; `None` leaves it to
    /// be made from its checked text (or its error).
    #[inline(never)]
    fn string_of_raw_text(&self, raw: &RawText<'_>) -> Option<GString> {
        let mut made = true;
        // SAFETY: the constructor initializes the String it is given: a plain text is made
        // from it, any other by the call below, which does or says it did not; then an
        // empty String is written for the drop.
        let s = unsafe {
            GString::new_with_uninit(|dest| match raw.plain() {
                Some(text) => self.make_ascii_string(dest.cast(), text),
                None => {
                    made = self.make_string_from_utf8(dest.cast(), raw);
                    if !made {
                        dest.cast::<GString>().write(GString::new());
                    }
                }
            })
        };
        made.then_some(s)
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
}
