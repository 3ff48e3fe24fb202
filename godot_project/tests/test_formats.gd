## FastVariantCodec's older formats: `format` and its checks, Godot 3 save files made by the
## real Godot 3.6.2 and 3.2.3 engines (res://fixtures/godot3/, from tests/golden/godot3/)
## migrated to Godot 4 and loaded by this engine's FileAccess.get_var with every value
## intact, Godot 3 values read in place and written back, values Godot 3 cannot hold
## refused with their path, class names Godot 4 renamed, and Godot 2's Image form.
extends "res://test_runner/test_suite.gd"

const SAVES := ["3.6.2", "3.2.3"]

## Godot 4 type ids of the types a description's components are written for.
const GODOT_4_IDS := {
	"Vector2": TYPE_VECTOR2, "Rect2": TYPE_RECT2, "Vector3": TYPE_VECTOR3,
	"Transform2D": TYPE_TRANSFORM2D, "Plane": TYPE_PLANE, "Quat": TYPE_QUATERNION,
	"AABB": TYPE_AABB, "Basis": TYPE_BASIS, "Transform": TYPE_TRANSFORM3D, "Color": TYPE_COLOR,
	"PoolVector2Array": TYPE_PACKED_VECTOR2_ARRAY, "PoolVector3Array": TYPE_PACKED_VECTOR3_ARRAY,
	"PoolColorArray": TYPE_PACKED_COLOR_ARRAY, "PoolIntArray": TYPE_PACKED_INT32_ARRAY,
	"PoolRealArray": TYPE_PACKED_FLOAT32_ARRAY,
}
## Element sizes of the packed arrays above.
const ELEMENT_SIZES := {
	"PoolVector2Array": 8, "PoolVector3Array": 12, "PoolColorArray": 16, "PoolIntArray": 4,
	"PoolRealArray": 4,
}


static func le32(n: int) -> PackedByteArray:
	var b := PackedByteArray()
	b.resize(4)
	b.encode_u32(0, n)
	return b


## The bytes of a hex text.
static func unhex(text: String) -> PackedByteArray:
	return text.hex_decode()


## Bits given as big-endian hex, as the little-endian bytes they are on the wire.
static func bits_le(hex: String) -> PackedByteArray:
	var b := unhex(hex)
	b.reverse()
	return b


## The Godot 4 value a Godot 3 engine's description stands for, by the documented table
## (Quat → Quaternion, Transform → Transform3D, Pool*Array → Packed*Array, RID → an empty
## RID). Math types and packed arrays are made by this engine's own bytes_to_var from
## their components, which a description gives in wire order.
static func expected(d: Dictionary) -> Variant:
	var t: String = d["t"]
	if t in GODOT_4_IDS:
		var payload := PackedByteArray()
		if t in ELEMENT_SIZES:
			var data := unhex(d["v"])
			payload.append_array(le32(data.size() / ELEMENT_SIZES[t]))
			payload.append_array(data)
		else:
			for component in d["v"]:
				payload.append_array(bits_le(component))
		return bytes_to_var(le32(GODOT_4_IDS[t]) + payload)
	match t:
		"Nil":
			return null
		"bool":
			return bool(d["v"])
		"int":
			return String(d["v"]).to_int()
		"float":
			return bits_le(d["v"]).decode_double(0)
		"String":
			return unhex(d["v"]).get_string_from_utf8()
		"NodePath":
			return NodePath(unhex(d["v"]).get_string_from_utf8())
		"RID":
			return RID()
		"Dictionary":
			var out := {}
			for entry in d["v"]:
				out[expected(entry[0])] = expected(entry[1])
			return out
		"Array":
			var items := []
			for item in d["v"]:
				items.append(expected(item))
			return items
		"PoolByteArray":
			return unhex(d["v"])
		"PoolStringArray":
			var strings := PackedStringArray()
			for s in d["v"]:
				strings.append(unhex(s).get_string_from_utf8())
			return strings
	return "no expectation for %s" % t


static func save(version: String) -> Dictionary:
	var base := "res://fixtures/godot3/save-%s" % version
	var sidecar = JSON.parse_string(FileAccess.get_file_as_string(base + ".json"))
	return {"bytes": FileAccess.get_file_as_bytes(base + ".bin"), "values": sidecar["values"]}


func test_format_is_4_by_default_and_refuses_other_values() -> void:
	var codec := FastVariantCodec.new()
	assert_eq(codec.format, FastVariantCodec.FORMAT_GODOT_4, "default")
	assert_eq([FastVariantCodec.FORMAT_GODOT_3, FastVariantCodec.FORMAT_GODOT_2], [3, 2], "constants")
	for bad in [0, 1, 5, -3]:
		codec.format = bad
		assert_eq(codec.get_error(), ERR_INVALID_PARAMETER, "format %d refused" % bad)
		assert_eq(codec.format, 4, "format %d leaves the old one" % bad)
	codec.format = 3
	assert_eq(codec.format, 3, "Godot 3")
	codec.format = 9
	assert_eq(codec.format, 3, "an invalid value keeps Godot 3")


func test_godot3_save_files_migrate_and_load_with_every_value() -> void:
	for version in SAVES:
		var file := save(version)
		var codec := FastVariantCodec.new()
		var migrated := codec.convert_stream(file["bytes"], 3, 4)
		if not assert_eq(codec.get_error(), OK, "%s: converts (%s)" % [version, codec.get_error_message()]):
			continue
		assert_eq(codec.get_conversion_report(), PackedStringArray(), "%s: nothing lost" % version)
		var path := "user://migrated-%s.save" % version
		var out := FileAccess.open(path, FileAccess.WRITE)
		out.store_buffer(migrated)
		out.close()
		var saved := FileAccess.open(path, FileAccess.READ)
		var values: Array = file["values"]
		assert_that(values.size() >= 200, "%s: %d values" % [version, values.size()])
		for i in values.size():
			assert_same(saved.get_var(), expected(values[i]), "%s: value %d" % [version, i])
		assert_eq(saved.get_position(), saved.get_length(), "%s: every byte read" % version)


func test_godot3_values_read_in_place_and_write_back() -> void:
	for version in SAVES:
		var file := save(version)
		var codec := FastVariantCodec.new()
		codec.format = FastVariantCodec.FORMAT_GODOT_3
		var values := codec.decode_stream(file["bytes"])
		assert_eq(codec.get_error(), OK, "%s: reads (%s)" % [version, codec.get_error_message()])
		var descriptions: Array = file["values"]
		assert_eq(values.size(), descriptions.size(), "%s: count" % version)
		for i in mini(values.size(), descriptions.size()):
			assert_same(values[i], expected(descriptions[i]), "%s: value %d" % [version, i])
		# The engines leave NodePath padding unwritten; the fixtures have it zeroed, as the
		# codec writes it (tests/golden/godot3/README.md).
		assert_eq(codec.encode_stream(values), file["bytes"], "%s: written back byte for byte" % version)


func test_stream_decoder_reads_a_godot3_save_in_pieces() -> void:
	for version in SAVES:
		var file := save(version)
		var bytes: PackedByteArray = file["bytes"]
		var decoder := FastVariantStreamDecoder.new()
		assert_eq(decoder.format, 4, "Godot 4 by default")
		decoder.format = 7
		assert_eq([decoder.get_error(), decoder.format], [ERR_INVALID_PARAMETER, 4], "format 7 refused")
		decoder.format = FastVariantCodec.FORMAT_GODOT_3
		var values := []
		var at := 0
		while at < bytes.size():
			decoder.feed(bytes.slice(at, at + 1000))
			at += 1000
			values.append_array(decoder.take_values())
			if not assert_eq(decoder.get_error(), OK, "%s: %s" % [version, decoder.get_error_message()]):
				return
		assert_eq(decoder.finish(), OK, "%s: ends between frames" % version)
		var descriptions: Array = file["values"]
		assert_eq(values.size(), descriptions.size(), "%s: count" % version)
		for i in mini(values.size(), descriptions.size()):
			assert_same(values[i], expected(descriptions[i]), "%s: value %d" % [version, i])


func test_values_godot3_lacks_fail_naming_their_path() -> void:
	var codec := FastVariantCodec.new()
	codec.format = FastVariantCodec.FORMAT_GODOT_3
	assert_eq(codec.encode([1, {"pos": Vector2i(1, 2)}]), PackedByteArray(), "refused")
	assert_eq(codec.get_error(), ERR_INVALID_PARAMETER, "error")
	var message := codec.get_error_message()
	assert_that(message.contains("Vector2i") and message.contains("[1][\"pos\"]"), message)
	for lacking in [Vector3i(), Vector4(), Projection(), Callable(), PackedInt64Array([1]), [1] as Array[int]]:
		assert_eq(codec.encode(lacking), PackedByteArray(), "%s refused" % type_string(typeof(lacking)))
	# A StringName is written as the String it names, which Godot 3 has.
	assert_eq(codec.encode(&"ab"), codec.encode("ab"), "StringName as String")
	assert_eq(codec.encode(&"ab"), PackedByteArray([4, 0, 0, 0, 2, 0, 0, 0, 97, 98, 0, 0]), "String bytes")


func test_convert_writes_what_the_target_lacks_as_null_and_reports_it() -> void:
	var codec := FastVariantCodec.new()
	var godot3 := codec.convert(var_to_bytes([Vector2i(1, 2), "kept"]), 4, 3)
	assert_eq(codec.get_error(), OK, "converts")
	var report := codec.get_conversion_report()
	assert_eq(report.size(), 1, "one problem: %s" % report)
	assert_that(report.size() == 1 and report[0].contains("[0]") and report[0].contains("Vector2i"), str(report))
	codec.format = FastVariantCodec.FORMAT_GODOT_3
	assert_same(codec.decode(godot3), [null, "kept"], "the rest carried over")
	codec.convert(PackedByteArray([1, 2]), 3, 4)
	assert_eq(codec.get_error(), ERR_INVALID_DATA, "bad input is an error")
	codec.convert(var_to_bytes(1), 3, 7)
	assert_eq(codec.get_error(), ERR_INVALID_PARAMETER, "bad format is an error")


func test_godot3_objects_use_godot4_class_names() -> void:
	var codec := FastVariantCodec.new()
	codec.format = FastVariantCodec.FORMAT_GODOT_3
	codec.allow_objects = true
	# A Godot 3 Spatial, whole, without properties: header 17, class name, count 0.
	var spatial := le32(17) + le32(7) + "Spatial".to_utf8_buffer() + PackedByteArray([0]) + le32(0)
	var node = codec.decode(spatial)
	assert_eq(codec.get_error(), OK, "decodes: %s" % codec.get_error_message())
	if assert_that(node is Node3D, "a Node3D: %s" % node):
		node.free()
	codec.full_objects = true
	var fresh := Node3D.new()
	var written := codec.encode(fresh)
	fresh.free()
	assert_eq(codec.get_error(), OK, "encodes: %s" % codec.get_error_message())
	assert_eq(written.slice(8, 15).get_string_from_utf8(), "Spatial", "written as Spatial")


func test_godot2_image_form_round_trips() -> void:
	var codec := FastVariantCodec.new()
	codec.format = FastVariantCodec.FORMAT_GODOT_2
	var image := {"godot2_type": "Image", "format": 4, "mipmaps": 0, "width": 1, "height": 1,
			"data": PackedByteArray([1, 2, 3, 4])}
	var bytes := codec.encode(image)
	assert_eq(bytes.slice(0, 4), le32(15), "written as a Godot 2 Image")
	assert_same(codec.decode(bytes), image, "read back as its form")
	codec.format = FastVariantCodec.FORMAT_GODOT_4
	assert_eq(codec.decode(codec.encode(image)), image, "an ordinary Dictionary in Godot 4")


func test_godot2_rules_hold_in_the_engine_walk() -> void:
	var codec := FastVariantCodec.new()
	codec.format = FastVariantCodec.FORMAT_GODOT_2
	# Godot 2's int is 32 bits: a wider one is refused, naming where it is.
	assert_eq(codec.encode([1, {"big": 1 << 40}]), PackedByteArray(), "wide int refused")
	var message := codec.get_error_message()
	assert_that(message.contains("int") and message.contains("[1][\"big\"]"), message)
	assert_eq(codec.encode(-(1 << 31)), le32(2) + le32(1 << 31), "the narrowest int is written")
	# Floats travel as singles, narrowed.
	var tenth := codec.encode(0.1)
	assert_eq(tenth.size(), 8, "a 32-bit float")
	assert_eq(codec.decode(tenth), float(tenth.decode_float(4)), "narrowed to the nearest single")
	# An object is its header alone, null or not, with or without full objects.
	var node := Node.new()
	var freed := Node.new()
	freed.free()
	for full in [false, true]:
		codec.full_objects = full
		assert_eq(codec.encode(node), le32(18), "Object header only (full %s)" % full)
		assert_eq(codec.encode(freed), le32(18), "a freed one too (full %s)" % full)
	node.free()
	codec.full_objects = false
	# The last subname is the path's property: one subname, then the property flag (bit 1).
	var path := NodePath("a/b:c:d")
	var written := codec.encode(path)
	assert_eq([written.decode_u32(4) & 0x7fffffff, written.decode_u32(8), written.decode_u32(12)], [2, 1, 2], "names, subnames, flags")
	assert_eq(codec.decode(written), path, "read back")
	# An empty property is none: the path "a", not "a:" with an empty subname.
	var empty_property := le32(16) + le32(0x80000001) + le32(0) + le32(2) + le32(1) + PackedByteArray([97, 0, 0, 0]) + le32(0)
	var read_path: NodePath = codec.decode(empty_property)
	assert_eq([read_path, read_path.get_subname_count()], [NodePath("a"), 0], "empty property dropped")
	# Godot 3 reads an absolute path without names as the empty path.
	codec.format = FastVariantCodec.FORMAT_GODOT_3
	assert_eq(codec.decode(le32(15) + le32(0x80000000) + le32(0) + le32(1)), NodePath(), "emptied in Godot 3")


func test_batches_and_sizes_follow_the_format() -> void:
	var codec := FastVariantCodec.new()
	codec.format = FastVariantCodec.FORMAT_GODOT_3
	var values := [Quaternion(1, 2, 3, 4), Transform3D(), PackedFloat32Array([1.5]), {"k": [RID()]}]
	var packets := codec.encode_batch(values)
	assert_eq(codec.get_error(), OK, "encodes: %s" % codec.get_error_message())
	# Godot 3's ids: Quat 10, Transform 13, PoolRealArray 22, Dictionary 18.
	var ids := []
	for i in packets.size():
		ids.append(packets[i].decode_u32(0))
		assert_eq(codec.encoded_size(values[i]), packets[i].size(), "size of value %d" % i)
	assert_eq(ids, [10, 13, 22, 18], "Godot 3 type ids")
	assert_same(codec.decode_batch(packets), values, "read back")
