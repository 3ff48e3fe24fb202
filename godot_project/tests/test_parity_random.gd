## FastVariantCodec against the engine on random values of every Variant type: boundary
## numbers, NaN payloads, subnormals, Unicode up to astral characters, nested and typed
## containers (built-in, class and script element types), live, scripted and freed objects,
## with objects as ids and whole.
##
## The seed comes from the environment variable FVC_SEED, else DEFAULT_SEED; it is printed,
## and a failure names it with the index of each failing value. Each value is made from its
## own seed (the run's seed and its index), so a run replays exactly. FVC_RANDOM_VALUES sets
## how many values the objects-as-ids test checks (default ID_MODE_VALUES; the whole-object
## test checks 3/10 as many): a shorter run where the engine is slow, as under emulation
## (cargo xtask package --check runs it in the arm64 Godot under qemu-user).
extends "res://test_runner/test_suite.gd"

const RandomValues := preload("res://tests/support/random_values.gd")
const Mismatches := preload("res://tests/support/mismatches.gd")
const Seeds := preload("res://tests/support/seeds.gd")

const DEFAULT_SEED := 4062026
## Values checked with objects as instance ids (var_to_bytes / bytes_to_var).
const ID_MODE_VALUES := 20000
## Values checked with objects whole (var_to_bytes_with_objects / bytes_to_var_with_objects).
const FULL_OBJECT_VALUES := 6000
const COUNT_VARIABLE := "FVC_RANDOM_VALUES"


# --- Objects as ids ------------------------------------------------------------------------

## encode == var_to_bytes, encoded_size == its size, decode of the engine's bytes ==
## bytes_to_var with the engine's decoded size, also at an offset; and every one of the 39
## types (and every kind of container element type) really was generated.
func test_random_values_match_the_engine() -> void:
	var seed_value := run_seed()
	var values := RandomValues.new(seed_value)
	var codec := FastVariantCodec.new()
	var found := Mismatches.new(seed_value)
	var coverage := Coverage.new()
	var count := id_mode_values()
	for i in count:
		values.reseed(value_seed(seed_value, "id", i))
		var value = values.value()
		coverage.add(value)
		var expected := var_to_bytes(value)
		var actual := codec.encode(value)
		if actual != expected:
			found.add_bytes(i, "encode", "encode(%s) != var_to_bytes (%s: %s)" % [Mismatches.show(value),
					error_string(codec.get_error()), codec.get_error_message()], expected, actual)
		var size := codec.encoded_size(value)
		if size != expected.size():
			found.add(i, "encoded_size", "encoded_size(%s) = %d, var_to_bytes gives %d bytes" % [
					Mismatches.show(value), size, expected.size()])
		check_decode(codec, expected, 0, false, i, found, value)
		if i % 8 == 0:
			# The same bytes after some garbage, read from an offset.
			var prefix := PackedByteArray()
			prefix.resize(4 * (1 + i % 5) + i % 3)
			prefix.fill(0xA5)
			check_decode(codec, prefix + expected, prefix.size(), false, i, found, value)
	values.free_all()
	found.report(self, count)
	coverage.check(self)


# --- Whole objects ---------------------------------------------------------------------------

## With full_objects: encode == var_to_bytes_with_objects, encoded_size == its size; with
## allow_objects: decode == bytes_to_var_with_objects, of those bytes and of the id-mode ones.
func test_random_values_with_whole_objects_match_the_engine() -> void:
	var seed_value := run_seed()
	var values := RandomValues.new(seed_value)
	values.distinct_keys = true
	var writer := FastVariantCodec.new()
	writer.full_objects = true
	var reader := FastVariantCodec.new()
	reader.allow_objects = true
	var found := Mismatches.new(seed_value)
	var objects_written := 0
	var count := id_mode_values() * FULL_OBJECT_VALUES / ID_MODE_VALUES
	for i in count:
		values.reseed(value_seed(seed_value, "full", i))
		# Every other value is an object or a container of objects.
		var value = values.value() if i % 2 else _object_value(values)
		var expected := var_to_bytes_with_objects(value)
		var plain := var_to_bytes(value)
		if expected != plain:
			objects_written += 1
		var actual := writer.encode(value)
		if actual != expected:
			found.add_bytes(i, "encode", "full_objects encode(%s) != var_to_bytes_with_objects (%s: %s)" % [
					Mismatches.show(value), error_string(writer.get_error()), writer.get_error_message()], expected, actual)
		var size := writer.encoded_size(value)
		if size != expected.size():
			found.add(i, "encoded_size", "full_objects encoded_size(%s) = %d, var_to_bytes_with_objects gives %d bytes" % [
					Mismatches.show(value), size, expected.size()])
		check_decode(reader, expected, 0, true, i, found, value)
		check_decode(reader, plain, 0, true, i, found, value, " (objects as ids)")
	values.free_all()
	found.report(self, count)
	assert_that(objects_written > count / 3,
			"only %d of %d values held objects written whole" % [objects_written, count])


## An object, or a container (typed or not) holding objects.
func _object_value(values: RandomValues) -> Variant:
	match values.rng.randi() % 4:
		0:
			return values.random_object()
		1:
			var items := []
			for i in values.rng.randi_range(1, 4):
				items.append(values.random_object())
			return items
		2:
			var type := [TYPE_OBJECT, RandomValues.OBJECT_CLASSES[values.rng.randi() % RandomValues.OBJECT_CLASSES.size()], null]
			if values.rng.randi() % 3 == 0:
				type = [TYPE_OBJECT, &"Resource", RandomValues.StoredResource]
			var items := []
			for i in values.rng.randi_range(0, 4):
				items.append(values.element_of(type, 1))
			return Array(items, type[0], type[1], type[2])
		_:
			var dictionary: Dictionary[StringName, Resource] = {}
			for candidate in values.objects_of(&"Resource", null):
				if values.rng.randi() % 2:
					dictionary[StringName(values.random_string())] = candidate
			return dictionary


# --- The harness itself ---------------------------------------------------------------------

## The same seed gives the same values: what makes FVC_SEED replay a failure. (Two
## generators have two object pools: objects compare by class, not by instance.)
func test_the_same_seed_gives_the_same_values() -> void:
	var first := RandomValues.new(77)
	var second := RandomValues.new(77)
	for i in 500:
		first.reseed(value_seed(77, "replay", i))
		second.reseed(value_seed(77, "replay", i))
		var a = first.value()
		var b = second.value()
		if not assert_eq(shape(a), shape(b), "value %d: %s" % [i, Mismatches.show(a)]):
			break
	first.free_all()
	second.free_all()


## A value's bytes with objects (and Signals, which name one) replaced by their class.
static func shape(value) -> String:
	match typeof(value):
		TYPE_OBJECT:
			return "<%s>" % (value.get_class() if is_instance_valid(value) else "freed")
		TYPE_SIGNAL:
			return "<signal %s>" % value.get_name()
		TYPE_ARRAY:
			return "%s[%s]" % [var_to_bytes(Array([], value.get_typed_builtin(), value.get_typed_class_name(),
					value.get_typed_script())).hex_encode(), ", ".join(value.map(shape))]
		TYPE_DICTIONARY:
			var entries := PackedStringArray()
			for key in value:
				entries.append("%s: %s" % [shape(key), shape(value[key])])
			return "%d%d{%s}" % [value.get_typed_key_builtin(), value.get_typed_value_builtin(), ", ".join(entries)]
	return var_to_bytes(value).hex_encode()


func test_fvc_seed_is_read_from_the_environment() -> void:
	var saved := OS.get_environment("FVC_SEED")
	OS.set_environment("FVC_SEED", "123456789")
	assert_eq(run_seed(false), 123456789, "FVC_SEED=123456789")
	OS.unset_environment("FVC_SEED")
	assert_eq(run_seed(false), DEFAULT_SEED, "FVC_SEED unset")
	if saved != "":
		OS.set_environment("FVC_SEED", saved)


func test_fvc_random_values_is_read_from_the_environment() -> void:
	var saved := OS.get_environment(COUNT_VARIABLE)
	# First the bad value, whose failure is taken back (reset) once counted.
	OS.set_environment(COUNT_VARIABLE, "many")
	var fallback := id_mode_values(false)
	var failed := failures().size()
	reset()
	assert_eq(fallback, ID_MODE_VALUES, "%s=many" % COUNT_VARIABLE)
	assert_eq(failed, 1, "%s=many fails the test (not a positive integer)" % COUNT_VARIABLE)
	OS.set_environment(COUNT_VARIABLE, "300")
	assert_eq(id_mode_values(false), 300, "%s=300" % COUNT_VARIABLE)
	OS.unset_environment(COUNT_VARIABLE)
	assert_eq(id_mode_values(false), ID_MODE_VALUES, "%s unset" % COUNT_VARIABLE)
	if saved != "":
		OS.set_environment(COUNT_VARIABLE, saved)


# --- Helpers ---------------------------------------------------------------------------------

func run_seed(announce := true) -> int:
	return Seeds.run_seed(self, DEFAULT_SEED, announce)


## How many values the objects-as-ids test checks: FVC_RANDOM_VALUES if set (printed), else
## ID_MODE_VALUES; a value that is not a positive integer fails the test.
func id_mode_values(announce := true) -> int:
	return Seeds.count_from_environment(self, COUNT_VARIABLE, ID_MODE_VALUES, "values", announce)


static func value_seed(seed_value: int, stream: String, index: int) -> int:
	return Seeds.input_seed(seed_value, stream, index)


## Decodes `bytes` from `offset` with `codec` and with the engine (PackedByteArray.decode_var,
## which bytes_to_var calls): the same value, the same size, no error. The engine's size is
## its decode_var_size; with objects, the rest of the bytes (the engine uses all it wrote,
## which the id-mode test checks), since decode_var_size would instantiate objects and
## leak the Nodes among them.
func check_decode(codec: FastVariantCodec, bytes: PackedByteArray, offset: int, objects: bool,
		index: int, found: Mismatches, value, label := "") -> void:
	# The engine prints an error when it decodes a Dictionary typed with a script (it drops
	# the type; the codec, through the engine, too): not what this checks, so not printed.
	Engine.print_error_messages = not objects
	var expected = bytes.decode_var(offset, objects)
	var expected_size := bytes.size() - offset if objects else bytes.decode_var_size(offset, false)
	var actual = codec.decode(bytes, offset)
	Engine.print_error_messages = true
	var mode := "allow_objects decode" if objects else "decode"
	var shown := func() -> String: return Mismatches.show(value) + label
	if codec.get_error() != OK:
		found.add(index, mode + " error", "%s of %s (offset %d) failed: %s\n        bytes: %s" % [
				mode, shown.call(), offset, codec.get_error_message(), Mismatches.hex_window(bytes, offset)])
	else:
		var diff := difference(actual, expected)
		if diff:
			found.add(index, mode, "%s of the bytes of %s (offset %d): %s\n        input: %s\n        %s" % [
					mode, shown.call(), offset, diff, Mismatches.hex_window(bytes, offset),
					Mismatches.compare_values(expected, actual).replace("\n", "\n        ")])
		if codec.get_decoded_size() != expected_size:
			found.add(index, mode + " size", "%s of %s: get_decoded_size() = %d, the engine used %d bytes" % [
					mode, shown.call(), codec.get_decoded_size(), expected_size])
	if objects:
		RandomValues.free_decoded(expected)
		RandomValues.free_decoded(actual)


## What the generator made: top-level types, and the kinds of container element types.
class Coverage:
	var types := {}
	var kinds := {}

	func add(value) -> void:
		types[typeof(value)] = types.get(typeof(value), 0) + 1
		if value is Array and value.is_typed():
			_kind("Array", value.get_typed_builtin(), value.get_typed_script())
		elif value is Dictionary and value.is_typed():
			_kind("Dictionary key", value.get_typed_key_builtin(), value.get_typed_key_script())
			_kind("Dictionary value", value.get_typed_value_builtin(), value.get_typed_value_script())

	func _kind(what: String, builtin: int, script) -> void:
		var kind := "%s of %s" % [what, "script" if script else "class" if builtin == TYPE_OBJECT
				else "Variant" if builtin == TYPE_NIL else "builtin"]
		kinds[kind] = kinds.get(kind, 0) + 1

	func check(suite) -> void:
		var missing := []
		for t in TYPE_MAX:
			if not types.has(t):
				missing.append(type_string(t))
		suite.assert_that(missing.is_empty(), "types never generated: %s" % [missing])
		for what in ["Array", "Dictionary key", "Dictionary value"]:
			for of in ["builtin", "class", "script"]:
				var kind: String = "%s of %s" % [what, of]
				suite.assert_that(kinds.has(kind), "never generated: a typed %s" % kind)
