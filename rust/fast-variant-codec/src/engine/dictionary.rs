//! A Dictionary's entries, walked in the dictionary's order as the engine's
//! `encode_variant` walks them, and set as its `operator[]` sets them; and the probe of
//! the entries' layout.
//!
//! A Dictionary is never walked by looking its keys up: a key changed since it was
//! inserted (an Array appended to) or a freed object key has a hash that no longer leads
//! to its entry, so a lookup misses it (Godot 4.6 then hands out a shared empty Variant;
//! 4.4 and 4.5 insert a new `key: null` entry, even into a read-only dictionary). The
//! engine's own `encode_variant` follows the same list.

use std::ffi::c_void;

use godot::builtin::inner::InnerDictionary;
use godot::builtin::{AnyArray, VarDictionary, Variant, VariantType};
use godot::meta::ToGodot;
use godot::sys::GodotFfi;

use crate::engine::ffi::Ffi;
use crate::engine::layout::{
    DictionaryBlock, ENTRY_KEY_OFFSET, ENTRY_NEXT_OFFSET, ENTRY_PREV_OFFSET, ENTRY_VALUE_OFFSET,
    VALUE_OFFSET,
};
use crate::engine::probes;
use crate::engine::probes::{Passed, ProbeResult};

/// The keys of the dictionary the entries' probe makes.
const PROBE_KEYS: [i64; 3] = [0x1111, 0x2222, 0x3333];

/// The value the entries' probe gives `key`.
fn probe_value_of(key: i64) -> i64 {
    key * 7 + 1
}

impl Ffi {
    /// The block layout of the running engine's dictionaries (see
    /// [`DictionaryBlock::of_version`]), or why there is none.
    pub(super) fn dictionary_block() -> Result<DictionaryBlock, String> {
        let (major, minor, _) = probes::engine_version();
        DictionaryBlock::of_version(major, minor).ok_or_else(|| {
            format!(
                "not run: Godot {major}.{minor}'s dictionaries are not known to be laid out as \
                 in 4.4 to 4.7"
            )
        })
    }

    /// Checks the entries' layout (`ENTRY_*`) and where their list starts (`block`) on a
    /// dictionary of three int entries that the probe made: where the engine's lookup finds
    /// each value, its key is before it; the elements link to each other in the order the
    /// entries were made; and the dictionary's own block names the first and the last of
    /// them and its size. `block` is one of [`DictionaryBlock::of_version`]'s (or, for the
    /// wrong-layout test, one with the head a word early), so every word it reads lies
    /// inside an entry the lookup found or inside that dictionary's block (which holds the
    /// map and two container types after it); it follows no address it read.
    pub(super) fn probe_entry_layout(&self, block: DictionaryBlock) -> ProbeResult {
        let mut dictionary = VarDictionary::new();
        for key in PROBE_KEYS {
            self.set_entry(
                &mut dictionary,
                &key.to_variant(),
                probe_value_of(key).to_variant(),
            );
        }
        let elements = self.probe_entry_elements(&dictionary)?;
        // SAFETY: a Dictionary is one pointer to its block, which on the versions of
        // `DictionaryBlock::of_version` holds the map's 4-byte size at `block.size` with two
        // `ContainerTypeValidate`s after the map, so every word read lies inside it; it lives
        // as long as `dictionary`.
        let (head, tail, size) = unsafe {
            let words = dictionary.sys().cast::<*const u8>().read();
            (
                words.add(block.head).cast::<u64>().read_unaligned(),
                words.add(block.tail).cast::<u64>().read_unaligned(),
                words.add(block.size).cast::<u32>().read_unaligned(),
            )
        };
        let DictionaryBlock {
            head: head_at,
            tail: tail_at,
            size: size_at,
        } = block;
        if head == elements[0] as u64 && tail == elements[2] as u64 && size == 3 {
            Ok(Passed::checked(format!(
                "entries in a list of elements (next, prev, key at {ENTRY_KEY_OFFSET}, value at \
                 {ENTRY_VALUE_OFFSET}) from the head at {head_at} of the dictionary's block, \
                 checked on a dictionary of three"
            )))
        } else {
            Err(format!(
                "a dictionary of three does not name its first and last entries and its size \
                 where expected (head at {head_at}, tail at {tail_at}, size at {size_at})"
            ))
        }
    }

    /// The elements holding the entries of the probe's `dictionary` (of [`PROBE_KEYS`]), in
    /// the order they were made, found where the engine's lookup finds each value; checked
    /// to hold their key and value where `ENTRY_*` say and to link to each other in that
    /// order. Every word read lies inside an element the lookup found.
    fn probe_entry_elements(&self, dictionary: &VarDictionary) -> Result<Vec<*const u8>, String> {
        let mut elements = Vec::new();
        for key in PROBE_KEYS {
            // SAFETY: a live dictionary and key; the lookup of a key it holds does not
            // change it.
            let value = unsafe {
                (self.dictionary_index_const)(dictionary.sys(), key.to_variant().var_sys())
            };
            if value.is_null() {
                return Err("the engine did not find a key it was given".into());
            }
            elements.push(
                value
                    .cast_const()
                    .cast::<u8>()
                    .wrapping_sub(ENTRY_VALUE_OFFSET),
            );
        }
        let int = VariantType::INT.sys() as u64;
        let entries_ok = elements.iter().enumerate().all(|(i, &element)| {
            // SAFETY: on these versions each element is a `HashMapElement<Variant,
            // Variant>` of 64 bytes, and every offset read is below that.
            let word = |offset: usize| unsafe {
                element.wrapping_add(offset).cast::<u64>().read_unaligned()
            };
            let next = elements.get(i + 1).map_or(0, |&e| e as u64);
            let prev = i.checked_sub(1).map_or(0, |p| elements[p] as u64);
            word(ENTRY_NEXT_OFFSET) == next
                && word(ENTRY_PREV_OFFSET) == prev
                && word(ENTRY_KEY_OFFSET) as u32 as u64 == int
                && word(ENTRY_KEY_OFFSET + VALUE_OFFSET) == PROBE_KEYS[i] as u64
                && word(ENTRY_VALUE_OFFSET) as u32 as u64 == int
                && word(ENTRY_VALUE_OFFSET + VALUE_OFFSET) == probe_value_of(PROBE_KEYS[i]) as u64
        });
        if !entries_ok {
            return Err(format!(
                "the entries of a dictionary of three are not laid out as expected (key at \
                 {ENTRY_KEY_OFFSET}, value at {ENTRY_VALUE_OFFSET})"
            ));
        }
        Ok(elements)
    }

    /// The size of the Dictionary at `dictionary` (an engine `Dictionary*`).
    ///
    /// # Safety
    /// `dictionary` must point to a live Dictionary.
    #[inline]
    pub unsafe fn dictionary_size(&self, dictionary: *const c_void) -> usize {
        // SAFETY: a live Dictionary (the caller's promise); `size` returns an int.
        unsafe { self.call0::<i64>(self.dictionary_size, dictionary) }.max(0) as usize
    }

    /// # Safety
    /// `dictionary` must point to a live Dictionary.
    #[inline]
    pub unsafe fn dictionary_is_typed(&self, dictionary: *const c_void) -> bool {
        // SAFETY: a live Dictionary (the caller's promise); `is_typed` returns a bool.
        unsafe { self.call0::<u8>(self.dictionary_is_typed, dictionary) != 0 }
    }

    /// `dictionary[key] = value`, as the engine's `Dictionary::operator[]` does it (the key
    /// checked against a typed dictionary's key type), moving `value` in.
    #[inline]
    pub fn set_entry(&self, dictionary: &mut VarDictionary, key: &Variant, value: Variant) {
        // SAFETY: live dictionary and key; the engine returns the entry's slot (inserting a
        // nil one if new), or a fallback slot when a typed dictionary refuses the key.
        unsafe {
            let slot =
                (self.dictionary_index)(dictionary.sys_mut(), key.var_sys()).cast::<Variant>();
            if !slot.is_null() {
                self.store(slot, value);
            }
        }
    }

    /// Calls `f` with each entry of the Dictionary in `v` (a Variant of that type), in the
    /// dictionary's order, as the engine's `encode_variant` walks it: never by looking a key
    /// up (see the module docs). When the entries' layout is known, in place, following the
    /// list from its head; otherwise over the engine's `keys()` and `values()`, two arrays
    /// it fills from the same list. Returns how many entries `f` was called with.
    ///
    /// The dictionary must not change meanwhile (no script may run in `f`); the walk in
    /// place stops after `limit` entries whatever the list holds.
    pub fn for_each_entry<E>(
        &self,
        v: &Variant,
        limit: usize,
        mut f: impl FnMut(&Variant, &Variant) -> Result<(), E>,
    ) -> Result<usize, E> {
        if !self.entry_layout {
            return self.for_each_entry_of_copy(v, f);
        }
        let mut count = 0;
        // SAFETY: `v` is a live Dictionary, so the pointer inside it is its live block; the
        // probe checked on this engine that the block names the first element of the list
        // at `self.dictionary_head` and that each element holds the next one's address,
        // its key and its value where `ENTRY_*` say. The elements live as long as the
        // unchanged dictionary, and the last one's next address is null.
        unsafe {
            let dictionary = self.internal(v, VariantType::DICTIONARY);
            let block = dictionary.cast::<*const u8>().read();
            let mut element = block.add(self.dictionary_head).cast::<*const u8>().read();
            while !element.is_null() && count < limit {
                f(
                    &*element.add(ENTRY_KEY_OFFSET).cast::<Variant>(),
                    &*element.add(ENTRY_VALUE_OFFSET).cast::<Variant>(),
                )?;
                count += 1;
                element = element.add(ENTRY_NEXT_OFFSET).cast::<*const u8>().read();
            }
        }
        Ok(count)
    }

    /// As [`for_each_entry`](Self::for_each_entry), over the engine's `keys()` and
    /// `values()` of the Dictionary in `v`: arrays that only this walk holds, so a script
    /// that runs in `f` and changes the dictionary changes neither.
    pub fn for_each_entry_of_copy<E>(
        &self,
        v: &Variant,
        mut f: impl FnMut(&Variant, &Variant) -> Result<(), E>,
    ) -> Result<usize, E> {
        // SAFETY: `v` is a Dictionary, viewed while `v` is borrowed.
        let dictionary = unsafe { self.view::<VarDictionary>(v, VariantType::DICTIONARY) };
        let inner = InnerDictionary::from_outer(&dictionary);
        let keys: AnyArray = inner.keys();
        let values: AnyArray = inner.values();
        let count = keys.len().min(values.len());
        for i in 0..count {
            // SAFETY: both arrays hold at least `count` elements and are held here.
            let (key, value) = unsafe {
                (
                    self.array_element(keys.sys(), i),
                    self.array_element(values.sys(), i),
                )
            };
            f(key, value)?;
        }
        Ok(count)
    }
}
