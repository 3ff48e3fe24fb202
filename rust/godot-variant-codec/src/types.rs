//! The type table: Godot 4's `Variant::Type`, and each format generation's wire ids for it.

/// Declares [`VariantType`] from one table: the engine's order (which is the Godot 4 id)
/// and the engine's name of each type.
macro_rules! variant_types {
    ($($variant:ident = $name:literal,)*) => {
        /// Godot 4's `Variant::Type`, in the engine's order (the discriminant is the Godot 4 id).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum VariantType {
            $(#[doc = concat!("Godot's `", $name, "`.")] $variant,)*
        }

        impl VariantType {
            /// Every type, in id order.
            pub const ALL: [VariantType; [$(VariantType::$variant),*].len()] = [$(VariantType::$variant),*];

            /// The type with this Godot 4 id, if any: a compare per type, which the
            /// compiler folds into one bounds check (the ids are the discriminants), where
            /// a table would add a dependent load to every header read.
            #[inline(always)]
            pub const fn from_id(id: u32) -> Option<VariantType> {
                $(if id == VariantType::$variant as u32 {
                    return Some(VariantType::$variant);
                })*
                None
            }

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

    /// Nil, bool, int or float: the types whose payload is read whole in place.
    pub const fn is_scalar(self) -> bool {
        matches!(self, Self::Nil | Self::Bool | Self::Int | Self::Float)
    }

    /// A math type's (Vector2 to Projection, Color, the integer vectors) count of
    /// components, in the engine's order on the wire, and how they travel; `None` for the
    /// other types. The one table of the counts: the decoder, the serde types and
    /// [`decode_inline`](crate::decode_inline) read it.
    pub(crate) const fn math_components(self) -> Option<(usize, Component)> {
        use Component::{Real, F32, I32};
        Some(match self {
            Self::Vector2 => (2, Real),
            Self::Vector2i => (2, I32),
            Self::Rect2 => (4, Real),
            Self::Rect2i => (4, I32),
            Self::Vector3 => (3, Real),
            Self::Vector3i => (3, I32),
            Self::Transform2D => (6, Real),
            Self::Vector4 => (4, Real),
            Self::Vector4i => (4, I32),
            Self::Plane => (4, Real),
            Self::Quaternion => (4, Real),
            Self::Aabb => (6, Real),
            Self::Basis => (9, Real),
            Self::Transform3D => (12, Real),
            Self::Projection => (16, Real),
            Self::Color => (4, F32),
            _ => return None,
        })
    }

    /// The count of [`math_components`](Self::math_components), 0 for the other types: a
    /// constant for the length of a component array.
    pub(crate) const fn component_count(self) -> usize {
        match self.math_components() {
            Some((n, _)) => n,
            None => 0,
        }
    }
}

/// How a math type's components travel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Component {
    /// `real_t`: 32 bits, or 64 when the header is flagged (Godot 3 and 4).
    Real,
    /// Always a 32-bit float (Color).
    F32,
    /// A 32-bit int (the `…i` types).
    I32,
}

impl std::fmt::Display for VariantType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One generation of the format: its wire ids, and the rules in which it differs.
///
/// The layouts the generations share are the same rules, written once; a generation
/// says which types exist, the id each has on the wire, and the few places its rules
/// differ (typed containers, 64-bit math, RID payloads, text). Godot 3 and Godot 2 values
/// are read into Godot 4's model: Godot 3's `Quat` is a [`VariantType::Quaternion`],
/// `PoolRealArray` a [`VariantType::PackedFloat32Array`], and so on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Generation {
    number: u8,
    /// `wire_ids[wire id]` is the type that id stands for; `None` for ids of Godot 2 types
    /// without a Godot 4 twin (see [`Godot2Type`]). Empty for Godot 4, whose wire ids are
    /// the types' ids ([`VariantType::from_id`]).
    wire_ids: &'static [Option<VariantType>],
}

/// Godot 2 types with no Godot 4 twin, read as Dictionaries of a documented form (see
/// [`crate::godot2`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Godot2Type {
    /// `Image`, wire id 15.
    Image,
    /// `InputEvent`, wire id 19.
    InputEvent,
}

/// Godot 3.x `Variant::Type`, in its order, as the Godot 4 types they are read as.
const GODOT_3_IDS: [Option<VariantType>; 27] = {
    use VariantType as T;
    [
        Some(T::Nil),
        Some(T::Bool),
        Some(T::Int),
        Some(T::Float),
        Some(T::String),
        Some(T::Vector2),
        Some(T::Rect2),
        Some(T::Vector3),
        Some(T::Transform2D),
        Some(T::Plane),
        Some(T::Quaternion),
        Some(T::Aabb),
        Some(T::Basis),
        Some(T::Transform3D),
        Some(T::Color),
        Some(T::NodePath),
        Some(T::Rid),
        Some(T::Object),
        Some(T::Dictionary),
        Some(T::Array),
        Some(T::PackedByteArray),
        Some(T::PackedInt32Array),
        Some(T::PackedFloat32Array),
        Some(T::PackedStringArray),
        Some(T::PackedVector2Array),
        Some(T::PackedVector3Array),
        Some(T::PackedColorArray),
    ]
};

/// Godot 2's types with no Godot 4 twin, and their wire ids.
const GODOT_2_ONLY: [(u32, Godot2Type); 2] =
    [(15, Godot2Type::Image), (19, Godot2Type::InputEvent)];

/// Godot 2.x `Variant::Type`, in its order: Godot 3's types, with Image and InputEvent
/// (no twin) taking ids 15 and 19 and the types from Godot 3's 15 on moved up past them.
const GODOT_2_IDS: [Option<VariantType>; 29] = {
    let mut table = [None; 29];
    let (mut wire, mut godot3) = (0, 0);
    while wire < table.len() {
        let mut special = 0;
        while special < GODOT_2_ONLY.len() {
            if GODOT_2_ONLY[special].0 as usize == wire {
                wire += 1;
            }
            special += 1;
        }
        table[wire] = GODOT_3_IDS[godot3];
        wire += 1;
        godot3 += 1;
    }
    table
};

impl Generation {
    /// Godot 4.x: wire ids are `Variant::Type` ids.
    pub const GODOT_4: Generation = Generation {
        number: 4,
        wire_ids: &[],
    };

    /// Godot 3.x: 27 types, no typed containers, math types always in 32 bits, an RID
    /// as its header alone.
    pub const GODOT_3: Generation = Generation {
        number: 3,
        wire_ids: &GODOT_3_IDS,
    };

    /// Godot 2.x: Godot 3's types but for Image and InputEvent, in its own order.
    pub const GODOT_2: Generation = Generation {
        number: 2,
        wire_ids: &GODOT_2_IDS,
    };

    /// Every generation, newest first.
    pub const ALL: [Generation; 3] = [Self::GODOT_4, Self::GODOT_3, Self::GODOT_2];

    /// The generation of a Godot major version (2, 3 or 4).
    pub fn from_number(number: i64) -> Option<Generation> {
        Self::ALL
            .into_iter()
            .find(|g| i64::from(g.number) == number)
    }

    /// The Godot major version: 4, 3 or 2.
    pub const fn number(&self) -> u8 {
        self.number
    }

    /// "Godot 4", "Godot 3" or "Godot 2".
    pub fn name(&self) -> &'static str {
        match self.number {
            4 => "Godot 4",
            3 => "Godot 3",
            _ => "Godot 2",
        }
    }

    /// The type a wire id stands for in this generation.
    #[inline(always)]
    pub fn type_of(&self, wire_id: u32) -> Option<VariantType> {
        if self.number == 4 {
            return VariantType::from_id(wire_id);
        }
        *self.wire_ids.get(usize::try_from(wire_id).ok()?)?
    }

    /// The Godot 2 type without a Godot 4 twin that a wire id stands for.
    #[inline]
    pub fn godot2_type(&self, wire_id: u32) -> Option<Godot2Type> {
        if self.number != 2 {
            return None;
        }
        let (_, t) = GODOT_2_ONLY.iter().find(|(id, _)| *id == wire_id)?;
        Some(*t)
    }

    /// The wire id of a Godot 2 type without a Godot 4 twin (Godot 2 only).
    pub fn godot2_wire_id(&self, t: Godot2Type) -> Option<u32> {
        let (id, _) = GODOT_2_ONLY.iter().find(|(_, x)| *x == t)?;
        (self.number == 2).then_some(*id)
    }

    /// The wire id a value of type `t` is written with in this generation, if it can be
    /// written at all. Before Godot 4 there is no StringName: one is written as the String
    /// it names (GDScript compares the two equal), and reads back as that String.
    #[inline(always)]
    pub fn wire_id(&self, t: VariantType) -> Option<u32> {
        if self.number == 4 {
            return Some(t.id());
        }
        let t = if t == VariantType::StringName {
            VariantType::String
        } else {
            t
        };
        self.wire_ids
            .iter()
            .position(|&x| x == Some(t))
            .map(|i| i as u32)
    }

    /// Typed Arrays and Dictionaries (Godot 4 only): their header bits and element types.
    /// Before, the engine ignores the header's upper bits on a container.
    #[inline(always)]
    pub fn has_typed_containers(&self) -> bool {
        self.number >= 4
    }

    /// Math types and packed vector arrays in 64 bits, flagged, from double-precision
    /// builds (Godot 4 only; before, always 32 bits and the flag ignored).
    #[inline(always)]
    pub fn has_wide_reals(&self) -> bool {
        self.number >= 4
    }

    /// An RID's id follows its header (Godot 4); before, the header is all there is and an
    /// RID reads back empty.
    #[inline(always)]
    pub fn has_rid_payload(&self) -> bool {
        self.number >= 4
    }

    /// Whether a NodePath read with `names` names and `subnames` subnames is the empty path,
    /// whatever else it says: Godot 3's NodePath drops the absolute flag of a path with
    /// neither (`/` reads as the empty path), Godot 2's drops everything from a path
    /// without names; Godot 4 keeps what it reads.
    #[inline]
    pub fn empties_node_path(&self, names: usize, subnames: usize) -> bool {
        match self.number {
            4 => false,
            3 => names == 0 && subnames == 0,
            _ => names == 0,
        }
    }

    /// A full object's class as this generation names it on the wire, for a class named
    /// `godot4` in Godot 4 (Godot 3: `Node3D` is `Spatial`; see [`crate::godot3_class`]).
    pub fn wire_class<'a>(&self, godot4: &'a str) -> &'a str {
        match self.number {
            4 => godot4,
            _ => crate::godot3_class(godot4),
        }
    }

    /// The Godot 4 name of a class this generation names `wire` on the wire (the inverse
    /// of [`wire_class`](Self::wire_class) but where Godot 4 merged classes).
    pub fn godot4_class<'a>(&self, wire: &'a str) -> &'a str {
        match self.number {
            4 => wire,
            _ => crate::godot4_class(wire),
        }
    }

    /// A full object's `script` property is its script's `res://` path (Godot 4); before,
    /// it is whatever value the object holds, with no rule of its own.
    #[inline(always)]
    pub fn has_script_paths(&self) -> bool {
        self.number >= 4
    }

    /// How far past the end of its input a value's size may reach: the engine counts some
    /// bytes without checking they are there (a trailing PackedByteArray's padding, up to
    /// 3; in Godot 2 also an Image's padding or an InputEvent's length word, up to 4).
    /// [`decode`](crate::decode)'s count is the engine's, so it can exceed the input by
    /// this much, and never by more.
    pub fn max_counted_past_end(&self) -> usize {
        if self.number == 2 {
            4
        } else {
            3
        }
    }

    /// The header word's upper bits are flags and its low byte the type id (Godot 3 and
    /// 4). Godot 2's header is the type id alone: the engine compares the whole word with
    /// its type count, so a word with any other bit set names no type.
    #[inline(always)]
    pub fn has_header_flags(&self) -> bool {
        self.number >= 3
    }

    /// Ints and floats take 64 bits, flagged, when 32 do not hold them (Godot 3 and 4).
    /// Godot 2's int is a C `int` and its floats travel as IEEE singles: an int beyond
    /// 32 bits cannot be written, and a float is written narrowed to `f32`.
    #[inline(always)]
    pub fn has_wide_scalars(&self) -> bool {
        self.number >= 3
    }

    /// Whether an int of this value can be written: any in Godot 3 and 4, one within 32 bits
    /// in Godot 2 (see [`has_wide_scalars`](Self::has_wide_scalars)).
    #[inline(always)]
    pub fn holds_int(&self, i: i64) -> bool {
        self.has_wide_scalars() || i32::try_from(i).is_ok()
    }

    /// Whether writing the float `d` changes it: where floats travel as 32 bits only (Godot
    /// 2), a value no `f32` holds exactly is narrowed (NaN stays NaN).
    #[inline]
    pub fn narrows_float(&self, d: f64) -> bool {
        !self.has_wide_scalars() && f64::from(d as f32) != d && !d.is_nan()
    }

    /// Something follows an Object's header: an instance id or a whole object (Godot 3
    /// and 4). Godot 2 writes an Object as its header alone, whatever it holds, and reads
    /// that back as the null object.
    #[inline(always)]
    pub fn has_object_payload(&self) -> bool {
        self.number >= 3
    }

    /// A NodePath's property is a part of its own (Godot 2): flag bit 1 announces it after
    /// the subnames. It is read as one more, last, subname (as Godot 3 and 4 read that
    /// flag), an empty one is no property, and a path with subnames is written with the
    /// last as its property: the Godot 2 path of the same text (`a:b:c` has subname `b`
    /// and property `c` in Godot 2, subnames `b`, `c` in Godot 3 and 4).
    #[inline(always)]
    pub fn has_node_path_property(&self) -> bool {
        self.number == 2
    }
}

impl std::fmt::Display for Generation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
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

    #[test]
    fn godot2_ids_are_godot3s_around_image_and_input_event() {
        let g2 = Generation::GODOT_2;
        assert_eq!(g2.type_of(14), Some(VariantType::Color));
        assert_eq!((g2.type_of(15), g2.type_of(19)), (None, None));
        assert_eq!(g2.godot2_type(15), Some(Godot2Type::Image));
        assert_eq!(g2.godot2_wire_id(Godot2Type::InputEvent), Some(19));
        assert_eq!(g2.type_of(16), Some(VariantType::NodePath));
        assert_eq!(g2.type_of(18), Some(VariantType::Object));
        assert_eq!(g2.type_of(20), Some(VariantType::Dictionary));
        assert_eq!(g2.type_of(28), Some(VariantType::PackedColorArray));
        assert_eq!(g2.type_of(29), None);
        assert_eq!(Generation::GODOT_3.godot2_type(15), None);
    }
}
