## FastVariantStreamDecoder: a put_var / store_var stream fed in pieces gives the engine's
## values, a value still arriving waits, an invalid value is reported with its offset after
## the values before it, and a hostile length prefix stops the decoder.
extends "res://test_runner/test_suite.gd"


## The engine's own stream (StreamPeerBuffer.put_var) of `values`.
static func engine_stream(values: Array) -> PackedByteArray:
	var peer := StreamPeerBuffer.new()
	for v in values:
		peer.put_var(v)
	return peer.data_array


static func sample() -> Array:
	return [
		1, "héllo", {"a": [1, 2.5, null], &"b": Vector3(1, 2, 3)}, PackedByteArray(range(200)),
		PackedVector2Array([Vector2(0.5, 1)]), null, 1 << 40, [[], {}], Color(0.1, 0.2, 0.3),
	]


func assert_same_values(got: Array, expected: Array, message: String) -> void:
	if not assert_eq(got.size(), expected.size(), "%s: count" % message):
		return
	for i in expected.size():
		assert_same(got[i], expected[i], "%s: value %d" % [message, i])


func test_every_split_gives_the_engines_values() -> void:
	var values := sample()
	var stream := engine_stream(values)
	for step in [1, 3, 7, 64, stream.size()]:
		var decoder := FastVariantStreamDecoder.new()
		var got := []
		for at in range(0, stream.size(), step):
			decoder.feed(stream.slice(at, at + step))
			got.append_array(decoder.take_values())
			assert_eq(decoder.get_error(), OK, "no error with %d-byte pieces" % step)
			assert_eq(decoder.get_offset() + decoder.get_buffered_size(), mini(at + step, stream.size()), "every byte is taken or buffered")
		assert_same_values(got, values, "%d-byte pieces" % step)
		assert_eq(decoder.finish(), OK, "the stream ends between frames")


func test_an_incomplete_tail_waits_and_finish_reports_it() -> void:
	var stream := engine_stream([7, "tail"])
	var decoder := FastVariantStreamDecoder.new()
	decoder.feed(stream.slice(0, stream.size() - 2))
	assert_same_values(decoder.take_values(), [7], "the whole value")
	assert_eq(decoder.get_error(), OK, "a value still arriving is no error")
	assert_eq(decoder.get_buffered_size(), stream.size() - 2 - 12, "the tail is kept")
	assert_eq(decoder.finish(), ERR_FILE_EOF, "finish: the last frame is cut short")
	assert_eq(decoder.get_error_offset(), 12, "where the cut frame starts")
	decoder.feed(stream.slice(stream.size() - 2))
	assert_same_values(decoder.take_values(), ["tail"], "the rest arrives")
	assert_eq(decoder.finish(), OK, "then the stream is whole")


func test_an_invalid_value_keeps_what_came_before_and_names_its_offset() -> void:
	var before := engine_stream([1, "two"])
	var bad := PackedByteArray([4, 0, 0, 0, 0x7F, 0, 0, 0])  # a frame of an unknown type
	var after := engine_stream([3.5])
	var decoder := FastVariantStreamDecoder.new()
	decoder.feed(before + bad + after)
	assert_same_values(decoder.take_values(), [1, "two"], "the values before the bad one")
	assert_eq(decoder.get_error(), ERR_INVALID_DATA, "get_error")
	assert_eq(decoder.get_error_offset(), before.size(), "the bad frame's offset")
	var message := decoder.get_error_message()
	assert_that(message.contains("at byte %d" % (before.size() + 4)), "the message names the byte: %s" % message)
	assert_same_values(decoder.take_values(), [3.5], "the values after it, next call")
	assert_eq(decoder.get_error(), OK, "that call had no error")
	# The engine agrees that the frame is invalid.
	assert_eq(bytes_to_var(bad.slice(4)), null, "bytes_to_var of the bad value")


func test_a_hostile_length_prefix_stops_the_decoder() -> void:
	var decoder := FastVariantStreamDecoder.new()
	decoder.max_frame_size = 1000
	assert_eq(decoder.max_frame_size, 1000, "max_frame_size")
	var stream := engine_stream(["ok"])
	stream.append_array(PackedByteArray([0xFF, 0xFF, 0xFF, 0x7F]))
	decoder.feed(stream)
	assert_same_values(decoder.take_values(), ["ok"], "the value before it")
	assert_eq(decoder.get_error(), ERR_OUT_OF_MEMORY, "a frame over the maximum")
	assert_eq(decoder.get_error_offset(), stream.size() - 4, "its offset")
	decoder.feed(PackedByteArray([1, 2, 3]))
	assert_eq(decoder.take_values().size(), 0, "nothing after it")
	assert_eq(decoder.get_error(), ERR_OUT_OF_MEMORY, "still stopped")
	assert_eq(FastVariantStreamDecoder.new().max_frame_size, 16 << 20, "the default maximum")
