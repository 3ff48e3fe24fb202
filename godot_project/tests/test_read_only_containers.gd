## FastVariantCodec against the engine on read-only containers: GDScript `const` Arrays and
## Dictionaries and `make_read_only()` ones, typed and untyped, empty, small and large
## (10k elements), nested in every way (read-only in read-only, writable in read-only,
## read-only in writable), holding values of many types. encode, encoded_size, decode, the
## batch and stream methods, in both object modes; and the codec leaves them as they were.
extends "res://test_runner/test_suite.gd"

const Mismatches := preload("res://tests/support/mismatches.gd")
const StoredResource := preload("res://fixtures/stored_resource.gd")

## Elements of the large containers.
const LARGE := 10_000

# --- Constants (read-only containers, made by GDScript) ----------------------------------

const CONST_EMPTY_ARRAY := []
const CONST_ONE := [1]
const CONST_TWO := ["a", 2.5]
const CONST_MIXED := [0, -2, 2147483648, 9223372036854775807, 2.5, -0.0, 0.1, "text", "",
		"héllo 日本 😀", &"name", &"", Vector3(1, 2, 3), Vector3(-0.0, 0.5, 1e30), Vector2i(3, -4),
		Color(0.1, 0.2, 0.3, 0.4), NodePath("a/b:c"), null, true, {"k": [1, 2], 3: {"deep": &"x"}},
		[1, [2, []]]]
const CONST_NO_INTS: Array[int] = []
const CONST_ONE_INT: Array[int] = [7]
const CONST_INTS: Array[int] = [1, -2147483649]
const CONST_FLOATS: Array[float] = [0.5, -0.0, 1e300]
const CONST_STRINGS: Array[String] = ["a", "héllo"]
const CONST_NAMES: Array[StringName] = [&"x", &"why"]
const CONST_VECTORS: Array[Vector3] = [Vector3(1, 2, 3), Vector3(-1, 0, 0.1)]
const CONST_ARRAYS: Array[Array] = [[1, "a"], []]
const CONST_DICTIONARIES: Array[Dictionary] = [{"a": 1}, {}]
const CONST_EMPTY_DICTIONARY := {}
const CONST_ONE_ENTRY := {"a": 1}
const CONST_TWO_ENTRIES := {2: "b", &"c": Vector3(1, 2, 3)}
const CONST_DICTIONARY := {"int": 1, "float": 2.5, "string": "s", &"name": &"n", 7: Vector3(1, 2, 3),
		Vector3i(1, 2, 3): ["x", "y"], "nested": {"x": [1, 2], "y": {"z": null}}, 2.5: [&"a", "b"]}
const CONST_NO_ENTRIES: Dictionary[String, int] = {}
const CONST_ONE_TYPED_ENTRY: Dictionary[String, int] = {"one": 1}
const CONST_TYPED_ENTRIES: Dictionary[String, int] = {"one": 1, "two": 2}
const CONST_NAMED_VECTORS: Dictionary[StringName, Vector3] = {&"up": Vector3(0, 1, 0), &"x": Vector3(1, 0, 0)}
const CONST_INT_ARRAYS: Dictionary[int, Array] = {1: [1], 2: ["two", 2.0]}
const CONST_ANY_VALUES: Dictionary[String, Variant] = {"a": 1, "b": "two", "c": [3], "d": null}
const CONST_ANY_KEYS: Dictionary[Variant, float] = {"a": 1.5, 2: -0.0, Vector2(1, 2): 3.0}
## Constants holding constants (read-only in read-only).
const CONST_NESTED := [CONST_INTS, CONST_DICTIONARY, CONST_TYPED_ENTRIES, [1, [2, {"deep": CONST_STRINGS}]]]
const CONST_NESTED_DICTIONARY := {"list": CONST_STRINGS, "typed": CONST_TYPED_ENTRIES, "mixed": CONST_MIXED,
		"inner": {"x": CONST_VECTORS}}
const CONST_TYPED_NESTED: Array[Array] = [CONST_ONE, CONST_TWO, CONST_NO_INTS]


# --- The values --------------------------------------------------------------------------

## Every constant, by name.
func const_values() -> Dictionary:
	return {
		"const []": CONST_EMPTY_ARRAY, "const [1]": CONST_ONE, "const [a, 2.5]": CONST_TWO,
		"const mixed Array": CONST_MIXED, "const Array[int] (empty)": CONST_NO_INTS,
		"const Array[int] (1)": CONST_ONE_INT, "const Array[int] (2)": CONST_INTS,
		"const Array[float]": CONST_FLOATS, "const Array[String]": CONST_STRINGS,
		"const Array[StringName]": CONST_NAMES, "const Array[Vector3]": CONST_VECTORS,
		"const Array[Array]": CONST_ARRAYS,
		"const Array[Dictionary]": CONST_DICTIONARIES, "const {}": CONST_EMPTY_DICTIONARY,
		"const {a: 1}": CONST_ONE_ENTRY, "const 2 entries": CONST_TWO_ENTRIES,
		"const mixed Dictionary": CONST_DICTIONARY, "const Dictionary[String, int] (empty)": CONST_NO_ENTRIES,
		"const Dictionary[String, int] (1)": CONST_ONE_TYPED_ENTRY,
		"const Dictionary[String, int] (2)": CONST_TYPED_ENTRIES,
		"const Dictionary[StringName, Vector3]": CONST_NAMED_VECTORS,
		"const Dictionary[int, Array]": CONST_INT_ARRAYS, "const Dictionary[String, Variant]": CONST_ANY_VALUES,
		"const Dictionary[Variant, float]": CONST_ANY_KEYS, "const nested Array": CONST_NESTED,
		"const nested Dictionary": CONST_NESTED_DICTIONARY, "const Array[Array] of consts": CONST_TYPED_NESTED,
	}


## `make_read_only()` containers, by name: copies of the constants (read-only on the outside
## only, and read-only all the way down), writable containers holding read-only ones, and
## large ones.
func made_read_only_values() -> Dictionary:
	var values := {}
	var constants := const_values()
	for name in constants:
		var what: String = name.trim_prefix("const ")
		values["read-only " + what] = read_only(constants[name].duplicate(true))
		values["deep read-only " + what] = deep_read_only(constants[name].duplicate(true))
	# Packed arrays (not constant expressions in GDScript) in read-only containers.
	var packed := packed_arrays()
	var typed_packed: Array[PackedInt32Array] = [PackedInt32Array([1, 2, 3]), PackedInt32Array()]
	var packed_by_name: Dictionary[String, PackedStringArray] = {"a": PackedStringArray(["x", "é"]), "b": PackedStringArray()}
	var packed_values := {}
	for i in packed.size():
		packed_values[type_string(typeof(packed[i]))] = packed[i]
	values["read-only [packed arrays]"] = read_only(packed.duplicate())
	values["read-only mixed Array and packed arrays"] = read_only(CONST_MIXED + packed)
	values["read-only Array[PackedInt32Array]"] = read_only(typed_packed)
	values["read-only Dictionary[String, PackedStringArray]"] = read_only(packed_by_name)
	values["read-only {packed arrays}"] = read_only(packed_values)
	values["deep read-only nested packed arrays"] = deep_read_only([packed.duplicate(), {"p": packed.duplicate(),
			"d": packed_values.duplicate()}])
	# Writable containers holding read-only ones.
	var ro_ints: Array[int] = [1, 2, 3]
	ro_ints.make_read_only()
	var ro_dictionary := {"a": [1, 2], "b": {"c": &"d"}}
	ro_dictionary.make_read_only()
	var ro_typed: Dictionary[String, int] = {"x": 1}
	ro_typed.make_read_only()
	var arrays: Array[Array] = [ro_ints, [4], CONST_TWO]
	var by_name: Dictionary[String, Array] = {"ints": ro_ints, "const": CONST_MIXED}
	var by_key := {ro_dictionary: 1, "typed": ro_typed}
	values["writable [read-only ...]"] = [ro_ints, ro_dictionary, ro_typed, CONST_DICTIONARY, 5]
	values["writable {read-only ...}"] = {"ints": ro_ints, "dict": ro_dictionary, "const": CONST_NESTED}
	values["writable Array[Array] of read-only"] = arrays
	values["writable Dictionary[String, Array] of read-only"] = by_name
	values["writable Dictionary with a read-only key"] = by_key
	# Read-only holding writable and read-only alike.
	values["read-only [writable, read-only]"] = read_only([[1, 2], ro_ints, {"w": 1}, ro_dictionary, CONST_ONE])
	values["read-only {writable, read-only}"] = read_only({"w": [1], "ro": ro_ints, "typed": ro_typed})
	values.merge(large_values())
	return values


## One packed array of each type.
static func packed_arrays() -> Array:
	return [PackedByteArray([1, 2, 3]), PackedInt32Array([-1, 2]), PackedInt64Array([9223372036854775807]),
			PackedFloat32Array([0.5, -0.0]), PackedFloat64Array([0.1]), PackedStringArray(["a", "", "é"]),
			PackedVector2Array([Vector2(1, 2)]), PackedVector3Array([Vector3(1, 2, 3)]),
			PackedColorArray([Color(1, 0, 0, 1)]), PackedVector4Array([Vector4(1, 2, 3, 4)]), PackedByteArray()]


## Read-only containers of LARGE elements (and packed arrays large enough that the codec
## shares their copies and texts with other threads).
func large_values() -> Dictionary:
	var mixed := []
	var ints: Array[int] = []
	var floats: Array[float] = []
	var strings: Array[String] = []
	var names: Array[StringName] = []
	var vectors: Array[Vector3] = []
	var small_arrays: Array[Array] = []
	var dictionary := {}
	var typed_dictionary: Dictionary[String, int] = {}
	var vectors_by_int: Dictionary[int, Vector3] = {}
	for i in LARGE:
		match i % 8:
			0: mixed.append(i)
			1: mixed.append(i * 0.25)
			2: mixed.append("s%d" % i)
			3: mixed.append(StringName("n%d" % i))
			4: mixed.append(Vector3(i, -i, 0.5))
			5: mixed.append(PackedInt32Array([i, -i]))
			6: mixed.append({"i": i, "list": [i]})
			7: mixed.append(read_only([i, "x"]))
		ints.append(i * 7919 - 5000)
		floats.append(i / 3.0)
		strings.append("text %d é" % i)
		names.append(StringName("name%d" % i))
		vectors.append(Vector3(i, i * 0.5, -i))
		small_arrays.append(read_only([i, str(i)]))
		dictionary["key %d" % i] = [i, float(i) / 7] if i % 2 else {"v": StringName("x%d" % i)}
		typed_dictionary["k%d" % i] = i
		vectors_by_int[i * 3] = Vector3(i, 0, -i)
	var bytes := PackedByteArray()
	bytes.resize(3 << 20)
	for i in range(0, bytes.size(), 4096):
		bytes[i] = i >> 12 & 0xFF
	var texts := PackedStringArray()
	for i in 20_000:
		texts.append("text %d 😀" % i)
	return {
		"large read-only Array": read_only(mixed),
		"large read-only Array[int]": read_only(ints),
		"large read-only Array[float]": read_only(floats),
		"large read-only Array[String]": read_only(strings),
		"large read-only Array[StringName]": read_only(names),
		"large read-only Array[Vector3]": read_only(vectors),
		"large read-only Array[Array] of read-only": read_only(small_arrays),
		"large read-only Dictionary": read_only(dictionary),
		"large read-only Dictionary[String, int]": read_only(typed_dictionary),
		"large read-only Dictionary[int, Vector3]": read_only(vectors_by_int),
		"read-only [large packed arrays]": read_only([bytes, texts, CONST_MIXED]),
		"read-only {large packed arrays}": read_only({"bytes": bytes, "texts": texts}),
	}


## Read-only containers holding objects (scripted Resources, RefCounted): written as ids,
## or whole with full_objects.
func object_values() -> Dictionary:
	var stored := StoredResource.new()
	stored.count = 11
	stored.child = StoredResource.new()
	var resources: Array[Resource] = [stored, Resource.new()]
	return {
		"read-only [objects]": read_only([stored, RefCounted.new(), null, 1]),
		"read-only Array[Resource]": read_only(resources),
		"read-only {objects}": read_only({"stored": stored, "list": read_only([stored])}),
	}


## Every value, by name: the constants, the made read-only ones and, with `objects`, those
## holding objects.
func all_values(objects: bool) -> Dictionary:
	var values := const_values()
	values.merge(made_read_only_values())
	if objects:
		values.merge(object_values())
	return values


# --- Tests -------------------------------------------------------------------------------

## The values are what the tests say they are: read-only on the outside, and constants
## read-only all the way down, typed where declared so.
func test_the_values_are_read_only() -> void:
	var values := all_values(true)
	for name in values:
		var writable: bool = name.begins_with("writable")
		assert_eq(values[name].is_read_only(), not writable, "%s is %s" % [name, "writable" if writable else "read-only"])
	for name in const_values():
		var flags := read_only_flags(const_values()[name])
		assert_that(not flags.has(false), "%s is read-only all the way down (%s)" % [name, flags])
	assert_eq(CONST_INTS.get_typed_builtin(), TYPE_INT, "const Array[int] is typed")
	assert_eq(CONST_TYPED_ENTRIES.get_typed_value_builtin(), TYPE_INT, "const Dictionary[String, int] is typed")
	var large := large_values()
	assert_eq(large["large read-only Array[int]"].size(), LARGE, "large Arrays hold %d elements" % LARGE)
	assert_eq(large["large read-only Dictionary"].size(), LARGE, "large Dictionaries hold %d entries" % LARGE)


func test_encode_matches_var_to_bytes() -> void:
	for full_objects in [false, true]:
		var codec := FastVariantCodec.new()
		codec.full_objects = full_objects
		var values := all_values(true)
		for name in values:
			var value = values[name]
			var what := "%s%s" % [name, " (full_objects)" if full_objects else ""]
			var before := state_of(value)
			var expected := engine_bytes(value, full_objects)
			assert_bytes(codec.encode(value), expected, "encode of " + what)
			assert_eq(codec.get_error(), OK, "get_error() after encode of %s (%s)" % [what, codec.get_error_message()])
			assert_eq(codec.encoded_size(value), expected.size(), "encoded_size of " + what)
			assert_unchanged(value, before, what)


func test_decode_matches_bytes_to_var() -> void:
	for allow_objects in [false, true]:
		var codec := FastVariantCodec.new()
		codec.allow_objects = allow_objects
		var values := all_values(true)
		for name in values:
			var bytes := engine_bytes(values[name], allow_objects)
			var what := "%s%s" % [name, " (allow_objects)" if allow_objects else ""]
			var expected = bytes_to_var_with_objects(bytes) if allow_objects else bytes_to_var(bytes)
			var decoded = codec.decode(bytes)
			assert_eq(codec.get_error(), OK, "get_error() after decode of %s (%s)" % [what, codec.get_error_message()])
			assert_decoded(decoded, expected, "decode of " + what)
			assert_eq(codec.get_decoded_size(), bytes.size(), "get_decoded_size() for " + what)


## The batch and stream methods on lists of read-only values, the lists themselves writable,
## read-only and constant; in both object modes.
func test_batches_and_streams_match_the_engine() -> void:
	for objects in [false, true]:
		var codec := FastVariantCodec.new()
		codec.full_objects = objects
		codec.allow_objects = objects
		var mode := " (objects)" if objects else ""
		var named := all_values(true)
		var values := named.values()
		var states := values.map(state_of)
		var lists := {"values": values, "read-only list of values": read_only(values.duplicate()),
				"const list": CONST_NESTED, "const Array[int] as the list": CONST_INTS,
				"const Array[Array] as the list": CONST_TYPED_NESTED}
		for list_name in lists:
			var list: Array = lists[list_name]
			var what: String = list_name + mode
			var expected := list.map(func(v) -> PackedByteArray: return engine_bytes(v, objects))
			var packets := codec.encode_batch(list)
			assert_eq(codec.get_error(), OK, "encode_batch of %s: get_error() (%s)" % [what, codec.get_error_message()])
			if assert_eq(packets.size(), list.size(), "encode_batch of %s: one packet per value" % what):
				for i in list.size():
					assert_bytes(packets[i], expected[i], "encode_batch of %s: packet %d" % [what, i])
			var decoded := codec.decode_batch(read_only(Array(expected, TYPE_PACKED_BYTE_ARRAY, &"", null)))
			assert_eq(codec.get_error(), OK, "decode_batch of %s: get_error() (%s)" % [what, codec.get_error_message()])
			if assert_eq(decoded.size(), list.size(), "decode_batch of %s: one value per packet" % what):
				for i in list.size():
					assert_decoded(decoded[i], engine_value(expected[i], objects), "decode_batch of %s: value %d" % [what, i])

			var peer := StreamPeerBuffer.new()
			for value in list:
				peer.put_var(value, objects)
			var stream := codec.encode_stream(list)
			assert_eq(codec.get_error(), OK, "encode_stream of %s: get_error() (%s)" % [what, codec.get_error_message()])
			assert_bytes(stream, peer.data_array, "encode_stream of %s == StreamPeer.put_var" % what)
			var streamed := codec.decode_stream(peer.data_array)
			assert_eq(codec.get_error(), OK, "decode_stream of %s: get_error() (%s)" % [what, codec.get_error_message()])
			if assert_eq(streamed.size(), list.size(), "decode_stream of %s: every value" % what):
				for i in list.size():
					assert_decoded(streamed[i], engine_value(expected[i], objects), "decode_stream of %s: value %d" % [what, i])
		for i in values.size():
			assert_unchanged(values[i], states[i], "%s after the batches%s" % [named.keys()[i], mode])


## Threads encode the same read-only values at once (WorkerThreadPool tasks): the bytes the
## engine gives, and the values stay as they were.
func test_threads_encode_shared_read_only_values() -> void:
	var named := const_values()
	named.merge(made_read_only_values())
	var values := named.values()
	var states := values.map(state_of)
	var expected := values.map(func(v) -> PackedByteArray: return var_to_bytes(v))
	var results := []
	results.resize(6)
	var lock := Mutex.new()
	var group := WorkerThreadPool.add_group_task(func(task: int) -> void:
		var codec := FastVariantCodec.new()
		var encoded := values.map(func(v) -> PackedByteArray: return codec.encode(v))
		var batch := Array(codec.encode_batch(values))
		lock.lock()
		results[task] = [encoded, batch]
		lock.unlock(), results.size())
	WorkerThreadPool.wait_for_group_task_completion(group)
	for task in results.size():
		for i in values.size():
			var name: String = named.keys()[i]
			assert_bytes(results[task][0][i], expected[i], "task %d: encode of %s" % [task, name])
			assert_bytes(results[task][1][i], expected[i], "task %d: encode_batch of %s" % [task, name])
	for i in values.size():
		assert_unchanged(values[i], states[i], named.keys()[i] + " after the threads")


# --- Helpers -----------------------------------------------------------------------------

## `container` made read-only (on the outside only), returned.
static func read_only(container: Variant) -> Variant:
	container.make_read_only()
	return container


## `value` with every container in it made read-only, innermost first, returned.
static func deep_read_only(value: Variant) -> Variant:
	if value is Array:
		for element in value:
			deep_read_only(element)
		value.make_read_only()
	elif value is Dictionary:
		for key in value:
			deep_read_only(key)
			deep_read_only(value[key])
		value.make_read_only()
	return value


## Whether each container in `value` is read-only, depth first (keys, then values).
static func read_only_flags(value: Variant, flags := []) -> Array:
	if value is Array:
		flags.append(value.is_read_only())
		for element in value:
			read_only_flags(element, flags)
	elif value is Dictionary:
		flags.append(value.is_read_only())
		for key in value:
			read_only_flags(key, flags)
			read_only_flags(value[key], flags)
	return flags


## What must not change when the codec reads `value`: its bytes and every container's
## read-only flag.
static func state_of(value: Variant) -> Array:
	return [var_to_bytes(value), read_only_flags(value)]


func assert_unchanged(value: Variant, before: Array, what: String) -> void:
	var after := state_of(value)
	assert_eq(after[1], before[1], what + ": read-only flags unchanged")
	assert_bytes(after[0], before[0], what + ": content unchanged (its var_to_bytes)")


static func engine_bytes(value: Variant, objects: bool) -> PackedByteArray:
	return var_to_bytes_with_objects(value) if objects else var_to_bytes(value)


static func engine_value(bytes: PackedByteArray, objects: bool) -> Variant:
	return bytes_to_var_with_objects(bytes) if objects else bytes_to_var(bytes)


## Bytes that should be equal; on a difference, both around the first differing byte.
func assert_bytes(actual: PackedByteArray, expected: PackedByteArray, what: String) -> bool:
	if actual == expected:
		return true
	fail("%s: %s" % [what, Mismatches.compare_bytes(expected, actual).replace("\n", "\n        ")])
	return false


## A decoded value that should be the engine's: the same value (assert_same) with the same
## read-only flags (none: decoding makes writable containers).
func assert_decoded(actual: Variant, expected: Variant, what: String) -> void:
	var diff := difference(actual, expected)
	if diff:
		fail("%s: %s\n        %s" % [what, diff, Mismatches.compare_values(expected, actual).replace("\n", "\n        ")])
	assert_eq(read_only_flags(actual), read_only_flags(expected), what + ": read-only flags")
