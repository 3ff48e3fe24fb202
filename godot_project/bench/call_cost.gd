## What calling a method costs a GDScript loop, apart from the method's work: the engine's
## own `bytes_to_var` of one int against the cheapest calls of a method on a
## FastVariantCodec, through a typed and an untyped variable, and the codec's own per-value
## methods on the same int. The engine's `get_reference_count()` (an engine method that
## only reads a counter) is timed on the codec object itself, so its rows are what any
## method of an extension class pays to be reached, whoever implements it.
##
##   godot --headless --path godot_project --script res://bench/call_cost.gd [-- --calls=N --passes=P]
##   scripts/release-template.sh --call-cost [--calls=N --passes=P]
##
## Each row is the best of P passes (default 7; rows interleaved within a pass) of N calls
## (default 1,000,000) in a plain loop (no lambda), in ns per call, the empty loop's time
## included. Prints a markdown table; quits with 0, 1 when a codec result differs from the
## engine's.
extends SceneTree

const DEFAULT_CALLS := 1_000_000
const DEFAULT_PASSES := 7

var _calls := DEFAULT_CALLS
var _codec := FastVariantCodec.new()
## The same codec through an untyped variable: GDScript calls it without knowing its class.
var _untyped: Variant = _codec
var _bytes := var_to_bytes(1234567)


func _initialize() -> void:
	var passes := DEFAULT_PASSES
	for arg in OS.get_cmdline_user_args():
		if arg.begins_with("--calls="):
			_calls = maxi(1000, arg.trim_prefix("--calls=").to_int())
		elif arg.begins_with("--passes="):
			passes = maxi(1, arg.trim_prefix("--passes=").to_int())
	if _codec.decode(_bytes) != bytes_to_var(_bytes) or FastVariantCodec.bytes_to_var(_bytes) != bytes_to_var(_bytes):
		printerr("call_cost: the codec's int differs from the engine's")
		quit(1)
		return
	var rows := [
		["empty loop iteration", empty_loop],
		["`bytes_to_var(bytes)` of an int (engine utility function)", engine_decode],
		["`codec.get_reference_count()` (engine method, typed variable)", typed_engine_method],
		["`codec.get_reference_count()` (engine method, untyped variable)", untyped_engine_method],
		["`FastVariantCodec.bytes_to_var(bytes)` of an int (static)", codec_static_decode],
		["`codec.decode(bytes)` of an int (typed variable)", codec_typed_decode],
		["`codec.decode(bytes)` of an int (untyped variable)", codec_untyped_decode],
	]
	var best := []
	best.resize(rows.size())
	best.fill(INF)
	for p in passes:
		for i in rows.size():
			var work: Callable = rows[i][1]
			var start := Time.get_ticks_usec()
			work.call()
			best[i] = minf(best[i], float(Time.get_ticks_usec() - start))
	var table := "| call | ns per call |\n|---|---:|\n"
	for i in rows.size():
		table += "| %s | %.1f |\n" % [rows[i][0], best[i] * 1000.0 / _calls]
	print(table.strip_edges(false, true))
	print("Best of %d passes of %d calls each, in one Godot %s process on %d logical CPUs." % [
			passes, _calls, Engine.get_version_info().string, OS.get_processor_count()])
	quit(0)


func empty_loop() -> void:
	var last: Variant = null
	for i in _calls:
		last = i


func engine_decode() -> void:
	var last: Variant = null
	for i in _calls:
		last = bytes_to_var(_bytes)


func typed_engine_method() -> void:
	var last: Variant = null
	for i in _calls:
		last = _codec.get_reference_count()


func untyped_engine_method() -> void:
	var last: Variant = null
	for i in _calls:
		last = _untyped.get_reference_count()


func codec_static_decode() -> void:
	var last: Variant = null
	for i in _calls:
		last = FastVariantCodec.bytes_to_var(_bytes)


func codec_typed_decode() -> void:
	var last: Variant = null
	for i in _calls:
		last = _codec.decode(_bytes)


func codec_untyped_decode() -> void:
	var last: Variant = null
	for i in _calls:
		last = _untyped.decode(_bytes)
