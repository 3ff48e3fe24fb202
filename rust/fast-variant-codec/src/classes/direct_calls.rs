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
//! gdext uses ([`gdext_private`](super::gdext_private)), these read the argument where the
//! caller holds it, write the result into the caller's return value, and reach the
//! instance through its id (`FastVariantCodec::unbound_by_id`; the id from the object
//! gdext's instance storage holds). Of the engine, only public GDExtension calls: a
//! ptrcall's arguments and return value are type pointers, a varcall's Variants; the
//! packed array's bytes are read through the layout the `buffers` probe checked, else
//! copied by gdext.
//!
//! One table ([`direct_methods!`], at the end) gives each method's name, parameters,
//! defaults and docs: from it come the [`Method`] the engine calls (which hands the
//! arguments to the method's work function here, of the same name), its registration, and
//! its entry in the editor help ([`methods_xml`]; gdext builds that from `#[func]`s only).

use std::ffi::c_void;

use godot::builtin::{AnyArray, Array, PackedByteArray, VarArray, Variant};
use godot::global::Error;
use godot::meta::ToGodot;
use godot::sys::{self, GodotFfi};
use godot_variant_codec::{DecodeOptions, EncodeOptions};

use crate::classes::batch;
use crate::classes::codec_class::{engine_decode_options, engine_encode_options, guarded};
use crate::classes::failure::Failure;
use crate::classes::gdext_private::{on_instance, register_methods};
use crate::classes::last_failure::finish_static;
use crate::classes::method_calls::{
    doc_type, empty_bytes, return_array, ArrayView, Method, Params, Ptrcall, Returnable, Returned,
    Varcall,
};
use crate::convert::encode_output::encode_into;
use crate::convert::variant_builder;
use crate::convert::variant_writer::WriteMode;
use crate::engine::cow_data;
use crate::engine::ffi::ffi;

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

/// `encode_batch` on `instance`, with its options, recording its outcome.
///
/// # Safety
/// As [`on_instance`]; `values` is left as it is during the call; `ret` is the call's
/// live return value (a Variant, or an `Array[PackedByteArray]`).
unsafe fn encode_batch(
    instance: sys::GDExtensionClassInstancePtr,
    values: ArrayView,
    ret: Returned,
) {
    // SAFETY: the caller's promises.
    unsafe {
        on_instance(instance, |codec| {
            let result = guarded(|| {
                Ok(batch::encode(
                    &values,
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
    packets: ArrayView,
    ret: Returned,
) {
    // SAFETY: the caller's promises.
    unsafe {
        on_instance(instance, |codec| {
            let result = guarded(|| Ok(batch::decode(&packets, &codec.decode_options())));
            return_array(codec.finish_batch(result).unwrap_or_default(), ret);
        });
    }
}

/// The methods' table (see the module docs): `direct_methods! { instance: [rows],
/// static: [rows] }`, each row its docs (the editor's BBCode, shown in its help), then
/// `Type: fn name(param: ParamType = default, ...) -> ReturnType;`, the defaults (Rust
/// literals) on the last parameters only. `Type` is the [`Method`] made for it; its calls
/// go to the function `name` here, which takes the instance (the instance methods), the
/// arguments as their [`Param`](super::method_calls::Param) hands them, and the return
/// value as its [`Returnable`] does.
macro_rules! direct_methods {
    (
        instance: [$(
            $(#[doc = $idoc:literal])+
            $ity:ident: fn $iname:ident($($ip:ident: $ipt:ty $(= $id:literal)?),*) -> $iret:ty;
        )*],
        static: [$(
            $(#[doc = $sdoc:literal])+
            $sty:ident: fn $sname:ident($($sp:ident: $spt:ty $(= $sd:literal)?),*) -> $sret:ty;
        )*] $(,)?
    ) => {
        $(direct_method!(instance $ity [$($idoc)+] $iname($($ip: $ipt $(= $id)?),*) -> $iret);)*
        $(direct_method!(static $sty [$($sdoc)+] $sname($($sp: $spt $(= $sd)?),*) -> $sret);)*

        /// Registers the methods on the class (which gdext registered before).
        pub fn register() {
            register_methods!($($ity,)* $($sty,)*);
        }

        /// The methods' entries in the class reference (its `<method>` elements).
        pub(super) fn methods_xml() -> String {
            [$(method_xml::<$ity>(),)* $(method_xml::<$sty>(),)*].concat()
        }

        /// Hands each method's type to `visit`.
        #[cfg(test)]
        fn visit_methods(visit: &mut impl tests::Visit) {
            $(visit.visit::<$ity>();)*
            $(visit.visit::<$sty>();)*
        }
    };
}

/// One row of [`direct_methods!`]: `instance` or `static`, then the row.
macro_rules! direct_method {
    (
        $kind:tt $ty:ident [$($doc:literal)+]
        $name:ident($($p:ident: $pt:ty $(= $d:literal)?),*) -> $ret:ty
    ) => {
        $(#[doc = $doc])+
        struct $ty;

        const _: () = assert!(
            defaults_last(&[$(direct_method!(@defaulted $($d)?)),*]),
            concat!(stringify!($name), ": only the last parameters may have defaults"),
        );

        // SAFETY: its calls read the arguments of `Params`, in order, each as its `Param`
        // says (a varcall's checked first, by `varcall`), write a `Ret` where its
        // `Returnable` says, and pass the instance to the work of an instance method only.
        unsafe impl Method for $ty {
            const NAME: &'static str = stringify!($name);
            type Params = ($($pt,)*);
            const PARAM_NAMES: &'static [&'static str] = &[$(stringify!($p)),*];
            type Ret = $ret;
            const STATIC: bool = direct_method!(@static $kind);
            const DEFAULTS: &'static [&'static str] = &[$($(stringify!($d),)?)*];
            const DESCRIPTION: &'static str = concat!($($doc),+);

            fn defaults() -> Vec<Variant> {
                vec![$($(<$pt as ToGodot>::to_variant(&$d),)?)*]
            }

            #[inline(always)]
            unsafe fn varcall(mut call: Varcall) {
                // SAFETY: see `Method`.
                unsafe {
                    direct_method!(@work $kind $name call
                        $(direct_method!(@varcall_arg call $pt $(= $d)?),)*
                        <$ret as Returnable>::varcall_target(call.ret))
                }
            }

            #[inline(always)]
            unsafe fn ptrcall(mut call: Ptrcall) {
                // SAFETY: see `Method`.
                unsafe {
                    direct_method!(@work $kind $name call
                        $(call.next::<$pt>(),)*
                        <$ret as Returnable>::ptrcall_target(call.ret))
                }
            }
        }
    };
    (@static instance) => { false };
    (@static static) => { true };
    (@defaulted) => { false };
    (@defaulted $d:literal) => { true };
    (@varcall_arg $call:ident $pt:ty) => { $call.next::<$pt>() };
    (@varcall_arg $call:ident $pt:ty = $d:literal) => { $call.next_or::<$pt>($d) };
    (@work instance $name:ident $call:ident $($arg:expr),*) => { $name($call.instance, $($arg),*) };
    (@work static $name:ident $call:ident $($arg:expr),*) => { $name($($arg),*) };
}

/// Whether no parameter without a default follows one with a default: a call can leave
/// out only its last arguments.
const fn defaults_last(defaulted: &[bool]) -> bool {
    let mut i = 1;
    while i < defaulted.len() {
        if defaulted[i - 1] && !defaulted[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// `M`'s entry in the class reference, written as gdext writes a `#[func]`'s, its types
/// as the engine names the ones gdext describes to it (see [`doc_type`]).
fn method_xml<M: Method>() -> String {
    let qualifiers = if M::STATIC {
        r#" qualifiers="static""#
    } else {
        ""
    };
    let mut params = String::new();
    for (i, (name, ty)) in M::PARAM_NAMES
        .iter()
        .zip(M::Params::doc_types())
        .enumerate()
    {
        let default = match i.checked_sub(M::REQUIRED) {
            Some(d) => format!(r#" default="{}""#, escaped(M::DEFAULTS[d])),
            None => String::new(),
        };
        params += &format!(
            "  <param index=\"{i}\" name=\"{name}\" type=\"{}\"{default} />\n",
            escaped(&ty)
        );
    }
    format!(
        "\n<method name=\"{}\"{qualifiers}>\n  <return type=\"{}\" />\n{params}  \
         <description>\n  {}\n  </description>\n</method>\n",
        M::NAME,
        escaped(&doc_type::<M::Ret>()),
        escaped(M::DESCRIPTION.trim()),
    )
}

/// `text` with XML's special characters escaped.
fn escaped(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

direct_methods! {
    instance: [
        /// The bytes of [param value], as [method @GlobalScope.var_to_bytes] (or, with
        /// [member full_objects], [method @GlobalScope.var_to_bytes_with_objects]) writes
        /// them. Empty on error: see [method get_error].
        Encode: fn encode(value: Variant) -> PackedByteArray;

        /// The value held by [param bytes] from byte [param offset] on, as
        /// [method @GlobalScope.bytes_to_var] (or, with [member allow_objects],
        /// [method @GlobalScope.bytes_to_var_with_objects]) reads it; bytes after it are
        /// ignored. [code]null[/code] on error: see [method get_error]. On success,
        /// [method get_decoded_size] tells how many bytes the value took.
        Decode: fn decode(bytes: PackedByteArray, offset: i64 = 0) -> Variant;

        /// [method encode] for every value of [param values], in one call: the same bytes,
        /// in the same order. A value that fails gives an empty array; [method get_error]
        /// then tells about the first that failed.
        EncodeBatch: fn encode_batch(values: AnyArray) -> Array<PackedByteArray>;

        /// [method decode] for every packet of [param packets] (each a [PackedByteArray]):
        /// the same values, in the same order. A packet that fails gives
        /// [code]null[/code]; [method get_error] then tells about the first that failed.
        DecodeBatch: fn decode_batch(packets: AnyArray) -> VarArray;
    ],
    static: [
        /// The value held at the start of [param bytes], as
        /// [method @GlobalScope.bytes_to_var] reads it (objects not decoded, the Godot 4
        /// format, nesting up to 1024 levels); bytes after it are ignored.
        /// [code]null[/code] on error: see [method get_last_error].[br][br]A static
        /// method: no instance, none of its properties, and a cheaper call than
        /// [method decode], for decoding one small value (a network packet) per call.
        BytesToVar: fn bytes_to_var(bytes: PackedByteArray) -> Variant;

        /// The bytes of [param value], as [method @GlobalScope.var_to_bytes] writes them
        /// (objects as their instance ids, the Godot 4 format). Empty on error: see
        /// [method get_last_error].[br][br]A static method: no instance, none of its
        /// properties, and a cheaper call than [method encode], for encoding one small
        /// value per call.
        VarToBytes: fn var_to_bytes(value: Variant) -> PackedByteArray;
    ],
}

#[cfg(test)]
mod tests {
    use godot::builtin::VariantType;
    use godot::obj::EngineEnum;

    use super::*;
    use crate::classes::gdext_private::class_reference;
    use crate::classes::method_calls::Slot;

    /// Something done with each method of the table, by its type.
    pub(super) trait Visit {
        fn visit<M: Method>(&mut self);
    }

    /// The elements of `xml` that start with `start` (up to `end`, included).
    fn elements<'a>(xml: &'a str, start: &str, end: &str) -> Vec<&'a str> {
        xml.match_indices(start)
            .map(|(at, _)| {
                let len = xml[at..].find(end).expect("a closed element") + end.len();
                &xml[at..at + len]
            })
            .collect()
    }

    /// The value of the attribute `name` of the first tag of `element`.
    fn attribute<'a>(element: &'a str, name: &str) -> Option<&'a str> {
        let tag = &element[..element.find('>')?];
        let value = &tag[tag.find(&format!(" {name}=\""))? + name.len() + 3..];
        Some(&value[..value.find('"')?])
    }

    /// The Variant type a type of the class reference stands for (`T[]`: an Array).
    fn variant_type(doc_type: &str) -> VariantType {
        if doc_type.ends_with("[]") {
            return VariantType::ARRAY;
        }
        *VariantType::values()
            .iter()
            .find(|t| t.godot_type_name() == doc_type)
            .unwrap_or_else(|| panic!("no Variant type is named {doc_type:?}"))
    }

    /// Checks each method against the class reference the editor is given.
    struct AgainstReference {
        class: String,
        links: Vec<String>,
    }

    impl Visit for AgainstReference {
        fn visit<M: Method>(&mut self) {
            let start = format!("<method name=\"{}\"", M::NAME);
            let found = elements(&self.class, &start, "</method>");
            assert_eq!(found.len(), 1, "{}: {} entries", M::NAME, found.len());
            let method = found[0];
            let is_static = attribute(method, "qualifiers") == Some("static");
            assert_eq!(is_static, M::STATIC, "{}: static", M::NAME);

            let ret = elements(method, "<return ", "/>");
            let ret_type = ret.first().and_then(|r| attribute(r, "type"));
            let ret_type = ret_type.unwrap_or_else(|| panic!("{}: no return type", M::NAME));
            assert_eq!(
                variant_type(ret_type),
                M::Ret::TYPE,
                "{}: return type",
                M::NAME
            );

            let params = elements(method, "<param ", "/>");
            assert_eq!(
                params.len(),
                M::PARAM_NAMES.len(),
                "{}: parameters",
                M::NAME
            );
            for (i, param) in params.iter().enumerate() {
                let what = format!("{} parameter {i}", M::NAME);
                assert_eq!(attribute(param, "index"), Some(&*i.to_string()), "{what}");
                assert_eq!(attribute(param, "name"), Some(M::PARAM_NAMES[i]), "{what}");
                let ty = attribute(param, "type").unwrap_or_else(|| panic!("{what}: no type"));
                assert_eq!(variant_type(ty), M::Params::TYPES[i], "{what}: type");
                let default = attribute(param, "default");
                assert_eq!(default.is_some(), i >= M::REQUIRED, "{what}: default");
            }

            let description = elements(method, "<description>", "</description>");
            let text = description.first().map_or("", |d| {
                d["<description>".len()..d.len() - "</description>".len()].trim()
            });
            assert!(!text.is_empty(), "{}: no description", M::NAME);
            for (kind, tag) in [("method", "<method name=\""), ("member", "<member name=\"")] {
                for (at, _) in text.match_indices(&format!("[{kind} ")) {
                    let rest = &text[at + kind.len() + 2..];
                    let target = &rest[..rest.find(']').expect("a closed link")];
                    // Links to other classes (`@GlobalScope.var_to_bytes`) are the engine's.
                    if !target.contains('.') {
                        self.links.push(format!("{tag}{target}\""));
                    }
                }
            }
        }
    }

    /// The editor help (the class reference gdext gives the editor) has each method of the
    /// table once, as the engine registers it: static or not, its return type and its
    /// parameters' names, types and defaults as its calls check them, and a description
    /// whose links name methods and properties the help documents.
    #[test]
    fn editor_help_documents_every_method_as_registered() {
        let class = class_reference("FastVariantCodec").expect("the class reference");
        let mut check = AgainstReference {
            class,
            links: Vec::new(),
        };
        visit_methods(&mut check);
        assert!(!check.links.is_empty());
        for link in &check.links {
            assert!(check.class.contains(link), "a link to nothing: {link}");
        }
    }

    /// A default before a parameter without one is refused (the table's check).
    #[test]
    fn defaults_come_last() {
        assert!(defaults_last(&[]));
        assert!(defaults_last(&[false, true, true]));
        assert!(!defaults_last(&[true, false]));
    }
}
