## The benchmark: FastVariantCodec against the engine's own var_to_bytes / bytes_to_var, in
## one Godot process, on the workloads of the speed targets.
##
##   godot --headless --path godot_project --script res://bench/bench.gd [-- --out=/abs/bench.md --runs=N --passes=P --only=TEXT]
##
## --only=TEXT times only the rows whose workload contains TEXT (while working on one row).
## --busy-core keeps one other core busy (a CPU-bound thread) for the whole run.
##
## Every codec result is first checked against the engine's (the same bytes; decoded values
## that the engine encodes back to the input bytes), and a last check makes sure codec
## calls leave no engine memory behind. Each time is the best of N runs (default 11; engine
## and codec runs interleaved, so that both see the same load) in each of P passes over all
## the workloads (default 3), the best pass kept: the host's speed changes over seconds, and
## a slow spell during one pass does not decide a row. The ratio is engine time / codec
## time. Prints one table and writes it as markdown to user://bench.md or to the
## path given with --out=. Quits with 0 (targets missed included: the table says so), 1 on
## a mismatch or an error.
##
## profile.gd runs one of these workloads in a loop, for a profiler.
extends SceneTree

const Data := preload("res://bench/workloads.gd")
const DEFAULT_RUNS := 11
const DEFAULT_PASSES := 3

var _runs := DEFAULT_RUNS
var _passes := DEFAULT_PASSES
## Times only the rows whose workload contains this (all when empty).
var _only := ""
var _ok := true
var _codec := FastVariantCodec.new()
## The same codec through an untyped variable: GDScript calls it without knowing its class.
var _untyped: Variant = _codec
## Rows of the table: [workload, engine ms, codec ms (-1: a reference row), target ratio
## (0: none), bytes (0: no GB/s), memcpy ms (0: none; else the codec must also reach
## MEMCPY_SHARE of the speed of that copy, or be met by it alone: see `met`)].
var _rows: Array = []
## A packed array's copy target: at least this share of a memcpy's speed.
const MEMCPY_SHARE := 0.9
## Set while the run lasts, for the busy-core thread.
var _busy := Thread.new()
var _stop_busy := false


func _initialize() -> void:
	var out_path := "user://bench.md"
	for arg in OS.get_cmdline_user_args():
		if arg.begins_with("--out="):
			out_path = arg.trim_prefix("--out=")
		elif arg.begins_with("--runs="):
			_runs = maxi(5, arg.trim_prefix("--runs=").to_int())
		elif arg.begins_with("--passes="):
			_passes = maxi(1, arg.trim_prefix("--passes=").to_int())
		elif arg.begins_with("--only="):
			_only = arg.trim_prefix("--only=")
		elif arg == "--busy-core":
			_busy.start(keep_busy)
	print("FastVariantCodec benchmark: engine vs codec, best of %d runs in %d passes, %d logical CPUs%s" % [
			_runs, _passes, OS.get_processor_count(), ", one core kept busy" if _busy.is_started() else ""])

	for pass_index in _passes:
		print("pass %d of %d" % [pass_index + 1, _passes])
		bench_packed("PackedFloat32Array", Data.make_floats(Data.PACKED_COUNT))
		bench_packed("PackedVector3Array", Data.make_vector3s(Data.PACKED_COUNT))
		bench_packed("PackedColorArray", Data.make_colors(Data.PACKED_COUNT))
		bench_packed("PackedInt64Array", Data.make_int64s(Data.PACKED_COUNT))
		bench_one("PackedStringArray, 100k strings", Data.make_strings(Data.STRING_COUNT), 1.5)
		bench_one("Dictionary, 10k entries of [int, float, String, Vector3]", Data.make_big_dictionary(), 1.0)
		bench_one("Dictionary, 10k entries that lived (erased and put back, Array keys appended to)",
				Data.make_lived_dictionary(), 1.0)
		bench_texts()
		bench_batches()
		bench_small()
	check_no_leak()
	if _busy.is_started():
		_stop_busy = true
		_busy.wait_to_finish()

	var table := render_table()
	print("")
	print(table)
	var file := FileAccess.open(out_path, FileAccess.WRITE)
	if file == null:
		printerr("bench: cannot write %s: %s" % [out_path, error_string(FileAccess.get_open_error())])
		_ok = false
	else:
		file.store_string(table)
		file.close()
		print("table written to %s" % ProjectSettings.globalize_path(out_path))
	print("all results identical to the engine's" if _ok else "MISMATCH OR ERROR (see above)")
	quit(0 if _ok else 1)


## The busy-core thread: CPU-bound work until the run ends.
func keep_busy() -> void:
	var x := 0
	while not _stop_busy:
		for i in 100_000:
			x = (x * 31 + i) % 1_000_003


# --- Workloads ----------------------------------------------------------------------------

## Encode and decode of one big packed array, with its memcpy reference: the codec must
## reach MEMCPY_SHARE of a memcpy's speed and, where the engine is at memcpy speed itself,
## be at least level with it (0.95x).
func bench_packed(type_name: String, value: Variant) -> void:
	var label := "%s, 1M elements" % type_name
	var bytes := var_to_bytes(value)
	if not check_one(label, value, bytes):
		return
	var size := bytes.size()
	if not _only.is_empty() and not label.contains(_only):
		return
	# The reference: the array's memory copied into a new PackedByteArray by the engine
	# (`to_byte_array`: allocate, then one memcpy), the same number of bytes less 8. Timed
	# as the codec is, each copy right after one of the engine's runs (its encode, then
	# its decode), which leave the caches as the codec finds them: in a loop of copies
	# alone, each would find its source and its last buffer still cached.
	var encode_engine := func() -> Variant: return var_to_bytes(value)
	var decode_engine := func() -> Variant: return bytes_to_var(bytes)
	var to_bytes := func() -> Variant: return value.to_byte_array()
	var copy := INF
	for i in _runs:
		for engine_run: Callable in [encode_engine, decode_engine]:
			Data.time_once(engine_run)
			copy = minf(copy, Data.time_once(to_bytes))
	keep_row(["reference: memcpy %.1f MB into a fresh buffer (engine: `%s.to_byte_array()`)" % [
			(size - 8) / 1e6, type_name], copy, -1.0, 0.0, size - 8, 0.0])
	compare(label + ": encode", encode_engine,
			func() -> Variant: return _codec.encode(value), 0.95, size, 1, copy)
	compare(label + ": decode", decode_engine,
			func() -> Variant: return _codec.decode(bytes), 0.95, size, 1, copy)


## Encode and decode of one value.
func bench_one(label: String, value: Variant, target: float) -> void:
	var bytes := var_to_bytes(value)
	if not check_one(label, value, bytes):
		return
	compare(label + ": encode", func() -> Variant: return var_to_bytes(value),
			func() -> Variant: return _codec.encode(value), target, bytes.size())
	compare(label + ": decode", func() -> Variant: return bytes_to_var(bytes),
			func() -> Variant: return _codec.decode(bytes), target, bytes.size())


## Texts of every script and length (Data.TEXT_SCRIPTS, Data.TEXT_LENGTHS) in the three
## containers that hold many: a PackedStringArray, an Array of Strings and a Dictionary with
## String keys (int values); then one String per call (static methods), for each script.
func bench_texts() -> void:
	for script: String in Data.TEXT_SCRIPTS:
		for length: Array in Data.TEXT_LENGTHS:
			var label := "texts, %s, %s x %d" % [script, length[0], length[3]]
			var rows := {
				"PackedStringArray": func(texts: PackedStringArray) -> Variant: return texts,
				"Array of Strings": func(texts: PackedStringArray) -> Variant: return Array(texts),
				"Dictionary with String keys": func(texts: PackedStringArray) -> Variant: return keyed(texts),
			}
			var texts := PackedStringArray()
			for container: String in rows:
				var row := "%s: %s" % [label, container]
				if not _only.is_empty() and not row.contains(_only):
					continue
				if texts.is_empty():
					texts = Data.make_texts(script, length[1], length[2], length[3])
				bench_one(row, rows[container].call(texts), 1.5)
	for script: String in Data.TEXT_SCRIPTS:
		var text := Data.make_texts(script, 16, 128, 1)[0]
		bench_one_per_call("String of %s texts, %d characters" % [script, text.length()], text, ["static"], 1.5)


## `texts` as the keys of a Dictionary, each holding its index (a text that repeats, once).
static func keyed(texts: PackedStringArray) -> Dictionary:
	var d := {}
	for i in texts.size():
		d[texts[i]] = i
	return d


func bench_batches() -> void:
	var dicts := []
	for i in Data.BATCH_DICTS:
		dicts.append(Data.make_small_dictionary(i))
	bench_batch("10k small dictionaries", dicts, 1.5)
	var arrays := []
	for i in Data.BATCH_ARRAYS:
		arrays.append(Data.make_floats(Data.BATCH_ARRAY_FLOATS, i))
	# Met at 3x, or where the engine is near memcpy speed, at MEMCPY_SHARE of the speed of
	# copying every array into a fresh buffer.
	var copies := best_of(func() -> Variant: return arrays.map(func(a): return a.to_byte_array()))
	bench_batch("64 PackedFloat32Arrays of 64k floats", arrays, 3.0, false, copies)


## encode_batch / decode_batch against a GDScript loop of var_to_bytes / bytes_to_var.
func bench_batch(label: String, values: Array, target: float, with_decode := true,
		memcpy_ms := 0.0) -> void:
	var packets := Data.engine_encode_loop(values)
	if not check_batch(label, values, packets):
		return
	var size := total_size(packets)
	compare("`encode_batch`, %s (engine: loop of `var_to_bytes`)" % label,
			func() -> Variant: return Data.engine_encode_loop(values),
			func() -> Variant: return _codec.encode_batch(values), target, size, 1, memcpy_ms)
	if with_decode:
		compare("`decode_batch`, %s (engine: loop of `bytes_to_var`)" % label,
				func() -> Variant: return Data.engine_decode_loop(packets),
				func() -> Variant: return _codec.decode_batch(packets), target, size)


## The bytes of all `packets`.
static func total_size(packets: Array) -> int:
	var size := 0
	for p in packets:
		size += p.size()
	return size


## Small inputs: one value per call, and batches of a few values against calling the codec
## once per value (a batch must never be slower than that).
func bench_small() -> void:
	var singles := {
		"small dictionary": Data.make_small_dictionary(7),
		"int": 1234567,
		"String": "player_7",
		"Vector3": Vector3(1.5, -2.25, 3.0),
	}
	for what in singles:
		bench_one_per_call(what, singles[what])
	for count in [1, 4, 16, 64, 256]:
		var values := []
		for i in count:
			values.append(Data.make_small_dictionary(i))
		bench_small_batch("%d small dictionaries" % count, values, true)
	# Packed arrays of 64 KiB: below 1 MiB in all, a batch copies on the calling thread
	# alone; from there, it shares the copies with the pool.
	for count in [1, 4, 16, 64]:
		var values := []
		for i in count:
			values.append(Data.make_floats(16_384, i))
		bench_small_batch("%d PackedFloat32Arrays of 16k floats" % count, values, false)


## One value per call, 2,000 calls, as a game encodes and decodes network packets: through a
## typed variable (`var codec: FastVariantCodec`), an untyped one and the static methods.
## The codec's time includes the cost of calling an extension class's method, which the
## engine's own `var_to_bytes` / `bytes_to_var` (utility functions) do not pay.
##
## Each side is a plain loop of calls in a function of its own, as a game makes them, not a
## lambda called per call: calling a lambda costs more than the call it would wrap, and not
## the same on both sides (a lambda that reaches the codec, through a member or a capture,
## pays for it on every call, the engine's does not; docs/BENCHMARKS.md has the figures).
## `kinds`: only the kinds of call whose names end with one of them (all when empty);
## `target`: each row's ratio target.
func bench_one_per_call(what: String, value: Variant, kinds := [] as Array, target := 1.2) -> void:
	var bytes := var_to_bytes(value)
	if not check_one(what, value, bytes):
		return
	var reps := 2000
	var engine_encode := engine_encode_calls.bind(value, reps)
	var engine_decode := engine_decode_calls.bind(bytes, reps)
	for row in [
		["encode, typed", engine_encode, typed_encode_calls.bind(value, reps)],
		["decode, typed", engine_decode, typed_decode_calls.bind(bytes, reps)],
		["encode, untyped", engine_encode, untyped_encode_calls.bind(value, reps)],
		["decode, untyped", engine_decode, untyped_decode_calls.bind(bytes, reps)],
		["encode, static", engine_encode, static_encode_calls.bind(value, reps)],
		["decode, static", engine_decode, static_decode_calls.bind(bytes, reps)],
	]:
		if not kinds.is_empty() and not kinds.any(func(kind: String) -> bool: return row[0].ends_with(kind)):
			continue
		compare("one %s per call: %s (time per call)" % [what, row[0]], row[1], row[2], target,
				bytes.size(), reps)


# The loops of `bench_one_per_call`, written out for each kind of call: how GDScript compiles
# a call depends on the static type of what it is made through.

func engine_encode_calls(value: Variant, times: int) -> Variant:
	var last: Variant = null
	for i in times:
		last = var_to_bytes(value)
	return last


func engine_decode_calls(bytes: PackedByteArray, times: int) -> Variant:
	var last: Variant = null
	for i in times:
		last = bytes_to_var(bytes)
	return last


func typed_encode_calls(value: Variant, times: int) -> Variant:
	var last: Variant = null
	for i in times:
		last = _codec.encode(value)
	return last


func typed_decode_calls(bytes: PackedByteArray, times: int) -> Variant:
	var last: Variant = null
	for i in times:
		last = _codec.decode(bytes)
	return last


func untyped_encode_calls(value: Variant, times: int) -> Variant:
	var last: Variant = null
	for i in times:
		last = _untyped.encode(value)
	return last


func untyped_decode_calls(bytes: PackedByteArray, times: int) -> Variant:
	var last: Variant = null
	for i in times:
		last = _untyped.decode(bytes)
	return last


func static_encode_calls(value: Variant, times: int) -> Variant:
	var last: Variant = null
	for i in times:
		last = FastVariantCodec.var_to_bytes(value)
	return last


func static_decode_calls(bytes: PackedByteArray, times: int) -> Variant:
	var last: Variant = null
	for i in times:
		last = FastVariantCodec.bytes_to_var(bytes)
	return last


## A batch of a few values against calling the codec once per value: a batch must not be
## slower, whatever its size.
func bench_small_batch(label: String, values: Array, with_decode: bool) -> void:
	var packets := Data.engine_encode_loop(values)
	if not check_batch(label, values, packets):
		return
	var size := total_size(packets)
	var n := maxi(1, 512 * 1024 / maxi(size, 1))
	compare("`encode_batch` of %s (baseline: loop of `codec.encode`)" % label,
			func() -> Variant: return repeat(func() -> Variant: return codec_encode_loop(values), n),
			func() -> Variant: return repeat(func() -> Variant: return _codec.encode_batch(values), n),
			1.0, 0, n)
	if with_decode:
		compare("`decode_batch` of %s (baseline: loop of `codec.decode`)" % label,
				func() -> Variant: return repeat(func() -> Variant: return codec_decode_loop(packets), n),
				func() -> Variant: return repeat(func() -> Variant: return _codec.decode_batch(packets), n),
				1.0, 0, n)


## Codec calls leave no memory behind (the binding borrows engine values without taking
## references, and moves the values it makes into their containers).
func check_no_leak() -> void:
	var values := [Data.make_small_dictionary(1), {"a": [1, 2.5, "x", Vector3.ONE], "b": PackedFloat32Array([1, 2])},
			PackedStringArray(["s", "t"]), [PackedInt64Array([7]), "z"]]
	var packets := Data.engine_encode_loop(values)
	var round := func() -> void:
		for i in 200:
			for v in values:
				_codec.encode(v)
				_codec.encoded_size(v)
			for p in packets:
				_codec.decode(p)
			_codec.encode_batch(values)
			_codec.decode_batch(packets)
			_codec.encode_stream(values)
	round.call()
	var before := OS.get_static_memory_usage()
	round.call()
	round.call()
	var grown := OS.get_static_memory_usage() - before
	if grown > 64 * 1024:
		mismatch("memory", "codec calls left %d bytes of engine memory behind" % grown)


func codec_encode_loop(values: Array) -> Array[PackedByteArray]:
	var out: Array[PackedByteArray] = []
	out.resize(values.size())
	for i in values.size():
		out[i] = _codec.encode(values[i])
	return out


func codec_decode_loop(packets: Array) -> Array:
	var out := []
	out.resize(packets.size())
	for i in packets.size():
		out[i] = _codec.decode(packets[i])
	return out


# --- Checks -------------------------------------------------------------------------------

## The codec writes the engine's bytes, and decodes them to a value the engine encodes back
## to the same bytes.
func check_one(label: String, value: Variant, bytes: PackedByteArray) -> bool:
	var encoded := _codec.encode(value)
	if encoded != bytes:
		return mismatch(label, "encode gives %d bytes, the engine %d (%s)" % [
				encoded.size(), bytes.size(), _codec.get_error_message()])
	var decoded = _codec.decode(bytes)
	if typeof(decoded) != typeof(bytes_to_var(bytes)) or var_to_bytes(decoded) != bytes:
		return mismatch(label, "decode differs from the engine's (%s)" % _codec.get_error_message())
	if FastVariantCodec.var_to_bytes(value) != bytes:
		return mismatch(label, "the static var_to_bytes differs from the engine's (%s)" % FastVariantCodec.get_last_error_message())
	decoded = FastVariantCodec.bytes_to_var(bytes)
	if typeof(decoded) != typeof(bytes_to_var(bytes)) or var_to_bytes(decoded) != bytes:
		return mismatch(label, "the static bytes_to_var differs from the engine's (%s)" % FastVariantCodec.get_last_error_message())
	return true


func check_batch(label: String, values: Array, packets: Array) -> bool:
	var encoded := _codec.encode_batch(values)
	if encoded.size() != packets.size():
		return mismatch(label, "encode_batch gives %d packets for %d values" % [encoded.size(), values.size()])
	for i in packets.size():
		if encoded[i] != packets[i]:
			return mismatch(label, "encode_batch packet %d differs from var_to_bytes" % i)
	var decoded := _codec.decode_batch(packets)
	if decoded.size() != packets.size():
		return mismatch(label, "decode_batch gives %d values for %d packets" % [decoded.size(), packets.size()])
	for i in packets.size():
		if typeof(decoded[i]) != typeof(values[i]) or var_to_bytes(decoded[i]) != packets[i]:
			return mismatch(label, "decode_batch value %d differs from bytes_to_var" % i)
	return true


func mismatch(label: String, what: String) -> bool:
	printerr("MISMATCH in %s: %s" % [label, what])
	_ok = false
	return false


# --- Timing -------------------------------------------------------------------------------

## The fastest of the runs of `work`, in milliseconds (freeing its result is not timed).
func best_of(work: Callable) -> float:
	var best := INF
	for i in _runs:
		best = minf(best, Data.time_once(work))
	return best



## Times `engine` and `codec` (runs interleaved) and adds their row; `per` divides the
## times (work that repeats a call `per` times); `memcpy_ms`, the row's memcpy reference.
func compare(workload: String, engine: Callable, codec: Callable, target: float, bytes: int,
		per := 1, memcpy_ms := 0.0) -> void:
	if not _only.is_empty() and not workload.contains(_only):
		return
	var engine_ms := INF
	var codec_ms := INF
	for i in _runs:
		engine_ms = minf(engine_ms, Data.time_once(engine))
		codec_ms = minf(codec_ms, Data.time_once(codec))
	add_row(workload, engine_ms / per, codec_ms / per, target, bytes, memcpy_ms)


func repeat(work: Callable, times: int) -> Variant:
	var last: Variant = null
	for i in times:
		last = work.call()
	return last


func add_row(workload: String, engine_ms: float, codec_ms: float, target: float, bytes: int,
		memcpy_ms: float) -> void:
	keep_row([workload, engine_ms, codec_ms, target, bytes, memcpy_ms])
	var ratio := engine_ms / codec_ms
	print("  %-90s engine %10.4f ms  codec %10.4f ms  %6.2fx" % [workload, engine_ms, codec_ms, ratio])


## Adds a row to the table, or keeps the best times of it and of an earlier pass's.
func keep_row(row: Array) -> void:
	for kept in _rows:
		if kept[0] == row[0]:
			kept[1] = minf(kept[1], row[1])
			kept[2] = minf(kept[2], row[2])
			kept[5] = minf(kept[5], row[5]) if kept[5] > 0.0 else row[5]
			return
	_rows.append(row)


# --- The table ------------------------------------------------------------------------------

## Whether a row meets its target: the ratio to the engine; for a row with a memcpy
## reference and a target below 1 (packed arrays), MEMCPY_SHARE of memcpy's speed as well;
## for one with a target above 1 (the float batch), either.
static func met(row: Array) -> bool:
	var engine_ms: float = row[1]
	var codec_ms: float = row[2]
	var target: float = row[3]
	var memcpy_ms: float = row[5]
	var against_engine := engine_ms / codec_ms >= target
	if memcpy_ms <= 0.0:
		return against_engine
	var against_memcpy := memcpy_ms / codec_ms >= MEMCPY_SHARE
	return (against_engine and against_memcpy) if target < 1.0 else (against_engine or against_memcpy)


static func target_text(row: Array) -> String:
	var target: float = row[3]
	if target <= 0.0:
		return "—"
	if row[5] <= 0.0:
		return "≥ %s×" % str(target)
	if target < 1.0:
		return "≥ %.0f%% memcpy, ≥ %s×" % [MEMCPY_SHARE * 100.0, str(target)]
	return "≥ %s× or %.0f%% memcpy" % [str(target), MEMCPY_SHARE * 100.0]


func render_table() -> String:
	var lines := PackedStringArray()
	lines.append("| workload | engine ms | codec ms | ratio (engine/codec) | share of memcpy speed | target | met? | GB/s engine | GB/s codec |")
	lines.append("|---|---:|---:|---:|---:|---:|:---:|---:|---:|")
	for row in _rows:
		var engine_ms: float = row[1]
		var codec_ms: float = row[2]
		var bytes: int = row[4]
		var memcpy_ms: float = row[5]
		var is_reference := codec_ms < 0.0
		var ratio := "—" if is_reference else "%.2f" % (engine_ms / codec_ms)
		var share := "—" if is_reference or memcpy_ms <= 0.0 else "%.0f%%" % (100.0 * memcpy_ms / codec_ms)
		var is_met := "—"
		if row[3] > 0.0:
			is_met = "yes" if met(row) else "**no**"
		var gbps_engine := "—"
		var gbps_codec := "—"
		if bytes > 0:
			gbps_engine = "%.2f" % (bytes / (engine_ms * 1e6))
			if not is_reference:
				gbps_codec = "%.2f" % (bytes / (codec_ms * 1e6))
		lines.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % [row[0], ms(engine_ms),
				"—" if is_reference else ms(codec_ms), ratio, share, target_text(row), is_met,
				gbps_engine, gbps_codec])
	lines.append("")
	lines.append(("Best of %d runs each in each of %d passes over all the workloads, engine and codec runs interleaved, "
			+ "in one Godot %s process on %d logical CPUs%s; "
			+ "ratio = engine time / codec time (> 1: the codec is faster). GB/s counts the encoded bytes "
			+ "(10^9 bytes per second). Every codec result was first checked against the engine's.") % [
			_runs, _passes, Engine.get_version_info()["string"], OS.get_processor_count(),
			", one other core kept busy" if _busy.is_started() else ""])
	return "\n".join(lines) + "\n"


func ms(value: float) -> String:
	if value >= 100.0:
		return "%.1f" % value
	if value >= 1.0:
		return "%.2f" % value
	if value >= 0.01:
		return "%.4f" % value
	return "%.6f" % value
