//! Numbers as the engine's text writer writes them: its digits (Grisu2) and its layout.

use std::fmt::Write;

/// A number as the engine's text writer writes it (`rtos_fix`): `0` for either zero,
/// `inf_neg` for minus infinity, else the digits of the engine's Grisu2: those of the `f32`
/// when the number is one (the engine's math types are), else of the `f64`.
pub(super) fn real(v: f64) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::var_to_str;
    use crate::value::Value;

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
}
