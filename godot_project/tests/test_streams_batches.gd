## FastVariantCodec's batch and stream methods against the engine, one value at a time:
## encode_batch / decode_batch against var_to_bytes / bytes_to_var (random values, large
## packed arrays, empty batches, failing items); encode_stream against StreamPeer.put_var
## and FileAccess.store_var (a real file); decode_stream against FileAccess.get_var; cut
## and corrupt streams, whose errors name the value and the byte.
##
## Random values come from FVC_SEED, else DEFAULT_SEED (printed).
extends "res://test_runner/test_suite.gd"

const RandomValues := preload("res://tests/support/random_values.gd")
const Mismatches := preload("res://tests/support/mismatches.gd")
const Seeds := preload("res://tests/support/seeds.gd")

const DEFAULT_SEED := 271828
## Random values per batch or stream test.
const VALUES := 2500


# --- Batches -------------------------------------------------------------------------------

## encode_batch == var_to_bytes of each value, and decode_batch == bytes_to_var of each
## packet, for random values of every type and large packed arrays and containers.
func test_batches_match_the_engine_one_value_at_a_time() -> void:
	var values := random_values("batch", true) + large_values()
	var codec := FastVariantCodec.new()
	var packets := codec.encode_batch(values)
	assert_eq(codec.get_error(), OK, "encode_batch: get_error() (%s)" % codec.get_error_message())
	assert_eq(packets.get_typed_builtin(), TYPE_PACKED_BYTE_ARRAY, "encode_batch gives an Array[PackedByteArray]")
	if not assert_eq(packets.size(), values.size(), "one packet per value"):
		return
	var found := Mismatches.new(seed_value())
	var expected_packets: Array[PackedByteArray] = []
	for i in values.size():
		var expected := var_to_bytes(values[i])
		expected_packets.append(expected)
		if packets[i] != expected:
			found.add_bytes(i, "encode_batch", "packet %d of %s" % [i, Mismatches.show(values[i])], expected, packets[i])
	var decoded := codec.decode_batch(expected_packets)
	assert_eq(codec.get_error(), OK, "decode_batch: get_error() (%s)" % codec.get_error_message())
	if assert_eq(decoded.size(), values.size(), "one value per packet"):
		for i in values.size():
			var diff := difference(decoded[i], bytes_to_var(expected_packets[i]))
			if diff:
				found.add(i, "decode_batch", "packet %d (of %s): %s" % [i, Mismatches.show(values[i]), diff])
	found.report(self, values.size())
	_free_values()


## With full_objects and allow_objects: var_to_bytes_with_objects and
## bytes_to_var_with_objects, one value at a time.
func test_batches_with_whole_objects_match_the_engine() -> void:
	var values := random_values("batch objects", true)
	var codec := FastVariantCodec.new()
	codec.full_objects = true
	codec.allow_objects = true
	var packets := codec.encode_batch(values)
	assert_eq(codec.get_error(), OK, "encode_batch: get_error() (%s)" % codec.get_error_message())
	var found := Mismatches.new(seed_value())
	var expected_packets := []
	for i in values.size():
		expected_packets.append(var_to_bytes_with_objects(values[i]))
		if i < packets.size() and packets[i] != expected_packets[i]:
			found.add_bytes(i, "encode_batch", "packet %d of %s" % [i, Mismatches.show(values[i])],
					expected_packets[i], packets[i])
	# The engine prints an error for each Dictionary typed with a script it decodes (it drops
	# the script; the codec, through the engine, too): expected, so not printed.
	Engine.print_error_messages = false
	var decoded := codec.decode_batch(expected_packets)
	Engine.print_error_messages = true
	assert_eq(codec.get_error(), OK, "decode_batch: get_error() (%s)" % codec.get_error_message())
	for i in mini(decoded.size(), values.size()):
		var expected = quietly(func() -> Variant: return bytes_to_var_with_objects(expected_packets[i]))
		var diff := difference(decoded[i], expected)
		if diff:
			found.add(i, "decode_batch", "packet %d (of %s): %s" % [i, Mismatches.show(values[i]), diff])
		RandomValues.free_decoded(expected)
	RandomValues.free_decoded(decoded)
	assert_eq(packets.size(), values.size(), "one packet per value")
	assert_eq(decoded.size(), values.size(), "one value per packet")
	found.report(self, values.size())
	_free_values()


func test_empty_batches() -> void:
	var codec := FastVariantCodec.new()
	codec.decode(PackedByteArray([99, 0, 0, 0]))  # leaves an error behind
	var packets := codec.encode_batch([])
	assert_eq(packets, [] as Array[PackedByteArray], "encode_batch([])")
	assert_eq(packets.get_typed_builtin(), TYPE_PACKED_BYTE_ARRAY, "still an Array[PackedByteArray]")
	assert_eq(codec.get_error(), OK, "an empty batch is no error (the last call's outcome)")
	codec.decode(PackedByteArray([99, 0, 0, 0]))
	assert_eq(codec.decode_batch([]), [], "decode_batch([])")
	assert_eq(codec.get_error(), OK, "an empty batch is no error")
	assert_eq(codec.get_error_message(), "", "and no message")
	var no_packets: Array[PackedByteArray] = []
	assert_eq(codec.decode_batch(no_packets), [], "decode_batch of an empty Array[PackedByteArray]")
	assert_eq(codec.encode_stream([]), PackedByteArray(), "encode_stream([])")
	assert_eq(codec.get_error(), OK, "an empty stream is no error")


## Packets that fail (where the engine fails) give null at their index, as the class
## reference says, the others what decode() gives for them alone; get_error() and
## get_error_message() tell about the first failure as decode() of that packet alone does,
## prefixed with its index. A packet holding null is no failure.
func test_decode_batch_with_failing_packets() -> void:
	var rng := RandomNumberGenerator.new()
	rng.seed = seed_value()
	var values := random_values("failing packets", false, 400)
	var good := values.map(func(v) -> PackedByteArray: return var_to_bytes(v))
	var single := FastVariantCodec.new()
	var codec := FastVariantCodec.new()
	var found := Mismatches.new(seed_value())
	for round in 40:
		var packets := good.duplicate()
		var bad := {}
		for n in rng.randi_range(1, 5):
			var at := rng.randi() % packets.size()
			var packet: PackedByteArray = packets[at]
			match rng.randi() % 4:
				0:  # cut short inside the value
					if packet.size() <= 4:
						continue
					packets[at] = packet.slice(0, rng.randi_range(0, packet.size() - 1))
				1:  # unknown type
					packet = packet.duplicate()
					packet[0] = 39 + rng.randi() % 200
					packets[at] = packet
				2:
					packets[at] = PackedByteArray()
				_:  # whole object bytes, refused without allow_objects
					packets[at] = var_to_bytes_with_objects(Resource.new())
			bad[at] = true
		var decoded: Array = codec_quietly(func() -> Array: return codec.decode_batch(packets))
		if not assert_eq(decoded.size(), packets.size(), "round %d: one value per packet" % round):
			continue
		var first := -1
		for i in packets.size():
			var engine_accepts: bool = quietly(func() -> bool: return packets[i].has_encoded_var(0, false))
			# Compared with decode() of the packet alone (the test above compares with the engine).
			var alone = codec_quietly(func() -> Variant: return single.decode(packets[i]))
			if engine_accepts != (single.get_error() == OK):
				found.add(round * 1000 + i, "acceptance", "round %d, packet %d: the engine %s it, decode() %s" % [
						round, i, "accepts" if engine_accepts else "refuses", single.get_error_message()])
			if engine_accepts:
				var diff := difference(decoded[i], alone)
				if diff:
					found.add(round * 1000 + i, "decode_batch", "round %d, packet %d%s: %s" % [round, i,
							" (made to fail)" if bad.has(i) else "", diff])
			else:
				if decoded[i] != null:
					found.add(round * 1000 + i, "failing packet not null", "round %d, packet %d gives %s" % [
							round, i, Mismatches.show(decoded[i])])
				if first < 0:
					first = i
		if first < 0:
			continue  # every cut happened to leave a whole value
		codec_quietly(func() -> Variant: return single.decode(packets[first]))
		assert_eq(codec.get_error(), single.get_error(), "round %d: get_error() is that of packet %d" % [round, first])
		assert_eq(codec.get_error_message(), "value %d: %s" % [first, single.get_error_message()],
				"round %d: the message names packet %d and what decode() says of it" % [round, first])
	found.report(self, 40 * values.size(), "packets")
	_free_values()

	# Not a PackedByteArray: null, ERR_INVALID_PARAMETER.
	var mixed := codec.decode_batch([var_to_bytes(1), 5, "x", null, [1, 2], var_to_bytes(null), var_to_bytes("y")])
	assert_same(mixed, [1, null, null, null, null, null, "y"], "packets that are not PackedByteArrays give null")
	assert_eq(codec.get_error(), ERR_INVALID_PARAMETER, "get_error() for a packet that is not a PackedByteArray")
	assert_that(codec.get_error_message().begins_with("value 1: "), "message: " + codec.get_error_message())
	# A packet holding null decodes to null and is no failure.
	assert_same(codec.decode_batch([var_to_bytes(null), var_to_bytes(1)]), [null, 1], "a null value")
	assert_eq(codec.get_error(), OK, "a packet holding null is no failure")


## Values that cannot be written give an empty packet at their index; get_error() names
## the first; encode_stream gives nothing at all.
func test_encode_batch_and_stream_with_failing_values() -> void:
	var codec := FastVariantCodec.new()
	var cycle := []
	cycle.append(cycle)
	var packets: Array[PackedByteArray] = codec_quietly(func() -> Array[PackedByteArray]:
		return codec.encode_batch([1, cycle, "x", cycle]))
	assert_eq(packets, [var_to_bytes(1), PackedByteArray(), var_to_bytes("x"), PackedByteArray()] as Array[PackedByteArray],
			"a value that fails gives an empty packet")
	assert_eq(codec.get_error(), ERR_OUT_OF_MEMORY, "get_error() for a cycle")
	assert_that(codec.get_error_message().begins_with("value 1: "), "message: " + codec.get_error_message())
	assert_eq(codec_quietly(func() -> PackedByteArray: return codec.encode_stream([1, "x", cycle])),
			PackedByteArray(), "encode_stream with a cycle")
	assert_eq(codec.get_error(), ERR_OUT_OF_MEMORY, "encode_stream: get_error()")
	assert_that(codec.get_error_message().begins_with("value 2: "), "message: " + codec.get_error_message())
	cycle.clear()

	codec.full_objects = true
	var unsaved := GDScript.new()
	unsaved.source_code = "extends RefCounted\n"
	unsaved.reload()
	var instance = unsaved.new()
	packets = codec.encode_batch([Resource.new(), instance])
	assert_eq(packets[1], PackedByteArray(), "an instance of an unsaved script cannot be written whole")
	assert_eq(codec.get_error(), ERR_UNAVAILABLE, "get_error() for it")
	assert_that(codec.get_error_message().begins_with("value 1: "), "message: " + codec.get_error_message())


# --- Streams -------------------------------------------------------------------------------

## encode_stream == StreamPeerBuffer.put_var of each value == the bytes FileAccess.store_var
## writes to a file; with full_objects too.
func test_encode_stream_matches_put_var_and_store_var() -> void:
	for full_objects in [false, true]:
		var values := random_values("stream %s" % full_objects, true) + large_values()
		var codec := FastVariantCodec.new()
		codec.full_objects = full_objects
		var peer := StreamPeerBuffer.new()
		var path := temp_path("encode")
		var file := FileAccess.open(path, FileAccess.WRITE)
		for value in values:
			peer.put_var(value, full_objects)
			file.store_var(value, full_objects)
		file.close()
		var stream := codec.encode_stream(values)
		assert_eq(codec.get_error(), OK, "get_error() (%s)" % codec.get_error_message())
		var written := FileAccess.get_file_as_bytes(path)
		DirAccess.remove_absolute(path)
		var mode := " (full_objects)" if full_objects else ""
		if stream != peer.data_array:
			fail("encode_stream != StreamPeer.put_var%s: %s" % [mode, Mismatches.compare_bytes(peer.data_array, stream,
					["put_var      ", "encode_stream"])])
		if stream != written:
			fail("encode_stream != FileAccess.store_var%s: %s" % [mode, Mismatches.compare_bytes(written, stream,
					["store_var    ", "encode_stream"])])
		_free_values()


## decode_stream of a file written by FileAccess.store_var == FileAccess.get_var one value
## after another; with objects (store_var(v, true), get_var(true), allow_objects) too.
func test_decode_stream_reads_store_var_files() -> void:
	for objects in [false, true]:
		var values := random_values("file %s" % objects, not objects) + large_values()
		var path := temp_path("decode")
		var file := FileAccess.open(path, FileAccess.WRITE)
		for value in values:
			file.store_var(value, objects)
		file.close()
		var expected := []
		# Quiet: see test_batches_with_whole_objects_match_the_engine.
		Engine.print_error_messages = not objects
		file = FileAccess.open(path, FileAccess.READ)
		while file.get_position() < file.get_length():
			expected.append(file.get_var(objects))
		file.close()
		var codec := FastVariantCodec.new()
		codec.allow_objects = objects
		var decoded := codec.decode_stream(FileAccess.get_file_as_bytes(path))
		Engine.print_error_messages = true
		DirAccess.remove_absolute(path)
		var mode := " (objects)" if objects else ""
		assert_eq(codec.get_error(), OK, "get_error()%s (%s)" % [mode, codec.get_error_message()])
		if assert_eq(decoded.size(), expected.size(), "as many values as get_var reads" + mode):
			var found := Mismatches.new(seed_value())
			for i in expected.size():
				var diff := difference(decoded[i], expected[i])
				if diff:
					found.add(i, "decode_stream" + mode, "%s: %s" % [Mismatches.show(values[i]), diff])
			found.report(self, expected.size())
		RandomValues.free_decoded(expected)
		RandomValues.free_decoded(decoded)
		_free_values()


## A frame may be longer than its value (get_var ignores the rest); a value longer than
## its frame fails, as in get_var.
func test_frames_longer_or_shorter_than_their_value() -> void:
	var codec := FastVariantCodec.new()
	var value := var_to_bytes("hello")
	var path := temp_path("frames")
	var file := FileAccess.open(path, FileAccess.WRITE)
	file.store_32(value.size() + 8)
	file.store_buffer(value + PackedByteArray([1, 2, 3, 4, 5, 6, 7, 8]))
	file.store_var(7)
	file.close()
	var bytes := FileAccess.get_file_as_bytes(path)
	file = FileAccess.open(path, FileAccess.READ)
	var expected := [file.get_var(), file.get_var()]
	file.close()
	assert_same(codec.decode_stream(bytes), expected, "a frame with bytes after its value")
	assert_same(expected, ["hello", 7], "(get_var reads it so)")

	file = FileAccess.open(path, FileAccess.WRITE)
	file.store_32(value.size() - 4)
	file.store_buffer(value)
	file.close()
	bytes = FileAccess.get_file_as_bytes(path)
	file = FileAccess.open(path, FileAccess.READ)
	var engine = quietly(func() -> Variant: return file.get_var())
	file.close()
	DirAccess.remove_absolute(path)
	assert_eq(engine, null, "get_var of a value longer than its frame fails")
	assert_eq(codec.decode_stream(bytes), [], "so does decode_stream")
	assert_failed_with(codec, "value 0 (frame at byte 0): ", "a value longer than its frame")


## Cuts of a stream, at and around every frame boundary and at random points: at a frame
## boundary, the values before it; elsewhere nothing, ERR_FILE_EOF, and a message naming
## the value cut short and where its frame starts.
func test_cut_streams_name_the_value_and_its_frame() -> void:
	var values := random_values("cut stream", false, 80)
	var codec := FastVariantCodec.new()
	var stream := codec.encode_stream(values)
	var whole := codec.decode_stream(stream)
	var frame_starts := [0]
	for value in values:
		frame_starts.append(frame_starts[-1] + 4 + var_to_bytes(value).size())
	assert_eq(frame_starts[-1], stream.size(), "frames add up to the stream")
	var cuts := {}
	for start in frame_starts:
		for delta in range(-5, 6):
			cuts[clampi(start + delta, 0, stream.size() - 1)] = true
	var rng := RandomNumberGenerator.new()
	rng.seed = seed_value()
	for i in 400:
		cuts[rng.randi() % stream.size()] = true
	var wrong := 0
	for length in cuts:
		var result := codec.decode_stream(stream.slice(0, length))
		# Frames that end at or before the cut; the next one is cut short.
		var complete: int = frame_starts.bsearch(length, false) - 1
		var ok := false
		if frame_starts.has(length):
			ok = codec.get_error() == OK and difference(result, whole.slice(0, complete)) == ""
		else:
			ok = result.is_empty() and codec.get_error() == ERR_FILE_EOF and codec.get_error_message().begins_with(
					"value %d (frame at byte %d): " % [complete, frame_starts[complete]])
		if not ok:
			wrong += 1
			if wrong <= 5:
				fail("stream cut at byte %d of %d (frames start at %s...): %d values, error %s: %s" % [length,
						stream.size(), frame_starts.slice(0, complete + 2), result.size(),
						error_string(codec.get_error()), codec.get_error_message()])
	assert_eq(wrong, 0, "cuts (of %d) handled wrongly" % cuts.size())


## A corrupt value in a stream: nothing, the engine's error for it, and a message naming
## the value, its frame and the byte.
func test_corrupt_streams_name_the_value_and_the_byte() -> void:
	var values := random_values("corrupt stream", false, 40)
	var codec := FastVariantCodec.new()
	var stream := codec.encode_stream(values)
	var frame_starts := [0]
	for value in values:
		frame_starts.append(frame_starts[-1] + 4 + var_to_bytes(value).size())
	for k in [0, 1, values.size() / 2, values.size() - 1]:
		var at: int = frame_starts[k]
		# An unknown type in the value's header.
		var bad := stream.duplicate()
		bad[at + 4] = 99
		assert_eq(codec.decode_stream(bad), [], "value %d with an unknown type" % k)
		assert_eq(codec.get_error(), ERR_INVALID_DATA, "get_error() for an unknown type")
		assert_that(codec.get_error_message().begins_with("value %d (frame at byte %d): " % [k, at])
				and codec.get_error_message().ends_with("at byte %d" % (at + 4)),
				"value %d: message names the value, its frame and the header's byte: %s" % [k, codec.get_error_message()])
		# A frame length past the end of the stream.
		bad = stream.duplicate()
		bad.encode_u32(at, 0x7FFFFFFF)
		assert_eq(codec.decode_stream(bad), [], "value %d with a huge frame length" % k)
		assert_eq(codec.get_error(), ERR_FILE_EOF, "get_error() for a huge frame length")
		assert_that(codec.get_error_message().begins_with("value %d (frame at byte %d): " % [k, at]),
				"value %d: message: %s" % [k, codec.get_error_message()])
	# A String whose length word promises more than its frame holds.
	var text_stream := codec.encode_stream([1, "hello", 2])
	text_stream.encode_u32(12 + 4 + 4, 9)  # the String's length word (frame 1 starts at 12): 9 + 3 > 8 left
	assert_eq(codec.decode_stream(text_stream), [], "a String longer than its frame")
	assert_failed_with(codec, "value 1 (frame at byte 12): ", "a String longer than its frame")
	assert_that(codec.get_error_message().ends_with("at byte 20"),
			"the message names the length word's byte: " + codec.get_error_message())


# --- Helpers -------------------------------------------------------------------------------

var _values: RandomValues


func seed_value() -> int:
	return Seeds.run_seed(self, DEFAULT_SEED, false)


## `count` random values (with objects; with `nodes`, Nodes among them); free them with
## _free_values().
func random_values(stream: String, nodes: bool, count := VALUES) -> Array:
	var seed_value := Seeds.run_seed(self, DEFAULT_SEED)
	_values = RandomValues.new(Seeds.input_seed(seed_value, stream, -1), true, nodes)
	_values.distinct_keys = true
	if count < VALUES:
		_values.large_chance = 0.0
	var values := []
	for i in count:
		_values.reseed(Seeds.input_seed(seed_value, stream, i))
		values.append(_values.value())
	return values


func _free_values() -> void:
	if _values:
		_values.free_all()


## Large packed arrays and containers (megabytes in all).
func large_values() -> Array:
	var bytes := PackedByteArray()
	bytes.resize(1 << 20)
	for i in bytes.size() / 4:
		bytes.encode_u32(i * 4, (i * 2654435761) & 0xFFFFFFFF)
	var doubles := PackedFloat64Array()
	doubles.resize(200000)
	for i in doubles.size():
		doubles[i] = i * 0.1 - 7
	var vectors := PackedVector3Array()
	vectors.resize(100000)
	for i in vectors.size():
		vectors[i] = Vector3(i, -i, i * 0.5)
	var strings := PackedStringArray()
	for i in 20000:
		strings.append("string %d é😀" % i)
	var ints := []
	for i in 50000:
		ints.append(i * 7919 - 100000)
	var big_dictionary := {}
	for i in 20000:
		big_dictionary["key %d" % i] = [i, float(i) / 3]
	return [bytes, bytes.slice(0, 1000003), doubles, vectors, strings, ints, big_dictionary]


func temp_path(what: String) -> String:
	return "user://fast_variant_codec_%s_%d.bin" % [what, OS.get_process_id()]


## An error, whose message begins with `prefix`.
func assert_failed_with(codec: FastVariantCodec, prefix: String, what: String) -> void:
	assert_that(codec.get_error() != OK, what + ": an error")
	assert_that(codec.get_error_message().begins_with(prefix), "%s: message: %s" % [what, codec.get_error_message()])


func quietly(action: Callable) -> Variant:
	Engine.print_error_messages = false
	var result = action.call()
	Engine.print_error_messages = true
	return result
