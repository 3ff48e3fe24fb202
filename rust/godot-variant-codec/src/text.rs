//! Values as text, exactly as Godot's `var_to_str` writes the value `bytes_to_var` gives:
//! what `godot-variant inspect` prints, tested against the engine for every type.
//!
//! The text is a single-precision engine's (Godot's default build): math components that
//! arrived in 64 bits are rounded to 32 first, as such an engine's `bytes_to_var` rounds
//! them. Numbers are written as the engine writes them (shortest digits that read back,
//! exponent below 1e-4 and from 1e15 on, `inf`, `inf_neg`, `nan`), Dictionaries with their
//! keys sorted as the engine sorts them, containers nested more than the engine's
//! 100 levels as `[]` / `{}`.
//!
//! ```
//! use godot_variant_codec::{text::var_to_str, Reals, Value};
//!
//! assert_eq!(var_to_str(&Value::Float(1.0)), "1.0");
//! assert_eq!(var_to_str(&Value::Vector2(Reals::Single([0.1, 2.0]))), "Vector2(0.1, 2)");
//! ```

use std::fmt::Write;

use crate::value::{ContainerType, NodePath, Object, PackedReals, Reals, Value};
use crate::ENCODED_OBJECT_AS_ID;

/// The engine's `MAX_RECURSION` of its text writer: deeper containers are written empty.
const MAX_RECURSION: usize = 100;

/// The text Godot's `var_to_str` gives for `value`.
pub fn var_to_str(value: &Value) -> String {
    let mut out = String::new();
    write_value(&mut out, value, 0);
    out
}

/// The text of a NodePath, as the engine's `String(NodePath)` writes it: `/` first when
/// absolute, the names joined by `/`, then `:` and the subnames joined by `:` unless that
/// join is empty.
pub fn node_path_text(absolute: bool, names: &[&str], subnames: &[&str]) -> String {
    // The subpath is written when its joined text is not empty.
    let subpath = subnames.len() > 1 || subnames.iter().any(|s| !s.is_empty());
    let separators = usize::from(absolute) + names.len() + subnames.len();
    let texts: usize = names.iter().chain(subnames).map(|t| t.len()).sum();
    let mut text = String::with_capacity(separators + texts);
    if absolute {
        text.push('/');
    }
    for (i, name) in names.iter().enumerate() {
        if i > 0 {
            text.push('/');
        }
        text.push_str(name);
    }
    if subpath {
        for subname in subnames {
            text.push(':');
            text.push_str(subname);
        }
    }
    text
}

fn write_value(out: &mut String, value: &Value, depth: usize) {
    use Value as V;
    match value {
        V::Nil => out.push_str("null"),
        V::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        V::Int(i) => write!(out, "{i}").unwrap(),
        V::Float(f) => {
            let s = real(*f);
            out.push_str(&s);
            if s != "inf" && s != "nan" && !s.contains(['.', 'e', 'E']) {
                out.push_str(".0");
            }
        }
        V::String(s) => {
            out.push('"');
            escape_multiline(out, s);
            out.push('"');
        }
        V::Vector2(r) => reals(out, "Vector2", r),
        V::Vector2i(v) => ints(out, "Vector2i", v),
        V::Rect2(r) => reals(out, "Rect2", r),
        V::Rect2i(v) => ints(out, "Rect2i", v),
        V::Vector3(r) => reals(out, "Vector3", r),
        V::Vector3i(v) => ints(out, "Vector3i", v),
        V::Transform2D(r) => reals(out, "Transform2D", r),
        V::Vector4(r) => reals(out, "Vector4", r),
        V::Vector4i(v) => ints(out, "Vector4i", v),
        V::Plane(r) => reals(out, "Plane", r),
        V::Quaternion(r) => reals(out, "Quaternion", r),
        V::Aabb(r) => reals(out, "AABB", r),
        V::Basis(r) => reals(out, "Basis", r),
        V::Transform3D(r) => reals(out, "Transform3D", r),
        V::Projection(r) => reals(out, "Projection", r),
        V::Color(c) => reals(out, "Color", &Reals::Single(*c)),
        V::StringName(s) => {
            out.push_str("&\"");
            escape(out, s);
            out.push('"');
        }
        V::NodePath(p) => {
            out.push_str("NodePath(\"");
            escape(out, &path_text(p));
            out.push_str("\")");
        }
        V::Rid(0) => out.push_str("RID()"),
        V::Rid(id) => write!(out, "RID({})", *id as i64).unwrap(),
        V::Object(Object::Null) => out.push_str("null"),
        V::Object(Object::Id(id)) => writeln!(
            out,
            "Object({ENCODED_OBJECT_AS_ID},\"object_id\":{},\"script\":null)",
            *id as i64
        )
        .unwrap(),
        V::Object(Object::Full(object)) => {
            // What the engine writes for an object of a class without a script: its class
            // and stored properties (the engine lists every stored property of the class,
            // which only the engine knows; these are the ones the bytes hold).
            write!(out, "Object({},", object.class).unwrap();
            for (i, (name, value)) in object.properties.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write!(out, "\"{name}\":").unwrap();
                write_value(out, value, depth + 1);
            }
            out.push_str(")\n");
        }
        V::Callable => out.push_str("Callable()"),
        V::Signal(_) => out.push_str("Signal()"),
        V::Dictionary(d) => {
            let typed =
                d.key_type != ContainerType::Untyped || d.value_type != ContainerType::Untyped;
            if typed {
                write!(
                    out,
                    "Dictionary[{}, {}](",
                    type_text(&d.key_type),
                    type_text(&d.value_type)
                )
                .unwrap();
            }
            if depth > MAX_RECURSION || d.entries.is_empty() {
                out.push_str("{}");
            } else {
                let mut order: Vec<usize> = (0..d.entries.len()).collect();
                sort(&mut order, |&a, &b| {
                    string_like_less(&d.entries[a].0, &d.entries[b].0)
                });
                out.push_str("{\n");
                for (i, &k) in order.iter().enumerate() {
                    let (key, value) = &d.entries[k];
                    write_value(out, key, depth + 1);
                    out.push_str(": ");
                    write_value(out, value, depth + 1);
                    out.push_str(if i + 1 < order.len() { ",\n" } else { "\n" });
                }
                out.push('}');
            }
            if typed {
                out.push(')');
            }
        }
        V::Array(a) => {
            let typed = a.element_type != ContainerType::Untyped;
            if typed {
                write!(out, "Array[{}](", type_text(&a.element_type)).unwrap();
            }
            if depth > MAX_RECURSION {
                out.push_str("[]");
            } else {
                out.push('[');
                for (i, item) in a.items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    write_value(out, item, depth + 1);
                }
                out.push(']');
            }
            if typed {
                out.push(')');
            }
        }
        V::PackedByteArray(v) => list(out, "PackedByteArray", v, |out, b| {
            write!(out, "{b}").unwrap();
        }),
        V::PackedInt32Array(v) => list(out, "PackedInt32Array", v, |out, i| {
            write!(out, "{i}").unwrap();
        }),
        V::PackedInt64Array(v) => list(out, "PackedInt64Array", v, |out, i| {
            write!(out, "{i}").unwrap();
        }),
        V::PackedFloat32Array(v) => list(out, "PackedFloat32Array", v, |out, f| {
            out.push_str(&real(f64::from(*f)));
        }),
        V::PackedFloat64Array(v) => list(out, "PackedFloat64Array", v, |out, f| {
            out.push_str(&real(*f));
        }),
        V::PackedStringArray(v) => list(out, "PackedStringArray", v, |out, s| {
            out.push('"');
            escape(out, s);
            out.push('"');
        }),
        V::PackedVector2Array(v) => packed_reals(out, "PackedVector2Array", v),
        V::PackedVector3Array(v) => packed_reals(out, "PackedVector3Array", v),
        V::PackedColorArray(v) => list(out, "PackedColorArray", v, |out, c| {
            components(out, &c.map(f64::from));
        }),
        V::PackedVector4Array(v) => packed_reals(out, "PackedVector4Array", v),
    }
}

fn path_text(p: &NodePath) -> String {
    let names: Vec<&str> = p.names.iter().map(String::as_str).collect();
    let subnames: Vec<&str> = p.subnames.iter().map(String::as_str).collect();
    node_path_text(p.absolute, &names, &subnames)
}

/// A typed container's element type, as the engine names it.
fn type_text(t: &ContainerType) -> &str {
    match t {
        ContainerType::Untyped => "Variant",
        ContainerType::Builtin(t) => t.name(),
        ContainerType::ClassName(name) => name,
        ContainerType::Script(path) => path,
    }
}

fn list<T>(out: &mut String, name: &str, items: &[T], mut item: impl FnMut(&mut String, &T)) {
    out.push_str(name);
    out.push('(');
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        item(out, x);
    }
    out.push(')');
}

/// Components as the engine's `real_t` (32 bits) holds them.
fn components(out: &mut String, values: &[f64]) {
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&real(*v));
    }
}

fn reals<const N: usize>(out: &mut String, name: &str, r: &Reals<N>) {
    out.push_str(name);
    out.push('(');
    components(out, &r.to_f32().map(f64::from));
    out.push(')');
}

fn packed_reals<const N: usize>(out: &mut String, name: &str, p: &PackedReals<N>) {
    let single: Vec<[f32; N]> = match p {
        PackedReals::Single(v) => v.clone(),
        PackedReals::Double(v) => v.iter().map(|x| x.map(|c| c as f32)).collect(),
    };
    list(out, name, &single, |out, x| {
        components(out, &x.map(f64::from))
    });
}

fn ints<const N: usize>(out: &mut String, name: &str, v: &[i32; N]) {
    list(out, name, v, |out, i| write!(out, "{i}").unwrap());
}

/// A number as the engine's text writer writes it (`rtos_fix`): `0` for either zero,
/// `inf_neg` for minus infinity, else the digits of the engine's Grisu2: those of the `f32`
/// when the number is one (the engine's math types are), else of the `f64`.
fn real(v: f64) -> String {
    if v == 0.0 {
        return "0".into();
    }
    if v.is_nan() {
        return "nan".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "inf" } else { "inf_neg" }.into();
    }
    let (digits, exponent) = if f64::from(v as f32) == v {
        grisu::digits(u64::from((v.abs() as f32).to_bits()), grisu::F32)
    } else {
        grisu::digits(v.abs().to_bits(), grisu::F64)
    };
    lay_out(v < 0.0, &digits, exponent)
}

/// Decimal digits `digits` × 10^`exponent` as the engine lays them out (its
/// `format_buffer` with the exponent range [-4, 15), without a trailing `.0`): in
/// positional notation when the decimal point falls from 4 zeros before the digits to 15
/// digits after their start, else as `d.ddde±XX`.
fn lay_out(negative: bool, digits: &str, exponent: i32) -> String {
    let len = digits.len() as i32;
    // Where the decimal point is, from the start of the digits.
    let point = len + exponent;
    let mut out = String::from(if negative { "-" } else { "" });
    if len <= point && point <= 15 {
        out.push_str(digits);
        out.push_str(&"0".repeat((point - len) as usize));
    } else if 0 < point && point <= 15 {
        out.push_str(&digits[..point as usize]);
        out.push('.');
        out.push_str(&digits[point as usize..]);
    } else if -4 < point && point <= 0 {
        out.push_str("0.");
        out.push_str(&"0".repeat((-point) as usize));
        out.push_str(digits);
    } else {
        out.push_str(&digits[..1]);
        if len > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        let e = point - 1;
        write!(out, "e{}{:02}", if e < 0 { '-' } else { '+' }, e.abs()).unwrap();
    }
    out
}

/// Grisu2 (Loitsch), in the form the engine's `num_scientific` uses: the digits it picks
/// are not always the shortest (it keeps away from the exact midpoints between floats,
/// where a reader's tie-breaking would decide), so this is that algorithm, not Rust's.
mod grisu {
    /// A float format: significand bits (with the hidden bit) and exponent bias.
    #[derive(Clone, Copy)]
    pub struct Format {
        precision: u32,
        bias: i32,
    }

    pub const F64: Format = Format {
        precision: 53,
        bias: 1075,
    };
    pub const F32: Format = Format {
        precision: 24,
        bias: 150,
    };

    /// `f` × 2^`e`.
    #[derive(Clone, Copy)]
    struct DiyFp {
        f: u64,
        e: i32,
    }

    impl DiyFp {
        fn sub(self, other: DiyFp) -> DiyFp {
            DiyFp {
                f: self.f - other.f,
                e: self.e,
            }
        }

        /// The product's upper 64 bits, rounded.
        fn mul(self, other: DiyFp) -> DiyFp {
            let product = u128::from(self.f) * u128::from(other.f) + (1u128 << 63);
            DiyFp {
                f: (product >> 64) as u64,
                e: self.e + other.e + 64,
            }
        }

        fn normalize(self) -> DiyFp {
            let shift = self.f.leading_zeros();
            DiyFp {
                f: self.f << shift,
                e: self.e - shift as i32,
            }
        }

        fn normalize_to(self, e: i32) -> DiyFp {
            DiyFp {
                f: self.f << (self.e - e),
                e,
            }
        }
    }

    /// Cached powers of ten: `f` × 2^`e` ≈ 10^`k`, every 8th from 10^-300.
    const CACHED_POWERS: [(u64, i32, i32); 79] = [
        (0xAB70FE17C79AC6CA, -1060, -300),
        (0xFF77B1FCBEBCDC4F, -1034, -292),
        (0xBE5691EF416BD60C, -1007, -284),
        (0x8DD01FAD907FFC3C, -980, -276),
        (0xD3515C2831559A83, -954, -268),
        (0x9D71AC8FADA6C9B5, -927, -260),
        (0xEA9C227723EE8BCB, -901, -252),
        (0xAECC49914078536D, -874, -244),
        (0x823C12795DB6CE57, -847, -236),
        (0xC21094364DFB5637, -821, -228),
        (0x9096EA6F3848984F, -794, -220),
        (0xD77485CB25823AC7, -768, -212),
        (0xA086CFCD97BF97F4, -741, -204),
        (0xEF340A98172AACE5, -715, -196),
        (0xB23867FB2A35B28E, -688, -188),
        (0x84C8D4DFD2C63F3B, -661, -180),
        (0xC5DD44271AD3CDBA, -635, -172),
        (0x936B9FCEBB25C996, -608, -164),
        (0xDBAC6C247D62A584, -582, -156),
        (0xA3AB66580D5FDAF6, -555, -148),
        (0xF3E2F893DEC3F126, -529, -140),
        (0xB5B5ADA8AAFF80B8, -502, -132),
        (0x87625F056C7C4A8B, -475, -124),
        (0xC9BCFF6034C13053, -449, -116),
        (0x964E858C91BA2655, -422, -108),
        (0xDFF9772470297EBD, -396, -100),
        (0xA6DFBD9FB8E5B88F, -369, -92),
        (0xF8A95FCF88747D94, -343, -84),
        (0xB94470938FA89BCF, -316, -76),
        (0x8A08F0F8BF0F156B, -289, -68),
        (0xCDB02555653131B6, -263, -60),
        (0x993FE2C6D07B7FAC, -236, -52),
        (0xE45C10C42A2B3B06, -210, -44),
        (0xAA242499697392D3, -183, -36),
        (0xFD87B5F28300CA0E, -157, -28),
        (0xBCE5086492111AEB, -130, -20),
        (0x8CBCCC096F5088CC, -103, -12),
        (0xD1B71758E219652C, -77, -4),
        (0x9C40000000000000, -50, 4),
        (0xE8D4A51000000000, -24, 12),
        (0xAD78EBC5AC620000, 3, 20),
        (0x813F3978F8940984, 30, 28),
        (0xC097CE7BC90715B3, 56, 36),
        (0x8F7E32CE7BEA5C70, 83, 44),
        (0xD5D238A4ABE98068, 109, 52),
        (0x9F4F2726179A2245, 136, 60),
        (0xED63A231D4C4FB27, 162, 68),
        (0xB0DE65388CC8ADA8, 189, 76),
        (0x83C7088E1AAB65DB, 216, 84),
        (0xC45D1DF942711D9A, 242, 92),
        (0x924D692CA61BE758, 269, 100),
        (0xDA01EE641A708DEA, 295, 108),
        (0xA26DA3999AEF774A, 322, 116),
        (0xF209787BB47D6B85, 348, 124),
        (0xB454E4A179DD1877, 375, 132),
        (0x865B86925B9BC5C2, 402, 140),
        (0xC83553C5C8965D3D, 428, 148),
        (0x952AB45CFA97A0B3, 455, 156),
        (0xDE469FBD99A05FE3, 481, 164),
        (0xA59BC234DB398C25, 508, 172),
        (0xF6C69A72A3989F5C, 534, 180),
        (0xB7DCBF5354E9BECE, 561, 188),
        (0x88FCF317F22241E2, 588, 196),
        (0xCC20CE9BD35C78A5, 614, 204),
        (0x98165AF37B2153DF, 641, 212),
        (0xE2A0B5DC971F303A, 667, 220),
        (0xA8D9D1535CE3B396, 694, 228),
        (0xFB9B7CD9A4A7443C, 720, 236),
        (0xBB764C4CA7A44410, 747, 244),
        (0x8BAB8EEFB6409C1A, 774, 252),
        (0xD01FEF10A657842C, 800, 260),
        (0x9B10A4E5E9913129, 827, 268),
        (0xE7109BFBA19C0C9D, 853, 276),
        (0xAC2820D9623BF429, 880, 284),
        (0x80444B5E7AA7CF85, 907, 292),
        (0xBF21E44003ACDD2D, 933, 300),
        (0x8E679C2F5E44FF8F, 960, 308),
        (0xD433179D9C8CB841, 986, 316),
        (0x9E19DB92B4E31BA9, 1013, 324),
    ];

    const ALPHA: i32 = -60;

    /// The digits and decimal exponent (value = digits × 10^exponent) of the positive,
    /// finite, non-zero float whose bits are `bits` in `format`.
    pub fn digits(bits: u64, format: Format) -> (String, i32) {
        let hidden = 1u64 << (format.precision - 1);
        let biased = (bits >> (format.precision - 1)) as i32;
        let fraction = bits & (hidden - 1);
        let v = if biased == 0 {
            DiyFp {
                f: fraction,
                e: 1 - format.bias,
            }
        } else {
            DiyFp {
                f: fraction + hidden,
                e: biased - format.bias,
            }
        };
        let lower_closer = fraction == 0 && biased > 1;
        let m_plus = DiyFp {
            f: 2 * v.f + 1,
            e: v.e - 1,
        }
        .normalize();
        let m_minus = if lower_closer {
            DiyFp {
                f: 4 * v.f - 1,
                e: v.e - 2,
            }
        } else {
            DiyFp {
                f: 2 * v.f - 1,
                e: v.e - 1,
            }
        }
        .normalize_to(m_plus.e);
        let v = v.normalize();

        let f = ALPHA - m_plus.e - 1;
        let k = (f * 78913) / (1 << 18) + i32::from(f > 0);
        let index = ((300 + k + 7) / 8) as usize;
        let (cf, ce, ck) = CACHED_POWERS[index];
        let c = DiyFp { f: cf, e: ce };
        let w = v.mul(c);
        let w_minus = m_minus.mul(c);
        let w_plus = m_plus.mul(c);
        let lower = DiyFp {
            f: w_minus.f + 1,
            e: w_minus.e,
        };
        let upper = DiyFp {
            f: w_plus.f - 1,
            e: w_plus.e,
        };
        let mut buffer = Vec::with_capacity(17);
        let exponent = digit_gen(&mut buffer, -ck, lower, w, upper);
        (String::from_utf8(buffer).expect("ASCII digits"), exponent)
    }

    fn digit_gen(
        buffer: &mut Vec<u8>,
        mut exponent: i32,
        low: DiyFp,
        w: DiyFp,
        high: DiyFp,
    ) -> i32 {
        let mut delta = high.sub(low).f;
        let mut dist = high.sub(w).f;
        let shift = -high.e as u32;
        let one = 1u64 << shift;
        let mut p1 = (high.f >> shift) as u32;
        let mut p2 = high.f & (one - 1);

        let mut n = if p1 == 0 { 1 } else { p1.ilog10() + 1 };
        let mut pow10 = 10u32.pow(n - 1);
        while n > 0 {
            buffer.push(b'0' + (p1 / pow10) as u8);
            p1 %= pow10;
            n -= 1;
            let rest = (u64::from(p1) << shift) + p2;
            if rest <= delta {
                exponent += n as i32;
                round(buffer, dist, delta, rest, u64::from(pow10) << shift);
                return exponent;
            }
            pow10 /= 10;
        }
        let mut m = 0;
        loop {
            p2 *= 10;
            buffer.push(b'0' + (p2 >> shift) as u8);
            p2 &= one - 1;
            m += 1;
            delta *= 10;
            dist *= 10;
            if p2 <= delta {
                break;
            }
        }
        round(buffer, dist, delta, p2, one);
        exponent - m
    }

    fn round(buffer: &mut [u8], dist: u64, delta: u64, mut rest: u64, ten_k: u64) {
        let last = buffer.len() - 1;
        while rest < dist
            && delta - rest >= ten_k
            && (rest + ten_k < dist || dist - rest > rest + ten_k - dist)
        {
            buffer[last] -= 1;
            rest += ten_k;
        }
    }
}

/// `String::c_escape_multiline`: backslashes and double quotes.
fn escape_multiline(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            c => out.push(c),
        }
    }
}

/// `String::c_escape`: backslashes, quotes and the C control escapes.
fn escape(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\x07' => out.push_str("\\a"),
            '\x08' => out.push_str("\\b"),
            '\x0C' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\x0B' => out.push_str("\\v"),
            '\'' => out.push_str("\\'"),
            '"' => out.push_str("\\\""),
            c => out.push(c),
        }
    }
}

/// The engine's `StringLikeVariantOrder`: Strings and StringNames by their text, anything
/// else by `Variant::operator<`.
fn string_like_less(a: &Value, b: &Value) -> bool {
    match (string_like(a), string_like(b)) {
        (Some(a), Some(b)) => a < b,
        _ => variant_less(a, b),
    }
}

fn string_like(v: &Value) -> Option<&str> {
    match v {
        Value::String(s) | Value::StringName(s) => Some(s),
        _ => None,
    }
}

/// `Variant::operator<`: by type id first, then the type's own `<` where it has one
/// (false where it has none).
fn variant_less(a: &Value, b: &Value) -> bool {
    let (ta, tb) = (a.variant_type(), b.variant_type());
    if ta != tb {
        return ta < tb;
    }
    use Value as V;
    match (a, b) {
        (V::Bool(x), V::Bool(y)) => x < y,
        (V::Int(x), V::Int(y)) => x < y,
        (V::Float(x), V::Float(y)) => x < y,
        (V::String(x), V::String(y)) | (V::StringName(x), V::StringName(y)) => x < y,
        (V::Vector2(x), V::Vector2(y)) => lexicographic_less(&x.to_f32(), &y.to_f32()),
        (V::Vector3(x), V::Vector3(y)) => lexicographic_less(&x.to_f32(), &y.to_f32()),
        (V::Vector4(x), V::Vector4(y)) => lexicographic_less(&x.to_f32(), &y.to_f32()),
        (V::Vector2i(x), V::Vector2i(y)) => lexicographic_less(x, y),
        (V::Vector3i(x), V::Vector3i(y)) => lexicographic_less(x, y),
        (V::Vector4i(x), V::Vector4i(y)) => lexicographic_less(x, y),
        (V::Rid(x), V::Rid(y)) => x < y,
        (V::Array(x), V::Array(y)) => {
            for (p, q) in x.items.iter().zip(&y.items) {
                if variant_less(p, q) {
                    return true;
                }
                if variant_less(q, p) {
                    return false;
                }
            }
            x.items.len() < y.items.len()
        }
        _ => false,
    }
}

/// The math vectors' `<`: the first component that differs decides.
fn lexicographic_less<T: PartialOrd>(a: &[T], b: &[T]) -> bool {
    for (x, y) in a.iter().zip(b) {
        if x != y {
            return x < y;
        }
    }
    false
}

/// The engine's `SortArray::sort` (introsort, then a final insertion sort), step for step:
/// with a comparison that is not a strict order (values without `<`), the order it leaves
/// is the engine's only if the algorithm is the same.
fn sort<T: Copy>(items: &mut [T], less: impl Fn(&T, &T) -> bool) {
    let len = items.len();
    if len == 0 {
        return;
    }
    let sorter = Sorter { less: &less };
    let max_depth = 2 * (usize::BITS - 1 - len.leading_zeros()) as usize;
    sorter.introsort(items, 0, len, max_depth);
    sorter.final_insertion_sort(items, 0, len);
}

const INTROSORT_THRESHOLD: usize = 16;

struct Sorter<'a, F> {
    less: &'a F,
}

impl<F> Sorter<'_, F> {
    fn lt<T>(&self, a: &T, b: &T) -> bool
    where
        F: Fn(&T, &T) -> bool,
    {
        (self.less)(a, b)
    }

    fn median_of_3<T: Copy>(&self, a: T, b: T, c: T) -> T
    where
        F: Fn(&T, &T) -> bool,
    {
        if self.lt(&a, &b) {
            if self.lt(&b, &c) {
                b
            } else if self.lt(&a, &c) {
                c
            } else {
                a
            }
        } else if self.lt(&a, &c) {
            a
        } else if self.lt(&b, &c) {
            c
        } else {
            b
        }
    }

    fn introsort<T: Copy>(&self, v: &mut [T], first: usize, mut last: usize, mut depth: usize)
    where
        F: Fn(&T, &T) -> bool,
    {
        while last - first > INTROSORT_THRESHOLD {
            if depth == 0 {
                self.partial_sort(v, first, last, last);
                return;
            }
            depth -= 1;
            let pivot = self.median_of_3(v[first], v[first + (last - first) / 2], v[last - 1]);
            let cut = self.partitioner(v, first, last, pivot);
            self.introsort(v, cut, last, depth);
            last = cut;
        }
    }

    fn partitioner<T: Copy>(
        &self,
        v: &mut [T],
        mut first: usize,
        mut last: usize,
        pivot: T,
    ) -> usize
    where
        F: Fn(&T, &T) -> bool,
    {
        let (lo, hi) = (first, last);
        loop {
            // The engine stops a run that would leave the range (a bad comparison).
            while first + 1 < hi && self.lt(&v[first], &pivot) {
                first += 1;
            }
            last -= 1;
            while last > lo && self.lt(&pivot, &v[last]) {
                last -= 1;
            }
            if first >= last {
                return first;
            }
            v.swap(first, last);
            first += 1;
        }
    }

    fn partial_sort<T: Copy>(&self, v: &mut [T], first: usize, last: usize, middle: usize)
    where
        F: Fn(&T, &T) -> bool,
    {
        self.make_heap(v, first, middle);
        for i in middle..last {
            if self.lt(&v[i], &v[first]) {
                let value = v[i];
                self.pop_heap_to(v, first, middle, i, value);
            }
        }
        self.sort_heap(v, first, middle);
    }

    fn make_heap<T: Copy>(&self, v: &mut [T], first: usize, last: usize)
    where
        F: Fn(&T, &T) -> bool,
    {
        if last - first < 2 {
            return;
        }
        let len = last - first;
        let mut parent = (len - 2) / 2;
        loop {
            let value = v[first + parent];
            self.adjust_heap(v, first, parent, len, value);
            if parent == 0 {
                return;
            }
            parent -= 1;
        }
    }

    fn sort_heap<T: Copy>(&self, v: &mut [T], first: usize, mut last: usize)
    where
        F: Fn(&T, &T) -> bool,
    {
        while last - first > 1 {
            let value = v[last - 1];
            self.pop_heap_to(v, first, last - 1, last - 1, value);
            last -= 1;
        }
    }

    fn pop_heap_to<T: Copy>(&self, v: &mut [T], first: usize, last: usize, result: usize, value: T)
    where
        F: Fn(&T, &T) -> bool,
    {
        v[result] = v[first];
        self.adjust_heap(v, first, 0, last - first, value);
    }

    fn adjust_heap<T: Copy>(&self, v: &mut [T], first: usize, mut hole: usize, len: usize, value: T)
    where
        F: Fn(&T, &T) -> bool,
    {
        let top = hole;
        let mut second = 2 * hole + 2;
        while second < len {
            if self.lt(&v[first + second], &v[first + second - 1]) {
                second -= 1;
            }
            v[first + hole] = v[first + second];
            hole = second;
            second = 2 * (second + 1);
        }
        if second == len {
            v[first + hole] = v[first + second - 1];
            hole = second - 1;
        }
        // push_heap
        let mut parent = hole.wrapping_sub(1) / 2;
        while hole > top && self.lt(&v[first + parent], &value) {
            v[first + hole] = v[first + parent];
            hole = parent;
            parent = hole.wrapping_sub(1) / 2;
        }
        v[first + hole] = value;
    }

    fn final_insertion_sort<T: Copy>(&self, v: &mut [T], first: usize, last: usize)
    where
        F: Fn(&T, &T) -> bool,
    {
        if last - first > INTROSORT_THRESHOLD {
            self.insertion_sort(v, first, first + INTROSORT_THRESHOLD);
            for i in first + INTROSORT_THRESHOLD..last {
                let value = v[i];
                self.unguarded_linear_insert(v, i, value);
            }
        } else {
            self.insertion_sort(v, first, last);
        }
    }

    fn insertion_sort<T: Copy>(&self, v: &mut [T], first: usize, last: usize)
    where
        F: Fn(&T, &T) -> bool,
    {
        for i in first + 1..last {
            let value = v[i];
            if self.lt(&value, &v[first]) {
                v.copy_within(first..i, first + 1);
                v[first] = value;
            } else {
                self.unguarded_linear_insert(v, i, value);
            }
        }
    }

    fn unguarded_linear_insert<T: Copy>(&self, v: &mut [T], mut last: usize, value: T)
    where
        F: Fn(&T, &T) -> bool,
    {
        let mut next = last - 1;
        while self.lt(&value, &v[next]) {
            if next == 0 {
                // The engine's check of a bad comparison: it stops short of the front.
                break;
            }
            v[last] = v[next];
            last = next;
            next -= 1;
        }
        v[last] = value;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The engine's `String(NodePath)`: `/` before absolute paths, names joined by `/`, then
    /// `:` and the subnames joined by `:` when that join is not empty.
    #[test]
    fn node_paths_are_written_as_the_engine_joins_them() {
        let engine = |absolute: bool, names: &[&str], subnames: &[&str]| {
            let subpath = subnames.join(":");
            let prefix = if absolute { "/" } else { "" };
            let names = names.join("/");
            if subpath.is_empty() {
                format!("{prefix}{names}")
            } else {
                format!("{prefix}{names}:{subpath}")
            }
        };
        let lists: [&[&str]; 6] = [
            &[],
            &[""],
            &["", ""],
            &["a"],
            &["é", "名前"],
            &["", "b", ""],
        ];
        for absolute in [false, true] {
            for names in lists {
                for subnames in lists {
                    let text = node_path_text(absolute, names, subnames);
                    assert_eq!(text, engine(absolute, names, subnames));
                    assert!(text.capacity() <= text.len() + 1 + names.len() + subnames.len());
                }
            }
        }
        assert_eq!(
            node_path_text(true, &["root", "Player"], &["position", "x"]),
            "/root/Player:position:x"
        );
    }

    #[test]
    fn numbers_are_laid_out_as_the_engine_does() {
        let cases = [
            (0.1 + 0.2, "0.30000000000000004"),
            (1e15, "1e+15"),
            (999999999999999.0, "999999999999999"),
            (1e-5, "1e-05"),
            (0.0001, "0.0001"),
            (123456.789, "123456.789"),
            (9007199254740992.0, "9.007199e+15"),
            (1.2345678901234567e-5, "1.2345678901234568e-05"),
            (-2.5, "-2.5"),
            (-0.0, "0"),
            (f64::NEG_INFINITY, "inf_neg"),
            // Grisu2 keeps away from the midpoint 1e23 (which Rust's shortest form uses).
            (1e23, "9.999999999999999e+22"),
            (-30_000_001_024.0, "-30000001000"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
        ];
        for (v, text) in cases {
            assert_eq!(real(v), text, "{v:e}");
        }
        assert_eq!(var_to_str(&Value::Float(100.0)), "100.0");
        assert_eq!(var_to_str(&Value::Float(f64::NEG_INFINITY)), "inf_neg");
        assert_eq!(var_to_str(&Value::Float(f64::NAN)), "nan");
    }

    #[test]
    fn the_sort_is_a_sort_for_a_strict_order() {
        for len in [0, 1, 2, 15, 16, 17, 100, 1000] {
            let mut v: Vec<i64> = (0..len).map(|i| (i * 7919) % 1009 - 500).collect();
            let mut expected = v.clone();
            expected.sort();
            sort(&mut v, |a, b| a < b);
            assert_eq!(v, expected, "{len}");
        }
    }
}
