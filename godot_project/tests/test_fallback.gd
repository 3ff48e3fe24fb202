## FastVariant, the addon's GDScript fallback, on what is its own: whether it finds the
## library, what it does without one (the Godot 3 and 2 formats, conversions), and the
## errors and limits it works out itself without the library: refusals read from the
## bytes' first words, encode failures found by walking the value, max_depth below the
## engine's limit, values that decode to null, offsets and decoded sizes, each thread's
## static error. Where the library is loaded, every call goes through it, and the same
## assertions hold: the fallback's own answers are the library's.
##
## The parity suites check the rest through the fallback (FVC_CODEC=FastVariant, see
## test_runner/test_runner.gd); this suite names only FastVariant, so it runs as written in
## every setting.
extends "res://test_runner/test_suite.gd"

const FALLBACK_PATH := "res://addons/fast_variant_codec/fast_variant.gd"


## run_tests.sh says whether the run has the library (FVC_LIBRARY=present or absent), so
## that a run meant to be without it cannot pass with it.
func test_finds_the_library_when_it_is_loaded() -> void:
	assert_eq(FastVariant.is_native(), ClassDB.class_exists(&"FastVariantCodec"), "is_native()")
	var expected := OS.get_environment("FVC_LIBRARY")
	if assert_that(expected in ["present", "absent"], "FVC_LIBRARY=%s (run_tests.sh sets it)" % expected):
		assert_eq(FastVariant.is_native(), expected == "present", "is_native() with the library " + expected)


## Code that names FastVariantCodec (a type, a call) stops the script from loading where
## the class does not exist: the name may appear in comments and text only.
func test_the_script_names_the_library_class_only_in_text() -> void:
	var strings := RegEx.create_from_string("&?\"(\\\\.|[^\"\\\\])*\"")
	var lines := FileAccess.get_file_as_string(FALLBACK_PATH).split("\n")
	assert_that(lines.size() > 100, "read %s" % FALLBACK_PATH)
	for i in lines.size():
		var code := strings.sub(lines[i], "\"\"", true)
		code = code.substr(0, code.find("#")) if code.contains("#") else code
		assert_that(not code.contains("FastVariantCodec"), "line %d names the class: %s" % [i + 1, lines[i]])


func test_properties() -> void:
	var codec := FastVariant.new()
	assert_eq([codec.full_objects, codec.allow_objects, codec.max_depth, codec.format],
			[false, false, FastVariant.MAX_DEPTH, FastVariant.FORMAT_GODOT_4], "defaults")
	assert_eq([FastVariant.FORMAT_GODOT_4, FastVariant.FORMAT_GODOT_3, FastVariant.FORMAT_GODOT_2,
			FastVariant.MAX_DEPTH], [4, 3, 2, 1024], "constants")
	codec.full_objects = true
	codec.allow_objects = true
	assert_eq([codec.full_objects, codec.allow_objects], [true, true], "set")
	codec.max_depth = 5000
	assert_eq(codec.max_depth, 1024, "max_depth clamped to the engine's limit")
	codec.max_depth = -1
	assert_eq(codec.max_depth, 0, "max_depth clamped at 0")
	codec.format = 7
	assert_eq(codec.format, 4, "an unknown format is refused")
	assert_eq(codec.get_error(), ERR_INVALID_PARAMETER, "get_error() for format 7")
	assert_eq(codec.get_error_message(), "format 7 is not 4, 3 or 2 (FORMAT_GODOT_4, _3, _2)", "message")
	codec.format = FastVariant.FORMAT_GODOT_3
	assert_eq(codec.format, 3, "format 3 is kept (with or without the library)")


## Without the library, every call in the Godot 3 or 2 format fails with ERR_UNAVAILABLE,
## as do conversions; with it, they are the library's.
func test_older_formats_and_conversions() -> void:
	var codec := FastVariant.new()
	for format in [FastVariant.FORMAT_GODOT_3, FastVariant.FORMAT_GODOT_2]:
		codec.format = format
		var godot4 := var_to_bytes({"a": 1})
		var results := [codec.encode({"a": 1}), codec.decode(godot4), codec.encode_batch([1]),
				codec.decode_batch([godot4]), codec.encode_stream([1]), codec.decode_stream(godot4),
				codec.encoded_size(1)]
		if FastVariant.is_native():
			assert_eq(codec.get_error(), OK, "Godot %d: encoded_size() (the library's)" % format)
			assert_eq(codec.encode(1), PackedByteArray([2, 0, 0, 0, 1, 0, 0, 0]),
					"an int in the Godot %d format" % format)
			continue
		assert_eq(results, [PackedByteArray(), null, [], [], PackedByteArray(), [], -1],
				"Godot %d: every call fails" % format)
		assert_eq(codec.get_error(), ERR_UNAVAILABLE, "get_error() in the Godot %d format" % format)
		assert_eq(codec.get_error_message(), "the Godot %d format needs the FastVariantCodec library, " % format
				+ "which is not loaded on this platform (FastVariant.is_native() is false)", "message")
	codec.format = FastVariant.FORMAT_GODOT_3
	var godot3_int := codec.encode(5)
	var converted := codec.convert(godot3_int, 3, 4)
	var streamed := codec.convert_stream(PackedByteArray([8, 0, 0, 0]) + godot3_int, 3, 4)
	if FastVariant.is_native():
		assert_eq(converted, var_to_bytes(5), "convert() from Godot 3")
		assert_eq(streamed, PackedByteArray([8, 0, 0, 0]) + var_to_bytes(5), "convert_stream() from Godot 3")
		assert_eq(codec.get_conversion_report(), PackedStringArray(), "nothing lost")
	else:
		assert_eq([converted, streamed], [PackedByteArray(), PackedByteArray()], "no conversions")
		assert_eq(codec.get_error(), ERR_UNAVAILABLE, "get_error() for convert_stream()")
		assert_that(codec.get_error_message().begins_with("convert_stream() needs the FastVariantCodec library"),
				"message: " + codec.get_error_message())


## Refusals whose kind the first words of the bytes show: the same Error and message with
## and without the library.
func test_refusals_named_by_the_first_words() -> void:
	var codec := FastVariant.new()
	var hello := var_to_bytes("hello")
	var cases := [
		["no bytes", PackedByteArray(), 0, ERR_INVALID_DATA, "truncated header at byte 0"],
		["two bytes", PackedByteArray([2, 0]), 0, ERR_INVALID_DATA, "truncated header at byte 0"],
		["an unknown type", PackedByteArray([99, 0, 0, 0]), 0, ERR_INVALID_DATA, "unknown type id 99 at byte 0"],
		["an unknown type at an offset", PackedByteArray([0, 0, 0, 0, 200, 0, 0, 0]), 4, ERR_INVALID_DATA,
				"unknown type id 200 at byte 4"],
		["a String cut short", hello.slice(0, 12), 0, ERR_FILE_EOF,
				"String length 5 exceeds the remaining 4 bytes at byte 4"],
		["a StringName cut short", var_to_bytes(&"hello").slice(0, 10), 0, ERR_FILE_EOF,
				"String length 5 exceeds the remaining 2 bytes at byte 4"],
		["a whole object", var_to_bytes_with_objects(Resource.new()), 0, ERR_UNAUTHORIZED,
				"encoded object, but objects are not allowed at byte 0"],
		["an offset past the end", hello, 99, ERR_INVALID_PARAMETER, "offset 99 is outside the 16 bytes"],
		["a negative offset", hello, -1, ERR_INVALID_PARAMETER, "offset -1 is outside the 16 bytes"],
	]
	for case in cases:
		var decoded = codec_quietly(func() -> Variant: return codec.decode(case[1], case[2]))
		assert_eq(decoded, null, case[0])
		assert_eq(codec.get_error(), case[3], "get_error() for " + case[0])
		assert_eq(codec.get_error_message(), case[4], "message for " + case[0])
	# Inside a value, only the library names the kind and the byte.
	var nested := var_to_bytes_with_objects([Resource.new()])
	assert_eq(codec_quietly(func() -> Variant: return codec.decode(nested)), null, "a whole object inside")
	if FastVariant.is_native():
		assert_eq(codec.get_error_message(), "encoded object, but objects are not allowed at byte 8", "message")
	else:
		assert_eq(codec.get_error(), ERR_INVALID_DATA, "get_error() for a whole object inside")
		assert_eq(codec.get_error_message(), "the engine's decoder refused the value at byte 0", "message")
	assert_eq(codec.decode(hello), "hello", "a good decode")
	assert_eq([codec.get_error(), codec.get_error_message()], [OK, ""], "the error is cleared")


## Values the engine decodes to null (Nil, or a null Object) are successes: Nil, a null
## object id, a whole object of no class (with objects allowed).
func test_values_that_decode_to_null() -> void:
	var codec := FastVariant.new()
	var null_id := PackedByteArray([24, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0])
	var no_class := PackedByteArray([24, 0, 0, 0, 0, 0, 0, 0])
	for case in [["Nil", var_to_bytes(null)], ["a null object id", null_id]]:
		codec_quietly(func() -> Variant: return codec.decode(PackedByteArray([99, 0, 0, 0])))
		assert_same(codec.decode(case[1]), bytes_to_var(case[1]), case[0])
		assert_eq(codec.get_error(), OK, "get_error() for " + case[0])
		assert_eq(codec.get_decoded_size(), case[1].size(), "get_decoded_size() for " + case[0])
	assert_eq(codec_quietly(func() -> Variant: return codec.decode(null_id.slice(0, 8))), null, "an object id cut short")
	assert_eq(codec.get_error(), ERR_INVALID_DATA, "get_error() for an object id cut short")
	assert_eq(codec_quietly(func() -> Variant: return codec.decode(no_class)), null, "an object of no class")
	assert_eq(codec.get_error(), ERR_UNAUTHORIZED, "refused without allow_objects")
	codec.allow_objects = true
	assert_same(codec.decode(no_class), bytes_to_var_with_objects(no_class), "an object of no class, objects allowed")
	assert_eq(codec.get_error(), OK, "get_error() for an object of no class")
	assert_same(FastVariant.bytes_to_var(null_id), bytes_to_var(null_id), "static: a null object id")
	assert_eq(FastVariant.get_last_error(), OK, "static: get_last_error() for a null object id")


## decode at offsets through values laid one after another, each offset the last plus
## get_decoded_size(): the engine's values and sizes.
func test_offsets_and_decoded_sizes() -> void:
	var values := [7, null, "héllo", {"a": [1, 2.5]}, PackedInt32Array([1, 2, 3]), Vector3(1, 2, 3)]
	var bytes := PackedByteArray()
	for value in values:
		bytes.append_array(var_to_bytes(value))
	var codec := FastVariant.new()
	assert_eq(codec.get_decoded_size(), 0, "before any decode")
	var at := 0
	for value in values:
		assert_same(codec.decode(bytes, at), value, "the value at byte %d" % at)
		assert_eq(codec.get_decoded_size(), bytes.decode_var_size(at), "its size at byte %d" % at)
		at += codec.get_decoded_size()
	assert_eq(at, bytes.size(), "the sizes add up to the bytes")
	assert_eq(codec_quietly(func() -> Variant: return codec.decode(bytes, at)), null, "at the end")
	assert_eq(codec.get_decoded_size(), var_to_bytes(values[-1]).size(), "a failed decode keeps the last size")
	# With objects allowed, the size of a value that holds none.
	codec.allow_objects = true
	assert_eq(codec.decode(bytes, 8 + 4), "héllo", "objects allowed")
	assert_eq(codec.get_decoded_size(), bytes.decode_var_size(12), "its size")


## Values the engine cannot encode: the Error and message the library gives, the value
## walked where the engine walks it without the library.
func test_encode_failures() -> void:
	var unsaved := GDScript.new()
	unsaved.source_code = "extends RefCounted\n"
	unsaved.reload()
	var cycle := []
	cycle.append(cycle)
	var codec := FastVariant.new()
	var cases := [
		["a cycle", false, [1, cycle], ERR_OUT_OF_MEMORY,
				"nesting deeper than 1024 (a cyclic Array or Dictionary?) at depth 1025"],
		["a singleton", true, {"input": Input}, ERR_INVALID_PARAMETER,
				"class Input cannot be instantiated, so its objects cannot be encoded whole at depth 1"],
		["an unsaved script's instance", true, [1, {"a": unsaved.new()}], ERR_UNAVAILABLE,
				"script \"\" has no res:// path at depth 2"],
	]
	for case in cases:
		codec.full_objects = case[1]
		assert_eq(codec_quietly(func() -> PackedByteArray: return codec.encode(case[2])), PackedByteArray(), case[0])
		assert_eq(codec.get_error(), case[3], "get_error() for " + case[0])
		assert_eq(codec.get_error_message(), case[4], "message for " + case[0])
		assert_eq(codec_quietly(func() -> PackedByteArray: return FastVariant.var_to_bytes(case[2])),
				PackedByteArray() if case[0] == "a cycle" else var_to_bytes(case[2]), "static var_to_bytes of " + case[0])
	# A container typed by an unsaved script: the library names the byte, the fallback the depth.
	codec.full_objects = true
	var typed := Array([], TYPE_OBJECT, &"RefCounted", unsaved)
	assert_eq(codec_quietly(func() -> PackedByteArray: return codec.encode([1, typed])), PackedByteArray(),
			"an Array typed by an unsaved script")
	assert_eq(codec.get_error(), ERR_UNAVAILABLE, "get_error() for it")
	assert_eq(codec.get_error_message(), "script path \"\" is not a res:// path at byte 20" if FastVariant.is_native()
			else "script path \"\" is not a res:// path (a container's type at depth 1)", "message for it")
	cycle.clear()


## max_depth below the engine's limit, in every method: too deep fails with
## ERR_OUT_OF_MEMORY, at the limit succeeds; a refused decode leaves no Node behind.
func test_max_depth_below_the_engines() -> void:
	var codec := FastVariant.new()
	codec.max_depth = 2
	var deep := [{"k": [1]}]
	var ok := [{"k": []}, {[1]: 2}]
	assert_eq(codec.encode(deep), PackedByteArray(), "encode too deep")
	assert_eq(codec.get_error(), ERR_OUT_OF_MEMORY, "get_error() for too deep")
	assert_eq(codec.get_error_message(), "nesting deeper than 2 (a cyclic Array or Dictionary?) at depth 3", "message")
	assert_eq(codec.encoded_size(deep), -1, "encoded_size too deep")
	assert_eq(codec.encode_batch([1, deep]), [var_to_bytes(1), PackedByteArray()] as Array[PackedByteArray],
			"encode_batch too deep")
	assert_that(codec.get_error_message().begins_with("value 1: nesting deeper than 2"), "message: " + codec.get_error_message())
	assert_eq(codec.encode_stream([1, deep]), PackedByteArray(), "encode_stream too deep")
	for value in ok:
		assert_eq(codec.encode(value), var_to_bytes(value), "encode at the limit: %s" % [value])
		assert_same(codec.decode(var_to_bytes(value)), value, "decode at the limit: %s" % [value])
	assert_eq(codec.decode(var_to_bytes(deep)), null, "decode too deep")
	assert_eq(codec.get_error(), ERR_OUT_OF_MEMORY, "get_error() for too deep bytes")
	assert_eq(codec.decode_batch([var_to_bytes(deep)]), [null], "decode_batch too deep")
	var stream := StreamPeerBuffer.new()
	stream.put_var(1)
	stream.put_var(deep)
	assert_eq(codec.decode_stream(stream.data_array), [], "decode_stream too deep")
	assert_that(codec.get_error_message().begins_with("value 1 (frame at byte 12): nesting deeper than 2 at byte "),
			"message: " + codec.get_error_message())

	codec.full_objects = true
	codec.allow_objects = true
	codec.max_depth = 1
	var node := Node.new()
	var holding := var_to_bytes_with_objects([[node]])
	node.free()
	var objects_before := Performance.get_monitor(Performance.OBJECT_COUNT)
	assert_eq(codec.decode(holding), null, "decode of a Node nested too deep")
	assert_eq(codec.get_error(), ERR_OUT_OF_MEMORY, "get_error() for it")
	assert_eq(Performance.get_monitor(Performance.OBJECT_COUNT), objects_before, "no Node left behind")
	var resource := Resource.new()
	resource.resource_name = "deep"
	codec.max_depth = 0
	assert_eq(codec.encode(resource), PackedByteArray(), "an object's properties are one level down")
	codec.max_depth = 1
	assert_eq(codec.encode(resource), var_to_bytes_with_objects(resource), "and fit at depth 1")


## Each thread's static error is its own, without the library kept for the last 256
## threads that failed: a thread's failure stays until as many others have failed since.
func test_static_errors_of_many_threads() -> void:
	var bad := PackedByteArray([99, 0, 0, 0])
	var failing_threads := func(count: int) -> void:
		for i in count:
			var thread := Thread.new()
			thread.start(func() -> void: FastVariant.bytes_to_var(bad))
			thread.wait_to_finish()
	codec_quietly(func() -> Variant: return FastVariant.bytes_to_var(bad))
	codec_quietly(failing_threads.bind(255))
	assert_eq(FastVariant.get_last_error(), ERR_INVALID_DATA, "kept while 255 other threads failed")
	codec_quietly(failing_threads.bind(1))
	assert_eq(FastVariant.get_last_error(), OK if not FastVariant.is_native() else ERR_INVALID_DATA,
			"after 256 others: the library keeps each thread's, the fallback the last 256")
	FastVariant.bytes_to_var(var_to_bytes(1))
	assert_eq(FastVariant.get_last_error(), OK, "a success clears it")
