## FastVariantCodec against the engine on curated values: every Variant type with its edge
## values, typed containers, objects in both modes, hand-made and cut-short bytes, the
## error API, batches, streams and threads.
extends "res://test_runner/test_suite.gd"

signal curated_signal

const StoredResource := preload("res://fixtures/stored_resource.gd")
const MAX_DEPTH := 1024
const BOM := "\uFEFF"

## Objects the tests made and must free (Nodes are not reference-counted).
var _nodes: Array[Node] = []


# --- The values --------------------------------------------------------------------------

## Every type, with edge values. Objects appear as they do in games: live, freed, scripted.
func curated_values() -> Array:
	return builtin_values() + container_values() + object_values()


## The values without objects, for threads (only the calling thread should touch objects).
func plain_values() -> Array:
	return builtin_values() + container_values()


func builtin_values() -> Array:
	var values := []
	values.append_array([null, true, false])
	values.append_array([0, 1, -1, 255, 2147483647, 2147483648, -2147483648, -2147483649,
			9223372036854775807, -9223372036854775807 - 1])
	values.append_array([0.0, -0.0, 1.5, 0.1, 1.0 / 3.0, INF, -INF, NAN, 1e308, 5e-324,
			3.4028234663852886e38, 1.401298464324817e-45, 16777217.0,
			double_from_le([0x01, 0, 0, 0, 0, 0, 0xf0, 0x7f]),  # signalling NaN
			double_from_le([0x23, 0x01, 0, 0, 0, 0, 0xf8, 0xff])])  # NaN with a payload
	values.append_array(["", "a", "ab", "abc", "abcd", "abcde", "héllo wörld", "日本語テキスト",
			"😀 emoji", "line\nbreak\ttab\u0001", "x".repeat(1000)])
	values.append_array([Vector2(1.5, -2.25), Vector2(NAN, INF), Vector2(0.1, 1e30),
			Vector2i(-2147483648, 2147483647), Rect2(1, 2, 3, 4), Rect2(-0.0, NAN, INF, 0.1),
			Rect2i(1, -2, 3, -4), Vector3(0.1, 0.2, 0.3), Vector3(-INF, 0, 1e-40),
			Vector3i(-1, 0, 1), Transform2D(0.5, Vector2(2, 3), 0.25, Vector2(-1, 7)),
			Transform2D.IDENTITY, Vector4(1, 2, 3, 4), Vector4(NAN, -0.0, 1e-45, 3e38),
			Vector4i(-5, 6, -7, 8), Plane(1, 2, 3, 4), Plane(Vector3(0, 0, 1), -2.5),
			Quaternion(1, 2, 3, 4), Quaternion.IDENTITY, AABB(Vector3(1, 2, 3), Vector3(-4, 5, 6)),
			Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9)), Basis.IDENTITY,
			Transform3D(Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9)), Vector3(10, 11, 12)),
			Projection(Vector4(1, 2, 3, 4), Vector4(5, 6, 7, 8), Vector4(9, 10, 11, 12),
					Vector4(13, 14, 15, 16)), Projection.IDENTITY,
			Color(0.1, 0.2, 0.3, 0.4), Color(NAN, -1, 2, INF), Color.TRANSPARENT])
	values.append_array([&"", &"name", &"ünïcode", NodePath(""), NodePath("a"), NodePath("a/b/c"),
			NodePath("/root/Main"), NodePath("a/b:c:d"), NodePath(":prop"), NodePath("../x/./y"),
			NodePath("/"), NodePath("/root:position:x")])
	values.append_array([RID(), rid_with_id(12345), rid_with_id(-1)])
	values.append_array([Callable(), Callable(self, "curated_values"), func() -> int: return 1,
			Signal(), Signal(self, "curated_signal"), curated_signal])
	values.append_array([PackedByteArray(), PackedByteArray([1]), PackedByteArray([1, 2]),
			PackedByteArray([1, 2, 3]), PackedByteArray([1, 2, 3, 4]), PackedByteArray([0, 255, 128, 7, 9]),
			PackedInt32Array(), PackedInt32Array([-2147483648, 0, 2147483647]),
			PackedInt64Array([-9223372036854775807 - 1, 0, 9223372036854775807]),
			PackedFloat32Array([0.1, -0.0, NAN, INF, 1e-45]), PackedFloat64Array([0.1, -0.0, NAN, -INF, 5e-324]),
			PackedStringArray(), PackedStringArray(["", "a", "héllo", "日本", "abcd"]),
			PackedVector2Array([Vector2(1, 2), Vector2(NAN, -0.0)]), PackedVector3Array([Vector3(1, 2, 3)]),
			PackedColorArray([Color(0.1, 0.2, 0.3, 0.4), Color.RED]),
			PackedVector4Array([Vector4(1, 2, 3, 4), Vector4(-0.0, NAN, INF, 0.1)]),
			PackedVector2Array(), PackedVector3Array(), PackedColorArray(), PackedVector4Array()])
	return values


func container_values() -> Array:
	var ints: Array[int] = [1, -2, 2147483648]
	var strings: Array[String] = ["a", "", "héllo"]
	var names: Array[StringName] = [&"x", &"y"]
	var vectors: Array[Vector3] = [Vector3(1, 2, 3)]
	var arrays: Array[Array] = [[1], [], ["x", [2]]]
	var dictionaries: Array[Dictionary] = [{}, {"a": 1}]
	var packed: Array[PackedByteArray] = [PackedByteArray([1, 2, 3])]
	var floats: Array[float] = []
	var typed_dictionary: Dictionary[String, int] = {"one": 1, "two": 2}
	var vector_keys: Dictionary[Vector2i, Array] = {Vector2i(1, 2): [3], Vector2i(): []}
	var variant_values: Dictionary[int, Variant] = {1: "a", 2: [null], 3: 4.5}
	var variant_keys: Dictionary[Variant, float] = {"a": 1.5, 2: -0.0, Vector2(): NAN}
	return [[], {}, [1, "a", null, [2, [3, []]], {"k": "v"}], ints, strings, names, vectors,
			arrays, dictionaries, packed, floats,
			{"a": [1, {"b": [Vector2(1, 2)]}], 5: null, Vector3(): &"x", [1]: {}, null: 0},
			typed_dictionary, vector_keys, variant_values, variant_keys,
			Array([], TYPE_NIL, &"", null), look_alike_keys()]


## Keys that are equal or nearly so: int and float stay apart, String and StringName not.
func look_alike_keys() -> Dictionary:
	var keys := {}
	keys[1] = 1
	keys[1.0] = 2
	keys["1"] = 3
	keys[&"1"] = 4
	return keys


## Objects and containers of objects, as live instances (written as ids or whole).
func object_values() -> Array:
	var node := Node.new()
	node.name = "Curated"
	_nodes.append(node)
	var freed := Node.new()
	freed.free()
	var stored := StoredResource.new()
	stored.count = -3
	stored.child = StoredResource.new()
	stored.numbers.append(4)
	var placeholder := EncodedObjectAsID.new()
	placeholder.object_id = 4242
	var objects: Array[Object] = [RefCounted.new(), null, stored]
	var nodes: Array[Node] = [node]
	var resources: Array[Resource] = [stored, Resource.new()]
	var scripted := Array([stored], TYPE_OBJECT, &"Resource", StoredResource)
	var node_values: Dictionary[StringName, Node] = {&"main": node}
	var scripted_values := Dictionary({"s": stored}, TYPE_STRING, &"", null,
			TYPE_OBJECT, &"Resource", StoredResource)
	var scripted_keys := Dictionary({stored: 1}, TYPE_OBJECT, &"Resource", StoredResource,
			TYPE_INT, &"", null)
	return [RefCounted.new(), node, freed, stored, placeholder, Resource.new(), objects, nodes,
			resources, scripted, node_values, scripted_values, scripted_keys, [freed, node, null],
			{node: freed}]


# --- Parity ------------------------------------------------------------------------------

func test_encode_matches_var_to_bytes() -> void:
	var codec := FastVariantCodec.new()
	for value in curated_values():
		var expected := var_to_bytes(value)
		assert_eq(codec.encode(value), expected, "encode(%s)" % _show(value))
		assert_eq(codec.get_error(), OK, "get_error() after encode(%s)" % _show(value))
		assert_eq(codec.encoded_size(value), expected.size(), "encoded_size(%s)" % _show(value))
	free_nodes()


func test_decode_matches_bytes_to_var() -> void:
	var codec := FastVariantCodec.new()
	var untyped: Variant = codec
	for value in curated_values():
		var bytes := var_to_bytes(value)
		assert_same(codec.decode(bytes), bytes_to_var(bytes), "decode(var_to_bytes(%s))" % _show(value))
		assert_eq(codec.get_error(), OK, "get_error() after decoding %s" % _show(value))
		assert_eq(codec.get_decoded_size(), bytes.size(), "get_decoded_size() for %s" % _show(value))
		# Every argument given and typed: the engine's ptrcall; through an untyped
		# variable: its varcall by name.
		assert_same(codec.decode(bytes, 0), bytes_to_var(bytes), "decode(bytes, 0) of %s" % _show(value))
		assert_same(untyped.decode(bytes), bytes_to_var(bytes), "untyped decode of %s" % _show(value))
		assert_eq(untyped.encode(value), bytes, "untyped encode of %s" % _show(value))
	free_nodes()


## Decoded Strings and PackedStringArray elements, changed afterwards, behave as the
## engine's: a String's length, characters and growth depend on its buffer's size word.
func test_decoded_strings_change_like_the_engines() -> void:
	var codec := FastVariantCodec.new()
	var texts := ["", "a", "plain ascii", "é", "héllo wörld", "日本語テキスト", "😀 emoji 😀",
			BOM + "bom first", "x".repeat(64), "é".repeat(32), "é".repeat(33), "日".repeat(100),
			"y".repeat(300) + "€", "mixed ascii then ü at the end of a long text: " + "z".repeat(40) + "ü"]
	# ASCII texts of every length a short text's buffer is made for at once, and past it.
	for length in range(1, 36):
		texts.append("abcdefghijklmnopqrstuvwxyz0123456789".left(length))
	var changes := {
		"length": func(s: String) -> Variant: return s.length(),
		"append": func(s: String) -> Variant:
			var t := s
			t += "+tail€"
			return t,
		"append a character": func(s: String) -> Variant:
			var t := s
			t += "!"
			return t,
		"set a character": func(s: String) -> Variant:
			var t := s
			if not t.is_empty():
				t[t.length() - 1] = "Q"
			return t,
		"substr": func(s: String) -> Variant: return s.substr(1, 5),
		"utf-8 bytes": func(s: String) -> Variant: return s.to_utf8_buffer(),
		"erase": func(s: String) -> Variant:
			var t := s
			return t.erase(0, 2),
		"insert": func(s: String) -> Variant: return s.insert(mini(2, s.length()), "ins日"),
		"repeat": func(s: String) -> Variant: return s.repeat(3),
		"hash": func(s: String) -> Variant: return s.hash(),
		"as a key": func(s: String) -> Variant: return {s: 1}.has(s + ""),
	}
	for text in texts:
		var as_string := var_to_bytes(text)
		var as_array := var_to_bytes(PackedStringArray([text, "next", text]))
		var decoded: Array[String] = [codec.decode(as_string)]
		decoded.append_array(Array(codec.decode(as_array)).slice(0, 1))
		decoded.append(FastVariantCodec.bytes_to_var(as_string))
		var expected: String = bytes_to_var(as_string)
		for s in decoded:
			for change in changes:
				assert_eq(changes[change].call(s), changes[change].call(expected),
						"%s of a decoded %s" % [change, _show(text)])


func test_static_methods_match_the_engine() -> void:
	for value in curated_values():
		var expected := var_to_bytes(value)
		assert_eq(FastVariantCodec.var_to_bytes(value), expected, "static var_to_bytes(%s)" % _show(value))
		assert_eq(FastVariantCodec.get_last_error(), OK, "get_last_error() after var_to_bytes(%s)" % _show(value))
		# A typed argument: the engine's ptrcall; an untyped one: its varcall.
		assert_same(FastVariantCodec.bytes_to_var(expected), bytes_to_var(expected), "static bytes_to_var(var_to_bytes(%s))" % _show(value))
		assert_eq(FastVariantCodec.get_last_error(), OK, "get_last_error() after decoding %s" % _show(value))
		var untyped: Variant = expected
		assert_same(FastVariantCodec.bytes_to_var(untyped), bytes_to_var(expected), "static bytes_to_var, untyped, of %s" % _show(value))
	free_nodes()


func test_per_value_methods_refuse_wrong_arguments() -> void:
	if through_fallback():
		skip("the library's own argument checks: FastVariant's are GDScript's")
		return
	# Through callv, which returns null for a call the method refuses (a direct call would
	# stop the script): a wrong count or type never runs the method, and leaves the last
	# error as it was.
	var bytes := var_to_bytes(5)
	var codec := FastVariantCodec.new()
	var cases := {
		Callable(FastVariantCodec, "bytes_to_var"): [[], [bytes, bytes], [5], ["bytes"], [null], [[1, 2]]],
		Callable(FastVariantCodec, "var_to_bytes"): [[], [1, 2]],
		Callable(codec, "decode"): [[], [bytes, 0, 1], [5], [bytes, "0"], [bytes, 1.0], [null, 0]],
		Callable(codec, "encode"): [[], [1, 2]],
		Callable(codec, "encode_batch"): [[], [[1], [2]], [5], [PackedByteArray()], [null]],
		Callable(codec, "decode_batch"): [[], [[bytes], [bytes]], [bytes], ["x"], [null]],
	}
	FastVariantCodec.bytes_to_var(PackedByteArray([99, 0, 0, 0]))
	codec.decode(PackedByteArray([99, 0, 0, 0]))
	for method: Callable in cases:
		for args in cases[method]:
			assert_eq(method.callv(args), null, "%s with arguments %s" % [method.get_method(), args])
	assert_eq(FastVariantCodec.get_last_error(), ERR_INVALID_DATA, "the static last error is unchanged")
	assert_eq(codec.get_error(), ERR_INVALID_DATA, "the instance's last error is unchanged")
	for method: Callable in cases:
		var good: Variant = 5 if method.get_method().ends_with("bytes") or method.get_method() == "encode" else bytes
		var expected: Variant = bytes if good is int else 5
		if method.get_method().ends_with("batch"):
			good = [good] if method.get_method() == "decode_batch" else [5]
			expected = [5] if method.get_method() == "decode_batch" else [bytes]
		assert_eq(method.callv([good]), expected, "%s through callv" % method.get_method())
	# Their results through an untyped variable (a varcall), as through a typed one.
	var untyped: Variant = codec
	var packets: Array[PackedByteArray] = untyped.encode_batch([5, "x"])
	assert_eq(packets, [bytes, var_to_bytes("x")], "encode_batch through an untyped variable")
	assert_eq(untyped.decode_batch(packets), [5, "x"], "decode_batch through an untyped variable")
	assert_eq(Callable(codec, "decode").callv([var_to_bytes(7) + bytes, 8]), 5, "decode with an offset through callv")
	assert_eq(FastVariantCodec.get_last_error(), OK, "get_last_error() after a good call")
	assert_eq(codec.get_error(), OK, "get_error() after a good call")


func test_static_methods_report_errors_per_thread() -> void:
	var hello := var_to_bytes("hello")
	assert_eq(FastVariantCodec.bytes_to_var(hello.slice(0, 12)), null, "static: cut-short String")
	assert_eq(FastVariantCodec.get_last_error(), ERR_FILE_EOF, "get_last_error() for a cut-short String")
	assert_that(FastVariantCodec.get_last_error_message().ends_with("at byte 4"),
			"message: " + FastVariantCodec.get_last_error_message())
	# Another thread's calls leave this thread's error as it is, and have their own.
	var seen := []
	var thread := Thread.new()
	thread.start(func() -> void:
		seen.append(FastVariantCodec.get_last_error())
		FastVariantCodec.bytes_to_var(PackedByteArray([99, 0, 0, 0]))
		seen.append(FastVariantCodec.get_last_error()))
	thread.wait_to_finish()
	assert_eq(seen, [OK, ERR_INVALID_DATA], "a thread starts with no error and has its own")
	assert_eq(FastVariantCodec.get_last_error(), ERR_FILE_EOF, "this thread's error is unchanged")
	# The instances' errors are their own: a static call does not change them, nor they it.
	var codec := FastVariantCodec.new()
	codec.decode(PackedByteArray())
	assert_eq(FastVariantCodec.get_last_error(), ERR_FILE_EOF, "an instance's failure is not the static one")
	assert_eq(FastVariantCodec.bytes_to_var(hello), "hello", "static: a good decode")
	assert_eq(FastVariantCodec.get_last_error(), OK, "get_last_error() is reset")
	assert_eq(FastVariantCodec.get_last_error_message(), "", "get_last_error_message() is reset")
	assert_eq(codec.get_error(), ERR_INVALID_DATA, "the instance keeps its own error")
	# Encoding: a cycle fails as the engine's var_to_bytes does.
	var cycle := []
	cycle.append(cycle)
	assert_eq(codec_quietly(func() -> PackedByteArray: return FastVariantCodec.var_to_bytes(cycle)),
			PackedByteArray(), "static var_to_bytes of a cycle")
	assert_eq(FastVariantCodec.get_last_error(), ERR_OUT_OF_MEMORY, "get_last_error() for a cycle")
	cycle.clear()


func test_full_objects_match_var_to_bytes_with_objects() -> void:
	var codec := FastVariantCodec.new()
	codec.full_objects = true
	for value in curated_values():
		assert_eq(codec.encode(value), var_to_bytes_with_objects(value),
				"full_objects encode(%s)" % _show(value))
	free_nodes()


func test_allow_objects_matches_bytes_to_var_with_objects() -> void:
	var codec := FastVariantCodec.new()
	codec.allow_objects = true
	for value in curated_values():
		var bytes := var_to_bytes_with_objects(value)
		var expected = bytes_to_var_with_objects(bytes)
		var actual = codec.decode(bytes)
		assert_same(actual, expected, "allow_objects decode of %s" % _show(value))
		free_decoded_nodes([expected, actual])
	free_nodes()


func test_whole_objects_are_refused_without_allow_objects() -> void:
	var codec := FastVariantCodec.new()
	var bytes := var_to_bytes_with_objects(StoredResource.new())
	assert_eq(bytes_to_var(bytes), null, "the engine refuses")
	assert_eq(codec.decode(bytes), null, "decode refuses")
	assert_eq(codec.get_error(), ERR_UNAUTHORIZED, "get_error()")
	assert_that(codec.get_error_message().contains("at byte 0"), "message: " + codec.get_error_message())


func test_objects_the_engine_cannot_write_whole() -> void:
	var codec := FastVariantCodec.new()
	codec.full_objects = true
	# A singleton whose class cannot be instantiated.
	quietly(func() -> void: assert_eq(var_to_bytes_with_objects(Input), PackedByteArray(), "engine"))
	assert_eq(codec.encode(Input), PackedByteArray(), "encode(Input)")
	assert_eq(codec.get_error(), ERR_INVALID_PARAMETER, "get_error() for Input")
	# A script that was never saved has no res:// path to write.
	var script := GDScript.new()
	script.source_code = "extends RefCounted\nvar x := 1\n"
	script.reload()
	var instance = script.new()
	quietly(func() -> void: assert_eq(var_to_bytes_with_objects(instance), PackedByteArray(), "engine"))
	assert_eq(codec.encode(instance), PackedByteArray(), "encode(unsaved script instance)")
	assert_eq(codec.get_error(), ERR_UNAVAILABLE, "get_error() for an unsaved script")


## Bytes var_to_bytes never writes but bytes_to_var reads: null objects, instance ids,
## typed containers holding other types, duplicate keys, trailing bytes, old flags.
func test_crafted_bytes_match_bytes_to_var() -> void:
	var codec := FastVariantCodec.new()
	var cases := {
		"null object as id": u32s([24 | 1 << 16, 0, 0]),
		"object id": u32s([24 | 1 << 16, 12345, 0]),
		"object id above 2^63": u32s([24 | 1 << 16, 1, 0x80000000]),
		"full null object (empty class)": u32s([24, 0]),
		"Array[int] holding float, String, bool": u32s([28 | 1 << 16, 2, 3, 3 | 1 << 16])
				+ PackedByteArray([0, 0, 0, 0, 0, 0, 4, 64]) + u32s([4, 1]) + PackedByteArray([120, 0, 0, 0])
				+ u32s([1, 1]),
		"Array[float] holding int": u32s([28 | 1 << 16, 3, 1, 2, 7]),
		"Array typed Nil": u32s([28 | 1 << 16, 0, 1, 2, 7]),
		"Array[Object] builtin id": u32s([28 | 1 << 16, 24, 1, 24 | 1 << 16, 7, 0]),
		"Array[Node] class name": u32s([28 | 2 << 16, 4]) + PackedByteArray("Node".to_utf8_buffer())
				+ u32s([1, 24 | 1 << 16, 9, 0]),
		"Dictionary with duplicate keys": u32s([27, 2, 2, 1, 2, 2, 2, 1, 2, 3]),
		"Dictionary[int, int] with float key and String value": u32s([27 | 1 << 16 | 1 << 18, 2, 2, 1])
				+ u32s([3 | 1 << 16]) + PackedByteArray([0, 0, 0, 0, 0, 0, 0, 64]) + u32s([4, 1])
				+ PackedByteArray([120, 0, 0, 0]),
		"Array count with the old shared flag": u32s([28, 0x80000001, 2, 5]),
		"trailing bytes": u32s([2, 7, 99, 98]),
		"float 32-bit signalling NaN": u32s([3, 0x7f800001]),
		"Vector2 signalling NaN": u32s([5, 0x7f800001, 0xffc00123]),
		"NodePath with obsolete property flag": u32s([22, 0x80000001, 0, 2, 1]) + PackedByteArray([97, 0, 0, 0])
				+ u32s([1]) + PackedByteArray([98, 0, 0, 0]),
		"NodePath name with a slash": u32s([22, 0x80000001, 0, 0, 3]) + PackedByteArray([97, 47, 98, 0]),
		"Signal of an object id": u32s([26, 1, 120, 777, 0]),
		"bool other than 0 and 1": u32s([1, 2]),
		"PackedByteArray ending inside its padding": u32s([29, 2]) + PackedByteArray([1, 2]),
		# Text read from the bytes loses one leading U+FEFF (a byte order mark to the engine);
		# names made from it keep the next one, as in the engine.
		"NodePath whose first name starts with U+FEFF": u32s([22, 0x80000002, 1, 0])
				+ wire_text(BOM + BOM + "a") + wire_text("b") + wire_text("c"),
		"StringName starting with U+FEFF": u32s([21]) + wire_text(BOM + BOM + "n"),
		"Signal named with a leading U+FEFF": u32s([26]) + wire_text(BOM + BOM + "s") + u32s([7, 0]),
		"object whose class starts with U+FEFF": u32s([24]) + wire_text(BOM + BOM + "RefCounted")
				+ u32s([0]),
		"object property whose name starts with U+FEFF": u32s([24]) + wire_text("Resource")
				+ u32s([1]) + wire_text(BOM + BOM + "resource_name") + u32s([4]) + wire_text("x"),
		"Array typed by a class whose name starts with U+FEFF": u32s([28 | 2 << 16])
				+ wire_text(BOM + BOM + "Node") + u32s([0]),
	}
	for name in cases:
		var bytes: PackedByteArray = cases[name]
		var expected = quietly(func() -> Variant: return bytes_to_var(bytes))
		assert_same(codec.decode(bytes), expected, name)
		if expected != null:
			assert_eq(codec.get_error(), OK, "get_error() for " + name)
		codec.allow_objects = true
		var expected_with_objects = quietly(func() -> Variant: return bytes_to_var_with_objects(bytes))
		assert_same(codec.decode(bytes), expected_with_objects, name + " (allow_objects)")
		codec.allow_objects = false
	# Decoding then encoding gives the bytes back, NaN payloads included.
	for name in ["float 32-bit signalling NaN", "Vector2 signalling NaN"]:
		var bytes: PackedByteArray = cases[name]
		assert_eq(codec.encode(codec.decode(bytes)), var_to_bytes(bytes_to_var(bytes)), name + " round trip")


## Large PackedStringArrays, whose texts are read and made in pieces shared with other
## threads: the engine's values, and the error of the first bad text wherever the pieces
## split (a later bad text, or a text cut short after it, must not be the one reported).
func test_containers_of_large_packed_arrays() -> void:
	# A container's large packed arrays are copied from their own memory into the returned
	# bytes after the walk (without full objects), the rest from a buffer, in every encoding
	# call: every size around the threshold, odd sizes (padding), each element type, shared
	# and nested.
	var codec := FastVariantCodec.new()
	var packed := []
	for size in [0, 1, 4095, 4096, 4097, 65537, (1 << 20) + 3]:
		var bytes := PackedByteArray()
		bytes.resize(size)
		for i in range(0, size, 97):
			bytes[i] = i & 0xFF
		packed.append(bytes)
	var ints := PackedInt32Array(range(3000))
	var longs := PackedInt64Array(range(0, 9000 * 7, 7))
	var floats := PackedFloat32Array()
	var doubles := PackedFloat64Array()
	var vectors := PackedVector3Array()
	var colors := PackedColorArray()
	for i in 5000:
		floats.append(i * 0.5)
		doubles.append(i / 3.0)
		vectors.append(Vector3(i, -i, 0.25))
		colors.append(Color(i / 5000.0, 0.5, 1, 1))
	packed.append_array([ints, longs, floats, doubles, vectors, colors])
	# Values that lived: read-only, and a key changed after insertion beside a large value.
	var read_only := [packed[6], ints, {"v": vectors}]
	read_only.make_read_only()
	var key := [1]
	var lived := {key: packed[6], "b": doubles}
	key.append(2)
	var values := [packed, {"a": packed[6], 7: ints, "n": [[packed[5], "x"], vectors]},
			[packed[4], packed[4], "between", packed[6]], [PackedStringArray(["a", "b"]), colors],
			read_only, lived]
	for value in values:
		var expected := var_to_bytes(value)
		assert_eq(codec.encode(value), expected, "encode of %d bytes" % expected.size())
		assert_eq(FastVariantCodec.var_to_bytes(value), expected, "static var_to_bytes")
		assert_eq(codec.encode_batch([value, 1, value]), [expected, var_to_bytes(1), expected],
				"encode_batch")
		var peer := StreamPeerBuffer.new()
		for item in [value, 1, value]:
			peer.put_var(item)
		assert_eq(codec.encode_stream([value, 1, value]), peer.data_array, "encode_stream")
		codec.full_objects = true
		assert_eq(codec.encode(value), var_to_bytes_with_objects(value), "encode, full objects")
		codec.full_objects = false


func test_large_packed_string_arrays() -> void:
	var codec := FastVariantCodec.new()
	const COUNT := 20_000
	var kinds := ["", "a", "word", "héllo", BOM + "x", BOM + BOM + "y", "日本語 😀"]
	var texts := PackedStringArray()
	for i in COUNT:
		texts.append(kinds[i % kinds.size()] + str(i))
	var bytes := var_to_bytes(texts)
	assert_same(codec.decode(bytes), bytes_to_var(bytes), "%d mixed texts" % COUNT)
	assert_eq(codec.get_error(), OK, "get_error() for good texts")
	var cut := bytes.slice(0, bytes.size() - 3)
	assert_eq(codec.decode(cut), null, "good texts cut short")
	# Without the library, the error is known only for a text at the start (see FastVariant).
	assert_eq(codec.get_error(), ERR_INVALID_DATA if without_library() else ERR_FILE_EOF,
			"get_error() for good texts cut short")

	# Texts with a NUL (the text ends there) and, where asked, bad ones (0xC3 0x28: a lead
	# byte without its continuation).
	var offsets := []
	var crafted := func(bad: Array) -> PackedByteArray:
		var out := u32s([TYPE_PACKED_STRING_ARRAY, COUNT])
		offsets.clear()
		for i in COUNT:
			offsets.append(out.size())
			if i in bad:
				out.append_array(u32s([2]) + PackedByteArray([0xC3, 0x28, 0, 0]))
			elif i % 5 == 0:
				out.append_array(u32s([5]) + PackedByteArray([97, 0, 98, 0xFF, 100, 0, 0, 0]))
			else:
				out.append_array(wire_text("s%d" % i))
		return out
	var good: PackedByteArray = crafted.call([])
	assert_same(codec.decode(good), bytes_to_var(good), "texts with a NUL")
	var bad_texts := [9_000, 15_000]
	var bad: PackedByteArray = crafted.call(bad_texts)
	var cases := {
		"bad texts at %s" % [bad_texts]: bad,
		"bad text, then a text cut short": bad.slice(0, offsets[19_000] + 6),
	}
	for name in cases:
		var input: PackedByteArray = cases[name]
		assert_eq(quietly(func() -> Variant: return bytes_to_var(input)), null, name + ": the engine refuses it")
		assert_eq(codec.decode(input), null, name)
		assert_eq(codec.get_error(), ERR_INVALID_DATA, "get_error() for " + name)
		# Without the library, the engine's functions name no byte inside the value.
		var at: int = 0 if without_library() else offsets[bad_texts[0]]
		assert_that(codec.get_error_message().ends_with("at byte %d" % at),
				name + ": the first bad text is reported: " + codec.get_error_message())


## Texts of every script (ASCII, Latin with one accent and with many, Cyrillic and Greek,
## CJK, emoji and other characters outside the BMP, all mixed) and length (short, medium,
## long, and around the lengths where the codec reads a text another way): as a String, in
## a PackedStringArray, an Array and as Dictionary keys, the engine's bytes and values.
func test_texts_of_every_script_match_the_engine() -> void:
	var codec := FastVariantCodec.new()
	var scripts := {
		"ASCII": "abcdefghijklmnopqrstuvwxyz0123456789 _-.:",
		"Latin with accents": "àáâãäåæçèéêëìíîïñòóôõöøùúûüýÿßœšžłńśźżčřěůőű",
		"Cyrillic and Greek": "абвгдежзийклмнопрстуфхцчшщъыьэюяΑΒΓΔαβγδεζηθλμξπσφψω ",
		"CJK": "的一是不了人我在有他这中大来上国個語漢字かなカナ한국어",
		"emoji and beyond the BMP": "😀😁😂🤣🐉🌍🎉𝄞𝕏𠀀𠜎𠮷𡃁\U10FFFF",
	}
	scripts["mixed"] = "".join(scripts.values())
	var lengths := [0, 1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 21, 22, 23, 24, 31, 32, 33, 63, 64, 65,
			127, 128, 129, 170, 171, 200, 511, 512, 513, 1000, 4096, 70_000]
	for script in scripts:
		var chars: String = scripts[script]
		var texts := PackedStringArray()
		for length in lengths:
			var picked := PackedStringArray()
			picked.resize(length)
			for i in length:
				picked[i] = chars[(i * 7 + length) % chars.length()]
			var text := "".join(picked)
			texts.append(text)
			# ASCII with one accented letter, at the start, the middle and the end.
			if script == "ASCII" and length > 0:
				for at in [0, length / 2, length - 1]:
					texts.append(text.left(at) + "é" + text.substr(at + 1))
		var keys := {}
		for i in texts.size():
			keys[texts[i]] = i
		var values := {"String": texts[texts.size() - 1], "PackedStringArray": texts,
				"Array of Strings": Array(texts), "Dictionary with String keys": keys}
		for text in texts:
			values["String of %d characters" % text.length()] = text
		for what in values:
			var value: Variant = values[what]
			var bytes := var_to_bytes(value)
			var name := "%s, %s" % [script, what]
			assert_eq(codec.encode(value), bytes, "encode: " + name)
			assert_same(codec.decode(bytes), bytes_to_var(bytes), "decode: " + name)
			assert_same(FastVariantCodec.bytes_to_var(bytes), bytes_to_var(bytes), "static decode: " + name)


## Texts that are not valid UTF-8 (overlong forms, surrogates, values above U+10FFFF, cut
## and stray sequences), alone or after valid text, short and long, before or after a NUL
## (where the text ends), some followed by valid text, as a String, in a
## PackedStringArray, an Array and as a Dictionary key: decoded as the engine decodes them
## (refused, or the text up to the NUL).
func test_invalid_utf8_matches_the_engine() -> void:
	var codec := FastVariantCodec.new()
	var faults := {
		"overlong /": [0xC0, 0xAF], "overlong 2-byte": [0xC1, 0xBF],
		"overlong 3-byte": [0xE0, 0x9F, 0xBF], "overlong 4-byte": [0xF0, 0x8F, 0xBF, 0xBF],
		"surrogate D800": [0xED, 0xA0, 0x80], "surrogate DFFF": [0xED, 0xBF, 0xBF],
		"above U+10FFFF": [0xF4, 0x90, 0x80, 0x80], "F5 lead": [0xF5, 0x80, 0x80, 0x80],
		"stray continuation": [0x80], "FF": [0xFF], "cut 2-byte": [0xC3],
		"cut 3-byte": [0xE6, 0x97], "cut 4-byte": [0xF0, 0x9F, 0x98],
		"lead then ASCII": [0xC3, 0x28],
	}
	var befores := {"alone": "", "after ASCII": "abc", "after a long text": "é".repeat(40) + "x".repeat(30),
			"after 600 bytes": "日".repeat(200), "after 600 bytes of ASCII": "x".repeat(600),
			"after 700 bytes of 2-byte text": "ж".repeat(350)}
	for fault in faults:
		for before in befores:
			for after_nul in [false, true]:
				var text := PackedByteArray(befores[before].to_utf8_buffer())
				if after_nul:
					text.append(0)
				text.append_array(PackedByteArray(faults[fault]))
				# Valid text after the fault, past a 16-byte block, in some of the cases.
				if before.ends_with("text"):
					text.append_array(("ж".repeat(12) + "x".repeat(20)).to_utf8_buffer())
				var padded := u32s([text.size()]) + text
				padded.resize(padded.size() + (4 - text.size() % 4) % 4)
				var name := "%s %s%s" % [fault, before, " after a NUL" if after_nul else ""]
				var cases := {
					"String": u32s([TYPE_STRING]) + padded,
					"PackedStringArray": u32s([TYPE_PACKED_STRING_ARRAY, 2]) + wire_text("ok") + padded,
					"Array": u32s([TYPE_ARRAY, 2, TYPE_STRING]) + wire_text("ok") + u32s([TYPE_STRING]) + padded,
					"Dictionary key": u32s([TYPE_DICTIONARY, 1, TYPE_STRING]) + padded + u32s([TYPE_INT, 1]),
				}
				for container in cases:
					var bytes: PackedByteArray = cases[container]
					var expected = quietly(func() -> Variant: return bytes_to_var(bytes))
					assert_same(codec.decode(bytes), expected, "%s in a %s" % [name, container])
					assert_eq(codec.get_error(), OK if expected != null else ERR_INVALID_DATA,
							"get_error() for %s in a %s" % [name, container])


## A Dictionary whose key is not valid UTF-8, short and long, before a value that is not
## valid either: the key is reported (at its length word), as the engine reads the key
## before the value, and nothing after it is read.
func test_a_bad_key_is_reported_before_its_value() -> void:
	var codec := FastVariantCodec.new()
	for key_text in ["k", "a long key past the short ones"]:
		var key := PackedByteArray(key_text.to_utf8_buffer())
		key.append(0xC3)
		var padded := u32s([key.size()]) + key
		padded.resize(padded.size() + (4 - key.size() % 4) % 4)
		# The value: a String cut short (its length past the end).
		var bytes := u32s([TYPE_DICTIONARY, 1, TYPE_STRING]) + padded + u32s([TYPE_STRING, 1000])
		assert_eq(quietly(func() -> Variant: return bytes_to_var(bytes)), null, "the engine refuses it")
		assert_eq(codec.decode(bytes), null, key_text)
		assert_eq(codec.get_error(), ERR_INVALID_DATA, "get_error() for " + key_text)
		var at := 0 if without_library() else 12
		assert_that(codec.get_error_message().ends_with("at byte %d" % at),
				key_text + ": the key is reported: " + codec.get_error_message())


## Dictionary keys, whose Strings the codec makes once per call and shares: keys of every
## length up to past the shared ones, keys differing in one byte only (at each place), many
## more keys than are kept, keys cut at a NUL or starting with a BOM, typed dictionaries,
## all repeated across nested dictionaries and a batch's packets. The engine's values,
## with the keys in the same order.
func test_repeated_dictionary_keys() -> void:
	var codec := FastVariantCodec.new()
	var keys := []
	for length in 21:
		var base := "abcdefghijklmnopqrstu".substr(0, length)
		keys.append(base)
		for at in length:
			keys.append(base.substr(0, at) + "Z" + base.substr(at + 1))
	keys.append_array(["é", "éa", "aé", "日本", "😀😀", BOM + "k", "k", BOM + BOM + "k"])
	for i in 300:
		keys.append("key_%d" % i)
	var record := {}
	for i in keys.size():
		record[keys[i]] = i
	var reversed := {}
	for i in range(keys.size() - 1, -1, -1):
		reversed[keys[i]] = -i
	var typed: Dictionary[StringName, int] = {&"id": 1, &"name": 2, &"abc": 3, &"aZc": 4}
	var nested := [record, reversed, {"inner": record, "id": 7}, typed, record]
	for value in [record, reversed, nested, typed]:
		var bytes := var_to_bytes(value)
		assert_same(codec.decode(bytes), bytes_to_var(bytes), "keys of %d entries" % value.size())
	assert_batches_decode_like_the_engine(codec, [record, reversed, typed, record, {"abc": 1, "abd": 2}])

	# Key texts that end at a NUL: "ab" three times (the last value stays), and keys that
	# differ after the NUL only.
	var crafted := u32s([TYPE_DICTIONARY, 4, TYPE_STRING]) + wire_text("ab") + u32s([TYPE_INT, 1])
	crafted += u32s([TYPE_STRING, 5]) + PackedByteArray([97, 98, 0, 99, 100, 0, 0, 0]) + u32s([TYPE_INT, 2])
	crafted += u32s([TYPE_STRING, 4]) + PackedByteArray([97, 98, 0, 101]) + u32s([TYPE_INT, 3])
	crafted += u32s([TYPE_STRING]) + wire_text("abc") + u32s([TYPE_INT, 4])
	assert_same(codec.decode(crafted), bytes_to_var(crafted), "keys cut at a NUL")
	assert_same(codec.decode_batch([crafted, crafted])[1], bytes_to_var(crafted), "keys cut at a NUL, batched")


## Packets decoded one per call whose keys repeat from call to call, as a game's network
## messages do: the codec keeps a thread's short keys between calls and shares their
## Strings. Keys that differ in one character or in length, more keys than it keeps, more
## new keys in one dictionary than a call adds; decoded results changed, dropped and their
## keys changed between calls; static and instance calls; Threads and tasks that decode
## and end, and the main thread after them.
func test_dictionary_keys_kept_between_calls() -> void:
	var keys := []
	for length in 18:
		var base := "abcdefghijklmnopqr".substr(0, length)
		keys.append(base)
		keys.append(base + "Z")
		if length > 0:
			keys.append(base.substr(0, length - 1) + "Z")
	keys.append_array(["é", "日本", BOM + "id", "id", "pos", "name"])
	var rng := RandomNumberGenerator.new()
	rng.seed = 4242
	var packets := []
	for i in 400:
		var message := {}
		for k in rng.randi_range(1, 14):
			message[keys[rng.randi_range(0, keys.size() - 1)]] = i * 100 + k
		if i % 7 == 0:
			message["nested"] = {keys[i % keys.size()]: i, "id": [i]}
		packets.append(var_to_bytes(message))
	var codec := FastVariantCodec.new()
	var decode_all := func(static_calls: bool) -> Array:
		var decoded := []
		for bytes in packets:
			decoded.append(FastVariantCodec.bytes_to_var(bytes) if static_calls else codec.decode(bytes))
		return decoded
	for round in 2:
		for static_calls in [false, true]:
			var decoded: Array = decode_all.call(static_calls)
			for i in packets.size():
				if not assert_same(decoded[i], bytes_to_var(packets[i]), "packet %d, round %d, %s" % [
						i, round, "static" if static_calls else "instance"]):
					return

	# The results are the caller's: changing, dropping or changing their keys leaves the
	# next calls' keys as the bytes say.
	var first: Dictionary = codec.decode(packets[0])
	var key: String = first.keys()[0]
	key += "!"
	first.erase(first.keys()[0])
	first[key] = "changed"
	first.clear()
	first = {}
	for i in 20:
		var again: Dictionary = codec.decode(packets[i])
		assert_same(again, bytes_to_var(packets[i]), "packet %d after the first was changed" % i)
		for k in again.keys():
			k += "?"
		again.clear()

	# Threads that decode and end, then the main thread.
	var on_thread := func() -> Array:
		var own := FastVariantCodec.new()
		var decoded := []
		for bytes in packets:
			decoded.append(own.decode(bytes))
		return decoded
	for t in 3:
		var thread := Thread.new()
		thread.start(on_thread)
		var decoded: Array = thread.wait_to_finish()
		for i in packets.size():
			if not assert_same(decoded[i], bytes_to_var(packets[i]), "packet %d on thread %d" % [i, t]):
				return
	var task_results := []
	var task := WorkerThreadPool.add_task(func() -> void: task_results.append(on_thread.call()))
	WorkerThreadPool.wait_for_task_completion(task)
	assert_same(task_results, [packets.map(func(b: PackedByteArray) -> Variant: return bytes_to_var(b))],
			"a task's packets")
	for i in packets.size():
		if not assert_same(codec.decode(packets[i]), bytes_to_var(packets[i]), "packet %d after the threads" % i):
			return


## NodePaths that repeat within one call, as save games and scenes repeat the nodes they
## refer to: the codec shares the NodePath it made for the same bytes. Paths that differ
## in one byte, in where names end and subnames begin, or in being absolute; more distinct
## paths than its table holds; paths too long to keep; through `decode`, `decode_batch`
## and `decode_stream`.
func test_repeated_node_paths() -> void:
	var codec := FastVariantCodec.new()
	var texts := ["", ".", "..", "../x", "a", "/a", "a/b", "a:b", "/a/b:c:d", "a/b:c", "a:b:c",
			"日本/é:ü", BOM + "n/" + BOM + "m:" + BOM + "p", "x".repeat(300) + "/y:z", "x".repeat(300) + "/y:w"]
	var base := "abcdefgh/ijklmnop:qrst"
	for at in base.length():
		texts.append(base.substr(0, at) + "Z" + base.substr(at + 1))
	for i in 600:
		texts.append("node_%d/child:prop" % i)
	var paths := []
	for text in texts:
		paths.append(NodePath(text))
	# Every path again, in another order, then the first ones a third time.
	for i in texts.size():
		paths.append(NodePath(texts[(i * 7919) % texts.size()]))
	for i in 40:
		paths.append(NodePath(texts[i]))
	var bytes := var_to_bytes(paths)
	assert_same(codec.decode(bytes), bytes_to_var(bytes), "%d NodePaths in one Array" % paths.size())
	var typed: Array[NodePath] = []
	typed.assign(paths)
	var typed_bytes := var_to_bytes(typed)
	assert_same(codec.decode(typed_bytes), bytes_to_var(typed_bytes), "Array[NodePath]")
	assert_batches_decode_like_the_engine(codec, [{"target": paths[3], "others": paths.slice(0, 50)},
			paths[3], paths[4], paths.slice(20, 700)])


## `values` through `decode_batch` and `decode_stream` (one builder for all of them) give
## what `bytes_to_var` gives for each.
func assert_batches_decode_like_the_engine(codec: FastVariantCodec, values: Array) -> void:
	var packets := codec.encode_batch(values)
	var decoded := codec.decode_batch(packets)
	var streamed := codec.decode_stream(codec.encode_stream(values))
	assert_eq(streamed.size(), values.size(), "values of the stream")
	for i in packets.size():
		assert_same(decoded[i], bytes_to_var(packets[i]), "batch packet %d" % i)
		assert_same(streamed[i], bytes_to_var(packets[i]), "stream value %d" % i)


## Dictionaries whose entries were changed after they were made (erased, added again,
## sorted, grown past the table's first sizes, made read-only), written in the order the
## engine keeps them: the codec walks their entries in place.
func test_changed_dictionaries_encode_in_the_engines_order() -> void:
	var codec := FastVariantCodec.new()
	var changed := {}
	for i in 1000:
		changed["k%d" % i] = i
	for i in range(0, 1000, 3):
		changed.erase("k%d" % i)
	changed.erase("k1")
	changed.erase("k998")
	changed["k0"] = "back"
	changed[7.5] = [1, {"inner": 2}]
	var sorted := {"b": 2, "c": 3, "a": 1, 10: "ten", 2: "two"}
	sorted.sort()
	var emptied := {"x": 1}
	emptied.erase("x")
	var read_only := {"ro": 1, "nested": {"ro2": 2}}
	read_only.make_read_only()
	var typed: Dictionary[String, int] = {"one": 1, "two": 2, "three": 3}
	typed.erase("two")
	typed["four"] = 4
	var values := [changed, sorted, emptied, read_only, typed, [changed, sorted, typed]]
	for value in values:
		assert_eq(codec.encode(value), var_to_bytes(value), "encode of %s" % _show(value))
	var packets := codec.encode_batch(values)
	for i in values.size():
		assert_eq(packets[i], var_to_bytes(values[i]), "encode_batch value %d" % i)


## Every prefix of every value's bytes: the same value (or null) as the engine, and when
## the codec fails, an error naming the byte.
func test_cut_short_bytes_match_and_report_the_byte() -> void:
	var codec := FastVariantCodec.new()
	for value in curated_values():
		var bytes := var_to_bytes(value)
		for length in bytes.size():
			var cut := bytes.slice(0, length)
			var expected = quietly(func() -> Variant: return bytes_to_var(cut))
			var actual = codec_quietly(func() -> Variant: return codec.decode(cut))
			if not assert_same(actual, expected, "decode of %d of the %d bytes of %s" % [length, bytes.size(), _show(value)]):
				break
			if codec.get_error() != OK:
				assert_that(RegEx.create_from_string("at byte \\d+$").search(codec.get_error_message()) != null,
						"message names the byte: " + codec.get_error_message())
	free_nodes()


# --- The error API -------------------------------------------------------------------------

func test_error_api() -> void:
	var codec := FastVariantCodec.new()
	var hello := var_to_bytes("hello")
	assert_eq(codec.decode(hello.slice(0, 12)), null, "cut-short String")
	assert_eq(codec.get_error(), ERR_FILE_EOF, "get_error() for a cut-short String (the engine's code)")
	# The length field, at byte 4, promises more than is left.
	assert_that(codec.get_error_message().ends_with("at byte 4"), "message: " + codec.get_error_message())

	assert_eq(codec.decode(hello), "hello", "a good decode")
	assert_eq(codec.get_error(), OK, "get_error() is reset")
	assert_eq(codec.get_error_message(), "", "get_error_message() is reset")

	var two := var_to_bytes(7) + hello
	assert_eq(codec.decode(two, 8), "hello", "decode at an offset")
	assert_eq(codec.get_decoded_size(), hello.size(), "get_decoded_size() at an offset")
	assert_eq(codec.decode(two, 16), null, "an offset inside a value")
	assert_that(codec.get_error_message().ends_with("at byte 16"), "offsets count from the start: " + codec.get_error_message())
	assert_eq(codec.get_decoded_size(), hello.size(), "a failed decode keeps the last size")
	assert_eq(codec.decode(two, 99), null, "an offset past the end")
	assert_eq(codec.get_error(), ERR_INVALID_PARAMETER, "get_error() for an offset past the end")
	assert_eq(codec.decode(two, -1), null, "a negative offset")
	assert_eq(codec.get_error(), ERR_INVALID_PARAMETER, "get_error() for a negative offset")

	assert_eq(codec.decode(PackedByteArray([99, 0, 0, 0])), null, "an unknown type")
	assert_eq(codec.get_error(), ERR_INVALID_DATA, "get_error() for an unknown type")
	assert_eq(codec.decode(PackedByteArray()), null, "no bytes")
	assert_eq(codec.get_error(), ERR_INVALID_DATA, "get_error() for no bytes")

	var cycle := []
	cycle.append(cycle)
	assert_eq(codec_quietly(func() -> int: return codec.encoded_size(cycle)), -1, "encoded_size() of a cycle")
	assert_eq(codec.get_error(), ERR_OUT_OF_MEMORY, "get_error() for a cycle")
	cycle.clear()


func test_max_depth() -> void:
	var codec := FastVariantCodec.new()
	assert_eq(codec.max_depth, MAX_DEPTH, "default")
	codec.max_depth = 5000
	assert_eq(codec.max_depth, MAX_DEPTH, "clamped to the engine's limit")
	codec.max_depth = -3
	assert_eq(codec.max_depth, 0, "clamped at 0")
	codec.max_depth = 2
	var deep := [[[1]]]
	assert_eq(codec.encode(deep), PackedByteArray(), "encode deeper than max_depth")
	assert_eq(codec.get_error(), ERR_OUT_OF_MEMORY, "get_error() for too deep")
	assert_eq(codec.decode(var_to_bytes(deep)), null, "decode deeper than max_depth")
	assert_eq(codec.get_error(), ERR_OUT_OF_MEMORY, "get_error() for too deep bytes")
	assert_eq(codec.encode([[1]]), var_to_bytes([[1]]), "at max_depth")


## The engine stops at 1024 levels; so does the codec, where the engine does.
func test_nesting_limit_matches_the_engine() -> void:
	var codec := FastVariantCodec.new()
	for levels in [MAX_DEPTH, MAX_DEPTH + 1, MAX_DEPTH + 2]:
		var value := nested(levels)
		var expected = quietly(func() -> PackedByteArray: return var_to_bytes(value))
		assert_eq(codec_quietly(func() -> PackedByteArray: return codec.encode(value)), expected,
				"encode %d nested arrays" % levels)
		var bytes := nested_bytes(levels)
		assert_same(codec_quietly(func() -> Variant: return codec.decode(bytes)),
				quietly(func() -> Variant: return bytes_to_var(bytes)), "decode %d nested arrays" % levels)
	# Without the library, bytes nested past the engine's limit are one more refusal.
	assert_eq(codec.get_error(), ERR_INVALID_DATA if without_library() else ERR_OUT_OF_MEMORY,
			"get_error() past the limit")


func test_cycles_fail_like_the_engine() -> void:
	var codec := FastVariantCodec.new()
	var array := [1]
	array.append(array)
	var dictionary := {}
	dictionary["self"] = dictionary
	var wide := []
	wide.append_array([wide, wide, wide])  # exponential if walked in full: must fail fast
	for cycle in [array, dictionary, wide]:
		assert_eq(quietly(func() -> PackedByteArray: return var_to_bytes(cycle)), PackedByteArray(), "engine")
		assert_eq(codec_quietly(func() -> PackedByteArray: return codec.encode(cycle)), PackedByteArray(),
				"encode(cycle)")
		assert_eq(codec.get_error(), ERR_OUT_OF_MEMORY, "get_error() for a cycle")
		assert_that(codec.get_error_message().contains("deeper than 1024"), "message: " + codec.get_error_message())
	array.clear()
	dictionary.clear()
	wide.clear()


# --- Batches, streams, threads -------------------------------------------------------------

func test_batches_match_one_by_one() -> void:
	var codec := FastVariantCodec.new()
	var values := curated_values()
	var packets := codec.encode_batch(values)
	assert_eq(codec.get_error(), OK, "encode_batch get_error()")
	assert_eq(packets.get_typed_builtin(), TYPE_PACKED_BYTE_ARRAY, "encode_batch gives Array[PackedByteArray]")
	assert_eq(packets.size(), values.size(), "one packet per value")
	for i in values.size():
		assert_eq(packets[i], var_to_bytes(values[i]), "packet %d (%s)" % [i, _show(values[i])])
	var decoded := codec.decode_batch(packets)
	assert_eq(codec.get_error(), OK, "decode_batch get_error()")
	for i in values.size():
		assert_same(decoded[i], bytes_to_var(packets[i]), "decoded packet %d" % i)

	var typed_input: Array[int] = [1, 2]
	assert_eq(codec.encode_batch(typed_input), [var_to_bytes(1), var_to_bytes(2)], "a typed Array is accepted")

	var cycle := []
	cycle.append(cycle)
	var with_bad: Array[PackedByteArray] = codec_quietly(func() -> Array[PackedByteArray]:
		return codec.encode_batch([1, cycle, "x"]))
	assert_eq(with_bad, [var_to_bytes(1), PackedByteArray(), var_to_bytes("x")], "a failing value gives an empty packet")
	assert_eq(codec.get_error(), ERR_OUT_OF_MEMORY, "encode_batch reports it")
	assert_that(codec.get_error_message().begins_with("value 1: "), "message: " + codec.get_error_message())
	cycle.clear()

	var mixed := codec.decode_batch([var_to_bytes(1), PackedByteArray([99, 0, 0, 0]), 5, var_to_bytes("x")])
	assert_same(mixed, [1, null, null, "x"], "failing packets give null")
	assert_eq(codec.get_error(), ERR_INVALID_DATA, "decode_batch reports the first failure")
	assert_that(codec.get_error_message().begins_with("value 1: "), "message: " + codec.get_error_message())
	codec.decode_batch([5])
	assert_eq(codec.get_error(), ERR_INVALID_PARAMETER, "a packet that is not a PackedByteArray")
	free_nodes()


func test_streams_match_store_var_and_put_var() -> void:
	var codec := FastVariantCodec.new()
	var values := plain_values()
	var peer := StreamPeerBuffer.new()
	var path := "user://fast_variant_codec_stream_test.bin"
	var file := FileAccess.open(path, FileAccess.WRITE)
	for value in values:
		peer.put_var(value)
		file.store_var(value)
	file.close()
	var stream := codec.encode_stream(values)
	assert_eq(stream, peer.data_array, "encode_stream == StreamPeer.put_var")
	assert_eq(stream, FileAccess.get_file_as_bytes(path), "encode_stream == FileAccess.store_var")

	var expected := []
	file = FileAccess.open(path, FileAccess.READ)
	while file.get_position() < file.get_length():
		expected.append(file.get_var())
	file.close()
	DirAccess.remove_absolute(path)
	assert_same(codec.decode_stream(stream), expected, "decode_stream == FileAccess.get_var, one after another")
	assert_eq(codec.get_error(), OK, "decode_stream get_error()")

	assert_eq(codec.decode_stream(stream.slice(0, stream.size() - 1)), [], "a stream cut short")
	assert_eq(codec.get_error(), ERR_FILE_EOF, "get_error() for a stream cut short")
	assert_that(codec.get_error_message().begins_with("value %d " % (values.size() - 1)), "message: " + codec.get_error_message())
	assert_eq(codec.decode_stream(PackedByteArray()), [], "an empty stream")
	assert_eq(codec.get_error(), OK, "an empty stream is no error")

	codec.full_objects = true
	var stored := StoredResource.new()
	peer.clear()
	peer.put_var(stored, true)
	assert_eq(codec.encode_stream([stored]), peer.data_array, "encode_stream with full_objects == put_var(v, true)")


## Threads and WorkerThreadPool tasks encode and decode at once, on one shared instance and
## on their own: the same bytes and values as the main thread gets.
func test_threads_give_identical_results() -> void:
	var values := plain_values()
	var shared := FastVariantCodec.new()
	var expected_bytes := []
	for value in values:
		expected_bytes.append(var_to_bytes(value))
	var expected_values := []
	for bytes in expected_bytes:
		expected_values.append(var_to_bytes(bytes_to_var(bytes)))

	var results := []
	var results_lock := Mutex.new()
	var work := func(index: int) -> void:
		var codec: FastVariantCodec = shared if index % 2 == 0 else FastVariantCodec.new()
		var encoded := []
		var decoded := []
		for round in 3:
			encoded = values.map(func(v) -> PackedByteArray: return codec.encode(v))
			decoded = expected_bytes.map(func(b) -> PackedByteArray: return var_to_bytes(codec.decode(b)))
		var batch := codec.encode_batch(values)
		var batch_decoded := codec.decode_batch(batch).map(func(v) -> PackedByteArray: return var_to_bytes(v))
		results_lock.lock()
		results.append([index, encoded, decoded, Array(batch), batch_decoded])
		results_lock.unlock()

	var threads: Array[Thread] = []
	for i in 4:
		var thread := Thread.new()
		thread.start(work.bind(i))
		threads.append(thread)
	var group := WorkerThreadPool.add_group_task(func(i: int) -> void: work.call(100 + i), 8)
	for thread in threads:
		thread.wait_to_finish()
	WorkerThreadPool.wait_for_group_task_completion(group)

	assert_eq(results.size(), 12, "every thread and task finished")
	for result in results:
		var who := "thread %d" % result[0] if result[0] < 100 else "task %d" % (result[0] - 100)
		assert_eq(result[1], expected_bytes, who + ": encode")
		assert_eq(result[2], expected_values, who + ": decode")
		assert_eq(result[3], expected_bytes, who + ": encode_batch")
		assert_eq(result[4], expected_values, who + ": decode_batch")


## The deepest value the engine accepts, decoded on a thread (a smaller stack than main's).
func test_deepest_value_on_a_thread() -> void:
	var bytes := nested_bytes(MAX_DEPTH + 1)
	var thread := Thread.new()
	thread.start(func() -> PackedByteArray:
		var codec := FastVariantCodec.new()
		return codec.encode(codec.decode(bytes)))
	assert_eq(thread.wait_to_finish(), bytes, "decode and encode 1025 levels on a thread")


# --- Helpers ------------------------------------------------------------------------------

## Runs `action` with the engine's error printing off (for inputs that are meant to fail)
## and returns what it returns.
func quietly(action: Callable) -> Variant:
	Engine.print_error_messages = false
	var result = action.call()
	Engine.print_error_messages = true
	return result


func free_nodes() -> void:
	for node in _nodes:
		node.free()
	_nodes.clear()


## Frees the Nodes a decode instantiated (they belong to no tree).
func free_decoded_nodes(values: Array) -> void:
	for value in values:
		if value is Node and is_instance_valid(value):
			value.free()
		elif value is Array:
			free_decoded_nodes(value)
		elif value is Dictionary:
			free_decoded_nodes(value.keys() + value.values())


static func double_from_le(bytes: Array) -> float:
	return PackedByteArray(bytes).decode_double(0)


## An RID with the given id, as only the wire can make one.
static func rid_with_id(id: int) -> RID:
	var bytes := u32s([23])
	bytes.resize(12)
	bytes.encode_s64(4, id)
	return bytes_to_var(bytes)


## 32-bit little-endian words.
## Text as the format writes it inside a value: a length word, the UTF-8 bytes, zeros up to
## a multiple of 4.
static func wire_text(text: String) -> PackedByteArray:
	var utf8 := text.to_utf8_buffer()
	var bytes := u32s([utf8.size()]) + utf8
	bytes.resize(bytes.size() + (4 - utf8.size() % 4) % 4)
	return bytes


static func u32s(words: Array) -> PackedByteArray:
	var bytes := PackedByteArray()
	bytes.resize(words.size() * 4)
	for i in words.size():
		bytes.encode_u32(i * 4, words[i])
	return bytes


## `levels` Arrays, each holding the next; the innermost is empty.
static func nested(levels: int) -> Array:
	var value := []
	for i in levels - 1:
		value = [value]
	return value


## The bytes of `nested(levels)`, built without the engine (which refuses past 1024).
static func nested_bytes(levels: int) -> PackedByteArray:
	var words := []
	for i in levels - 1:
		words.append_array([28, 1])
	words.append_array([28, 0])
	return u32s(words)
