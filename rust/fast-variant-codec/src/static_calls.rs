//! Layer: class. The static `bytes_to_var` and `var_to_bytes` of `FastVariantCodec`,
//! registered by hand rather than as `#[func]`s.
//!
//! One small value per call (a network packet) is a game's most common call, and for it
//! the call costs as much as the work. A `#[func]` wrapper copies the `PackedByteArray`
//! argument (a reference taken and dropped, two engine calls), guards the call, and moves
//! the result through its layers, 16 bytes at a time: each move of words just written is
//! a wait (see `read::Item`). Registered through the same GDExtension call gdext uses
//! (`classdb_register_extension_class_method`, by gdext's `ClassMethodInfo`), these read
//! the argument where the caller holds it and write the result into the caller's return
//! value. Only public GDExtension calls: a ptrcall's arguments and return value are type
//! pointers, a varcall's Variants; the packed array's bytes are read through the layout
//! the `buffers` probe checked, else copied by gdext.
//!
//! Their editor help is registered here too (gdext builds it from `#[func]`s only).

use std::cell::Cell;
use std::ffi::c_void;

use godot::builtin::{PackedByteArray, StringName, Variant, VariantType};
use godot::obj::EngineEnum;
use godot::register::info::MethodFlags;
use godot::register::private::method::ClassMethodInfo;
use godot::sys::{self, GodotFfi};
use godot_variant_codec::{DecodeOptions, EncodeOptions};

use crate::codec_class::{default_encode_options, guarded, FastVariantCodec};
use crate::cow;
use crate::failure::Failure;
use crate::raw::ffi;
use crate::read;
use crate::write::{encode_into, WriteMode};

thread_local! {
    /// The failure of this thread's last static call; `None` after a success.
    static LAST_FAILURE: Cell<Option<Box<Failure>>> = const { Cell::new(None) };
}

/// Registers both methods on the class (which gdext registered before).
pub fn register() {
    let flags = MethodFlags::NORMAL | MethodFlags::STATIC;
    // SAFETY: the functions read one argument of the type the signature says, as a Variant
    // (call) and as a type pointer (ptrcall), return its return type (as a Variant and into
    // the type pointer), and take no instance, as a static method's do.
    let methods = unsafe {
        [
            ClassMethodInfo::from_signature::<FastVariantCodec, (PackedByteArray,), Variant>(
                StringName::from("bytes_to_var"),
                Some(bytes_to_var_call),
                Some(bytes_to_var_ptrcall),
                flags,
                &["bytes"],
                Vec::new(),
            ),
            ClassMethodInfo::from_signature::<FastVariantCodec, (Variant,), PackedByteArray>(
                StringName::from("var_to_bytes"),
                Some(var_to_bytes_call),
                Some(var_to_bytes_ptrcall),
                flags,
                &["value"],
                Vec::new(),
            ),
        ]
    };
    for method in methods {
        method.register_extension_class_method();
    }
}

/// The error code and message of this thread's last static call (`None`: it succeeded, or
/// there was none).
pub fn last_failure<R>(read: impl FnOnce(Option<&Failure>) -> R) -> R {
    LAST_FAILURE.with(|cell| {
        let failure = cell.take();
        let result = read(failure.as_deref());
        cell.set(failure);
        result
    })
}

/// Records the outcome of a static call for this thread.
fn finish(outcome: Result<(), Failure>) {
    let failure = outcome.err().map(Box::new);
    LAST_FAILURE.with(|cell| cell.set(failure));
}

/// The check of a varcall's arguments: exactly one, of `expected` type unless that is
/// `NIL` (any Variant). Sets `err` and returns `false` when they do not fit.
///
/// # Safety
/// `args` holds `argc` Variant pointers; `err` points to the call's error record.
unsafe fn check_one_argument(
    args: *const sys::GDExtensionConstVariantPtr,
    argc: sys::GDExtensionInt,
    expected: VariantType,
    err: *mut sys::GDExtensionCallError,
) -> bool {
    let (error, argument, expected) = match argc {
        0 => (sys::GDEXTENSION_CALL_ERROR_TOO_FEW_ARGUMENTS, 0, 1),
        1 => {
            // SAFETY: one Variant pointer, the caller's.
            let arg = unsafe { argument_at(args, 0) };
            if expected == VariantType::NIL || ffi().type_of(arg) == expected {
                return true;
            }
            (
                sys::GDEXTENSION_CALL_ERROR_INVALID_ARGUMENT,
                0,
                expected.ord(),
            )
        }
        _ => (sys::GDEXTENSION_CALL_ERROR_TOO_MANY_ARGUMENTS, 0, 1),
    };
    // SAFETY: the caller's error record.
    unsafe {
        (*err).error = error;
        (*err).argument = argument;
        (*err).expected = expected;
    }
    false
}

/// The `index`th Variant of a varcall, borrowed.
///
/// # Safety
/// `args` holds more than `index` pointers to Variants that live through the call.
unsafe fn argument_at<'a>(
    args: *const sys::GDExtensionConstVariantPtr,
    index: usize,
) -> &'a Variant {
    // SAFETY: a gdext `Variant` is the engine's Variant (`repr(transparent)` over its
    // opaque bytes), live and unchanged for the call, as the caller promises.
    unsafe { &*(*args.add(index)).cast::<Variant>() }
}

/// `bytes_to_var` of the PackedByteArray at `bytes` (a type pointer), into the Variant at
/// `ret`.
///
/// # Safety
/// `bytes` points to a live PackedByteArray left as it is during the call; `ret` to a live
/// Variant nothing else reads or writes during it.
unsafe fn bytes_to_var(bytes: *const c_void, ret: *mut Variant) {
    // A static, as in `var_to_bytes`.
    static OPTIONS: DecodeOptions = DecodeOptions::new();
    let outcome = guarded(|| {
        // SAFETY: the caller's array, as it promises.
        let borrowed = unsafe { cow::elements_at::<u8>(bytes) };
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
        // SAFETY: the caller's promise.
        Ok(unsafe { read::decode_into(input, &OPTIONS, ret) }?)
    });
    if outcome.is_err() {
        // SAFETY: the caller's live Variant, replaced (dropping the old one).
        unsafe { *ret = Variant::nil() };
    }
    finish(outcome);
}

/// `var_to_bytes` of `value`, into the PackedByteArray at `ret` (a type pointer).
///
/// # Safety
/// `ret` points to a live PackedByteArray nothing else reads or writes during the call.
unsafe fn var_to_bytes(value: &Variant, ret: *mut c_void) {
    // `encode_into` sizes an empty array. A ptrcall's return value is one when the engine
    // makes the call; any other is emptied first (known by its layout; without it,
    // `encode_into` resizes what it is given).
    // SAFETY: the caller's live array, read.
    if unsafe { cow::elements_at::<u8>(ret) }.is_some_and(|bytes| !bytes.is_empty()) {
        // SAFETY: the caller's live array, swapped with an empty one, which drops it.
        unsafe { PackedByteArray::new().move_return_ptr(ret.cast(), sys::PtrcallType::Standard) };
    }
    // Read from a static: made field by field for each call, the options would be read
    // back 16 bytes at a time right after their narrower writes, a wait each time.
    static OPTIONS: EncodeOptions = default_encode_options();
    let mode = WriteMode {
        full_objects: false,
    };
    // SAFETY: the caller's array, empty, which nothing else uses during the call; left as
    // it is on error.
    let outcome = guarded(|| Ok(unsafe { encode_into(value, &OPTIONS, mode, ret) }?));
    finish(outcome);
}

unsafe extern "C" fn bytes_to_var_ptrcall(
    _method: *mut c_void,
    _instance: sys::GDExtensionClassInstancePtr,
    args: *const sys::GDExtensionConstTypePtr,
    ret: sys::GDExtensionTypePtr,
) {
    // SAFETY: the engine's ptrcall of this signature: one argument, a live PackedByteArray
    // the caller keeps for the call, and a live Variant to return into.
    unsafe { bytes_to_var((*args).cast(), ret.cast()) }
}

unsafe extern "C" fn bytes_to_var_call(
    _method: *mut c_void,
    _instance: sys::GDExtensionClassInstancePtr,
    args: *const sys::GDExtensionConstVariantPtr,
    argc: sys::GDExtensionInt,
    ret: sys::GDExtensionVariantPtr,
    err: *mut sys::GDExtensionCallError,
) {
    let t = VariantType::PACKED_BYTE_ARRAY;
    // SAFETY: the engine's varcall: `argc` Variant pointers and the call's error record.
    if !unsafe { check_one_argument(args, argc, t, err) } {
        return;
    }
    // SAFETY: checked above: one live Variant holding a PackedByteArray, whose array the
    // getter points to; `ret` is the varcall's live Variant.
    unsafe {
        let bytes = ffi().internal(argument_at(args, 0), t);
        bytes_to_var(bytes, ret.cast());
    }
}

unsafe extern "C" fn var_to_bytes_ptrcall(
    _method: *mut c_void,
    _instance: sys::GDExtensionClassInstancePtr,
    args: *const sys::GDExtensionConstTypePtr,
    ret: sys::GDExtensionTypePtr,
) {
    // SAFETY: the engine's ptrcall of this signature: one argument, a live Variant the
    // caller keeps for the call (a Variant's type pointer is the Variant), and a live
    // PackedByteArray to return into.
    unsafe { var_to_bytes(&*(*args).cast::<Variant>(), ret.cast()) }
}

unsafe extern "C" fn var_to_bytes_call(
    _method: *mut c_void,
    _instance: sys::GDExtensionClassInstancePtr,
    args: *const sys::GDExtensionConstVariantPtr,
    argc: sys::GDExtensionInt,
    ret: sys::GDExtensionVariantPtr,
    err: *mut sys::GDExtensionCallError,
) {
    // SAFETY: the engine's varcall: `argc` Variant pointers and the call's error record.
    if !unsafe { check_one_argument(args, argc, VariantType::NIL, err) } {
        return;
    }
    let t = VariantType::PACKED_BYTE_ARRAY;
    let ffi = ffi();
    // SAFETY: checked above: one live Variant. `ret` is the varcall's live Variant, made an
    // empty PackedByteArray (dropping what it held), whose array the getter points to; held
    // here for the call.
    unsafe {
        let value = argument_at(args, 0);
        let ret = ret.cast::<Variant>();
        ffi.make_default_at(ret, t);
        var_to_bytes(value, ffi.internal(&*ret, t).cast_mut());
    }
}

// The editor help of both methods (the class reference's XML, as gdext writes a
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

#[cfg(test)]
mod tests {
    use godot::global::Error;

    use super::*;

    #[test]
    fn a_failure_is_kept_until_the_next_call() {
        finish(Err(Failure::new(
            Error::ERR_FILE_EOF,
            "cut short at byte 4",
        )));
        let read = |f: Option<&Failure>| f.map(|f| (f.error, f.message.clone()));
        let expected = Some((Error::ERR_FILE_EOF, "cut short at byte 4".to_string()));
        assert_eq!(last_failure(read), expected);
        assert_eq!(last_failure(read), expected, "reading leaves it");
        finish(Ok(()));
        assert_eq!(last_failure(read), None);
    }
}
