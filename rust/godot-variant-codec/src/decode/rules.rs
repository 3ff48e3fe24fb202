//! The rules that read one element of the format from a bare [`Reader`]: the decoder's
//! walk and the serde deserializer (`crate::serde`) both use them.

use super::{Build, Packed};
use crate::error::{DecodeError, DecodeErrorKind as Kind};
use crate::header::{
    ContainerKind, Header, COUNT_MASK, NODE_PATH_ABSOLUTE, NODE_PATH_NEW_FORMAT,
    NODE_PATH_OBSOLETE_PROPERTY,
};
use crate::script::{is_script_path, Side};
use crate::text::writes_subpath;
use crate::types::{Component, Generation, Godot2Type, VariantType};
use crate::value::{ContainerType, NodePath, Value};
use crate::wire::{
    is_plain_16, padded_text, padding, plain_text, window_text, Plain, Reader, TEXT_WINDOW,
};
use crate::DecodeOptions;

const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// A value's header: its type (unknown ids refused at the header's offset) and the header
/// itself, whose upper bits are flags.
#[inline(always)]
pub(crate) fn read_header(
    r: &mut Reader<'_>,
    generation: Generation,
) -> Result<(VariantType, Header), DecodeError> {
    let header_at = r.consumed();
    let header = Header::from_word(r.read("header")?);
    let wire_id = header.type_id(generation);
    match generation.type_of(wire_id) {
        Some(t) => Ok((t, header)),
        None => Err(r.error_at(header_at, Kind::UnknownType(wire_id))),
    }
}

/// A value whose payload is read whole in place: nil, a bool, an int or a float (ints of
/// 32 bits sign-extended, floats of 32 bits widened exactly).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Scalar {
    /// `null`.
    Nil,
    /// A bool (any non-zero word is `true`).
    Bool(bool),
    /// An int.
    Int(i64),
    /// A float.
    Float(f64),
}

/// The payload of the scalar type `t` (see [`VariantType::is_scalar`]), after its header;
/// `wide`: the header's 64-bit flag.
#[inline(always)]
pub(crate) fn read_scalar(
    r: &mut Reader<'_>,
    t: VariantType,
    wide: bool,
) -> Result<Scalar, DecodeError> {
    Ok(match t {
        VariantType::Bool => Scalar::Bool(r.read::<u32>("bool")? != 0),
        VariantType::Int => Scalar::Int(read_int(r, wide)?),
        VariantType::Float => Scalar::Float(read_float(r, wide)?),
        _ => Scalar::Nil,
    })
}

/// The value of type `t` after its `header` when a
/// Variant holds it in its own bytes: nil, a bool, an int, a float; a single-precision
/// Vector2, Rect2, Vector3, Vector4, Plane or Quaternion; a Color; an integer vector. Made
/// by `b` from its payload read whole; `None` for any other value, its payload unread.
#[inline(always)]
pub(crate) fn read_inline<B: Build>(
    r: &mut Reader<'_>,
    t: VariantType,
    header: Header,
    generation: Generation,
    b: &mut B,
) -> Result<Option<B::Value>, B::Error> {
    if t.is_scalar() {
        let scalar = read_scalar(r, t, header.is_wide())?;
        return build_scalar(b, scalar).map(Some);
    }
    let Some((n, component)) = t.math_components() else {
        return Ok(None);
    };
    if n > 4 || (component == Component::Real && header.wide_reals(generation)) {
        return Ok(None);
    }
    read_inline_math(r, t, (n, component), b).map(Some)
}

/// The math value of type `t` after its header, of `shape` (its components' count, at
/// most four, and type, each 32 bits wide), made by `b` from its payload read whole.
#[inline(always)]
pub(super) fn read_inline_math<B: Build>(
    r: &mut Reader<'_>,
    t: VariantType,
    (n, component): (usize, Component),
    b: &mut B,
) -> Result<B::Value, B::Error> {
    let bytes = r.take(n * 4, t.name())?;
    match component {
        Component::I32 => b.int_components(t, &first_four::<i32>(bytes)[..n]),
        Component::Real | Component::F32 => b.single_reals(t, &first_four::<f32>(bytes)[..n]),
    }
}

/// The first four `T`s of `bytes`, little-endian (0 past its end). Each is loaded on its
/// own: copied as one run of the input's length, the copy's narrow writes would hold up
/// the wider reads of the array that follow (a failed store-to-load forward on x86).
#[inline(always)]
fn first_four<T: Plain + Default>(bytes: &[u8]) -> [T; 4] {
    std::array::from_fn(|i| match bytes.get(i * T::SIZE..) {
        Some(rest) if rest.len() >= T::SIZE => T::from_le(rest),
        _ => T::default(),
    })
}

/// The builder's value of `scalar`.
#[inline(always)]
pub(super) fn build_scalar<B: Build>(b: &mut B, scalar: Scalar) -> Result<B::Value, B::Error> {
    match scalar {
        Scalar::Nil => b.nil(),
        Scalar::Bool(v) => b.bool(v),
        Scalar::Int(i) => b.int(i),
        Scalar::Float(f) => b.float(f),
    }
}

/// The Godot 2 type without a Godot 4 twin whose header comes next, if any (Godot 2 only).
#[inline]
pub(crate) fn godot2_special(r: &Reader<'_>, generation: Generation) -> Option<Godot2Type> {
    generation.godot2_type(r.peek_u32()?)
}

/// An RID's id after its header (0 where the generation writes none).
#[inline]
pub(crate) fn read_rid(r: &mut Reader<'_>, generation: Generation) -> Result<u64, DecodeError> {
    if generation.has_rid_payload() {
        r.read("RID")
    } else {
        Ok(0)
    }
}

/// An object's instance id after a flagged Object header (0, the null object, where
/// objects carry nothing: Godot 2).
#[inline]
pub(crate) fn read_object_id(
    r: &mut Reader<'_>,
    generation: Generation,
) -> Result<u64, DecodeError> {
    if generation.has_object_payload() {
        r.read("object id")
    } else {
        Ok(0)
    }
}

/// A whole object's start after its header (at `header_at`), where objects are allowed:
/// its class, as Godot 4 names it (see [`Generation::godot4_class`]), and how many
/// properties follow; `None` for the null object (an empty class name).
pub(crate) fn read_object_start<'a>(
    r: &mut Reader<'a>,
    header_at: usize,
    opts: &DecodeOptions,
    generation: Generation,
) -> Result<Option<(&'a str, u32)>, DecodeError> {
    if !opts.allow_objects {
        return Err(r.error_at(header_at, Kind::ObjectsNotAllowed));
    }
    let class = generation.godot4_class(read_text(r)?);
    if class.is_empty() {
        return Ok(None);
    }
    // A signed count in the engine: negative means no properties.
    let count = r.read::<i32>("property count")?.max(0);
    Ok(Some((class, count as u32)))
}

/// A NodePath after its header, by the generation's rules: Godot 2's empty property is
/// none, and a path Godot 3 reads as empty is the empty path. Its texts are read into
/// `texts` (see [`read_raw_node_path`]).
#[inline(always)]
pub(crate) fn read_node_path<'s, 'a: 's>(
    r: &mut Reader<'a>,
    generation: Generation,
    texts: &'s mut Vec<&'a str>,
) -> Result<RawNodePath<'s>, DecodeError> {
    let mut path = read_raw_node_path(r, texts)?;
    if generation.has_node_path_property() {
        path.drop_empty_property();
    }
    if generation.empties_node_path(path.names().len(), path.subnames().len()) {
        path.make_empty();
    }
    Ok(path)
}

/// How long a NodePath's text may be to be joined as it is read (see
/// [`read_node_path_text`]): the usual path, `/root/Level/Enemy12:position`, and much
/// longer ones.
pub(crate) const NODE_PATH_ROOM: usize = 128;

/// A NodePath after its header, as its text (see [`crate::text::node_path_text`]): what
/// [`read_node_path`] reads, joined. A short path of plain texts is joined in `room` as it
/// is read (see [`join_node_path`]); any other is read with `texts` and written to `out`.
#[inline(always)]
pub(crate) fn read_node_path_text<'a, 's>(
    r: &mut Reader<'a>,
    generation: Generation,
    texts: &mut Vec<&'a str>,
    room: &'s mut [u8; NODE_PATH_ROOM],
    out: &'s mut String,
) -> Result<&'s str, DecodeError> {
    if let Some(len) = join_node_path(r, generation, room) {
        // SAFETY: `join_node_path` puts in `room[..len]` only ASCII separators and the bytes
        // of plain texts (each 0x01 to 0x7F): ASCII, which is valid UTF-8.
        return Ok(unsafe { std::str::from_utf8_unchecked(&room[..len]) });
    }
    let path = read_node_path(r, generation, texts)?;
    out.clear();
    crate::text::write_node_path(
        out,
        path.absolute,
        path.names().iter().copied(),
        path.subnames().iter().copied(),
    )
    .expect("a String takes any text");
    Ok(out)
}

/// The length of a NodePath's text joined in `room` as its parts are read, when the path
/// is of the current layout without the obsolete property, the generation keeps it as
/// written, each part is a plain text of up to 16 bytes (see [`is_plain_16`]; moved in
/// one 16-byte copy) and the text fits in `room`. `None`, and nothing read, otherwise.
#[inline(always)]
fn join_node_path(
    r: &mut Reader<'_>,
    generation: Generation,
    room: &mut [u8; NODE_PATH_ROOM],
) -> Option<usize> {
    let [first, subname_count, flags] = <[u32; 3] as Plain>::from_le(r.peek::<12>()?);
    let name_count = first & !NODE_PATH_NEW_FORMAT;
    let total = name_count.checked_add(subname_count)?;
    let as_written = first & NODE_PATH_NEW_FORMAT != 0
        && flags & NODE_PATH_OBSOLETE_PROPERTY == 0
        && !generation.has_node_path_property()
        && !generation.empties_node_path(name_count as usize, subname_count as usize);
    if !as_written {
        return None;
    }
    // The reader's place stays in a register while the text is joined.
    let mut reader = r.clone();
    reader.skip_unchecked(12);
    let mut len = 0;
    if flags & NODE_PATH_ABSOLUTE != 0 {
        room[0] = b'/';
        len = 1;
    }
    let mut subpath_at = usize::MAX;
    for i in 0..total {
        // Room for a separator and a 16-byte copy.
        if len > NODE_PATH_ROOM - 17 {
            return None;
        }
        // The separators of `write_node_path`: `/` between names, `:` before each subname.
        if i >= name_count {
            if i == name_count {
                subpath_at = len;
            }
            room[len] = b':';
            len += 1;
        } else if i > 0 {
            room[len] = b'/';
            len += 1;
        }
        let chunk = reader.peek::<20>()?;
        let (length, window) = chunk.split_at(4);
        let length = <u32 as Plain>::from_le(length) as usize;
        let window: &[u8; 16] = window.try_into().expect("16 bytes");
        if !is_plain_16(window, length) {
            return None;
        }
        room[len..len + 16].copy_from_slice(window);
        len += length;
        reader.skip_unchecked(4 + length + padding(length));
    }
    // A subpath that is not written (one empty subname) drops its `:`.
    let subnames = (total - name_count) as usize;
    if subnames > 0 && !writes_subpath(subnames, len == subpath_at + 1) {
        len = subpath_at;
    }
    *r = reader;
    Some(len)
}

/// An int's payload: 64 bits when the header is flagged, else 32.
#[inline]
pub(crate) fn read_int(r: &mut Reader<'_>, wide: bool) -> Result<i64, DecodeError> {
    if wide {
        r.read("int")
    } else {
        Ok(r.read::<i32>("int")?.into())
    }
}

/// A float's payload: 64 bits when the header is flagged, else 32.
#[inline]
pub(crate) fn read_float(r: &mut Reader<'_>, wide: bool) -> Result<f64, DecodeError> {
    if wide {
        r.read("float")
    } else {
        Ok(r.read::<f32>("float")?.into())
    }
}

/// A length word, then UTF-8 bytes padded to 4. Like the engine, a leading BOM is
/// dropped and the text ends at the first NUL; the rest must be valid UTF-8.
#[inline(always)]
pub(crate) fn read_text<'a>(r: &mut Reader<'a>) -> Result<&'a str, DecodeError> {
    read_raw_text(r)?.text()
}

/// [`read_text`], a plain text of at most 16 bytes (see [`RawText::plain`]) read with one
/// range check when the input holds 16 bytes after its length word: most names.
#[inline(always)]
pub(crate) fn read_short_text<'a>(r: &mut Reader<'a>) -> Result<&'a str, DecodeError> {
    if let Some(chunk) = r.peek::<20>() {
        let (length, window) = chunk.split_at(4);
        let length = <u32 as Plain>::from_le(length) as usize;
        let window: &'a [u8; 16] = window.try_into().expect("16 bytes");
        if let Some(text) = plain_text(window, length) {
            r.skip_unchecked(4 + length + padding(length));
            return Ok(text);
        }
    }
    read_text(r)
}

/// A text's length word and bytes (padded to 4), checked against the input; what they
/// say is read by [`RawText::text`].
#[inline(always)]
pub(crate) fn read_raw_text<'a>(r: &mut Reader<'a>) -> Result<RawText<'a>, DecodeError> {
    // Errors in the text are reported at its length word (which is inside the input once
    // it has been read).
    let offset = r.offset();
    let length: u32 = r.read("String length")?;
    let padded = (length as usize)
        .checked_add(padding(length as usize))
        .filter(|_| length <= i32::MAX as u32);
    let Some(padded_bytes) = padded.and_then(|padded| r.try_take(padded)) else {
        return Err(DecodeError {
            offset,
            kind: Kind::StringPastEnd {
                length,
                remaining: r.remaining(),
            },
        });
    };
    Ok(RawText {
        padded_bytes,
        length,
        offset,
    })
}

/// [`read_raw_text`], a padded text of at most [`TEXT_WINDOW`] bytes coming as the
/// `TEXT_WINDOW` bytes from its start when the input holds them: read a word at a time,
/// with no branch on its length.
#[inline(always)]
pub(crate) fn read_windowed_text<'a>(r: &mut Reader<'a>) -> Result<RawText<'a>, DecodeError> {
    let window = r
        .rest()
        .get(4..)
        .and_then(|text| text.first_chunk::<TEXT_WINDOW>());
    let mut raw = read_raw_text(r)?;
    if let Some(window) = window {
        if raw.padded_bytes.len() <= TEXT_WINDOW {
            raw.padded_bytes = window;
        }
    }
    Ok(raw)
}

/// The next value's header word and the `N - 4` bytes after it (as a reader of their
/// own), when the input holds them and the header names `t`: the start of a value read
/// whole with one range check. Nothing is read.
#[inline(always)]
fn peek_value<'a, const N: usize>(
    r: &Reader<'a>,
    t: VariantType,
    generation: Generation,
) -> Option<(Header, Reader<'a>)> {
    let chunk = r.peek::<N>()?;
    let header = Header::from_word(<u32 as Plain>::from_le(chunk));
    header
        .names_type(t, generation)
        .then(|| (header, Reader::new(&chunk[4..], 0)))
}

/// An int or float value (`t`: header and payload, the payload read by `read`, of 64 bits
/// when the header is flagged), when the next 12 bytes hold it: read with one range check.
/// `None`, and nothing read, otherwise.
#[inline(always)]
pub(crate) fn read_short_number<T>(
    r: &mut Reader<'_>,
    t: VariantType,
    generation: Generation,
    read: impl FnOnce(&mut Reader<'_>, bool) -> Result<T, DecodeError>,
) -> Option<T> {
    let (header, mut payload) = peek_value::<12>(r, t, generation)?;
    let number = read(&mut payload, header.is_wide()).ok()?;
    r.skip_unchecked(4 + payload.consumed());
    Some(number)
}

/// A value of type `t` whose payload is `size(header)` bytes (`None`: not known from the
/// header), when the input holds it: its header and payload, read without an error path.
/// `None`, and nothing read, otherwise.
#[inline(always)]
pub(crate) fn read_sized_value<'a>(
    r: &mut Reader<'a>,
    t: VariantType,
    generation: Generation,
    size: impl FnOnce(Header) -> Option<usize>,
) -> Option<&'a [u8]> {
    let header = Header::from_word(r.peek_u32()?);
    if !header.names_type(t, generation) {
        return None;
    }
    let mut rest = r.clone();
    rest.skip_unchecked(4);
    let payload = rest.try_take(size(header)?)?;
    *r = rest;
    Some(payload)
}

/// An untyped Dictionary's header and count (its entries follow), when the next 8 bytes
/// hold them: read with one range check. `None`, and nothing read, otherwise (a typed
/// Dictionary's element types come next, for the full reading).
#[inline(always)]
pub(crate) fn read_short_dictionary(r: &mut Reader<'_>, generation: Generation) -> Option<u32> {
    read_short_container(r, VariantType::Dictionary, generation)
}

/// An untyped Array's header and count (its elements follow), as
/// [`read_short_dictionary`] reads a Dictionary's.
#[inline(always)]
pub(crate) fn read_short_array(r: &mut Reader<'_>, generation: Generation) -> Option<u32> {
    read_short_container(r, VariantType::Array, generation)
}

#[inline(always)]
fn read_short_container(r: &mut Reader<'_>, t: VariantType, generation: Generation) -> Option<u32> {
    let (header, mut payload) = peek_value::<8>(r, t, generation)?;
    if !header.is_untyped_container(generation) {
        return None;
    }
    let count = read_container_count(&mut payload, "container count").ok()?;
    r.skip_unchecked(8);
    Some(count)
}

/// A String or StringName value (header and text) whose text is at most `CHUNK - 8` bytes
/// (16 or 24), when the next `CHUNK` bytes hold its header, length word and that many
/// bytes from the text's start: read with one range check, the text's bytes being those
/// (what follows the text is not the text's, and is masked off where the text is read).
/// `None`, and nothing read, otherwise.
#[inline(always)]
pub(crate) fn read_short_string<'a, const CHUNK: usize>(
    r: &mut Reader<'a>,
    generation: Generation,
) -> Option<RawText<'a>> {
    let (_, payload) = peek_value::<CHUNK>(r, VariantType::String, generation)
        .or_else(|| peek_value::<CHUNK>(r, VariantType::StringName, generation))?;
    let rest = payload.rest();
    let length = <u32 as Plain>::from_le(rest);
    if length as usize > CHUNK - 8 {
        return None;
    }
    let offset = r.offset() + 4;
    r.skip_unchecked(8 + length as usize + padding(length as usize));
    Some(RawText {
        padded_bytes: &rest[4..],
        length,
        offset,
    })
}

/// A text as the input holds it, before its rules are applied: its bytes with their
/// padding (short texts are read a word at a time, padding included; one of at most 16
/// (24) bytes may come as the 16 (24) bytes from its start, one in a PackedStringArray of
/// at most [`TEXT_WINDOW`] bytes as that many), their length, and the offset of its length
/// word, where an error in it is reported.
#[derive(Debug, Clone, Copy)]
pub struct RawText<'a> {
    padded_bytes: &'a [u8],
    length: u32,
    offset: usize,
}

impl<'a> RawText<'a> {
    /// The text: a leading BOM dropped, ended at the first NUL, the rest valid UTF-8 (or
    /// `InvalidUtf8` at the length word).
    #[inline(always)]
    pub fn text(&self) -> Result<&'a str, DecodeError> {
        match self.plain() {
            Some(text) => Ok(text),
            None => self.text_by_rules(),
        }
    }

    /// The text of a short string (16 or 24 bytes from its start at hand) of nothing but
    /// bytes 0x01 to 0x7F: ASCII without a NUL, which cannot start with a BOM either, so
    /// every rule of [`text`](Self::text) leaves it as it is; of a PackedStringArray's
    /// short string ([`TEXT_WINDOW`] bytes at hand), the same up to its first NUL. `None`
    /// for any other text, which [`text_by_rules`](Self::text_by_rules) then reads.
    #[inline(always)]
    pub fn plain(&self) -> Option<&'a str> {
        let length = self.length as usize;
        if let Ok(window) = <&'a [u8; TEXT_WINDOW]>::try_from(self.padded_bytes) {
            return window_text(window, length);
        }
        if let Ok(words) = <&'a [u8; 24]>::try_from(self.padded_bytes) {
            return plain_text(words, length);
        }
        plain_text(<&'a [u8; 16]>::try_from(self.padded_bytes).ok()?, length)
    }

    /// The text's length in bytes as written, before [`text`](Self::text)'s rules (a BOM
    /// dropped, a NUL ending it) and without its padding.
    #[inline]
    pub fn encoded_len(&self) -> usize {
        self.length as usize
    }

    /// The text's bytes with the first rule of [`text`](Self::text) applied (a leading BOM
    /// dropped), the others not: they may hold a NUL (where the text ends) and need not be
    /// valid UTF-8 (when they are not, up to that NUL, `text` fails); with the bytes that
    /// come after them (the text's padding, or the rest of its window of [`TEXT_WINDOW`]
    /// bytes). Returns those bytes and the text's length in them: the bytes past the length
    /// are not the text's, a reader may look at them to read in wider blocks and must not
    /// take them.
    #[inline(always)]
    pub fn window_by_rules(&self) -> (&'a [u8], usize) {
        let len = self.length as usize;
        match self.padded_bytes[..len].starts_with(UTF8_BOM) {
            true => (&self.padded_bytes[UTF8_BOM.len()..], len - UTF8_BOM.len()),
            false => (self.padded_bytes, len),
        }
    }

    /// [`text`](Self::text), each rule applied: for a text that [`plain`](Self::plain) did
    /// not take, which `text` would check again.
    #[inline(always)]
    pub fn text_by_rules(&self) -> Result<&'a str, DecodeError> {
        let length = self.length as usize;
        // The padded text alone, without what may follow it (see `RawText`).
        let padded = &self.padded_bytes[..length + padding(length)];
        let start = if padded[..length].starts_with(UTF8_BOM) {
            UTF8_BOM.len()
        } else {
            0
        };
        padded_text(padded, start, length).ok_or(DecodeError {
            offset: self.offset,
            kind: Kind::InvalidUtf8,
        })
    }
}

/// A packed array's count and elements, the count checked against the remaining input.
/// Inlined: returned through memory, the `Packed` written a word at a time would be read
/// back 16 bytes at a time, which waits for the writes to reach the cache.
#[inline]
pub(crate) fn read_packed<'a>(
    r: &mut Reader<'a>,
    t: VariantType,
    wide: bool,
) -> Result<Packed<'a>, DecodeError> {
    let elem_size = Packed::element_size(t, wide);
    let at = r.consumed();
    let count: u32 = r.read("count")?;
    let fits = count <= i32::MAX as u32 && (count as usize) * elem_size <= r.remaining();
    if !fits {
        return Err(r.error_at(
            at,
            Kind::CountPastEnd {
                what: t,
                count,
                remaining: r.remaining(),
            },
        ));
    }
    let count = count as usize;
    let bytes = r.take(count * elem_size, t.name())?;
    if t == VariantType::PackedByteArray {
        // Counted like the engine, which does not check that the padding is there.
        r.skip_unchecked(padding(count));
    }
    Ok(Packed {
        array_type: t,
        wide,
        count,
        bytes,
    })
}

/// A PackedStringArray's count; its strings follow, each as [`read_text`].
pub(crate) fn read_packed_strings_count(r: &mut Reader<'_>) -> Result<usize, DecodeError> {
    // The engine loops over the count as a signed int: a negative count is an empty array.
    Ok(r.read::<i32>("count")?.max(0) as usize)
}

/// An Array's or Dictionary's count word, without the old "shared" flag.
#[inline]
pub(crate) fn read_container_count(
    r: &mut Reader<'_>,
    what: &'static str,
) -> Result<u32, DecodeError> {
    Ok(r.read::<u32>(what)? & COUNT_MASK)
}

/// Capacity to reserve for `count` items of at least `min_size` bytes each: never more
/// than the `remaining` input could hold, whatever the count claims, nor more than is left
/// of the whole input's `reservable` budget (which it takes from).
#[inline]
pub(crate) fn reserve(
    count: u32,
    min_size: usize,
    remaining: usize,
    reservable: &mut usize,
) -> usize {
    let capacity = (count as usize).min(remaining / min_size).min(*reservable);
    *reservable -= capacity;
    capacity
}

/// A NodePath as the input holds it (see [`Build::node_path`]): its texts read and
/// checked, borrowed from the input for the call it is handed to.
#[derive(Debug, Clone, PartialEq)]
pub struct RawNodePath<'a> {
    /// See [`encoded`](Self::encoded).
    encoded: Option<&'a [u8]>,
    /// Whether the path starts at the root (a leading `/`): bit 0 of the flags word.
    pub absolute: bool,
    /// The names, then the subnames.
    texts: &'a [&'a str],
    name_count: usize,
    /// The last subname is the property flag bit 1 announces.
    property: bool,
}

impl<'a> RawNodePath<'a> {
    /// The NodePath's bytes after its header (counts, flags and texts), which Godot 4
    /// reads as this path: two such NodePaths are the same when these are. `None` when a
    /// rule of the generation read made the path differ from what they say to Godot 4
    /// (Godot 2's empty property, Godot 3's emptied paths); the texts are then the path.
    #[inline]
    pub fn encoded(&self) -> Option<&'a [u8]> {
        self.encoded
    }

    /// The node names.
    #[inline]
    pub fn names(&self) -> &'a [&'a str] {
        &self.texts[..self.name_count]
    }

    /// The subnames; a property the flags announce is the last (in Godot 2, unless empty).
    #[inline]
    pub fn subnames(&self) -> &'a [&'a str] {
        &self.texts[self.name_count..]
    }

    /// The path as a [`NodePath`] of its own texts.
    pub fn to_node_path(&self) -> NodePath {
        NodePath::of_parts(self.texts, self.name_count, self.absolute)
    }

    /// Drops an empty property: where the property is a part of its own (see
    /// [`Generation::has_node_path_property`]), an empty one is none.
    fn drop_empty_property(&mut self) {
        if let Some((&"", rest)) = self.texts.split_last().filter(|_| self.property) {
            self.texts = rest;
            self.property = false;
            self.encoded = None;
        }
    }

    /// Makes this the empty path (see [`Generation::empties_node_path`]).
    fn make_empty(&mut self) {
        self.texts = &[];
        self.name_count = 0;
        self.absolute = false;
        self.property = false;
        self.encoded = None;
    }
}

/// A NodePath, in the current layout (the obsolete string form is refused); its texts
/// are read into `texts` (emptied first), which the caller keeps from one path to the
/// next, so that reading a path allocates nothing once it has room.
#[inline(always)]
pub(crate) fn read_raw_node_path<'s, 'a: 's>(
    r: &mut Reader<'a>,
    texts: &'s mut Vec<&'a str>,
) -> Result<RawNodePath<'s>, DecodeError> {
    let at = r.consumed();
    let first: u32 = r.read("NodePath")?;
    if first & NODE_PATH_NEW_FORMAT == 0 {
        return Err(r.error_at(at, Kind::ObsoleteNodePath));
    }
    let [subname_count, flags]: [u32; 2] = r.read("NodePath")?;
    let name_count = first & !NODE_PATH_NEW_FORMAT;
    let subname_count =
        subname_count.wrapping_add(u32::from(flags & NODE_PATH_OBSOLETE_PROPERTY != 0));
    // The engine adds the counts in 32 bits; a wrapped total reads that many strings.
    let total = name_count.wrapping_add(subname_count);
    texts.clear();
    // Room for the texts the counts announce, but never more than the input can hold
    // (each takes at least 4 bytes), whatever the counts say.
    texts.reserve((total as usize).min(r.remaining() / 4));
    for _ in 0..total {
        texts.push(read_short_text(r)?);
    }
    Ok(RawNodePath {
        encoded: Some(r.bytes_since(at)),
        absolute: flags & NODE_PATH_ABSOLUTE != 0,
        name_count: texts.len().min(name_count as usize),
        // Counts that wrapped read names only.
        property: flags & NODE_PATH_OBSOLETE_PROPERTY != 0 && texts.len() > name_count as usize,
        texts,
    })
}

/// A typed container's element (or key, value) type after its header, of the `kind` the
/// header's bits say.
pub(crate) fn read_typed_container(
    r: &mut Reader<'_>,
    kind: ContainerKind,
    allow: bool,
) -> Result<ContainerType, DecodeError> {
    let at = r.consumed();
    let written = match kind {
        ContainerKind::Untyped => ContainerType::Untyped,
        ContainerKind::Builtin => {
            let id: u32 = r.read("container type")?;
            let t = VariantType::from_id(id)
                .ok_or_else(|| r.error_at(at, Kind::UnknownContainerType(id)))?;
            ContainerType::Builtin(t)
        }
        ContainerKind::ClassName => ContainerType::ClassName(read_text(r)?.to_owned()),
        ContainerKind::Script => {
            let path = read_text(r)?.to_owned();
            if allow && !is_script_path(&path, Side::Read) {
                return Err(r.error_at(at, Kind::InvalidScriptPath(path)));
            }
            ContainerType::Script(path)
        }
    };
    Ok(written.with_objects(allow))
}

/// A full object's `script` property: nil, or a `res://` path (see [`is_script_path`]).
pub(crate) fn check_script_value(value: &Value) -> Result<(), Kind> {
    match value {
        Value::Nil => Ok(()),
        Value::String(path) if is_script_path(path, Side::Read) => Ok(()),
        Value::String(path) => Err(Kind::InvalidScriptPath(path.clone())),
        other => Err(Kind::ScriptNotAPath(other.variant_type())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Texts of every kind a NodePath's part can hold: plain ones around 16 bytes, the
    /// separators, non-ASCII, a BOM, a NUL, invalid UTF-8, empty.
    const PARTS: [&[u8]; 14] = [
        b"root",
        b"Level",
        b"Enemy12",
        b"",
        b"position",
        b"sixteen_bytes_16",
        b"seventeen_bytes17",
        b"a:b",
        b"x/y",
        "Énemy".as_bytes(),
        b"\xEF\xBB\xBFbom",
        b"nul\0end",
        b"\xFF\xFE",
        b"a_rather_long_name_of_a_node_in_a_scene",
    ];

    /// A NodePath's bytes after its header: `first` (the name count with the format bit),
    /// the subname count, the flags, then `parts` as texts.
    fn node_path_bytes(first: u32, subnames: u32, flags: u32, parts: &[usize]) -> Vec<u8> {
        let mut bytes = [first, subnames, flags].map(u32::to_le_bytes).concat();
        for &part in parts {
            let text = PARTS[part];
            bytes.extend_from_slice(&(text.len() as u32).to_le_bytes());
            bytes.extend_from_slice(text);
            bytes.resize(bytes.len() + padding(text.len()), 0);
        }
        bytes
    }

    /// What [`read_node_path_text`] must give: the parts read by [`read_node_path`], then
    /// joined by the text's writer.
    fn reference(bytes: &[u8], generation: Generation) -> Result<(String, usize), DecodeError> {
        let (mut r, mut texts) = (Reader::new(bytes, 0), Vec::new());
        let path = read_node_path(&mut r, generation, &mut texts)?;
        let text = crate::text::node_path_text(path.absolute, path.names(), path.subnames());
        Ok((text, r.consumed()))
    }

    proptest! {
        /// Joined as read or not, the text, the bytes read and any error are the
        /// reference's: for every generation, count, flag and kind of part, and inputs cut
        /// anywhere.
        #[test]
        fn node_path_text_is_the_joined_parts(
            names in 0u32..6,
            subnames in 0u32..4,
            flags in 0u32..4,
            new_format in proptest::bool::weighted(0.9),
            parts in proptest::collection::vec(0..PARTS.len(), 0..10),
            cut in proptest::option::weighted(0.3, 0usize..200),
        ) {
            let first = names | if new_format { NODE_PATH_NEW_FORMAT } else { 0 };
            let mut bytes = node_path_bytes(first, subnames, flags, &parts);
            if let Some(cut) = cut {
                bytes.truncate(cut);
            }
            for generation in Generation::ALL {
                let mut r = Reader::new(&bytes, 0);
                let (mut room, mut out) = ([0; NODE_PATH_ROOM], String::new());
                let text = read_node_path_text(&mut r, generation, &mut Vec::new(), &mut room, &mut out)
                    .map(|text| (text.to_owned(), r.consumed()));
                prop_assert_eq!(text, reference(&bytes, generation), "{}", generation);
            }
        }
    }

    /// A path of many short parts, longer than the room, counts that wrap and empty parts
    /// are read as the reference reads them.
    #[test]
    fn long_wrapping_and_empty_node_paths_are_the_joined_parts() {
        let many = node_path_bytes(NODE_PATH_NEW_FORMAT | 40, 2, 1, &[1; 42]);
        let wrapping = node_path_bytes(NODE_PATH_NEW_FORMAT | 3, u32::MAX - 1, 0, &[0, 1, 2]);
        // One empty subname (no subpath), two (a subpath of `::`), an empty name.
        let lone_empty = node_path_bytes(NODE_PATH_NEW_FORMAT | 1, 1, 0, &[0, 3]);
        let two_empty = node_path_bytes(NODE_PATH_NEW_FORMAT | 1, 2, 1, &[0, 3, 3]);
        let empty_name = node_path_bytes(NODE_PATH_NEW_FORMAT | 2, 0, 1, &[3, 0]);
        for bytes in [many, wrapping, lone_empty, two_empty, empty_name] {
            for generation in Generation::ALL {
                let mut r = Reader::new(&bytes, 0);
                let (mut room, mut out) = ([0; NODE_PATH_ROOM], String::new());
                let text =
                    read_node_path_text(&mut r, generation, &mut Vec::new(), &mut room, &mut out)
                        .map(|text| (text.to_owned(), r.consumed()));
                assert_eq!(text, reference(&bytes, generation), "{generation}");
            }
        }
    }
}
