//! Arrays and Dictionaries typed at run time.
//!
//! gdext types a container from a Rust type parameter (`Array<i64>`), but the decoder
//! learns the element type from the bytes: a builtin type, a class name or a script known
//! only at run time. The engine's decoder calls `Array::set_typed` / `Dictionary::set_typed`
//! on a fresh container; the GDExtension interface exposes the same two functions
//! (`array_set_typed`, `dictionary_set_typed`), which gdext's own typed constructors call.
//! This module is the only place that calls them.

use godot::builtin::{StringName, VarArray, VarDictionary, Variant, VariantType};
use godot::sys::{interface_fn, GodotFfi};

/// An element type as `set_typed` takes it: `Nil` for untyped; class and script only for `Object`.
#[derive(Debug, Clone)]
pub struct ElementSpec {
    pub variant_type: VariantType,
    pub class_name: StringName,
    /// A `Script`, or nil.
    pub script: Variant,
}

impl ElementSpec {
    pub fn untyped() -> Self {
        Self::builtin(VariantType::NIL)
    }

    pub fn builtin(variant_type: VariantType) -> Self {
        ElementSpec {
            variant_type,
            class_name: StringName::default(),
            script: Variant::nil(),
        }
    }

    pub fn is_typed(&self) -> bool {
        self.variant_type != VariantType::NIL
    }
}

/// A new, empty array of the given element type.
pub fn typed_array(element: &ElementSpec) -> VarArray {
    let mut array = VarArray::new();
    if element.is_typed() {
        // SAFETY: all pointers are to live values owned here. The array is new, empty and
        // held by no one else, which is what `set_typed` requires (it refuses, with an
        // error print, anything else). gdext's cached element type of this `VarArray`
        // stays "untyped"; the array leaves this crate only as a Variant, whose reader
        // asks the engine again.
        unsafe {
            interface_fn!(array_set_typed)(
                array.sys_mut(),
                element.variant_type.sys(),
                element.class_name.string_sys(),
                element.script.var_sys(),
            );
        }
    }
    array
}

/// The first engine version whose `Dictionary::set_typed(const ContainerType &, const
/// ContainerType &)` (core/variant/dictionary.cpp) types the values with their own script
/// (godotengine/godot PR #121277). Before it, from 4.4 (typed dictionaries) on, that
/// function passes the *key*'s script as the value script, and decoding goes through it.
const VALUE_SCRIPT_OWN_SINCE: (i64, i64, i64) = (4, 7, 3);

/// Whether the engine of `version` types a decoded Dictionary's values with their own
/// script rather than the key's.
fn value_script_own(version: (i64, i64, i64)) -> bool {
    version >= VALUE_SCRIPT_OWN_SINCE
}

/// A new, empty dictionary typed as the running engine's decoder types it: on engines
/// before [`VALUE_SCRIPT_OWN_SINCE`], with the key's script as the value script.
pub fn typed_dictionary(key: &ElementSpec, value: &ElementSpec) -> VarDictionary {
    let mut dictionary = VarDictionary::new();
    if key.is_typed() || value.is_typed() {
        let value_script = if value_script_own(crate::engine::probes::engine_version()) {
            &value.script
        } else {
            &key.script
        };
        // SAFETY: as in `typed_array`: live arguments, a new unshared empty dictionary.
        unsafe {
            interface_fn!(dictionary_set_typed)(
                dictionary.sys_mut(),
                key.variant_type.sys(),
                key.class_name.string_sys(),
                key.script.var_sys(),
                value.variant_type.sys(),
                value.class_name.string_sys(),
                value_script.var_sys(),
            );
        }
    }
    dictionary
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_value_script_follows_the_engine_version() {
        for version in [(4, 4, 0), (4, 5, 1), (4, 6, 3), (4, 7, 0), (4, 7, 2)] {
            assert!(!value_script_own(version), "{version:?}");
        }
        for version in [(4, 7, 3), (4, 7, 10), (4, 8, 0), (5, 0, 0)] {
            assert!(value_script_own(version), "{version:?}");
        }
    }
}
