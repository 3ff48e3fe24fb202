//! The type table: Godot 4's `Variant::Type`, and each format generation's wire ids for it.

/// Declares [`VariantType`] from one table: the engine's order (which is the Godot 4 id)
/// and the engine's name of each type.
macro_rules! variant_types {
    ($($variant:ident = $name:literal,)*) => {
        /// Godot 4's `Variant::Type`, in the engine's order (the discriminant is the Godot 4 id).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum VariantType {
            $($variant,)*
        }

        impl VariantType {
            /// Every type, in id order.
            pub const ALL: [VariantType; [$(VariantType::$variant),*].len()] = [$(VariantType::$variant),*];

            /// The engine's name for the type, as `type_string()` gives it.
            pub fn name(self) -> &'static str {
                match self {
                    $(VariantType::$variant => $name,)*
                }
            }
        }
    };
}

variant_types! {
    Nil = "Nil",
    Bool = "bool",
    Int = "int",
    Float = "float",
    String = "String",
    Vector2 = "Vector2",
    Vector2i = "Vector2i",
    Rect2 = "Rect2",
    Rect2i = "Rect2i",
    Vector3 = "Vector3",
    Vector3i = "Vector3i",
    Transform2D = "Transform2D",
    Vector4 = "Vector4",
    Vector4i = "Vector4i",
    Plane = "Plane",
    Quaternion = "Quaternion",
    Aabb = "AABB",
    Basis = "Basis",
    Transform3D = "Transform3D",
    Projection = "Projection",
    Color = "Color",
    StringName = "StringName",
    NodePath = "NodePath",
    Rid = "RID",
    Object = "Object",
    Callable = "Callable",
    Signal = "Signal",
    Dictionary = "Dictionary",
    Array = "Array",
    PackedByteArray = "PackedByteArray",
    PackedInt32Array = "PackedInt32Array",
    PackedInt64Array = "PackedInt64Array",
    PackedFloat32Array = "PackedFloat32Array",
    PackedFloat64Array = "PackedFloat64Array",
    PackedStringArray = "PackedStringArray",
    PackedVector2Array = "PackedVector2Array",
    PackedVector3Array = "PackedVector3Array",
    PackedColorArray = "PackedColorArray",
    PackedVector4Array = "PackedVector4Array",
}

impl VariantType {
    /// The Godot 4 `Variant::Type` id.
    pub const fn id(self) -> u32 {
        self as u32
    }

    /// The type with this Godot 4 id, if any.
    pub fn from_id(id: u32) -> Option<VariantType> {
        Self::ALL.get(usize::try_from(id).ok()?).copied()
    }
}

impl std::fmt::Display for VariantType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One generation of the format: how its wire type ids map to [`VariantType`].
///
/// The layouts of the types the generations share are the same rules; what differs is
/// the id table and which types exist. Godot 3 and Godot 2 tables belong here beside
/// [`Generation::GODOT_4`], not in a copy of the codec.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Generation {
    pub name: &'static str,
    /// `wire_ids[wire id]` is the type that id stands for.
    wire_ids: &'static [VariantType],
}

impl Generation {
    /// Godot 4.x: wire ids are `Variant::Type` ids.
    pub const GODOT_4: Generation = Generation {
        name: "Godot 4",
        wire_ids: &VariantType::ALL,
    };

    /// The type a wire id stands for in this generation.
    pub fn type_of(&self, wire_id: u32) -> Option<VariantType> {
        self.wire_ids.get(usize::try_from(wire_id).ok()?).copied()
    }

    /// The wire id of a type in this generation, if the generation has the type.
    pub fn wire_id(&self, t: VariantType) -> Option<u32> {
        self.wire_ids.iter().position(|&x| x == t).map(|i| i as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_the_engines_order() {
        for (i, t) in VariantType::ALL.iter().enumerate() {
            assert_eq!(t.id() as usize, i);
            assert_eq!(VariantType::from_id(i as u32), Some(*t));
        }
        assert_eq!(VariantType::from_id(39), None);
        assert_eq!(VariantType::PackedVector4Array.id(), 38);
        assert_eq!(VariantType::Object.id(), 24);
        assert_eq!(Generation::GODOT_4.wire_id(VariantType::Array), Some(28));
    }
}
