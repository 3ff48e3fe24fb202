## FastVariantCodec against the engine on values that lived: Dictionaries whose keys were
## changed after insertion (Arrays, packed arrays and Dictionaries appended to, cleared,
## changed in place), whose object keys and values were freed, containers shared as key and
## value and then changed, made read-only, copied and the original changed, entries erased,
## re-inserted and sorted. A lookup by key misses such keys (their hash changed, or their
## object is gone); the engine writes them all by walking its list of entries, and so must
## the codec: the same bytes through encode, the static var_to_bytes, encoded_size,
## encode_batch and encode_stream, with objects as ids and whole; the same values decoded;
## and the value left exactly as it was.
##
## Every case is made from its own seed (FVC_SEED, else DEFAULT_SEED; the index of each
## failing case is printed), so a run replays exactly. FVC_HISTORY_CASES sets how many
## (default CASES). Prints `history cases: N agreed, N disagreed`, which `cargo xtask test`
## adds up over its settings.
##
## Also: scripts that change the very arguments of a call while it runs (a getter run by
## full objects, a setter or `_init` run by objects decoded whole): the codec works on the
## arguments as they were when the call began.
extends "res://test_runner/test_suite.gd"

const RandomValues := preload("res://tests/support/random_values.gd")
const Mismatches := preload("res://tests/support/mismatches.gd")
const Seeds := preload("res://tests/support/seeds.gd")
const Meddler := preload("res://fixtures/meddler.gd")

const DEFAULT_SEED := 27112026
const CASES := 3000
const COUNT_VARIABLE := "FVC_HISTORY_CASES"
## Cases encoded from several threads at once (values without objects).
const THREAD_CASES := 200


# --- Values with a history -------------------------------------------------------------------

## Makes values, then changes them after the fact. Objects come from `values`'s pool and
## from Nodes made here (freed by free_all).
class History:
	var values: RandomValues
	var rng: RandomNumberGenerator
	var with_objects: bool
	var _nodes: Array[Node] = []

	func _init(values_: RandomValues, with_objects_: bool) -> void:
		values = values_
		rng = values_.rng
		with_objects = with_objects_

	func free_all() -> void:
		for node in _nodes:
			if is_instance_valid(node):
				node.free()
		_nodes.clear()

	## A value with a history, and what was done to it.
	func make() -> Array:
		var story := PackedStringArray()
		var value = _case(story, 0)
		if rng.randi() % 4 == 0:
			value = _wrap(value, story)
		return [value, ", ".join(story)]

	func _case(story: PackedStringArray, depth: int) -> Variant:
		var kinds := 6 if with_objects else 5
		match rng.randi() % kinds:
			0:
				return _changed_keys(story, depth)
			1:
				return _shared(story)
			2:
				return _erased_and_sorted(story, depth)
			3:
				return _copies(story, depth)
			4:
				return _read_only(_changed_keys(story, depth), story)
			_:
				return _freed_objects(story)

	## A container key: an Array (typed or not), a packed array, or a Dictionary.
	func _container_key() -> Variant:
		match rng.randi() % 8:
			0:
				return [rng.randi() % 5]
			1:
				return Array([rng.randi() % 5, rng.randi() % 9], TYPE_INT, &"", null)
			2:
				return PackedInt32Array([rng.randi() % 5])
			3:
				return PackedByteArray([1, 2, rng.randi() % 255])
			4:
				return PackedStringArray([values.random_string()])
			5:
				return PackedVector2Array([Vector2(rng.randf(), 1)])
			6:
				return {rng.randi() % 4: "v"}
			_:
				return [values.random_string(), [1]]

	## Changes a container in place, as a script would.
	func _change(container, story: PackedStringArray) -> void:
		var how := rng.randi() % 4
		if container is Dictionary:
			match how:
				0:
					container[values.random_string()] = rng.randi()
				1:
					container.clear()
				2:
					if not container.is_empty():
						container.erase(container.keys()[0])
					container[-1] = []
				_:
					for key in container:
						container[key] = values.element(2)
			story.append("Dictionary key %s" % ["set", "cleared", "erased", "values changed"][how])
			return
		match how:
			0:
				if container is Array and container.is_typed():
					container.append(rng.randi())
				elif container is Array:
					container.append(values.element(2))
				else:
					container.append(_element_like(container))
			1:
				container.clear()
			2:
				if container.size() > 0:
					container[0] = container[container.size() - 1]
					container.reverse()
				container.resize(container.size() + 2)
			_:
				container.resize(maxi(0, container.size() - 1))
		story.append("%s key %s" % [type_string(typeof(container)), ["appended to", "cleared", "changed and grown", "shrunk"][how]])

	## An element that fits a packed array.
	func _element_like(packed) -> Variant:
		match typeof(packed):
			TYPE_PACKED_STRING_ARRAY:
				return values.random_string()
			TYPE_PACKED_VECTOR2_ARRAY:
				return Vector2(rng.randf(), -1)
		return rng.randi() % 200

	## A Dictionary with container keys (typed or not), some of them changed afterwards;
	## sometimes two keys that become equal.
	func _changed_keys(story: PackedStringArray, depth: int) -> Dictionary:
		var dictionary := {}
		if rng.randi() % 3 == 0:
			dictionary = Dictionary({}, TYPE_ARRAY, &"", null, TYPE_NIL, &"", null)
		var keys := []
		for i in rng.randi_range(1, 6):
			var key = _container_key()
			if dictionary.is_typed_key() and not key is Array:
				key = [i]
			if rng.randi() % 3 == 0 and not dictionary.is_typed_key():
				key = values.element(2)  # a plain key beside them
			else:
				keys.append(key)
			dictionary[key] = values.element(depth + 2) if rng.randi() % 4 else key
		for key in keys:
			if rng.randi() % 3 != 0:
				_change(key, story)
		if keys.size() >= 2 and rng.randi() % 5 == 0 and keys[0] is Array and keys[1] is Array:
			# Two keys made equal.
			keys[0].clear()
			keys[1].clear()
			story.append("two keys made equal")
		if depth < 2 and rng.randi() % 3 == 0 and not dictionary.is_typed_key():
			dictionary["nested"] = _changed_keys(story, depth + 1)
		return dictionary

	## One container as key and value (and elsewhere), then changed.
	func _shared(story: PackedStringArray) -> Variant:
		var shared = _container_key()
		var value = [shared, {shared: shared}, {"k": shared}] if rng.randi() % 2 else {shared: shared}
		_change(shared, story)
		story.append("shared as key and value")
		return value

	## Entries erased and re-inserted (holes in the list, a new order), sorted, merged.
	func _erased_and_sorted(story: PackedStringArray, depth: int) -> Dictionary:
		var dictionary := {}
		for i in rng.randi_range(2, 12):
			dictionary[values.element(depth + 2) if rng.randi() % 2 else i] = values.element(depth + 2)
		var keys := dictionary.keys()
		for key in keys:
			if rng.randi() % 3 == 0:
				dictionary.erase(key)
				if rng.randi() % 2 == 0:
					dictionary[key] = "back"
		story.append("entries erased and re-inserted")
		if rng.randi() % 3 == 0:
			dictionary.sort()
			story.append("sorted")
		if rng.randi() % 4 == 0:
			dictionary.merge({0: "merged", "new": 1}, rng.randi() % 2 == 0)
			story.append("merged")
		if rng.randi() % 2 == 0:
			var key = _container_key()
			dictionary[key] = 1
			_change(key, story)
		return dictionary

	## Shallow and deep copies, then the original's keys changed: both written.
	func _copies(story: PackedStringArray, depth: int) -> Array:
		var original := _changed_keys(story, depth)
		var typed := original.is_typed_key()
		var key = [rng.randi() % 7, "copied"] if typed else _container_key()
		original[key] = "copied"
		var shallow := original.duplicate()
		var deep := original.duplicate(true)
		_change(key, story)
		original[[-1] if typed else "after copy"] = 1
		story.append("copied (shallow and deep), then the original changed")
		return [original, shallow, deep]

	## Made read-only (the outer container; the containers inside it, keys among them, stay
	## writable and were changed before).
	func _read_only(value, story: PackedStringArray):
		value.make_read_only()
		story.append("made read-only")
		return value

	## Object keys and values, some freed afterwards: typed Dictionary[Node, …] and
	## Dictionary[Object, …], untyped ones, Array[Node].
	func _freed_objects(story: PackedStringArray) -> Variant:
		var made: Array[Node] = []
		for i in rng.randi_range(1, 5):
			var node := Node.new() if rng.randi() % 2 else Node2D.new()
			node.name = "History%d" % i
			made.append(node)
			_nodes.append(node)
		var dictionary: Variant
		match rng.randi() % 4:
			0:
				var typed: Dictionary[Node, int] = {}
				for i in made.size():
					typed[made[i]] = i
				dictionary = typed
			1:
				var typed: Dictionary[Object, Variant] = {}
				for node in made:
					typed[node] = values.element(2)
				typed[RefCounted.new()] = "refcounted"
				dictionary = typed
			2:
				var typed: Dictionary[StringName, Node] = {}
				for node in made:
					typed[StringName(node.name)] = node
				dictionary = typed
			_:
				dictionary = {}
				for node in made:
					dictionary[node] = node if rng.randi() % 2 else values.element(2)
		var nodes: Array[Node] = made.duplicate()
		var freed := 0
		for i in made.size():
			# The first key often: the walk must not start from it.
			if i == 0 and rng.randi() % 2 or rng.randi() % 3 == 0:
				made[i].free()
				freed += 1
		story.append("%d of %d object keys/values freed" % [freed, made.size()])
		return [dictionary, nodes] if rng.randi() % 3 == 0 else dictionary

	## Put inside other containers, maybe read-only ones.
	func _wrap(value, story: PackedStringArray) -> Variant:
		var wrapped = [1, value, "after"] if rng.randi() % 2 else {"inner": value, 2: [value]}
		if rng.randi() % 3 == 0:
			wrapped.make_read_only()
			story.append("wrapped read-only")
		else:
			story.append("wrapped")
		return wrapped


# --- Tests -------------------------------------------------------------------------------------

## Every way of encoding gives the engine's bytes, decoding gives the engine's value, and the
## value is left as it was.
func test_values_with_a_history_match_the_engine() -> void:
	var seed_value := Seeds.run_seed(self, DEFAULT_SEED)
	var values := RandomValues.new(seed_value)
	values.max_nesting = 2
	var history := History.new(values, true)
	var codec := FastVariantCodec.new()
	var whole := FastVariantCodec.new()
	whole.full_objects = true
	var found := Mismatches.new(seed_value)
	var count := case_count()
	var disagreed := 0
	for i in count:
		values.reseed(Seeds.input_seed(seed_value, "history", i))
		var made := history.make()
		var before := found.count
		check_case(made[0], made[1], i, codec, whole, found)
		if found.count != before:
			disagreed += 1
		if i % 64 == 63:
			history.free_all()
	history.free_all()
	values.free_all()
	print("    history cases: %d agreed, %d disagreed" % [count - disagreed, disagreed])
	found.report(self, count, "values with a history")


## The same values (without objects) encoded from several threads at once, and on the main
## thread meanwhile: each gives the engine's bytes.
func test_values_with_a_history_shared_between_threads() -> void:
	var seed_value := Seeds.run_seed(self, DEFAULT_SEED, false)
	var values := RandomValues.new(seed_value, false)
	values.max_nesting = 2
	var history := History.new(values, false)
	var cases := []
	var expected: Array[PackedByteArray] = []
	for i in THREAD_CASES:
		values.reseed(Seeds.input_seed(seed_value, "threads", i))
		cases.append(history.make()[0])
		expected.append(var_to_bytes(cases[i]))
	var results := []
	results.resize(THREAD_CASES * 4)
	var task := WorkerThreadPool.add_group_task(func(j: int) -> void:
		results[j] = FastVariantCodec.var_to_bytes(cases[j % THREAD_CASES]), THREAD_CASES * 4)
	var on_main := []
	for value in cases:
		on_main.append(FastVariantCodec.var_to_bytes(value))
	WorkerThreadPool.wait_for_group_task_completion(task)
	var wrong := 0
	for j in results.size():
		if results[j] != expected[j % THREAD_CASES]:
			wrong += 1
	for i in THREAD_CASES:
		if on_main[i] != expected[i]:
			wrong += 1
	assert_eq(wrong, 0, "values with a history encoded on several threads at once")


## The same seed gives the same case: what makes FVC_SEED replay a failure. (One generator
## for both: a Callable or Signal key hashes the object it names, and where a changed key's
## stale hash meets another key, which entries a lookup finds depends on those hashes.)
func test_the_same_seed_gives_the_same_history() -> void:
	var values := RandomValues.new(91, false)
	var history := History.new(values, false)
	for i in 200:
		values.reseed(Seeds.input_seed(91, "replay", i))
		var x := history.make()
		values.reseed(Seeds.input_seed(91, "replay", i))
		var y := history.make()
		if not assert_eq(var_to_bytes(x[0]), var_to_bytes(y[0]), "case %d: %s" % [i, x[1]]):
			break
		assert_eq(x[1], y[1], "case %d's story" % i)


## The generator really makes what it says: keys whose lookup misses, freed object keys,
## read-only containers.
func test_the_history_generator_makes_keys_that_a_lookup_misses() -> void:
	var values := RandomValues.new(5)
	var history := History.new(values, true)
	var missed := 0
	var freed_keys := 0
	var read_only := 0
	for i in 400:
		values.reseed(Seeds.input_seed(5, "coverage", i))
		var value = history.make()[0]
		var dictionaries := []
		_dictionaries_in(value, dictionaries, 0)
		for dictionary: Dictionary in dictionaries:
			if dictionary.is_read_only():
				read_only += 1
			for key in dictionary.keys():
				if typeof(key) == TYPE_OBJECT and not is_instance_valid(key):
					freed_keys += 1
				elif not dictionary.has(key):
					missed += 1
		history.free_all()
	values.free_all()
	assert_that(missed > 50, "only %d keys that a lookup misses" % missed)
	assert_that(freed_keys > 50, "only %d freed object keys" % freed_keys)
	assert_that(read_only > 20, "only %d read-only dictionaries" % read_only)


# --- Scripts that change a call's arguments while it runs --------------------------------------

## encode_batch and encode_stream with full objects, while a getter clears or grows the
## Array of values: the values as they were.
func test_a_getter_that_changes_the_batch_being_encoded() -> void:
	for change in ["clear", "grow"]:
		var make := func() -> Array: return [1, Meddler.new(), "after", [2, Meddler.new()], {"m": Meddler.new()}]
		var expected: Array[PackedByteArray] = []
		var peer := StreamPeerBuffer.new()
		for value in make.call():
			expected.append(var_to_bytes_with_objects(value))
			peer.put_var(value, true)
		var stream := peer.data_array
		var codec := FastVariantCodec.new()
		codec.full_objects = true
		var batch: Array = make.call()
		_meddle_with(batch, change, "get")
		var packets := codec.encode_batch(batch)
		Meddler.stop()
		assert_eq(codec.get_error(), OK, "encode_batch, %s: %s" % [change, codec.get_error_message()])
		assert_eq(packets, expected, "encode_batch while a getter did %s: the values as they were" % change)
		batch = make.call()
		_meddle_with(batch, change, "get")
		var streamed := codec.encode_stream(batch)
		Meddler.stop()
		assert_eq(codec.get_error(), OK, "encode_stream, %s: %s" % [change, codec.get_error_message()])
		assert_eq(streamed, stream, "encode_stream while a getter did %s: the values as they were" % change)


## decode, decode_stream and the static bytes_to_var... with objects allowed, while the
## decoded object's setter or `_init` clears or grows the very PackedByteArray being read.
func test_a_setter_or_init_that_changes_the_bytes_being_decoded() -> void:
	var value := [Meddler.new(), "x".repeat(3000), PackedInt32Array(range(2000)), {"after": Meddler.new()}]
	var original := var_to_bytes_with_objects(value)
	Meddler.stop()
	var expected = bytes_to_var_with_objects(original)
	var codec := FastVariantCodec.new()
	codec.allow_objects = true
	for when in ["set", "init"]:
		for change in ["clear", "grow"]:
			var bytes := original.duplicate()
			_meddle_with(bytes, change, when)
			var decoded = codec.decode(bytes)
			Meddler.stop()
			assert_eq(codec.get_error(), OK, "decode, %s in %s: %s" % [change, when, codec.get_error_message()])
			assert_eq(difference(decoded, expected), "", "decode while %s did %s: the bytes as they were" % [when, change])
			# Without the library, a value holding whole objects has no size (see FastVariant).
			assert_eq(codec.get_decoded_size(), 0 if without_library() else original.size(),
					"decode's size while %s did %s" % [when, change])
			var framing := StreamPeerBuffer.new()
			framing.put_32(original.size())
			framing.put_data(original)
			var stream := framing.data_array
			_meddle_with(stream, change, when)
			var streamed := codec.decode_stream(stream)
			Meddler.stop()
			assert_eq(codec.get_error(), OK, "decode_stream, %s in %s: %s" % [change, when, codec.get_error_message()])
			assert_eq(difference(streamed, [expected]), "", "decode_stream while %s did %s" % [when, change])


## decode_batch with objects allowed, while a setter or `_init` clears or grows the Array
## of packets: every packet as it was.
func test_a_setter_or_init_that_changes_the_batch_being_decoded() -> void:
	var packets := [var_to_bytes_with_objects(Meddler.new()), var_to_bytes(1),
			var_to_bytes_with_objects([Meddler.new(), "x"]), var_to_bytes("last")]
	Meddler.stop()
	var expected := packets.map(func(p: PackedByteArray): return bytes_to_var_with_objects(p))
	var codec := FastVariantCodec.new()
	codec.allow_objects = true
	for when in ["set", "init"]:
		for change in ["clear", "grow"]:
			var batch := packets.duplicate()
			_meddle_with(batch, change, when)
			var decoded := codec.decode_batch(batch)
			Meddler.stop()
			assert_eq(codec.get_error(), OK, "decode_batch, %s in %s: %s" % [change, when, codec.get_error_message()])
			assert_eq(difference(decoded, expected), "", "decode_batch while %s did %s: the packets as they were" % [when, change])


# --- Helpers -----------------------------------------------------------------------------------

## Compares every way of encoding and decoding `value` with the engine's; `story` says what
## was done to it.
func check_case(value, story: String, i: int, codec: FastVariantCodec, whole: FastVariantCodec,
		found: Mismatches) -> void:
	var expected := var_to_bytes(value)
	var with_objects := var_to_bytes_with_objects(value)
	var shown := func() -> String: return "%s (%s)" % [Mismatches.show(value), story]
	var compare := func(kind: String, actual: PackedByteArray, wanted: PackedByteArray, c: FastVariantCodec) -> void:
		if actual != wanted:
			found.add_bytes(i, kind, "%s of %s (%s: %s)" % [kind, shown.call(), error_string(c.get_error()),
					c.get_error_message()], wanted, actual)
	compare.call("encode", codec.encode(value), expected, codec)
	compare.call("static var_to_bytes", FastVariantCodec.var_to_bytes(value), expected, codec)
	if codec.encoded_size(value) != expected.size():
		found.add(i, "encoded_size", "encoded_size of %s = %d, the engine wrote %d bytes" % [shown.call(),
				codec.encoded_size(value), expected.size()])
	var packets := codec.encode_batch([value, 7])
	compare.call("encode_batch", packets[0] if packets.size() == 2 else PackedByteArray(), expected, codec)
	var peer := StreamPeerBuffer.new()
	peer.put_var(value)
	compare.call("encode_stream", codec.encode_stream([value]), peer.data_array, codec)
	compare.call("full_objects encode", whole.encode(value), with_objects, whole)
	# Decoding: the engine's value (objects as ids: nothing made that needs freeing).
	var decoded = codec.decode(expected)
	var engine_value = bytes_to_var(expected)
	var diff := difference(decoded, engine_value)
	if codec.get_error() != OK or diff:
		found.add(i, "decode", "decode of the bytes of %s: %s %s" % [shown.call(), codec.get_error_message(), diff])
	var batch := codec.decode_batch([expected])
	if batch.size() != 1 or difference(batch[0], engine_value):
		found.add(i, "decode_batch", "decode_batch of the bytes of %s" % shown.call())
	# Left as it was: the same bytes, the same read-only state.
	if var_to_bytes(value) != expected or var_to_bytes_with_objects(value) != with_objects:
		found.add(i, "changed", "the codec changed %s" % shown.call())


func _meddle_with(target, change: String, when: String) -> void:
	Meddler.target = target
	Meddler.change = change
	Meddler.when = when


## The Dictionaries in `value`, its own and nested ones.
static func _dictionaries_in(value, into: Array, depth: int) -> void:
	if depth > 4:
		return
	if value is Dictionary:
		into.append(value)
		for key in value.keys():
			_dictionaries_in(key, into, depth + 1)
		for item in value.values():
			_dictionaries_in(item, into, depth + 1)
	elif value is Array:
		for item in value:
			_dictionaries_in(item, into, depth + 1)


## How many cases: FVC_HISTORY_CASES if set (printed), else CASES.
func case_count() -> int:
	return Seeds.count_from_environment(self, COUNT_VARIABLE, CASES, "cases")
