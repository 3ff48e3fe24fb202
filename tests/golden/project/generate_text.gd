extends SceneTree
## The var_to_str corpus: values written by the engine with FileAccess.store_var, and the
## text var_to_str gives for what bytes_to_var makes of each; plus that text for every
## golden vector (../godot4.json) the engine accepts without objects. The CLI's `inspect`
## must print exactly these texts (rust/godot-variant-cli/tests/corpus.rs).
##
##   godot --headless --path tests/golden/project --script res://generate_text.gd -- \
##       --golden=/abs/tests/golden/godot4.json --out-dir=/abs/tests/golden/text
##
## Writes OUT_DIR/values.bin (the store_var file), OUT_DIR/values.json (one line a value:
## {"offset", "size", "type", "text"}, offset being the value's first byte after its length
## prefix) and OUT_DIR/golden_texts.json ({"case name": text}, one line a case). Exit code
## 0 on success, 2 for a bad invocation, 1 on any failure (nothing is then written).
## Deterministic: fixed-seed RNG, no instance ids in any value.

var _rng := RandomNumberGenerator.new()


func _init() -> void:
	var args := {}
	for arg in OS.get_cmdline_user_args():
		var parts := arg.trim_prefix("--").split("=", true, 1)
		args[parts[0]] = parts[1] if parts.size() > 1 else ""
	if not args.has("golden") or not args.has("out-dir"):
		printerr("usage: generate_text.gd -- --golden=PATH --out-dir=DIR")
		quit(2)
		return
	_rng.seed = 20240611
	var values := curated_values()
	var bin := PackedByteArray()
	var lines := PackedStringArray()
	for v in values:
		var bytes := var_to_bytes(v)
		var offset := bin.size() + 4
		var frame := PackedByteArray()
		frame.resize(4)
		frame.encode_u32(0, bytes.size())
		bin.append_array(frame)
		bin.append_array(bytes)
		var decoded = bytes_to_var(bytes)
		lines.append('{"offset":%d,"size":%d,"type":%s,"text":%s}' % [
			offset, bytes.size(), _json(type_string(typeof(decoded))), _json(var_to_str(decoded))])
	var golden := _golden_texts(args["golden"])
	if golden.is_empty():
		quit(1)
		return
	var dir: String = args["out-dir"]
	DirAccess.make_dir_recursive_absolute(dir)
	# The values through FileAccess.store_var itself: its file must be the frames above.
	var f := FileAccess.open(dir.path_join("values.bin"), FileAccess.WRITE)
	if f == null:
		printerr("generate_text.gd: cannot write to ", dir)
		quit(1)
		return
	for v in values:
		f.store_var(v)
	f.close()
	if FileAccess.get_file_as_bytes(dir.path_join("values.bin")) != bin:
		printerr("generate_text.gd: store_var wrote other bytes than var_to_bytes framed")
		quit(1)
		return
	_write_lines(dir.path_join("values.json"), lines)
	_write_lines(dir.path_join("golden_texts.json"), golden)
	print("generate_text.gd: %d values, %d golden cases" % [values.size(), golden.size()])
	quit(0)


func _write_lines(path: String, lines: PackedStringArray) -> void:
	var f := FileAccess.open(path, FileAccess.WRITE)
	f.store_string("\n".join(lines) + "\n")
	f.close()


## {"name": text} lines for the accepted golden cases without objects.
func _golden_texts(path: String) -> PackedStringArray:
	var json = JSON.parse_string(FileAccess.get_file_as_string(path))
	var lines := PackedStringArray()
	if json == null:
		printerr("generate_text.gd: cannot read ", path)
		return lines
	for case in json["cases"]:
		if case["allow_objects"] or not case["accepted"]:
			continue
		var value = bytes_to_var(String(case["bytes"]).hex_decode())
		lines.append("{%s:%s}" % [_json(case["name"]), _json(var_to_str(value))])
	return lines


## A JSON string of `text` (JSON.stringify writes C escapes such as \v and \' that JSON
## does not have).
func _json(text: String) -> String:
	var out := "\""
	for c in text:
		var code := c.unicode_at(0)
		if c == "\"" or c == "\\":
			out += "\\" + c
		elif code < 0x20:
			out += "\\u%04x" % code
		else:
			out += c
	return out + "\""


func _f64_from_bits(lo: int, hi: int) -> float:
	var b := PackedByteArray()
	b.resize(8)
	b.encode_u32(0, lo)
	b.encode_u32(4, hi)
	return b.decode_double(0)


func _f32_from_bits(bits: int) -> float:
	var b := PackedByteArray()
	b.resize(4)
	b.encode_u32(0, bits)
	return b.decode_float(0)


## Numbers of every magnitude: powers of ten and their neighbours, random bit patterns of
## doubles and of floats, f32-exact and not.
func _numbers() -> Array:
	var out := [0.0, -0.0, 1.0, -1.0, 0.5, 0.1, 0.2, 0.3, 1.0 / 3.0, 2.0 / 3.0, 100.0, 1e15,
		1e16, 1e14, 999999999999999.0, 1e-4, 1e-5, 1.5e-4, 123456.789, 16777217.0,
		9007199254740993.0, INF, -INF, NAN, 1.7976931348623157e308, 5e-324,
		2.2250738585072014e-308, 3.4028234663852886e38, 1.401298464324817e-45]
	var p := 1.0
	for i in 25:
		out.append(p)
		out.append(-p * 3.0)
		out.append(1.0 / p)
		p *= 10.0
	for i in 120:
		# Finite doubles of any exponent.
		var hi := _rng.randi() & 0x7FEFFFFF
		out.append(_f64_from_bits(_rng.randi(), hi | (0x80000000 if i % 2 else 0)))
	for i in 120:
		out.append(_f32_from_bits(_rng.randi() & 0x7F7FFFFF))
	for i in 60:
		out.append(float(_rng.randi_range(-1000000, 1000000)) / float(_rng.randi_range(1, 1000)))
	return out


func curated_values() -> Array:
	var nums := _numbers()
	var values: Array = [null, true, false, 0, 1, -1, 2147483647, -2147483648, 2147483648,
		9223372036854775807, -9223372036854775808]
	values.append_array(nums)
	for i in range(0, nums.size() - 4, 4):
		var a: float = nums[i]
		var b: float = nums[i + 1]
		var c: float = nums[i + 2]
		var d: float = nums[i + 3]
		values.append_array([Vector2(a, b), Vector3(a, b, c), Vector4(a, b, c, d),
			Rect2(a, b, c, d), Plane(a, b, c, d), Quaternion(a, b, c, d), Color(a, b, c, d)])
	values.append_array([
		"", "plain", "a\"b\\c\nd\te\r\u0007\u0008\u000b\u000c'?end", "ünïcødé 🎮 \u00a0", "\u0001\u001f",
		&"", &"name", &"a\"b\\c\nd\te'?", NodePath(""), NodePath("/"), NodePath("a/b:c:d"),
		NodePath("/root/x\"y'z?:p\nq"), Vector2i(1, -2), Vector3i(-2147483648, 0, 2147483647),
		Vector4i(1, 2, 3, 4), Rect2i(-1, -2, 3, 4),
		Transform2D(Vector2(1.5, 0.1), Vector2(-2, 1e20), Vector2(3, 4)),
		Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 0.1)),
		Transform3D(Basis(Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0.5, 1)), Vector3(1e-7, 2, 3)),
		Projection(Vector4(1, 2, 3, 4), Vector4(5, 6, 7, 8), Vector4(9, 10, 11, 12), Vector4(13, 14, 15, 0.1)),
		AABB(Vector3(0.1, 0.2, 0.3), Vector3(1e10, 2, 3)), RID(), rid_from_int64(1), rid_from_int64(123456789012),
		rid_from_int64(-5), Callable(), Signal(),
		bytes_to_var(PackedByteArray([24, 0, 1, 0, 5, 0, 0, 0, 0, 0, 0, 0])),
		bytes_to_var(PackedByteArray([24, 0, 1, 0, 255, 255, 255, 255, 255, 255, 255, 255])),
		[], {}, [[]], [{}], {"a": {}}, [1, [2, [3, [4]]], "x", null, 1.5, Vector2(1, 2)],
		PackedByteArray(), PackedByteArray([0, 1, 127, 128, 255]), PackedInt32Array([1, -2147483648]),
		PackedInt64Array([9223372036854775807, -1]), PackedFloat32Array([0.1, -0.0, INF, NAN, 1e-40]),
		PackedFloat64Array([0.1, -0.0, -INF, 1e300, 5e-324]), PackedStringArray(["", "a\"\n'?", "é"]),
		PackedVector2Array([Vector2(0.1, 2), Vector2(-INF, 1e-5)]), PackedVector3Array([Vector3(1, 2, 3)]),
		PackedColorArray([Color(0.1, 0.2, 0.3, 0.4)]), PackedVector4Array([Vector4(1, 2, 3, 0.5)]),
	])
	# Typed containers.
	var ints: Array[int] = [3, 1, 2]
	var strings: Array[String] = ["b", "a"]
	var nodes: Array[Node] = []
	var vectors: Array[Vector2] = [Vector2(1, 2)]
	var d1: Dictionary[String, int] = {"b": 2, "a": 1}
	var d2: Dictionary[int, Variant] = {2: "x", 1: null}
	var d3: Dictionary[Variant, float] = {"k": 1.5, 3: 2.0}
	var d4: Dictionary[StringName, Array] = {&"n": [1]}
	values.append_array([ints, strings, nodes, vectors, d1, d2, d3, d4])
	# Dictionary key order: every kind of key, mixed, more than 16 (the engine's sort
	# partitions beyond 16) and keys without an order of their own.
	var mixed := {}
	var keys: Array = [3, "b", &"a", 1.5, Vector2(1, 2), Vector2(1, 1), Vector2i(0, 5), true, false,
		null, Color(1, 0, 0), Color(0, 1, 0), [1, 2], [1], [0, 9], {"x": 1}, {"y": 2}, NodePath("p"),
		NodePath("o"), Rect2(1, 2, 3, 4), Rect2(0, 0, 1, 1), -7, 2.5, NAN, "A", "a", &"B", Vector3(1, 2, 3),
		Vector3(1, 2, 2), rid_from_int64(7), rid_from_int64(3), PackedByteArray([1]), Plane(1, 2, 3, 4),
		Quaternion(1, 0, 0, 0), Vector4i(1, 2, 3, 4), Vector4i(1, 2, 3, 3), 10, "é", "z"]
	for i in keys.size():
		mixed[keys[i]] = i
	values.append(mixed)
	var reversed := {}
	for i in range(keys.size() - 1, -1, -1):
		reversed[keys[i]] = i
	values.append(reversed)
	for n in [5, 16, 17, 40, 200]:
		var incomparable := {}
		var colors := {}
		for i in n:
			incomparable[{"k": (i * 37) % n}] = i
			colors[Color(float((i * 13) % n) / n, 0, 0)] = i
		values.append_array([incomparable, colors])
		var numbers := {}
		for i in n:
			numbers[_rng.randi_range(-1000, 1000) if i % 3 else str(_rng.randi_range(0, 99))] = i
		values.append(numbers)
	# Nesting around the text writer's recursion limit.
	for depth in [99, 100, 101, 102, 150]:
		var a = [1]
		var d = {"leaf": 1}
		for i in depth:
			a = [a]
			d = {"k": d}
		values.append_array([a, d])
	return values
