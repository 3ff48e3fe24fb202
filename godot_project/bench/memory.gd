## Peak memory of one call, engine against codec: run once per row, side and call, each in
## a fresh Godot process, so that one run's freed memory does not serve the next.
##
##   godot --headless --path godot_project --script res://bench/memory.gd -- \
##       --row=ROW --side=engine|codec --call=CALL
##   godot --headless --path godot_project --script res://bench/memory.gd -- --list
##
## The input (values, or the engine's bytes of them) is made first; then the resident
## memory's high-water mark is reset (`/proc/self/clear_refs`) and the call made, its
## result kept. Prints `peak: N` (bytes of resident memory above the input, from
## `VmHWM` in /proc/self/status), `result: N` (the bytes it made, for the encoding calls)
## and `ms: N`; `--list` prints the rows and calls. Linux only. Then, for the codec, the
## engine's result is made and compared: quits with 1 when they differ.
extends SceneTree

const Workloads := preload("res://bench/workloads.gd")

const ROWS := ["issue", "packed", "strings", "nested", "batch"]
## `*_objects`: the encoding call with full objects (`var_to_bytes_with_objects`), which
## runs property getters during the walk.
const CALLS := ["encode", "decode", "encode_batch", "decode_batch", "encode_stream", "decode_stream",
		"encode_objects", "encode_batch_objects", "encode_stream_objects"]


## The values of each row: one large value, or many (`batch`).
static func row_values(row: String) -> Array:
	match row:
		"issue":
			# The issue's value: a large byte array, many short non-ASCII names, and a slice.
			var bytes := PackedByteArray()
			bytes.resize(256 << 20)
			bytes.fill(7)
			var names := Workloads.make_texts("Latin, accents", 0, 16, 200_000)
			return [[bytes, names, {"a": bytes.slice(0, 1 << 20)}]]
		"packed":
			return [Workloads.make_floats(32 << 20)]
		"strings":
			return [Workloads.make_texts("mix", 0, 16, 1_000_000)]
		"nested":
			var rooms := []
			for i in 2000:
				rooms.append({"id": i, "name": "room %d" % i, "tiles": PackedInt32Array(range(i, i + 16384)),
						"doors": [Vector2i(i, 0), Vector2i(0, i)]})
			return [{"rooms": rooms}]
		"batch":
			var values := []
			for i in 16:
				var bytes := PackedByteArray()
				bytes.resize(8 << 20)
				bytes.fill(i)
				values.append({"chunk": i, "data": bytes})
			return values
	return []


func _initialize() -> void:
	var args := {}
	for arg in OS.get_cmdline_user_args():
		var parts: PackedStringArray = arg.trim_prefix("--").split("=", true, 1)
		args[parts[0]] = parts[1] if parts.size() > 1 else ""
	if args.has("list"):
		print("rows: %s\ncalls: %s" % [" ".join(ROWS), " ".join(CALLS)])
		quit(0)
		return
	var row: String = args.get("row", "")
	var side: String = args.get("side", "")
	var call_name: String = args.get("call", "")
	if row not in ROWS or side not in ["engine", "codec"] or call_name not in CALLS:
		printerr("memory.gd: --row=%s --side=engine|codec --call=%s" % ["|".join(ROWS), "|".join(CALLS)])
		quit(2)
		return
	var values := row_values(row)
	var encoding := call_name.begins_with("encode")
	var packets: Array[PackedByteArray] = []
	var stream := PackedByteArray()
	if not encoding:
		packets = Workloads.engine_encode_loop(values)
		stream = _engine_stream(values)
		# Decoding starts from bytes alone, as a game reading a save does.
		values = []
	var codec := FastVariantCodec.new()
	var before := _resident()
	_reset_peak()
	var start := Time.get_ticks_usec()
	var result: Variant = _run(side == "engine", call_name, codec, values, packets, stream)
	var ms := (Time.get_ticks_usec() - start) / 1000.0
	var peak := _peak() - before
	print("peak: %d\nresult: %d\nms: %.1f" % [peak, _bytes_in(result), ms])
	# Checked after measuring: the codec's result against the engine's.
	if side == "codec":
		var expected: Variant = _run(true, call_name, codec, values, packets, stream)
		if var_to_bytes(result) != var_to_bytes(expected):
			printerr("memory.gd: the codec's %s of %s differs from the engine's" % [call_name, row])
			quit(1)
			return
	quit(0)


static func _run(engine: bool, call_name: String, codec: FastVariantCodec, values: Array,
		packets: Array[PackedByteArray], stream: PackedByteArray) -> Variant:
	codec.full_objects = call_name.ends_with("_objects")
	match call_name:
		"encode_objects":
			return var_to_bytes_with_objects(values[0]) if engine else codec.encode(values[0])
		"encode_batch_objects":
			return Workloads.engine_encode_loop(values, true) if engine else codec.encode_batch(values)
		"encode_stream_objects":
			return _engine_stream(values, true) if engine else codec.encode_stream(values)
		"encode":
			return var_to_bytes(values[0]) if engine else codec.encode(values[0])
		"decode":
			return bytes_to_var(packets[0]) if engine else codec.decode(packets[0])
		"encode_batch":
			return Workloads.engine_encode_loop(values) if engine else codec.encode_batch(values)
		"decode_batch":
			return Workloads.engine_decode_loop(packets) if engine else codec.decode_batch(packets)
		"encode_stream":
			return _engine_stream(values) if engine else codec.encode_stream(values)
		"decode_stream":
			if engine:
				var peer := StreamPeerBuffer.new()
				peer.data_array = stream
				var out := []
				while peer.get_position() < peer.get_size():
					out.append(peer.get_var())
				return out
			return codec.decode_stream(stream)
	return null


## The values as `StreamPeer.put_var` writes them one after another (with full objects
## when `full_objects`).
static func _engine_stream(values: Array, full_objects := false) -> PackedByteArray:
	var peer := StreamPeerBuffer.new()
	for value in values:
		peer.put_var(value, full_objects)
	return peer.data_array


## The bytes an encoding call made (0 for a decoding call's values).
static func _bytes_in(result: Variant) -> int:
	if result is PackedByteArray:
		return result.size()
	var made := 0
	if result is Array:
		for item in result:
			if item is PackedByteArray:
				made += item.size()
	return made


static func _status_kb(field: String) -> int:
	# Read line by line: /proc files say they are empty, so a read of their length gets nothing.
	var status := FileAccess.open("/proc/self/status", FileAccess.READ)
	while status and not status.eof_reached():
		var line := status.get_line()
		if line.begins_with(field + ":"):
			return line.trim_prefix(field + ":").strip_edges().trim_suffix("kB").strip_edges().to_int()
		if line.is_empty():
			break
	return -1


static func _resident() -> int:
	return _status_kb("VmRSS") * 1024


static func _peak() -> int:
	return _status_kb("VmHWM") * 1024


static func _reset_peak() -> void:
	var f := FileAccess.open("/proc/self/clear_refs", FileAccess.WRITE)
	if f:
		f.store_string("5")
		f.close()
