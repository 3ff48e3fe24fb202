## FastVariantCodec against the engine on hostile bytes: engine-made bytes of random values
## (var_to_bytes, var_to_bytes_with_objects), mutated — bit flips, cuts at every kind of
## point, length and count words set to 0, off by one, huge, 0x7FFFFFFF, 0xFFFFFFFF, type
## bytes changed (to 39 and beyond too), header flag bits set, container type words
## changed, words inserted, deleted, swapped, other values spliced in, garbage appended.
##
## For every input, the codec must accept exactly what the engine accepts
## (PackedByteArray.has_encoded_var), use as many bytes (decode_var_size) and give the same
## value (decode_var, as bytes_to_var does); without objects and with allow_objects.
##
## The seed comes from FVC_SEED, else DEFAULT_SEED (printed; a failure names it and the
## input's index). The engine prints an error for each input it refuses: those are turned
## off while it decodes (they are engine errors, not script errors, either way).
extends "res://test_runner/test_suite.gd"

const RandomValues := preload("res://tests/support/random_values.gd")
const WireMap := preload("res://tests/support/wire_map.gd")
const Mismatches := preload("res://tests/support/mismatches.gd")
const Seeds := preload("res://tests/support/seeds.gd")

const DEFAULT_SEED := 5150
## Mutated var_to_bytes inputs (objects as ids, Nodes among them), decoded without objects.
const PLAIN_INPUTS := 60000
## Mutated inputs holding whole objects, decoded with allow_objects, then without.
const OBJECT_INPUTS := 30000
## Engine-made values the inputs are mutated from, per test.
const CORPUS_SIZE := 800
## Values whose every prefix is decoded.
const CUT_VALUES := 250
## A decode slower than this is reported (a hostile length must not make the codec crawl).
const SLOW_DECODE_USEC := 2000000

const MUTATIONS := ["bit flip", "header bit", "byte", "cut", "cut at a field", "length", "type",
		"flags", "container type", "append", "insert word", "delete word", "splice", "swap words"]
## Values for length and count words, besides ones near the original and the remaining size.
const ODD_LENGTHS := [0, 1, 0x7FFFFFFF, 0xFFFFFFFF, 0x80000000, 0x40000000, 0x3FFFFFFF,
		0x1FFFFFFF, 0x10000000, 0x7FFFFFFE, 0xFFFFFFFE, 0x0FFFFFFF]
## Type bytes the engine does not know.
const BAD_TYPES := [39, 40, 41, 63, 64, 100, 127, 128, 200, 254, 255]


# --- Tests -----------------------------------------------------------------------------------

## var_to_bytes of random values (every type, objects as ids), mutated, without objects.
func test_mutated_bytes_match_the_engine() -> void:
	var seed_value := Seeds.run_seed(self, DEFAULT_SEED)
	var corpus := Corpus.new(self, seed_value, "plain", true)
	corpus.screen(self, [false])
	var found := Mismatches.new(seed_value)
	var stats := fuzz(corpus, PLAIN_INPUTS, [false], seed_value, "plain", found)
	corpus.values.free_all()
	found.report(self, PLAIN_INPUTS, "mutated inputs")
	stats.check(self, PLAIN_INPUTS)


## var_to_bytes_with_objects of random values with objects (RefCounted and Resource classes,
## a scripted Resource; no Nodes, which a refused decode would leak), mutated, decoded
## with allow_objects and without.
func test_mutated_whole_objects_match_the_engine() -> void:
	var seed_value := Seeds.run_seed(self, DEFAULT_SEED)
	var corpus := Corpus.new(self, seed_value, "objects", false)
	corpus.screen(self, [true, false])
	var found := Mismatches.new(seed_value)
	var stats := fuzz(corpus, OBJECT_INPUTS, [true, false], seed_value, "objects", found)
	corpus.values.free_all()
	found.report(self, OBJECT_INPUTS * 2, "decodes of mutated inputs")
	stats.check(self, OBJECT_INPUTS)
	assert_that(stats.objects_made > OBJECT_INPUTS / 20,
			"only %d of %d mutated inputs decoded to whole objects" % [stats.objects_made, OBJECT_INPUTS])


## Every prefix of engine-made bytes (cut inside headers, lengths, strings, padding,
## elements, objects), with and without objects.
func test_every_cut_matches_the_engine() -> void:
	var seed_value := Seeds.run_seed(self, DEFAULT_SEED)
	var found := Mismatches.new(seed_value)
	var inputs := 0
	for objects in [false, true]:
		var corpus := Corpus.new(self, seed_value, "cuts %s" % objects, not objects, CUT_VALUES)
		corpus.screen(self, [objects])
		var codec := FastVariantCodec.new()
		codec.allow_objects = objects
		for i in corpus.bytes.size():
			var bytes: PackedByteArray = corpus.bytes[i]
			for length in mini(bytes.size(), 600):
				inputs += 1
				var result := check(codec, bytes.slice(0, length), 0, objects)
				if result.problem:
					found.add(inputs, result.problem, "%d of the %d bytes of corpus value %d (%s)\n        %s" % [
							length, bytes.size(), i, Mismatches.show(corpus.values_made[i]), result.details])
		corpus.values.free_all()
	found.report(self, inputs, "cut inputs")
	print("    %d cut inputs" % inputs)


## Typed containers holding elements of other types, which var_to_bytes never writes but
## bytes_to_var reads: Array[T], Dictionary[T, Variant] (keys) and Dictionary[Variant, T]
## (values) for every built-in T, each holding a sample of every type. The engine
## converts, keeps or drops the element; the codec must do the same.
func test_typed_containers_of_other_types_match_the_engine() -> void:
	var codec := FastVariantCodec.new()
	var samples := conversion_samples()
	# "element type <- sample type" -> [containers, samples that differ, the first example]
	var pairs := {}
	var inputs := 0
	var differ := 0
	for target in range(1, TYPE_MAX):
		for sample in samples:
			for container in ["Array", "Dictionary key", "Dictionary value"]:
				inputs += 1
				var result := check(codec, typed_container_bytes(container, [1, target], sample[1]), 0, false)
				if result.problem:
					differ += 1
					var pair := "%s <- %s" % [type_string(target), sample[2]]
					if not pairs.has(pair):
						pairs[pair] = [{}, 0, "%s[%s] holding %s: %s" % [container, type_string(target), sample[0], result.summary]]
					pairs[pair][0][container] = true
					pairs[pair][1] += 1
	var lines := PackedStringArray()
	for pair in pairs:
		lines.append("%s (%d case(s), in %s), e.g. %s" % [pair, pairs[pair][1], ", ".join(pairs[pair][0].keys()), pairs[pair][2]])
	if differ:
		report_lines(lines, "%d of %d typed containers decode differently from the engine, in %d element-type <- sample-type pairs:" % [
				differ, inputs, pairs.size()])
	print("    %d typed containers" % inputs)


## Object-typed containers (a class name, a script path) holding whole objects of other
## classes, ids, null and non-objects, with allow_objects and without.
func test_object_typed_containers_match_the_engine() -> void:
	var elements := [
		["RefCounted", var_to_bytes_with_objects(RefCounted.new())],
		["Resource", var_to_bytes_with_objects(Resource.new())],
		["StoredResource", var_to_bytes_with_objects(RandomValues.StoredResource.new())],
		["Gradient", var_to_bytes_with_objects(Gradient.new())],
		["InputEventKey", var_to_bytes_with_objects(InputEventKey.new())],
		["EncodedObjectAsID", var_to_bytes_with_objects(EncodedObjectAsID.new())],
		["null object", RandomValues.words_to_bytes([TYPE_OBJECT, 0])],
		["object id", RandomValues.words_to_bytes([TYPE_OBJECT | 1 << 16, 4242, 0])],
		["object id 0", RandomValues.words_to_bytes([TYPE_OBJECT | 1 << 16, 0, 0])],
		["null", var_to_bytes(null)], ["int", var_to_bytes(5)], ["String", var_to_bytes("x")],
	]
	var types := []
	for class_name_ in ["Object", "RefCounted", "Resource", "Gradient", "InputEvent", "InputEventKey",
			"EncodedObjectAsID", "Node", "Texture2D", "NoSuchClass", ""]:
		types.append([2, class_name_])
	for path in [RandomValues.StoredResource.resource_path, "res://no_such_script.gd", "user://x.gd", "", "res://"]:
		types.append([3, path])
	var differ := PackedStringArray()
	var inputs := 0
	for objects in [true, false]:
		var codec := FastVariantCodec.new()
		codec.allow_objects = objects
		for type in types:
			for element in elements:
				for container in ["Array", "Dictionary key", "Dictionary value"]:
					inputs += 1
					var result := check(codec, typed_container_bytes(container, type, element[1]), 0, objects)
					if result.problem:
						differ.append("%s%s[%s] holding %s: %s" % ["" if objects else "(no objects) ", container,
								"%s %s" % ["class" if type[0] == 2 else "script", type[1]], element[0], result.summary])
	if differ:
		report_lines(differ, "%d of %d object-typed containers decode differently from the engine:" % [differ.size(), inputs])


## With allow_objects, an object the engine cannot make (unknown or abstract class, bad
## script) fails the decode even where the decode would then discard it: dropped by a
## typed container, or overwritten by a later duplicate Dictionary key.
func test_objects_a_decode_discards_fail_like_the_engine() -> void:
	var words := RandomValues.words_to_bytes
	var cases := {
		"Array[int] holding an object of an unknown class":
				words.call([TYPE_ARRAY | 1 << 16, TYPE_INT, 1, TYPE_OBJECT]) + _name("NoSuchClass") + words.call([0]),
		"Array[int] holding an object of a class that cannot be instantiated":
				words.call([TYPE_ARRAY | 1 << 16, TYPE_INT, 1, TYPE_OBJECT]) + _name("Input") + words.call([0]),
		"Array[int] holding a Resource with a script path that does not exist":
				words.call([TYPE_ARRAY | 1 << 16, TYPE_INT, 1, TYPE_OBJECT]) + _name("Resource") + words.call([1])
				+ _name("script") + var_to_bytes("res://no_such_script.gd"),
		"Dictionary[int, Variant] with a key of an unknown class":
				words.call([TYPE_DICTIONARY | 1 << 16, TYPE_INT, 1, TYPE_OBJECT]) + _name("NoSuchClass")
				+ words.call([0, TYPE_INT, 5]),
		"Dictionary whose duplicate key overwrites an object of an unknown class":
				words.call([TYPE_DICTIONARY, 2, TYPE_INT, 1, TYPE_OBJECT]) + _name("NoSuchClass")
				+ words.call([0, TYPE_INT, 1, TYPE_INT, 5]),
		# For comparison, objects that can be made and are then discarded.
		"Array[int] holding a Resource":
				words.call([TYPE_ARRAY | 1 << 16, TYPE_INT, 1, TYPE_OBJECT]) + _name("Resource") + words.call([0]),
		"Dictionary whose duplicate key overwrites a Resource":
				words.call([TYPE_DICTIONARY, 2, TYPE_INT, 1, TYPE_OBJECT]) + _name("Resource")
				+ words.call([0, TYPE_INT, 1, TYPE_INT, 5]),
	}
	var codec := FastVariantCodec.new()
	codec.allow_objects = true
	for name in cases:
		var result := check(codec, cases[name], 0, true)
		assert_that(result.problem.is_empty(), "%s: %s" % [name, result.summary])


## A String's length and bytes, as class and property names are written.
static func _name(text: String) -> PackedByteArray:
	return var_to_bytes(text).slice(4)


## Samples of every type, as [shown, bytes, type name]: edge values, and values some conversion
## (can_convert_strict) could take: numeric strings, colour names, vectors, transforms,
## arrays of numbers, strings, vectors, packed arrays.
func conversion_samples() -> Array:
	var values := [null, true, false, 0, 1, -5, 1 << 40, 2.7, -0.0, NAN, 1e300, 3.0,
		"", "1", "2.5", "abc", "#ff8000", "red", "a/b:c", "[1, 2]",
		Vector2(1.5, -2.5), Vector2i(3, -4), Rect2(1, 2, 3, 4), Rect2i(1, 2, 3, 4), Vector3(1, 2, 3),
		Vector3i(1, 2, 3), Transform2D(0.5, Vector2(1, 2)), Vector4(1, 2, 3, 4), Vector4i(1, 2, 3, 4),
		Plane(0, 1, 0, 2), Quaternion(0, 0, 0.6, 0.8), Quaternion(1, 2, 3, 4), AABB(Vector3(1, 2, 3), Vector3(4, 5, 6)),
		Basis.from_euler(Vector3(0.1, 0.2, 0.3)), Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9)),
		Transform3D(Basis.from_euler(Vector3(0.1, 0.2, 0.3)), Vector3(1, 2, 3)), Projection.IDENTITY,
		Projection(Vector4(1, 2, 3, 4), Vector4(5, 6, 7, 8), Vector4(9, 10, 11, 12), Vector4(13, 14, 15, 16)),
		Color(0.1, 0.2, 0.3, 0.4), &"", &"x", &"1", NodePath("a/b:c"), NodePath(""),
		RandomValues.from_words(TYPE_RID, [5, 0]), Callable(), Signal(),
		{}, {1: 2}, [], [1, 2.5], [1, "a"], [true, false], [Vector2(1, 2)], [Vector3(1, 2, 3)],
		[Vector4(1, 2, 3, 4)], [Color.RED], ["a", &"b"], [[1]], [null], [1 << 40, -1],
		PackedByteArray(), PackedByteArray([1, 255]), PackedInt32Array([-1, 7]), PackedInt64Array([1 << 40]),
		PackedFloat32Array([1.5, NAN]), PackedFloat64Array([0.1, -0.0]), PackedStringArray(["a", "1"]),
		PackedVector2Array([Vector2(1, 2)]), PackedVector3Array([Vector3(1, 2, 3)]),
		PackedColorArray([Color.RED]), PackedVector4Array([Vector4(1, 2, 3, 4)]), PackedInt32Array()]
	var samples := []
	for value in values:
		samples.append([Mismatches.show(value), var_to_bytes(value), type_string(typeof(value))])
	samples.append(["object id 7", RandomValues.words_to_bytes([TYPE_OBJECT | 1 << 16, 7, 0]), "Object"])
	samples.append(["null object id", RandomValues.words_to_bytes([TYPE_OBJECT | 1 << 16, 0, 0]), "Object"])
	var typed_ints: Array[int] = [1, 2]
	var typed_names: Array[StringName] = [&"a"]
	samples.append(["Array[int] [1, 2]", var_to_bytes(typed_ints), "Array"])
	samples.append(["Array[StringName] [&\"a\"]", var_to_bytes(typed_names), "Array"])
	return samples


## A typed container with one element: `type` is [kind, type word or name] (kind 1: a
## built-in type, 2: a class name, 3: a script path); `element` the element's bytes.
static func typed_container_bytes(container: String, type: Array, element: PackedByteArray) -> PackedByteArray:
	var type_bytes: PackedByteArray
	if type[0] == 1:
		type_bytes = RandomValues.words_to_bytes([type[1]])
	else:
		type_bytes = var_to_bytes(String(type[1])).slice(4)  # a String's length and bytes
	match container:
		"Array":
			return RandomValues.words_to_bytes([TYPE_ARRAY | type[0] << 16]) + type_bytes \
					+ RandomValues.words_to_bytes([1]) + element
		"Dictionary key":
			return RandomValues.words_to_bytes([TYPE_DICTIONARY | type[0] << 16]) + type_bytes \
					+ RandomValues.words_to_bytes([1]) + element + var_to_bytes(0)
		_:
			return RandomValues.words_to_bytes([TYPE_DICTIONARY | type[0] << 18]) + type_bytes \
					+ RandomValues.words_to_bytes([1]) + var_to_bytes(0) + element


## Fails with `header` and the first lines of `lines` (bounded).
func report_lines(lines: PackedStringArray, header: String) -> void:
	const SHOWN := 60
	var text := header
	for i in mini(lines.size(), SHOWN):
		text += "\n      - " + lines[i]
	if lines.size() > SHOWN:
		text += "\n      ... and %d more" % (lines.size() - SHOWN)
	fail(text)


## The mutator aims where it means to: the map of engine-made bytes finds their fields.
func test_wire_map_reads_engine_bytes() -> void:
	var map := WireMap.new()
	# Array count 3: "a", 1, {"k": PackedInt32Array([1, 2])}.
	assert_that(map.parse(var_to_bytes(["a", 1, {"k": PackedInt32Array([1, 2])}])), "parse")
	assert_eq(map.size, 64, "size")
	assert_eq(map.headers, PackedInt32Array([0, 8, 20, 28, 36, 48]), "headers")
	assert_eq(map.lengths, PackedInt32Array([4, 12, 32, 40, 52]), "length words")
	var typed: Array[Vector2] = [Vector2()]
	assert_that(map.parse(var_to_bytes(typed)), "parse a typed Array")
	assert_eq(map.type_words, PackedInt32Array([4]), "its element type word")
	assert_that(not map.parse(var_to_bytes("abc").slice(0, 9)), "a cut value does not parse")


# --- The fuzzer ----------------------------------------------------------------------------

## Decodes `count` mutated inputs made from `corpus`, once per mode in `modes` (allow_objects
## on or off), comparing with the engine.
func fuzz(corpus: Corpus, count: int, modes: Array, seed_value: int, stream: String,
		found: Mismatches) -> Stats:
	var stats := Stats.new()
	var rng := RandomNumberGenerator.new()
	var codecs := {}
	for objects in modes:
		codecs[objects] = FastVariantCodec.new()
		codecs[objects].allow_objects = objects
	for i in count:
		rng.seed = Seeds.input_seed(seed_value, stream, i)
		var pick := rng.randi() % corpus.bytes.size()
		var original: PackedByteArray = corpus.bytes[pick]
		var input := original
		var kinds := PackedStringArray()
		for m in (1 if rng.randi() % 10 < 7 else rng.randi_range(2, 3)):
			var kind: String = MUTATIONS[rng.randi() % MUTATIONS.size()]
			input = mutate(input, kind, corpus.maps[pick], corpus.bytes, rng)
			kinds.append(kind)
			stats.kinds[kind] = stats.kinds.get(kind, 0) + 1
		var offset := rng.randi() % (input.size() + 1) if rng.randi() % 10 == 0 else 0
		for objects in modes:
			var result := check(codecs[objects], input, offset, objects)
			stats.add(result, objects)
			if result.problem:
				found.add(i, result.problem, "%s of corpus value %d (%s), %s%s\n        %s\n        %s" % [
						" + ".join(kinds), pick, Mismatches.show(corpus.values_made[pick]),
						"allow_objects" if objects else "no objects", ", offset %d" % offset if offset else "",
						"the input against the engine-made bytes it came from: " + Mismatches.compare_bytes(
								original, input, ["made   ", "mutated"]).replace("\n", "\n        "),
						result.details])
	return stats


## `bytes` after one mutation of kind `kind`; `map` locates the fields of the engine-made
## bytes the mutations started from (offsets past the end, after an earlier mutation, fall
## back to a bit flip).
func mutate(bytes: PackedByteArray, kind: String, map: WireMap, others: Array,
		rng: RandomNumberGenerator) -> PackedByteArray:
	var out := bytes.duplicate()
	if out.is_empty():
		return PackedByteArray([rng.randi() & 0xFF, 0, 0, 0])
	var header := _pick(map.headers, out, rng)
	match kind:
		"header bit":
			if header >= 0:
				out[header + rng.randi() % 4] ^= 1 << (rng.randi() % 8)
				return out
		"byte":
			out[rng.randi() % out.size()] = [0, 0xFF, 0x7F, 0x80, 0x01, rng.randi() & 0xFF][rng.randi() % 6]
			return out
		"cut":
			return out.slice(0, rng.randi() % out.size())
		"cut at a field":
			var field := _pick(map.all_words(), out, rng)
			if field >= 0:
				return out.slice(0, mini(field + rng.randi_range(0, 4), out.size() - 1))
		"length":
			var at := _pick(map.lengths, out, rng)
			if at >= 0:
				var length := out.decode_u32(at)
				var remaining := out.size() - at - 4
				var choices := [length - 1, length + 1, length + 2, length + 3, length + 4, length * 2,
						length | 0x80000000, remaining, remaining + 1, remaining / 4, remaining / 4 + 1,
						remaining / 8 + 1, rng.randi()]
				choices.append_array(ODD_LENGTHS)
				out.encode_u32(at, choices[rng.randi() % choices.size()] & 0xFFFFFFFF)
				return out
		"type":
			if header >= 0:
				out[header] = BAD_TYPES[rng.randi() % BAD_TYPES.size()] if rng.randi() % 3 == 0 \
						else rng.randi() % RandomValues.TYPE_COUNT
				return out
		"flags":
			if header >= 0:
				match rng.randi() % 4:
					0:  # the 64-bit / object-as-id flag, or typed-container kinds
						out[header + 2] ^= 1 << (rng.randi() % 4)
					1:
						out[header + 2] = rng.randi() & 0xFF
					2:  # the unused byte
						out[header + 1] = rng.randi() & 0xFF
					_:
						out[header + 3] = rng.randi() & 0xFF
				return out
		"container type":
			var at := _pick(map.type_words, out, rng)
			if at >= 0:
				out.encode_u32(at, [rng.randi() % 45, 0xFFFFFFFF, 0x80000000, TYPE_OBJECT, TYPE_NIL,
						out.decode_u32(at) ^ 2][rng.randi() % 6])
				return out
		"append":
			if rng.randi() % 2:
				return out + others[rng.randi() % others.size()]
			var garbage := PackedByteArray()
			garbage.resize(rng.randi_range(1, 16))
			for i in garbage.size():
				garbage[i] = rng.randi() & 0xFF
			return out + garbage
		"insert word":
			var at := (rng.randi() % (out.size() / 4 + 1)) * 4
			var word := RandomValues.words_to_bytes([[rng.randi(), 0, 1, 0x7FFFFFFF, TYPE_ARRAY, TYPE_STRING,
					TYPE_DICTIONARY | 1 << 16][rng.randi() % 7]])
			return out.slice(0, at) + word + out.slice(at)
		"delete word":
			if out.size() >= 4:
				var at := (rng.randi() % (out.size() / 4)) * 4
				return out.slice(0, at) + out.slice(at + 4)
		"splice":
			if header >= 0:
				var other: PackedByteArray = others[rng.randi() % others.size()]
				var tail := out.slice(header) if rng.randi() % 2 else PackedByteArray()
				return out.slice(0, header) + other + tail.slice(mini(other.size(), tail.size()))
		"swap words":
			if out.size() >= 8:
				var a := (rng.randi() % (out.size() / 4)) * 4
				var b := (rng.randi() % (out.size() / 4)) * 4
				var word := out.decode_u32(a)
				out.encode_u32(a, out.decode_u32(b))
				out.encode_u32(b, word)
				return out
	# "bit flip", and the fallback.
	for i in rng.randi_range(1, 3):
		out[rng.randi() % out.size()] ^= 1 << (rng.randi() % 8)
	return out


## A random offset of `offsets` that still has a whole word in `bytes`, or -1.
static func _pick(offsets: PackedInt32Array, bytes: PackedByteArray, rng: RandomNumberGenerator) -> int:
	if offsets.is_empty():
		return -1
	var at := offsets[rng.randi() % offsets.size()]
	return at if at + 4 <= bytes.size() else -1


## Decodes `bytes` from `offset` with `codec` and with the engine; `problem` is empty when
## they agree, else its kind, with `details`.
func check(codec: FastVariantCodec, bytes: PackedByteArray, offset: int, objects: bool) -> Result:
	var result := Result.new()
	Engine.print_error_messages = false
	result.accepted = bytes.has_encoded_var(offset, objects)
	var engine_size := bytes.decode_var_size(offset, objects)
	var expected = bytes.decode_var(offset, objects)
	var started := Time.get_ticks_usec()
	var actual = codec.decode(bytes, offset)
	var took := Time.get_ticks_usec() - started
	Engine.print_error_messages = true
	var error := codec.get_error()
	var input := "input (%d bytes)" % bytes.size()  # the bytes themselves below, when needed
	if result.accepted and error != OK:
		result.problem = "codec refuses what the engine accepts"
		result.details = "%s\n        the engine decodes %d bytes to %s; the codec says %s (%s)" % [input,
				engine_size, Mismatches.show(expected), codec.get_error_message(), error_string(error)]
	elif not result.accepted and error == OK:
		result.problem = "codec accepts what the engine refuses"
		result.details = "%s\n        the codec decodes %d bytes to %s" % [input, codec.get_decoded_size(),
				Mismatches.show(actual)]
	elif result.accepted:
		var diff := difference(actual, expected)
		if diff:
			result.problem = "different value"
			result.details = "%s\n        %s\n        %s" % [input, diff,
					Mismatches.compare_values(expected, actual).replace("\n", "\n        ")]
		elif codec.get_decoded_size() != engine_size:
			result.problem = "different size"
			result.details = "%s\n        the engine uses %d bytes, the codec %d" % [input, engine_size,
					codec.get_decoded_size()]
		result.objects = objects and _holds_whole_object(expected)
	elif actual != null:
		result.problem = "a refused decode is not null"
		result.details = "%s\n        decode gave %s with error %s" % [input, Mismatches.show(actual), error_string(error)]
	if not result.problem and took > SLOW_DECODE_USEC:
		result.problem = "slow decode"
		result.details = "%s\n        the codec took %d ms" % [input, took / 1000]
	if result.problem:
		result.details = result.details.replace(input, "%s: %s" % [input, Mismatches.hex_window(bytes, 0)])
		result.summary = "engine %s, codec %s" % [
				"gives " + Mismatches.show(expected) if result.accepted else "refuses",
				"gives " + Mismatches.show(actual) if error == OK else "refuses (%s)" % codec.get_error_message()]
	if objects:
		RandomValues.free_decoded(expected)
		RandomValues.free_decoded(actual)
	return result


static func _holds_whole_object(value) -> bool:
	if typeof(value) == TYPE_OBJECT:
		return is_instance_valid(value) and not value is EncodedObjectAsID
	if value is Array:
		return value.any(_holds_whole_object)
	if value is Dictionary:
		return value.keys().any(_holds_whole_object) or value.values().any(_holds_whole_object)
	return false


# --- Inputs and results --------------------------------------------------------------------

## Engine-made bytes of random values, with the map of their fields.
class Corpus:
	var values: RandomValues
	var values_made := []
	var bytes := []
	var maps := []

	## `ids`: var_to_bytes of values with Nodes among the objects, plus some
	## var_to_bytes_with_objects of values without; else var_to_bytes_with_objects of values
	## with (non-Node) objects, often.
	func _init(suite, seed_value: int, stream: String, ids: bool, size := CORPUS_SIZE) -> void:
		values = RandomValues.new(Seeds.input_seed(seed_value, stream, -1), true, ids)
		values.max_nesting = 2
		values.large_chance = 0.0
		values.distinct_keys = true
		for i in size:
			values.reseed(Seeds.input_seed(seed_value, stream, i))
			var value = values.value()
			var made: PackedByteArray
			if ids and i % 5:
				made = var_to_bytes(value)
			else:
				if not ids and i % 2:
					value = _with_objects(values)
				if _holds(value, "EncodedObjectAsID"):
					# Written whole, its object_id may end up set from an object a decode
					# makes: the id of a new instance, which differs between any two decodes.
					value = values.value_of_type(TYPE_PACKED_STRING_ARRAY, 0)
				made = var_to_bytes_with_objects(value) if not _holds(value, "Node") else var_to_bytes(value)
			var map := WireMap.new()
			if not suite.assert_that(map.parse(made), "the wire map cannot read the engine's bytes of %s: %s" % [
					Mismatches.show(value), Mismatches.hex_window(made)]):
				continue
			values_made.append(value)
			bytes.append(made)
			maps.append(map)

	## Leaves out the values whose engine-made bytes, unmutated, already decode differently
	## (test_parity_random reports those), so that what the fuzzer finds is about the
	## mutations; fails `suite` once, naming them.
	func screen(suite, modes: Array) -> void:
		var differ := PackedStringArray()
		for i in range(bytes.size() - 1, -1, -1):
			for objects in modes:
				var codec := FastVariantCodec.new()
				codec.allow_objects = objects
				var result: Result = suite.check(codec, bytes[i], 0, objects)
				if result.problem:
					differ.append("%s: %s (allow_objects %s): %s" % [result.problem, Mismatches.show(values_made[i]),
							objects, result.summary])
					values_made.remove_at(i)
					bytes.remove_at(i)
					maps.remove_at(i)
					break
		if differ:
			differ.reverse()
			suite.report_lines(differ.slice(0, 3), ("%d of the %d engine-made values decode differently before any " +
					"mutation (test_parity_random has the details); the fuzzer leaves them out. The first:") % [
					differ.size(), bytes.size() + differ.size()])

	static func _with_objects(values: RandomValues) -> Variant:
		match values.rng.randi() % 3:
			0:
				return values.random_object()
			1:
				var items := []
				for i in values.rng.randi_range(1, 3):
					items.append(values.random_object() if i % 2 else values.element(1))
				return items
			_:
				var dictionary := {}
				for i in values.rng.randi_range(1, 3):
					dictionary[values.random_string()] = values.random_object()
				return dictionary

	static func _holds(value, class_name_: String) -> bool:
		if typeof(value) == TYPE_OBJECT:
			return is_instance_valid(value) and value.is_class(class_name_)
		var holds := func(item) -> bool: return _holds(item, class_name_)
		if value is Array:
			return value.any(holds)
		if value is Dictionary:
			return value.keys().any(holds) or value.values().any(holds)
		return false


class Result:
	var accepted := false
	var objects := false
	var problem := ""
	var details := ""
	## One line: what each side made of the input.
	var summary := ""


class Stats:
	var kinds := {}
	var accepted := 0
	var refused := 0
	var objects_made := 0

	func add(result: Result, objects: bool) -> void:
		if result.accepted:
			accepted += 1
			if objects and result.objects:
				objects_made += 1
		else:
			refused += 1

	## The fuzz is not trivial: every mutation was made, and the engine both accepted and
	## refused a fair share of the inputs.
	func check(suite, inputs: int) -> void:
		print("    %d inputs; the engine accepted %d and refused %d decodes; mutations: %s" % [
				inputs, accepted, refused, kinds])
		for kind in MUTATIONS:
			suite.assert_that(kinds.get(kind, 0) >= inputs / MUTATIONS.size() / 4,
					"mutation %s made only %d times" % [kind, kinds.get(kind, 0)])
		var decodes := accepted + refused
		suite.assert_that(accepted > decodes / 20, "the engine accepted only %d of %d decodes" % [accepted, decodes])
		suite.assert_that(refused > decodes / 5, "the engine refused only %d of %d decodes" % [refused, decodes])
