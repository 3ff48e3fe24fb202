//! NodePaths made from their names, in the engine's own layout.
//!
//! The interface makes a NodePath only from its text, which the engine then parses into
//! names again, or (as the fallback here does) through the engine's `bytes_to_var` of the
//! NodePath's bytes: either costs more than the engine's own decoder, which hands the names
//! it read to `NodePath(names, subnames, absolute)`. Here the NodePath is made as that
//! constructor makes it: its names as StringNames (the interface's constructors), in
//! `Vector<StringName>` buffers of the engine's `CowData` layout ([`cow_data`]), in a data
//! block like the one `memnew(Data)` gives.
//!
//! The layout (core/string/node_path.h and core/templates/vector.h, Godot 4.4 to 4.7): a
//! NodePath is one pointer to its `Data` block, null for the empty relative path; the
//! block, 64 bytes from the allocator `memnew` and `memdelete` use, holds the reference
//! count (32 bits) at 0, the names at 8 and the subnames at 24 (each a `Vector`: a word of
//! write proxy, then the `CowData` pointer), two StringNames the engine fills on demand at
//! 40 and 48 (null), `absolute` at 56, `hash_cache_valid` at 57 (false) and the cached
//! hash at 60.
//!
//! The probe ([`NodePaths::find`]) runs only on the versions whose sources lay it out so,
//! where every offset it reads lies inside the block: it has the engine parse a path, reads
//! the block of that NodePath (its own) and the buffers of its names, and checks each
//! word; then it makes the same path here and asks the engine whether the two are equal,
//! print the same text and hash alike. Once it has, the writer reads a NodePath's names
//! from its block too ([`NodePaths::parts`]).

use std::ffi::c_void;
use std::mem::ManuallyDrop;
use std::sync::OnceLock;

use godot::builtin::{NodePath, StringName, Variant, VariantType};
use godot::meta::ToGodot;
use godot::sys::GodotFfi;

use crate::engine::cow_data::{self, Buffers};
use crate::engine::ffi::{ffi, Ffi};
use crate::engine::layout::node_path::{
    ABSOLUTE_AT, CONCATENATED_NAMES_AT, CONCATENATED_SUBNAMES_AT, DATA_SIZE, HASH_VALID_AT,
    LAYOUT_VERSIONS, NAMES_AT, REF_COUNT_AT, SUBNAMES_AT, VECTOR_POINTER_AT,
};
use crate::engine::probes::{self, Passed, Probe, ProbeResult, Verdict};
use crate::engine::string::string_name;

/// The path the probe has the engine parse, and its names and subnames.
const PROBE_TEXT: &str = "/probe_a/probe_b:probe_c";
const PROBE_NAMES: [&str; 2] = ["probe_a", "probe_b"];
const PROBE_SUBNAMES: [&str; 1] = ["probe_c"];

/// Makes NodePaths, once the probe has found their layout.
pub struct NodePaths {
    buffers: &'static Buffers,
}

fn probed() -> &'static (Verdict, Option<NodePaths>) {
    static PROBED: OnceLock<(Verdict, Option<NodePaths>)> = OnceLock::new();
    PROBED.get_or_init(|| {
        let not_run = Verdict {
            ok: false,
            in_use: false,
            detail: String::new(),
        };
        let variant = ffi().verdict(Probe::Variant).unwrap_or(&not_run);
        probes::check(
            Probe::NodePaths,
            &[
                (Probe::Variant, variant),
                (Probe::Buffers, cow_data::verdict()),
            ],
            |wrong| match cow_data::buffers() {
                Some(buffers) => NodePaths::find(buffers, wrong),
                None => Err("not run: no buffers".into()),
            },
        )
    })
}

/// The maker, if NodePaths are laid out as this module expects.
pub fn node_paths() -> Option<&'static NodePaths> {
    probed().1.as_ref()
}

/// What the probe found.
pub fn verdict() -> &'static Verdict {
    &probed().0
}

/// The parts of a NodePath, read from its block where they lie, borrowed while the
/// NodePath Variant they were read from is.
pub struct NodePathParts<'v> {
    pub names: &'v [StringName],
    pub subnames: &'v [StringName],
    pub absolute: bool,
}

/// The data block of `path` (null for the empty relative path): its one word.
fn data_of(path: &NodePath) -> *const u8 {
    // SAFETY: a NodePath is one pointer (gdext's opaque size), read from its own memory.
    unsafe { path.sys().cast::<*const u8>().read() }
}

/// The buffer of the `Vector<StringName>` at offset `at` of the NodePath block `data` and
/// how many names it holds (a StringName is its one word); null and 0 when it has none.
///
/// # Safety
/// `data` must be a live NodePath block of the layout above, whose vectors' buffers are
/// of the `CowData` layout of the `buffers` probe.
unsafe fn names_in(data: *const u8, at: usize) -> (*const StringName, usize) {
    // SAFETY: the vector's pointer word lies inside the block, and a buffer's size word in
    // its header (the caller's promise).
    unsafe {
        let buffer = data
            .add(at + VECTOR_POINTER_AT)
            .cast::<*const StringName>()
            .read();
        if buffer.is_null() {
            return (buffer, 0);
        }
        (buffer, cow_data::size_word(buffer.cast()) as usize)
    }
}

/// The one word of `name`: the address of its entry in the engine's table of names.
fn word_of(name: &StringName) -> u64 {
    // SAFETY: a StringName is one pointer (gdext's opaque size), read from its own memory.
    unsafe { name.string_sys().cast::<u64>().read() }
}

/// Checks the block of the NodePath the probe had the engine parse from [`PROBE_TEXT`]:
/// its reference count, its names and subnames, its concatenated names (not computed yet)
/// and `absolute` (with `wrong`, looked for one byte off, where the block holds
/// `hash_cache_valid`).
///
/// # Safety
/// `data` is the block of a live NodePath held by the probe, on an engine version whose
/// sources lay it out as [`layout::node_path`](super::layout::node_path) says.
unsafe fn check_parsed_block(data: *const u8, wrong: bool) -> Result<(), String> {
    // SAFETY: the block of a NodePath made for this probe and held by it (the caller's
    // promise); on these versions the block is `DATA_SIZE` bytes, and every offset read is
    // inside it.
    let word = |at: usize| unsafe { data.add(at).cast::<u64>().read() };
    // SAFETY: as above.
    let byte = |at: usize| unsafe { data.add(at).read() };
    // The names in the `Vector` at `at`, checked to be `expected`.
    let names_at = |at: usize, expected: &[&str]| -> Result<(), String> {
        // SAFETY: the block of the probe's NodePath, on a version whose sources lay it
        // out so; its names' buffer is of the `CowData` layout the buffers probe checked.
        let (buffer, len) = unsafe { names_in(data, at) };
        if buffer.is_null() {
            return Err(format!("no buffer of names at offset {at}"));
        }
        if len != expected.len() {
            return Err(format!(
                "{len} names at offset {at}, not {}",
                expected.len()
            ));
        }
        for (i, name) in expected.iter().enumerate() {
            // SAFETY: below the buffer's size, just read.
            let found = word_of(unsafe { &*buffer.add(i) });
            if found != word_of(&string_name(name)) {
                return Err(format!("name {i} at offset {at} is not {name:?}"));
            }
        }
        Ok(())
    };
    let absolute_at = if wrong { HASH_VALID_AT } else { ABSOLUTE_AT };
    if word(REF_COUNT_AT) as u32 != 1 {
        return Err("the reference count is not the block's first word".into());
    }
    names_at(NAMES_AT, &PROBE_NAMES)?;
    names_at(SUBNAMES_AT, &PROBE_SUBNAMES)?;
    if word(CONCATENATED_NAMES_AT) != 0 || word(CONCATENATED_SUBNAMES_AT) != 0 {
        return Err("the concatenated names are not null before they are asked for".into());
    }
    if byte(absolute_at) != 1 || byte(HASH_VALID_AT) != 0 {
        return Err(format!("`absolute` is not at offset {absolute_at}"));
    }
    Ok(())
}

impl NodePaths {
    /// Checks that the NodePath made here of the probe's names equals the engine's
    /// `parsed` (compared, printed and hashed by the engine), and that the empty relative
    /// path and `/` made here equal the engine's too.
    fn check_made_equal(&self, parsed: &Variant) -> Result<(), String> {
        let made = self
            .make(&PROBE_NAMES, &PROBE_SUBNAMES, true)
            .ok_or("no memory for a NodePath")?;
        if made != *parsed || made.stringify() != parsed.stringify() {
            return Err(format!(
                "a NodePath made here is {}, not {PROBE_TEXT}",
                made.stringify()
            ));
        }
        if made.hash_u32() != parsed.hash_u32() {
            return Err("a NodePath made here hashes differently".into());
        }
        for (text, absolute) in [("", false), ("/", true)] {
            let made = self
                .make(&[], &[], absolute)
                .ok_or("no memory for a NodePath")?;
            let parsed = NodePath::from(text).to_variant();
            if made != parsed || made.stringify() != parsed.stringify() {
                return Err(format!("the NodePath {text:?} made here differs"));
            }
        }
        Ok(())
    }

    /// Checks the layout on a NodePath the engine parsed (with `wrong`, `absolute` is
    /// looked for one byte off, where the block holds `hash_cache_valid`), then makes the
    /// same path here and has the engine compare the two.
    fn find(buffers: &'static Buffers, wrong: bool) -> ProbeResult<NodePaths> {
        let (major, minor, _) = probes::engine_version();
        if !LAYOUT_VERSIONS.contains(&(major, minor)) {
            return Err(format!(
                "not run: Godot {major}.{minor}'s NodePaths are not known to be laid out as \
                 in 4.4 to 4.7"
            ));
        }
        let parsed = NodePath::from(PROBE_TEXT);
        let data = data_of(&parsed);
        if data.is_null() {
            return Err(format!(
                "the engine's NodePath of {PROBE_TEXT:?} holds no block"
            ));
        }
        // SAFETY: the block of the probe's own NodePath, which it holds, on a version whose
        // sources lay it out so.
        unsafe { check_parsed_block(data, wrong) }?;
        let parsed = parsed.to_variant();
        if ffi().value_word(&parsed) != Some(data as u64) {
            return Err("a NodePath Variant does not hold its block at the value offset".into());
        }

        let found = NodePaths { buffers };
        found.check_made_equal(&parsed)?;
        Ok(Passed {
            found,
            detail: format!(
                "a NodePath is a {DATA_SIZE}-byte block (names at {NAMES_AT}, subnames at \
                 {SUBNAMES_AT}, absolute at {ABSOLUTE_AT}); one made here equals the engine's \
                 {PROBE_TEXT}"
            ),
        })
    }

    /// The names, subnames and `absolute` of the NodePath `v` holds, read from its block.
    ///
    /// # Safety
    /// `v` must be a NodePath Variant, not changed while the parts are borrowed.
    pub unsafe fn parts<'v>(&self, v: &'v Variant) -> NodePathParts<'v> {
        let data = ffi().value_word(v).unwrap_or(0) as *const u8;
        if data.is_null() {
            return NodePathParts {
                names: &[],
                subnames: &[],
                absolute: false,
            };
        }
        // The StringNames in the `Vector` at `at`.
        let names_at = |at: usize| -> &'v [StringName] {
            // SAFETY: the block `v` holds, laid out as the probe found, outlives the borrow of
            // `v`; its names lie one after the other in their buffer.
            unsafe {
                match names_in(data, at) {
                    (buffer, _) if buffer.is_null() => &[],
                    (buffer, len) => std::slice::from_raw_parts(buffer, len),
                }
            }
        };
        NodePathParts {
            names: names_at(NAMES_AT),
            subnames: names_at(SUBNAMES_AT),
            // SAFETY: a byte of the block, as above.
            absolute: unsafe { data.add(ABSOLUTE_AT).read() } != 0,
        }
    }

    /// The NodePath of `names` and `subnames`, absolute when `absolute`, as the engine's
    /// `NodePath(names, subnames, absolute)` makes it (no block for the empty relative
    /// path); `None` when memory could not be allocated.
    pub fn make(&self, names: &[&str], subnames: &[&str], absolute: bool) -> Option<Variant> {
        let ffi = ffi();
        if names.is_empty() && subnames.is_empty() && !absolute {
            // SAFETY: null is the empty relative path.
            return unsafe { ffi.node_path_variant(std::ptr::null_mut()) };
        }
        let data = self.buffers.allocate_block(DATA_SIZE);
        if data.is_null() {
            return None;
        }
        // SAFETY: a block of `DATA_SIZE` bytes of this function's own. All zeros but the
        // reference count and `absolute` is a path without names: empty vectors, null
        // names, the hash not computed.
        unsafe {
            data.write_bytes(0, DATA_SIZE);
            data.add(REF_COUNT_AT).cast::<u32>().write(1);
            data.add(ABSOLUTE_AT).write(u8::from(absolute));
        }
        // From here the Variant owns the block: dropped on any return below, it is freed
        // as the engine frees a NodePath.
        // SAFETY: the block is laid out as the engine's, its one reference this function's.
        let Some(path) = (unsafe { ffi.node_path_variant(data.cast()) }) else {
            // The `node_paths` probe needs the Variant layout: never reached.
            // SAFETY: not handed to anything; allocated above.
            unsafe { self.buffers.free_block(data) };
            return None;
        };
        for (at, texts) in [(NAMES_AT, names), (SUBNAMES_AT, subnames)] {
            if texts.is_empty() {
                continue;
            }
            // SAFETY: the block's empty `Vector` at `at`, which only this function holds
            // (the Variant is not handed out yet).
            let slots = unsafe { self.buffers.attach::<u64>(data.add(at).cast(), texts.len()) };
            if slots.is_null() {
                return None;
            }
            // SAFETY: the buffer's `texts.len()` slots: null names (the empty StringName)
            // until each is written, so the buffer always holds valid names.
            unsafe { slots.write_bytes(0, texts.len()) };
            for (i, text) in texts.iter().enumerate() {
                let name = ManuallyDrop::new(string_name(text));
                // SAFETY: slot `i` of the buffer takes over the name's one reference.
                unsafe { slots.add(i).write(word_of(&name)) };
            }
        }
        Some(path)
    }
}

impl Ffi {
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
            .then(|| unsafe { Self::from_word(VariantType::NODE_PATH, data as u64) })
    }
}
