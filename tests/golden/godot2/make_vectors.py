#!/usr/bin/env python3
"""Writes tests/golden/godot2/vectors.json: hand-made Godot 2.x binary Variant vectors.

No Godot 2 engine is available, so every case here is written by hand from the rules in
docs/FORMAT_GODOT2.md (read from the public Godot 2.1 sources, see SOURCE below): the input
bytes are built with struct.pack, and the expected outcome (value, consumed size, the bytes
the Godot 2 encoder writes back, or the Error code) is typed in next to them.

A small model of the 2.1.5/2.1.6 decoder and encoder (written from the same rules, in this
file) then checks every hand-written expectation. The script refuses to write the file if
the model and a hand-written expectation disagree, so a typo in either shows up at once.

Usage:  python3 tests/golden/godot2/make_vectors.py [--out PATH] [--check]
  --out PATH   where to write (default: vectors.json next to this script)
  --check      do not write; exit 1 if the file on disk differs from what would be written

Standard library only. Deterministic: two runs give byte-identical output.
"""

import json
import os
import struct
import sys

SOURCE = (
    "Godot 2.1 branch of godotengine/godot, read from the mirror SymbianRevive/godot-2.1-symbianrevive "
    "(upstream history up to the 2.1.6-stable release commit, plus one unrelated commit on top). "
    "Decoder/encoder behaviour is that of 2.1.5-stable 38ed4b9a8cdea0860eb616ef23306d2ce2d9c86b and "
    "2.1.6-stable bf5413845376092ac95607b905cb6139c5a056e7 (identical core/io/marshalls.cpp): "
    "core/io/marshalls.cpp decode_variant/encode_variant/_decode_string, core/ustring.cpp String::parse_utf8 "
    "and String::utf8, core/image.cpp Image::create/_get_dst_image_size, core/path_db.cpp NodePath, "
    "core/os/input_event.h, core/os/keyboard.h, core/variant.h, core/error_list.h. The hardening commits are "
    "497bc7d5fd76140b95e4c6203dbeaf666ed38db6 (size checks, _decode_string) and "
    "c26094fd843c627c4d24929e529647c06038364f (InputEvent checks); the JOYSTICK_MOTION axis_value is "
    "9201b5a27c0672bc249d2ba2a1e26f08b16b5536 (godotengine/godot#4409). Older decoders (2.0-stable "
    "9e2b9f8cb1c34fe7c3aa91bdd7f40ebb6a1a318f, 2.1-stable..2.1.4) differ: see docs/FORMAT_GODOT2.md."
)

NOTES = [
    "All cases describe the 2.1.5/2.1.6 decoder (bytes2var, File.get_var, PacketPeer.get_var all call "
    "decode_variant on the whole buffer; trailing bytes are ignored).",
    "decoded_size is the byte count decode_variant reports through r_len. It can exceed the input "
    "(InputEvent without its length word, Image/ByteArray without trailing padding).",
    "reencoded is what encode_variant (var2bytes) writes for the decoded value. Padding bytes are left "
    "unwritten by the 2.x encoder for String, NodePath names, Image and ByteArray (the buffer is not "
    "cleared, so they are whatever memory held); they are written as 00 here. StringArray padding is "
    "written as 00 by the engine itself.",
    "Strings assume a build with a 32-bit wchar_t (Linux, macOS, Android): Windows builds of 2.x turn "
    "every code point above U+FFFF into a space (U+0020) while decoding.",
    "Dictionaries here hold at most one key: a 2.x Dictionary is a HashMap and the encoder writes keys "
    "in hash-table order, not in the order they were read.",
    "Value descriptions: float v = the f64 bits the Variant holds (the wire f32 widened); math types list "
    "the f32 bits of each wire field in wire order; InputEvent lists the fields the wire carries; "
    "Dictionary/Array carry the shared bit (0x80000000 of the count word) as 'shared'.",
]

ERROR_CODES = {"OK": 0, "ERR_FILE_EOF": 18, "ERR_INVALID_DATA": 30, "ERR_BUG": 47}
INVALID, EOF = 30, 18

# ---------------------------------------------------------------------------------------
# Godot 2.1 Variant::Type ids (core/variant.h)
T = dict(
    NIL=0, BOOL=1, INT=2, REAL=3, STRING=4, VECTOR2=5, RECT2=6, VECTOR3=7, MATRIX32=8, PLANE=9,
    QUAT=10, AABB=11, MATRIX3=12, TRANSFORM=13, COLOR=14, IMAGE=15, NODE_PATH=16, RID=17,
    OBJECT=18, INPUT_EVENT=19, DICTIONARY=20, ARRAY=21, RAW_ARRAY=22, INT_ARRAY=23,
    REAL_ARRAY=24, STRING_ARRAY=25, VECTOR2_ARRAY=26, VECTOR3_ARRAY=27, COLOR_ARRAY=28,
)
VARIANT_MAX = 29
MATH = {  # type id -> (description name, number of f32 fields)
    5: ("Vector2", 2), 6: ("Rect2", 4), 7: ("Vector3", 3), 8: ("Matrix32", 6), 9: ("Plane", 4),
    10: ("Quat", 4), 11: ("AABB", 6), 12: ("Matrix3", 9), 13: ("Transform", 12), 14: ("Color", 4),
}
PACKED = {  # type id -> (description name, bytes per element)
    23: ("IntArray", 4), 24: ("RealArray", 4), 26: ("Vector2Array", 8), 27: ("Vector3Array", 12),
    28: ("ColorArray", 16),
}
NAME_TO_ID = {v[0]: k for k, v in MATH.items()}
NAME_TO_ID.update({v[0]: k for k, v in PACKED.items()})

# InputEvent::Type (core/os/input_event.h) and modifier masks (core/os/keyboard.h)
IE_NONE, IE_KEY, IE_MOUSE_MOTION, IE_MOUSE_BUTTON, IE_JOY_MOTION, IE_JOY_BUTTON = 0, 1, 2, 3, 4, 5
IE_SCREEN_TOUCH, IE_SCREEN_DRAG, IE_ACTION = 6, 7, 8
KEY_MASK_SHIFT, KEY_MASK_ALT, KEY_MASK_META, KEY_MASK_CTRL = 1 << 25, 1 << 26, 1 << 27, 1 << 28
KEY_MASK_KPAD = 1 << 29
MODS_KEPT = KEY_MASK_SHIFT | KEY_MASK_ALT | KEY_MASK_META | KEY_MASK_CTRL

# Image::Format (core/image.h): 23 formats, FORMAT_CUSTOM = 22, FORMAT_MAX = 23
FMT_GRAYSCALE, FMT_GRAYSCALE_ALPHA, FMT_RGB, FMT_RGBA = 0, 2, 3, 4
FMT_INDEXED, FMT_YUV_422, FMT_BC1, FMT_PVRTC2, FMT_CUSTOM, FORMAT_MAX = 5, 7, 9, 14, 22, 23
INT_MAX = 0x7FFFFFFF


# ---------------------------------------------------------------------------------------
# byte builders


def u32(v):
    return struct.pack("<I", v & 0xFFFFFFFF)


def i32(v):
    return struct.pack("<i", v)


def fb(bits):
    """An f32 given by its bit pattern, little-endian on the wire."""
    return struct.pack("<I", bits)


def f32(x):
    return struct.pack("<f", x)


def pad4(b):
    return b + b"\0" * (-len(b) % 4)


def hdr(type_id):
    return u32(type_id)


def gstr(b):
    """A String payload as the 2.x encoder writes it: length (no NUL), bytes, zero padding."""
    return u32(len(b)) + pad4(b)


def sa_elem(b):
    """One StringArray element as the 2.x encoder writes it: length counts a trailing NUL."""
    return u32(len(b) + 1) + pad4(b + b"\0")


def f32bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


# ---------------------------------------------------------------------------------------
# value descriptions


def d_nil():
    return {"t": "Nil"}


def d_bool(v):
    return {"t": "bool", "v": v}


def d_int(v):
    return {"t": "int", "v": str(v)}


def f32bits_to_f64bits(b):
    """Widening float -> double as the CPU does it (a signalling NaN comes out quiet)."""
    sign, exp, man = b >> 31, (b >> 23) & 0xFF, b & 0x7FFFFF
    if exp == 0xFF:
        if man:
            man |= 0x400000
        return (sign << 63) | (0x7FF << 52) | (man << 29)
    if exp == 0:
        if man == 0:
            return sign << 63
        e = -126
        while not man & 0x800000:
            man <<= 1
            e -= 1
        return (sign << 63) | ((e + 1023) << 52) | ((man & 0x7FFFFF) << 29)
    return (sign << 63) | ((exp - 127 + 1023) << 52) | (man << 29)


def f64bits_to_f32bits(d):
    """Narrowing double -> float, for values that are exact in f32 (all the vectors here)."""
    sign, exp, man = d >> 63, (d >> 52) & 0x7FF, d & ((1 << 52) - 1)
    if exp == 0x7FF:
        assert man & ((1 << 29) - 1) == 0
        return (sign << 31) | (0xFF << 23) | (man >> 29)
    if exp == 0 and man == 0:
        return sign << 31
    e = exp - 1023
    assert man & ((1 << 29) - 1) == 0 or e < -126, "not exact in f32"
    if e >= -126:
        assert e <= 127
        return (sign << 31) | ((e + 127) << 23) | (man >> 29)
    full = (1 << 52) | man  # subnormal in f32
    shift = 29 + (-126 - e)
    assert full & ((1 << shift) - 1) == 0, "not exact in f32"
    return (sign << 31) | (full >> shift)


def d_float_bits(b32):
    return {"t": "float", "v": "%016x" % f32bits_to_f64bits(b32)}


def d_float(x):
    return d_float_bits(f32bits(x))


def d_str(b):
    return {"t": "String", "v": b.hex()}


def d_math(name, values):
    return {"t": name, "v": ["%08x" % f32bits(x) for x in values]}


def d_math_bits(name, bits):
    return {"t": name, "v": ["%08x" % b for b in bits]}


def d_image(fmt, mipmaps, w, h, data):
    return {"t": "Image", "format": fmt, "mipmaps": mipmaps, "width": w, "height": h, "data": data.hex()}


D_EMPTY_IMAGE = d_image(0, 0, 0, 0, b"")


def d_np(names, subnames=(), absolute=False, prop=b""):
    return {"t": "NodePath", "names": [n.hex() for n in names], "subnames": [s.hex() for s in subnames],
            "absolute": absolute, "property": prop.hex()}


D_EMPTY_NP = d_np([])


def d_ie(typ, device, **fields):
    d = {"t": "InputEvent", "type": typ, "device": device}
    d.update(fields)
    return d


def d_dict(pairs, shared=False):
    return {"t": "Dictionary", "v": [list(p) for p in pairs], "shared": shared}


def d_arr(items, shared=False):
    return {"t": "Array", "v": list(items), "shared": shared}


def d_bytes(b):
    return {"t": "ByteArray", "v": b.hex()}


def d_packed(name, raw):
    return {"t": name, "v": raw.hex()}


def d_sarr(items):
    return {"t": "StringArray", "v": [b.hex() for b in items]}


# ---------------------------------------------------------------------------------------
# the cases, written by hand

CASES = []
SAME = object()


def ok(name, data, value, reencoded=SAME, size=None, note=None):
    CASES.append(dict(name=name, bytes=data, accepted=True, value=value,
                      reencoded=data if reencoded is SAME else reencoded,
                      decoded_size=len(data) if size is None else size, note=note))


def bad(name, data, error, why):
    CASES.append(dict(name=name, bytes=data, accepted=False, error=error, why=why))


def build_cases():
    H = hdr
    # ---- header ------------------------------------------------------------------------
    bad("reject/header/empty", b"", INVALID, "fewer than 4 bytes: no type word")
    bad("reject/header/three_bytes", b"\0\0\0", INVALID, "fewer than 4 bytes: no type word")
    bad("reject/header/type_29", H(29), INVALID, "type word >= VARIANT_MAX (29)")
    bad("reject/header/type_255", H(255), INVALID, "type word >= VARIANT_MAX (29)")
    bad("reject/header/type_ffffffff", H(0xFFFFFFFF), INVALID, "type word >= VARIANT_MAX; the whole word is compared")
    bad("reject/header/godot3_int64_flag", H(0x00010002) + struct.pack("<q", 1), INVALID,
        "2.x has no header flags: 0x00010002 (Godot 3's 64-bit int) is compared whole against 29")
    bad("reject/header/godot3_double_flag", H(0x00010003) + struct.pack("<d", 1.0), INVALID,
        "2.x has no header flags: 0x00010003 (Godot 3's double) is rejected")
    bad("reject/header/flag_on_nil", H(0x00010000), INVALID, "any bit above the type id makes the word >= 29")

    # ---- Nil / bool / int / float -------------------------------------------------------
    ok("Nil/null", H(0), d_nil())
    ok("quirk/Nil/trailing_bytes_ignored", H(0) + u32(0xDEADBEEF), d_nil(), reencoded=H(0), size=4,
       note="top-level decoders ignore bytes after the value")
    ok("bool/false", H(1) + u32(0), d_bool(False))
    ok("bool/true", H(1) + u32(1), d_bool(True))
    ok("quirk/bool/two_is_true", H(1) + u32(2), d_bool(True), reencoded=H(1) + u32(1),
       note="any non-zero word decodes as true; the encoder writes 1")
    ok("quirk/bool/ffffffff_is_true", H(1) + u32(0xFFFFFFFF), d_bool(True), reencoded=H(1) + u32(1))
    bad("reject/bool/no_payload", H(1), INVALID, "bool needs 4 payload bytes")
    ok("int/zero", H(2) + i32(0), d_int(0))
    ok("int/one", H(2) + i32(1), d_int(1))
    ok("int/minus_one", H(2) + i32(-1), d_int(-1))
    ok("int/i32_max", H(2) + i32(0x7FFFFFFF), d_int(0x7FFFFFFF))
    ok("int/i32_min", H(2) + i32(-0x80000000), d_int(-0x80000000))
    ok("quirk/int/followed_by_a_second_int", H(2) + i32(5) + H(2) + i32(6), d_int(5),
       reencoded=H(2) + i32(5), size=8)
    bad("reject/int/no_payload", H(2), INVALID, "int needs 4 payload bytes")
    bad("reject/int/two_payload_bytes", H(2) + b"\x01\x00", INVALID, "int needs 4 payload bytes")
    ok("float/one", H(3) + f32(1.0), d_float(1.0))
    ok("float/minus_zero", H(3) + fb(0x80000000), d_float_bits(0x80000000))
    ok("float/one_tenth", H(3) + fb(0x3DCCCCCD), d_float_bits(0x3DCCCCCD))
    ok("float/max_finite", H(3) + fb(0x7F7FFFFF), d_float_bits(0x7F7FFFFF))
    ok("float/min_subnormal", H(3) + fb(0x00000001), d_float_bits(0x00000001))
    ok("float/inf", H(3) + fb(0x7F800000), d_float_bits(0x7F800000))
    ok("float/minus_inf", H(3) + fb(0xFF800000), d_float_bits(0xFF800000))
    ok("float/quiet_nan", H(3) + fb(0x7FC00000), d_float_bits(0x7FC00000))
    bad("reject/float/no_payload", H(3), INVALID, "float needs 4 payload bytes")
    bad("reject/float/three_payload_bytes", H(3) + b"\0\0\x80", INVALID, "float needs 4 payload bytes")

    # ---- String ---------------------------------------------------------------------------
    S = lambda b: H(4) + gstr(b)
    ok("String/empty", S(b""), d_str(b""))
    ok("String/a", S(b"a"), d_str(b"a"))
    ok("String/abcd_no_padding", S(b"abcd"), d_str(b"abcd"))
    ok("String/hello", S(b"hello"), d_str(b"hello"))
    ok("String/two_byte_e_acute", S("é".encode()), d_str("é".encode()))
    ok("String/three_byte_euro", S("€".encode()), d_str("€".encode()))
    ok("String/four_byte_emoji", S("😀".encode()), d_str("😀".encode()),
       note="32-bit wchar_t builds only; Windows 2.x builds decode it as a space")
    ok("String/surrogate_d800_accepted", S(b"\xed\xa0\x80"), d_str(b"\xed\xa0\x80"),
       note="surrogate code points are not rejected")
    ok("String/above_10ffff_accepted", S(b"\xf4\x90\x80\x80"), d_str(b"\xf4\x90\x80\x80"),
       note="U+110000: no upper limit below 0x7FFFFFFF")
    ok("String/five_byte_sequence", S(b"\xf8\x88\x80\x80\x80"), d_str(b"\xf8\x88\x80\x80\x80"),
       note="U+200000 from a 5-byte sequence; the encoder writes it back the same way")
    ok("String/six_byte_sequence", S(b"\xfc\x84\x80\x80\x80\x80"), d_str(b"\xfc\x84\x80\x80\x80\x80"),
       note="U+4000000 from a 6-byte sequence")
    ok("quirk/String/trailing_bytes_ignored", S(b"ab") + u32(0x01020304), d_str(b"ab"),
       reencoded=S(b"ab"), size=12)
    ok("quirk/String/bom_skipped", S(b"\xef\xbb\xbfa"), d_str(b"a"), reencoded=S(b"a"),
       note="a leading UTF-8 BOM is dropped (only when the length is >= 3)")
    ok("quirk/String/only_bom", S(b"\xef\xbb\xbf"), d_str(b""), reencoded=S(b""))
    ok("quirk/String/second_bom_kept", S(b"\xef\xbb\xbf\xef\xbb\xbf"), d_str(b"\xef\xbb\xbf"),
       reencoded=S(b"\xef\xbb\xbf"), note="only one BOM is skipped; the second is U+FEFF")
    ok("quirk/String/nul_ends_the_text", S(b"a\0b"), d_str(b"a"), reencoded=S(b"a"),
       note="parse_utf8 stops at the first NUL; the rest of the declared length is skipped")
    ok("quirk/String/bytes_after_nul_not_checked", S(b"a\0\xff\xfe"), d_str(b"a"), reencoded=S(b"a"),
       note="invalid bytes after the NUL are never looked at")
    ok("quirk/String/leading_nul_gives_empty", S(b"\0abc"), d_str(b""), reencoded=S(b""))
    ok("quirk/String/overlong_3byte_slash", S(b"\xe0\x80\xaf"), d_str(b"/"), reencoded=S(b"/"),
       note="E0 80 AF is an overlong '/', accepted: the overlong test only catches E0 80 80..8F")
    ok("quirk/String/overlong_3byte_u07ff", S(b"\xe0\x9f\xbf"), d_str("\u07ff".encode()),
       reencoded=S("\u07ff".encode()), note="overlong 3-byte form of U+07FF, re-encoded in 2 bytes")
    ok("quirk/String/overlong_4byte_u0200", S(b"\xf0\x80\x88\x80"), d_str("\u0200".encode()),
       reencoded=S("\u0200".encode()), note="F0 80 88 80 = overlong U+0200, accepted")
    bad("reject/String/no_length_word", H(4), INVALID, "_decode_string: fewer than 4 bytes for the length")
    bad("reject/String/three_byte_length_word", H(4) + b"\x01\0\0", INVALID,
        "_decode_string: fewer than 4 bytes for the length")
    bad("reject/String/truncated_text", H(4) + u32(5) + b"abc", EOF, "length + padding (8) > bytes left (3)")
    bad("reject/String/missing_padding", H(4) + u32(1) + b"a", EOF,
        "the padding must be present: length 1 + pad 3 > 1 byte left")
    bad("reject/String/negative_length", H(4) + u32(0xFFFFFFFF) + b"abcd", EOF, "length < 0 as int32")
    bad("reject/String/length_7fffffff", H(4) + u32(0x7FFFFFFF) + b"abcd", EOF,
        "length + padding overflows int32 (the ERR_FAIL_ADD_OF check)")
    bad("reject/String/lead_byte_ff", S(b"\xff"), INVALID, "0xFF is no UTF-8 lead byte")
    bad("reject/String/lead_byte_fe", S(b"a\xfe"), INVALID, "0xFE is no UTF-8 lead byte")
    bad("reject/String/lone_continuation", S(b"\x80"), INVALID, "a continuation byte where a lead is expected")
    bad("reject/String/overlong_c0_80", S(b"\xc0\x80"), INVALID, "C0/C1 2-byte leads are rejected as overlong")
    bad("reject/String/overlong_c1_bf", S(b"\xc1\xbf"), INVALID, "C0/C1 2-byte leads are rejected as overlong")
    bad("reject/String/overlong_e0_80_80", S(b"\xe0\x80\x80"), INVALID, "caught by the 3rd-byte overlong test")
    bad("reject/String/overlong_f0_80_80_80", S(b"\xf0\x80\x80\x80"), INVALID, "caught by the 3rd-byte overlong test")
    bad("reject/String/truncated_sequence", S(b"a\xc3"), INVALID, "a 2-byte sequence cut by the end of the text")
    bad("reject/String/nul_inside_sequence", S(b"\xe2\x82\0"), INVALID,
        "a NUL ends the text inside a 3-byte sequence")
    bad("reject/String/bad_continuation", S(b"\xc3\x41"), INVALID, "second byte is not 10xxxxxx")

    # ---- math types ------------------------------------------------------------------------
    def M(type_id, values):
        return H(type_id) + b"".join(f32(x) for x in values)

    math_samples = [
        (5, [1.5, -2.0]),
        (6, [0.0, 1.0, 2.0, 3.0]),
        (7, [1.0, 2.0, 3.0]),
        (8, [1.0, 0.0, 0.0, 1.0, 10.0, 20.0]),
        (9, [0.0, 1.0, 0.0, 5.0]),
        (10, [0.0, 0.0, 0.0, 1.0]),
        (11, [-1.0, -2.0, -3.0, 2.0, 4.0, 6.0]),
        (12, [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]),
        (13, [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 7.0, 8.0, 9.0]),
        (14, [1.0, 0.5, 0.25, 1.0]),
    ]
    for type_id, values in math_samples:
        name, n = MATH[type_id]
        ok("%s/sample" % name, M(type_id, values), d_math(name, values))
        bad("reject/%s/one_field_short" % name, M(type_id, values)[:-4], INVALID,
            "%s needs %d payload bytes" % (name, 4 * n))
    ok("Vector2/nan_and_subnormal", H(5) + fb(0x7FC00001) + fb(0x00000002),
       d_math_bits("Vector2", [0x7FC00001, 0x00000002]), note="math fields are f32 and kept bit for bit")

    # ---- Image -----------------------------------------------------------------------------
    def IMG(fmt, mm, w, h, data, datalen=None, padded=True):
        dl = len(data) if datalen is None else datalen
        body = u32(fmt) + u32(mm) + u32(w) + u32(h) + u32(dl) + data
        return H(15) + (pad4(body) if padded else body)

    gray = bytes([0x00, 0x40, 0x80, 0xFF])
    ok("Image/grayscale_2x2", IMG(FMT_GRAYSCALE, 0, 2, 2, gray), d_image(0, 0, 2, 2, gray))
    ok("Image/rgb_1x1_padded", IMG(FMT_RGB, 0, 1, 1, b"\x10\x20\x30"), d_image(3, 0, 1, 1, b"\x10\x20\x30"))
    rgba = bytes(range(16)) + b"\xaa\xbb\xcc\xdd"
    ok("Image/rgba_2x2_one_mipmap", IMG(FMT_RGBA, 1, 2, 2, rgba), d_image(4, 1, 2, 2, rgba),
       note="mipmaps = extra levels: 2x2 + 1x1 = 5 pixels * 4 bytes")
    ok("Image/grayscale_2x2_one_mipmap", IMG(FMT_GRAYSCALE, 1, 2, 2, gray + b"\x7f"),
       d_image(0, 1, 2, 2, gray + b"\x7f"))
    ok("Image/grayscale_alpha_1x2", IMG(FMT_GRAYSCALE_ALPHA, 0, 1, 2, b"\x01\x02\x03\x04"),
       d_image(2, 0, 1, 2, b"\x01\x02\x03\x04"))
    ok("Image/yuv422_2x1", IMG(FMT_YUV_422, 0, 2, 1, b"\x01\x02\x03\x04"), d_image(7, 0, 2, 1, b"\x01\x02\x03\x04"),
       note="YUV_422 counts 2 bytes per pixel")
    bc1 = bytes(range(0x20, 0x28))
    ok("Image/bc1_4x4", IMG(FMT_BC1, 0, 4, 4, bc1), d_image(9, 0, 4, 4, bc1), note="BC1: 16 pixels >> 1 = 8 bytes")
    ok("Image/bc1_4x4_one_mipmap", IMG(FMT_BC1, 1, 4, 4, bc1 + bc1), d_image(9, 1, 4, 4, bc1 + bc1),
       note="mip levels of block formats do not go below 4x4: 8 + 8 bytes")
    pvr = bytes(range(32))
    ok("Image/pvrtc2_16x8", IMG(FMT_PVRTC2, 0, 16, 8, pvr), d_image(14, 0, 16, 8, pvr),
       note="PVRTC2: 128 pixels >> 2 = 32 bytes")
    indexed = bytes([7]) + bytes(i & 0xFF for i in range(768))
    ok("Image/indexed_1x1_with_palette", IMG(FMT_INDEXED, 0, 1, 1, indexed), d_image(5, 0, 1, 1, indexed),
       note="INDEXED: 1 byte per pixel plus a 768-byte palette")
    ok("Image/custom_format_any_size", IMG(FMT_CUSTOM, 2, 3, 1, b"\x01\x02\x03\x04\x05"),
       d_image(22, 2, 3, 1, b"\x01\x02\x03\x04\x05"),
       note="FORMAT_CUSTOM skips the data-size check; mipmaps are kept as given")
    ok("Image/empty", IMG(FMT_GRAYSCALE, 0, 0, 0, b""), D_EMPTY_IMAGE)
    empty_img = IMG(0, 0, 0, 0, b"")
    ok("quirk/Image/zero_datalen_ignores_other_fields", IMG(FMT_RGBA, 2, 8, 8, b""), D_EMPTY_IMAGE,
       reencoded=empty_img, note="data length 0: an empty Image whatever format/mipmaps/size say")
    ok("quirk/Image/negative_datalen_gives_empty", IMG(FMT_RGB, 0, 1, 1, b"", datalen=-1), D_EMPTY_IMAGE,
       reencoded=empty_img, size=28,
       note="data length < 0 as int32 is treated like 0; r_len is computed with C remainder (24 + 4)")
    ok("quirk/Image/size_mismatch_gives_empty", IMG(FMT_RGB, 0, 1, 1, b"\x01\x02\x03\x04"), D_EMPTY_IMAGE,
       reencoded=empty_img, note="Image::create refuses 4 bytes for a 1x1 RGB (expects 3); decode still returns OK")
    ok("quirk/Image/width_zero_gives_empty", IMG(FMT_GRAYSCALE, 0, 0, 1, b"\x05"), D_EMPTY_IMAGE,
       reencoded=empty_img, note="width must be 1..16384")
    ok("quirk/Image/width_16385_gives_empty", IMG(FMT_CUSTOM, 0, 16385, 1, b"\x05"), D_EMPTY_IMAGE,
       reencoded=empty_img, note="width must be 1..16384, even for FORMAT_CUSTOM")
    ok("quirk/Image/padding_not_required", IMG(FMT_RGB, 0, 1, 1, b"\x10\x20\x30", padded=False),
       d_image(3, 0, 1, 1, b"\x10\x20\x30"), reencoded=IMG(FMT_RGB, 0, 1, 1, b"\x10\x20\x30"), size=28,
       note="only the data bytes must be present; decoded_size still counts the padding")
    bad("reject/Image/format_23", IMG(FORMAT_MAX, 0, 1, 1, b"\x01"), INVALID, "format >= FORMAT_MAX (23)")
    bad("reject/Image/format_ffffffff", IMG(0xFFFFFFFF, 0, 1, 1, b"\x01"), INVALID, "format out of range")
    bad("reject/Image/format_checked_even_if_empty", IMG(200, 0, 0, 0, b""), INVALID,
        "the format is checked before the data length")
    bad("reject/Image/header_short", H(15) + u32(0) * 4, INVALID, "Image needs 20 header bytes")
    bad("reject/Image/data_truncated", H(15) + u32(0) + u32(0) + u32(2) + u32(2) + u32(4) + b"\x01\x02\x03",
        INVALID, "data length 4 > 3 bytes left")

    # ---- NodePath ----------------------------------------------------------------------------
    def NP(nc, sc, flags, strings, nc_word=None):
        first = (0x80000000 | nc) if nc_word is None else nc_word
        return H(16) + u32(first) + u32(sc) + u32(flags) + b"".join(gstr(s) for s in strings)

    ok("NodePath/relative_a_b", NP(2, 0, 0, [b"a", b"b"]), d_np([b"a", b"b"]))
    ok("NodePath/absolute_with_property", NP(2, 0, 3, [b"root", b"x", b"pos"]),
       d_np([b"root", b"x"], absolute=True, prop=b"pos"), note="/root/x:pos (flags: 1 absolute, 2 property)")
    ok("NodePath/name_subname_property", NP(1, 1, 2, [b"a", b"b", b"c"]),
       d_np([b"a"], [b"b"], prop=b"c"), note="a:b:c (one name, one subname, property c)")
    ok("NodePath/two_names_two_subnames", NP(2, 2, 1, [b"n1", b"n2", b"s1", b"s2"]),
       d_np([b"n1", b"n2"], [b"s1", b"s2"], absolute=True))
    ok("NodePath/utf8_name", NP(1, 0, 0, ["é".encode()]), d_np(["é".encode()]))
    ok("NodePath/empty", NP(0, 0, 0, []), D_EMPTY_NP)
    ok("quirk/NodePath/encoder_bug_more_names_than_subnames", NP(2, 1, 0, [b"a", b"b", b"c"]),
       d_np([b"a", b"b"], [b"c"]), reencoded=NP(2, 1, 0, [b"a", b"b", b""]),
       note="encode_variant picks subname i - subname_count instead of i - name_count: index 1 is out "
            "of range, so an empty string is written in place of 'c'")
    ok("quirk/NodePath/encoder_bug_more_subnames_than_names", NP(1, 2, 0, [b"a", b"b", b"c"]),
       d_np([b"a"], [b"b", b"c"]), reencoded=NP(1, 2, 0, [b"a", b"", b"b"]),
       note="same encoder bug: subnames come out as '', 'b'")
    ok("quirk/NodePath/no_names_gives_empty", NP(0, 1, 3, [b"x", b"p"]), D_EMPTY_NP,
       reencoded=NP(0, 0, 0, []), note="strings are read and checked, then dropped: a NodePath without names is empty")
    ok("quirk/NodePath/extra_flag_bits_dropped", NP(1, 0, 0x0D, [b"a"]), d_np([b"a"], absolute=True),
       reencoded=NP(1, 0, 1, [b"a"]))
    ok("quirk/NodePath/empty_property_dropped", NP(1, 0, 2, [b"a", b""]), d_np([b"a"]),
       reencoded=NP(1, 0, 0, [b"a"]), note="flag 2 with an empty property string: the encoder sees no property")
    ok("quirk/NodePath/count_sum_wraps_to_zero", NP(1, 0xFFFFFFFF, 0, []), D_EMPTY_NP,
       reencoded=NP(0, 0, 0, []), size=16,
       note="1 + 0xFFFFFFFF strings wraps to 0: nothing is read and the path is empty")
    bad("reject/NodePath/old_string_form", H(16) + gstr(b"a/b"), INVALID,
        "2.1.5+ rejects the old form (high bit of the first word clear); 2.0-2.1.4 parsed it as a path string")
    bad("reject/NodePath/old_form_empty", H(16) + u32(0), INVALID, "high bit clear: old form, rejected")
    bad("reject/NodePath/no_payload", H(16), INVALID, "NodePath needs its first word")
    bad("reject/NodePath/header_short", H(16) + u32(0x80000001) + u32(0), INVALID,
        "new form needs 12 header bytes")
    bad("reject/NodePath/name_missing", H(16) + u32(0x80000001) + u32(0) + u32(0), INVALID,
        "_decode_string: no length word left")
    bad("reject/NodePath/name_truncated", H(16) + u32(0x80000001) + u32(0) + u32(0) + u32(6) + b"ab", EOF,
        "name length + padding > bytes left")
    bad("reject/NodePath/name_missing_padding", H(16) + u32(0x80000001) + u32(0) + u32(0) + u32(1) + b"a", EOF,
        "name padding must be present")
    bad("reject/NodePath/name_invalid_utf8", NP(1, 0, 0, [b"\xff"]), INVALID, "name is not UTF-8")
    bad("reject/NodePath/property_missing", NP(1, 0, 2, [b"a"]), INVALID,
        "flag 2 announces a property string that is not there")

    # ---- RID / Object -----------------------------------------------------------------------------
    ok("RID/plain", H(17), {"t": "RID"})
    ok("quirk/RID/payload_ignored", H(17) + u32(42), {"t": "RID"}, reencoded=H(17), size=4,
       note="an RID has no payload: decoding makes an empty RID and reads nothing more")
    ok("Object/plain", H(18), {"t": "Object"}, note="always a null Object; nothing else is encoded")
    ok("quirk/Object/payload_ignored", H(18) + gstr(b"Node") + u32(0), {"t": "Object"}, reencoded=H(18), size=4,
       note="no class name or properties in 2.x: the decoder reads only the header")

    # ---- InputEvent ----------------------------------------------------------------------------
    def IE(typ, device, fields=b"", length=None):
        ln = 12 + len(fields) if length is None else length
        return H(19) + i32(typ) + i32(device) + u32(ln) + fields

    ok("InputEvent/none", IE(IE_NONE, 0), d_ie(0, 0))
    ok("InputEvent/key_shift_ctrl_a", IE(IE_KEY, 0, u32(KEY_MASK_SHIFT | KEY_MASK_CTRL) + u32(0x41)),
       d_ie(1, 0, modifiers=KEY_MASK_SHIFT | KEY_MASK_CTRL, scancode=0x41))
    ok("InputEvent/key_all_mods", IE(IE_KEY, 3, u32(MODS_KEPT) + u32(0x1000005)),
       d_ie(1, 3, modifiers=MODS_KEPT, scancode=0x1000005), note="scancode 0x1000005 = KEY_RETURN")
    ok("quirk/InputEvent/key_unknown_mod_bits_dropped",
       IE(IE_KEY, 0, u32(KEY_MASK_ALT | KEY_MASK_KPAD | 1) + u32(0x20)),
       d_ie(1, 0, modifiers=KEY_MASK_ALT, scancode=0x20),
       reencoded=IE(IE_KEY, 0, u32(KEY_MASK_ALT) + u32(0x20)),
       note="only shift/alt/meta/ctrl (1<<25..1<<28) are kept")
    ok("InputEvent/mouse_motion", IE(IE_MOUSE_MOTION, 0), d_ie(2, 0), note="no fields on the wire")
    ok("InputEvent/mouse_button", IE(IE_MOUSE_BUTTON, 0, i32(1)), d_ie(3, 0, button_index=1))
    ok("InputEvent/joystick_motion", IE(IE_JOY_MOTION, 1, i32(1) + f32(-1.0)),
       d_ie(4, 1, axis=1, axis_value="%08x" % f32bits(-1.0)))
    ok("InputEvent/joystick_motion_half", IE(IE_JOY_MOTION, 0, i32(0) + f32(0.5)),
       d_ie(4, 0, axis=0, axis_value="%08x" % f32bits(0.5)))
    ok("InputEvent/joystick_button", IE(IE_JOY_BUTTON, 2, i32(3)), d_ie(5, 2, button_index=3))
    ok("InputEvent/screen_touch", IE(IE_SCREEN_TOUCH, 0, i32(2)), d_ie(6, 0, index=2))
    ok("InputEvent/screen_drag", IE(IE_SCREEN_DRAG, 0), d_ie(7, 0))
    ok("InputEvent/action", IE(IE_ACTION, 0), d_ie(8, 0), note="the action id is not on the wire")
    ok("InputEvent/unknown_type_9", IE(9, 0), d_ie(9, 0), note="any type value is accepted; unknown ones carry no fields")
    ok("InputEvent/type_minus_one", IE(-1, 0), d_ie(-1, 0))
    ok("InputEvent/device_minus_one", IE(IE_MOUSE_BUTTON, -1, i32(2)), d_ie(3, -1, button_index=2))
    ok("quirk/InputEvent/length_word_ignored", IE(IE_MOUSE_BUTTON, 0, i32(1), length=0),
       d_ie(3, 0, button_index=1), reencoded=IE(IE_MOUSE_BUTTON, 0, i32(1)),
       note="the decoder never reads the length word; the encoder writes the real length (16)")
    ok("quirk/InputEvent/length_word_huge", IE(IE_NONE, 0, length=0xFFFFFFFF), d_ie(0, 0), reencoded=IE(IE_NONE, 0))
    ok("quirk/InputEvent/no_length_word", H(19) + i32(IE_MOUSE_MOTION) + i32(0), d_ie(2, 0),
       reencoded=IE(IE_MOUSE_MOTION, 0), size=16,
       note="only 8 payload bytes are required for types without fields, yet 12 are counted as read")
    bad("reject/InputEvent/no_payload", H(19), INVALID, "InputEvent needs at least 8 payload bytes")
    bad("reject/InputEvent/type_only", H(19) + i32(0), INVALID, "InputEvent needs at least 8 payload bytes")
    bad("reject/InputEvent/key_without_scancode", IE(IE_KEY, 0, u32(0)), INVALID, "KEY needs 20 payload bytes")
    bad("reject/InputEvent/key_header_only", IE(IE_KEY, 0), INVALID, "KEY needs 20 payload bytes")
    bad("reject/InputEvent/mouse_button_short", IE(IE_MOUSE_BUTTON, 0), INVALID, "MOUSE_BUTTON needs 16 payload bytes")
    bad("reject/InputEvent/joystick_button_short", IE(IE_JOY_BUTTON, 0), INVALID,
        "JOYSTICK_BUTTON needs 16 payload bytes")
    bad("reject/InputEvent/screen_touch_short", IE(IE_SCREEN_TOUCH, 0), INVALID, "SCREEN_TOUCH needs 16 payload bytes")
    bad("reject/InputEvent/joystick_motion_godot20_form", IE(IE_JOY_MOTION, 0, i32(1)), INVALID,
        "the 2.0 layout (axis only, 16 bytes) is too short for 2.1.5+, which needs 20")
    bad("reject/InputEvent/no_length_word_swallows_next", H(21) + u32(2) + H(19) + i32(IE_MOUSE_MOTION) + i32(0)
        + H(2) + i32(7), INVALID,
        "inside an Array the field-less event claims 12 bytes but had 8: the next element is read from "
        "the int's payload (7 = Vector3) with only 0 bytes left")

    # ---- Dictionary -----------------------------------------------------------------------------
    ok("Dictionary/empty", H(20) + u32(0), d_dict([]))
    ok("Dictionary/empty_shared", H(20) + u32(0x80000000), d_dict([], shared=True))
    ok("Dictionary/string_key", H(20) + u32(1) + H(4) + gstr(b"a") + H(2) + i32(1),
       d_dict([(d_str(b"a"), d_int(1))]))
    ok("Dictionary/shared_int_key_array_value", H(20) + u32(0x80000001) + H(2) + i32(1) + H(21) + u32(1)
       + H(1) + u32(1), d_dict([(d_int(1), d_arr([d_bool(True)]))], shared=True))
    ok("Dictionary/nil_key_input_event_value", H(20) + u32(1) + H(0) + IE(IE_JOY_BUTTON, 0, i32(4)),
       d_dict([(d_nil(), d_ie(5, 0, button_index=4))]))
    ok("quirk/Dictionary/duplicate_key_last_wins", H(20) + u32(2) + H(4) + gstr(b"k") + H(2) + i32(1)
       + H(4) + gstr(b"k") + H(2) + i32(2), d_dict([(d_str(b"k"), d_int(2))]),
       reencoded=H(20) + u32(1) + H(4) + gstr(b"k") + H(2) + i32(2))
    bad("reject/Dictionary/no_count", H(20), INVALID, "Dictionary needs its count word")
    bad("reject/Dictionary/count_without_entries", H(20) + u32(1), INVALID, "key: fewer than 4 bytes left")
    bad("reject/Dictionary/value_missing", H(20) + u32(1) + H(2) + i32(1), INVALID, "value: fewer than 4 bytes left")
    bad("reject/Dictionary/nested_error_propagates", H(20) + u32(1) + H(4) + gstr(b"a") + H(4) + u32(9) + b"abcd",
        EOF, "the value's String error (ERR_FILE_EOF) is returned as is")

    # ---- Array -----------------------------------------------------------------------------------
    ok("Array/empty", H(21) + u32(0), d_arr([]))
    ok("Array/empty_shared", H(21) + u32(0x80000000), d_arr([], shared=True))
    ok("Array/int_string_nil", H(21) + u32(3) + H(2) + i32(1) + H(4) + gstr(b"a") + H(0),
       d_arr([d_int(1), d_str(b"a"), d_nil()]))
    ok("Array/nested_shared", H(21) + u32(1) + H(21) + u32(0x80000001) + H(3) + f32(2.0),
       d_arr([d_arr([d_float(2.0)], shared=True)]))
    ok("Array/godot2_only_types", H(21) + u32(2) + IE(IE_KEY, 0, u32(0) + u32(0x42))
       + IMG(FMT_GRAYSCALE, 0, 1, 1, b"\x09"),
       d_arr([d_ie(1, 0, modifiers=0, scancode=0x42), d_image(0, 0, 1, 1, b"\x09")]))
    ok("Array/rid_and_object", H(21) + u32(2) + H(17) + H(18), d_arr([{"t": "RID"}, {"t": "Object"}]))
    bad("reject/Array/no_count", H(21) + b"\x01\x00", INVALID, "Array needs its count word")
    bad("reject/Array/missing_element", H(21) + u32(2) + H(2) + i32(1), INVALID, "second element: no bytes left")
    bad("reject/Array/bad_element_type", H(21) + u32(1) + H(29), INVALID, "element type >= 29")
    bad("reject/Array/bad_image_format_inside", H(21) + u32(1) + IMG(30, 0, 1, 1, b"\x01"), INVALID,
        "nested Image format out of range")

    # ---- ByteArray (RawArray) --------------------------------------------------------------------
    ok("ByteArray/empty", H(22) + u32(0), d_bytes(b""))
    ok("ByteArray/three_bytes_padded", H(22) + u32(3) + pad4(b"\x01\x02\x03"), d_bytes(b"\x01\x02\x03"))
    ok("ByteArray/four_bytes", H(22) + u32(4) + b"\xde\xad\xbe\xef", d_bytes(b"\xde\xad\xbe\xef"))
    ok("ByteArray/five_bytes_padded", H(22) + u32(5) + pad4(b"\x00\x01\x02\x03\x04"), d_bytes(b"\x00\x01\x02\x03\x04"))
    ok("quirk/ByteArray/padding_not_required", H(22) + u32(3) + b"\x01\x02\x03", d_bytes(b"\x01\x02\x03"),
       reencoded=H(22) + u32(3) + pad4(b"\x01\x02\x03"), size=12,
       note="only count bytes must be present; decoded_size counts the padding anyway")
    bad("reject/ByteArray/no_count", H(22), INVALID, "ByteArray needs its count word")
    bad("reject/ByteArray/count_exceeds_data", H(22) + u32(5) + b"\x01\x02\x03\x04", INVALID, "count 5 > 4 bytes left")
    bad("reject/ByteArray/negative_count", H(22) + u32(0x80000000) + b"\0" * 8, INVALID, "count < 0 as int32")

    # ---- IntArray / RealArray --------------------------------------------------------------------
    ints = i32(1) + i32(-1) + i32(0x7FFFFFFF)
    ok("IntArray/empty", H(23) + u32(0), d_packed("IntArray", b""))
    ok("IntArray/three", H(23) + u32(3) + ints, d_packed("IntArray", ints))
    bad("reject/IntArray/count_exceeds_data", H(23) + u32(2) + i32(1), INVALID, "2 * 4 > 4 bytes left")
    bad("reject/IntArray/count_overflows", H(23) + u32(0x40000000) + i32(1), INVALID,
        "count > INT_MAX / 4 (the ERR_FAIL_MUL_OF check)")
    bad("reject/IntArray/negative_count", H(23) + u32(0xFFFFFFFF), INVALID, "count < 0 as int32")
    reals = f32(1.5) + fb(0x80000000) + fb(0x7F800000)
    ok("RealArray/empty", H(24) + u32(0), d_packed("RealArray", b""))
    ok("RealArray/three", H(24) + u32(3) + reals, d_packed("RealArray", reals), note="always f32 on the wire")
    bad("reject/RealArray/count_exceeds_data", H(24) + u32(3) + f32(1.0) + f32(2.0), INVALID, "3 * 4 > 8 bytes left")

    # ---- StringArray ------------------------------------------------------------------------------
    ok("StringArray/empty", H(25) + u32(0), d_sarr([]))
    ok("StringArray/a_bc", H(25) + u32(2) + sa_elem(b"a") + sa_elem(b"bc"), d_sarr([b"a", b"bc"]),
       note="each length counts a trailing NUL, which is written, then zero padding")
    ok("StringArray/empty_string_and_abc", H(25) + u32(2) + sa_elem(b"") + sa_elem(b"abc"), d_sarr([b"", b"abc"]),
       note="'' is written as length 1 (just the NUL); 'abc' as length 4 with no padding")
    ok("StringArray/utf8", H(25) + u32(1) + sa_elem("日本".encode()), d_sarr(["日本".encode()]))
    ok("quirk/StringArray/element_without_nul", H(25) + u32(1) + gstr(b"a"), d_sarr([b"a"]),
       reencoded=H(25) + u32(1) + sa_elem(b"a"), note="a length without the NUL decodes the same; the encoder adds one")
    ok("quirk/StringArray/negative_count_is_empty", H(25) + u32(0xFFFFFFFF), d_sarr([]),
       reencoded=H(25) + u32(0), size=8, note="count < 0 as int32: the loop runs zero times and the decode succeeds")
    bad("reject/StringArray/no_count", H(25), INVALID, "StringArray needs its count word")
    bad("reject/StringArray/element_missing", H(25) + u32(1), INVALID, "_decode_string: no length word left")
    bad("reject/StringArray/element_truncated", H(25) + u32(1) + u32(8) + b"abc\0", EOF, "8 > 4 bytes left")
    bad("reject/StringArray/element_missing_padding", H(25) + u32(1) + u32(2) + b"a\0", EOF,
        "element padding must be present")
    bad("reject/StringArray/element_invalid_utf8", H(25) + u32(1) + sa_elem(b"\xc3"), INVALID,
        "element is not UTF-8 (a sequence cut by the NUL)")

    # ---- Vector2Array / Vector3Array / ColorArray ---------------------------------------------------
    v2 = f32(1.0) + f32(2.0) + f32(-3.0) + f32(0.5)
    ok("Vector2Array/empty", H(26) + u32(0), d_packed("Vector2Array", b""))
    ok("Vector2Array/two", H(26) + u32(2) + v2, d_packed("Vector2Array", v2))
    bad("reject/Vector2Array/count_exceeds_data", H(26) + u32(3) + v2, INVALID, "3 * 8 > 16 bytes left")
    bad("reject/Vector2Array/count_overflows", H(26) + u32(0x10000000) + v2, INVALID, "count > INT_MAX / 8")
    bad("reject/Vector2Array/negative_count", H(26) + u32(0x80000001) + v2, INVALID, "count < 0 as int32")
    v3 = f32(1.0) + f32(2.0) + f32(3.0)
    ok("Vector3Array/one", H(27) + u32(1) + v3, d_packed("Vector3Array", v3))
    bad("reject/Vector3Array/truncated", H(27) + u32(1) + v3[:8], INVALID, "1 * 12 > 8 bytes left")
    col = f32(1.0) + f32(0.0) + f32(0.5) + f32(1.0)
    ok("ColorArray/one", H(28) + u32(1) + col, d_packed("ColorArray", col))
    bad("reject/ColorArray/truncated", H(28) + u32(2) + col, INVALID, "2 * 16 > 16 bytes left")
    bad("reject/ColorArray/no_count", H(28), INVALID, "ColorArray needs its count word")


# ---------------------------------------------------------------------------------------
# model of the 2.1.5/2.1.6 decoder and encoder, used only to check the cases above


class Reject(Exception):
    def __init__(self, code):
        Exception.__init__(self, code)
        self.code = code


def c_rem(a, n):
    """C's % (truncates toward zero)."""
    r = abs(a) % n
    return -r if a < 0 else r


def s32(v):
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v & 0x80000000 else v


def rd_u32(b, p):
    return struct.unpack_from("<I", b, p)[0]


def lead_len(c):
    if c & 0x80 == 0:
        return 1
    if c & 0xE0 == 0xC0:
        return 2
    if c & 0xF0 == 0xE0:
        return 3
    if c & 0xF8 == 0xF0:
        return 4
    if c & 0xFC == 0xF8:
        return 5
    if c & 0xFE == 0xFC:
        return 6
    return 0


def parse_utf8(raw):
    """String::parse_utf8 of 2.x, on a 32-bit wchar_t build. Returns code points or raises."""
    if len(raw) >= 3 and raw[:3] == b"\xef\xbb\xbf":
        raw = raw[3:]
    nul = raw.find(b"\0")
    text = raw if nul < 0 else raw[:nul]
    i, out = 0, []
    while i < len(text):
        c = text[i]
        n = lead_len(c)
        if n == 0:
            raise Reject(INVALID)
        if n == 2 and c & 0x1E == 0:
            raise Reject(INVALID)
        if i + n > len(text):
            raise Reject(INVALID)
        u = c if n == 1 else c & (0xFF >> (n + 1))
        for k in range(1, n):
            d = text[i + k]
            if d & 0xC0 != 0x80:
                raise Reject(INVALID)
            if u == 0 and k == 2 and ((d & 0x7F) >> (7 - n)) == 0:
                raise Reject(INVALID)
            u = (u << 6) | (d & 0x3F)
        out.append(u)
        i += n
    return out


def godot_utf8(cps):
    """String::utf8 of 2.x (1 to 6 bytes per code point)."""
    out = bytearray()
    for c in cps:
        if c <= 0x7F:
            out.append(c)
            continue
        for limit, n in ((0x7FF, 2), (0xFFFF, 3), (0x1FFFFF, 4), (0x3FFFFFF, 5), (0x7FFFFFFF, 6)):
            if c <= limit:
                break
        first = (0xFF << (8 - n)) & 0xFF
        out.append(first | (c >> (6 * (n - 1))))
        for k in range(n - 2, -1, -1):
            out.append(0x80 | ((c >> (6 * k)) & 0x3F))
    return bytes(out)


def dec_string(b, p, avail):
    """_decode_string: returns (utf8 of the decoded text, bytes consumed)."""
    if avail < 4:
        raise Reject(INVALID)
    n = s32(rd_u32(b, p))
    pad = 4 - c_rem(n, 4) if c_rem(n, 4) else 0
    avail -= 4
    if pad < 0 or n < 0 or n > INT_MAX - pad:
        raise Reject(EOF)
    if n + pad > avail:
        raise Reject(EOF)
    cps = parse_utf8(b[p + 4:p + 4 + n])
    return godot_utf8(cps), 4 + n + pad


PIX = {0: 1, 1: 1, 2: 2, 3: 3, 4: 4, 5: 1, 6: 1, 7: 2, 8: 3}
SHIFT = {9: 1, 12: 1, 19: 1, 16: 1, 17: 1, 18: 1, 14: 2, 15: 2}
MINWH = {9: (4, 4), 10: (4, 4), 11: (4, 4), 12: (4, 4), 13: (4, 4), 14: (16, 8), 15: (16, 8),
         16: (8, 8), 17: (8, 8), 19: (8, 8), 20: (8, 8), 21: (8, 8), 18: (4, 4)}


def image_size(w, h, fmt, mipmaps):
    """Image::_get_dst_image_size with a given mipmap count."""
    pix, shift = PIX.get(fmt, 1), SHIFT.get(fmt, 0)
    minw, minh = MINWH.get(fmt, (1, 1))
    size = {5: 768, 6: 1024}.get(fmt, 0)
    assert 0 <= mipmaps < 100000, "mipmap count not modelled"
    mm = 0
    while True:
        size += (w * h * pix) >> shift
        if mm == mipmaps:
            return size
        w, h = max(minw, w >> 1), max(minh, h >> 1)
        mm += 1


def decode(b, p=0, avail=None):
    """decode_variant: returns (description, r_len) or raises Reject."""
    if avail is None:
        avail = len(b)
    if avail < 4:
        raise Reject(INVALID)
    t = rd_u32(b, p)
    if t >= VARIANT_MAX:
        raise Reject(INVALID)
    p += 4
    avail -= 4
    used = 4
    if t == 0:
        return d_nil(), used
    if t in (1, 2, 3):
        if avail < 4:
            raise Reject(INVALID)
        w = rd_u32(b, p)
        if t == 1:
            return d_bool(w != 0), used + 4
        if t == 2:
            return d_int(s32(w)), used + 4
        return d_float_bits(w), used + 4
    if t == 4:
        s, n = dec_string(b, p, avail)
        return d_str(s), used + n
    if t in MATH:
        name, n = MATH[t]
        if avail < 4 * n:
            raise Reject(INVALID)
        return d_math_bits(name, [rd_u32(b, p + 4 * k) for k in range(n)]), used + 4 * n
    if t == 15:
        if avail < 20:
            raise Reject(INVALID)
        fmt = rd_u32(b, p)
        if fmt >= FORMAT_MAX:
            raise Reject(INVALID)
        mm, w, h, dl = (s32(rd_u32(b, p + k)) for k in (4, 8, 12, 16))
        img = D_EMPTY_IMAGE
        if dl > 0:
            if avail - 20 < dl:
                raise Reject(INVALID)
            data = b[p + 20:p + 20 + dl]
            if 1 <= w <= 16384 and 1 <= h <= 16384:
                if fmt == FMT_CUSTOM or image_size(w, h, fmt, mm) == dl:
                    img = d_image(fmt, mm, w, h, data)
        pad = 4 - c_rem(dl, 4) if c_rem(dl, 4) else 0
        return img, used + pad + 20 + dl
    if t == 16:
        if avail < 4:
            raise Reject(INVALID)
        first = rd_u32(b, p)
        if not first & 0x80000000:
            raise Reject(INVALID)
        if avail < 12:
            raise Reject(INVALID)
        nc, sc, flags = first & 0x7FFFFFFF, rd_u32(b, p + 4), rd_u32(b, p + 8)
        p, avail, used = p + 12, avail - 12, used + 12
        total = (nc + sc + (1 if flags & 2 else 0)) & 0xFFFFFFFF
        names, subs, prop = [], [], b""
        i = 0
        while i < total:
            s, n = dec_string(b, p, avail)
            p, avail, used = p + n, avail - n, used + n
            if i < nc:
                names.append(s)
            elif i < ((nc + sc) & 0xFFFFFFFF):
                subs.append(s)
            else:
                prop = s
            i += 1
        if not names:
            return D_EMPTY_NP, used
        return d_np(names, subs, bool(flags & 1), prop), used
    if t == 17:
        return {"t": "RID"}, used
    if t == 18:
        return {"t": "Object"}, used
    if t == 19:
        if avail < 8:
            raise Reject(INVALID)
        typ, dev = s32(rd_u32(b, p)), s32(rd_u32(b, p + 4))
        used += 12
        ev = d_ie(typ, dev)
        if typ == IE_KEY:
            if avail < 20:
                raise Reject(INVALID)
            ev.update(modifiers=rd_u32(b, p + 12) & MODS_KEPT, scancode=rd_u32(b, p + 16))
            used += 8
        elif typ in (IE_MOUSE_BUTTON, IE_JOY_BUTTON, IE_SCREEN_TOUCH):
            if avail < 16:
                raise Reject(INVALID)
            ev["index" if typ == IE_SCREEN_TOUCH else "button_index"] = s32(rd_u32(b, p + 12))
            used += 4
        elif typ == IE_JOY_MOTION:
            if avail < 20:
                raise Reject(INVALID)
            ev.update(axis=s32(rd_u32(b, p + 12)), axis_value="%08x" % rd_u32(b, p + 16))
            used += 8
        return ev, used
    if t in (20, 21):
        if avail < 4:
            raise Reject(INVALID)
        c = rd_u32(b, p)
        shared, count = bool(c & 0x80000000), c & 0x7FFFFFFF
        p, avail, used = p + 4, avail - 4, used + 4
        items = []
        for _ in range(count):
            k, n = decode(b, p, avail)
            p, avail, used = p + n, avail - n, used + n
            if t == 21:
                items.append(k)
                continue
            v, n = decode(b, p, avail)
            p, avail, used = p + n, avail - n, used + n
            for pair in items:
                if pair[0] == k:
                    pair[1] = v
                    break
            else:
                items.append([k, v])
        return (d_dict(items, shared) if t == 20 else d_arr(items, shared)), used
    if t == 22:
        if avail < 4:
            raise Reject(INVALID)
        count = s32(rd_u32(b, p))
        avail -= 4
        if count < 0 or count > avail:
            raise Reject(INVALID)
        pad = 4 - count % 4 if count % 4 else 0
        return d_bytes(b[p + 4:p + 4 + count]), used + 4 + count + pad
    if t in PACKED:
        name, size = PACKED[t]
        if avail < 4:
            raise Reject(INVALID)
        count = s32(rd_u32(b, p))
        avail -= 4
        if count < 0 or count > INT_MAX // size:
            raise Reject(INVALID)
        if count * size > avail:
            raise Reject(INVALID)
        return d_packed(name, b[p + 4:p + 4 + count * size]), used + 4 + count * size
    if t == 25:
        if avail < 4:
            raise Reject(INVALID)
        count = s32(rd_u32(b, p))
        p, avail, used = p + 4, avail - 4, used + 4
        items = []
        for _ in range(max(count, 0)):
            s, n = dec_string(b, p, avail)
            p, avail, used = p + n, avail - n, used + n
            items.append(s)
        return d_sarr(items), used
    raise AssertionError("unreachable")


def encode(d):
    """encode_variant for a description (padding written as zeros)."""
    t = d["t"]
    if t == "Nil":
        return hdr(0)
    if t == "bool":
        return hdr(1) + u32(1 if d["v"] else 0)
    if t == "int":
        return hdr(2) + i32(int(d["v"]))
    if t == "float":
        return hdr(3) + fb(f64bits_to_f32bits(int(d["v"], 16)))
    if t == "String":
        return hdr(4) + gstr(bytes.fromhex(d["v"]))
    if t in NAME_TO_ID and t not in ("IntArray", "RealArray", "Vector2Array", "Vector3Array", "ColorArray"):
        return hdr(NAME_TO_ID[t]) + b"".join(fb(int(x, 16)) for x in d["v"])
    if t == "Image":
        data = bytes.fromhex(d["data"])
        return hdr(15) + u32(d["format"]) + u32(d["mipmaps"]) + u32(d["width"]) + u32(d["height"]) \
            + u32(len(data)) + pad4(data)
    if t == "NodePath":
        names = [bytes.fromhex(x) for x in d["names"]]
        subs = [bytes.fromhex(x) for x in d["subnames"]]
        prop = bytes.fromhex(d["property"])
        nc, sc = len(names), len(subs)
        flags = (1 if d["absolute"] else 0) | (2 if prop else 0)
        out = hdr(16) + u32(0x80000000 | nc) + u32(sc) + u32(flags)
        for i in range(nc + sc + (1 if prop else 0)):
            if i < nc:
                s = names[i]
            elif i < nc + sc:
                k = i - sc  # the 2.x encoder's index (should be i - nc)
                s = subs[k] if 0 <= k < sc else b""
            else:
                s = prop
            out += gstr(s)
        return out
    if t == "RID":
        return hdr(17)
    if t == "Object":
        return hdr(18)
    if t == "InputEvent":
        typ = d["type"]
        if typ == IE_KEY:
            fields = u32(d["modifiers"]) + u32(d["scancode"])
        elif typ in (IE_MOUSE_BUTTON, IE_JOY_BUTTON):
            fields = i32(d["button_index"])
        elif typ == IE_SCREEN_TOUCH:
            fields = i32(d["index"])
        elif typ == IE_JOY_MOTION:
            fields = i32(d["axis"]) + fb(int(d["axis_value"], 16))
        else:
            fields = b""
        return hdr(19) + i32(typ) + i32(d["device"]) + u32(12 + len(fields)) + fields
    if t in ("Dictionary", "Array"):
        items = d["v"]
        assert t == "Array" or len(items) <= 1, "key order of larger dictionaries is not modelled"
        out = hdr(20 if t == "Dictionary" else 21) + u32(len(items) | (0x80000000 if d["shared"] else 0))
        for it in items:
            out += b"".join(encode(x) for x in it) if t == "Dictionary" else encode(it)
        return out
    if t == "ByteArray":
        data = bytes.fromhex(d["v"])
        return hdr(22) + u32(len(data)) + pad4(data)
    if t in ("IntArray", "RealArray", "Vector2Array", "Vector3Array", "ColorArray"):
        tid = NAME_TO_ID[t]
        raw = bytes.fromhex(d["v"])
        return hdr(tid) + u32(len(raw) // PACKED[tid][1]) + raw
    if t == "StringArray":
        items = [bytes.fromhex(x) for x in d["v"]]
        return hdr(25) + u32(len(items)) + b"".join(sa_elem(s) for s in items)
    raise AssertionError(t)


# ---------------------------------------------------------------------------------------


def check(cases):
    problems = []
    names = set()
    for c in cases:
        if c["name"] in names:
            problems.append("duplicate name " + c["name"])
        names.add(c["name"])
        try:
            got, size = decode(c["bytes"])
            outcome = ("ok", got, size)
        except Reject as e:
            outcome = ("err", e.code)
        if c["accepted"]:
            if outcome[0] != "ok":
                problems.append("%s: model rejects with %d" % (c["name"], outcome[1]))
                continue
            if outcome[1] != c["value"]:
                problems.append("%s: model value %s != %s" % (c["name"], outcome[1], c["value"]))
            if outcome[2] != c["decoded_size"]:
                problems.append("%s: model size %d != %d" % (c["name"], outcome[2], c["decoded_size"]))
            re = encode(c["value"])
            if re != c["reencoded"]:
                problems.append("%s: model re-encodes %s != %s" % (c["name"], re.hex(), c["reencoded"].hex()))
            quirk = c["name"].startswith("quirk/")
            if quirk != (c["reencoded"] != c["bytes"]):
                problems.append("%s: 'quirk/' prefix and reencoded != bytes disagree" % c["name"])
        else:
            if outcome[0] != "err":
                problems.append("%s: model accepts (%s)" % (c["name"], outcome[1]))
            elif outcome[1] != c["error"]:
                problems.append("%s: model error %d != %d" % (c["name"], outcome[1], c["error"]))
    return problems


def render(cases):
    lines = []
    for c in cases:
        if c["accepted"]:
            o = {"name": c["name"], "bytes": c["bytes"].hex(), "accepted": True, "value": c["value"],
                 "decoded_size": c["decoded_size"], "reencoded": c["reencoded"].hex()}
            if c["note"]:
                o["note"] = c["note"]
        else:
            o = {"name": c["name"], "bytes": c["bytes"].hex(), "accepted": False, "error": c["error"],
                 "why": c["why"]}
        lines.append("  " + json.dumps(o, ensure_ascii=True, separators=(", ", ": ")))
    head = {"source": SOURCE, "notes": NOTES, "error_codes": ERROR_CODES}
    h = json.dumps(head, ensure_ascii=True, indent=1)
    return h[:-2] + ',\n "cases": [\n' + ",\n".join(lines) + "\n ]\n}\n"


def main(argv):
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vectors.json")
    check_only = False
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--out" and args:
            out = args.pop(0)
        elif a.startswith("--out="):
            out = a[len("--out="):]
        elif a == "--check":
            check_only = True
        else:
            print("usage: make_vectors.py [--out PATH] [--check]", file=sys.stderr)
            return 2
    build_cases()
    problems = check(CASES)
    if problems:
        for p in problems:
            print("MISMATCH " + p, file=sys.stderr)
        return 1
    text = render(CASES)
    json.loads(text)  # well-formed
    acc = sum(1 for c in CASES if c["accepted"])
    summary = "%d cases: %d accepted (%d quirk), %d rejected" % (
        len(CASES), acc, sum(1 for c in CASES if c["name"].startswith("quirk/")), len(CASES) - acc)
    if check_only:
        try:
            with open(out, encoding="ascii") as f:
                same = f.read() == text
        except OSError:
            same = False
        print(("up to date: " if same else "OUT OF DATE: ") + summary)
        return 0 if same else 1
    with open(out, "w", encoding="ascii", newline="\n") as f:
        f.write(text)
    print("wrote %s: %s" % (out, summary))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
