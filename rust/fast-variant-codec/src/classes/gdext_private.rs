//! Every use of gdext's private registration machinery, in one place: items gdext keeps
//! `#[doc(hidden)]` for its own macros (`godot::private`, `godot::register::private`, the
//! docs registry), outside its semantic versioning. Written against gdext **0.5.5**, the
//! version the workspace pins exactly (`godot = "=0.5.5"` in the root Cargo.toml, hence
//! Cargo.lock): a gdext update must be checked against this module first.
//!
//! Why they are needed: the per-value methods ([`direct_calls`](super::direct_calls)) are
//! registered by hand rather than as `#[func]`s, to read their arguments where the caller
//! holds them and write their results straight into the caller's return value. gdext has
//! no public API for that, so this module does what its `#[func]` macro expands to:
//! - [`register_methods!`]: each method's signature as gdext describes it to the engine
//!   (`ClassMethodInfo`: argument and return types, default arguments) and the GDExtension
//!   call that registers it (`classdb_register_extension_class_method`);
//! - [`on_instance`]: the instance behind the instance pointer a call passes (gdext's
//!   instance storage, `as_storage`);
//! - [`move_return`]: a value moved into a ptrcall's return value, as gdext's ptrcalls do;
//! - the methods' editor help ([`METHODS_XML`] in gdext's docs registry, which gdext fills
//!   for `#[func]`s only, and sends to the editor with theirs).
//!
//! Not here: the GDExtension interface itself (the `GDExtension*` types of `godot::sys` and
//! its `interface_fn!` calls, generated from the engine's `gdextension_interface.h`, which
//! the engine versions), and the conversions of values to and from type pointers
//! (`GodotFfi::sys`, `new_from_sys`) that every layer uses to hand values to it.

use std::ffi::c_void;
use std::sync::LazyLock;

use godot::private::{as_storage, DocsItem, DocsShard, InherentImplDocs, Storage};
use godot::sys::{self, GodotFfi, PtrcallType};

use crate::classes::codec_class::FastVariantCodec;
use crate::classes::direct_calls;

/// Registers the methods `$m` (each a [`Method`](super::method_calls::Method)) on
/// `FastVariantCodec` (which gdext registered before): their names, signatures and
/// defaults, and their call functions. A macro, not a generic function: gdext's bound on
/// the argument types (`ParamTuple`) is not exported, so it is checked on each method's own
/// types.
macro_rules! register_methods {
    ($($m:ty),* $(,)?) => {{
        use $crate::classes::method_calls::{ptrcall, varcall, Method};
        use ::godot::register::info::MethodFlags;
        use ::godot::register::private::method::ClassMethodInfo;
        // SAFETY: each method's call functions read the arguments its signature says, as
        // Variants (varcall) and as type pointers (ptrcall), and return its return type
        // (`Method`'s contract); the instance methods' take the instance of this class the
        // engine passes, the static ones none.
        let methods = unsafe {
            [$(
                ClassMethodInfo::from_signature::<
                    $crate::classes::codec_class::FastVariantCodec,
                    <$m as Method>::Params,
                    <$m as Method>::Ret,
                >(
                    ::godot::builtin::StringName::from(<$m as Method>::NAME),
                    Some(varcall::<$m>),
                    Some(ptrcall::<$m>),
                    match <$m as Method>::STATIC {
                        true => MethodFlags::NORMAL | MethodFlags::STATIC,
                        false => MethodFlags::NORMAL,
                    },
                    <$m as Method>::PARAM_NAMES,
                    <$m as Method>::defaults(),
                ),
            )*]
        };
        for method in methods {
            method.register_extension_class_method();
        }
    }};
}

pub(super) use register_methods;

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

/// Moves `value` into the ptrcall return value at `ret` (a type pointer), dropping what it
/// held.
///
/// # Safety
/// `ret` points to a live value of `T`'s type that nothing else reads or writes during the
/// call.
pub(super) unsafe fn move_return<T: GodotFfi>(value: T, ret: *mut c_void) {
    // SAFETY: as the caller promises.
    unsafe { value.move_return_ptr(ret.cast(), PtrcallType::Standard) };
}

/// The editor help of the methods [`direct_calls`] registers: built once, as the library
/// is loaded, when gdext's docs registry takes it (below).
static METHODS_XML: LazyLock<String> = LazyLock::new(direct_calls::methods_xml);

// The class reference's entries of those methods, added to gdext's docs registry as the
// library is loaded (as gdext adds an `impl` block's), which gdext sends to the editor
// with those of the `#[func]`s.
sys::shard_add!(godot::private::__GODOT_DOCS_REGISTRY;
    DocsShard::new::<FastVariantCodec>(DocsItem::InherentImpl(InherentImplDocs {
        methods_xml: METHODS_XML.as_str(),
        signals_xml: "",
        constants_xml: "",
    }))
);

/// The class reference of `class` as gdext sends it to the editor: every `impl` block's
/// methods, properties and constants in one XML document.
#[cfg(test)]
pub(super) fn class_reference(class: &str) -> Option<String> {
    let head = format!("<class name=\"{class}\" ");
    godot::docs::__gather_xml_docs().find(|xml| xml.contains(&head))
}
