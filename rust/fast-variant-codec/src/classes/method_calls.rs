//! How the engine calls the methods [`direct_calls`](super::direct_calls) registers: a
//! method's arguments and return type ([`Method`], [`Slot`], [`Returnable`], [`Params`]),
//! a varcall's and a ptrcall's arguments and return value ([`Varcall`], [`Ptrcall`],
//! [`Returned`]), the check of a varcall's arguments, the instance reached through its id,
//! and a panic caught before it reaches the engine.

use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};

use godot::builtin::{AnyArray, Array, PackedByteArray, Variant, VariantType};
use godot::global::godot_error;
use godot::meta::ToGodot;
use godot::obj::EngineEnum;
use godot::private::{as_storage, Storage};
use godot::sys::{self, GodotFfi};

use crate::classes::codec_class::{panic_failure, FastVariantCodec};
use crate::classes::failure::Failure;
use crate::classes::last_failure::finish_static;
use crate::engine::ffi::ffi;

/// The check of a varcall's arguments: `min..=types.len()` of them, each of its type in
/// `types` unless that is `NIL` (any Variant). Sets `err` and returns `false` when they do
/// not fit.
///
/// # Safety
/// `args` holds `argc` Variant pointers; `err` points to the call's error record.
pub(super) unsafe fn check_arguments(
    args: *const sys::GDExtensionConstVariantPtr,
    argc: sys::GDExtensionInt,
    min: usize,
    types: &[VariantType],
    err: *mut sys::GDExtensionCallError,
) -> bool {
    let count = usize::try_from(argc).unwrap_or(0);
    let (error, argument, expected) = if count < min {
        (sys::GDEXTENSION_CALL_ERROR_TOO_FEW_ARGUMENTS, 0, min as i32)
    } else if count > types.len() {
        (
            sys::GDEXTENSION_CALL_ERROR_TOO_MANY_ARGUMENTS,
            0,
            types.len() as i32,
        )
    } else {
        let wrong = (0..count).find(|&i| {
            // SAFETY: `i` is below `count`, the number of the caller's Variant pointers.
            let arg = unsafe { argument_at(args, i) };
            types[i] != VariantType::NIL && ffi().type_of(arg) != types[i]
        });
        match wrong {
            None => return true,
            Some(i) => (
                sys::GDEXTENSION_CALL_ERROR_INVALID_ARGUMENT,
                i as i32,
                types[i].ord(),
            ),
        }
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
pub(super) unsafe fn argument_at<'a>(
    args: *const sys::GDExtensionConstVariantPtr,
    index: usize,
) -> &'a Variant {
    // SAFETY: a gdext `Variant` is the engine's Variant (`repr(transparent)` over its
    // opaque bytes), live and unchanged for the call, as the caller promises.
    unsafe { &*(*args.add(index)).cast::<Variant>() }
}

/// The instance a call is made on, reached through its id (see
/// [`FastVariantCodec::unbound_by_id`]), for `work`.
///
/// # Safety
/// `instance` is the instance pointer the engine passes with a call of one of this
/// class's methods, on a live instance.
pub(super) unsafe fn on_instance<R>(
    instance: sys::GDExtensionClassInstancePtr,
    work: impl FnOnce(&FastVariantCodec) -> R,
) -> R {
    // SAFETY: the engine passes the instance pointer gdext made for this class's instance.
    let storage = unsafe { as_storage::<FastVariantCodec>(instance) };
    // SAFETY: the live object the instance belongs to.
    let id = unsafe { sys::interface_fn!(object_get_instance_id)(storage.base().obj_sys()) };
    FastVariantCodec::unbound_by_id(id as i64, || storage.get(), work)
}

/// Makes the PackedByteArray at `ret` (a type pointer) empty, dropping what it held.
///
/// # Safety
/// `ret` points to a live PackedByteArray nothing else reads or writes during the call.
pub(super) unsafe fn empty_bytes(ret: *mut c_void) {
    // SAFETY: the caller's live array, swapped with an empty one, which drops it.
    unsafe { PackedByteArray::new().move_return_ptr(ret.cast(), sys::PtrcallType::Standard) };
}

/// A varcall's return Variant made an empty PackedByteArray (dropping what it held), for
/// an encoding to fill: the array inside it, as a type pointer.
///
/// # Safety
/// `ret` is the varcall's live return Variant.
pub(super) unsafe fn bytes_returned(ret: sys::GDExtensionVariantPtr) -> *mut c_void {
    let t = VariantType::PACKED_BYTE_ARRAY;
    let ffi = ffi();
    // SAFETY: the caller's Variant, made there (not moved: see `Ffi::make_default_at`),
    // whose array the getter points to.
    unsafe {
        let ret = ret.cast::<Variant>();
        ffi.make_default_at(ret, t);
        ffi.internal(&*ret, t).cast_mut()
    }
}

/// One of the methods registered here: its arguments and what its calls do. The engine
/// calls [`varcall`] and [`ptrcall`], which call these.
///
/// A ptrcall passes each argument and the return value as type pointers (a Variant's is
/// the Variant; a PackedByteArray's the array; an int's an `int64_t`), which the caller
/// keeps alive for the call; a varcall passes Variants, whose count and types
/// [`check_arguments`] checks first, and a live return Variant. The instance methods are
/// called on a live instance of this class, as the engine passes it.
pub(super) trait Method {
    /// Its name in the class.
    const NAME: &'static str;
    /// Its arguments' types.
    type Params: Params;
    /// Its arguments' names.
    const PARAM_NAMES: &'static [&'static str];
    /// Its return type.
    type Ret: Returnable;
    /// How many arguments a call must give (the others have [`defaults`](Self::defaults)).
    const REQUIRED: usize = <Self::Params as Params>::TYPES.len();
    /// Static (no instance): its outcome is this thread's, else the instance's.
    const STATIC: bool;

    /// The values of the last arguments when a call leaves them out.
    fn defaults() -> Vec<Variant> {
        Vec::new()
    }

    /// # Safety
    /// A varcall of the method, its arguments checked against its [`Params`].
    unsafe fn varcall(call: Varcall);

    /// # Safety
    /// A ptrcall of the method.
    unsafe fn ptrcall(call: Ptrcall);
}

/// A type the methods take or return, as a Variant holds it.
pub(super) trait Slot {
    /// Its Variant type (`NIL`: any Variant).
    const TYPE: VariantType;
}

/// A type the methods return.
pub(super) trait Returnable: Slot {
    /// Makes the call's return value the type's empty value (after a panic).
    ///
    /// # Safety
    /// `ret` is the call's live return value, of this type (a varcall's: a Variant).
    unsafe fn return_empty(ret: Returned);
}

impl Returnable for Variant {
    unsafe fn return_empty(ret: Returned) {
        // SAFETY: the call's live Variant, replaced (dropping the old one).
        unsafe {
            match ret {
                Returned::Variant(v) => *v = Variant::nil(),
                Returned::Typed(v) => *v.cast::<Variant>() = Variant::nil(),
            }
        }
    }
}

impl Returnable for PackedByteArray {
    unsafe fn return_empty(ret: Returned) {
        // SAFETY: the call's live return value, emptied.
        unsafe {
            match ret {
                Returned::Variant(v) => {
                    bytes_returned(v.cast());
                }
                Returned::Typed(bytes) => empty_bytes(bytes),
            }
        }
    }
}

impl Slot for AnyArray {
    const TYPE: VariantType = VariantType::ARRAY;
}

impl<T: godot::meta::Element> Slot for Array<T> {
    const TYPE: VariantType = VariantType::ARRAY;
}

impl<T: godot::meta::Element> Returnable for Array<T> {
    unsafe fn return_empty(ret: Returned) {
        // SAFETY: the call's live return value.
        unsafe { return_array(Array::<T>::new(), ret) };
    }
}

/// Makes `array` the call's return value (dropping what it held).
///
/// # Safety
/// `ret` is the call's live return value: a Variant, or an Array of `array`'s type.
pub(super) unsafe fn return_array<T: godot::meta::Element>(array: Array<T>, ret: Returned) {
    // SAFETY: as the caller promises; the Variant made here or the array moved there.
    unsafe {
        match ret {
            Returned::Variant(v) => ffi().store(v, array.to_variant()),
            Returned::Typed(at) => array.move_return_ptr(at.cast(), sys::PtrcallType::Standard),
        }
    }
}

impl Slot for Variant {
    const TYPE: VariantType = VariantType::NIL;
}

impl Slot for PackedByteArray {
    const TYPE: VariantType = VariantType::PACKED_BYTE_ARRAY;
}

impl Slot for i64 {
    const TYPE: VariantType = VariantType::INT;
}

/// A method's argument types, as a varcall checks them (and gdext registers them).
pub(super) trait Params {
    /// The arguments' Variant types, in order.
    const TYPES: &'static [VariantType];
}

impl<A: Slot> Params for (A,) {
    const TYPES: &'static [VariantType] = &[A::TYPE];
}

impl<A: Slot, B: Slot> Params for (A, B) {
    const TYPES: &'static [VariantType] = &[A::TYPE, B::TYPE];
}

/// A varcall: its instance, its arguments (checked) and its return Variant.
pub(super) struct Varcall {
    pub(super) instance: sys::GDExtensionClassInstancePtr,
    pub(super) args: *const sys::GDExtensionConstVariantPtr,
    pub(super) argc: usize,
    pub(super) ret: sys::GDExtensionVariantPtr,
}

impl Varcall {
    /// Argument `i`.
    ///
    /// # Safety
    /// `i` is below `argc`.
    pub(super) unsafe fn arg<'a>(&self, i: usize) -> &'a Variant {
        // SAFETY: one of the call's live Variants.
        unsafe { argument_at(self.args, i) }
    }
}

/// A ptrcall: its instance, its arguments and its return value, as type pointers.
pub(super) struct Ptrcall {
    pub(super) instance: sys::GDExtensionClassInstancePtr,
    pub(super) args: *const sys::GDExtensionConstTypePtr,
    pub(super) ret: sys::GDExtensionTypePtr,
}

impl Ptrcall {
    /// The type pointer of argument `i`.
    ///
    /// # Safety
    /// `i` is below the method's argument count.
    pub(super) unsafe fn arg<T>(&self, i: usize) -> *const T {
        // SAFETY: one of the call's argument pointers.
        unsafe { (*self.args.add(i)).cast() }
    }
}

pub(super) unsafe extern "C" fn varcall<M: Method>(
    _method: *mut c_void,
    instance: sys::GDExtensionClassInstancePtr,
    args: *const sys::GDExtensionConstVariantPtr,
    argc: sys::GDExtensionInt,
    ret: sys::GDExtensionVariantPtr,
    err: *mut sys::GDExtensionCallError,
) {
    // SAFETY: the engine's varcall of the method `M` (see `Method`), its arguments checked
    // first; its return value is a Variant.
    unsafe {
        if check_arguments(args, argc, M::REQUIRED, M::Params::TYPES, err) {
            let call = Varcall {
                instance,
                args,
                argc: argc as usize,
                ret,
            };
            entry::<M>(instance, Returned::Variant(ret.cast()), || M::varcall(call));
        }
    }
}

pub(super) unsafe extern "C" fn ptrcall<M: Method>(
    _method: *mut c_void,
    instance: sys::GDExtensionClassInstancePtr,
    args: *const sys::GDExtensionConstTypePtr,
    ret: sys::GDExtensionTypePtr,
) {
    let call = Ptrcall {
        instance,
        args,
        ret,
    };
    // SAFETY: the engine's ptrcall of the method `M` (see `Method`); its return value is
    // of `M::Ret`, by a type pointer.
    unsafe { entry::<M>(instance, Returned::Typed(ret.cast()), || M::ptrcall(call)) };
}

/// Where a call's return value is: a varcall's Variant, or a ptrcall's type pointer.
#[derive(Clone, Copy)]
pub(super) enum Returned {
    Variant(*mut Variant),
    Typed(*mut c_void),
}

/// Runs a call of `M`, which reports its own failures. A panic in it (a bug) must not
/// unwind into the engine: it is printed as an engine error, and the call fails as any
/// call does, with the empty result and the failure recorded for `get_error` (or
/// `get_last_error`). One catch for the whole call: each costs a call and a frame, which
/// one small value per call notices.
///
/// # Safety
/// A call of `M` on `instance`, returning into `ret`, as the engine makes it.
#[inline(always)]
pub(super) unsafe fn entry<M: Method>(
    instance: sys::GDExtensionClassInstancePtr,
    ret: Returned,
    work: impl FnOnce(),
) {
    if let Err(panic) = catch_unwind(AssertUnwindSafe(work)) {
        // SAFETY: the caller's promise.
        unsafe { panicked::<M>(instance, ret, panic_failure(panic)) };
    }
}

/// After a panic in a call of `M`: the error printed, the empty result, the failure
/// recorded. A panic while recording it (the instance cannot be reached) is printed.
///
/// # Safety
/// As [`entry`].
#[cold]
pub(super) unsafe fn panicked<M: Method>(
    instance: sys::GDExtensionClassInstancePtr,
    ret: Returned,
    failure: Failure,
) {
    godot_error!("FastVariantCodec: {}", failure.message);
    let recover = || {
        // SAFETY: the call's live return value, of `M::Ret`.
        unsafe { M::Ret::return_empty(ret) };
        if M::STATIC {
            finish_static::<()>(Err(failure));
        } else {
            // SAFETY: the caller's instance.
            unsafe { on_instance(instance, |codec| codec.finish::<()>(Err(failure))) };
        }
    };
    if let Err(panic) = catch_unwind(AssertUnwindSafe(recover)) {
        godot_error!("FastVariantCodec: {}", panic_failure(panic).message);
    }
}
