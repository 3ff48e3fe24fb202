//! What a thread's builders keep of what they made, for the values after: the Strings of
//! short dictionary keys and, within one builder, the NodePaths it made, each found again
//! by its text or bytes. Handed from one builder of the thread to the next, and released
//! while the engine can still take the Strings back.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};

use godot::builtin::{PackedByteArray, Variant};
use godot_variant_codec::header::header_word;
use godot_variant_codec::wire::{short_word, short_words};
use godot_variant_codec::VariantType as WireType;

use crate::engine::ffi::Ffi;

/// What a builder keeps of what it made, for the values after. The thread's: handed from
/// one builder to the next (see [`THREAD_CACHES`]), which keeps its keys and starts its
/// NodePaths anew.
#[derive(Default)]
pub struct Caches {
    pub keys: KeyCache,
    pub node_paths: NodePathCache,
}

thread_local! {
    /// The [`Caches`] of this thread's builders between them: a game decodes one packet per
    /// call, and its packets repeat a few keys.
    static THREAD_CACHES: ThreadCaches = const { ThreadCaches(Cell::new(None)) };
}

/// Set when the library is unloaded: the engine's memory functions may be gone after it,
/// so what a thread keeps is no longer released (see [`ThreadCaches`]).
static UNLOADED: AtomicBool = AtomicBool::new(false);

/// A thread's [`Caches`] between builders. Their Strings are released when the thread
/// ends while the library is loaded; after [`release_thread_caches`] (the library unloaded,
/// the engine shutting down), a thread that ends then leaves its few short keys to the
/// process's end rather than call into the engine.
struct ThreadCaches(Cell<Option<Box<Caches>>>);

impl Drop for ThreadCaches {
    fn drop(&mut self) {
        if let Some(caches) = self.0.take() {
            discard(caches);
        }
    }
}

/// Drops `caches` while the library is loaded; after, leaves them (see [`ThreadCaches`]).
fn discard(caches: Box<Caches>) {
    if UNLOADED.load(Ordering::Acquire) {
        std::mem::forget(caches);
    }
}

/// Releases the calling thread's caches and keeps every later thread end from releasing
/// any: called as the library is unloaded, on the main thread.
pub fn release_thread_caches() {
    // A thread that is ending has nothing left to release.
    let caches = THREAD_CACHES.try_with(|kept| kept.0.take()).ok().flatten();
    drop(caches);
    UNLOADED.store(true, Ordering::Release);
}

/// The thread's [`Caches`] (new ones when it has none, or is ending).
pub fn take_thread_caches() -> Box<Caches> {
    THREAD_CACHES
        .try_with(|kept| kept.0.take())
        .ok()
        .flatten()
        .unwrap_or_default()
}

/// Hands a builder's `caches` back to the thread for its next builder: the keys kept, the
/// NodePaths dropped (discarded when the thread is ending).
#[inline(never)]
pub fn return_caches(mut caches: Box<Caches>) {
    caches.keys.first_added = 0;
    caches.node_paths = NodePathCache::default();
    let mut caches = Some(caches);
    let _ = THREAD_CACHES.try_with(|kept| kept.0.set(caches.take()));
    if let Some(caches) = caches {
        discard(caches);
    }
}

/// Dictionary keys of up to this many bytes are kept in the [`KeyCache`].
pub const SHORT_KEY: usize = 16;
/// Slots of the [`KeyCache`] (a power of two).
const KEY_SLOTS: usize = 32;
/// Slots an entry of a [`ProbedSlots`] may take, from the one its key hashes to on.
const KEY_PROBES: usize = 4;

/// The keys the first Dictionary of a builder may add to its [`KeyCache`].
const FIRST_DICTIONARY_KEYS: usize = 8;

/// The Strings of the dictionary keys a thread's builders have made, by text: a key text
/// seen again is the same String, shared (the engine shares a String's buffer by reference
/// counting, and sharing it cannot be seen from a script). Packets decoded one per call,
/// arrays of records and batches of similar messages repeat a few keys: each repeat costs
/// no allocation or copy. Short keys are kept in a [`ProbedSlots`]; longer keys are made
/// every time.
///
/// The cache is the thread's, handed from one builder to the next. A builder's first
/// Dictionary adds at most [`FIRST_DICTIONARY_KEYS`] keys to it (a packet's few keys; one
/// large dictionary's keys are all different, and keeping them all would only cost), the
/// Dictionaries after it any key.
#[derive(Default)]
pub struct KeyCache {
    slots: ProbedSlots<CachedKey, KEY_SLOTS>,
    /// The keys the current builder's first Dictionary has added.
    first_added: usize,
}

struct CachedKey {
    /// The text, as [`short_key_words`] has it.
    words: [u64; 2],
    len: usize,
    key: Variant,
}

impl KeyCache {
    /// The String Variant of the key `text` of the builder's first Dictionary or a later
    /// one, made by `ffi` when it is new and may be added; `None` when it is not kept (a
    /// long key, or a new one the first Dictionary may no longer add).
    #[inline]
    pub fn get(&mut self, ffi: &Ffi, text: &str, first_dictionary: bool) -> Option<&Variant> {
        if first_dictionary && self.first_added == FIRST_DICTIONARY_KEYS {
            return self.find(text.as_bytes()).map(|cached| &cached.key);
        }
        let len = text.len();
        let words = short_key_words(text.as_bytes())?;
        let hash = key_hash(words, len);
        let is_it = |cached: &CachedKey| cached.is(words, len);
        let mut added = false;
        let cached = self.slots.get_or_insert(hash, is_it, || {
            added = true;
            CachedKey {
                words,
                len,
                key: ffi.string_variant(text),
            }
        });
        if added && first_dictionary {
            self.first_added += 1;
        }
        Some(&cached.key)
    }

    /// Whether the key whose text the input holds as `bytes` (a BOM dropped, the NUL and
    /// UTF-8 rules not yet applied) is kept: then those bytes are the text of a key made
    /// before (a kept text has no NUL and is valid), which [`get`](Self::get) finds.
    #[inline]
    pub fn holds(&self, bytes: &[u8]) -> bool {
        self.find(bytes).is_some()
    }

    /// The kept key of the text `bytes`, if any.
    #[inline]
    fn find(&self, bytes: &[u8]) -> Option<&CachedKey> {
        let words = short_key_words(bytes)?;
        let len = bytes.len();
        self.slots
            .find(key_hash(words, len), |cached| cached.is(words, len))
    }

    /// Keeps `key`, the String made of the key whose text the input holds as `bytes` (as
    /// for [`holds`](Self::holds), which said it was not kept), unless it is long, its
    /// text is not all of `bytes` (a NUL ends it) or a builder's first Dictionary
    /// (`first_dictionary`) may add no more.
    #[inline]
    pub fn keep(&mut self, bytes: &[u8], first_dictionary: bool, key: &Variant) {
        let Some(words) = short_key_words(bytes).filter(|_| !bytes.contains(&0)) else {
            return;
        };
        if first_dictionary {
            if self.first_added == FIRST_DICTIONARY_KEYS {
                return;
            }
            self.first_added += 1;
        }
        let len = bytes.len();
        self.slots.get_or_insert(
            key_hash(words, len),
            |cached| cached.is(words, len),
            || CachedKey {
                words,
                len,
                key: key.clone(),
            },
        );
    }
}

impl CachedKey {
    #[inline]
    fn is(&self, words: [u64; 2], len: usize) -> bool {
        self.len == len && self.words == words
    }
}

/// `SLOTS` slots (a power of two, made on first use) that keep what a builder made, by a
/// key: an entry takes the first free slot of the [`KEY_PROBES`] from its home (the top
/// bits of its key's hash), else replaces the first of them. Nothing is ever removed, so a
/// key is in none of the slots after a free one.
struct ProbedSlots<T, const SLOTS: usize> {
    slots: Vec<Option<T>>,
}

impl<T, const SLOTS: usize> Default for ProbedSlots<T, SLOTS> {
    fn default() -> Self {
        ProbedSlots { slots: Vec::new() }
    }
}

impl<T, const SLOTS: usize> ProbedSlots<T, SLOTS> {
    /// The entry that `is_it` accepts among those from the home of `hash` on, else the one
    /// `make` makes, kept.
    #[inline]
    fn get_or_insert(
        &mut self,
        hash: u64,
        is_it: impl Fn(&T) -> bool,
        make: impl FnOnce() -> T,
    ) -> &T {
        const { assert!(SLOTS.is_power_of_two()) };
        if self.slots.is_empty() {
            self.slots.resize_with(SLOTS, || None);
        }
        let home = Self::home(hash);
        // The first slot that is free or holds the entry, else the home slot.
        let at = (0..KEY_PROBES)
            .map(|probe| (home + probe) % SLOTS)
            .find(|&at| self.slots[at].as_ref().is_none_or(&is_it))
            .unwrap_or(home);
        let slot = &mut self.slots[at];
        if slot.as_ref().is_some_and(|entry| !is_it(entry)) {
            *slot = None;
        }
        slot.get_or_insert_with(make)
    }

    /// The entry that `is_it` accepts among those from the home of `hash` on.
    #[inline(always)]
    fn find(&self, hash: u64, is_it: impl Fn(&T) -> bool) -> Option<&T> {
        let home = Self::home(hash);
        for probe in 0..KEY_PROBES {
            let entry = self.slots.get((home + probe) % SLOTS)?.as_ref()?;
            if is_it(entry) {
                return Some(entry);
            }
        }
        None
    }

    /// The slot an entry of `hash` takes first.
    fn home(hash: u64) -> usize {
        (hash >> (64 - SLOTS.trailing_zeros())) as usize
    }
}

/// A text of up to [`SHORT_KEY`] bytes as the two words [`short_words`] reads it as (no
/// copy into a padded buffer first, which would stall reading it back as words): with its
/// length, they tell it apart from any other text.
#[inline]
fn short_key_words(text: &[u8]) -> Option<[u64; 2]> {
    const { assert!(SHORT_KEY <= 16, "short_words reads at most 16 bytes") };
    (text.len() <= SHORT_KEY).then(|| short_words(text))
}

/// A short key's hash (two multiplicative mixes of its words).
#[inline]
fn key_hash([low, high]: [u64; 2], len: usize) -> u64 {
    let mixed = (low ^ (len as u64) << 56).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    (mixed ^ mixed >> 32 ^ high).wrapping_mul(0xd6e8_feb8_6659_fd93)
}

/// NodePaths of up to this many encoded bytes are kept in the [`NodePathCache`].
const SHORT_NODE_PATH: usize = 256;
/// Slots of the [`NodePathCache`] (a power of two).
const NODE_PATH_SLOTS: usize = 256;

/// The NodePaths this builder has made, by their bytes: the same bytes again give the
/// same NodePath, shared (the engine's NodePaths are immutable and reference counted).
/// Making a NodePath costs a lookup in the engine's table of names per name (and, without
/// the `node_paths` layout, the engine's `bytes_to_var` of its bytes); data that holds
/// NodePaths mostly repeats a few (the nodes a save game or a scene refers to), which this
/// makes cheap. Paths of up to
/// [`SHORT_NODE_PATH`] bytes are kept in a [`ProbedSlots`]. Where they do not repeat (fewer
/// than one lookup in [`NODE_PATH_HIT_SHARE`] finds its path, once [`NODE_PATH_TRIAL`]
/// lookups tell), keeping them only costs (a copy of the bytes, a hash, a reference more):
/// the builder stops keeping and looking them up.
#[derive(Default)]
pub struct NodePathCache {
    slots: ProbedSlots<(Box<[u8]>, Variant), NODE_PATH_SLOTS>,
    lookups: usize,
    hits: usize,
    /// The bytes handed to the engine's `bytes_to_var`, made for the first NodePath and kept
    /// for the next (no allocation per NodePath once it is large enough).
    scratch: Option<PackedByteArray>,
}

/// Lookups of the [`NodePathCache`] before its share of hits decides whether it is kept.
const NODE_PATH_TRIAL: usize = 512;
/// The [`NodePathCache`] is kept while at least one lookup in this many finds its path.
const NODE_PATH_HIT_SHARE: usize = 8;

impl NodePathCache {
    /// The NodePath whose bytes after its header are `encoded`, made by `make` (else by the
    /// engine's `bytes_to_var`) the first time, every time once paths are not kept.
    pub fn get(&mut self, encoded: &[u8], make: impl FnOnce() -> Option<Variant>) -> Variant {
        let path_of = || {
            make().unwrap_or_else(|| {
                engine_node_path(
                    self.scratch.get_or_insert_with(PackedByteArray::new),
                    encoded,
                )
            })
        };
        let kept =
            self.lookups < NODE_PATH_TRIAL || self.hits * NODE_PATH_HIT_SHARE >= self.lookups;
        if encoded.len() > SHORT_NODE_PATH || !kept {
            return path_of();
        }
        self.lookups += 1;
        let mut made = false;
        let (_, path) = self.slots.get_or_insert(
            bytes_hash(encoded),
            |(bytes, _)| **bytes == *encoded,
            || {
                made = true;
                (encoded.into(), path_of())
            },
        );
        if !made {
            self.hits += 1;
        }
        path.clone()
    }
}

/// What the engine's `bytes_to_var` makes of a NodePath header and `encoded`, written into
/// `scratch` first.
fn engine_node_path(scratch: &mut PackedByteArray, encoded: &[u8]) -> Variant {
    let header = header_word(WireType::NodePath.id(), 0).to_le_bytes();
    scratch.resize(header.len() + encoded.len());
    let bytes = scratch.as_mut_slice();
    bytes[..header.len()].copy_from_slice(&header);
    bytes[header.len()..].copy_from_slice(encoded);
    godot::global::bytes_to_var(&*scratch)
}

/// A hash of `bytes` (a multiplicative mix of their words).
fn bytes_hash(bytes: &[u8]) -> u64 {
    bytes.chunks(8).fold(bytes.len() as u64, |hash, chunk| {
        (hash.rotate_left(5) ^ short_word(chunk)).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    })
}
