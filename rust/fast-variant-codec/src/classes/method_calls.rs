//! How the engine calls the methods [`direct_calls`](super::direct_calls) registers: a
//! method's arguments and return type ([`Method`], [`Slot`], [`Param`], [`Returnable`],
//! [`Params`]), a varcall's and a ptrcall's arguments and return value ([`Varcall`],
//! [`Ptrcall`], [`Returned`]), the check of a varcall's arguments, and a panic caught
//! before it reaches the engine.

use std::ffi::c_void;
use std::mem::ManuallyDrop;
use std::panic::{catch_unwind, AssertUnwindSafe};

use godot::builtin::{AnyArray, Array, PackedByteArray, VarArray, Variant, VariantType};
use godot::global::godot_error;
use godot::meta::shape::GodotShape;
use godot::meta::{GodotConvert, ToGodot};
use godot::obj::EngineEnum;
use godot::sys;

use crate::classes::codec_class::panic_failure;
use crate::classes::failure::Failure;
use crate::classes::gdext_private::{move_return, on_instance};
use crate::classes::last_failure::finish_static;
use crate::engine::ffi::ffi;

/// The check of a varcall's arguments: `min..=types.len()` of them, each of its type in
/// `types` unless that is `NIL` (any Variant). Sets `err` and returns `false` when they do
/// not fit.
///
/// # Safety
/// `args` holds `argc` Variant pointers; `err` points to the call's error record.
unsafe fn check_arguments(
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
unsafe fn argument_at<'a>(
    args: *const sys::GDExtensionConstVariantPtr,
    index: usize,
) -> &'a Variant {
    // SAFETY: a gdext `Variant` is the engine's Variant (`repr(transparent)` over its
    // opaque bytes), live and unchanged for the call, as the caller promises.
    unsafe { &*(*args.add(index)).cast::<Variant>() }
}

/// Makes the PackedByteArray at `ret` (a type pointer) empty, dropping what it held.
///
/// # Safety
/// `ret` points to a live PackedByteArray nothing else reads or writes during the call.
pub(super) unsafe fn empty_bytes(ret: *mut c_void) {
    // SAFETY: the caller's live array, swapped with an empty one, which drops it.
    unsafe { move_return(PackedByteArray::new(), ret) };
}

/// A varcall's return Variant made an empty PackedByteArray (dropping what it held), for
/// an encoding to fill: the array inside it, as a type pointer.
///
/// # Safety
/// `ret` is the varcall's live return Variant.
unsafe fn bytes_returned(ret: sys::GDExtensionVariantPtr) -> *mut c_void {
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

/// One of the methods registered here: its signature, defaults and docs, and what its calls
/// do. The engine calls [`varcall`] and [`ptrcall`], which call these. The table in
/// [`direct_calls`](super::direct_calls) implements it, once per method.
///
/// A ptrcall passes each argument and the return value as type pointers (a Variant's is
/// the Variant; a PackedByteArray's the array; an int's an `int64_t`), which the caller
/// keeps alive for the call; a varcall passes Variants, whose count and types
/// [`check_arguments`] checks first, and a live return Variant. The instance methods are
/// called on a live instance of this class, as the engine passes it.
///
/// # Safety
/// [`varcall`](Self::varcall) and [`ptrcall`](Self::ptrcall) read the arguments `Params`
/// says and return a `Ret` (the signature the engine is told), and take the instance
/// unless the method is [`STATIC`](Self::STATIC).
pub(super) unsafe trait Method {
    /// Its name in the class.
    const NAME: &'static str;
    /// Its arguments' types.
    type Params: Params;
    /// Its arguments' names.
    const PARAM_NAMES: &'static [&'static str];
    /// Its return type.
    type Ret: Returnable;
    /// Static (no instance): its outcome is this thread's, else the instance's.
    const STATIC: bool;
    /// The values of the last arguments when a call leaves them out, as Rust literals
    /// (the class reference shows them so).
    const DEFAULTS: &'static [&'static str];
    /// How many arguments a call must give (the others have [`DEFAULTS`](Self::DEFAULTS)).
    const REQUIRED: usize = <Self::Params as Params>::TYPES.len() - Self::DEFAULTS.len();
    /// Its description in the class reference (the editor's BBCode).
    const DESCRIPTION: &'static str;

    /// [`DEFAULTS`](Self::DEFAULTS) as the engine is told them.
    fn defaults() -> Vec<Variant>;

    /// # Safety
    /// A varcall of the method, its arguments checked against its [`Params`].
    unsafe fn varcall(call: Varcall);

    /// # Safety
    /// A ptrcall of the method.
    unsafe fn ptrcall(call: Ptrcall);
}

/// A type the methods take or return, as a Variant holds it.
pub(super) trait Slot: GodotConvert {
    /// Its Variant type (`NIL`: any Variant).
    const TYPE: VariantType;
}

/// Its type as the class reference names it: the engine's name for it, `Variant` for
/// any Variant, `T[]` for an Array of `T`s (gdext describes it so to the engine).
pub(super) fn doc_type<T: GodotConvert>() -> String {
    match T::godot_shape() {
        GodotShape::TypedArray { element } => {
            format!(
                "{}[]",
                element.into_outer().variant_type().godot_type_name()
            )
        }
        shape => shape.variant_type().godot_type_name().to_string(),
    }
}

/// A type the methods take, and how its argument reaches the method's work: from a
/// varcall's Variant or a ptrcall's type pointer, without a copy of what it holds.
pub(super) trait Param: Slot {
    /// The argument as the work takes it, valid for the call.
    type Arg<'a>;

    /// The argument held by `v`.
    ///
    /// # Safety
    /// `v` holds this type (checked by [`check_arguments`]) and lives through the call.
    unsafe fn from_variant<'a>(v: &'a Variant) -> Self::Arg<'a>;

    /// The argument at `at`, a ptrcall's type pointer to this type.
    ///
    /// # Safety
    /// `at` points to a live value of this type, left as it is during the call.
    unsafe fn from_type_ptr<'a>(at: *const c_void) -> Self::Arg<'a>;
}

/// A type the methods return, and where the work writes it.
pub(super) trait Returnable: Slot {
    /// Where the work writes the return value.
    type Target;

    /// The target in a varcall's return Variant.
    ///
    /// # Safety
    /// `ret` is the varcall's live return Variant.
    unsafe fn varcall_target(ret: sys::GDExtensionVariantPtr) -> Self::Target;

    /// The target at a ptrcall's return value.
    ///
    /// # Safety
    /// `ret` points to the ptrcall's live return value, of this type.
    unsafe fn ptrcall_target(ret: sys::GDExtensionTypePtr) -> Self::Target;

    /// Makes the call's return value the type's empty value (after a panic).
    ///
    /// # Safety
    /// `ret` is the call's live return value, of this type (a varcall's: a Variant).
    unsafe fn return_empty(ret: Returned);
}

impl Slot for Variant {
    const TYPE: VariantType = VariantType::NIL;
}

impl Param for Variant {
    type Arg<'a> = &'a Variant;

    #[inline(always)]
    unsafe fn from_variant<'a>(v: &'a Variant) -> Self::Arg<'a> {
        v
    }

    #[inline(always)]
    unsafe fn from_type_ptr<'a>(at: *const c_void) -> Self::Arg<'a> {
        // SAFETY: a Variant's type pointer is the Variant, live for the call.
        unsafe { &*at.cast::<Variant>() }
    }
}

impl Returnable for Variant {
    /// The Variant to replace.
    type Target = *mut Variant;

    #[inline(always)]
    unsafe fn varcall_target(ret: sys::GDExtensionVariantPtr) -> *mut Variant {
        ret.cast()
    }

    #[inline(always)]
    unsafe fn ptrcall_target(ret: sys::GDExtensionTypePtr) -> *mut Variant {
        ret.cast()
    }

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

impl Slot for PackedByteArray {
    const TYPE: VariantType = VariantType::PACKED_BYTE_ARRAY;
}

impl Param for PackedByteArray {
    /// The array's type pointer.
    type Arg<'a> = *const c_void;

    #[inline(always)]
    unsafe fn from_variant<'a>(v: &'a Variant) -> Self::Arg<'a> {
        // SAFETY: `v` holds a PackedByteArray, as the caller promises; the getter points to
        // the array inside it.
        unsafe { ffi().internal(v, VariantType::PACKED_BYTE_ARRAY) }
    }

    #[inline(always)]
    unsafe fn from_type_ptr<'a>(at: *const c_void) -> Self::Arg<'a> {
        at
    }
}

impl Returnable for PackedByteArray {
    /// The array's type pointer, the array empty.
    type Target = *mut c_void;

    #[inline(always)]
    unsafe fn varcall_target(ret: sys::GDExtensionVariantPtr) -> *mut c_void {
        // SAFETY: the caller's live return Variant.
        unsafe { bytes_returned(ret) }
    }

    #[inline(always)]
    unsafe fn ptrcall_target(ret: sys::GDExtensionTypePtr) -> *mut c_void {
        ret.cast()
    }

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

impl Slot for i64 {
    const TYPE: VariantType = VariantType::INT;
}

impl Param for i64 {
    type Arg<'a> = i64;

    #[inline(always)]
    unsafe fn from_variant<'a>(v: &'a Variant) -> Self::Arg<'a> {
        // SAFETY: `v` holds an int, as the caller promises.
        unsafe { ffi().read::<i64>(v, VariantType::INT) }
    }

    #[inline(always)]
    unsafe fn from_type_ptr<'a>(at: *const c_void) -> Self::Arg<'a> {
        // SAFETY: an int's type pointer points to an `int64_t`, as the caller promises.
        unsafe { at.cast::<i64>().read() }
    }
}

/// An engine Array viewed where the caller holds it: not owned, never dropped.
pub(super) type ArrayView = ManuallyDrop<VarArray>;

impl Slot for AnyArray {
    const TYPE: VariantType = VariantType::ARRAY;
}

impl Param for AnyArray {
    type Arg<'a> = ArrayView;

    #[inline(always)]
    unsafe fn from_variant<'a>(v: &'a Variant) -> Self::Arg<'a> {
        // SAFETY: `v` holds an Array, as the caller promises; the getter points to it.
        unsafe { Self::from_type_ptr(ffi().internal(v, VariantType::ARRAY)) }
    }

    #[inline(always)]
    unsafe fn from_type_ptr<'a>(at: *const c_void) -> Self::Arg<'a> {
        // SAFETY: a live Array, left as it is during the call, as the caller promises.
        unsafe { ffi().view_at::<VarArray>(at) }
    }
}

impl<T: godot::meta::Element> Slot for Array<T> {
    const TYPE: VariantType = VariantType::ARRAY;
}

impl<T: godot::meta::Element> Returnable for Array<T> {
    /// The return value, a Variant or an Array of this type.
    type Target = Returned;

    #[inline(always)]
    unsafe fn varcall_target(ret: sys::GDExtensionVariantPtr) -> Returned {
        Returned::Variant(ret.cast())
    }

    #[inline(always)]
    unsafe fn ptrcall_target(ret: sys::GDExtensionTypePtr) -> Returned {
        Returned::Typed(ret.cast())
    }

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
            Returned::Typed(at) => move_return(array, at),
        }
    }
}

/// A method's argument types, as a varcall checks them (and gdext registers them).
pub(super) trait Params {
    /// The arguments' Variant types, in order.
    const TYPES: &'static [VariantType];

    /// The arguments' types as the class reference names them (see [`doc_type`]), in order.
    fn doc_types() -> Vec<String>;
}

impl<A: Param> Params for (A,) {
    const TYPES: &'static [VariantType] = &[A::TYPE];

    fn doc_types() -> Vec<String> {
        vec![doc_type::<A>()]
    }
}

impl<A: Param, B: Param> Params for (A, B) {
    const TYPES: &'static [VariantType] = &[A::TYPE, B::TYPE];

    fn doc_types() -> Vec<String> {
        vec![doc_type::<A>(), doc_type::<B>()]
    }
}

/// A varcall: its instance, its arguments (checked), the next argument to read and its
/// return Variant.
pub(super) struct Varcall {
    pub(super) instance: sys::GDExtensionClassInstancePtr,
    args: *const sys::GDExtensionConstVariantPtr,
    argc: usize,
    next: usize,
    pub(super) ret: sys::GDExtensionVariantPtr,
}

impl Varcall {
    /// The next argument, of type `T` (see [`Param`]).
    ///
    /// # Safety
    /// The call has it, of type `T` (checked by [`check_arguments`]).
    #[inline(always)]
    pub(super) unsafe fn next<'a, T: Param>(&mut self) -> T::Arg<'a> {
        let i = self.next;
        self.next += 1;
        // SAFETY: one of the call's live Variants, of type `T`, as the caller promises.
        unsafe { T::from_variant(argument_at(self.args, i)) }
    }

    /// The next argument, of type `T`, or `default` when the call left it out.
    ///
    /// # Safety
    /// When the call has it, it is of type `T` (checked by [`check_arguments`]).
    #[inline(always)]
    pub(super) unsafe fn next_or<'a, T: Param>(&mut self, default: T::Arg<'a>) -> T::Arg<'a> {
        if self.next < self.argc {
            // SAFETY: the call has it, as the caller promises.
            unsafe { self.next::<T>() }
        } else {
            self.next += 1;
            default
        }
    }
}

/// A ptrcall: its instance, its arguments, the next argument to read and its return
/// value, as type pointers.
pub(super) struct Ptrcall {
    pub(super) instance: sys::GDExtensionClassInstancePtr,
    args: *const sys::GDExtensionConstTypePtr,
    next: usize,
    pub(super) ret: sys::GDExtensionTypePtr,
}

impl Ptrcall {
    /// The next argument, of type `T` (see [`Param`]).
    ///
    /// # Safety
    /// The method's signature has it, of type `T`.
    #[inline(always)]
    pub(super) unsafe fn next<'a, T: Param>(&mut self) -> T::Arg<'a> {
        let i = self.next;
        self.next += 1;
        // SAFETY: one of the call's argument pointers, to a `T`, as the caller promises.
        unsafe { T::from_type_ptr((*self.args.add(i)).cast()) }
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
                next: 0,
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
        next: 0,
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
