## Other shapes than the speed targets' (no targets): engine vs codec on every packed
## type, Arrays of each kind of element, typed containers, StringName and int keys, long,
## medium and non-ASCII strings, NodePaths, deep nesting, a save game, and batches of mixed
## values. Finds where the codec is not faster than the engine.
##
##   godot --headless --path godot_project --script res://bench/shapes.gd [-- --runs=N --only=TEXT]
##
## --only=TEXT times only the shapes whose label contains TEXT.
## Each codec result is first checked against the engine's (the same bytes; decoded values
## that encode back to the input). Times are the best of N interleaved runs (default 7).
## Prints a markdown table; quits with 1 on a mismatch.
extends SceneTree

const Data := preload("res://bench/workloads.gd")

var _codec := FastVariantCodec.new()
var _runs := 7
## Times only the shapes whose label contains this (all when empty).
var _only := ""
var _ok := true
var _lines := PackedStringArray([
		"| shape | engine encode ms | codec encode ms | ratio | engine decode ms | codec decode ms | ratio |",
		"|---|---:|---:|---:|---:|---:|---:|"])


func _initialize() -> void:
	for arg in OS.get_cmdline_user_args():
		if arg.begins_with("--runs="):
			_runs = maxi(3, arg.trim_prefix("--runs=").to_int())
		elif arg.begins_with("--only="):
			_only = arg.trim_prefix("--only=")
	var rng := RandomNumberGenerator.new()
	rng.seed = 99
	# The shapes, by name (fixed data: a seeded generator).
	var shapes := {}
	var pba := PackedByteArray(); pba.resize(4_000_000)
	for i in 4_000_000: pba[i] = i * 31 % 256
	shapes["PackedByteArray 4M"] = pba
	var pi32 := PackedInt32Array(); pi32.resize(1_000_000)
	for i in 1_000_000: pi32[i] = rng.randi() - (1 << 31)
	shapes["PackedInt32Array 1M"] = pi32
	var pf64 := PackedFloat64Array(); pf64.resize(1_000_000)
	for i in 1_000_000: pf64[i] = rng.randf() * 1e9
	shapes["PackedFloat64Array 1M"] = pf64
	var pv2 := PackedVector2Array(); pv2.resize(1_000_000)
	for i in 1_000_000: pv2[i] = Vector2(rng.randf(), i)
	shapes["PackedVector2Array 1M"] = pv2
	var pv4 := PackedVector4Array(); pv4.resize(1_000_000)
	for i in 1_000_000: pv4[i] = Vector4(rng.randf(), i, 1, 2)
	shapes["PackedVector4Array 1M"] = pv4
	var long_strings := PackedStringArray()
	for i in 10_000: long_strings.append("x".repeat(rng.randi_range(200, 1000)) + str(i))
	shapes["PackedStringArray 10k long"] = long_strings
	# A generator of its own: the shapes after it keep their data.
	var medium_rng := RandomNumberGenerator.new()
	medium_rng.seed = 7
	var medium_strings := PackedStringArray()
	for i in 40_000: medium_strings.append("y".repeat(medium_rng.randi_range(64, 256)) + str(i))
	shapes["PackedStringArray 40k medium"] = medium_strings
	var uni := PackedStringArray()
	for i in 100_000: uni.append("é日本%d€" % i)
	shapes["PackedStringArray 100k non-ASCII"] = uni
	var ints := []
	for i in 100_000: ints.append(rng.randi() * (1 if i % 2 else 1 << 20))
	shapes["Array 100k ints"] = ints
	var floats := []
	for i in 100_000: floats.append(rng.randf() * 1e3)
	shapes["Array 100k floats"] = floats
	var typed_ints: Array[int] = []
	for i in 100_000: typed_ints.append(i * 3)
	shapes["Array[int] 100k"] = typed_ints
	var v3s := []
	for i in 100_000: v3s.append(Vector3(i, 2, 3))
	shapes["Array 100k Vector3"] = v3s
	var strs := []
	for i in 100_000: strs.append("name_%d" % i)
	shapes["Array 100k Strings"] = strs
	var names := []
	for i in 100_000: names.append(StringName("sn_%d" % (i % 1000)))
	shapes["Array 100k StringNames"] = names
	var ikeys := {}
	for i in 10_000: ikeys[i * 7] = i
	shapes["Dictionary 10k int->int"] = ikeys
	var snkeys := {}
	for i in 10_000: snkeys[StringName("k%d" % i)] = float(i)
	shapes["Dictionary 10k StringName->float"] = snkeys
	var typed_dict: Dictionary[String, int] = {}
	for i in 10_000: typed_dict["key_%d" % i] = i
	shapes["Dictionary[String,int] 10k"] = typed_dict
	var nested := {}
	for i in 1000:
		var inner := {}
		for j in 10: inner["f%d" % j] = [j, "v", Vector2(j, i)]
		nested["e%d" % i] = inner
	shapes["Dictionary 1k of dicts of 10"] = nested
	var arr_dicts := []
	for i in 10_000: arr_dicts.append({"id": i, "name": "player_%d" % i, "pos": Vector2(i, 1)})
	shapes["Array of 10k small dicts"] = arr_dicts
	shapes["String 1MB ASCII"] = "a".repeat(1_000_000)
	shapes["String 1MB non-ASCII"] = "日".repeat(333_333)
	var pbas := []
	for i in 10_000: pbas.append(PackedByteArray([i % 256, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]))
	shapes["Array 10k PackedByteArray(16)"] = pbas
	var xforms := []
	for i in 10_000: xforms.append(Transform3D(Basis.from_euler(Vector3(i, 1, 2)), Vector3(i, 0, 1)))
	shapes["Array 10k Transform3D"] = xforms
	var projs := []
	for i in 10_000: projs.append(Projection(Transform3D(Basis(), Vector3(i, 0, 1))))
	shapes["Array 10k Projection"] = projs
	var bools := []
	for i in 100_000: bools.append(i % 3 == 0 if i % 2 else null)
	shapes["Array 100k bools/nulls"] = bools
	var paths := []
	for i in 10_000: paths.append(NodePath("root/node_%d/child:prop:sub" % (i % 50)))
	shapes["Array 10k NodePaths, 50 distinct"] = paths
	var distinct_paths := []
	for i in 10_000: distinct_paths.append(NodePath("root/node_%d/child:prop:sub%d" % [i, i]))
	shapes["Array 10k NodePaths, all distinct"] = distinct_paths
	var deep := []
	var cur := deep
	for i in 500:
		var nxt := [i]
		cur.append(nxt)
		cur = nxt
	shapes["Array nested 500 deep"] = deep
	var save := {"player": {"name": "Ann", "hp": 100, "inv": []}, "world": []}
	for i in 2000:
		save["player"]["inv"].append({"item": "sword_%d" % i, "count": i, "tags": PackedStringArray(["a", "b"])})
		save["world"].append({"pos": Vector3(i, 0, 1), "kind": i % 7, "alive": true, "hp": 1.5 * i})
	shapes["save game (4k nested dicts)"] = save
	var colors := []
	for i in 10_000: colors.append(Color(i, 0.5, 0.25, 1))
	shapes["Array 10k Color"] = colors
	for label in shapes:
		shape(label, shapes[label])
	var mixed := []
	for i in 10_000:
		match i % 5:
			0: mixed.append(i)
			1: mixed.append("s%d" % i)
			2: mixed.append(Vector3(i, 1, 2))
			3: mixed.append([i, "a"])
			4: mixed.append(PackedFloat32Array([i, 1]))
	shape_batch("10k mixed values", mixed)
	var bigger := []
	for i in 1000:
		bigger.append(nested.duplicate() if i == 0 else {"a": i, "b": range(50)})
	shape_batch("1k dicts of 50-int arrays", bigger)
	var ints_b := []
	for i in 10_000: ints_b.append(i)
	shape_batch("10k ints", ints_b)
	print("\n".join(_lines))
	print("Best of %d interleaved runs, Godot %s, %d logical CPUs; ratio = engine time / codec time." % [
			_runs, Engine.get_version_info()["string"], OS.get_processor_count()])
	print("all results identical to the engine's" if _ok else "MISMATCH (see above)")
	quit(0 if _ok else 1)


## Encode and decode of one value.
func shape(label: String, value: Variant) -> void:
	var bytes := var_to_bytes(value)
	if _codec.encode(value) != bytes or var_to_bytes(_codec.decode(bytes)) != bytes:
		printerr("MISMATCH in %s" % label)
		_ok = false
		return
	add_row(label, func() -> Variant: return var_to_bytes(value),
			func() -> Variant: return _codec.encode(value),
			func() -> Variant: return bytes_to_var(bytes),
			func() -> Variant: return _codec.decode(bytes))


## `encode_batch` / `decode_batch` against GDScript loops of the engine's functions.
func shape_batch(label: String, values: Array) -> void:
	var packets := []
	for v in values:
		packets.append(var_to_bytes(v))
	var encoded := _codec.encode_batch(values)
	var decoded := _codec.decode_batch(packets)
	for i in values.size():
		if encoded[i] != packets[i] or var_to_bytes(decoded[i]) != packets[i]:
			printerr("MISMATCH in batch %s, value %d" % [label, i])
			_ok = false
			return
	add_row("batch of " + label, func() -> Variant:
				var out := []
				for v in values:
					out.append(var_to_bytes(v))
				return out,
			func() -> Variant: return _codec.encode_batch(values),
			func() -> Variant:
				var out := []
				for p in packets:
					out.append(bytes_to_var(p))
				return out,
			func() -> Variant: return _codec.decode_batch(packets))


func add_row(label: String, engine_encode: Callable, codec_encode: Callable,
		engine_decode: Callable, codec_decode: Callable) -> void:
	if not _only.is_empty() and not label.contains(_only):
		return
	var best := [INF, INF, INF, INF]
	var work := [engine_encode, codec_encode, engine_decode, codec_decode]
	for i in _runs:
		for k in 4:
			best[k] = minf(best[k], Data.time_once(work[k]))
	_lines.append("| %s | %.3f | %.3f | %.2f | %.3f | %.3f | %.2f |" % [label, best[0], best[1],
			best[0] / best[1], best[2], best[3], best[2] / best[3]])
	print(_lines[-1])

