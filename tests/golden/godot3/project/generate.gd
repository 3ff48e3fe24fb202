extends SceneTree
## Godot 3 golden-corpus generator for FastVariantCodec (Godot 3.2.3 and 3.6.2).
##
## Run (from the repository root; godot3-server is headless already):
##   godot3 --path tests/golden/godot3/project --script res://generate.gd -- \
##       --out=/abs/godot-3.6.2.json --save=/abs/save-3.6.2.bin
## The save file's sidecar is written next to it (same name, .json).
##
## Every case is a byte string and the engine's verdict on it:
##   accepted  = bytes2var(bytes, allow_objects) succeeded (GDScript 3 aborts the calling
##               function when it fails, so a helper that returns [value] returns null)
##   error     = the Error decode_variant returned: no Godot 3 API returns it, so it is read
##               from the engine's own error log (the first core/io/marshalls.cpp error logged
##               during the call names the returned constant); 0 when accepted
##   value     = a description of the decoded value (see ../README.md)
##   reencoded = var2bytes(decoded, allow_objects)
## Godot 3's var2bytes leaves the padding after NodePath names uninitialised; recorded bytes
## have that padding zeroed (checked to be the only difference). --raw-padding keeps the
## engine's bytes as they come (for the determinism investigation only).
##
## Deterministic: a fixed-seed RandomNumberGenerator, no transcendental math, no live instance
## ids in recorded data (the one id-mode case from a live object has its id replaced by a
## fixed one after checking it), a fixed order.

const TYPE_NAMES = [
	"Nil", "bool", "int", "float", "String", "Vector2", "Rect2", "Vector3", "Transform2D",
	"Plane", "Quat", "AABB", "Basis", "Transform", "Color", "NodePath", "RID", "Object",
	"Dictionary", "Array", "PoolByteArray", "PoolIntArray", "PoolRealArray", "PoolStringArray",
	"PoolVector2Array", "PoolVector3Array", "PoolColorArray",
]
const FLAG_64 = 0x10000
const T_NODE_PATH = 15
const T_OBJECT = 17
const T_DICTIONARY = 18
const T_ARRAY = 19
const I32_MAX = 2147483647
const I32_MIN = -2147483648
const I64_MAX = 9223372036854775807
const I64_MIN = -9223372036854775807 - 1
const RANDOM_CASES = 2100
# The save file holds the fixed values without objects, then the first SAVE_RANDOM random ones.
const SAVE_RANDOM = 300
# Values nested deeper than this are recorded with "value": null (only the depth cases).
const MAX_DESC_NESTING = 32
# Fixed values that do not come back from var2bytes -> bytes2var unchanged in one or both
# engines (exempt from the round-trip check): "/" decodes as the empty path; a
# PoolRealArray key holding NaN is not found again by Godot 3.2.3's encoder, which then
# writes the key "[Deleted Object]" with a null value instead.
const KNOWN_QUIRKS = ["NodePath/root", "Dictionary/nan_in_pool_key"]

var _lines = []
var _seen = {}
var _names = {}
var _failures = []
var _counts = {}
var _fixed_bases = []
var _random_bases = []
var _save_values = []
var _save_descs = []
var _rng = RandomNumberGenerator.new()
var _spb = StreamPeerBuffer.new()
var _log = File.new()
var _log_pos = 0
var _err_codes = {}
var _raw_padding = false
# A -0.0 literal can be merged with an equal 0.0 constant by the GDScript 3 compiler.
var NEG_ZERO = 0.0
var _no_nan = false
var _np_encodings = 0
var _np_dirty_encodings = 0
var _np_dirty_bytes = 0


# ---------------------------------------------------------------------------
# Entry point.

func _initialize():
	var rc = _main()
	if typeof(rc) != TYPE_INT:
		rc = 1
	quit(rc)


func _main():
	var out_path = ""
	var save_path = ""
	var user_args = false
	for a in OS.get_cmdline_args():
		if a == "--":
			user_args = true
		elif not user_args:
			continue
		elif a.begins_with("--out="):
			out_path = a.substr(6, a.length())
		elif a.begins_with("--save="):
			save_path = a.substr(7, a.length())
		elif a == "--raw-padding":
			_raw_padding = true
	if out_path == "" or save_path == "":
		printerr("generate.gd: missing --out=<path> or --save=<path> (pass them after `--`)")
		return 2
	# --path changes the working directory to the project: resolve relative paths against
	# the caller's directory instead.
	var pwd = OS.get_environment("PWD")
	if not out_path.is_abs_path() and pwd != "":
		out_path = pwd.plus_file(out_path)
	if not save_path.is_abs_path() and pwd != "":
		save_path = pwd.plus_file(save_path)
	var sidecar_path = save_path.get_basename() + ".json"

	if not _setup():
		return _report_failures()
	_rng.seed = 20240611
	NEG_ZERO = _f32(0x80000000)
	var sections = ["_sec_fixed", "_sec_fixed_objects", "_sec_random", "_sec_mutations", "_sec_crafted"]
	for s in sections:
		if call(s) != true:
			_failures.append("section did not complete: %s" % s)
			break
		_check_log_clean(s)

	for t in range(TYPE_NAMES.size()):
		if _counts.get("fixed/" + TYPE_NAMES[t], 0) < 3:
			_failures.append("fixed type %s has only %d cases" % [TYPE_NAMES[t], _counts.get("fixed/" + TYPE_NAMES[t], 0)])
	if _counts.get("random", 0) < 2000:
		_failures.append("only %d random cases" % _counts.get("random", 0))
	if _counts.get("mutation", 0) < 2000:
		_failures.append("only %d mutation cases" % _counts.get("mutation", 0))
	if _save_values.size() < 200:
		_failures.append("only %d save values" % _save_values.size())
	var save = _make_save()
	if not _failures.empty():
		return _report_failures()

	var engine = Engine.get_version_info()["string"]
	var text = "{\"engine\": %s,\n \"cases\": [\n%s\n]}\n" % [_js(engine), PoolStringArray(_lines).join(",\n")]
	var parsed = JSON.parse(text)
	if parsed.error != OK or parsed.result["cases"].size() != _lines.size():
		printerr("generate.gd: produced invalid JSON: ", parsed.error_string)
		return 1
	var side_lines = PoolStringArray(_save_descs)
	var side_text = "{\"engine\": %s,\n \"values\": [\n%s\n]}\n" % [_js(engine), side_lines.join(",\n")]

	var files = [[out_path, text], [sidecar_path, side_text], [save_path, save]]
	var handles = []
	for f in files:
		var h = File.new()
		if h.open(f[0], File.WRITE) != OK:
			printerr("generate.gd: cannot open %s for writing" % f[0])
			return 3
		handles.append(h)
	for i in range(files.size()):
		if typeof(files[i][1]) == TYPE_STRING:
			handles[i].store_string(files[i][1])
		else:
			handles[i].store_buffer(files[i][1])
		handles[i].close()

	var keys = _counts.keys()
	keys.sort()
	var summary = PoolStringArray()
	for k in keys:
		summary.append("%s=%d" % [k, _counts[k]])
	print("generate.gd: %s: wrote %d cases to %s, %d values to %s" % [engine, _lines.size(), out_path, _save_values.size(), save_path])
	print("generate.gd: ", summary.join(", "))
	print("generate.gd: NodePath padding: %d of %d var2bytes/store_var outputs with NodePath padding had non-zero padding (%d bytes)%s" % [
		_np_dirty_encodings, _np_encodings, _np_dirty_bytes, " (kept: --raw-padding)" if _raw_padding else " (zeroed)"])
	return 0


func _report_failures():
	for f in _failures:
		printerr("generate.gd: FAILURE: ", f)
	if _failures.empty():
		printerr("generate.gd: FAILURE: unknown")
	return 1


func _setup():
	for n in ["OK", "FAILED", "ERR_UNAVAILABLE", "ERR_UNCONFIGURED", "ERR_UNAUTHORIZED",
			"ERR_PARAMETER_RANGE_ERROR", "ERR_OUT_OF_MEMORY", "ERR_FILE_EOF", "ERR_INVALID_DATA",
			"ERR_INVALID_PARAMETER", "ERR_PARSE_ERROR", "ERR_BUG"]:
		_err_codes[n] = _error_constant(n)
	var log_path = ProjectSettings.get_setting("logging/file_logging/log_path")
	if _log.open(log_path, File.READ) != OK:
		# Godot 3.2.3 cannot make its log in a user directory that does not exist yet.
		_failures.append("cannot read the engine's log %s (file logging must be on; create %s and run again)" % [
			log_path, OS.get_user_data_dir()])
		return false
	_log_pos = _log.get_len()
	# The error-code channel must work: a string with a length past the end fails in
	# _decode_string with ERR_FILE_EOF, and a bad type byte with ERR_INVALID_DATA.
	var probes = [[PoolByteArray([4, 0, 0, 0, 9, 0, 0, 0, 65]), ERR_FILE_EOF],
			[PoolByteArray([255, 0, 0, 0]), ERR_INVALID_DATA]]
	for p in probes:
		var r = _decode(p[0], false)
		if r["accepted"] or r["error"] != p[1]:
			_failures.append("error-code probe failed: %s gave %s" % [p[0].hex_encode(), str(r)])
			return false
	return true


func _error_constant(n):
	match n:
		"OK": return OK
		"FAILED": return FAILED
		"ERR_UNAVAILABLE": return ERR_UNAVAILABLE
		"ERR_UNCONFIGURED": return ERR_UNCONFIGURED
		"ERR_UNAUTHORIZED": return ERR_UNAUTHORIZED
		"ERR_PARAMETER_RANGE_ERROR": return ERR_PARAMETER_RANGE_ERROR
		"ERR_OUT_OF_MEMORY": return ERR_OUT_OF_MEMORY
		"ERR_FILE_EOF": return ERR_FILE_EOF
		"ERR_INVALID_DATA": return ERR_INVALID_DATA
		"ERR_INVALID_PARAMETER": return ERR_INVALID_PARAMETER
		"ERR_PARSE_ERROR": return ERR_PARSE_ERROR
		"ERR_BUG": return ERR_BUG
	return -1


# ---------------------------------------------------------------------------
# The engine's log.

func _read_log():
	var n = _log.get_len()
	if n <= _log_pos:
		return ""
	_log.seek(_log_pos)
	var buf = _log.get_buffer(n - _log_pos)
	_log_pos = n
	return buf.get_string_from_utf8()


## Any script error logged outside a rejected decode is a failure of the generator (GDScript 3
## logs runtime errors and carries on).
func _check_log_clean(where):
	for line in _read_log().split("\n"):
		if line.find("SCRIPT ERROR") != -1:
			_failures.append("script error (%s): %s" % [where, line])


## The Error named by the first core/io/marshalls.cpp error in `text`: -1 if none, -2 if
## the name is not known.
func _marshalls_error(text):
	for line in text.split("\n"):
		if line.find("marshalls.cpp") == -1:
			continue
		var k = line.find("Returned: ")
		var skip = 10
		if k == -1:
			k = line.find("Returning: ")
			skip = 11
		if k == -1:
			continue
		var name = line.substr(k + skip, line.length()).strip_edges()
		return _err_codes.get(name, -2)
	return -1


# ---------------------------------------------------------------------------
# Decoding.

func _try_decode(bytes, allow):
	var v = bytes2var(bytes, allow)
	return [v]


## The engine's verdict on `bytes`: {accepted, error, value} (value only when accepted).
func _decode(bytes, allow):
	_check_log_clean("before decode")
	var r = _try_decode(bytes, allow)
	var text = _read_log()
	var code = _marshalls_error(text)
	var out = {"accepted": r != null, "error": 0}
	for line in text.split("\n"):
		if line.find("SCRIPT ERROR") != -1 and (r != null or line.find("bytes2var") == -1):
			_failures.append("unexpected script error decoding %s: %s" % [bytes.hex_encode(), line])
	if r != null:
		if code != -1:
			_failures.append("accepted but a decode error was logged: %s" % bytes.hex_encode())
		out["value"] = r[0]
	elif code < 0:
		_failures.append("rejected without a known decode error (%d) for %s" % [code, bytes.hex_encode()])
		out["error"] = -1
	else:
		out["error"] = code
	return out


## Records one case; returns {accepted, error, value, desc, re} (value/desc/re when accepted;
## the caller frees nodes in value through _release()).
func _case(name, kind, bytes, allow, keep_value = false):
	var key = ("1|" if allow else "0|") + bytes.hex_encode()
	if _seen.has(key) or _names.has(name):
		return null
	_seen[key] = true
	_names[name] = true
	var r = _decode(bytes, allow)
	var line = "{\"name\":%s,\"kind\":\"%s\",\"allow_objects\":%s,\"bytes\":\"%s\",\"accepted\":%s,\"error\":%d" % [
		_js(name), kind, _jb(allow), bytes.hex_encode(), _jb(r["accepted"]), r["error"]]
	if r["accepted"]:
		var v = r["value"]
		if _nesting(v, MAX_DESC_NESTING + 1) > MAX_DESC_NESTING:
			# Too deep for common JSON readers (serde_json stops at 128 levels).
			r["desc"] = "null"
		else:
			r["desc"] = _desc(v, false)
		line += ",\"value\":" + r["desc"]
		if not allow and _has_eoid(v):
			# The engine writes the EncodedObjectAsID's own (live) instance id.
			r["re"] = null
			line += ",\"reencoded\":null"
		else:
			var re = var2bytes(v, allow)
			var err = _marshalls_error(_read_log())
			if re.size() == 0 or err != -1:
				_failures.append("re-encoding failed for %s" % name)
			r["re"] = _canon(re).hex_encode()
			line += ",\"reencoded\":\"%s\"" % r["re"]
		if not keep_value:
			_release(v)
			r.erase("value")
	line += "}"
	_lines.append(line)
	_counts[kind] = _counts.get(kind, 0) + 1
	return r


## How many containers deep `v` nests (counting `v`), at most `limit`.
func _nesting(v, limit):
	if limit <= 0:
		return 0
	var inner = 0
	match typeof(v):
		TYPE_ARRAY:
			for e in v:
				inner = max(inner, _nesting(e, limit - 1))
		TYPE_DICTIONARY:
			for e in v.keys():
				inner = max(inner, _nesting(e, limit - 1))
			for e in v.values():
				inner = max(inner, _nesting(e, limit - 1))
		_:
			return 0
	return 1 + inner


## Frees the nodes (non-Reference objects) a decode made.
func _release(v):
	match typeof(v):
		TYPE_OBJECT:
			if v != null and is_instance_valid(v) and not (v is Reference):
				v.free()
		TYPE_ARRAY:
			for e in v:
				_release(e)
		TYPE_DICTIONARY:
			for e in v.keys():
				_release(e)
			for e in v.values():
				_release(e)


func _has_eoid(v):
	match typeof(v):
		TYPE_OBJECT:
			if v == null:
				return false
			if v.get_class() == "EncodedObjectAsID":
				return true
			for p in v.get_property_list():
				if (p["usage"] & PROPERTY_USAGE_STORAGE) and _has_eoid(v.get(p["name"])):
					return true
		TYPE_ARRAY:
			for e in v:
				if _has_eoid(e):
					return true
		TYPE_DICTIONARY:
			for e in v.keys():
				if _has_eoid(e):
					return true
			for e in v.values():
				if _has_eoid(e):
					return true
	return false


## A value encoded by the engine and checked to come back identical: recorded as a "fixed"
## or "random" case and registered as a mutation base.
func _value_case(name, kind, v, full = false):
	var raw = var2bytes(v, full)
	if raw.size() == 0:
		_failures.append("var2bytes failed for %s" % name)
		return
	var bytes = _canon(raw)
	if _seen.has(("1|" if full else "0|") + bytes.hex_encode()):
		if kind == "fixed":
			_failures.append("duplicate case %s" % name)
		return false
	var r = _case(name, kind, bytes, full, true)
	if r == null:
		_failures.append("duplicate case name %s" % name)
		return false
	if not r["accepted"]:
		_failures.append("%s: the engine rejects its own var2bytes output" % name)
		return false
	# Values that do not survive var2bytes -> bytes2var in Godot 3 (recorded as they are).
	if not name in KNOWN_QUIRKS:
		if r["desc"] != _desc(v, false):
			_failures.append("%s: decoded %s, expected %s" % [name, r["desc"], _desc(v, false)])
		if r["re"] != null and _zeroed(_unhex(r["re"])).hex_encode() != _zeroed(bytes).hex_encode():
			_failures.append("%s: re-encoded %s, expected %s" % [name, r["re"], bytes.hex_encode()])
	_release(r["value"])
	var base = [name, bytes, full]
	if kind == "fixed":
		_fixed_bases.append(base)
		var cat = "fixed/" + _category(name)
		_counts[cat] = _counts.get(cat, 0) + 1
		if not _has_object(v) and not name in KNOWN_QUIRKS:
			_save_values.append(v)
	else:
		_random_bases.append(base)
		if _random_bases.size() <= SAVE_RANDOM:
			_save_values.append(v)
	return true


func _has_object(v):
	match typeof(v):
		TYPE_OBJECT:
			return true
		TYPE_ARRAY:
			for e in v:
				if _has_object(e):
					return true
		TYPE_DICTIONARY:
			for e in v.keys():
				if _has_object(e):
					return true
			for e in v.values():
				if _has_object(e):
					return true
	return false


## A crafted byte string recorded as a fixed case (Object ids and nulls).
func _crafted_fixed(name, bytes, allow):
	var r = _case(name, "fixed", bytes, allow)
	if r == null:
		_failures.append("duplicate case %s" % name)
		return
	_fixed_bases.append([name, bytes, allow])
	var cat = "fixed/" + _category(name)
	_counts[cat] = _counts.get(cat, 0) + 1


# ---------------------------------------------------------------------------
# NodePath padding: Godot 3 writes NodePath names without initialising their padding.

## The offsets of NodePath name padding in a valid encoding `b`.
func _np_pads(b):
	var pads = []
	var end = _walk(b, 0, pads)
	if end != b.size():
		_failures.append("cannot walk encoding %s (%d)" % [b.hex_encode(), end])
	return pads


func _walk(b, off, pads):
	var h = _u32(b, off)
	var t = h & 0xFF
	var wide = (h & FLAG_64) != 0
	off += 4
	match t:
		0, 16:
			return off
		1:
			return off + 4
		2, 3:
			return off + (8 if wide else 4)
		4:
			return _walk_str(b, off)
		5:
			return off + 8
		6, 9, 10, 14:
			return off + 16
		7:
			return off + 12
		8, 11:
			return off + 24
		12:
			return off + 36
		13:
			return off + 48
		15:
			var nc = _u32(b, off) & 0x7FFFFFFF
			var sc = _u32(b, off + 4)
			if _u32(b, off + 8) & 2:
				sc += 1
			off += 12
			for _i in range(nc + sc):
				var l = _u32(b, off)
				off += 4 + l
				for j in range(_pad(l)):
					pads.append(off + j)
				off += _pad(l)
			return off
		17:
			if wide:
				return off + 8
			var cl = _u32(b, off)
			off = _walk_str(b, off)
			if cl == 0:
				return off
			var n = _u32(b, off)
			off += 4
			for _i in range(n):
				off = _walk_str(b, off)
				off = _walk(b, off, pads)
			return off
		18, 19:
			var n = _u32(b, off) & 0x7FFFFFFF
			off += 4
			for _i in range(n * (2 if t == 18 else 1)):
				off = _walk(b, off, pads)
			return off
		20:
			var n = _u32(b, off)
			return off + 4 + n + _pad(n)
		21, 22:
			return off + 4 + 4 * _u32(b, off)
		23:
			var n = _u32(b, off)
			off += 4
			for _i in range(n):
				off = _walk_str(b, off)
			return off
		24:
			return off + 4 + 8 * _u32(b, off)
		25:
			return off + 4 + 12 * _u32(b, off)
		26:
			return off + 4 + 16 * _u32(b, off)
	return -1


func _walk_str(b, off):
	var l = _u32(b, off)
	return off + 4 + l + _pad(l)


func _pad(n):
	return (4 - n % 4) % 4


## `b` with NodePath name padding zeroed.
func _zeroed(b):
	var out = b
	for p in _np_pads(b):
		out[p] = 0
	return out


## What is recorded for an engine encoding `b`: the padding zeroed (unless --raw-padding);
## also counts how often the engine left non-zero bytes there.
func _canon(b):
	var pads = _np_pads(b)
	if pads.empty():
		return b
	_np_encodings += 1
	var dirty = 0
	for p in pads:
		if b[p] != 0:
			dirty += 1
	if dirty > 0:
		_np_dirty_encodings += 1
		_np_dirty_bytes += dirty
	if _raw_padding:
		return b
	return _zeroed(b)


# ---------------------------------------------------------------------------
# Value descriptions (JSON text). See ../README.md for the format.

func _desc(v, as_encoded):
	match typeof(v):
		TYPE_NIL:
			return "{\"t\":\"Nil\"}"
		TYPE_BOOL:
			return "{\"t\":\"bool\",\"v\":%s}" % _jb(v)
		TYPE_INT:
			return "{\"t\":\"int\",\"v\":\"%s\"}" % str(v)
		TYPE_REAL:
			_spb.clear()
			_spb.put_double(v)
			return "{\"t\":\"float\",\"v\":\"%s\"}" % _rev_hex(_spb.data_array, 0, 8)
		TYPE_STRING:
			return "{\"t\":\"String\",\"v\":\"%s\"}" % v.to_utf8().hex_encode()
		TYPE_VECTOR2, TYPE_RECT2, TYPE_VECTOR3, TYPE_TRANSFORM2D, TYPE_PLANE, TYPE_QUAT, TYPE_AABB, TYPE_BASIS, TYPE_TRANSFORM, TYPE_COLOR:
			return _desc_math(v)
		TYPE_NODE_PATH:
			var names = []
			for i in range(v.get_name_count()):
				names.append("\"%s\"" % String(v.get_name(i)).to_utf8().hex_encode())
			var subs = []
			for i in range(v.get_subname_count()):
				subs.append("\"%s\"" % String(v.get_subname(i)).to_utf8().hex_encode())
			return "{\"t\":\"NodePath\",\"v\":\"%s\",\"names\":[%s],\"subnames\":[%s],\"absolute\":%s}" % [
				str(v).to_utf8().hex_encode(), PoolStringArray(names).join(","),
				PoolStringArray(subs).join(","), _jb(v.is_absolute())]
		TYPE_RID:
			return "{\"t\":\"RID\"}"
		TYPE_OBJECT:
			return _desc_object(v, as_encoded)
		TYPE_DICTIONARY:
			var parts = PoolStringArray()
			var ks = v.keys()
			var vs = v.values()
			for i in range(ks.size()):
				parts.append("[%s,%s]" % [_desc(ks[i], as_encoded), _desc(vs[i], as_encoded)])
			return "{\"t\":\"Dictionary\",\"v\":[%s]}" % parts.join(",")
		TYPE_ARRAY:
			var parts = PoolStringArray()
			for e in v:
				parts.append(_desc(e, as_encoded))
			return "{\"t\":\"Array\",\"v\":[%s]}" % parts.join(",")
		TYPE_RAW_ARRAY:
			return "{\"t\":\"PoolByteArray\",\"v\":\"%s\"}" % v.hex_encode()
		TYPE_INT_ARRAY, TYPE_REAL_ARRAY, TYPE_VECTOR2_ARRAY, TYPE_VECTOR3_ARRAY, TYPE_COLOR_ARRAY:
			return _desc_pool(v)
		TYPE_STRING_ARRAY:
			var parts = PoolStringArray()
			for s in v:
				parts.append("\"%s\"" % s.to_utf8().hex_encode())
			return "{\"t\":\"PoolStringArray\",\"v\":[%s]}" % parts.join(",")
	_failures.append("cannot describe a value of type %d" % typeof(v))
	return "null"


## Math types: the f32 components as the engine writes them (var2bytes copies each float's
## bits), checked against the components GDScript reads (equal unless NaN: reading a float
## into GDScript widens it to double, which quiets a signalling NaN).
func _desc_math(v):
	var b = var2bytes(v)
	var comps = PoolStringArray()
	var expect = _components(v)
	if b.size() != 4 + 4 * expect.size():
		_failures.append("unexpected encoding of %s" % str(v))
	for i in range(expect.size()):
		var wire = _rev_hex(b, 4 + 4 * i, 4)
		comps.append("\"%s\"" % wire)
		_spb.clear()
		_spb.put_float(expect[i])
		if _rev_hex(_spb.data_array, 0, 4) != wire and not is_nan(expect[i]):
			_failures.append("component %d of %s: wire %s" % [i, str(v), wire])
	return "{\"t\":\"%s\",\"v\":[%s]}" % [TYPE_NAMES[typeof(v)], comps.join(",")]


## The components in Godot 3's wire order. Basis.elements are rows; GDScript's Basis.x/y/z
## are columns, so row i is (x[i], y[i], z[i]).
func _components(v):
	match typeof(v):
		TYPE_VECTOR2:
			return [v.x, v.y]
		TYPE_RECT2:
			return [v.position.x, v.position.y, v.size.x, v.size.y]
		TYPE_VECTOR3:
			return [v.x, v.y, v.z]
		TYPE_TRANSFORM2D:
			return [v.x.x, v.x.y, v.y.x, v.y.y, v.origin.x, v.origin.y]
		TYPE_PLANE:
			return [v.normal.x, v.normal.y, v.normal.z, v.d]
		TYPE_QUAT:
			return [v.x, v.y, v.z, v.w]
		TYPE_AABB:
			return [v.position.x, v.position.y, v.position.z, v.size.x, v.size.y, v.size.z]
		TYPE_BASIS:
			return _basis_rows(v)
		TYPE_TRANSFORM:
			return _basis_rows(v.basis) + [v.origin.x, v.origin.y, v.origin.z]
		TYPE_COLOR:
			return [v.r, v.g, v.b, v.a]
	return []


func _basis_rows(m):
	return [m.x.x, m.y.x, m.z.x, m.x.y, m.y.y, m.z.y, m.x.z, m.y.z, m.z.z]


## Pool arrays of numbers: the elements' bytes as on the wire (after header and count),
## checked against the elements GDScript reads (NaN aside, as for math types).
func _desc_pool(v):
	var b = var2bytes(v)
	var names = {TYPE_INT_ARRAY: "PoolIntArray", TYPE_REAL_ARRAY: "PoolRealArray",
			TYPE_VECTOR2_ARRAY: "PoolVector2Array", TYPE_VECTOR3_ARRAY: "PoolVector3Array",
			TYPE_COLOR_ARRAY: "PoolColorArray"}
	_spb.clear()
	for e in v:
		match typeof(v):
			TYPE_INT_ARRAY:
				_spb.put_32(e)
			TYPE_REAL_ARRAY:
				_spb.put_float(e)
			_:
				for c in _components(e):
					_spb.put_float(c)
	var wire = _slice(b, 8, b.size())
	var mine = _spb.data_array
	if wire.size() != mine.size():
		_failures.append("unexpected encoding of a %s" % names[typeof(v)])
	elif wire.hex_encode() != mine.hex_encode():
		for i in range(0, wire.size(), 4):
			if _u32(wire, i) != _u32(mine, i) and not _is_nan_f32(_u32(wire, i)):
				_failures.append("element word %d of a %s differs: %s" % [i / 4, names[typeof(v)], wire.hex_encode()])
				break
	return "{\"t\":\"%s\",\"v\":\"%s\"}" % [names[typeof(v)], wire.hex_encode()]


func _is_nan_f32(bits):
	return (bits & 0x7F800000) == 0x7F800000 and (bits & 0x7FFFFF) != 0


## Objects. Properties are the storage properties in the engine's encoding order. Inside
## properties (as_encoded) a null object is described as Nil, which is what the encoder
## writes for it.
func _desc_object(o, as_encoded):
	if o == null or not is_instance_valid(o):
		return "{\"t\":\"Nil\"}" if as_encoded else "{\"t\":\"Object\",\"null\":true}"
	if o.get_class() == "EncodedObjectAsID":
		return "{\"t\":\"EncodedObjectAsID\",\"id\":\"%s\"}" % _u64_dec(o.get_object_id())
	var props = PoolStringArray()
	for p in o.get_property_list():
		if p["usage"] & PROPERTY_USAGE_STORAGE:
			props.append("[%s,%s]" % [_js(p["name"]), _desc(o.get(p["name"]), true)])
	return "{\"t\":\"Object\",\"class\":%s,\"props\":[%s]}" % [_js(o.get_class()), props.join(",")]


## An ObjectID (u64, held by GDScript as int64) in unsigned decimal.
func _u64_dec(x):
	if x >= 0:
		return str(x)
	var q = ((x >> 1) & 0x7FFFFFFFFFFFFFFF) / 5
	return str(q) + str(x - q * 10)


# ---------------------------------------------------------------------------
# Bytes and JSON helpers.

func _u32(b, o):
	return b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24)


func _le32(v):
	return PoolByteArray([v & 0xFF, (v >> 8) & 0xFF, (v >> 16) & 0xFF, (v >> 24) & 0xFF])


func _le64(v):
	var out = _le32(v & 0xFFFFFFFF)
	out.append_array(_le32((v >> 32) & 0xFFFFFFFF))
	return out


func _set32(b, o, v):
	var out = b
	for i in range(4):
		out[o + i] = (v >> (8 * i)) & 0xFF
	return out


## b[from, to) (empty when from >= to).
func _slice(b, from, to):
	if from >= to:
		return PoolByteArray()
	return b.subarray(from, to - 1)


## n bytes at o, read little-endian, as big-endian hex.
func _rev_hex(b, o, n):
	var r = PoolByteArray()
	for i in range(n):
		r.append(b[o + n - 1 - i])
	return r.hex_encode()


func _unhex(h):
	var out = PoolByteArray()
	for i in range(0, h.length(), 2):
		out.append(("0x" + h.substr(i, 2)).hex_to_int())
	return out


func _cat(parts):
	var out = PoolByteArray()
	for p in parts:
		out.append_array(p)
	return out


func _js(s):
	for c in s:
		if ord(c) < 32 or ord(c) > 126:
			_failures.append("non-ASCII text in JSON: %s" % s)
			return "\"\""
	return "\"%s\"" % s.replace("\\", "\\\\").replace("\"", "\\\"")


func _jb(b):
	return "true" if b else "false"


func _f32(bits):
	_spb.clear()
	_spb.put_u32(bits)
	_spb.seek(0)
	return _spb.get_float()


func _f64(hi, lo):
	_spb.clear()
	_spb.put_u32(lo)
	_spb.put_u32(hi)
	_spb.seek(0)
	return _spb.get_double()


# ---------------------------------------------------------------------------
# The store_var save file.

## File.store_var of every save value into a scratch file, read back: each record must be
## [u32 length][var2bytes(value)] (NodePath padding aside) and decode to the value (its
## description goes to the sidecar); returned with that padding zeroed.
func _make_save():
	var tmp = "user://store_var.tmp"
	var f = File.new()
	if f.open(tmp, File.WRITE) != OK:
		_failures.append("cannot write %s" % tmp)
		return PoolByteArray()
	for v in _save_values:
		f.store_var(v)
	f.close()
	if f.open(tmp, File.READ) != OK:
		_failures.append("cannot read %s" % tmp)
		return PoolByteArray()
	var raw = f.get_buffer(f.get_len())
	f.close()
	Directory.new().remove(tmp)
	var out = PoolByteArray()
	var off = 0
	for i in range(_save_values.size()):
		if off + 4 > raw.size():
			_failures.append("store_var file ends early at value %d" % i)
			return out
		var n = _u32(raw, off)
		var rec = _slice(raw, off + 4, off + 4 + n)
		var expect = _zeroed(var2bytes(_save_values[i])).hex_encode()
		if _zeroed(rec).hex_encode() != expect:
			_failures.append("store_var record %d is %s, expected %s" % [i, rec.hex_encode(), expect])
		out.append_array(_le32(n))
		out.append_array(_canon(rec))
		off += 4 + n
		# The sidecar describes what the engine reads back from the record.
		var r = _decode(_zeroed(rec), false)
		if not r["accepted"]:
			_failures.append("store_var record %d is rejected" % i)
			continue
		var desc = _desc(r["value"], false)
		if desc != _desc(_save_values[i], false):
			_failures.append("store_var record %d reads back as %s" % [i, desc])
		_save_descs.append(desc)
	if off != raw.size():
		_failures.append("store_var file has %d bytes, records end at %d" % [raw.size(), off])
	return out


# ---------------------------------------------------------------------------
# Fixed values: several of every Godot 3 type.

func _sec_fixed():
	var fixed = []
	fixed.append(["Nil/null", null])
	fixed.append(["Nil/in_array", [null, null]])
	fixed.append(["Nil/dictionary_key_and_value", {null: null}])
	fixed.append(["bool/true", true])
	fixed.append(["bool/false", false])
	fixed.append(["bool/in_array", [true, false]])
	for n in [["0", 0], ["1", 1], ["minus_1", -1], ["i32_max", I32_MAX], ["i32_min", I32_MIN],
			["i32_max_plus_1", I32_MAX + 1], ["i32_min_minus_1", I32_MIN - 1], ["u32_max", 4294967295],
			["i64_max", I64_MAX], ["i64_min", I64_MIN], ["1e12", 1000000000000], ["minus_1e15", -1000000000000000]]:
		fixed.append(["int/" + n[0], n[1]])
	for n in [["0", 0.0], ["minus_0", NEG_ZERO], ["1", 1.0], ["minus_2_5", -2.5], ["half", 0.5],
			["f32_max", _f32(0x7F7FFFFF)], ["f32_min_subnormal", _f32(1)], ["needs64_0_1", 0.1],
			["needs64_1e300", 1e300], ["needs64_min_subnormal", _f64(0, 1)],
			["needs64_pi_digits", 3.141592653589793], ["f32_third", _f32(0x3EAAAAAB)],
			["inf", INF], ["minus_inf", -INF], ["nan", NAN], ["nan_payload64", _f64(0x7FF00000, 1)],
			["i64_range", 9007199254740993.0]]:
		fixed.append(["float/" + n[0], n[1]])
	var strs = [["empty", ""], ["len1", "a"], ["len2", "ab"], ["len3", "abc"], ["len4", "abcd"],
			["len5", "abcde"], ["len6", "abcdef"], ["len7", "abcdefg"], ["len8", "abcdefgh"],
			["latin1", "h" + char(0xE9) + "llo"], ["cjk", char(0x65E5) + char(0x672C) + char(0x8A9E)],
			["emoji_4byte", char(0x1F600)], ["mixed", "a" + char(0x1F600) + "b" + char(0xE9) + char(0x4E2D)],
			["controls", "tab\there\nnew \"q\" \\"], ["max_code_point", char(0x10FFFF)],
			["feff_inside", "a" + char(0xFEFF) + "b"]]
	for s in strs:
		fixed.append(["String/" + s[0], s[1]])
	fixed.append(["Vector2/zero", Vector2()])
	fixed.append(["Vector2/values", Vector2(1.5, -2.25)])
	fixed.append(["Vector2/specials", Vector2(INF, NEG_ZERO)])
	fixed.append(["Vector2/rounded", Vector2(0.1, 1e10)])
	fixed.append(["Rect2/zero", Rect2()])
	fixed.append(["Rect2/values", Rect2(1, 2, 3.5, -4)])
	fixed.append(["Rect2/fractions", Rect2(0.25, 0.125, 100.5, 7.75)])
	fixed.append(["Vector3/zero", Vector3()])
	fixed.append(["Vector3/values", Vector3(1, -2, 3.5)])
	fixed.append(["Vector3/specials", Vector3(NAN, -INF, NEG_ZERO)])
	fixed.append(["Transform2D/identity", Transform2D()])
	fixed.append(["Transform2D/values", Transform2D(Vector2(1, 2), Vector2(3, 4), Vector2(5, 6))])
	fixed.append(["Transform2D/fractions", Transform2D(Vector2(0.5, -0.25), Vector2(8, 0.125), Vector2(-100, 1e-3))])
	fixed.append(["Plane/zero", Plane()])
	fixed.append(["Plane/values", Plane(0, 1, 0, 5)])
	fixed.append(["Plane/fractions", Plane(0.5, -0.25, 2, -7.5)])
	fixed.append(["Quat/identity", Quat()])
	fixed.append(["Quat/values", Quat(0.5, -0.5, 0.25, 1)])
	fixed.append(["Quat/distinct", Quat(1, 2, 3, 4)])
	fixed.append(["AABB/zero", AABB()])
	fixed.append(["AABB/values", AABB(Vector3(1, 2, 3), Vector3(4, 5, 6))])
	fixed.append(["AABB/negative", AABB(Vector3(-1.5, 0, 2), Vector3(0.25, -8, 1e5))])
	fixed.append(["Basis/identity", Basis()])
	fixed.append(["Basis/distinct", Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9))])
	fixed.append(["Basis/fractions", Basis(Vector3(0.5, -1, 0), Vector3(0.25, 2, -3), Vector3(0, 0.125, 1))])
	fixed.append(["Transform/identity", Transform()])
	fixed.append(["Transform/distinct", Transform(Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9)), Vector3(10, 11, 12))])
	fixed.append(["Transform/fractions", Transform(Vector3(0.5, 0, 0), Vector3(0, -0.25, 0), Vector3(0, 0, 2), Vector3(-1, 1e3, 0.75))])
	fixed.append(["Color/black", Color(0, 0, 0)])
	fixed.append(["Color/values", Color(0.1, 0.2, 0.3, 0.4)])
	fixed.append(["Color/hdr", Color(2.5, -1, 0.5, 1)])
	var paths = [["empty", ""], ["relative", "a/b/c"], ["absolute", "/root/Main"], ["subnames", "Node:a:b"],
			["only_subnames", ":x:y"], ["root", "/"], ["parent", "../Sibling"],
			["name_len1", "a"], ["name_len2", "ab"], ["name_len3", "abc"], ["name_len4", "abcd"], ["name_len5", "abcde"],
			["lengths_1_to_5", "a/ab/abc:abcd:abcde"], ["absolute_subnames", "/root/a:b:c"],
			["unicode", "n" + char(0xF1) + "/" + char(0x65E5) + ":" + char(0x1F600)]]
	for p in paths:
		fixed.append(["NodePath/" + p[0], NodePath(p[1])])
	fixed.append(["RID/empty", RID()])
	fixed.append(["RID/in_array", [RID(), 1]])
	fixed.append(["RID/in_dictionary", {"r": RID()}])
	fixed.append(["Dictionary/empty", {}])
	fixed.append(["Dictionary/one", {"a": 1}])
	fixed.append(["Dictionary/mixed_keys", {1: "int", "s": 2.5, Vector2(1, 2): null, null: [1], 2.5: true}])
	fixed.append(["Dictionary/nested", {"outer": {"inner": {"leaf": "x"}}, "list": [1, {"k": NodePath("a:b")}]}])
	fixed.append(["Dictionary/container_keys", {[1, 2]: "array key", {"k": 1}: "dict key"}])
	fixed.append(["Dictionary/nan_float_key", {NAN: 1}])
	fixed.append(["Dictionary/nan_in_pool_key", {PoolRealArray([NAN]): 1}])
	fixed.append(["Dictionary/nan_in_vector2_key", {Vector2(NAN, 0): 1}])
	fixed.append(["Dictionary/nan_in_array_key", {[NAN]: 1}])
	fixed.append(["Array/empty", []])
	fixed.append(["Array/ints", [1, 2, 3]])
	fixed.append(["Array/mixed", [null, true, 7, 1.5, "s", Vector2(1, 2), NodePath("x"), PoolByteArray([1])]])
	fixed.append(["Array/nested", [[[]], [[1], []], {"a": [2]}]])
	for n in range(6):
		var pba = PoolByteArray()
		for i in range(n):
			pba.append(i * 51 + 1)
		fixed.append(["PoolByteArray/len%d" % n, pba])
	fixed.append(["PoolByteArray/len9", PoolByteArray([0, 255, 128, 1, 2, 3, 4, 5, 6])])
	fixed.append(["PoolIntArray/empty", PoolIntArray()])
	fixed.append(["PoolIntArray/values", PoolIntArray([1, -1, I32_MAX, I32_MIN, 0])])
	fixed.append(["PoolIntArray/one", PoolIntArray([42])])
	fixed.append(["PoolRealArray/empty", PoolRealArray()])
	fixed.append(["PoolRealArray/values", PoolRealArray([0.5, NEG_ZERO, INF, 0.1, -3])])
	fixed.append(["PoolRealArray/nan", PoolRealArray([NAN])])
	fixed.append(["PoolStringArray/empty", PoolStringArray()])
	fixed.append(["PoolStringArray/one_empty", PoolStringArray([""])])
	fixed.append(["PoolStringArray/values", PoolStringArray(["a", "", "abc", "abcd", char(0xFC) + char(0x1F600)])])
	fixed.append(["PoolVector2Array/empty", PoolVector2Array()])
	fixed.append(["PoolVector2Array/values", PoolVector2Array([Vector2(1, 2), Vector2(-0.5, INF)])])
	fixed.append(["PoolVector2Array/one", PoolVector2Array([Vector2(0.1, 0.2)])])
	fixed.append(["PoolVector3Array/empty", PoolVector3Array()])
	fixed.append(["PoolVector3Array/values", PoolVector3Array([Vector3(1, 2, 3), Vector3(-1, 0.25, 1e6)])])
	fixed.append(["PoolVector3Array/one", PoolVector3Array([Vector3(0.1, 0.2, 0.3)])])
	fixed.append(["PoolColorArray/empty", PoolColorArray()])
	fixed.append(["PoolColorArray/values", PoolColorArray([Color(1, 0, 0), Color(0.1, 0.2, 0.3, 0.4)])])
	fixed.append(["PoolColorArray/one", PoolColorArray([Color(0.5, 0.5, 0.5, 0.5)])])
	for f in fixed:
		_value_case(f[0], "fixed", f[1])
	return true


func _sec_fixed_objects():
	var grad = Gradient.new()
	grad.add_point(0.25, Color(1, 0, 0, 1))
	_value_case("Object/full_Gradient", "fixed", grad, true)
	var curve = Curve.new()
	curve.add_point(Vector2(0, 0))
	curve.add_point(Vector2(0.5, 1), 0.5, -0.5)
	_value_case("Object/full_Curve", "fixed", curve, true)
	var sbf = StyleBoxFlat.new()
	sbf.bg_color = Color(0.25, 0.5, 0.75, 1)
	sbf.corner_radius_top_left = 4
	_value_case("Object/full_StyleBoxFlat", "fixed", sbf, true)
	var res = Resource.new()
	res.resource_name = "saved"
	_value_case("Object/full_Resource", "fixed", res, true)
	_value_case("Object/full_Reference", "fixed", Reference.new(), true)
	var eoid = EncodedObjectAsID.new()
	eoid.object_id = 1234
	_value_case("Object/full_EncodedObjectAsID", "fixed", eoid, true)
	var sp = Spatial.new()
	sp.transform = Transform(Basis(Vector3(1, 0, 0), Vector3(0, 2, 0), Vector3(0, 0, 3)), Vector3(4, 5, 6))
	sp.visible = false
	_value_case("Object/full_Spatial", "fixed", sp, true)
	var n2 = Node2D.new()
	n2.position = Vector2(10, -20)
	n2.z_index = 3
	_value_case("Object/full_Node2D", "fixed", n2, true)
	_value_case("Object/full_in_array", "fixed", [grad, null, Reference.new()], true)
	_value_case("Object/full_in_dictionary", "fixed", {"res": res, "n": 1}, true)
	# Id mode (full_objects false) writes the live instance id: check that it does, then
	# record the same bytes with a fixed id.
	var live = var2bytes(sp, false)
	var expect = _cat([_le32(T_OBJECT | FLAG_64), _le64(sp.get_instance_id())])
	if live.hex_encode() != expect.hex_encode():
		_failures.append("id-mode encoding %s, expected %s" % [live.hex_encode(), expect.hex_encode()])
	sp.free()
	n2.free()
	var idh = _le32(T_OBJECT | FLAG_64)
	for a in [false, true]:
		var sfx = "_allow_objects" if a else ""
		_crafted_fixed("Object/id_masked_4242" + sfx, _cat([idh, _le64(4242)]), a)
		_crafted_fixed("Object/id_1" + sfx, _cat([idh, _le64(1)]), a)
		_crafted_fixed("Object/id_u64_max" + sfx, _cat([idh, _le64(-1)]), a)
		_crafted_fixed("Object/id_high_bits" + sfx, _cat([idh, _le64(0x0123456789ABCDEF)]), a)
		_crafted_fixed("Object/null_id_0" + sfx, _cat([idh, _le64(0)]), a)
	_crafted_fixed("Object/null_full_empty_class", _cat([_le32(T_OBJECT), _le32(0)]), true)
	_crafted_fixed("Object/id_in_array", _cat([_le32(T_ARRAY), _le32(2), idh, _le64(7), idh, _le64(0)]), false)
	return true


# ---------------------------------------------------------------------------
# Random values.

## Random values until RANDOM_CASES distinct byte strings (repeats are skipped).
func _sec_random():
	var n = 0
	for _attempt in range(RANDOM_CASES * 2):
		if n == RANDOM_CASES:
			break
		if _value_case("random/%04d" % n, "random", _rand_value(0)):
			n += 1
	return true


func _rand_value(depth):
	var p = [0.7, 0.4, 0.25, 0.12, 0.0][depth]
	if _rng.randf() < p:
		if _rng.randi() % 2 == 0:
			var a = []
			for _i in range(_rng.randi_range(0, 4)):
				a.append(_rand_value(depth + 1))
			return a
		var d = {}
		for _i in range(_rng.randi_range(0, 3)):
			# Keys hold no NaN (see KNOWN_QUIRKS).
			_no_nan = true
			var k = _rand_value(depth + 1) if _rng.randi() % 8 == 0 else _rand_leaf()
			_no_nan = false
			d[k] = _rand_value(depth + 1)
		return d
	return _rand_leaf()


func _rand_leaf():
	var t = _rng.randi_range(0, 23)
	match t:
		0:
			return null
		1:
			return _rng.randi() % 2 == 0
		2:
			return _rand_int()
		3:
			return _rand_f64()
		4:
			return _rand_string(12)
		5:
			return Vector2(_rand_f32(), _rand_f32())
		6:
			return Rect2(_rand_f32(), _rand_f32(), _rand_f32(), _rand_f32())
		7:
			return Vector3(_rand_f32(), _rand_f32(), _rand_f32())
		8:
			return Transform2D(Vector2(_rand_f32(), _rand_f32()), Vector2(_rand_f32(), _rand_f32()), Vector2(_rand_f32(), _rand_f32()))
		9:
			return Plane(_rand_f32(), _rand_f32(), _rand_f32(), _rand_f32())
		10:
			return Quat(_rand_f32(), _rand_f32(), _rand_f32(), _rand_f32())
		11:
			return AABB(_rand_v3(), _rand_v3())
		12:
			return Basis(_rand_v3(), _rand_v3(), _rand_v3())
		13:
			return Transform(Basis(_rand_v3(), _rand_v3(), _rand_v3()), _rand_v3())
		14:
			return Color(_rand_f32(), _rand_f32(), _rand_f32(), _rand_f32())
		15:
			return _rand_node_path()
		16:
			return RID()
		17:
			var b = PoolByteArray()
			for _i in range(_rng.randi_range(0, 9)):
				b.append(_rng.randi() % 256)
			return b
		18:
			var a = PoolIntArray()
			for _i in range(_rng.randi_range(0, 5)):
				a.append(_rand_i32())
			return a
		19:
			var a = PoolRealArray()
			for _i in range(_rng.randi_range(0, 5)):
				a.append(_rand_f32())
			return a
		20:
			var a = PoolStringArray()
			for _i in range(_rng.randi_range(0, 4)):
				a.append(_rand_string(6))
			return a
		21:
			var a = PoolVector2Array()
			for _i in range(_rng.randi_range(0, 4)):
				a.append(Vector2(_rand_f32(), _rand_f32()))
			return a
		22:
			var a = PoolVector3Array()
			for _i in range(_rng.randi_range(0, 4)):
				a.append(_rand_v3())
			return a
		_:
			var a = PoolColorArray()
			for _i in range(_rng.randi_range(0, 4)):
				a.append(Color(_rand_f32(), _rand_f32(), _rand_f32(), _rand_f32()))
			return a


func _rand_v3():
	return Vector3(_rand_f32(), _rand_f32(), _rand_f32())


func _rand_i32():
	var u = _rng.randi()
	return u - 4294967296 if u >= 2147483648 else u


func _rand_int():
	var r = _rng.randi() % 20
	if r < 8:
		return _rng.randi_range(-1000, 1000)
	if r < 13:
		return _rand_i32()
	if r < 18:
		return (_rand_i32() << 32) | _rng.randi()
	return [I64_MAX, I64_MIN, I32_MAX, I32_MIN, I32_MAX + 1, I32_MIN - 1, 0][_rng.randi() % 7]


## A float that fits in f32 (any bit pattern now and then).
func _rand_f32():
	var x = _rand_f32_any()
	while _no_nan and is_nan(x):
		x = _rand_f32_any()
	return x


func _rand_f32_any():
	var r = _rng.randi() % 20
	if r < 14:
		return _rng.randi_range(-4096, 4096) / 16.0
	if r < 17:
		return _f32(_rng.randi())
	return [0.0, NEG_ZERO, 1.0, -1.0, INF, -INF, NAN, _f32(0x7F7FFFFF), _f32(1)][_rng.randi() % 9]


func _rand_f64():
	var x = _rand_f64_any()
	while _no_nan and is_nan(x):
		x = _rand_f64_any()
	return x


func _rand_f64_any():
	var r = _rng.randi() % 20
	if r < 8:
		return _rng.randi_range(-100000, 100000) / 64.0
	if r < 12:
		return _f32(_rng.randi())
	if r < 17:
		return _f64(_rng.randi(), _rng.randi())
	return [0.1, NEG_ZERO, INF, -INF, NAN, 1e300, _f64(0, 1), 0.0][_rng.randi() % 8]


## Random text: ASCII, Latin-1, Greek/Cyrillic, CJK, supplementary planes (4-byte UTF-8).
## No NUL, no surrogates, no U+FEFF (a leading BOM is stripped on decode).
func _rand_string(maxlen):
	var s = ""
	for _i in range(_rng.randi_range(0, maxlen)):
		var r = _rng.randi() % 10
		var c
		if r < 5:
			c = _rng.randi_range(32, 126)
		elif r < 6:
			c = _rng.randi_range(0xA0, 0x24F)
		elif r < 7:
			c = _rng.randi_range(0x391, 0x44F)
		elif r < 8:
			c = _rng.randi_range(0x4E00, 0x9FFF)
		elif r < 9:
			c = _rng.randi_range(0x1F300, 0x1F64F)
		else:
			c = _rng.randi_range(0x10000, 0x10FFFF)
		s += char(c)
	return s


func _rand_node_path():
	var alphabet = "abcxyzABCXYZ_0189" + char(0xE9) + char(0xFC) + char(0x65E5) + char(0x1F600)
	var absolute = _rng.randi() % 4 == 0
	var nn = _rng.randi_range(0, 3)
	var ns = _rng.randi_range(0, 2)
	if absolute and nn == 0:
		nn = 1 # "/" alone decodes as the empty path (fixed case NodePath/root)
	var names = PoolStringArray()
	for _i in range(nn + ns):
		var name = ""
		for _j in range(_rng.randi_range(1, 6)):
			name += alphabet[_rng.randi() % alphabet.length()]
		names.append(name)
	var s = "/" if absolute else ""
	for i in range(nn):
		s += ("/" if i > 0 else "") + names[i]
	for i in range(ns):
		s += ":" + names[nn + i]
	return NodePath(s)


# ---------------------------------------------------------------------------
# Mutations of the fixed and random cases' bytes.

func _mut(base, label, bytes, allow = null):
	_case(base[0] + "/" + label, "mutation", bytes, base[2] if allow == null else allow)


## The offset of the length/count word after the header, or -1.
func _count_offset(b):
	var h = _u32(b, 0)
	var t = h & 0xFF
	if t == 4 or t == T_NODE_PATH or (t >= T_DICTIONARY and t <= 26) or (t == T_OBJECT and not (h & FLAG_64)):
		return 4 if b.size() >= 8 else -1
	return -1


func _sec_mutations():
	var first_of_type = {}
	for base in _fixed_bases:
		var b = base[1]
		var n = b.size()
		var t = _u32(b, 0) & 0xFF
		var first = not first_of_type.has(_category(base[0]))
		first_of_type[_category(base[0])] = true
		# Truncations: every one of short cases, a selection of long ones.
		var cuts = range(n) if n <= 64 else [0, 1, 2, 3, 4, 5, 7, 8, 11, 12, 16, n / 2, n - 5, n - 4, n - 3, n - 1]
		for c in cuts:
			_mut(base, "trunc_%d" % c, _slice(b, 0, c))
		# Header: other type ids (all for the first case of each type, three for the rest)
		# and flag bits.
		var types = range(31) if first else [_rng.randi_range(0, 30), _rng.randi_range(0, 30), _rng.randi_range(0, 30)]
		for nt in types:
			if nt != t:
				_mut(base, "type_%d" % nt, _set32(b, 0, (_u32(b, 0) & ~0xFF) | nt))
		var flags = [FLAG_64, 0x80000000, 0x20000, 0x100, 0x1000000] if first else [FLAG_64, 0x80000000]
		for f in flags:
			if not (_u32(b, 0) & f):
				_mut(base, "header_or_0x%x" % f, _set32(b, 0, _u32(b, 0) | f))
		if _u32(b, 0) & FLAG_64:
			_mut(base, "header_clear_flag64", _set32(b, 0, _u32(b, 0) & ~FLAG_64))
		# The length/count word.
		var co = _count_offset(b)
		if co >= 0:
			var w = _u32(b, co)
			for nw in [0, 0x7FFFFFFF, 0xFFFFFFFF, 0x80000000 | w, w ^ 0x80000000, w + 1, w - 1, 0x40000000]:
				if nw != w and nw >= 0:
					_mut(base, "count_0x%x" % nw, _set32(b, co, nw))
		if t == T_NODE_PATH and n >= 16:
			for sw in [1, 0xFFFFFFFF, _u32(b, 8) + 1]:
				_mut(base, "subnames_0x%x" % sw, _set32(b, 8, sw))
			for fw in [1, 2, 3, 0xFFFFFFFC]:
				if fw != _u32(b, 12):
					_mut(base, "np_flags_0x%x" % fw, _set32(b, 12, fw))
		# Trailing bytes, random single-byte changes, the other object mode.
		_mut(base, "append_00000000", _cat([b, _le32(0)]))
		if first:
			_mut(base, "append_ff", _cat([b, PoolByteArray([255])]))
		for _k in range(2):
			if n > 4:
				var pos = _rng.randi_range(4, n - 1)
				var m = b
				m[pos] = (m[pos] + _rng.randi_range(1, 255)) % 256
				_mut(base, "byte_%d_0x%02x" % [pos, m[pos]], m)
		if base[2]:
			_mut(base, "no_allow_objects", b, false)
	# One mutation of each random case, more for the first few hundred.
	for i in range(_random_bases.size()):
		var base = _random_bases[i]
		for _k in range(2 if i < 300 else 1):
			_random_mutation(base)
	return true


func _random_mutation(base):
	var b = base[1]
	var n = b.size()
	var r = _rng.randi() % 20
	if r < 9 and n > 4:
		var pos = _rng.randi_range(0, n - 1)
		var m = b
		m[pos] = (m[pos] + _rng.randi_range(1, 255)) % 256
		_mut(base, "byte_%d_0x%02x" % [pos, m[pos]], m)
	elif r < 13:
		var c = _rng.randi_range(0, n - 1)
		_mut(base, "trunc_%d" % c, _slice(b, 0, c))
	elif r < 16 and n >= 8:
		var o = 4 * _rng.randi_range(0, n / 4 - 1)
		var w = [0, 0x7FFFFFFF, 0xFFFFFFFF, 0x80000000 | _rng.randi_range(0, 8), _rng.randi()][_rng.randi() % 5]
		_mut(base, "word_%d_0x%x" % [o, w], _set32(b, o, w))
	elif r < 18:
		var nt = _rng.randi_range(0, 30)
		_mut(base, "type_%d" % nt, _set32(b, 0, (_u32(b, 0) & ~0xFF) | nt))
	else:
		var extra = PoolByteArray()
		for _i in range(_rng.randi_range(1, 8)):
			extra.append(_rng.randi() % 256)
		_mut(base, "append_" + extra.hex_encode(), _cat([b, extra]))


# ---------------------------------------------------------------------------
# Crafted inputs (kind "mutation", names "crafted/..."): depth, UTF-8, odd encodings.

func _crafted(label, bytes, allow = false):
	_case("crafted/" + label, "mutation", bytes, allow)


func _str_bytes(raw):
	return _cat([_le32(4), _le32(raw.size()), raw, _zeros(_pad(raw.size()))])


func _zeros(n):
	var z = PoolByteArray()
	for _i in range(n):
		z.append(0)
	return z


func _sec_crafted():
	# Nesting depth: 3.6.2 rejects a container deeper than 1024 below the top; 3.2.3 has no
	# limit.
	for depth in [1024, 1025, 1026, 1100]:
		var b = PoolByteArray()
		for _i in range(depth - 1):
			b.append_array(_cat([_le32(T_ARRAY), _le32(1)]))
		b.append_array(_cat([_le32(T_ARRAY), _le32(0)]))
		_crafted("Array/nested_%d_levels" % depth, b)
		var d = PoolByteArray()
		for _i in range(depth - 1):
			d.append_array(_cat([_le32(T_DICTIONARY), _le32(1), _le32(0)]))
		d.append_array(_cat([_le32(T_DICTIONARY), _le32(0)]))
		_crafted("Dictionary/nested_values_%d_levels" % depth, d)
	# UTF-8 the decoder accepts or refuses.
	var utf8 = [["bom_abc", "efbbbf616263"], ["bom_twice", "efbbbfefbbbf61"], ["nul_inside", "610062"],
			["nul_then_invalid", "6100ff"], ["surrogate_d800", "eda080"], ["five_byte", "f888808080"],
			["six_byte", "fc8480808080"], ["above_10ffff", "f4908080"], ["max_10ffff", "f48fbfbf"],
			["overlong_c0_80", "c080"], ["overlong_e0_80_80", "e08080"], ["overlong_f0_80_80_80", "f0808080"],
			["lone_continuation", "80"], ["truncated_e6_97", "e697"], ["byte_ff", "ff"], ["byte_fe", "fe"],
			["cr_lf", "610d0a"]]
	for u in utf8:
		_crafted("String/" + u[0], _str_bytes(_unhex(u[1])))
	_crafted("String/nonzero_padding", _unhex("04000000" + "01000000" + "61ffffff"))
	_crafted("String/len_one_less", _unhex("04000000" + "03000000" + "61626364"))
	# NodePath: old format, obsolete property flag, absolute with no names, padding.
	_crafted("NodePath/old_format", _unhex("0f000000" + "01000000" + "61000000"))
	_crafted("NodePath/flag2_property", _unhex("0f000000" + "01000080" + "00000000" + "02000000"
			+ "01000000" + "61000000" + "01000000" + "62000000"))
	_crafted("NodePath/absolute_no_names", _unhex("0f000000" + "00000080" + "00000000" + "01000000"))
	_crafted("NodePath/flags_high_bits", _unhex("0f000000" + "01000080" + "00000000" + "fcffffff" + "01000000" + "61000000"))
	_crafted("NodePath/nonzero_padding", _unhex("0f000000" + "01000080" + "00000000" + "00000000" + "01000000" + "617a7a7a"))
	# Counts and flags.
	_crafted("PoolStringArray/count_neg1", _unhex("17000000" + "ffffffff"))
	_crafted("PoolStringArray/no_nul", _unhex("17000000" + "01000000" + "01000000" + "61000000"))
	_crafted("PoolByteArray/missing_padding", _unhex("14000000" + "01000000" + "01"))
	_crafted("PoolByteArray/nonzero_padding", _unhex("14000000" + "01000000" + "01ffffff"))
	_crafted("Array/count_high_bit", _unhex("13000000" + "01000080" + "02000000" + "07000000"))
	_crafted("Dictionary/count_high_bit", _unhex("12000000" + "01000080" + "04000000" + "01000000" + "61000000"
			+ "02000000" + "07000000"))
	_crafted("Dictionary/duplicate_keys", _unhex("12000000" + "02000000" + "02000000" + "01000000" + "02000000"
			+ "0a000000" + "02000000" + "01000000" + "02000000" + "0b000000"))
	_crafted("bool/value_2", _unhex("01000000" + "02000000"))
	_crafted("int/wide_small", _unhex("02000100" + "07000000" + "00000000"))
	_crafted("float/wide_f32_exact", _unhex("03000100" + "00000000" + "0000f03f"))
	_crafted("float/f32_snan", _unhex("03000000" + "0100807f"))
	_crafted("Vector2/snan_component", _unhex("05000000" + "0100807f" + "00000000"))
	_crafted("PoolRealArray/snan_element", _unhex("16000000" + "01000000" + "0100807f"))
	_crafted("RID/with_payload", _unhex("10000000" + "01000000"))
	# Objects.
	var cls = _cat([_le32(T_OBJECT), _le32(11), "NoSuchClass".to_utf8(), _zeros(1), _le32(0)])
	_crafted("Object/unknown_class", cls, true)
	_crafted("Object/abstract_class", _cat([_le32(T_OBJECT), _le32(7), "Texture".to_utf8(), _zeros(1), _le32(0)]), true)
	_crafted("Object/reference_no_props", _cat([_le32(T_OBJECT), _le32(9), "Reference".to_utf8(), _zeros(3), _le32(0)]), true)
	_crafted("Object/reference_negative_count", _cat([_le32(T_OBJECT), _le32(9), "Reference".to_utf8(), _zeros(3), _le32(0xFFFFFFFF)]), true)
	_crafted("Object/resource_unknown_prop", _cat([_le32(T_OBJECT), _le32(8), "Resource".to_utf8(), _le32(1),
			_le32(5), "bogus".to_utf8(), _zeros(3), _le32(2), _le32(1)]), true)
	_crafted("Object/resource_name_wrong_type", _cat([_le32(T_OBJECT), _le32(8), "Resource".to_utf8(), _le32(1),
			_le32(13), "resource_name".to_utf8(), _zeros(3), _le32(2), _le32(1)]), true)
	_crafted("Object/spatial_no_props", _cat([_le32(T_OBJECT), _le32(7), "Spatial".to_utf8(), _zeros(1), _le32(0)]), true)
	_crafted("Object/full_without_allow", _cat([_le32(T_OBJECT), _le32(9), "Reference".to_utf8(), _zeros(3), _le32(0)]), false)
	_crafted("Object/id_truncated", _unhex("1100010001000000"))
	return true


## The text before the first "/" of a case name.
func _category(name):
	return name.split("/")[0]
