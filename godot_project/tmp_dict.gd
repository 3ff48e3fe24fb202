extends SceneTree
const Data := preload("res://bench/workloads.gd")
func _initialize() -> void:
	var script := "Latin, one accent"
	var length := 1
	var side := "codec"
	for arg in OS.get_cmdline_user_args():
		if arg.begins_with("--script="): script = arg.trim_prefix("--script=")
		elif arg.begins_with("--length="): length = arg.trim_prefix("--length=").to_int()
		elif arg.begins_with("--side="): side = arg.trim_prefix("--side=")
	var l: Array = Data.TEXT_LENGTHS[length]
	var texts := Data.make_texts(script, l[1], l[2], l[3])
	var d := {}
	for i in texts.size(): d[texts[i]] = i
	var bytes := var_to_bytes(d)
	var codec := FastVariantCodec.new()
	var start := Time.get_ticks_usec()
	var runs := 0
	while Time.get_ticks_usec() - start < 4_000_000:
		if side == "codec": codec.decode(bytes)
		else: bytes_to_var(bytes)
		runs += 1
	print("%s: %.3f ms" % [side, (Time.get_ticks_usec() - start) / 1000.0 / runs])
	quit(0)
