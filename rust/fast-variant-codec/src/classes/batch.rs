//! Many values in one call: batches (a packet per value) and
//! streams (length-prefixed values, as `store_var` / `put_var` write them).
//!
//! The engine values are read and made on the calling thread, one after another (walking
//! them is calls into the engine, which belong to that thread). What is shared with the
//! pool is plain memory work: the bulk of packed arrays, copied from their memory into the
//! memory of the PackedByteArrays that are returned, both borrowed on the calling thread
//! for the duration of the call.
//!
//! Results go straight into the returned array: its elements, made once, are filled in
//! place.

use std::borrow::Cow;

use godot::builtin::{AnyArray, Array, PackedByteArray, VarArray, VariantType};
use godot::global::Error;
use godot::sys::GodotFfi;
use godot_variant_codec::stream::{frame_at, FrameError, FrameErrorKind};
use godot_variant_codec::wire::{memory_of, Plain, Sink, SliceSink};
use godot_variant_codec::{DecodeOptions, EncodeOptions, Encoder};

use crate::classes::failure::Failure;
use crate::convert::encode_output::{self, encode_with, is_noted, Filled, GatherSink, OutSink};
use crate::convert::variant_builder::{ReadErrorKind, VariantBuilder};
use crate::convert::variant_writer::{holds_values, VariantWriter, WriteMode};
use crate::engine::cow_data;
use crate::engine::ffi::ffi;
use crate::engine::parallel;

/// Deferred copies adding up to less than this run on the calling thread alone: below it,
/// sharing them with the pool costs more than it saves (guarded by bench.gd's rows
/// "`encode_batch` of N PackedFloat32Arrays of 16k floats", which must stay ≥ 1.0×).
pub const PARALLEL_BATCH_MIN: usize = 1 << 20;

/// A copy left for later: `len` bytes from `src` to `dst`. The source is a packed array's
/// memory in the caller's input array, which nothing can change while the call runs (no
/// script runs during the walks without full objects, and the calling thread is in the
/// call until every copy is done); the destination, a part of a packet's memory that
/// nothing else writes.
struct Deferred {
    dst: *mut u8,
    src: *const u8,
    len: usize,
}

/// Writes into a packet's memory like a [`SliceSink`], but leaves large slices (a packed
/// array's elements) to be copied later, all packets' at once.
struct DeferringSink<'a> {
    out: SliceSink<'a>,
    deferred: &'a mut Vec<Deferred>,
}

impl Sink for DeferringSink<'_> {
    fn position(&self) -> usize {
        self.out.position()
    }
    fn put_bytes(&mut self, bytes: &[u8]) {
        self.out.put_bytes(bytes)
    }
    fn put_zeros(&mut self, n: usize) {
        self.out.put_zeros(n)
    }
    fn put<T: Plain>(&mut self, value: T) {
        self.out.put(value)
    }
    fn put_slice<T: Plain>(&mut self, items: &[T]) {
        let bytes = memory_of(items);
        if !is_noted(bytes.len()) {
            self.out.put_bytes(bytes);
        } else if let Some(dst) = self.out.next_bytes(bytes.len()) {
            // The room is reserved now and filled by the deferred copy.
            self.deferred.push(Deferred {
                dst: dst.as_mut_ptr(),
                src: bytes.as_ptr(),
                len: bytes.len(),
            });
        }
    }
    fn put_with(&mut self, n: usize, fill: impl FnOnce(&mut [u8])) {
        self.out.put_with(n, fill)
    }
}

impl Filled for DeferringSink<'_> {
    fn is_full(&self) -> bool {
        self.out.is_full()
    }
}

/// `array` itself when no script runs during the call, else a shallow copy that only the
/// call holds: property getters run for objects written whole, and `_init` and setters for
/// objects decoded whole, and such a script may resize the caller's array or drop its
/// elements. The copy holds a reference to each element, so the values it walks stay
/// alive and in place however the script changes the caller's array.
fn held_for_call(array: &AnyArray, scripts_run: bool) -> Cow<'_, AnyArray> {
    if scripts_run {
        Cow::Owned(array.duplicate_shallow())
    } else {
        Cow::Borrowed(array)
    }
}

/// The bytes of every value of `values` (as `encode` gives them one by one), and the
/// first failure: a value that fails gives an empty packet.
pub fn encode(
    values: &AnyArray,
    opts: EncodeOptions,
    mode: WriteMode,
) -> (Array<PackedByteArray>, Option<Failure>) {
    let ffi = ffi();
    let values = held_for_call(values, mode.full_objects);
    let count = values.len();
    let mut out = Array::<PackedByteArray>::new();
    // SAFETY: a new array held only here; typed, it is filled with empty PackedByteArrays.
    unsafe { ffi.array_resize(out.sys_mut(), count) };
    // Without full objects no script runs during the walks, so the packed arrays read stay
    // as they are until the deferred copies are done; with them, a property getter could
    // change one, and every value is written at once.
    let defer = !mode.full_objects;
    let mut deferred = Vec::new();
    let mut first_failure = None;
    for i in 0..count {
        // SAFETY: below the sizes of both arrays, which are held for the call (`values`
        // changed by no script: see `held_for_call`); the packet is the engine
        // PackedByteArray in the output array's element, changed only here.
        let (v, packet) = unsafe {
            let v = ffi.array_element(values.sys(), i);
            let slot = ffi.array_element(out.sys(), i);
            (
                v,
                ffi.internal(slot, VariantType::PACKED_BYTE_ARRAY)
                    .cast_mut(),
            )
        };
        // SAFETY: (the memory) the packet's, empty until sized here once, then written
        // entirely by `encode_with` (or emptied again on failure).
        let memory = |size| unsafe { ffi.sized_bytes(packet, size) };
        let written = if defer && !holds_values(ffi.type_of(v)) {
            encode_with(v, opts, mode, memory, |out| DeferringSink {
                out: SliceSink::new(out),
                deferred: &mut deferred,
            })
        } else {
            encode_with(v, opts, mode, memory, OutSink::new)
        };
        if let Err(e) = written {
            // SAFETY: as above.
            unsafe { ffi.resize_bytes(packet, 0) };
            first_failure.get_or_insert_with(|| Failure::from(e).of_element(i));
        }
    }
    if let Err(panic) = run_deferred(&deferred) {
        // Some packets may be left unfilled: none is returned, and the call fails.
        return (Array::new(), Some(panic.into()));
    }
    (out, first_failure)
}

fn run_deferred(deferred: &[Deferred]) -> Result<(), parallel::PoolPanic> {
    let total: usize = deferred.iter().map(|d| d.len).sum();
    let copy = |d: &Deferred| {
        // SAFETY: see `Deferred`: disjoint destinations, sources alive and unchanged.
        unsafe { std::ptr::copy_nonoverlapping(d.src, d.dst, d.len) }
    };
    if total >= PARALLEL_BATCH_MIN && deferred.len() > 1 {
        let jobs: Vec<(usize, usize, usize)> = deferred
            .iter()
            .map(|d| (d.dst as usize, d.src as usize, d.len))
            .collect();
        parallel::run(jobs.len(), &|i| {
            let (dst, src, len) = jobs[i];
            copy(&Deferred {
                dst: dst as *mut u8,
                src: src as *const u8,
                len,
            })
        })
    } else {
        deferred.iter().for_each(copy);
        Ok(())
    }
}

/// The value of every packet of `packets` (as `decode` gives them one by one), and the
/// first failure: a packet that fails gives null.
pub fn decode(packets: &AnyArray, opts: &DecodeOptions) -> (VarArray, Option<Failure>) {
    let ffi = ffi();
    let packets = held_for_call(packets, opts.allow_objects);
    let count = packets.len();
    let mut out = VarArray::new();
    // SAFETY: a new untyped array held only here: nils. Its elements lie one after the
    // other when `array_slots` finds them, and it is not resized again.
    let slots = unsafe {
        ffi.array_resize(out.sys_mut(), count);
        ffi.array_slots(out.sys_mut(), count)
    };
    // SAFETY: `count` is the size of the array, held unchanged for the call (no script
    // runs, or it is the call's own copy: see `held_for_call`).
    let in_place = unsafe { ffi.array_elements(packets.sys(), count) };
    let mut first_failure = None;
    let mut builder = VariantBuilder::new();
    for i in 0..count {
        let p = match in_place {
            Some(packets) => &packets[i],
            // SAFETY: below the size of the array, held unchanged for the call.
            None => unsafe { ffi.array_element(packets.sys(), i) },
        };
        let t = ffi.type_of(p);
        let value = if t == VariantType::PACKED_BYTE_ARRAY {
            // SAFETY: `p` is a PackedByteArray, read while the array holding it is held
            // unchanged: when a script may run, that array is the call's own copy, whose
            // reference keeps the bytes as they were (copy-on-write).
            let bytes = unsafe { ffi.view::<PackedByteArray>(p, t) };
            builder
                .decode(cow_data::elements_of(&bytes), 0, opts)
                .map(|(value, _)| value)
                .map_err(Failure::from)
        } else {
            Err(Failure::new(
                Error::ERR_INVALID_PARAMETER,
                format!("a {:?} is not a PackedByteArray", p.get_type()),
            ))
        };
        match value {
            // SAFETY: below the size of the new untyped array, held only here; `slots`,
            // when found, is its first element.
            Ok(value) => unsafe {
                match slots {
                    Some(slots) => ffi.store(slots.add(i), value),
                    None => ffi.set_array_element(out.sys_mut(), i, value),
                }
            },
            Err(failure) => {
                first_failure.get_or_insert_with(|| failure.of_element(i));
            }
        }
    }
    (out, first_failure)
}

/// Every value of `values` framed one after another, as `store_var` / `put_var` write
/// them: each its 32-bit length, then its bytes.
pub fn encode_stream(
    values: &AnyArray,
    opts: EncodeOptions,
    mode: WriteMode,
) -> Result<PackedByteArray, Failure> {
    let ffi = ffi();
    let values = held_for_call(values, mode.full_objects);
    encode_output::with_buffer(|stream| {
        let value_at = |i| {
            // SAFETY: below the size of the array, held unchanged for the call (see
            // `held_for_call`).
            unsafe { ffi.array_element(values.sys(), i) }
        };
        // Large packed arrays are copied once, into the result; with full objects, each
        // held by a reference until then (see `VariantWriter::into_held`).
        let mut gather = GatherSink::new(stream);
        let mut held = Vec::new();
        for i in 0..values.len() {
            gather
                .frame(|gather| {
                    let mut writer = VariantWriter::new(Encoder::new(gather, opts), mode);
                    writer.value(value_at(i), 0).map_err(Failure::from)?;
                    held.append(&mut writer.into_held());
                    Ok(())
                })
                .map_err(|e: Failure| e.of_element(i))?;
        }
        let bytes = gather.packed_bytes();
        drop(held);
        Ok(bytes)
    })
}

/// Every value of a stream (see [`encode_stream`]), read one after another as
/// `FileAccess.get_var` reads them; the first value that is invalid or cut short fails the
/// whole stream. `bytes` is the call's own reference (gdext's argument, one reference
/// more), so a script run by an object decoded whole cannot change what is read.
pub fn decode_stream(bytes: &PackedByteArray, opts: &DecodeOptions) -> Result<VarArray, Failure> {
    let ffi = ffi();
    let data = cow_data::elements_of(bytes);
    let mut values = Vec::new();
    let mut builder = VariantBuilder::new();
    let mut offset = 0;
    while offset < data.len() {
        let index = values.len();
        let frame_error = |kind| Failure::from(FrameError::new(index, offset, kind));
        let frame = frame_at(data, offset).map_err(frame_error)?;
        let (value, _) = builder
            .decode(frame.body, frame.body_offset, opts)
            .map_err(|e| match e.into_kind() {
                ReadErrorKind::Format(e) => frame_error(FrameErrorKind::Invalid(e)),
                ReadErrorKind::Value(e) => Failure::from(e).of_element(index),
            })?;
        values.push(value);
        offset += frame.len;
    }
    let mut array = VarArray::new();
    // SAFETY: a new untyped array held only here, sized to the values, each stored once.
    unsafe {
        ffi.array_resize(array.sys_mut(), values.len());
        for (i, value) in values.into_iter().enumerate() {
            ffi.set_array_element(array.sys_mut(), i, value);
        }
    }
    Ok(array)
}
