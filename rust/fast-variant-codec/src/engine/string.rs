//! Strings and StringNames made from text exactly as the engine holds them: a leading
//! U+FEFF kept, short ASCII names found without a String.

use std::ffi::CStr;

use godot::builtin::{Encoding, StringName};

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
