## The demo: a save game written and read back with FastVariantCodec and with the engine,
## through real files, checked to agree byte for byte, with how long each took.
##
##   godot --headless --path godot_project --script res://demo/demo.gd
##
## Quits with 0 when the codec and the engine agree, 1 otherwise.
extends SceneTree

const CHUNK_SIDE := 64
const CHUNKS := 64
const ITEMS := 500
const RUNS := 5

var _ok := true


func _initialize() -> void:
	var state := make_game_state()
	var codec := FastVariantCodec.new()
	var engine_path := "user://demo_save_engine.bin"
	var codec_path := "user://demo_save_codec.bin"

	print("FastVariantCodec demo: a save game of %d map chunks (%dx%d heights + tiles), %d inventory items" % [
			CHUNKS, CHUNK_SIDE, CHUNK_SIDE, ITEMS])

	var engine_save := best_of(func() -> void:
		var file := FileAccess.open(engine_path, FileAccess.WRITE)
		file.store_var(state)
		file.close())
	var codec_save := best_of(func() -> void:
		var file := FileAccess.open(codec_path, FileAccess.WRITE)
		file.store_buffer(codec.encode_stream([state]))
		file.close())

	var engine_bytes := FileAccess.get_file_as_bytes(engine_path)
	var codec_bytes := FileAccess.get_file_as_bytes(codec_path)
	check(engine_bytes == codec_bytes,
			"the two save files are identical (%d bytes)" % engine_bytes.size())

	var loaded := {}
	var engine_load := best_of(func() -> void:
		var file := FileAccess.open(engine_path, FileAccess.READ)
		loaded["engine"] = file.get_var()
		file.close())
	var codec_load := best_of(func() -> void:
		var values := codec.decode_stream(FileAccess.get_file_as_bytes(codec_path))
		loaded["codec"] = values[0] if values.size() == 1 else null)
	check(codec.get_error() == OK, "the codec read its save back " + codec.get_error_message())
	check(var_to_bytes(loaded["codec"]) == var_to_bytes(loaded["engine"]),
			"the codec loads the same game state as the engine")
	check(var_to_bytes(loaded["codec"]) == var_to_bytes(state), "the loaded state equals the saved one")

	print("")
	print("             engine      codec   engine/codec")
	print("  save   %9.3f ms %8.3f ms   %6.2fx" % [engine_save, codec_save, engine_save / codec_save])
	print("  load   %9.3f ms %8.3f ms   %6.2fx" % [engine_load, codec_load, engine_load / codec_load])
	print("(best of %d runs each; save = encode + write the file, load = read the file + decode)" % RUNS)
	print("")
	print("codec and engine agree" if _ok else "codec and engine DISAGREE")
	quit(0 if _ok else 1)


func check(condition: bool, what: String) -> void:
	print(("  ok    " if condition else "  FAIL  ") + what)
	_ok = _ok and condition


## Fastest of RUNS runs of `work`, in milliseconds.
func best_of(work: Callable) -> float:
	var best := INF
	for i in RUNS:
		var start := Time.get_ticks_usec()
		work.call()
		best = minf(best, (Time.get_ticks_usec() - start) / 1000.0)
	return best


## What a game saves: the player, an inventory, and the map as chunks of packed arrays.
func make_game_state() -> Dictionary:
	var rng := RandomNumberGenerator.new()
	rng.seed = 20261122

	var inventory: Array[Dictionary] = []
	for i in ITEMS:
		inventory.append({
			"id": i,
			"name": "Item #%d %s" % [i, ["sword", "potion", "ring", "map", "gem"][i % 5]],
			"count": rng.randi_range(1, 99),
			"weight": rng.randf_range(0.1, 20.0),
			"tags": PackedStringArray(["loot", "tier%d" % (i % 4)]),
		})

	var chunks := {}
	for c in CHUNKS:
		var heights := PackedFloat32Array()
		heights.resize(CHUNK_SIDE * CHUNK_SIDE)
		var tiles := PackedByteArray()
		tiles.resize(CHUNK_SIDE * CHUNK_SIDE)
		for i in heights.size():
			heights[i] = rng.randf_range(-10.0, 100.0)
			tiles[i] = rng.randi_range(0, 15)
		var spawns := PackedVector3Array()
		for i in 16:
			spawns.append(Vector3(rng.randf() * 64.0, heights[i], rng.randf() * 64.0))
		chunks[Vector2i(c % 8, c / 8)] = {"heights": heights, "tiles": tiles, "spawns": spawns}

	return {
		"version": 3,
		"saved_at": "2026-11-22T12:00:00Z",
		"player": {
			"name": "Ada",
			"level": 42,
			"xp": 9876543210,
			"position": Vector3(12.5, 3.0, -7.25),
			"rotation": Quaternion(0.0, 0.7071068, 0.0, 0.7071068),
			"color": Color(0.9, 0.3, 0.2),
			"checkpoint": NodePath("/root/World/Checkpoints/C7"),
		},
		"inventory": inventory,
		"map": chunks,
		"explored": PackedInt64Array(range(0, 4096, 3)),
	}
