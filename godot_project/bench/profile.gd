## Runs one benchmark workload in a loop, for a profiler:
##
##   perf record -g -- "$GODOT" --headless --path godot_project --script res://bench/profile.gd \
##       -- --workload=decode_batch --side=codec --seconds=5
##
## (`$GODOT` as scripts/provision-godot.sh prints it; perf follows its wrapper script into the
## engine. The engine binary has no symbols, the addon's library has.)
## Workloads: the names below (see bench.gd for what each is); sides: codec, engine.
## --runs=N runs the workload N times instead of for --seconds.
extends SceneTree

const Data := preload("res://bench/workloads.gd")
## The texts of the `*_texts` workloads: their script and their length (an index of
## Data.TEXT_LENGTHS).
var _text_script := "Latin, one accent"
var _text_length := 1
## What holds the texts of the `*_texts` workloads: `packed` (a PackedStringArray),
## `array` (an Array of Strings) or `keys` (the keys of a Dictionary, each holding an int).
var _text_container := "packed"


func _initialize() -> void:
	var workload := "decode_batch"
	var side := "codec"
	var seconds := 5.0
	var fixed_runs := -1
	for arg in OS.get_cmdline_user_args():
		if arg.begins_with("--workload="):
			workload = arg.trim_prefix("--workload=")
		elif arg.begins_with("--side="):
			side = arg.trim_prefix("--side=")
		elif arg.begins_with("--seconds="):
			seconds = arg.trim_prefix("--seconds=").to_float()
		elif arg.begins_with("--script="):
			_text_script = arg.trim_prefix("--script=")
		elif arg.begins_with("--length="):
			_text_length = arg.trim_prefix("--length=").to_int()
		elif arg.begins_with("--container="):
			_text_container = arg.trim_prefix("--container=")
		elif arg.begins_with("--runs="):
			fixed_runs = arg.trim_prefix("--runs=").to_int()
	var codec := FastVariantCodec.new()
	var work := make_work(workload, side == "codec", codec)
	if not work.is_valid():
		printerr("unknown workload %s" % workload)
		quit(2)
		return
	var runs := 0
	var start := Time.get_ticks_msec()
	while (runs < fixed_runs) if fixed_runs >= 0 else (Time.get_ticks_msec() - start < seconds * 1000.0):
		work.call()
		runs += 1
	var elapsed := (Time.get_ticks_msec() - start) / 1000.0
	print("%s %s: %d runs, %.3f ms per run" % [side, workload, runs, elapsed * 1000.0 / maxi(runs, 1)])
	quit(0)


func make_work(workload: String, codec_side: bool, codec: FastVariantCodec) -> Callable:
	match workload:
		"encode_batch", "decode_batch":
			var dicts := []
			for i in Data.BATCH_DICTS:
				dicts.append(Data.make_small_dictionary(i))
			if workload == "encode_batch":
				return (func() -> Variant: return codec.encode_batch(dicts)) if codec_side \
						else (func() -> Variant: return Data.engine_encode_loop(dicts))
			var packets := Data.engine_encode_loop(dicts)
			return (func() -> Variant: return codec.decode_batch(packets)) if codec_side \
					else (func() -> Variant: return Data.engine_decode_loop(packets))
		"encode_dictionary", "decode_dictionary":
			return one(workload.begins_with("encode"), codec_side, Data.make_big_dictionary(), codec)
		"encode_strings", "decode_strings":
			return one(workload.begins_with("encode"), codec_side, Data.make_strings(Data.STRING_COUNT), codec)
		"encode_floats", "decode_floats":
			return one(workload.begins_with("encode"), codec_side, Data.make_floats(Data.PACKED_COUNT), codec)
		"encode_int64s", "decode_int64s":
			return one(workload.begins_with("encode"), codec_side, Data.make_int64s(Data.PACKED_COUNT), codec)
		"encode_texts", "decode_texts":
			# --script=NAME (one of Data.TEXT_SCRIPTS), --length=N (0, 1, 2: short, medium,
			# long) and --container=packed|array|keys: those texts in that container.
			var length: Array = Data.TEXT_LENGTHS[_text_length]
			var texts := Data.make_texts(_text_script, length[1], length[2], length[3])
			var held: Variant = texts
			if _text_container == "array":
				held = Array(texts)
			elif _text_container == "keys":
				var keys := {}
				for i in texts.size():
					keys[texts[i]] = i
				held = keys
			return one(workload.begins_with("encode"), codec_side, held, codec)
		"encode_small", "decode_small":
			var small := Data.make_small_dictionary(7)
			var single := one(workload.begins_with("encode"), codec_side, small, codec)
			return func() -> Variant:
				for i in 1000:
					single.call()
				return null
	return Callable()


func one(encode: bool, codec_side: bool, value: Variant, codec: FastVariantCodec) -> Callable:
	if encode:
		return (func() -> Variant: return codec.encode(value)) if codec_side \
				else (func() -> Variant: return var_to_bytes(value))
	var bytes := var_to_bytes(value)
	return (func() -> Variant: return codec.decode(bytes)) if codec_side \
			else (func() -> Variant: return bytes_to_var(bytes))
