//! Batches: many values encoded or decoded in one call.
//!
//! The engine values are read and made on the calling thread, one after another (walking
//! them is calls into the engine, which belong to that thread). What runs on the pool is
//! plain memory work: the bulk of packed arrays, copied from their memory into the memory
//! of the PackedByteArrays that are returned, both borrowed on the calling thread for the
//! duration of the call.

use godot::builtin::{AnyArray, PackedByteArray, Variant, VariantType};
use godot::global::Error;
use godot::sys::GodotFfi;
use godot_variant_codec::wire::{memory_of, Plain, Sink, SliceSink};
use godot_variant_codec::{DecodeOptions, EncodeOptions, Encoder};

use crate::failure::Failure;
use crate::parallel;
use crate::raw::ffi;
use crate::read::decode_variant;
use crate::write::{encode_packed, encoded_size, holds_values, VariantWriter, WriteMode};

/// Copies smaller than this are made at once, on the calling thread.
const DEFERRED_COPY_MIN: usize = 4096;

/// Deferred copies adding up to less than this run on the calling thread: below it,
/// handing them to the pool costs more than it saves (measured with bench/bench.gd).
pub const PARALLEL_BATCH_MIN: usize = 256 * 1024;

/// A copy left for later: `len` bytes from `src` to offset `at` of a packet. The source
/// is a packed array's memory in the caller's input array, which nothing can change while
/// the call runs (no script runs during the walk without full objects; the calling thread
/// is in the call until every copy is done).
struct Deferred {
    packet: usize,
    at: usize,
    src: *const u8,
    len: usize,
}

/// Writes into a packet's memory like a [`SliceSink`], but leaves large slices (a packed
/// array's elements) to be copied later, all packets' at once.
struct DeferringSink<'a> {
    out: SliceSink<'a>,
    packet: usize,
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
        if bytes.len() < DEFERRED_COPY_MIN {
            self.out.put_bytes(bytes);
            return;
        }
        let at = self.out.position();
        // Reserve the room (its zeros are overwritten by the deferred copy).
        if self.out.next_bytes(bytes.len()).is_some() {
            self.deferred.push(Deferred {
                packet: self.packet,
                at,
                src: bytes.as_ptr(),
                len: bytes.len(),
            });
        }
    }
    fn put_with(&mut self, n: usize, fill: impl FnOnce(&mut [u8])) {
        self.out.put_with(n, fill)
    }
}

/// A deferred copy ready to run on any thread: its destination and source.
struct Copy<'a> {
    dst: &'a mut [u8],
    src: &'a [u8],
}

/// The bytes of every value of `values`, as `encode` gives them one by one.
pub fn encode(
    values: &AnyArray,
    opts: EncodeOptions,
    mode: WriteMode,
) -> Vec<Result<PackedByteArray, Failure>> {
    let ffi = ffi();
    let count = values.len();
    let mut packets = Vec::with_capacity(count);
    // Without full objects no script runs during the walks, so the packed arrays read
    // stay as they are until the deferred copies are done; with them, a property getter
    // could change one, and every value is written at once.
    let defer = !mode.full_objects;
    let mut deferred = Vec::new();
    for i in 0..count {
        // SAFETY: below the size of the array, which the caller holds for the call.
        let v = unsafe { ffi.array_element(values.sys(), i) };
        let packet = if defer && !holds_values(ffi.type_of(v)) {
            encode_deferring(v, opts, mode, i, &mut deferred)
        } else {
            encode_packed(v, opts, mode)
        };
        packets.push(packet.map_err(Failure::from));
    }
    if !deferred.is_empty() {
        run_deferred(&mut packets, deferred);
    }
    packets
}

fn encode_deferring(
    v: &Variant,
    opts: EncodeOptions,
    mode: WriteMode,
    packet: usize,
    deferred: &mut Vec<Deferred>,
) -> Result<PackedByteArray, crate::write::WriteError> {
    let size = encoded_size(v, opts, mode)?;
    let mut out = PackedByteArray::new();
    out.resize(size);
    let sink = DeferringSink {
        out: SliceSink::new(out.as_mut_slice()),
        packet,
        deferred,
    };
    let mut writer = VariantWriter::new(Encoder::new(sink, opts), mode);
    writer.value(v, 0)?;
    assert!(
        writer.enc.sink().out.is_full(),
        "the value changed while it was written"
    );
    Ok(out)
}

fn run_deferred(packets: &mut [Result<PackedByteArray, Failure>], deferred: Vec<Deferred>) {
    let total: usize = deferred.iter().map(|d| d.len).sum();
    // Each packet's memory not yet handed out, and where it starts in the packet
    // (`as_mut_slice` makes the memory unique, copying it if it is shared).
    let mut memory: Vec<Option<(usize, &mut [u8])>> = packets
        .iter_mut()
        .map(|p| p.as_mut().ok().map(|p| (0, p.as_mut_slice())))
        .collect();
    let mut copies = Vec::with_capacity(deferred.len());
    // Deferred in order: within a packet, by position.
    for d in deferred {
        let Some((base, rest)) = memory[d.packet].take() else {
            continue;
        };
        let (_, rest) = rest.split_at_mut(d.at - base);
        let (dst, after) = rest.split_at_mut(d.len);
        memory[d.packet] = Some((d.at + d.len, after));
        // SAFETY: see `Copy`: the source is the packed array's memory, alive and
        // unchanged for the call.
        let src = unsafe { std::slice::from_raw_parts(d.src, d.len) };
        copies.push(Copy { dst, src });
    }
    if total >= PARALLEL_BATCH_MIN && copies.len() > 1 {
        let copies: Vec<(usize, usize, usize)> = copies
            .into_iter()
            .map(|c| {
                (
                    c.dst.as_mut_ptr() as usize,
                    c.src.as_ptr() as usize,
                    c.src.len(),
                )
            })
            .collect();
        parallel::run(copies.len(), &|i| {
            let (dst, src, len) = copies[i];
            // SAFETY: each copy's destination is its own part of its own packet, and both
            // sides outlive `run` (see `Deferred`).
            unsafe { std::ptr::copy_nonoverlapping(src as *const u8, dst as *mut u8, len) }
        });
    } else {
        for c in copies {
            parallel::copy(c.dst, c.src);
        }
    }
}

/// The value of every packet of `packets`, as `decode` gives them one by one.
pub fn decode(packets: &AnyArray, opts: &DecodeOptions) -> Vec<Result<Variant, Failure>> {
    let ffi = ffi();
    (0..packets.len())
        .map(|i| {
            // SAFETY: below the size of the array, which the caller holds for the call.
            let p = unsafe { ffi.array_element(packets.sys(), i) };
            let t = ffi.type_of(p);
            if t != VariantType::PACKED_BYTE_ARRAY {
                return Err(Failure::new(
                    Error::ERR_INVALID_PARAMETER,
                    format!("a {:?} is not a PackedByteArray", p.get_type()),
                ));
            }
            // SAFETY: `p` is a PackedByteArray, read while the caller holds it.
            let bytes = unsafe { ffi.view::<PackedByteArray>(p, t) };
            decode_variant(bytes.as_slice(), 0, opts)
                .map(|(value, _)| value)
                .map_err(Failure::from)
        })
        .collect()
}
