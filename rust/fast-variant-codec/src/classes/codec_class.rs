//! The `FastVariantCodec` class: Godot's `var_to_bytes` / `bytes_to_var` format, written
//! and read by the Rust codec.
//!
//! Threads: GDScript `Thread`s and `WorkerThreadPool` tasks may call one instance at once
//! (the crate is built with gdext's `experimental-threads`). Every method works on
//! `&self` (reached without gdext's per-call binding: see `FastVariantCodec::unbound`),
//! so calls share the instance; so do the property setters, whose values are atomics: a
//! call reads the properties once, when it starts, and a setter never waits for running
//! calls (gdext's `&mut self` setters could fail against another thread's running call).
//! The outcome of the last call (error, decoded size) is kept in atomics and a `Mutex`;
//! with several threads on one instance, "last" is whichever call finished last, so a
//! thread that reads `get_error()` should have its own instance.

use std::any::Any;
use std::borrow::Cow;
use std::cell::Cell;
use std::ops::Deref;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

use godot::builtin::{
    AnyArray, GString, PackedByteArray, PackedStringArray, VarArray, VarDictionary, Variant,
};
use godot::global::Error;
use godot::meta::shape::GodotShape;
use godot::meta::GodotConvert;
use godot::obj::Gd;
use godot::register::property::Var;
use godot::register::{godot_api, GodotClass};
use godot_variant_codec::migrate::{self, Problem, Report};
use godot_variant_codec::{
    DecodeOptions, EncodeOptions, Generation, Precision, MAX_RECURSION_DEPTH,
};

use crate::classes::batch;
use crate::classes::failure::Failure;
use crate::classes::last_failure;
use crate::convert::encode_output;
use crate::convert::variant_builder;
use crate::convert::variant_writer::WriteMode;
use crate::engine::math_types::WIDE_REALS;

/// Godot's binary Variant format — [method @GlobalScope.var_to_bytes] and
/// [method @GlobalScope.bytes_to_var] — byte for byte like the engine, written and read
/// in Rust.
///
/// [method encode] gives the bytes [method @GlobalScope.var_to_bytes] gives (with
/// [member full_objects], those of [method @GlobalScope.var_to_bytes_with_objects]);
/// [method decode] gives the value [method @GlobalScope.bytes_to_var] gives (with
/// [member allow_objects], [method @GlobalScope.bytes_to_var_with_objects]). On bad input
/// they return an empty array or [code]null[/code] and [method get_error] /
/// [method get_error_message] tell what went wrong and at which byte.
///
/// The batch methods work on many values in one call (faster than one call per value;
/// large packed arrays are copied on several threads). Any thread may call the codec; use
/// one instance per thread when you read [method get_error] after a call.
#[derive(GodotClass)]
#[class(base = RefCounted, init)]
pub struct FastVariantCodec {
    /// Encode objects whole — class and stored properties, script as its [code]res://[/code]
    /// path — like [method @GlobalScope.var_to_bytes_with_objects]. Off, an object is
    /// written as its instance id, like [method @GlobalScope.var_to_bytes].
    #[var(set = set_full_objects)]
    full_objects: Shared<AtomicBool>,
    /// Decode whole objects, instantiating their classes, like
    /// [method @GlobalScope.bytes_to_var_with_objects]. Off, bytes holding a whole object
    /// fail with [constant ERR_UNAUTHORIZED]; instance ids decode to
    /// [EncodedObjectAsID] either way. Only allow objects from trusted bytes: instantiating
    /// and setting properties can run any script.
    #[var(set = set_allow_objects)]
    allow_objects: Shared<AtomicBool>,
    /// Deepest nesting of Arrays, Dictionaries and objects written or read, from 0 to
    /// 1024, the engine's limit (which also stops a cyclic Array or Dictionary). Values
    /// outside are clamped.
    #[var(set = set_max_depth)]
    // A literal, as the class reference shows it (checked against the codec's below).
    #[init(val = Shared(AtomicI64::new(1024)))]
    max_depth: Shared<AtomicI64>,
    /// The generation of the format every method writes and reads:
    /// [constant FORMAT_GODOT_4] (the default), [constant FORMAT_GODOT_3] (Godot 3.x's
    /// [code]var2bytes[/code], [code]store_var[/code] files, old clients) or
    /// [constant FORMAT_GODOT_2]. Godot 3 and 2 values are read as their Godot 4
    /// equivalents (a [code]Quat[/code] as a [Quaternion], a [code]PoolRealArray[/code] as
    /// a [PackedFloat32Array], a [code]Spatial[/code] as a [Node3D]); a value the older
    /// format cannot hold (a [Vector2i], a typed Array…) fails to encode, naming where it
    /// sits. Setting any other value fails ([method get_error]) and keeps the old one.
    #[var(set = set_format)]
    #[init(val = Shared(AtomicI64::new(4)))]
    format: Shared<AtomicI64>,
    last_call: LastCall,
}

const _: () = assert!(MAX_RECURSION_DEPTH == 1024, "update max_depth's default");

/// The outcome of the last call.
#[derive(Debug, Default)]
struct LastCall {
    /// Whether `failure_and_report` holds a failure; set only with it locked. While it does not, a
    /// successful call has nothing to clear and leaves the lock alone: a lock and unlock,
    /// two atomic read-modify-writes, are a large share of one small value's `decode`.
    /// Read unlocked, a stale `false` only orders this call's success before the failure
    /// another thread is recording.
    failed: AtomicBool,
    /// Bytes the last successful `decode` used.
    decoded_size: AtomicUsize,
    failure_and_report: Mutex<FailureAndReport>,
}

/// What [`LastCall`] keeps behind its lock.
#[derive(Debug, Default)]
struct FailureAndReport {
    failure: Option<Failure>,
    /// What the last `convert` or `convert_stream` could not carry over.
    conversion_report: PackedStringArray,
}

/// A property's value, which any thread may read or set while calls run (see the module
/// docs); to Godot, a plain `bool` or `int` property.
#[derive(Debug, Default)]
pub struct Shared<A>(A);

/// `Shared<$atomic>` is a Godot property of type `$value`.
macro_rules! shared_property {
    ($atomic:ty, $value:ty) => {
        impl GodotConvert for Shared<$atomic> {
            type Via = $value;
            fn godot_shape() -> GodotShape {
                <$value>::godot_shape()
            }
        }

        impl Var for Shared<$atomic> {
            type PubType = $value;
            fn var_get(field: &Self) -> $value {
                field.0.load(Ordering::Relaxed)
            }
            fn var_set(field: &mut Self, value: $value) {
                field.0.store(value, Ordering::Relaxed)
            }
            fn var_pub_get(field: &Self) -> $value {
                Self::var_get(field)
            }
            fn var_pub_set(field: &mut Self, value: $value) {
                Self::var_set(field, value)
            }
        }
    };
}

shared_property!(AtomicBool, bool);
shared_property!(AtomicI64, i64);

#[godot_api]
impl FastVariantCodec {
    /// [code]true[/code] when this process reads or makes any engine value through the
    /// engine's memory layout, checked at start-up by a probe (see
    /// [method get_engine_layout_report]); [code]false[/code] in safe mode: the
    /// environment variable [code]FAST_VARIANT_CODEC_ENGINE_LAYOUT=off[/code] or the
    /// project setting [code]fast_variant_codec/engine_layout[/code] set to
    /// [code]false[/code], which make every value go through the public GDExtension
    /// interface. The results are the same either way.
    #[func]
    fn uses_engine_layout() -> bool {
        crate::engine::uses_engine_layout()
    }

    /// Per start-up probe of the engine's memory layout, by name, a Dictionary
    /// [code]{"ok": bool, "in_use": bool, "detail": String}[/code]: whether the probe ran
    /// and found the layout expected, whether its fast path is in use, and what it checked
    /// or why it is off (with the fallback used instead). For bug reports.
    #[func]
    fn get_engine_layout_report() -> VarDictionary {
        crate::engine::report()
    }

    /// Sets [member full_objects].
    #[func]
    fn set_full_objects(&self, value: bool) {
        self.full_objects.0.store(value, Ordering::Relaxed);
    }

    /// Sets [member allow_objects].
    #[func]
    fn set_allow_objects(&self, value: bool) {
        self.allow_objects.0.store(value, Ordering::Relaxed);
    }

    /// [member format]: the Godot 4 format ([method @GlobalScope.var_to_bytes]).
    #[constant]
    const FORMAT_GODOT_4: i64 = 4;
    /// [member format]: the Godot 3 format ([code]var2bytes[/code] of Godot 3.x).
    #[constant]
    const FORMAT_GODOT_3: i64 = 3;
    /// [member format]: the Godot 2 format ([code]var2bytes[/code] of Godot 2.x).
    #[constant]
    const FORMAT_GODOT_2: i64 = 2;

    /// Sets [member format]: 4, 3 or 2 ([constant FORMAT_GODOT_4], …). Any other value
    /// fails with [constant ERR_INVALID_PARAMETER] and keeps the format as it was.
    #[func]
    fn set_format(&self, format: i64) {
        match generation_of(format) {
            Ok(_) => self.format.0.store(format, Ordering::Relaxed),
            Err(failure) => self.fail(failure),
        }
    }

    /// Sets [member max_depth], clamped to 0..1024.
    #[func]
    fn set_max_depth(&self, depth: i64) {
        let depth = depth.clamp(0, MAX_RECURSION_DEPTH as i64);
        self.max_depth.0.store(depth, Ordering::Relaxed);
    }

    /// [constant OK] if the last call of the static [method bytes_to_var] or
    /// [method var_to_bytes] on this thread succeeded, else the [enum Error] the engine
    /// gives for the same input. Each thread has its own.
    #[func]
    fn get_last_error() -> Error {
        last_failure::last_failure(|failure| failure.map_or(Error::OK, |f| f.error))
    }

    /// What went wrong in the last call of the static [method bytes_to_var] or
    /// [method var_to_bytes] on this thread, and where (the byte offset); empty after a
    /// success.
    #[func]
    fn get_last_error_message() -> String {
        last_failure::last_failure(|failure| {
            failure.map_or_else(String::new, |f| f.message.clone())
        })
    }

    /// How many bytes the last successful [method decode] used, counted as the engine
    /// counts them ([code]decode_var_size[/code]); 0 before any.
    #[func(gd_self)]
    fn get_decoded_size(this: Gd<Self>) -> i64 {
        Self::unbound(&this, |codec| {
            codec.last_call.decoded_size.load(Ordering::Relaxed) as i64
        })
    }

    /// How many bytes [method encode] would give for [param value], without writing them;
    /// -1 on error: see [method get_error].
    #[func(gd_self)]
    fn encoded_size(this: Gd<Self>, value: Variant) -> i64 {
        Self::unbound(&this, |codec| {
            let result = guarded(|| {
                Ok(encode_output::encoded_size(
                    &value,
                    *codec.encode_options(),
                    codec.write_mode(),
                )?)
            });
            codec.finish(result).map_or(-1, |size| size as i64)
        })
    }

    /// [constant OK] if the last call succeeded, else the [enum Error] the engine gives for
    /// the same input (for example [constant ERR_INVALID_DATA] for truncated bytes).
    #[func(gd_self)]
    fn get_error(this: Gd<Self>) -> Error {
        Self::unbound(&this, |codec| {
            codec
                .failure_and_report()
                .failure
                .as_ref()
                .map_or(Error::OK, |failure| failure.error)
        })
    }

    /// What went wrong in the last call and where, e.g.
    /// [code]"String length 5 exceeds the remaining 4 bytes at byte 4"[/code]; empty if it
    /// succeeded. Batch and stream calls name the value ([code]"value 3: ..."[/code]).
    #[func(gd_self)]
    fn get_error_message(this: Gd<Self>) -> String {
        Self::unbound(&this, |codec| {
            codec
                .failure_and_report()
                .failure
                .as_ref()
                .map_or_else(String::new, |failure| failure.message.clone())
        })
    }

    /// All [param values] as one stream: each as a 32-bit little-endian length, then its
    /// bytes, as [method FileAccess.store_var] and [method StreamPeer.put_var] write them.
    /// Empty on error: see [method get_error].
    #[func(gd_self)]
    fn encode_stream(this: Gd<Self>, values: AnyArray) -> PackedByteArray {
        Self::unbound(&this, |codec| {
            let result = guarded(|| {
                batch::encode_stream(&values, *codec.encode_options(), codec.write_mode())
            });
            codec.finish(result).unwrap_or_default()
        })
    }

    /// Every value of a stream written by [method encode_stream],
    /// [method FileAccess.store_var] or [method StreamPeer.put_var], as
    /// [method FileAccess.get_var] reads them one after another. Empty on error (a value
    /// that is invalid or cut short): see [method get_error].
    #[func(gd_self)]
    fn decode_stream(this: Gd<Self>, bytes: PackedByteArray) -> VarArray {
        Self::unbound(&this, |codec| {
            let result = guarded(|| batch::decode_stream(&bytes, &codec.decode_options()));
            codec.finish(result).unwrap_or_default()
        })
    }

    /// The value in [param bytes], written in format [param from_format], rewritten in
    /// [param to_format] ([constant FORMAT_GODOT_4], [constant FORMAT_GODOT_3],
    /// [constant FORMAT_GODOT_2]): a Godot 3 packet as Godot 4 bytes, say. Objects whole are
    /// read only with [member allow_objects]; [member format] is not used. What the target
    /// format cannot hold is written as [code]null[/code] (a typed container untyped) and
    /// listed by [method get_conversion_report]. Empty on error: see [method get_error].
    #[func(gd_self)]
    fn convert(
        this: Gd<Self>,
        bytes: PackedByteArray,
        from_format: i64,
        to_format: i64,
    ) -> PackedByteArray {
        Self::unbound(&this, |codec| {
            codec.conversion(&bytes, from_format, to_format, migrate::convert_packet)
        })
    }

    /// Like [method convert], for every value of a file written with
    /// [method FileAccess.store_var] (or a stream of [method StreamPeer.put_var]): each
    /// value after its 32-bit length, rewritten and framed the same way. A Godot 3 save
    /// file becomes one Godot 4's [method FileAccess.get_var] reads.
    #[func(gd_self)]
    fn convert_stream(
        this: Gd<Self>,
        bytes: PackedByteArray,
        from_format: i64,
        to_format: i64,
    ) -> PackedByteArray {
        Self::unbound(&this, |codec| {
            codec.conversion(&bytes, from_format, to_format, migrate::convert_frames)
        })
    }

    /// What the last [method convert] or [method convert_stream] could not carry over, one
    /// line each: which value, where in it, and what became of it. Empty when every value
    /// came through whole.
    #[func(gd_self)]
    fn get_conversion_report(this: Gd<Self>) -> PackedStringArray {
        Self::unbound(&this, |codec| {
            codec.failure_and_report().conversion_report.clone()
        })
    }
}

thread_local! {
    /// The instance this thread called last: its instance id and its address (see
    /// [`FastVariantCodec::unbound`]).
    static LAST_INSTANCE: Cell<(i64, *const FastVariantCodec)> =
        const { Cell::new((0, std::ptr::null())) };
}

impl FastVariantCodec {
    /// Runs `work` on the instance `this`, without gdext's binding where it can.
    ///
    /// With `experimental-threads`, every bind locks a mutex and every release locks it
    /// again and wakes a condition variable, a system call each time, a large share of a
    /// small `encode` (see docs/upstream/gdext-per-call-cost.md). That guard protects `&mut`
    /// access, which this class never takes: every method takes `&self`, and the state is
    /// atomics and a `Mutex`. So the instance is bound once per thread and instance, and
    /// its address (which gdext pins for the instance's life) kept for the next calls.
    fn unbound<R>(this: &Gd<Self>, work: impl FnOnce(&Self) -> R) -> R {
        Self::unbound_by_id(this.instance_id_unchecked().to_i64(), || this.bind(), work)
    }

    /// [`unbound`](Self::unbound) for the instance whose id is `id`, which the caller keeps
    /// alive for the call; `bind` binds it (the first call on a thread).
    pub(crate) fn unbound_by_id<G: Deref<Target = Self>, R>(
        id: i64,
        bind: impl FnOnce() -> G,
        work: impl FnOnce(&Self) -> R,
    ) -> R {
        let (last_id, last) = LAST_INSTANCE.get();
        if last_id == id && !last.is_null() {
            // SAFETY: `last` is the pinned address of the instance with this id, taken from
            // a bind on this thread; the caller keeps it alive for the call. Instance ids
            // are not reused (the engine's 39-bit validator would have to wrap), so a freed
            // instance's address is never taken for a live one. Shared access is what the
            // bind would give: no `&mut` borrow of this class exists (see above).
            return work(unsafe { &*last });
        }
        let codec = bind();
        LAST_INSTANCE.set((id, std::ptr::from_ref::<Self>(&*codec)));
        work(&codec)
    }

    /// Records the outcome of a `decode`: its failure, else the bytes it used.
    pub(crate) fn finish_decode(&self, outcome: Result<usize, Failure>) {
        self.record(outcome, |last, &used| {
            last.decoded_size.store(used, Ordering::Relaxed);
        });
    }

    pub(crate) fn write_mode(&self) -> WriteMode {
        WriteMode {
            full_objects: self.full_objects.0.load(Ordering::Relaxed),
        }
    }

    /// This instance's encode options. At the default depth limit they are read from a
    /// static: built for each call, they are read back 16 bytes at a time right after
    /// their narrower writes, a wait that one small value per call notices.
    #[inline(always)]
    pub(crate) fn encode_options(&self) -> Cow<'static, EncodeOptions> {
        match self.static_options_index() {
            Some(generation) => Cow::Borrowed(&ENCODE_AT_DEFAULT_DEPTH[generation]),
            None => Cow::Owned(encode_options_for(self.generation(), self.depth_limit())),
        }
    }

    /// This instance's decode options, from a static at the default depth limit (see
    /// [`encode_options`](Self::encode_options)).
    #[inline(always)]
    pub(crate) fn decode_options(&self) -> Cow<'static, DecodeOptions> {
        let allow_objects = self.allow_objects.0.load(Ordering::Relaxed);
        match self.static_options_index() {
            Some(generation) => {
                Cow::Borrowed(&DECODE_AT_DEFAULT_DEPTH[usize::from(allow_objects)][generation])
            }
            None => Cow::Owned(decode_options_for(
                allow_objects,
                self.generation(),
                self.depth_limit(),
            )),
        }
    }

    /// Where this instance's options are among the statics: the index in
    /// [`Generation::ALL`] of its format, if its depth limit is the default (none are kept
    /// for other limits).
    #[inline(always)]
    fn static_options_index(&self) -> Option<usize> {
        if self.depth_limit() != MAX_RECURSION_DEPTH {
            return None;
        }
        generation_index(self.format.0.load(Ordering::Relaxed))
    }

    /// Runs `convert` on `bytes`, from `from_format` to `to_format`, with this instance's
    /// object and depth settings, recording its report.
    fn conversion<E: Into<Failure>>(
        &self,
        bytes: &PackedByteArray,
        from_format: i64,
        to_format: i64,
        convert: Conversion<E>,
    ) -> PackedByteArray {
        let result = guarded(|| {
            let from = self
                .decode_options()
                .with_generation(generation_of(from_format)?);
            let to = self
                .encode_options()
                .with_generation(generation_of(to_format)?);
            convert(variant_builder::input(bytes), &from, &to).map_err(Into::into)
        });
        let converted = self.finish(result);
        let report = converted.as_ref().map_or_else(Vec::new, |(_, report)| {
            let line = |p: &Problem| GString::from(&p.to_string());
            report.problems.iter().map(line).collect()
        });
        self.failure_and_report().conversion_report = PackedStringArray::from(report);
        converted.map_or_else(PackedByteArray::new, |(bytes, _)| {
            encode_output::packed_bytes(&bytes)
        })
    }

    fn generation(&self) -> Generation {
        // `set_format` keeps it one of the generations.
        Generation::from_number(self.format.0.load(Ordering::Relaxed))
            .unwrap_or(Generation::GODOT_4)
    }

    fn depth_limit(&self) -> usize {
        // `set_max_depth` keeps it in 0..=1024.
        usize::try_from(self.max_depth.0.load(Ordering::Relaxed)).unwrap_or(0)
    }

    fn failure_and_report(&self) -> std::sync::MutexGuard<'_, FailureAndReport> {
        // A panic while the lock was held left nothing half-written worth refusing.
        self.last_call
            .failure_and_report
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Records `failure` as the outcome of the last call.
    #[cold]
    fn fail(&self, failure: Failure) {
        let mut locked = self.failure_and_report();
        locked.failure = Some(failure);
        self.last_call.failed.store(true, Ordering::Relaxed);
    }

    /// Clears the failure of an earlier call after a success.
    #[cold]
    fn clear_failure(&self) {
        let mut locked = self.failure_and_report();
        locked.failure = None;
        self.last_call.failed.store(false, Ordering::Relaxed);
    }

    /// Records the outcome of a batch: the first element that failed (by its index), or
    /// the failure of the whole call (no results then).
    pub(crate) fn finish_batch<T>(
        &self,
        result: Result<(T, Option<Failure>), Failure>,
    ) -> Option<T> {
        let (items, first_failure) = self.finish(result)?;
        self.finish(first_failure.map_or(Ok(()), Err));
        Some(items)
    }

    /// Records the outcome of a call (keeping the decoded size of the last `decode`).
    pub(crate) fn finish<T>(&self, result: Result<T, Failure>) -> Option<T> {
        self.record(result, |_, _| {})
    }

    /// Records the outcome of a call: its failure, else none and what `on_success` keeps
    /// of its result.
    fn record<T>(
        &self,
        result: Result<T, Failure>,
        on_success: impl FnOnce(&LastCall, &T),
    ) -> Option<T> {
        match result {
            Ok(value) => {
                on_success(&self.last_call, &value);
                if self.last_call.failed.load(Ordering::Relaxed) {
                    self.clear_failure();
                }
                Some(value)
            }
            Err(failure) => {
                self.fail(failure);
                None
            }
        }
    }
}

/// An instance's encode options: this build's `real_t` (single precision, as in official
/// engine builds, or double with the `double-precision` feature), its generation and depth
/// limit.
const fn encode_options_for(generation: Generation, max_depth: usize) -> EncodeOptions {
    EncodeOptions::new()
        .with_precision(if WIDE_REALS {
            Precision::Double
        } else {
            Precision::Single
        })
        .with_max_depth(max_depth)
        .with_generation(generation)
}

/// An instance's decode options.
const fn decode_options_for(
    allow_objects: bool,
    generation: Generation,
    max_depth: usize,
) -> DecodeOptions {
    DecodeOptions::new()
        .with_allow_objects(allow_objects)
        .with_max_depth(max_depth)
        .with_generation(generation)
}

/// The index in [`Generation::ALL`] of the generation `format` names.
#[inline(always)]
fn generation_index(format: i64) -> Option<usize> {
    Generation::ALL
        .iter()
        .position(|g| i64::from(g.number()) == format)
}

/// How many generations there are options for.
const GENERATIONS: usize = Generation::ALL.len();

/// An instance's encode options at the default depth limit, by its generation's index
/// in [`Generation::ALL`].
static ENCODE_AT_DEFAULT_DEPTH: [EncodeOptions; GENERATIONS] = {
    let mut table = [EncodeOptions::new(); GENERATIONS];
    let mut i = 0;
    while i < GENERATIONS {
        table[i] = encode_options_for(Generation::ALL[i], MAX_RECURSION_DEPTH);
        i += 1;
    }
    table
};

/// An instance's decode options at the default depth limit, by `allow_objects` (as 0 or
/// 1) and its generation's index in [`Generation::ALL`].
static DECODE_AT_DEFAULT_DEPTH: [[DecodeOptions; GENERATIONS]; 2] = {
    let mut table = [[DecodeOptions::new(); GENERATIONS]; 2];
    let mut i = 0;
    while i < GENERATIONS {
        let generation = Generation::ALL[i];
        table[0][i] = decode_options_for(false, generation, MAX_RECURSION_DEPTH);
        table[1][i] = decode_options_for(true, generation, MAX_RECURSION_DEPTH);
        i += 1;
    }
    table
};

const _: () = assert!(
    Generation::ALL[0].number() == 4,
    "the engine's options are index 0"
);

/// The options of the engine's own `var_to_bytes` (Godot 4, the engine's depth limit,
/// objects as their ids): the static `var_to_bytes`'s, read from the statics.
#[inline(always)]
pub(crate) fn engine_encode_options() -> &'static EncodeOptions {
    &ENCODE_AT_DEFAULT_DEPTH[0]
}

/// The options of the engine's own `bytes_to_var` (Godot 4, the engine's depth limit, no
/// objects): the static `bytes_to_var`'s, read from the statics.
#[inline(always)]
pub(crate) fn engine_decode_options() -> &'static DecodeOptions {
    &DECODE_AT_DEFAULT_DEPTH[0][0]
}

/// A conversion of the crate's `migrate`: bytes, from these options to those, to the
/// converted bytes and their report.
type Conversion<E> = fn(&[u8], &DecodeOptions, &EncodeOptions) -> Result<(Vec<u8>, Report), E>;

/// The generation of a `format` value (4, 3 or 2), else the failure that names it.
pub(crate) fn generation_of(format: i64) -> Result<Generation, Failure> {
    Generation::from_number(format).ok_or_else(|| {
        Failure::new(
            Error::ERR_INVALID_PARAMETER,
            format!("format {format} is not 4, 3 or 2 (FORMAT_GODOT_4, _3, _2)"),
        )
    })
}

/// Runs a call's work, turning a panic (a bug) into a failure, so that the method still
/// returns its empty result and reports the error instead of unwinding into Godot.
pub(crate) fn guarded<T>(work: impl FnOnce() -> Result<T, Failure>) -> Result<T, Failure> {
    catch_unwind(AssertUnwindSafe(work)).unwrap_or_else(|panic| Err(panic_failure(panic)))
}

/// The failure a caught panic (a bug) is reported as.
#[cold]
pub(crate) fn panic_failure(panic: Box<dyn Any + Send>) -> Failure {
    let reason = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_default();
    Failure::new(
        Error::ERR_BUG,
        format!("internal error (please report): {reason}"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_has_its_options_at_the_default_depth() {
        for format in -1..=8 {
            let index = generation_index(format);
            let Some(generation) = Generation::from_number(format) else {
                assert_eq!(index, None, "format {format}");
                continue;
            };
            let i = index.unwrap_or_else(|| panic!("format {format} has no options"));
            let depth = MAX_RECURSION_DEPTH;
            assert_eq!(
                ENCODE_AT_DEFAULT_DEPTH[i],
                encode_options_for(generation, depth)
            );
            for allow in [false, true] {
                assert_eq!(
                    DECODE_AT_DEFAULT_DEPTH[usize::from(allow)][i],
                    decode_options_for(allow, generation, depth)
                );
            }
        }
    }

    #[test]
    fn a_panic_becomes_a_failure() {
        let failure = guarded::<()>(|| panic!("boom")).unwrap_err();
        assert_eq!(failure.error, Error::ERR_BUG);
        assert!(failure.message.ends_with("boom"), "{}", failure.message);
        assert_eq!(guarded(|| Ok(7)), Ok(7));
    }
}
