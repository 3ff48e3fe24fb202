//! `FastVariantCodec`'s per-value methods — `encode`, `decode` and the static
//! `var_to_bytes`, `bytes_to_var` — and the batches `encode_batch`, `decode_batch`,
//! registered by hand rather than as `#[func]`s.
//!
//! One small value per call (a network packet) is a game's most common call, and for it
//! the call costs as much as the work; a batch must never cost more than a call per value,
//! from one value up. A `#[func]` wrapper copies the `PackedByteArray` argument (a
//! reference taken and dropped, two engine calls), guards the call, and moves the result
//! through its layers, 16 bytes at a time: each move of words just written is a wait (see
//! `variant_builder::VariantWords`). An instance method's receiver costs more still: gdext
//! clones the instance's `Gd` and checks its class by name on every call
//! (docs/upstream/gdext-per-call-cost.md). Registered through the same GDExtension call
//! gdext uses (`classdb_register_extension_class_method`, by gdext's `ClassMethodInfo`),
//! these read the argument where the caller holds it, write the result into the caller's
//! return value, and reach the instance through its id (`FastVariantCodec::unbound_by_id`;
//! the id from the object gdext's instance storage holds). Of the engine, only public
//! GDExtension calls: a ptrcall's arguments and return value are type pointers, a
//! varcall's Variants; the packed array's bytes are read through the layout the `buffers`
//! probe checked, else copied by gdext.
//!
//! Their editor help is registered here too (gdext builds it from `#[func]`s only).

use std::ffi::c_void;
use std::mem::ManuallyDrop;

use godot::builtin::{
    AnyArray, Array, PackedByteArray, StringName, VarArray, Variant, VariantType,
};
use godot::global::Error;
use godot::register::info::MethodFlags;
use godot::register::private::method::ClassMethodInfo;
use godot::sys::{self, GodotFfi};
use godot_variant_codec::{DecodeOptions, EncodeOptions};

use crate::classes::batch;
use crate::classes::codec_class::{
    engine_decode_options, engine_encode_options, guarded, FastVariantCodec,
};
use crate::classes::failure::Failure;
use crate::classes::last_failure::finish_static;
use crate::classes::method_calls::{
    bytes_returned, empty_bytes, on_instance, ptrcall, return_array, varcall, Method, Ptrcall,
    Returned, Varcall,
};
use crate::convert::encode_output::encode_into;
use crate::convert::variant_builder;
use crate::convert::variant_writer::WriteMode;
use crate::engine::cow_data;
use crate::engine::ffi::ffi;

/// What the engine is told of the [`Method`] `$m`: its name, signature, defaults and call
/// functions. A macro, not a generic function: gdext's bound on the argument types
/// (`ParamTuple`) is not exported, so it is checked on each method's own types.
macro_rules! method_info {
    ($m:ty) => {
        ClassMethodInfo::from_signature::<
            FastVariantCodec,
            <$m as Method>::Params,
            <$m as Method>::Ret,
        >(
            StringName::from(<$m as Method>::NAME),
            Some(varcall::<$m>),
            Some(ptrcall::<$m>),
            match <$m as Method>::STATIC {
                true => MethodFlags::NORMAL | MethodFlags::STATIC,
                false => MethodFlags::NORMAL,
            },
            <$m as Method>::PARAM_NAMES,
            <$m as Method>::defaults(),
        )
    };
}

/// Registers the six methods on the class (which gdext registered before).
pub fn register() {
    // SAFETY: each method's functions read the arguments its signature says, as Variants
    // (varcall, which checks their count and types) and as type pointers (ptrcall), and
    // return its return type (as a Variant and into the type pointer); the instance
    // methods' functions take the instance of this class the engine passes, the static
    // ones none.
    let methods = unsafe {
        [
            method_info!(Encode),
            method_info!(Decode),
            method_info!(BytesToVar),
            method_info!(VarToBytes),
            method_info!(EncodeBatch),
            method_info!(DecodeBatch),
        ]
    };
    for method in methods {
        method.register_extension_class_method();
    }
}

/// The PackedByteArray inside a varcall's Variant argument (a type pointer to it).
///
/// # Safety
/// `v` holds a PackedByteArray (checked by
/// [`check_arguments`](crate::classes::method_calls::check_arguments)).
unsafe fn bytes_in(v: &Variant) -> *const c_void {
    // SAFETY: as the caller promises; the getter points to the array inside `v`.
    unsafe { ffi().internal(v, VariantType::PACKED_BYTE_ARRAY) }
}

/// Decodes the value at byte `offset` of the PackedByteArray at `bytes` (a type pointer)
/// into the Variant at `ret` (nil on error); returns the bytes it used.
///
/// # Safety
/// `bytes` points to a live PackedByteArray left as it is during the call; `ret` to a live
/// Variant nothing else reads or writes during it.
#[inline(always)]
unsafe fn decode_bytes(
    bytes: *const c_void,
    offset: i64,
    opts: &DecodeOptions,
    ret: *mut Variant,
) -> Result<usize, Failure> {
    // SAFETY: the caller's promises.
    let outcome = unsafe { try_decode_bytes(bytes, offset, opts, ret) };
    if outcome.is_err() {
        // SAFETY: the caller's live Variant, replaced (dropping the old one).
        unsafe { *ret = Variant::nil() };
    }
    outcome
}

/// [`decode_bytes`] but for the nil on error. A function of its own: merged into
/// `decode_bytes` (its early returns made a `match`), the same work compiles to a static
/// int decode ~1 ns slower per call.
///
/// # Safety
/// As [`decode_bytes`].
#[inline(always)]
unsafe fn try_decode_bytes(
    bytes: *const c_void,
    offset: i64,
    opts: &DecodeOptions,
    ret: *mut Variant,
) -> Result<usize, Failure> {
    // Objects decoded whole run their scripts (`_init`, property setters), which may
    // resize or drop the caller's array: the call holds a reference of its own, so that a
    // change copies the array (copy-on-write) and leaves the bytes read here as they were.
    let held;
    let bytes = if opts.allow_objects {
        // SAFETY: a live PackedByteArray, as the caller promises; viewed to be copied (one
        // reference more), the view itself never dropped.
        held = unsafe { ffi().view_at::<PackedByteArray>(bytes) }.clone();
        held.sys().cast::<c_void>()
    } else {
        bytes
    };
    // SAFETY: the caller's array (as it promises), or the one held above.
    let borrowed = unsafe { cow_data::elements_at::<u8>(bytes) };
    // Without the layout, a copy of the array (a reference) that gdext reads.
    let copy;
    let input = match borrowed {
        Some(input) => input,
        None => {
            // SAFETY: a live PackedByteArray, as the caller promises.
            copy = unsafe { PackedByteArray::new_from_sys(bytes.cast()) };
            copy.as_slice()
        }
    };
    let start = usize::try_from(offset)
        .ok()
        .filter(|&start| start <= input.len())
        .ok_or_else(|| {
            Failure::new(
                Error::ERR_INVALID_PARAMETER,
                format!("offset {offset} is outside the {} bytes", input.len()),
            )
        })?;
    // SAFETY: the caller's promise.
    Ok(unsafe { variant_builder::decode_into(&input[start..], start, opts, ret) }?)
}

/// Encodes `value` into the PackedByteArray at `ret` (a type pointer); empty on error.
///
/// # Safety
/// `ret` points to a live PackedByteArray nothing else reads or writes during the call.
unsafe fn encode_value(
    value: &Variant,
    opts: &EncodeOptions,
    mode: WriteMode,
    ret: *mut c_void,
) -> Result<(), Failure> {
    // `encode_into` sizes an empty array. A ptrcall's return value is one when the engine
    // makes the call; any other is emptied first (known by its layout; without it,
    // `encode_into` resizes what it is given).
    // SAFETY: the caller's live array, read.
    if unsafe { cow_data::elements_at::<u8>(ret) }.is_some_and(|bytes| !bytes.is_empty()) {
        // SAFETY: the caller's live array.
        unsafe { empty_bytes(ret) };
    }
    // SAFETY: the caller's array, empty, which nothing else uses during the call.
    let outcome = unsafe { encode_into(value, opts, mode, ret) }.map_err(Failure::from);
    if outcome.is_err() {
        // SAFETY: as above.
        unsafe { empty_bytes(ret) };
    }
    outcome
}

/// The static `var_to_bytes`'s mode: objects as their ids.
const STATIC_MODE: WriteMode = WriteMode {
    full_objects: false,
};

/// The static `bytes_to_var`: see [`decode_bytes`] for `bytes` and `ret`.
///
/// # Safety
/// As [`decode_bytes`].
#[inline(always)]
unsafe fn bytes_to_var(bytes: *const c_void, ret: *mut Variant) {
    // SAFETY: the caller's promise.
    finish_static(unsafe { decode_bytes(bytes, 0, engine_decode_options(), ret) });
}

/// The static `var_to_bytes`: see [`encode_value`] for `ret`.
///
/// # Safety
/// As [`encode_value`].
unsafe fn var_to_bytes(value: &Variant, ret: *mut c_void) {
    // SAFETY: the caller's promise.
    finish_static(unsafe { encode_value(value, engine_encode_options(), STATIC_MODE, ret) });
}

/// `decode` on `instance`, with its options, recording its outcome: see [`decode_bytes`].
///
/// # Safety
/// As [`on_instance`] and [`decode_bytes`].
unsafe fn decode(
    instance: sys::GDExtensionClassInstancePtr,
    bytes: *const c_void,
    offset: i64,
    ret: *mut Variant,
) {
    // SAFETY: the caller's promises.
    unsafe {
        on_instance(instance, |codec| {
            let opts = codec.decode_options();
            codec.finish_decode(decode_bytes(bytes, offset, &opts, ret));
        });
    }
}

/// `encode` on `instance`, with its options, recording its outcome: see [`encode_value`].
///
/// # Safety
/// As [`on_instance`] and [`encode_value`].
unsafe fn encode(instance: sys::GDExtensionClassInstancePtr, value: &Variant, ret: *mut c_void) {
    // SAFETY: the caller's promises.
    unsafe {
        on_instance(instance, |codec| {
            let (opts, mode) = (codec.encode_options(), codec.write_mode());
            codec.finish(encode_value(value, &opts, mode, ret));
        });
    }
}

/// The Array at `array` (a type pointer to an engine Array), viewed: not owned, never
/// dropped.
///
/// # Safety
/// `array` points to a live Array left as it is during the call.
unsafe fn array_at(array: *const c_void) -> ManuallyDrop<VarArray> {
    // SAFETY: as the caller promises.
    unsafe { ffi().view_at::<VarArray>(array) }
}

/// The Array inside a varcall's Variant argument, viewed (see [`array_at`]).
///
/// # Safety
/// `v` holds an Array (checked by
/// [`check_arguments`](crate::classes::method_calls::check_arguments)).
unsafe fn array_in(v: &Variant) -> ManuallyDrop<VarArray> {
    // SAFETY: as the caller promises; the getter points to the array inside `v`.
    unsafe { array_at(ffi().internal(v, VariantType::ARRAY)) }
}

/// What an instance method taking one Array does with it: see [`encode_batch`].
type ArrayWork = unsafe fn(sys::GDExtensionClassInstancePtr, &AnyArray, Returned);

/// A varcall of an instance method taking one Array, done by `work`.
///
/// # Safety
/// A varcall of such a method, its argument checked to be an Array.
unsafe fn array_varcall(call: Varcall, work: ArrayWork) {
    // SAFETY: the call's live Array argument and return Variant, on its instance.
    unsafe {
        let array = array_in(call.arg(0));
        work(call.instance, &array, Returned::Variant(call.ret.cast()));
    }
}

/// A ptrcall of an instance method taking one Array, done by `work`.
///
/// # Safety
/// A ptrcall of such a method.
unsafe fn array_ptrcall(call: Ptrcall, work: ArrayWork) {
    // SAFETY: the call's live Array argument and return value, on its instance.
    unsafe {
        let array = array_at(call.arg(0));
        work(call.instance, &array, Returned::Typed(call.ret.cast()));
    }
}

/// `encode_batch` on `instance`, with its options, recording its outcome.
///
/// # Safety
/// As [`on_instance`]; `values` is left as it is during the call; `ret` is the call's
/// live return value (a Variant, or an `Array[PackedByteArray]`).
unsafe fn encode_batch(
    instance: sys::GDExtensionClassInstancePtr,
    values: &AnyArray,
    ret: Returned,
) {
    // SAFETY: the caller's promises.
    unsafe {
        on_instance(instance, |codec| {
            let result = guarded(|| {
                Ok(batch::encode(
                    values,
                    *codec.encode_options(),
                    codec.write_mode(),
                ))
            });
            return_array(codec.finish_batch(result).unwrap_or_default(), ret);
        });
    }
}

/// `decode_batch` on `instance`, with its options, recording its outcome.
///
/// # Safety
/// As [`on_instance`]; `packets` is left as it is during the call; `ret` is the call's
/// live return value (a Variant, or an Array).
unsafe fn decode_batch(
    instance: sys::GDExtensionClassInstancePtr,
    packets: &AnyArray,
    ret: Returned,
) {
    // SAFETY: the caller's promises.
    unsafe {
        on_instance(instance, |codec| {
            let result = guarded(|| Ok(batch::decode(packets, &codec.decode_options())));
            return_array(codec.finish_batch(result).unwrap_or_default(), ret);
        });
    }
}

/// The static `bytes_to_var(bytes: PackedByteArray) -> Variant`.
struct BytesToVar;

impl Method for BytesToVar {
    const NAME: &'static str = "bytes_to_var";
    type Params = (PackedByteArray,);
    const PARAM_NAMES: &'static [&'static str] = &["bytes"];
    type Ret = Variant;
    const STATIC: bool = true;

    unsafe fn varcall(call: Varcall) {
        // SAFETY: see `Method`.
        unsafe { bytes_to_var(bytes_in(call.arg(0)), call.ret.cast()) }
    }

    unsafe fn ptrcall(call: Ptrcall) {
        // SAFETY: see `Method`.
        unsafe { bytes_to_var(call.arg(0), call.ret.cast()) }
    }
}

/// The static `var_to_bytes(value: Variant) -> PackedByteArray`.
struct VarToBytes;

impl Method for VarToBytes {
    const NAME: &'static str = "var_to_bytes";
    type Params = (Variant,);
    const PARAM_NAMES: &'static [&'static str] = &["value"];
    type Ret = PackedByteArray;
    const STATIC: bool = true;

    unsafe fn varcall(call: Varcall) {
        // SAFETY: see `Method`.
        unsafe { var_to_bytes(call.arg(0), bytes_returned(call.ret)) }
    }

    unsafe fn ptrcall(call: Ptrcall) {
        // SAFETY: see `Method`.
        unsafe { var_to_bytes(&*call.arg::<Variant>(0), call.ret.cast()) }
    }
}

/// `decode(bytes: PackedByteArray, offset: int = 0) -> Variant`.
struct Decode;

impl Decode {
    /// The offset of a call that gives none.
    const DEFAULT_OFFSET: i64 = 0;
}

impl Method for Decode {
    const NAME: &'static str = "decode";
    type Params = (PackedByteArray, i64);
    const PARAM_NAMES: &'static [&'static str] = &["bytes", "offset"];
    type Ret = Variant;
    const REQUIRED: usize = 1;
    const STATIC: bool = false;

    fn defaults() -> Vec<Variant> {
        vec![Variant::from(Self::DEFAULT_OFFSET)]
    }

    unsafe fn varcall(call: Varcall) {
        // SAFETY: see `Method`.
        unsafe {
            let offset = match call.argc {
                1 => Self::DEFAULT_OFFSET,
                _ => ffi().read::<i64>(call.arg(1), VariantType::INT),
            };
            decode(
                call.instance,
                bytes_in(call.arg(0)),
                offset,
                call.ret.cast(),
            );
        }
    }

    unsafe fn ptrcall(call: Ptrcall) {
        // SAFETY: see `Method`.
        unsafe {
            let offset = call.arg::<i64>(1).read();
            decode(call.instance, call.arg(0), offset, call.ret.cast());
        }
    }
}

/// `encode(value: Variant) -> PackedByteArray`.
struct Encode;

impl Method for Encode {
    const NAME: &'static str = "encode";
    type Params = (Variant,);
    const PARAM_NAMES: &'static [&'static str] = &["value"];
    type Ret = PackedByteArray;
    const STATIC: bool = false;

    unsafe fn varcall(call: Varcall) {
        // SAFETY: see `Method`.
        unsafe { encode(call.instance, call.arg(0), bytes_returned(call.ret)) }
    }

    unsafe fn ptrcall(call: Ptrcall) {
        // SAFETY: see `Method`.
        unsafe { encode(call.instance, &*call.arg::<Variant>(0), call.ret.cast()) }
    }
}

/// `encode_batch(values: Array) -> Array[PackedByteArray]`.
struct EncodeBatch;

impl Method for EncodeBatch {
    const NAME: &'static str = "encode_batch";
    type Params = (AnyArray,);
    const PARAM_NAMES: &'static [&'static str] = &["values"];
    type Ret = Array<PackedByteArray>;
    const STATIC: bool = false;

    unsafe fn varcall(call: Varcall) {
        // SAFETY: see `Method`.
        unsafe { array_varcall(call, encode_batch) }
    }

    unsafe fn ptrcall(call: Ptrcall) {
        // SAFETY: see `Method`.
        unsafe { array_ptrcall(call, encode_batch) }
    }
}

/// `decode_batch(packets: Array) -> Array`.
struct DecodeBatch;

impl Method for DecodeBatch {
    const NAME: &'static str = "decode_batch";
    type Params = (AnyArray,);
    const PARAM_NAMES: &'static [&'static str] = &["packets"];
    type Ret = VarArray;
    const STATIC: bool = false;

    unsafe fn varcall(call: Varcall) {
        // SAFETY: see `Method`.
        unsafe { array_varcall(call, decode_batch) }
    }

    unsafe fn ptrcall(call: Ptrcall) {
        // SAFETY: see `Method`.
        unsafe { array_ptrcall(call, decode_batch) }
    }
}

// The editor help of the six methods (the class reference's XML, as gdext writes a
// `#[func]`'s).
godot::sys::shard_add!(godot::private::__GODOT_DOCS_REGISTRY;
    godot::private::DocsShard::new::<FastVariantCodec>(godot::private::DocsItem::InherentImpl(
        godot::private::InherentImplDocs {
            methods_xml: METHODS_XML,
            signals_xml: "",
            constants_xml: "",
        }
    ))
);

const METHODS_XML: &str = r#"
<method name="encode">
  <return type="PackedByteArray" />
  <param index="0" name="value" type="Variant" />
  <description>
  The bytes of [param value], as [method @GlobalScope.var_to_bytes] (or, with [member full_objects], [method @GlobalScope.var_to_bytes_with_objects]) writes them. Empty on error: see [method get_error].
  </description>
</method>
<method name="decode">
  <return type="Variant" />
  <param index="0" name="bytes" type="PackedByteArray" />
  <param index="1" name="offset" type="int" default="0" />
  <description>
  The value held by [param bytes] from byte [param offset] on, as [method @GlobalScope.bytes_to_var] (or, with [member allow_objects], [method @GlobalScope.bytes_to_var_with_objects]) reads it; bytes after it are ignored. [code]null[/code] on error: see [method get_error]. On success, [method get_decoded_size] tells how many bytes the value took.
  </description>
</method>
<method name="encode_batch">
  <return type="PackedByteArray[]" />
  <param index="0" name="values" type="Array" />
  <description>
  [method encode] for every value of [param values], in one call: the same bytes, in the same order. A value that fails gives an empty array; [method get_error] then tells about the first that failed.
  </description>
</method>
<method name="decode_batch">
  <return type="Array" />
  <param index="0" name="packets" type="Array" />
  <description>
  [method decode] for every packet of [param packets] (each a [PackedByteArray]): the same values, in the same order. A packet that fails gives [code]null[/code]; [method get_error] then tells about the first that failed.
  </description>
</method>
<method name="bytes_to_var" qualifiers="static">
  <return type="Variant" />
  <param index="0" name="bytes" type="PackedByteArray" />
  <description>
  The value held at the start of [param bytes], as [method @GlobalScope.bytes_to_var] reads it (objects not decoded, the Godot 4 format, nesting up to 1024 levels); bytes after it are ignored. [code]null[/code] on error: see [method get_last_error].[br][br]A static method: no instance, none of its properties, and a cheaper call than [method decode], for decoding one small value (a network packet) per call.
  </description>
</method>
<method name="var_to_bytes" qualifiers="static">
  <return type="PackedByteArray" />
  <param index="0" name="value" type="Variant" />
  <description>
  The bytes of [param value], as [method @GlobalScope.var_to_bytes] writes them (objects as their instance ids, the Godot 4 format). Empty on error: see [method get_last_error].[br][br]A static method: no instance, none of its properties, and a cheaper call than [method encode], for encoding one small value per call.
  </description>
</method>
"#;
