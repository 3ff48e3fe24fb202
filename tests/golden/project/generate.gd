extends SceneTree
## Golden-vector generator for FastVariantCodec.
##
## Run (from the repository root):
##   godot --headless --path tests/golden/project --script res://generate.gd -- --out=/abs/path/godot4.json
## Add --verbose (after `--`) to see the engine's own error messages for rejected inputs.
##
## Every case is a byte string. The engine itself decides what happens to it:
##   accepted     = PackedByteArray.has_encoded_var(0, allow_objects)
##   decoded_size = PackedByteArray.decode_var_size(0, allow_objects)   (-1 when rejected)
##   reencoded    = var_to_bytes(decode_var(...)) (or var_to_bytes_with_objects when
##                  allow_objects), null when rejected or when the decoded value holds an
##                  EncodedObjectAsID (whose own instance id is random).
## The case name is "<category>/<label>": category is type_string() of the decoded value,
## "quirk" when the re-encoding differs from the input, "reject" when not accepted.
##
## Output must be deterministic: no live instance ids, no transcendental math (libm may
## differ between machines), a fixed-seed RNG, fixed key order.

const GoldenRes = preload("res://golden_res.gd")
const GoldenRef = preload("res://golden_ref.gd")

const T_NIL := 0
const T_BOOL := 1
const T_INT := 2
const T_FLOAT := 3
const T_STRING := 4
const T_VECTOR2 := 5
const T_VECTOR2I := 6
const T_RECT2 := 7
const T_RECT2I := 8
const T_VECTOR3 := 9
const T_VECTOR3I := 10
const T_TRANSFORM2D := 11
const T_VECTOR4 := 12
const T_VECTOR4I := 13
const T_PLANE := 14
const T_QUATERNION := 15
const T_AABB := 16
const T_BASIS := 17
const T_TRANSFORM3D := 18
const T_PROJECTION := 19
const T_COLOR := 20
const T_STRING_NAME := 21
const T_NODE_PATH := 22
const T_RID := 23
const T_OBJECT := 24
const T_CALLABLE := 25
const T_SIGNAL := 26
const T_DICTIONARY := 27
const T_ARRAY := 28
const T_PBA := 29
const T_PI32 := 30
const T_PI64 := 31
const T_PF32 := 32
const T_PF64 := 33
const T_PSA := 34
const T_PV2 := 35
const T_PV3 := 36
const T_PCOL := 37
const T_PV4 := 38

const FLAG_64 := 0x10000

# Mutation levels for registered bases.
const MUT_NONE := 0
const MUT_SOME := 1 # header / length-word / garbage mutations
const MUT_ALL := 2 # MUT_SOME + every truncation + type byte 39/255

const INT32_MAX := 2147483647
const INT32_MIN := -2147483648
const INT64_MAX := 9223372036854775807
const INT64_MIN := -9223372036854775807 - 1

var _cases: Array = []
var _names: Dictionary = {}
var _seen: Dictionary = {}
var _bases: Array = []
var _failures: PackedStringArray = PackedStringArray()
var _sections_done := 0
var _verbose := false
var _rng := RandomNumberGenerator.new()


# ---------------------------------------------------------------------------
# Byte builder for crafted inputs.
class Buf:
	var b := PackedByteArray()

	func u32(v: int) -> Buf:
		var o := b.size()
		b.resize(o + 4)
		b.encode_u32(o, v & 0xFFFFFFFF)
		return self

	func u64(v: int) -> Buf:
		var o := b.size()
		b.resize(o + 8)
		b.encode_s64(o, v)
		return self

	func f32(v: float) -> Buf:
		var o := b.size()
		b.resize(o + 4)
		b.encode_float(o, v)
		return self

	func f64(v: float) -> Buf:
		var o := b.size()
		b.resize(o + 8)
		b.encode_double(o, v)
		return self

	func raw(p: PackedByteArray) -> Buf:
		b.append_array(p)
		return self

	func hex(h: String) -> Buf:
		b.append_array(h.hex_decode())
		return self

	func pad() -> Buf:
		while b.size() % 4 != 0:
			b.append(0)
		return self

	## Length-prefixed, padded UTF-8 string (as the engine writes it).
	func s(text: String) -> Buf:
		var u := text.to_utf8_buffer()
		u32(u.size())
		b.append_array(u)
		return pad()

	## Length-prefixed raw bytes, padded with zeros.
	func sraw(p: PackedByteArray) -> Buf:
		u32(p.size())
		b.append_array(p)
		return pad()

	## Variant of a bare value.
	func v(value) -> Buf:
		b.append_array(var_to_bytes(value))
		return self


func _buf() -> Buf:
	return Buf.new()


# ---------------------------------------------------------------------------
# Entry point.

func _initialize() -> void:
	var rc = _main()
	if typeof(rc) != TYPE_INT:
		rc = 1
	quit(rc)


func _main() -> int:
	var out_path := ""
	for a in OS.get_cmdline_user_args():
		if a.begins_with("--out="):
			out_path = a.substr(6)
		elif a == "--verbose":
			_verbose = true
	if out_path.is_empty():
		printerr("generate.gd: missing --out=<path> (pass it after `--`)")
		return 2
	# --path changes the working directory to the project; resolve a relative --out
	# against the caller's directory instead.
	if out_path.is_relative_path() and OS.get_environment("PWD") != "":
		out_path = OS.get_environment("PWD").path_join(out_path)

	_rng.seed = 20240611
	var sections := [
		_sec_nil, _sec_bool, _sec_int, _sec_float, _sec_string, _sec_string_crafted,
		_sec_string_name, _sec_math, _sec_math_crafted, _sec_ivec, _sec_color,
		_sec_node_path, _sec_rid, _sec_object, _sec_callable, _sec_signal,
		_sec_dictionary, _sec_array, _sec_typed_containers, _sec_typed_crafted,
		_sec_packed, _sec_packed_crafted, _sec_depth, _sec_header_misc, _sec_mutations,
	]
	for s in sections:
		var before := _sections_done
		s.call()
		if _sections_done != before + 1:
			_failures.append("section did not complete: %s" % s.get_method())
			break

	# Sanity checks on the result.
	var per_cat := {}
	for c in _cases:
		var cat: String = c["name"].get_slice("/", 0)
		per_cat[cat] = per_cat.get(cat, 0) + 1
	for t in range(TYPE_MAX):
		var cat := type_string(t)
		if per_cat.get(cat, 0) < 5:
			_failures.append("category %s has only %d cases" % [cat, per_cat.get(cat, 0)])
	for cat in per_cat:
		var known: bool = cat == "reject" or cat == "quirk"
		for t in range(TYPE_MAX):
			if type_string(t) == cat:
				known = true
		if not known:
			_failures.append("unexpected category %s" % cat)
	for c in _cases:
		if not _is_ascii(c["name"]):
			_failures.append("non-ASCII case name %s" % c["name"])
	if _cases.size() < 600:
		_failures.append("only %d cases" % _cases.size())

	if not _failures.is_empty():
		for f in _failures:
			printerr("generate.gd: FAILURE: ", f)
		return 1

	# One case per line (compact, diff-friendly); key order is fixed by insertion.
	var lines := PackedStringArray()
	for c in _cases:
		lines.append("    " + JSON.stringify(c, "", false))
	var text := "{\n  \"engine\": %s,\n  \"cases\": [\n%s\n  ]\n}" % [
		JSON.stringify(Engine.get_version_info().string), ",\n".join(lines)]
	var parsed = JSON.parse_string(text)
	if typeof(parsed) != TYPE_DICTIONARY or parsed["cases"].size() != _cases.size():
		printerr("generate.gd: produced invalid JSON")
		return 1
	var fa := FileAccess.open(out_path, FileAccess.WRITE)
	if fa == null:
		printerr("generate.gd: cannot open %s: %s" % [out_path, error_string(FileAccess.get_open_error())])
		return 3
	fa.store_string(text + "\n")
	fa.close()
	var keys := per_cat.keys()
	keys.sort()
	var summary := PackedStringArray()
	for k in keys:
		summary.append("%s=%d" % [k, per_cat[k]])
	print("generate.gd: wrote %d cases to %s" % [_cases.size(), out_path])
	print("generate.gd: ", ", ".join(summary))
	return 0


# ---------------------------------------------------------------------------
# Case recording.

## True when the value (recursively) holds an EncodedObjectAsID. Iterative (GDScript's call
## stack is limited to 1024 frames and the depth cases nest deeper than that); dictionary
## entries are read through keys()/values() to avoid hashing deeply nested keys.
func _contains_eoid(root) -> bool:
	var stack := [root]
	var steps := 0
	while not stack.is_empty():
		steps += 1
		if steps > 1000000:
			_failures.append("_contains_eoid: value too large")
			return true
		var v = stack.pop_back()
		match typeof(v):
			TYPE_OBJECT:
				if v == null:
					continue
				if v.get_class() == "EncodedObjectAsID":
					return true
				for p in v.get_property_list():
					if (p["usage"] & PROPERTY_USAGE_STORAGE) and p["name"] != "script":
						stack.append(v.get(p["name"]))
			TYPE_ARRAY:
				stack.append_array(v)
			TYPE_DICTIONARY:
				stack.append_array(v.keys())
				stack.append_array(v.values())
	return false


## Records one case. `label` is "<TypeHint>/<detail>"; the final name is the label when the
## engine-derived category equals the hint, else "<category>/<label>".
## Returns true when accepted.
func _add(label: String, bytes: PackedByteArray, allow: bool = false, dedupe: bool = false) -> bool:
	var hex := bytes.hex_encode()
	var key := hex + ("|1" if allow else "|0")
	if dedupe and _seen.has(key):
		return _seen[key]

	# The engine logs an error (with a script backtrace) for every rejected input;
	# silence that unless --verbose was given.
	Engine.print_error_messages = _verbose
	var accepted: bool = bytes.has_encoded_var(0, allow)
	var size := -1
	var re = null
	var cat := "reject"
	var v = null
	if accepted:
		size = bytes.decode_var_size(0, allow)
		v = bytes.decode_var(0, allow)
	Engine.print_error_messages = true
	if accepted:
		cat = type_string(typeof(v))
		if not _contains_eoid(v):
			var rb: PackedByteArray = var_to_bytes_with_objects(v) if allow else var_to_bytes(v)
			if rb.is_empty():
				_failures.append("re-encoding failed for %s" % label)
			else:
				re = rb.hex_encode()
		if re != null and re != hex:
			cat = "quirk"
		if size <= 0:
			_failures.append("accepted but decode_var_size=%d for %s" % [size, label])

	var hint := label.get_slice("/", 0)
	_seen[key] = accepted
	var name := label if hint == cat else cat + "/" + label
	if _names.has(name):
		var i := 2
		while _names.has("%s~%d" % [name, i]):
			i += 1
		name = "%s~%d" % [name, i]
	_names[name] = true

	var c := {}
	c["name"] = name
	c["bytes"] = hex
	c["allow_objects"] = allow
	c["accepted"] = accepted
	c["decoded_size"] = size
	c["reencoded"] = re
	_cases.append(c)
	return accepted


## Records a case and registers it as a base for the mutation pass.
## len_off: byte offset of a length/count word to mutate (-1 = none).
func _base(label: String, bytes: PackedByteArray, allow: bool = false, mut: int = MUT_SOME, len_off: int = -1) -> void:
	_add(label, bytes, allow)
	if mut != MUT_NONE:
		_bases.append([label, bytes, allow, mut, len_off])


## var_to_bytes(value) as a case.
func _val(label: String, value, mut: int = MUT_NONE, len_off: int = -1) -> void:
	var b := var_to_bytes(value)
	if b.is_empty():
		_failures.append("var_to_bytes failed for %s" % label)
		return
	_base(label, b, false, mut, len_off)


## var_to_bytes_with_objects(value) as a case decoded with allow_objects = true.
func _obj(label: String, value, mut: int = MUT_NONE, len_off: int = -1) -> void:
	var b := var_to_bytes_with_objects(value)
	if b.is_empty():
		_failures.append("var_to_bytes_with_objects failed for %s" % label)
		return
	_base(label, b, true, mut, len_off)


func _is_ascii(t: String) -> bool:
	for i in range(t.length()):
		if t.unicode_at(i) > 0x7e:
			return false
	return true


func _f64(bits: int) -> float:
	var p := PackedByteArray()
	p.resize(8)
	p.encode_s64(0, bits)
	return p.decode_double(0)


func _f32(bits: int) -> float:
	var p := PackedByteArray()
	p.resize(4)
	p.encode_u32(0, bits & 0xFFFFFFFF)
	return p.decode_float(0)


## Unsigned 64-bit hex of n ("0x..." without leading zeros).
func _hex_label(n: int) -> String:
	var p := PackedByteArray()
	p.resize(8)
	p.encode_s64(0, n)
	p.reverse()
	var h := p.hex_encode().lstrip("0")
	return "0x" + (h if h != "" else "0")


## int from a 16-digit big-endian hex bit pattern (GDScript literals above INT64_MAX clamp).
func _bits(h: String) -> int:
	var p := h.hex_decode()
	p.reverse()
	return p.decode_s64(0)


## Fixed-width 64-bit hex of a bit pattern.
func _hex64(n: int) -> String:
	var p := PackedByteArray()
	p.resize(8)
	p.encode_s64(0, n)
	p.reverse()
	return p.hex_encode()


# ---------------------------------------------------------------------------
# Sections.

func _sec_nil() -> void:
	_val("Nil/null", null, MUT_ALL)
	_add("Nil/null_allow_objects", var_to_bytes(null), true)
	var o: Object = null
	_add("Nil/null_object_var", var_to_bytes(o))
	_add("Nil/null_object_with_objects", var_to_bytes_with_objects(o), true)
	_add("Nil/array_elem_null", var_to_bytes([null]).slice(8))
	# Flag / unused header bits on Nil.
	for m in [0x100, 0x8000, FLAG_64, 0x20000, 0x80000000, 0xFFFFFF00]:
		_add("Nil/header_bits_0x%x" % m, _buf().u32(T_NIL | m).b)
	_add("Nil/garbage_after", _buf().u32(0).u32(0xDEADBEEF).b)
	_add("Nil/empty_input", PackedByteArray())
	_add("Nil/short_input_3", PackedByteArray([0, 0, 0]))
	_sections_done += 1


func _sec_bool() -> void:
	_val("bool/true", true, MUT_ALL)
	_val("bool/false", false, MUT_ALL)
	_add("bool/true_allow_objects", var_to_bytes(true), true)
	_add("bool/false_allow_objects", var_to_bytes(false), true)
	_add("bool/true_again", var_to_bytes(1 == 1))
	for v in [2, 0xFF, 0x100, 0x80000000, 0xFFFFFFFF]:
		_add("bool/value_0x%x" % v, _buf().u32(T_BOOL).u32(v).b)
	_add("bool/flag64_true", _buf().u32(T_BOOL | FLAG_64).u32(1).b)
	_add("bool/flag64_with_8_bytes", _buf().u32(T_BOOL | FLAG_64).u64(1).b)
	_sections_done += 1


func _sec_int() -> void:
	var vals := [
		0, 1, -1, 2, -2, 7, 42, -42, 100, 127, 128, -128, -129, 255, 256, 1000, -1000,
		32767, 32768, -32768, -32769, 65535, 65536, 16777215, 16777216, 123456789,
		-123456789, 1 << 30, -(1 << 30), 2147483646, INT32_MAX, 2147483648, 2147483649,
		-2147483647, INT32_MIN, -2147483649, -2147483650, 4294967295, 4294967296,
		-4294967295, -4294967296, 1 << 40, -(1 << 40), 9007199254740991, 9007199254740993,
		-9007199254740993, 0x0123456789ABCDEF, -0x0123456789ABCDEF, 1 << 62,
		INT64_MAX - 1, INT64_MAX, INT64_MIN + 1, INT64_MIN,
	]
	var important := [0, 1, -1, INT32_MAX, 2147483648, INT32_MIN, -2147483649, INT64_MAX, INT64_MIN]
	for v in vals:
		var lbl := "int/" + str(v)
		if v == INT32_MAX:
			lbl = "int/i32_max"
		elif v == INT32_MIN:
			lbl = "int/i32_min"
		elif v == INT64_MAX:
			lbl = "int/i64_max"
		elif v == INT64_MIN:
			lbl = "int/i64_min"
		_val(lbl, v, MUT_ALL if v in important else MUT_SOME)
	for i in range(12):
		var hi := _rng.randi()
		var lo := _rng.randi()
		var v64 := (hi << 32) | lo
		_val("int/rng64_%d" % i, v64)
		var v32 := int(lo) - 2147483648
		_val("int/rng32_%d" % i, v32)
	_add("int/allow_objects_42", var_to_bytes(42), true)
	_add("int/allow_objects_i64_max", var_to_bytes(INT64_MAX), true)
	# 64-bit encodings of values that fit in 32 bits.
	for v in [0, 1, -1, 42, INT32_MAX, INT32_MIN, 0xFFFFFFFF]:
		_add("int/wide64_%s" % _hex_label(v), _buf().u32(T_INT | FLAG_64).u64(v).b)
	# 32-bit payload with the 64-bit flag (needs 8 bytes) and without.
	_add("int/flag64_only_4_bytes", _buf().u32(T_INT | FLAG_64).u32(5).b)
	_add("int/no_flag_8_bytes", _buf().u32(T_INT).u64(0x100000005).b)
	_add("int/header_byte1_set", _buf().u32(T_INT | 0x0100).u32(5).b)
	_add("int/header_bit17_set", _buf().u32(T_INT | 0x20000).u32(5).b)
	_add("int/header_bit31_set", _buf().u32(T_INT | 0x80000000).u32(5).b)
	_add("int/header_flag64_bit17", _buf().u32(T_INT | FLAG_64 | 0x20000).u64(-5).b)
	_sections_done += 1


func _sec_float() -> void:
	var named := [
		["zero", 0.0], ["neg_zero", -0.0], ["half", 0.5], ["one", 1.0], ["three", 3.0],
		["neg_two_and_half", -2.5], ["f32_1_1", _f32(0x3f8ccccd)], ["point_one", 0.1],
		["neg_point_one", -0.1], ["one_third", 1.0 / 3.0], ["1e300", 1e300], ["neg_1e300", -1e300],
		["1e-300", 1e-300], ["1e38", 1e38], ["1e39", 1e39], ["pi", PI], ["tau", TAU],
		["inf", INF], ["neg_inf", -INF], ["nan", NAN],
		["f32_max", _f32(0x7f7fffff)], ["neg_f32_max", _f32(0xff7fffff)],
		["f32_max_next_up_f64", _f64(0x47efffffe0000001)],
		["f32_min_normal", _f32(0x00800000)], ["f32_max_subnormal", _f32(0x007fffff)],
		["f32_min_subnormal", _f32(0x00000001)], ["neg_f32_min_subnormal", _f32(0x80000001)],
		["half_f32_min_subnormal", _f64(0x3690000000000000)],
		["f64_max", _f64(0x7fefffffffffffff)], ["neg_f64_max", _f64(_bits("ffefffffffffffff"))],
		["f64_min_normal", _f64(0x0010000000000000)], ["f64_max_subnormal", _f64(0x000fffffffffffff)],
		["f64_min_subnormal", _f64(0x0000000000000001)], ["neg_f64_min_subnormal", _f64(_bits("8000000000000001"))],
		["2pow24", 16777216.0], ["2pow24_plus1", 16777217.0], ["2pow24_plus2", 16777218.0],
		["2pow53", 9007199254740992.0], ["2pow63", 9223372036854775808.0],
		["1e10", 1e10], ["123.456", 123.456], ["f32_eps", _f32(0x34000000)], ["f64_eps", _f64(0x3cb0000000000000)],
		["one_plus_f64_eps", _f64(0x3ff0000000000001)],
	]
	var important := ["zero", "neg_zero", "half", "point_one", "inf", "nan", "f32_min_subnormal", "f64_min_subnormal"]
	for e in named:
		_val("float/" + e[0], e[1], MUT_ALL if e[0] in important else MUT_SOME)
	for i in range(8):
		_val("float/rng_unit_%d" % i, _rng.randf())
		_val("float/rng_range_%d" % i, _rng.randf_range(-1e6, 1e6))
	_add("float/allow_objects_half", var_to_bytes(0.5), true)

	# Crafted 32-bit float payloads (NaNs and friends).
	for bits in [0x7fc00000, 0xffc00000, 0x7f800001, 0x7fa00000, 0x7fc00001, 0x7fffffff, 0xffffffff,
			0x7f800000, 0xff800000, 0x80000000, 0x00000001, 0x3f800000]:
		_add("float/f32_bits_%08x" % bits, _buf().u32(T_FLOAT).u32(bits).b)
	# Crafted 64-bit float payloads.
	for bits in [0x7ff8000000000000, _bits("fff8000000000000"), 0x7ff0000000000001, 0x7ff4000000000000,
			0x7ff8000000000001, 0x7fffffffffffffff, _bits("ffffffffffffffff"), 0x7ff8000020000000,
			0x7ff0000000000000, _bits("fff0000000000000")]:
		_add("float/f64_bits_" + _hex64(bits), _buf().u32(T_FLOAT | FLAG_64).u64(bits).b)
	# 64-bit encodings of f32-exact values.
	for e in [["zero", 0.0], ["neg_zero", -0.0], ["half", 0.5], ["one", 1.0], ["neg_three", -3.0],
			["f32_max", _f32(0x7f7fffff)], ["f32_min_subnormal", _f32(1)], ["inf", INF], ["neg_inf", -INF]]:
		_add("float/wide64_" + e[0], _buf().u32(T_FLOAT | FLAG_64).f64(e[1]).b)
	_add("float/flag64_only_4_bytes", _buf().u32(T_FLOAT | FLAG_64).f32(1.0).b)
	_add("float/header_byte1_set", _buf().u32(T_FLOAT | 0x0100).f32(1.0).b)
	_add("float/header_bit17_set", _buf().u32(T_FLOAT | 0x20000).f32(1.0).b)
	_sections_done += 1


func _strings() -> Array:
	var long_ascii := "0123456789".repeat(100)
	var long_mixed := "aé€😀".repeat(300)
	return [
		["empty", ""], ["len1", "a"], ["len2", "ab"], ["len3", "abc"], ["len4", "abcd"],
		["len5", "abcde"], ["len6", "abcdef"], ["len7", "abcdefg"], ["len8", "abcdefgh"],
		["len9", "abcdefghi"], ["hello_world", "Hello, World!"], ["space", " "],
		["whitespace", "\t\n\r "], ["quotes", "\"'\\"], ["del", String.chr(0x7f)],
		["u0080", String.chr(0x80)], ["e_acute_2byte", "é"], ["nandu", "ñandú"], ["u07ff", String.chr(0x7ff)],
		["u0800", String.chr(0x800)], ["euro_3byte", "€"], ["nihongo", "日本語"], ["ufffd", String.chr(0xfffd)],
		["uffff", String.chr(0xffff)], ["u10000", String.chr(0x10000)], ["emoji_4byte", "😀"],
		["u10ffff", String.chr(0x10ffff)], ["mixed", "aé€😀"], ["mixed_text", "Grüße, 世界! 🎮 done"],
		["feff_inside", "a" + String.chr(0xfeff) + "b"], ["feff_prefix", String.chr(0xfeff) + "x"],
		["feff_only", String.chr(0xfeff)], ["long_ascii_1000", long_ascii], ["long_mixed_1200", long_mixed],
	]


func _sec_string() -> void:
	var important := ["empty", "len1", "len3", "len4", "len5", "euro_3byte", "emoji_4byte"]
	for e in _strings():
		var mut := MUT_ALL if e[0] in important else MUT_SOME
		if e[1].length() > 100:
			mut = MUT_NONE
		_val("String/" + e[0], e[1], mut, 4)
	for i in range(6):
		var s := ""
		var n := _rng.randi_range(0, 24)
		for j in range(n):
			var r := _rng.randi_range(0, 3)
			var cp := 0
			if r == 0:
				cp = _rng.randi_range(0x20, 0x7e)
			elif r == 1:
				cp = _rng.randi_range(0x80, 0x7ff)
			elif r == 2:
				cp = _rng.randi_range(0x800, 0xd7ff)
			else:
				cp = _rng.randi_range(0x10000, 0x10ffff)
			s += String.chr(cp)
		_val("String/rng_%d" % i, s)
	_add("String/allow_objects_abc", var_to_bytes("abc"), true)
	_sections_done += 1


## Crafted string payloads, tested both as String (type 4) and StringName (type 21).
func _crafted_string_payloads() -> Array:
	return [
		["bom_abc", "efbbbf616263"], ["bom_only", "efbbbf"], ["bom_two_bytes", "efbb"],
		["bom_twice", "efbbbfefbbbf61"], ["bom_after_a", "61efbbbf"],
		["nul_middle", "6162006364"], ["nul_leading", "00616263"], ["nul_trailing", "61626300"],
		["nul_only", "00"], ["nul_then_invalid", "6100ff"], ["nul_then_overlong", "6100c080"],
		["overlong_c0_80", "c080"], ["overlong_c1_bf", "c1bf"], ["overlong_e0_80_80", "e08080"],
		["overlong_e0_9f_bf", "e09fbf"], ["overlong_f0_80_80_80", "f0808080"], ["overlong_f0_8f_bf_bf", "f08fbfbf"],
		["surrogate_ed_a0_80", "eda080"], ["surrogate_ed_bf_bf", "edbfbf"], ["surrogate_pair_cesu", "eda0bdedb880"],
		["lone_continuation_80", "80"], ["lone_continuation_bf", "61bf62"], ["truncated_2byte", "c3"],
		["truncated_3byte", "e282"], ["truncated_4byte", "f09f98"], ["bad_continuation", "c361"],
		["above_10ffff_f4_90", "f4908080"], ["f5_lead", "f5808080"], ["f8_lead", "f888808080"],
		["fe_byte", "fe"], ["ff_byte", "ff"], ["max_valid_f4_8f", "f48fbfbf"], ["ascii_del_7f", "7f"],
		["latin1_e9", "e9"],
	]


func _sec_string_crafted() -> void:
	for t in [T_STRING, T_STRING_NAME]:
		var tn := "String" if t == T_STRING else "StringName"
		for e in _crafted_string_payloads():
			var p: PackedByteArray = e[1].hex_decode()
			_add("%s/%s" % [tn, e[0]], _buf().u32(t).sraw(p).b)
		# Padding checks.
		_add("%s/nonzero_padding" % tn, _buf().u32(t).u32(3).hex("616263ff").b)
		_add("%s/nonzero_padding_len1" % tn, _buf().u32(t).u32(1).hex("61aabbcc").b)
		_add("%s/missing_padding" % tn, _buf().u32(t).u32(3).hex("616263").b)
		_add("%s/missing_padding_len1" % tn, _buf().u32(t).u32(1).hex("61").b)
		_add("%s/len_exactly_data_plus_pad" % tn, _buf().u32(t).u32(5).hex("6162636465000000").b)
		# Length word larger than the data / negative.
		_add("%s/len_larger_than_data" % tn, _buf().u32(t).u32(8).hex("61626364").b)
		_add("%s/len_one_more" % tn, _buf().u32(t).u32(5).hex("61626364").b)
		_add("%s/len_one_less" % tn, _buf().u32(t).u32(3).hex("61626364").b)
		_add("%s/len_neg1" % tn, _buf().u32(t).u32(0xFFFFFFFF).hex("61626364").b)
		_add("%s/len_i32_min" % tn, _buf().u32(t).u32(0x80000000).hex("61626364").b)
		_add("%s/len_i32_max" % tn, _buf().u32(t).u32(0x7FFFFFFF).hex("61626364").b)
		_add("%s/len_i32_max_minus2" % tn, _buf().u32(t).u32(0x7FFFFFFD).hex("61626364").b)
		_add("%s/no_length_word" % tn, _buf().u32(t).b)
		_add("%s/flag64" % tn, _buf().u32(t | FLAG_64).s("abc").b)
		_add("%s/header_byte1" % tn, _buf().u32(t | 0x0100).s("abc").b)
		_add("%s/header_top_bits" % tn, _buf().u32(t | 0xFF000000).s("abc").b)
		_add("%s/garbage_after" % tn, _buf().u32(t).s("abc").u32(0xDEADBEEF).b)
	_sections_done += 1


func _sec_string_name() -> void:
	var important := ["empty", "len1", "len4", "len5", "emoji_4byte"]
	for e in _strings():
		var mut := MUT_ALL if e[0] in important else MUT_SOME
		if e[1].length() > 100:
			mut = MUT_NONE
		_val("StringName/" + e[0], StringName(e[1]), mut, 4)
	_val("StringName/identifier", &"_process")
	_val("StringName/signal_name", &"tree_entered")
	_add("StringName/allow_objects_abc", var_to_bytes(&"abc"), true)
	_sections_done += 1


func _math_values() -> Array:
	var nan := NAN
	var big := 1e30
	var tiny := _f32(1)
	var fmax := _f32(0x7f7fffff)
	var out := []
	out.append(["Vector2", "zero", Vector2.ZERO])
	out.append(["Vector2", "one_two", Vector2(1, 2)])
	out.append(["Vector2", "neg", Vector2(-1.5, -2.25)])
	out.append(["Vector2", "huge", Vector2(big, -big)])
	out.append(["Vector2", "f32_max", Vector2(fmax, -fmax)])
	out.append(["Vector2", "inf", Vector2(INF, -INF)])
	out.append(["Vector2", "nan", Vector2(nan, 0.0)])
	out.append(["Vector2", "point_one", Vector2(0.1, 0.2)])
	out.append(["Vector2", "neg_zero", Vector2(-0.0, 0.0)])
	out.append(["Vector2", "subnormal", Vector2(tiny, -tiny)])
	out.append(["Rect2", "zero", Rect2()])
	out.append(["Rect2", "simple", Rect2(1, 2, 3, 4)])
	out.append(["Rect2", "neg_size", Rect2(-10.5, 20.25, -3, -4)])
	out.append(["Rect2", "huge", Rect2(big, big, fmax, -fmax)])
	out.append(["Rect2", "nan_inf", Rect2(nan, INF, -INF, 0.1)])
	out.append(["Vector3", "zero", Vector3.ZERO])
	out.append(["Vector3", "one_two_three", Vector3(1, 2, 3)])
	out.append(["Vector3", "neg", Vector3(-1, -0.5, -0.25)])
	out.append(["Vector3", "huge", Vector3(big, -big, fmax)])
	out.append(["Vector3", "nan_inf", Vector3(nan, INF, -INF)])
	out.append(["Vector3", "point_one", Vector3(0.1, 0.2, 0.3)])
	out.append(["Vector3", "subnormal", Vector3(tiny, -0.0, 0)])
	out.append(["Transform2D", "identity", Transform2D.IDENTITY])
	out.append(["Transform2D", "flip_x", Transform2D.FLIP_X])
	out.append(["Transform2D", "custom", Transform2D(Vector2(1, 2), Vector2(3, 4), Vector2(5, 6))])
	out.append(["Transform2D", "neg_frac", Transform2D(Vector2(-0.5, 0.25), Vector2(0.1, -0.1), Vector2(-100, 1e20))])
	out.append(["Transform2D", "nan_inf", Transform2D(Vector2(nan, INF), Vector2(-INF, 0), Vector2(fmax, tiny))])
	out.append(["Vector4", "zero", Vector4.ZERO])
	out.append(["Vector4", "one_to_four", Vector4(1, 2, 3, 4)])
	out.append(["Vector4", "neg", Vector4(-1, -2, -3.5, -0.0)])
	out.append(["Vector4", "huge", Vector4(big, -big, fmax, -fmax)])
	out.append(["Vector4", "nan_inf", Vector4(nan, INF, -INF, tiny)])
	out.append(["Plane", "zero", Plane()])
	out.append(["Plane", "xy", Plane.PLANE_XY])
	out.append(["Plane", "yz", Plane.PLANE_YZ])
	out.append(["Plane", "abcd", Plane(1, 2, 3, 4)])
	out.append(["Plane", "neg", Plane(Vector3(0, -1, 0), -5.5)])
	out.append(["Plane", "nan_inf", Plane(nan, INF, -INF, big)])
	out.append(["Quaternion", "identity", Quaternion.IDENTITY])
	out.append(["Quaternion", "one_to_four", Quaternion(1, 2, 3, 4)])
	out.append(["Quaternion", "half", Quaternion(0.5, -0.5, 0.5, -0.5)])
	out.append(["Quaternion", "zero", Quaternion(0, 0, 0, 0)])
	out.append(["Quaternion", "nan_inf", Quaternion(nan, INF, -INF, fmax)])
	out.append(["AABB", "zero", AABB()])
	out.append(["AABB", "unit", AABB(Vector3(0, 0, 0), Vector3(1, 1, 1))])
	out.append(["AABB", "custom", AABB(Vector3(-1, -2, -3), Vector3(4, 5, 6))])
	out.append(["AABB", "neg_size", AABB(Vector3(0.5, 0.25, 0.125), Vector3(-1, -2, -3))])
	out.append(["AABB", "huge_nan", AABB(Vector3(big, -big, nan), Vector3(INF, -INF, tiny))])
	out.append(["Basis", "identity", Basis.IDENTITY])
	out.append(["Basis", "flip_x", Basis.FLIP_X])
	out.append(["Basis", "flip_y", Basis.FLIP_Y])
	out.append(["Basis", "custom", Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9))])
	out.append(["Basis", "neg_frac", Basis(Vector3(-0.5, 0.25, 0.1), Vector3(0, -1, 0), Vector3(1e-3, 1e3, -0.0))])
	out.append(["Basis", "nan_inf", Basis(Vector3(nan, INF, -INF), Vector3(fmax, -fmax, tiny), Vector3(0, 0, 1))])
	out.append(["Transform3D", "identity", Transform3D.IDENTITY])
	out.append(["Transform3D", "flip_z", Transform3D.FLIP_Z])
	out.append(["Transform3D", "custom", Transform3D(Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9)), Vector3(10, 11, 12))])
	out.append(["Transform3D", "translated", Transform3D(Basis.IDENTITY, Vector3(-100.5, 0.1, 1e20))])
	out.append(["Transform3D", "nan_inf", Transform3D(Basis(Vector3(nan, 0, 0), Vector3(0, INF, 0), Vector3(0, 0, -INF)), Vector3(fmax, tiny, -0.0))])
	out.append(["Projection", "identity", Projection.IDENTITY])
	out.append(["Projection", "zero", Projection.ZERO])
	out.append(["Projection", "custom", Projection(Vector4(1, 2, 3, 4), Vector4(5, 6, 7, 8), Vector4(9, 10, 11, 12), Vector4(13, 14, 15, 16))])
	out.append(["Projection", "neg_frac", Projection(Vector4(-0.5, 0.1, 0, 0), Vector4(0, -1, 0, 0), Vector4(0, 0, -1.002, -1), Vector4(0, 0, -0.2002, 0))])
	out.append(["Projection", "nan_inf", Projection(Vector4(nan, INF, -INF, 0), Vector4(fmax, -fmax, tiny, 1), Vector4(big, 0, 0, 0), Vector4(0, 0, 0, -0.0))])
	return out


func _sec_math() -> void:
	var first := {}
	for e in _math_values():
		var mut := MUT_SOME
		if not first.has(e[0]):
			first[e[0]] = true
			mut = MUT_ALL
		_val("%s/%s" % [e[0], e[1]], e[2], mut)
	for i in range(4):
		var r := func(): return _rng.randf_range(-1000.0, 1000.0)
		_val("Vector2/rng_%d" % i, Vector2(r.call(), r.call()))
		_val("Vector3/rng_%d" % i, Vector3(r.call(), r.call(), r.call()))
		_val("Vector4/rng_%d" % i, Vector4(r.call(), r.call(), r.call(), r.call()))
		_val("Quaternion/rng_%d" % i, Quaternion(r.call(), r.call(), r.call(), r.call()))
	_add("Vector3/allow_objects", var_to_bytes(Vector3(1, 2, 3)), true)
	_sections_done += 1


func _sec_math_crafted() -> void:
	var kinds := [
		["Vector2", T_VECTOR2, 2], ["Rect2", T_RECT2, 4], ["Vector3", T_VECTOR3, 3],
		["Transform2D", T_TRANSFORM2D, 6], ["Vector4", T_VECTOR4, 4], ["Plane", T_PLANE, 4],
		["Quaternion", T_QUATERNION, 4], ["AABB", T_AABB, 6], ["Basis", T_BASIS, 9],
		["Transform3D", T_TRANSFORM3D, 12], ["Projection", T_PROJECTION, 16],
	]
	for k in kinds:
		var tn: String = k[0]
		var t: int = k[1]
		var n: int = k[2]
		# 64-bit encodings: f32-exact, inexact, out of f32 range, specials.
		var sets := {
			"exact": func(i): return float(i + 1) * (1.0 if i % 2 == 0 else -0.5),
			"inexact": func(i): return 0.1 * float(i + 1),
			"huge": func(i): return 1e300 if i % 3 == 0 else (-1e40 if i % 3 == 1 else 3.5e38),
			"specials": func(i): return [NAN, INF, -INF, -0.0, _f64(1), _f64(0x000fffffffffffff), _f32(1), 1e-40][i % 8],
		}
		for sname in sets:
			var b := _buf().u32(t | FLAG_64)
			for i in range(n):
				b.f64(sets[sname].call(i))
			_base("%s/wide64_%s" % [tn, sname], b.b, false, MUT_ALL if sname == "exact" else MUT_NONE)
		# 64-bit flag but only 32-bit sized payload: rejected (not enough data).
		var short := _buf().u32(t | FLAG_64)
		for i in range(n):
			short.f32(float(i))
		_add("%s/flag64_with_f32_payload" % tn, short.b)
		# NaN payloads in 32-bit form.
		var nb := _buf().u32(t)
		for i in range(n):
			nb.u32([0x7fc00000, 0xffc00000, 0x7f800001, 0x7fc12345][i % 4])
		_add("%s/f32_nan_payloads" % tn, nb.b)
		# Unused header bits.
		var plain := _buf().u32(t | 0x0100)
		for i in range(n):
			plain.f32(float(i))
		_add("%s/header_byte1" % tn, plain.b)
		var top := _buf().u32(t | 0x20000)
		for i in range(n):
			top.f32(float(i))
		_add("%s/header_bit17" % tn, top.b)
	_sections_done += 1


func _sec_ivec() -> void:
	var vals := [
		["Vector2i", "zero", Vector2i.ZERO], ["Vector2i", "one_neg", Vector2i(1, -1)],
		["Vector2i", "extremes", Vector2i(INT32_MAX, INT32_MIN)], ["Vector2i", "neg_ones", Vector2i(-1, -1)],
		["Vector2i", "mixed", Vector2i(123456, -654321)],
		["Rect2i", "zero", Rect2i()], ["Rect2i", "simple", Rect2i(1, 2, 3, 4)],
		["Rect2i", "extremes", Rect2i(INT32_MIN, INT32_MAX, INT32_MAX, INT32_MIN)],
		["Rect2i", "neg", Rect2i(-5, -6, -7, -8)], ["Rect2i", "big", Rect2i(1 << 20, -(1 << 20), 65536, 7)],
		["Vector3i", "zero", Vector3i.ZERO], ["Vector3i", "one_two_three", Vector3i(1, 2, 3)],
		["Vector3i", "extremes", Vector3i(INT32_MAX, INT32_MIN, -1)], ["Vector3i", "neg", Vector3i(-10, -20, -30)],
		["Vector3i", "mixed", Vector3i(0, 99999, -99999)],
		["Vector4i", "zero", Vector4i.ZERO], ["Vector4i", "one_to_four", Vector4i(1, 2, 3, 4)],
		["Vector4i", "extremes", Vector4i(INT32_MAX, INT32_MIN, INT32_MAX, INT32_MIN)],
		["Vector4i", "neg", Vector4i(-1, -2, -3, -4)], ["Vector4i", "mixed", Vector4i(0, 1 << 30, -(1 << 30), 255)],
	]
	var first := {}
	for e in vals:
		var mut := MUT_SOME
		if not first.has(e[0]):
			first[e[0]] = true
			mut = MUT_ALL
		_val("%s/%s" % [e[0], e[1]], e[2], mut)
	for i in range(3):
		var r := func(): return int(_rng.randi()) - 2147483648
		_val("Vector2i/rng_%d" % i, Vector2i(r.call(), r.call()))
		_val("Rect2i/rng_%d" % i, Rect2i(r.call(), r.call(), r.call(), r.call()))
		_val("Vector3i/rng_%d" % i, Vector3i(r.call(), r.call(), r.call()))
		_val("Vector4i/rng_%d" % i, Vector4i(r.call(), r.call(), r.call(), r.call()))
	# Flag 64 is meaningless for integer vectors.
	for k in [["Vector2i", T_VECTOR2I, 2], ["Rect2i", T_RECT2I, 4], ["Vector3i", T_VECTOR3I, 3], ["Vector4i", T_VECTOR4I, 4]]:
		var b := _buf().u32(k[1] | FLAG_64)
		for i in range(k[2]):
			b.u32(i + 1)
		_add("%s/flag64_ignored" % k[0], b.b)
		var b2 := _buf().u32(k[1] | FLAG_64)
		for i in range(k[2]):
			b2.u64(i + 1)
		_add("%s/flag64_with_i64_payload" % k[0], b2.b)
	_sections_done += 1


func _sec_color() -> void:
	var vals := [
		["black", Color.BLACK], ["white", Color.WHITE], ["transparent", Color.TRANSPARENT],
		["quarter_steps", Color(0.25, 0.5, 0.75, 1.0)], ["point_ones", Color(0.1, 0.2, 0.3, 0.4)],
		["hdr", Color(2, 3, 4, 1)], ["huge_hdr", Color(1e30, 65504, 1e-30, 100)],
		["negative", Color(-1, -0.5, -0.0, 2)], ["nan_inf", Color(NAN, INF, -INF, 0.5)],
		["html_red", Color8(255, 0, 0, 255)], ["c8_mid", Color8(128, 64, 32, 16)],
	]
	for e in vals:
		_val("Color/" + e[0], e[1], MUT_ALL if e[0] == "quarter_steps" else MUT_SOME)
	_add("Color/flag64_ignored", _buf().u32(T_COLOR | FLAG_64).f32(1).f32(0.5).f32(0.25).f32(1).b)
	_add("Color/flag64_with_f64_payload", _buf().u32(T_COLOR | FLAG_64).f64(1).f64(0.5).f64(0.25).f64(1).b)
	_add("Color/f32_nan_payloads", _buf().u32(T_COLOR).u32(0x7fc00000).u32(0xffc00000).u32(0x7f800001).u32(0x7fc12345).b)
	_sections_done += 1


func _sec_node_path() -> void:
	var paths := [
		["empty", ""], ["a", "a"], ["root_a_b", "/root/a/b"], ["a_b_c_sub", "a:b:c"],
		["parent_x_y", "../x:y"], ["only_sub", ":prop"], ["only_subs", ":a:b"], ["slash", "/"],
		["dot", "."], ["dotdot", ".."], ["rel_deep", "a/b/c/d/e/f/g/h"], ["abs_sub", "/root/Node:position:x"],
		["unicode", "Nöde/日本/😀:sübname"], ["unicode_abs", "/ルート/ñ"], ["pad_lengths", "a/bb/ccc/dddd/eeeee:f:gg"],
		["percent_unique", "%Unique/child"], ["spaces", "My Node/Other Node"],
	]
	for e in paths:
		var mut := MUT_ALL if e[0] in ["a", "root_a_b", "a_b_c_sub"] else MUT_SOME
		_val("NodePath/" + e[0], NodePath(e[1]), mut, 4)
	_add("NodePath/allow_objects", var_to_bytes(NodePath("/root/x")), true)
	# Crafted NodePaths.
	var np := func(names: int, subs: int, flags: int) -> Buf:
		return _buf().u32(T_NODE_PATH).u32(names).u32(subs).u32(flags)
	_add("NodePath/crafted_absolute_no_names", np.call(0x80000000, 0, 1).b)
	_add("NodePath/crafted_relative_empty", np.call(0x80000000, 0, 0).b)
	_add("NodePath/crafted_empty_name_string", np.call(0x80000001, 0, 0).s("").b)
	_add("NodePath/crafted_empty_sub_string", np.call(0x80000000, 1, 0).s("").b)
	_add("NodePath/crafted_flag2_property", np.call(0x80000001, 0, 2).s("a").s("prop").b)
	_add("NodePath/crafted_flag3", np.call(0x80000001, 0, 3).s("a").s("prop").b)
	_add("NodePath/crafted_flag2_no_extra", np.call(0x80000001, 0, 2).s("a").b)
	_add("NodePath/crafted_flags_all_bits", np.call(0x80000001, 0, 0xFFFFFFFF).s("a").s("p").b)
	_add("NodePath/crafted_flags_bit2", np.call(0x80000001, 0, 4).s("a").b)
	_add("NodePath/crafted_old_format", _buf().u32(T_NODE_PATH).s("a/b").b)
	_add("NodePath/crafted_old_format_empty", _buf().u32(T_NODE_PATH).u32(0).b)
	_add("NodePath/crafted_only_8_bytes", _buf().u32(T_NODE_PATH).u32(0x80000000).u32(0).b)
	_add("NodePath/crafted_name_count_too_big", np.call(0x80000002, 0, 0).s("a").b)
	_add("NodePath/crafted_sub_count_too_big", np.call(0x80000001, 5, 0).s("a").b)
	_add("NodePath/crafted_sub_count_huge", np.call(0x80000000, 0xFFFFFFFF, 0).s("a").b)
	_add("NodePath/crafted_name_count_max", np.call(0xFFFFFFFF, 0, 0).s("a").b)
	_add("NodePath/crafted_name_slash_inside", np.call(0x80000001, 0, 0).s("a/b").b)
	_add("NodePath/crafted_name_colon_inside", np.call(0x80000001, 0, 0).s("a:b").b)
	_add("NodePath/crafted_name_bom", np.call(0x80000001, 0, 0).sraw("efbbbf61".hex_decode()).b)
	_add("NodePath/crafted_name_invalid_utf8", np.call(0x80000001, 0, 0).sraw("c080".hex_decode()).b)
	_add("NodePath/crafted_name_nul", np.call(0x80000001, 0, 0).sraw("610062".hex_decode()).b)
	_add("NodePath/crafted_flag64_header", _buf().u32(T_NODE_PATH | FLAG_64).u32(0x80000001).u32(0).u32(0).s("a").b)
	_add("NodePath/crafted_garbage_after", np.call(0x80000001, 0, 0).s("a").u32(0xDEADBEEF).b)
	_sections_done += 1


func _sec_rid() -> void:
	var vals := [[0, "zero"], [1, "one"], [42, "42"], [1 << 32, "2pow32"], [(1 << 32) | 7, "2pow32_plus7"],
		[INT64_MAX, "i64_max"], [-1, "u64_max"], [INT64_MIN, "i64_min"], [0x0123456789ABCDEF, "0x0123456789abcdef"]]
	for e in vals:
		_val("RID/" + e[1], rid_from_int64(e[0]), MUT_ALL if e[1] in ["zero", "u64_max"] else MUT_SOME)
	_add("RID/default_rid", var_to_bytes(RID()))
	_add("RID/allow_objects", var_to_bytes(rid_from_int64(5)), true)
	_add("RID/flag64_ignored", _buf().u32(T_RID | FLAG_64).u64(9).b)
	_add("RID/only_4_bytes", _buf().u32(T_RID).u32(9).b)
	_sections_done += 1


func _make_res(label: String, count: int):
	var r = GoldenRes.new()
	r.label = label
	r.count = count
	r.ratio = 0.25 * count
	r.tags = PackedStringArray(["t%d" % count, "ü"])
	return r


func _make_ref(name_sn: StringName, value):
	var r = GoldenRef.new()
	r.name_sn = name_sn
	r.value = value
	return r


func _sec_object() -> void:
	# --- id mode (crafted; header 24 | 1<<16, u64 id). Never use live ids.
	var ids := [[0, "0"], [1, "1"], [1 << 40, "2pow40"], [-1, "u64_max"], [12345, "12345"], [INT64_MAX, "i64_max"]]
	for e in ids:
		for allow in [false, true]:
			var b := _buf().u32(T_OBJECT | FLAG_64).u64(e[0]).b
			_base("Object/id_%s%s" % [e[1], "_allow_objects" if allow else ""], b, allow,
				MUT_ALL if (e[1] == "2pow40" and not allow) else MUT_NONE)
	_add("Object/id_only_4_bytes", _buf().u32(T_OBJECT | FLAG_64).u32(1).b)
	_add("Object/id_header_extra_bits", _buf().u32(T_OBJECT | FLAG_64 | 0x20000).u64(7).b)
	_add("Object/id_header_byte1", _buf().u32(T_OBJECT | FLAG_64 | 0x0100).u64(7).b)
	_add("Object/id_zero_header_extra_bits", _buf().u32(T_OBJECT | FLAG_64 | 0x80000000).u64(0).b)

	# --- full mode, built in GDScript and encoded by the engine.
	var objs := []
	var r1 = _make_res("first", 1)
	objs.append(["golden_res_simple", r1])
	var r2 = _make_res("parent", 2)
	r2.child = _make_res("kid", 3)
	r2.extra = {"k": 1, 2: [Vector2(1, 2), &"sn"]}
	objs.append(["golden_res_nested", r2])
	var r3 = _make_res("grandparent", 4)
	r3.child = _make_res("parent", 5)
	r3.child.child = _make_res("child", 6)
	objs.append(["golden_res_three_levels", r3])
	var r4 = GoldenRes.new()
	objs.append(["golden_res_defaults", r4])
	objs.append(["golden_ref_simple", _make_ref(&"alpha", 42)])
	var g2 = _make_ref(&"beta", "text")
	g2.items = [1, "two", 3.5, null, Color(1, 0, 0, 1)]
	g2.point = Vector3(1, -2, 3)
	g2.nested = _make_ref(&"gamma", PackedInt32Array([1, 2, 3]))
	objs.append(["golden_ref_nested", g2])
	var g3 = _make_ref(&"delta", _make_res("inside_ref", 9))
	objs.append(["golden_ref_holds_res", g3])
	var g4 = _make_ref(&"eps", {"dict": {"deep": [[], {}]}, "rid": rid_from_int64(77)})
	objs.append(["golden_ref_dict_value", g4])
	var g5 = _make_ref(&"", null)
	objs.append(["golden_ref_null_props", g5])
	objs.append(["plain_refcounted", RefCounted.new()])
	objs.append(["plain_resource", Resource.new()])
	var named_res := Resource.new()
	named_res.resource_name = "named"
	objs.append(["plain_resource_named", named_res])
	var first := true
	for e in objs:
		var b := var_to_bytes_with_objects(e[1])
		if b.is_empty():
			_failures.append("var_to_bytes_with_objects failed for %s" % e[0])
			continue
		_base("Object/full_" + e[0], b, true, MUT_ALL if first else MUT_SOME, 4)
		# The same bytes without allow_objects must be refused (ERR_UNAUTHORIZED).
		_add("Object/full_%s_without_allow_objects" % e[0], b, false)
		first = false
	var arr_with_objs := [_make_res("in_array", 11), null, _make_ref(&"x", 1)]
	_obj("Array/full_objects_untyped", arr_with_objs, MUT_SOME, 4)
	_add("Array/full_objects_untyped_without_allow_objects", var_to_bytes_with_objects(arr_with_objs), false)
	_obj("Dictionary/full_object_values", {"res": _make_res("in_dict", 12), "none": null}, MUT_SOME, 4)
	_add("Dictionary/full_object_values_without_allow_objects", var_to_bytes_with_objects({"res": _make_res("in_dict", 12)}), false)

	# --- crafted full mode.
	_add("Object/full_empty_class_name", _buf().u32(T_OBJECT).u32(0).b, true)
	_add("Object/full_empty_class_name_without_allow_objects", _buf().u32(T_OBJECT).u32(0).b, false)
	_add("Object/full_refcounted_zero_props", _buf().u32(T_OBJECT).s("RefCounted").u32(0).b, true)
	_add("Object/full_refcounted_script_nil", _buf().u32(T_OBJECT).s("RefCounted").u32(1).s("script").u32(0).b, true)
	_add("Object/full_refcounted_negative_prop_count", _buf().u32(T_OBJECT).s("RefCounted").u32(0xFFFFFFFF).b, true)
	_add("Object/full_refcounted_unknown_prop", _buf().u32(T_OBJECT).s("RefCounted").u32(1).s("no_such_prop").v(5).b, true)
	_add("Object/full_resource_name_only", _buf().u32(T_OBJECT).s("Resource").u32(1).s("resource_name").v("nm").b, true)
	_add("Object/full_golden_ref_script_only", _buf().u32(T_OBJECT).s("RefCounted").u32(1).s("script").v("res://golden_ref.gd").b, true)
	_add("Object/full_golden_ref_prop_before_script", _buf().u32(T_OBJECT).s("RefCounted").u32(2).s("value").v(5).s("script").v("res://golden_ref.gd").b, true)
	_add("Object/full_golden_ref_wrong_prop_type", _buf().u32(T_OBJECT).s("RefCounted").u32(2).s("script").v("res://golden_ref.gd").s("point").v("not a vector").b, true)
	_add("Object/full_script_bad_path", _buf().u32(T_OBJECT).s("RefCounted").u32(1).s("script").v("res://nope.gd").b, true)
	_add("Object/full_script_not_res", _buf().u32(T_OBJECT).s("RefCounted").u32(1).s("script").v("user://x.gd").b, true)
	_add("Object/full_script_empty_path", _buf().u32(T_OBJECT).s("RefCounted").u32(1).s("script").v("").b, true)
	_add("Object/full_script_not_string", _buf().u32(T_OBJECT).s("RefCounted").u32(1).s("script").v(5).b, true)
	_add("Object/full_script_stringname", _buf().u32(T_OBJECT).s("RefCounted").u32(1).s("script").v(&"res://golden_ref.gd").b, true)
	_add("Object/full_unknown_class", _buf().u32(T_OBJECT).s("NoSuchClass").u32(0).b, true)
	_add("Object/full_abstract_class", _buf().u32(T_OBJECT).s("Script").u32(0).b, true)
	_add("Object/full_missing_prop_count", _buf().u32(T_OBJECT).s("RefCounted").b, true)
	_add("Object/full_prop_count_too_big", _buf().u32(T_OBJECT).s("RefCounted").u32(2).s("script").u32(0).b, true)
	_add("Object/full_class_name_bom", _buf().u32(T_OBJECT).sraw("efbbbf526566436f756e746564".hex_decode()).u32(0).b, true)
	_add("Object/full_header_byte1", _buf().u32(T_OBJECT | 0x0100).s("RefCounted").u32(0).b, true)
	_add("Object/full_header_bit17", _buf().u32(T_OBJECT | 0x20000).s("RefCounted").u32(0).b, true)
	_add("Object/full_id_object_prop", _buf().u32(T_OBJECT).s("RefCounted").u32(2).s("script").v("res://golden_ref.gd").s("nested").u32(T_OBJECT | FLAG_64).u64(99).b, true)
	_sections_done += 1


func _helper_method() -> void:
	pass


func _null_obj_dict() -> Dictionary:
	var o: Object = null
	return {"o": o}


func _null_obj_array() -> Array:
	var o: Object = null
	return [o, null]


func _sec_callable() -> void:
	_val("Callable/empty", Callable(), MUT_ALL)
	_val("Callable/method", Callable(self, "_helper_method"))
	_val("Callable/lambda", func(): return 1)
	_val("Callable/bound", Callable(self, "_helper_method").bind(1, 2))
	_val("Callable/func_ref", _helper_method)
	_add("Callable/empty_allow_objects", var_to_bytes(Callable()), true)
	_add("Callable/method_with_objects", var_to_bytes_with_objects(Callable(self, "_helper_method")), true)
	for m in [0x100, FLAG_64, 0x20000, 0x80000000]:
		_add("Callable/header_bits_0x%x" % m, _buf().u32(T_CALLABLE | m).b)
	_add("Callable/garbage_after", _buf().u32(T_CALLABLE).s("method").u64(5).b)
	_sections_done += 1


func _sec_signal() -> void:
	_val("Signal/empty", Signal(), MUT_ALL, 4)
	var sigs := [["pressed", 1], ["tree_entered", 1 << 40], ["a", 2], ["ab", 3], ["abc", 4], ["abcd", 5],
		["abcde", 6], ["sïgnal_😀", -1], ["x", INT64_MAX], ["", 77], ["changed", 0]]
	for e in sigs:
		var b := _buf().u32(T_SIGNAL).s(e[0]).u64(e[1]).b
		var nm: String = e[0]
		if nm == "":
			nm = "noname"
		elif not _is_ascii(nm):
			nm = "unicode"
		_base("Signal/%s_%s" % [nm, _hex_label(e[1])], b, false,
			MUT_ALL if e[0] == "pressed" else MUT_SOME, 4)
	_add("Signal/allow_objects", _buf().u32(T_SIGNAL).s("pressed").u64(1).b, true)
	_add("Signal/name_bom", _buf().u32(T_SIGNAL).sraw("efbbbf6869".hex_decode()).u64(3).b)
	_add("Signal/name_nul", _buf().u32(T_SIGNAL).sraw("680069".hex_decode()).u64(3).b)
	_add("Signal/name_invalid_utf8", _buf().u32(T_SIGNAL).sraw("ff".hex_decode()).u64(3).b)
	_add("Signal/id_truncated_4", _buf().u32(T_SIGNAL).s("pressed").u32(1).b)
	_add("Signal/no_id", _buf().u32(T_SIGNAL).s("pressed").b)
	_add("Signal/flag64_ignored", _buf().u32(T_SIGNAL | FLAG_64).s("pressed").u64(1).b)
	_sections_done += 1


func _every_type_values() -> Array:
	return [
		null, true, false, 7, -(1 << 40), 0.5, 0.1, "str", Vector2(1, 2), Vector2i(3, 4), Rect2(1, 2, 3, 4),
		Rect2i(5, 6, 7, 8), Vector3(1, 2, 3), Vector3i(4, 5, 6), Transform2D.IDENTITY, Vector4(1, 2, 3, 4),
		Vector4i(5, 6, 7, 8), Plane(1, 2, 3, 4), Quaternion(0, 0, 0, 1), AABB(Vector3(1, 2, 3), Vector3(4, 5, 6)),
		Basis.IDENTITY, Transform3D.IDENTITY, Projection.IDENTITY, Color(0.25, 0.5, 0.75, 1), &"sname",
		NodePath("a/b:c"), rid_from_int64(3), Callable(), Signal(), {"k": "v"}, [1, [2]],
		PackedByteArray([1, 2, 3]), PackedInt32Array([1, -1]), PackedInt64Array([1 << 40]),
		PackedFloat32Array([0.5]), PackedFloat64Array([0.1]), PackedStringArray(["a", ""]),
		PackedVector2Array([Vector2(1, 2)]), PackedVector3Array([Vector3(1, 2, 3)]),
		PackedColorArray([Color(1, 0, 0, 1)]), PackedVector4Array([Vector4(1, 2, 3, 4)]),
	]


func _nested_array(depth: int):
	var a = []
	for i in range(depth - 1):
		a = [a]
	return a


func _nested_dict(depth: int):
	var d = {}
	for i in range(depth - 1):
		d = {"d": d}
	return d


func _sec_dictionary() -> void:
	_val("Dictionary/empty", {}, MUT_ALL, 4)
	_val("Dictionary/one_int", {1: 2}, MUT_ALL, 4)
	_val("Dictionary/string_keys", {"a": 1, "b": [1, 2], "c": {"d": null}}, MUT_ALL, 4)
	_val("Dictionary/mixed_keys", {1: "int", "1": "string", 1.5: "float", Vector2(1, 2): "v2", null: "nil", true: "bool", [1]: "array"}, MUT_SOME, 4)
	var every := {}
	var i := 0
	for v in _every_type_values():
		every["k%02d_%s" % [i, type_string(typeof(v))]] = v
		i += 1
	_val("Dictionary/every_type_values", every, MUT_SOME, 4)
	var every_keys := {}
	i = 0
	for v in _every_type_values():
		if typeof(v) in [TYPE_CALLABLE, TYPE_SIGNAL]:
			continue
		every_keys[v] = i
		i += 1
	_val("Dictionary/every_type_keys", every_keys, MUT_SOME, 4)
	_val("Dictionary/nested", {"a": {"b": {"c": {"d": {}}}}}, MUT_SOME, 4)
	_val("Dictionary/nested_100", _nested_dict(100))
	_val("Dictionary/null_object_value", _null_obj_dict(), MUT_SOME, 4)
	_val("Dictionary/insertion_order", {"z": 1, "a": 2, "m": 3, 5: 4, 1: 5})
	var big := {}
	for j in range(40):
		big[j * 7919 % 1000] = "v%d" % j
	_val("Dictionary/forty_int_keys", big)
	_add("Dictionary/allow_objects_simple", var_to_bytes({"a": 1}), true)
	# Crafted.
	var d := func(count: int) -> Buf:
		return _buf().u32(T_DICTIONARY).u32(count)
	_add("Dictionary/duplicate_keys", d.call(2).v(1).v(2).v(1).v(3).b)
	_add("Dictionary/duplicate_keys_three", d.call(3).v("a").v(1).v("b").v(2).v("a").v(3).b)
	_add("Dictionary/int_float_keys_distinct", d.call(2).v(1).v("int").v(1.0).v("float").b)
	_add("Dictionary/string_sname_keys", d.call(2).v("a").v(1).v(&"a").v(2).b)
	_add("Dictionary/neg_zero_and_zero_keys", d.call(2).v(0.0).v(1).v(-0.0).v(2).b)
	_add("Dictionary/nan_keys", d.call(2).v(NAN).v(1).v(NAN).v(2).b)
	_add("Dictionary/count_high_bit", d.call(0x80000001).v(1).v(2).b)
	_add("Dictionary/count_high_bit_zero", d.call(0x80000000).b)
	_add("Dictionary/count_too_big", d.call(2).v(1).v(2).b)
	_add("Dictionary/key_without_value", d.call(1).v(1).b)
	_add("Dictionary/flag_bits_20", _buf().u32(T_DICTIONARY | 0x100000).u32(1).v(1).v(2).b)
	_add("Dictionary/header_byte1", _buf().u32(T_DICTIONARY | 0x0100).u32(1).v(1).v(2).b)
	_sections_done += 1


func _sec_array() -> void:
	_val("Array/empty", [], MUT_ALL, 4)
	_val("Array/one_int", [1], MUT_ALL, 4)
	_val("Array/mixed", [1, "a", null, true, 1.5, &"sn", Vector2(1, 2)], MUT_ALL, 4)
	_val("Array/every_type", _every_type_values(), MUT_SOME, 4)
	_val("Array/nested", [[[]], [[], [[]]], {}], MUT_SOME, 4)
	_val("Array/nested_100", _nested_array(100))
	_val("Array/nested_dicts_arrays", [{"a": [{"b": [1]}]}])
	_val("Array/null_objects", _null_obj_array())
	var big := []
	for j in range(64):
		big.append(j * j - 100)
	_val("Array/sixty_four_ints", big)
	_add("Array/allow_objects_simple", var_to_bytes([1, "a"]), true)
	var a := func(count: int) -> Buf:
		return _buf().u32(T_ARRAY).u32(count)
	_add("Array/count_high_bit", a.call(0x80000001).v(1).b)
	_add("Array/count_high_bit_zero", a.call(0x80000000).b)
	_add("Array/count_too_big", a.call(3).v(1).v(2).b)
	_add("Array/elem_nil_with_flags", a.call(1).u32(0x00010000).b)
	_add("Array/header_byte1", _buf().u32(T_ARRAY | 0x0100).u32(1).v(1).b)
	_add("Array/header_bit18", _buf().u32(T_ARRAY | 0x40000).u32(1).v(1).b)
	_sections_done += 1


func _sec_typed_containers() -> void:
	_val("Array/typed_int", Array([1, 2, 3], TYPE_INT, "", null), MUT_ALL, 8)
	_val("Array/typed_int_empty", Array([], TYPE_INT, "", null), MUT_SOME, 8)
	_val("Array/typed_float", Array([0.5, 0.1, INF], TYPE_FLOAT, "", null), MUT_SOME, 8)
	_val("Array/typed_string", Array(["a", "", "ü😀"], TYPE_STRING, "", null), MUT_SOME, 8)
	_val("Array/typed_string_name", Array([&"a", &"b"], TYPE_STRING_NAME, "", null))
	_val("Array/typed_vector3", Array([Vector3(1, 2, 3), Vector3(-1, 0.5, 0)], TYPE_VECTOR3, "", null), MUT_SOME, 8)
	_val("Array/typed_array", Array([[1], []], TYPE_ARRAY, "", null))
	_val("Array/typed_dictionary", Array([{}, {"a": 1}], TYPE_DICTIONARY, "", null))
	_val("Array/typed_nil_elems_variant", Array([null], TYPE_NIL, "", null))
	_val("Array/typed_packed_bytes", Array([PackedByteArray([1])], TYPE_PACKED_BYTE_ARRAY, "", null))
	_val("Array/typed_callable", Array([Callable()], TYPE_CALLABLE, "", null))
	# Object element types (id mode: only null elements, never live ids).
	_val("Array/typed_object_builtin_id_mode", Array([], TYPE_OBJECT, "", null), MUT_SOME, 4)
	_val("Array/typed_object_class_id_mode", Array([], TYPE_OBJECT, "Object", null), MUT_SOME, 4)
	_val("Array/typed_node_id_mode", Array([null, null], TYPE_OBJECT, "Node", null), MUT_SOME, 4)
	_val("Array/typed_refcounted_id_mode", Array([], TYPE_OBJECT, "RefCounted", null))
	_val("Array/typed_script_id_mode", Array([], TYPE_OBJECT, "Resource", GoldenRes))
	_val("Array/typed_script_id_mode_nulls", Array([null], TYPE_OBJECT, "Resource", GoldenRes))
	for allow in [false, true]:
		var sfx := "_allow_objects" if allow else ""
		_add("Array/typed_node_id_mode_decode" + sfx, var_to_bytes(Array([null], TYPE_OBJECT, "Node", null)), allow)
	# Full-object mode.
	_obj("Array/typed_object_builtin_full", Array([null], TYPE_OBJECT, "", null), MUT_SOME, 8)
	_obj("Array/typed_object_class_full", Array([RefCounted.new(), null], TYPE_OBJECT, "Object", null), MUT_SOME, 4)
	_obj("Array/typed_node_full_nulls", Array([null], TYPE_OBJECT, "Node", null))
	_obj("Array/typed_refcounted_full", Array([_make_ref(&"in_typed", 1), RefCounted.new()], TYPE_OBJECT, "RefCounted", null), MUT_SOME, 4)
	_obj("Array/typed_resource_full", Array([_make_res("r", 1)], TYPE_OBJECT, "Resource", null))
	_obj("Array/typed_script_full", Array([_make_res("s1", 1), _make_res("s2", 2)], TYPE_OBJECT, "Resource", GoldenRes), MUT_SOME, 4)
	_obj("Array/typed_script_full_empty", Array([], TYPE_OBJECT, "Resource", GoldenRes))
	_obj("Array/typed_ref_script_full", Array([_make_ref(&"a", 1), null], TYPE_OBJECT, "RefCounted", GoldenRef))
	_add("Array/typed_script_full_without_allow_objects", var_to_bytes_with_objects(Array([_make_res("s1", 1)], TYPE_OBJECT, "Resource", GoldenRes)), false)
	_add("Array/typed_script_full_empty_without_allow_objects", var_to_bytes_with_objects(Array([], TYPE_OBJECT, "Resource", GoldenRes)), false)
	_add("Array/typed_class_full_empty_without_allow_objects", var_to_bytes_with_objects(Array([], TYPE_OBJECT, "RefCounted", null)), false)
	_add("Array/typed_object_builtin_full_without_allow_objects", var_to_bytes_with_objects(Array([null], TYPE_OBJECT, "", null)), false)

	# Typed dictionaries.
	var td := func(base: Dictionary, kt: int, kc: StringName, ks, vt: int, vc: StringName, vs) -> Dictionary:
		return Dictionary(base, kt, kc, ks, vt, vc, vs)
	_val("Dictionary/typed_string_int", td.call({"a": 1, "b": -2}, TYPE_STRING, &"", null, TYPE_INT, &"", null), MUT_ALL, 12)
	_val("Dictionary/typed_string_int_empty", td.call({}, TYPE_STRING, &"", null, TYPE_INT, &"", null), MUT_SOME, 12)
	_val("Dictionary/typed_int_array", td.call({1: [1], 2: []}, TYPE_INT, &"", null, TYPE_ARRAY, &"", null), MUT_SOME, 12)
	_val("Dictionary/typed_key_only", td.call({1: "x", 2: 3.5}, TYPE_INT, &"", null, TYPE_NIL, &"", null), MUT_SOME, 8)
	_val("Dictionary/typed_value_only", td.call({"x": 1, 2: 3}, TYPE_NIL, &"", null, TYPE_INT, &"", null), MUT_SOME, 8)
	_val("Dictionary/typed_vector2i_color", td.call({Vector2i(1, 2): Color(1, 0, 0, 1)}, TYPE_VECTOR2I, &"", null, TYPE_COLOR, &"", null))
	_val("Dictionary/typed_stringname_node_empty", td.call({}, TYPE_STRING_NAME, &"", null, TYPE_OBJECT, &"Node", null), MUT_SOME, 8)
	_val("Dictionary/typed_stringname_node_nulls", td.call({&"a": null}, TYPE_STRING_NAME, &"", null, TYPE_OBJECT, &"Node", null))
	_val("Dictionary/typed_stringname_object_builtin", td.call({&"a": null}, TYPE_STRING_NAME, &"", null, TYPE_OBJECT, &"", null))
	_val("Dictionary/typed_script_value_id_mode", td.call({}, TYPE_INT, &"", null, TYPE_OBJECT, &"Resource", GoldenRes))
	_obj("Dictionary/typed_stringname_node_full", td.call({&"a": null}, TYPE_STRING_NAME, &"", null, TYPE_OBJECT, &"Node", null), MUT_SOME, 8)
	_obj("Dictionary/typed_int_script_full", td.call({1: _make_res("v1", 1)}, TYPE_INT, &"", null, TYPE_OBJECT, &"Resource", GoldenRes), MUT_SOME, 8)
	_obj("Dictionary/typed_script_int_full", td.call({_make_res("k1", 1): 1}, TYPE_OBJECT, &"Resource", GoldenRes, TYPE_INT, &"", null), MUT_SOME, 4)
	_obj("Dictionary/typed_script_script_full", td.call({_make_res("k1", 1): _make_res("v1", 2)}, TYPE_OBJECT, &"Resource", GoldenRes, TYPE_OBJECT, &"Resource", GoldenRes))
	_obj("Dictionary/typed_ref_script_res_script_full", td.call({}, TYPE_OBJECT, &"RefCounted", GoldenRef, TYPE_OBJECT, &"Resource", GoldenRes))
	_obj("Dictionary/typed_class_class_full", td.call({RefCounted.new(): null}, TYPE_OBJECT, &"RefCounted", null, TYPE_OBJECT, &"Resource", null))
	_add("Dictionary/typed_int_script_full_without_allow_objects", var_to_bytes_with_objects(td.call({}, TYPE_INT, &"", null, TYPE_OBJECT, &"Resource", GoldenRes)), false)
	_sections_done += 1


func _sec_typed_crafted() -> void:
	var ta := func(kind: int) -> Buf:
		return _buf().u32(T_ARRAY | (kind << 16))
	# Mismatching elements.
	_add("Array/typed_float_with_int_elems", ta.call(1).u32(T_FLOAT).u32(2).v(1).v(2).b)
	_add("Array/typed_int_with_float_elems", ta.call(1).u32(T_INT).u32(2).v(1.5).v(-2.0).b)
	_add("Array/typed_int_with_string_elem", ta.call(1).u32(T_INT).u32(3).v(1).v("x").v(3).b)
	_add("Array/typed_int_with_nil_elem", ta.call(1).u32(T_INT).u32(2).v(null).v(3).b)
	_add("Array/typed_string_with_stringname_elem", ta.call(1).u32(T_STRING).u32(2).v(&"sn").v("s").b)
	_add("Array/typed_stringname_with_string_elem", ta.call(1).u32(T_STRING_NAME).u32(1).v("s").b)
	_add("Array/typed_vector2_with_vector2i_elem", ta.call(1).u32(T_VECTOR2).u32(1).v(Vector2i(1, 2)).b)
	_add("Array/typed_bool_with_int_elem", ta.call(1).u32(T_BOOL).u32(2).v(0).v(5).b)
	_add("Array/typed_packed_int32_with_array_elem", ta.call(1).u32(T_PI32).u32(1).v([1, 2]).b)
	_add("Array/typed_object_builtin_with_id_elems", ta.call(1).u32(T_OBJECT).u32(2).u32(T_OBJECT | FLAG_64).u64(5).v(null).b)
	_add("Array/typed_object_builtin_with_id_elems_allow_objects", ta.call(1).u32(T_OBJECT).u32(2).u32(T_OBJECT | FLAG_64).u64(5).v(null).b, true)
	_add("Array/typed_object_builtin_with_int_elem", ta.call(1).u32(T_OBJECT).u32(1).v(5).b)
	_add("Array/typed_node_with_id_elem_allow_objects", ta.call(2).s("Node").u32(1).u32(T_OBJECT | FLAG_64).u64(5).b, true)
	_add("Array/typed_node_with_id_elem", ta.call(2).s("Node").u32(1).u32(T_OBJECT | FLAG_64).u64(5).b)
	_add("Array/typed_node_with_refcounted_elem", ta.call(2).s("Node").u32(1).u32(T_OBJECT).s("RefCounted").u32(0).b, true)
	_add("Array/typed_script_with_plain_resource", ta.call(3).s("res://golden_res.gd").u32(1).u32(T_OBJECT).s("Resource").u32(0).b, true)
	# Element type words.
	for bt in [0, 38, 39, 255, -1]:
		_add("Array/typed_builtin_type_%s" % _hex_label(bt), ta.call(1).u32(bt).u32(0).b)
	_add("Array/typed_builtin_object_allow_objects", ta.call(1).u32(T_OBJECT).u32(0).b, true)
	_add("Array/typed_builtin_object_id_mode", ta.call(1).u32(T_OBJECT).u32(0).b)
	_add("Array/typed_builtin_missing_type_word", ta.call(1).b)
	_add("Array/typed_builtin_missing_count", ta.call(1).u32(T_INT).b)
	# Class-name kind.
	for allow in [false, true]:
		var sfx := "_allow_objects" if allow else ""
		_add("Array/typed_class_nosuchclass" + sfx, ta.call(2).s("NoSuchClass").u32(0).b, allow)
		_add("Array/typed_class_empty_name" + sfx, ta.call(2).s("").u32(0).b, allow)
		_add("Array/typed_class_node" + sfx, ta.call(2).s("Node").u32(0).b, allow)
		_add("Array/typed_class_int_name" + sfx, ta.call(2).s("int").u32(0).b, allow)
		_add("Array/typed_class_encodedobjectasid" + sfx, ta.call(2).s("EncodedObjectAsID").u32(0).b, allow)
		_add("Array/typed_class_bad_utf8" + sfx, ta.call(2).sraw("c080".hex_decode()).u32(0).b, allow)
		# Script kind.
		_add("Array/typed_script_golden_res" + sfx, ta.call(3).s("res://golden_res.gd").u32(0).b, allow)
		_add("Array/typed_script_missing_file" + sfx, ta.call(3).s("res://nope.gd").u32(0).b, allow)
		_add("Array/typed_script_user_path" + sfx, ta.call(3).s("user://x.gd").u32(0).b, allow)
		_add("Array/typed_script_empty_path" + sfx, ta.call(3).s("").u32(0).b, allow)
		_add("Array/typed_script_not_a_script" + sfx, ta.call(3).s("res://project.godot").u32(0).b, allow)
	# Dictionaries.
	var tdh := func(kk: int, vk: int) -> Buf:
		return _buf().u32(T_DICTIONARY | (kk << 16) | (vk << 18))
	_add("Dictionary/typed_string_int_with_int_key", tdh.call(1, 1).u32(T_STRING).u32(T_INT).u32(2).v(5).v(1).v("a").v(2).b)
	_add("Dictionary/typed_string_int_with_string_value", tdh.call(1, 1).u32(T_STRING).u32(T_INT).u32(1).v("a").v("x").b)
	_add("Dictionary/typed_string_float_with_int_value", tdh.call(1, 1).u32(T_STRING).u32(T_FLOAT).u32(1).v("a").v(3).b)
	_add("Dictionary/typed_string_int_duplicate_keys", tdh.call(1, 1).u32(T_STRING).u32(T_INT).u32(2).v("a").v(1).v("a").v(2).b)
	_add("Dictionary/typed_string_with_stringname_key", tdh.call(1, 0).u32(T_STRING).u32(1).v(&"a").v(1).b)
	_add("Dictionary/typed_nil_nil_builtin", tdh.call(1, 1).u32(T_NIL).u32(T_NIL).u32(0).b)
	_add("Dictionary/typed_key_bad_type", tdh.call(1, 0).u32(39).u32(0).b)
	_add("Dictionary/typed_value_bad_type", tdh.call(0, 1).u32(-1).u32(0).b)
	_add("Dictionary/typed_value_missing_type_word", tdh.call(1, 1).u32(T_INT).b)
	for allow in [false, true]:
		var sfx := "_allow_objects" if allow else ""
		_add("Dictionary/typed_class_key_node" + sfx, tdh.call(2, 0).s("Node").u32(0).b, allow)
		_add("Dictionary/typed_script_value" + sfx, tdh.call(0, 3).s("res://golden_res.gd").u32(0).b, allow)
		_add("Dictionary/typed_script_key" + sfx, tdh.call(3, 0).s("res://golden_res.gd").u32(0).b, allow)
		_add("Dictionary/typed_script_value_missing_file" + sfx, tdh.call(0, 3).s("res://nope.gd").u32(0).b, allow)
		_add("Dictionary/typed_object_builtin_value" + sfx, tdh.call(0, 1).u32(T_OBJECT).u32(1).v(1).u32(T_OBJECT | FLAG_64).u64(9).b, allow)
	_sections_done += 1


func _sec_packed() -> void:
	for n in range(9):
		var p := PackedByteArray()
		for i in range(n):
			p.append((i * 37 + 1) & 0xFF)
		_val("PackedByteArray/len%d" % n, p, MUT_ALL if n <= 5 else MUT_SOME, 4)
	var all_bytes := PackedByteArray()
	for i in range(256):
		all_bytes.append(i)
	_val("PackedByteArray/all_256_values", all_bytes, MUT_NONE)
	var rnd := PackedByteArray()
	for i in range(101):
		rnd.append(_rng.randi() & 0xFF)
	_val("PackedByteArray/rng_101", rnd, MUT_NONE)
	_val("PackedByteArray/zeros_4", PackedByteArray([0, 0, 0, 0]))
	_val("PackedByteArray/ff_3", PackedByteArray([255, 255, 255]))

	_val("PackedInt32Array/empty", PackedInt32Array(), MUT_ALL, 4)
	_val("PackedInt32Array/one", PackedInt32Array([7]), MUT_ALL, 4)
	_val("PackedInt32Array/extremes", PackedInt32Array([INT32_MAX, INT32_MIN, 0, -1, 1]), MUT_SOME, 4)
	var r32 := PackedInt32Array()
	for i in range(10):
		r32.append(int(_rng.randi()) - 2147483648)
	_val("PackedInt32Array/rng_10", r32, MUT_SOME, 4)
	_val("PackedInt32Array/truncating_i64", PackedInt32Array([1 << 33, -1]))

	_val("PackedInt64Array/empty", PackedInt64Array(), MUT_ALL, 4)
	_val("PackedInt64Array/one", PackedInt64Array([7]), MUT_ALL, 4)
	_val("PackedInt64Array/extremes", PackedInt64Array([INT64_MAX, INT64_MIN, 0, -1, INT32_MAX, INT32_MIN]), MUT_SOME, 4)
	var r64 := PackedInt64Array()
	for i in range(6):
		r64.append((int(_rng.randi()) << 32) | _rng.randi())
	_val("PackedInt64Array/rng_6", r64, MUT_SOME, 4)
	_val("PackedInt64Array/small_values", PackedInt64Array([1, 2, 3]))

	_val("PackedFloat32Array/empty", PackedFloat32Array(), MUT_ALL, 4)
	_val("PackedFloat32Array/one", PackedFloat32Array([0.5]), MUT_ALL, 4)
	_val("PackedFloat32Array/specials", PackedFloat32Array([NAN, INF, -INF, -0.0, 0.0]), MUT_SOME, 4)
	_val("PackedFloat32Array/rounded", PackedFloat32Array([0.1, 1e30, 1e-40, _f32(0x7f7fffff)]), MUT_SOME, 4)
	_val("PackedFloat32Array/out_of_range", PackedFloat32Array([1e300, -1e300, 1e-300]))
	_val("PackedFloat32Array/subnormals", PackedFloat32Array([_f32(1), _f32(0x007fffff), _f32(0x80000001)]))

	_val("PackedFloat64Array/empty", PackedFloat64Array(), MUT_ALL, 4)
	_val("PackedFloat64Array/one", PackedFloat64Array([0.1]), MUT_ALL, 4)
	_val("PackedFloat64Array/specials", PackedFloat64Array([NAN, INF, -INF, -0.0, 0.0]), MUT_SOME, 4)
	_val("PackedFloat64Array/extremes", PackedFloat64Array([_f64(0x7fefffffffffffff), _f64(1), _f64(0x0010000000000000), 1e300]), MUT_SOME, 4)
	_val("PackedFloat64Array/f32_exact", PackedFloat64Array([0.5, 1.0, 3.0]))

	_val("PackedStringArray/empty", PackedStringArray(), MUT_ALL, 4)
	_val("PackedStringArray/one_empty_string", PackedStringArray([""]), MUT_ALL, 4)
	_val("PackedStringArray/three_empty_strings", PackedStringArray(["", "", ""]), MUT_SOME, 4)
	_val("PackedStringArray/paddings", PackedStringArray(["a", "bb", "ccc", "dddd", "eeeee"]), MUT_ALL, 4)
	_val("PackedStringArray/unicode", PackedStringArray(["é", "€", "😀", String.chr(0x10ffff), "日本語"]), MUT_SOME, 4)
	_val("PackedStringArray/feff_prefix", PackedStringArray([String.chr(0xfeff) + "a"]))
	_val("PackedStringArray/long", PackedStringArray(["x".repeat(300), "y"]))

	_val("PackedVector2Array/empty", PackedVector2Array(), MUT_ALL, 4)
	_val("PackedVector2Array/one", PackedVector2Array([Vector2(1, 2)]), MUT_ALL, 4)
	_val("PackedVector2Array/several", PackedVector2Array([Vector2(0.5, -0.5), Vector2(1e30, -1e30), Vector2(NAN, INF)]), MUT_SOME, 4)
	_val("PackedVector2Array/rounded", PackedVector2Array([Vector2(0.1, 0.2)]))
	_val("PackedVector2Array/zeros", PackedVector2Array([Vector2.ZERO, Vector2.ZERO]))

	_val("PackedVector3Array/empty", PackedVector3Array(), MUT_ALL, 4)
	_val("PackedVector3Array/one", PackedVector3Array([Vector3(1, 2, 3)]), MUT_ALL, 4)
	_val("PackedVector3Array/several", PackedVector3Array([Vector3(0.5, -0.5, 0), Vector3(1e30, -1e30, _f32(1)), Vector3(NAN, INF, -INF)]), MUT_SOME, 4)
	_val("PackedVector3Array/rounded", PackedVector3Array([Vector3(0.1, 0.2, 0.3)]))
	_val("PackedVector3Array/neg_zero", PackedVector3Array([Vector3(-0.0, -0.0, -0.0)]))

	_val("PackedColorArray/empty", PackedColorArray(), MUT_ALL, 4)
	_val("PackedColorArray/one", PackedColorArray([Color(1, 0.5, 0.25, 1)]), MUT_ALL, 4)
	_val("PackedColorArray/several", PackedColorArray([Color.BLACK, Color(2, -1, 0.1, 0), Color(NAN, INF, -INF, -0.0)]), MUT_SOME, 4)
	_val("PackedColorArray/hdr", PackedColorArray([Color(10, 20, 30, 1)]))
	_val("PackedColorArray/transparent", PackedColorArray([Color.TRANSPARENT]))

	_val("PackedVector4Array/empty", PackedVector4Array(), MUT_ALL, 4)
	_val("PackedVector4Array/one", PackedVector4Array([Vector4(1, 2, 3, 4)]), MUT_ALL, 4)
	_val("PackedVector4Array/several", PackedVector4Array([Vector4(0.5, -0.5, 0, 1), Vector4(1e30, -1e30, _f32(1), 0), Vector4(NAN, INF, -INF, -0.0)]), MUT_SOME, 4)
	_val("PackedVector4Array/rounded", PackedVector4Array([Vector4(0.1, 0.2, 0.3, 0.4)]))
	_val("PackedVector4Array/zeros", PackedVector4Array([Vector4.ZERO]))

	for e in [["PackedByteArray", PackedByteArray([1])], ["PackedInt32Array", PackedInt32Array([1])],
			["PackedInt64Array", PackedInt64Array([1])], ["PackedFloat32Array", PackedFloat32Array([1])],
			["PackedFloat64Array", PackedFloat64Array([1])], ["PackedStringArray", PackedStringArray(["a"])],
			["PackedVector2Array", PackedVector2Array([Vector2.ONE])], ["PackedVector3Array", PackedVector3Array([Vector3.ONE])],
			["PackedColorArray", PackedColorArray([Color.WHITE])], ["PackedVector4Array", PackedVector4Array([Vector4.ONE])]]:
		_add("%s/allow_objects" % e[0], var_to_bytes(e[1]), true)
	_sections_done += 1


func _sec_packed_crafted() -> void:
	# PackedByteArray padding.
	_add("PackedByteArray/nonzero_padding", _buf().u32(T_PBA).u32(1).hex("01ffffff").b)
	_add("PackedByteArray/missing_padding_len1", _buf().u32(T_PBA).u32(1).hex("01").b)
	_add("PackedByteArray/missing_padding_len2", _buf().u32(T_PBA).u32(2).hex("0102").b)
	_add("PackedByteArray/missing_padding_len3", _buf().u32(T_PBA).u32(3).hex("010203").b)
	_add("PackedByteArray/partial_padding_len1", _buf().u32(T_PBA).u32(1).hex("010000").b)
	_add("PackedByteArray/count_neg1", _buf().u32(T_PBA).u32(0xFFFFFFFF).b)
	_add("PackedByteArray/flag64_ignored", _buf().u32(T_PBA | FLAG_64).u32(1).hex("01000000").b)
	# PackedStringArray count words.
	_add("PackedStringArray/count_neg1", _buf().u32(T_PSA).u32(0xFFFFFFFF).b)
	_add("PackedStringArray/count_neg1_with_data", _buf().u32(T_PSA).u32(0xFFFFFFFF).s("abc").b)
	_add("PackedStringArray/count_i32_min", _buf().u32(T_PSA).u32(0x80000000).b)
	_add("PackedStringArray/count_too_big", _buf().u32(T_PSA).u32(2).s("a").b)
	_add("PackedStringArray/invalid_utf8_elem", _buf().u32(T_PSA).u32(2).s("a").sraw("ff".hex_decode()).b)
	_add("PackedStringArray/bom_elem", _buf().u32(T_PSA).u32(1).sraw("efbbbf61".hex_decode()).b)
	_add("PackedStringArray/nul_elem", _buf().u32(T_PSA).u32(1).sraw("610062".hex_decode()).b)
	_add("PackedStringArray/elem_missing_padding", _buf().u32(T_PSA).u32(1).u32(1).hex("61").b)
	_add("PackedStringArray/flag64_ignored", _buf().u32(T_PSA | FLAG_64).u32(1).s("a").b)
	# Element-size overflow guards.
	_add("PackedInt32Array/count_2pow29", _buf().u32(T_PI32).u32(1 << 29).b)
	_add("PackedInt32Array/count_2pow30", _buf().u32(T_PI32).u32(1 << 30).b)
	_add("PackedInt32Array/count_neg1", _buf().u32(T_PI32).u32(0xFFFFFFFF).b)
	_add("PackedInt64Array/count_2pow28", _buf().u32(T_PI64).u32(1 << 28).b)
	_add("PackedFloat64Array/count_2pow28", _buf().u32(T_PF64).u32(1 << 28).b)
	_add("PackedColorArray/count_2pow27", _buf().u32(T_PCOL).u32(1 << 27).b)
	_add("PackedInt32Array/flag64_ignored", _buf().u32(T_PI32 | FLAG_64).u32(1).u32(5).b)
	_add("PackedInt64Array/flag64_ignored", _buf().u32(T_PI64 | FLAG_64).u32(1).u64(5).b)
	_add("PackedFloat32Array/flag64_ignored", _buf().u32(T_PF32 | FLAG_64).u32(1).f32(0.5).b)
	_add("PackedFloat32Array/flag64_with_f64_payload", _buf().u32(T_PF32 | FLAG_64).u32(1).f64(0.5).b)
	_add("PackedFloat64Array/flag64_ignored", _buf().u32(T_PF64 | FLAG_64).u32(1).f64(0.5).b)
	_add("PackedFloat32Array/nan_payloads", _buf().u32(T_PF32).u32(3).u32(0x7fc00001).u32(0xffc00000).u32(0x7f800001).b)
	_add("PackedFloat64Array/nan_payloads", _buf().u32(T_PF64).u32(3).u64(0x7ff8000000000001).u64(_bits("fff8000000000000")).u64(0x7ff0000000000001).b)
	_add("PackedColorArray/flag64_ignored", _buf().u32(T_PCOL | FLAG_64).u32(1).f32(1).f32(0.5).f32(0.25).f32(1).b)
	_add("PackedColorArray/flag64_with_f64_payload", _buf().u32(T_PCOL | FLAG_64).u32(1).f64(1).f64(0.5).f64(0.25).f64(1).b)
	# 64-bit packed vectors.
	for k in [["PackedVector2Array", T_PV2, 2], ["PackedVector3Array", T_PV3, 3], ["PackedVector4Array", T_PV4, 4]]:
		var tn: String = k[0]
		var t: int = k[1]
		var n: int = k[2]
		_base("%s/wide64_empty" % tn, _buf().u32(t | FLAG_64).u32(0).b, false, MUT_SOME, 4)
		var b1 := _buf().u32(t | FLAG_64).u32(2)
		for i in range(2 * n):
			b1.f64(float(i) - 1.5)
		_base("%s/wide64_exact" % tn, b1.b, false, MUT_ALL, 4)
		var b2 := _buf().u32(t | FLAG_64).u32(1)
		for i in range(n):
			b2.f64([0.1, 1e300, NAN, -0.0][i % 4])
		_add("%s/wide64_inexact" % tn, b2.b)
		var b3 := _buf().u32(t | FLAG_64).u32(1)
		for i in range(n):
			b3.f32(1.0)
		_add("%s/wide64_with_f32_payload" % tn, b3.b)
		_add("%s/wide64_count_overflow" % tn, _buf().u32(t | FLAG_64).u32(1 << 27).b)
		_add("%s/count_overflow" % tn, _buf().u32(t).u32(1 << 28).b)
		var b4 := _buf().u32(t).u32(1)
		for i in range(n):
			b4.u32([0x7fc00001, 0xffc00000, 0x7f800001, 0x7fffffff][i % 4])
		_add("%s/nan_payloads" % tn, b4.b)
	_sections_done += 1


func _deep_array_bytes(levels: int) -> PackedByteArray:
	var b := _buf()
	for i in range(levels - 1):
		b.u32(T_ARRAY).u32(1)
	b.u32(T_ARRAY).u32(0)
	return b.b


func _deep_dict_bytes(levels: int) -> PackedByteArray:
	var b := _buf()
	for i in range(levels - 1):
		b.u32(T_DICTIONARY).u32(1).u32(T_INT).u32(i)
	b.u32(T_DICTIONARY).u32(0)
	return b.b


func _sec_depth() -> void:
	for n in [1023, 1024, 1025, 1026, 1027]:
		_add("Array/nested_%d_levels" % n, _deep_array_bytes(n))
	for n in [1025, 1026]:
		_add("Array/nested_%d_levels_allow_objects" % n, _deep_array_bytes(n), true)
	for n in [1024, 1025, 1026]:
		_add("Dictionary/nested_%d_levels" % n, _deep_dict_bytes(n))
	# Depth via dictionary keys.
	var bk := _buf()
	for i in range(1025):
		bk.u32(T_DICTIONARY).u32(1)
	bk.u32(T_NIL)
	for i in range(1025):
		bk.u32(T_NIL)
	_add("Dictionary/nested_keys_1026_levels", bk.b)
	var bk2 := _buf()
	for i in range(1024):
		bk2.u32(T_DICTIONARY).u32(1)
	bk2.u32(T_NIL)
	for i in range(1024):
		bk2.u32(T_NIL)
	_add("Dictionary/nested_keys_1025_levels", bk2.b)
	# A leaf value at the deepest allowed level.
	var leaf := _buf()
	for i in range(1024):
		leaf.u32(T_ARRAY).u32(1)
	leaf.u32(T_INT).u32(5)
	_add("Array/nested_1024_levels_with_int_leaf", leaf.b)
	var leaf2 := _buf()
	for i in range(1025):
		leaf2.u32(T_ARRAY).u32(1)
	leaf2.u32(T_INT).u32(5)
	_add("Array/nested_1025_levels_with_int_leaf", leaf2.b)
	_sections_done += 1


func _sec_header_misc() -> void:
	for t in [39, 40, 64, 127, 128, 200, 255]:
		_add("reject/type_byte_%d" % t, _buf().u32(t).u32(0).u32(0).u32(0).b)
	_add("reject/empty", PackedByteArray())
	_add("reject/one_byte", PackedByteArray([2]))
	_add("reject/two_bytes", PackedByteArray([2, 0]))
	_add("reject/three_bytes", PackedByteArray([2, 0, 0]))
	_sections_done += 1


# ---------------------------------------------------------------------------
# Mutation pass over the registered bases.

func _with_u32(b: PackedByteArray, off: int, v: int) -> PackedByteArray:
	var c := b.duplicate()
	c.encode_u32(off, v & 0xFFFFFFFF)
	return c


func _sec_mutations() -> void:
	var header_bits := [0x100, 0x8000, FLAG_64, 0x20000, 0x30000, 0x40000, 0xC0000, 0x100000, 0x1000000, 0x80000000]
	var header_bits_some := [FLAG_64, 0x20000, 0x80000000]
	for base in _bases:
		var label: String = base[0]
		var b: PackedByteArray = base[1]
		var allow: bool = base[2]
		var mut: int = base[3]
		var len_off: int = base[4]
		var n := b.size()
		if mut == MUT_ALL and n <= 320:
			for cut in range(n):
				_add("%s/trunc_%d" % [label, cut], b.slice(0, cut), allow, true)
		if mut == MUT_ALL:
			for t in [39, 255]:
				var c := b.duplicate()
				c[0] = t
				_add("%s/type_byte_%d" % [label, t], c, allow, true)
		var header := b.decode_u32(0)
		for m in (header_bits if mut == MUT_ALL else header_bits_some):
			if header & m == m or n > 256:
				continue
			_add("%s/header_or_0x%x" % [label, m], _with_u32(b, 0, header | m), allow, true)
		if header & FLAG_64:
			_add("%s/header_clear_flag64" % label, _with_u32(b, 0, header & ~FLAG_64), allow, true)
		if len_off >= 0 and len_off + 4 <= n:
			var orig := b.decode_u32(len_off)
			var vals := [0, 0x7FFFFFFF, 0xFFFFFFFF, 0x80000000, orig + 1, orig - 1, orig + 4, orig | 0x80000000, orig & 0x7FFFFFFF]
			if n > 256:
				vals = [0, 0xFFFFFFFF, orig + 1, orig | 0x80000000]
			var done := {}
			for v0 in vals:
				var v: int = v0 & 0xFFFFFFFF
				if v == orig or done.has(v):
					continue
				done[v] = true
				_add("%s/len_word_0x%x" % [label, v], _with_u32(b, len_off, v), allow, true)
		for g in (["ff", "deadbeef", "00000000"] if mut == MUT_ALL else ["deadbeef"]):
			var c := b.duplicate()
			c.append_array(g.hex_decode())
			_add("%s/garbage_%s" % [label, g], c, allow, true)
	_sections_done += 1
