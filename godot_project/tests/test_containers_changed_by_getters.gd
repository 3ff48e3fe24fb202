## With full objects, encoding an object runs its property getters, which are scripts and
## may change the very Array or Dictionary being written (clear it, or grow it so that its
## memory moves). The codec writes each container as it was when its walk began: the bytes
## the engine writes for the unchanged container.
extends "res://test_runner/test_suite.gd"

const Meddler := preload("res://fixtures/meddler.gd")


## The bytes of `make_value()` with full objects from the engine (getters changing
## nothing), and from the codec while the getter changes the container, which must agree.
func check(make_value: Callable, change: String) -> void:
	var expected := var_to_bytes_with_objects(make_value.call())
	var value = make_value.call()
	Meddler.target = value
	Meddler.change = change
	var codec := FastVariantCodec.new()
	codec.full_objects = true
	var bytes := codec.encode(value)
	Meddler.change = ""
	Meddler.target = null
	assert_eq(codec.get_error(), OK, "%s: %s" % [change, codec.get_error_message()])
	assert_eq(bytes, expected, "%s while written: the container as it was" % change)


func test_an_array_cleared_or_grown_by_a_getter() -> void:
	for change in ["clear", "grow"]:
		check(func() -> Array: return [1, Meddler.new(), "after", 3.5], change)
		check(func() -> Array: return [Meddler.new(), Meddler.new(), [Meddler.new()]], change)


func test_a_dictionary_cleared_or_grown_by_a_getter() -> void:
	for change in ["clear", "grow"]:
		check(func() -> Dictionary: return {"a": 1, "m": Meddler.new(), "z": [2]}, change)


## A large packed array (36 MiB: above the C library's largest threshold for memory it
## maps, so its memory goes back to the system when freed, and a read of it then fails)
## written before a getter drops the container's last reference to it, or empties it in place
## (through the Variant the container shares): the codec copies such an array into the
## result after the walk, and must hold its elements as they were until then. Through
## `encode`, `encode_batch` and `encode_stream`, each with the engine's bytes of the value
## unchanged.
func test_a_large_packed_array_dropped_by_a_getter_after_it_was_written() -> void:
	var big := func(fill: int) -> PackedByteArray:
		var bytes := PackedByteArray()
		bytes.resize(36 << 20)
		bytes.fill(fill)
		return bytes
	var big_ints := func() -> PackedInt32Array:
		var ints := PackedInt32Array()
		ints.resize(9 << 20)
		ints.fill(3)
		return ints
	var makers := {
		"Array": func() -> Array: return [big.call(7), Meddler.new(), 1],
		"Dictionary": func() -> Dictionary: return {"data": big.call(9), "m": Meddler.new()},
		"nested": func() -> Array: return [[big_ints.call()], Meddler.new()],
	}
	var codec := FastVariantCodec.new()
	codec.full_objects = true
	for kind in makers:
		var expected := var_to_bytes_with_objects(makers[kind].call())
		for case in ["drop_first encode", "drop_first encode_batch", "drop_first encode_stream",
				"empty_first encode", "empty_first encode_stream"]:
			var change: String = case.get_slice(" ", 0)
			var call: String = case.get_slice(" ", 1)
			var value = makers[kind].call()
			Meddler.target = value
			Meddler.change = change
			var bytes: PackedByteArray
			match call:
				"encode":
					bytes = codec.encode(value)
				"encode_batch":
					bytes = codec.encode_batch([value])[0]
				"encode_stream":
					bytes = codec.encode_stream([value]).slice(4)
			Meddler.stop()
			value = null
			assert_eq(codec.get_error(), OK, "%s, %s: %s" % [kind, case, codec.get_error_message()])
			assert_eq(bytes, expected, "%s, %s: the array as it was written" % [kind, case])
