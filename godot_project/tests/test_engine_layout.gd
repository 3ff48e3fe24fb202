## FastVariantCodec's engine-layout report: which fast paths through the engine's memory
## this process uses (FastVariantCodec.uses_engine_layout(), get_engine_layout_report()),
## as the mode this run is in decides:
##
## - safe mode: FAST_VARIANT_CODEC_ENGINE_LAYOUT=off, 0 or false (any case), or, when that
##   variable is not set, the project setting fast_variant_codec/engine_layout = false: no
##   fast path in use;
## - FAST_VARIANT_CODEC_FAILED_PROBES=name,...: those probes treated as failed;
## - otherwise every probe passes on this engine and every fast path is in use.
##
## The suite runs in every mode (see run_tests.sh's callers): each test works out what to
## expect from the environment and the setting, then checks it; and the codec still gives
## the engine's bytes and values in that mode.
extends "res://test_runner/test_suite.gd"

const Mismatches := preload("res://tests/support/mismatches.gd")

## Every probe, by its name in the report and in the variables.
const PROBES: Array[String] = ["variant", "array_elements", "read_only_arrays", "dictionary_entries",
		"buffers", "node_paths"]
const SAFE_MODE_VARIABLE := "FAST_VARIANT_CODEC_ENGINE_LAYOUT"
const FAILED_PROBES_VARIABLE := "FAST_VARIANT_CODEC_FAILED_PROBES"
## Probes run against a deliberately wrong layout (a test switch of the addon): they fail.
const WRONG_LAYOUT_VARIABLE := "FAST_VARIANT_CODEC_PROBE_WRONG_LAYOUT"
const SETTING := "fast_variant_codec/engine_layout"
## The probes each builds on: a probe runs only when their fast paths are in use.
const NEEDS := {
	"read_only_arrays": ["array_elements"],
	"dictionary_entries": ["variant"],
	"node_paths": ["variant", "buffers"],
}


# --- The mode of this run ------------------------------------------------------------------

## Why every fast path is off in this run, "" when it is not: the variable when it is set
## (it wins over the setting), else the setting.
static func safe_mode() -> String:
	if OS.has_environment(SAFE_MODE_VARIABLE):
		var value := OS.get_environment(SAFE_MODE_VARIABLE)
		if value.strip_edges().to_lower() in ["off", "0", "false"]:
			return "%s=%s" % [SAFE_MODE_VARIABLE, value]
		return ""
	if ProjectSettings.has_setting(SETTING) and not ProjectSettings.get_setting(SETTING):
		return "%s = false" % SETTING
	return ""


## The probes named in `variable` (comma-separated; other names ignored).
static func probes_in(variable: String) -> Array[String]:
	var named: Array[String] = []
	for name in OS.get_environment(variable).split(",", false):
		if name.strip_edges() in PROBES and not named.has(name.strip_edges()):
			named.append(name.strip_edges())
	return named


## The mode, for messages.
static func mode() -> String:
	var parts := PackedStringArray()
	if safe_mode():
		parts.append("safe mode (%s)" % safe_mode())
	if probes_in(FAILED_PROBES_VARIABLE):
		parts.append("failed probes %s" % [probes_in(FAILED_PROBES_VARIABLE)])
	if probes_in(WRONG_LAYOUT_VARIABLE):
		parts.append("wrong layouts %s" % [probes_in(WRONG_LAYOUT_VARIABLE)])
	return "mode: " + (", ".join(parts) if parts else "default")


## Whether a probe that `probe` builds on, directly or not, is among `off`.
static func _needs_off(probe: String, off: Array[String]) -> bool:
	for needed in NEEDS.get(probe, []):
		if needed in off or _needs_off(needed, off):
			return true
	return false


# --- Tests ---------------------------------------------------------------------------------

## The report holds exactly every probe, each {ok: bool, in_use: bool, detail: String} with
## a detail; a fast path in use is one whose probe passed.
func test_report_shape() -> void:
	var report: Dictionary = FastVariantCodec.get_engine_layout_report()
	var names := report.keys()
	names.sort()
	var expected := []
	expected.append_array(PROBES)
	expected.sort()
	assert_eq(names, expected, "the report's probes")
	for probe in PROBES:
		var entry = report.get(probe)
		if not assert_eq(typeof(entry), TYPE_DICTIONARY, "%s: a Dictionary" % probe):
			continue
		var keys: Array = entry.keys()
		keys.sort()
		assert_eq(keys, ["detail", "in_use", "ok"], "%s: its keys" % probe)
		assert_eq(typeof(entry.get("ok")), TYPE_BOOL, "%s: ok is a bool" % probe)
		assert_eq(typeof(entry.get("in_use")), TYPE_BOOL, "%s: in_use is a bool" % probe)
		assert_eq(typeof(entry.get("detail")), TYPE_STRING, "%s: detail is a String" % probe)
		assert_that(str(entry.get("detail", "")) != "", "%s: a detail" % probe)
		if entry.get("in_use") == true:
			assert_eq(entry.get("ok"), true, "%s: in use, so its probe passed (%s)" % [probe, entry.get("detail")])


## What is in use is what this run's mode says.
func test_the_mode_decides_what_is_in_use() -> void:
	var report: Dictionary = FastVariantCodec.get_engine_layout_report()
	var safe := safe_mode()
	var failed := probes_in(FAILED_PROBES_VARIABLE)
	var wrong := probes_in(WRONG_LAYOUT_VARIABLE)
	var any_in_use := false
	for probe in PROBES:
		var entry: Dictionary = report.get(probe, {})
		var what := "%s (%s): %s" % [probe, mode(), entry]
		any_in_use = any_in_use or entry.get("in_use") == true
		if safe:
			assert_eq(entry.get("in_use"), false, what + ": safe mode, not in use")
		elif probe in failed:
			assert_eq(entry.get("ok"), false, what + ": treated as failed, not ok")
			assert_eq(entry.get("in_use"), false, what + ": treated as failed, not in use")
			assert_that(str(entry.get("detail", "")).contains(FAILED_PROBES_VARIABLE),
					what + ": the detail names " + FAILED_PROBES_VARIABLE)
		elif probe in wrong:
			assert_eq(entry.get("ok"), false, what + ": run against a wrong layout, it fails")
			assert_eq(entry.get("in_use"), false, what + ": run against a wrong layout, not in use")
			assert_that(str(entry.get("detail", "")).begins_with("failed:"),
					what + ": the probe ran and rejected the wrong layout")
		elif _needs_off(probe, failed + wrong):
			assert_eq(entry.get("in_use"), false, what + ": the probe it needs is off")
			assert_that(str(entry.get("detail", "")).contains("needs the"),
					what + ": the detail names the probe it needs")
		else:
			# Nothing it rests on is forced off: every probe passes on this engine.
			assert_eq(entry.get("ok"), true, what + ": passes")
			assert_eq(entry.get("in_use"), true, what + ": in use")
	assert_eq(FastVariantCodec.uses_engine_layout(), any_in_use,
			"uses_engine_layout() is whether any fast path is in use (%s)" % mode())
	if safe:
		assert_eq(FastVariantCodec.uses_engine_layout(), false, "safe mode: uses_engine_layout() (%s)" % mode())
	elif (failed + wrong).size() < PROBES.size():
		assert_eq(FastVariantCodec.uses_engine_layout(), true, "uses_engine_layout() (%s)" % mode())


## The addon registers its project setting: a bool, true unless the project says otherwise.
func test_the_project_setting_is_registered() -> void:
	assert_that(ProjectSettings.has_setting(SETTING), "ProjectSettings.has_setting(%s)" % SETTING)
	assert_eq(typeof(ProjectSettings.get_setting(SETTING)), TYPE_BOOL, "%s is a bool" % SETTING)
	assert_eq(ProjectSettings.property_get_revert(SETTING), true, "%s defaults to true" % SETTING)
	var listed := ProjectSettings.get_property_list().filter(func(p: Dictionary) -> bool: return p.name == SETTING)
	if assert_eq(listed.size(), 1, "%s is listed once among the settings" % SETTING):
		assert_eq(listed[0].type, TYPE_BOOL, "%s is listed as a bool" % SETTING)


## The report is decided once: the same on every call and on every thread.
func test_the_report_is_the_same_everywhere() -> void:
	var report: Dictionary = FastVariantCodec.get_engine_layout_report()
	var uses: bool = FastVariantCodec.uses_engine_layout()
	assert_eq(FastVariantCodec.get_engine_layout_report(), report, "a second call")
	var thread := Thread.new()
	thread.start(func() -> Array:
		return [FastVariantCodec.get_engine_layout_report(), FastVariantCodec.uses_engine_layout()])
	var seen: Array = thread.wait_to_finish()
	assert_eq(seen[0], report, "get_engine_layout_report() on a thread")
	assert_eq(seen[1], uses, "uses_engine_layout() on a thread")
	var codec := FastVariantCodec.new()
	codec.encode(values())
	assert_eq(FastVariantCodec.get_engine_layout_report(), report, "after encoding")


## In this mode, whichever paths it uses, the codec gives the engine's bytes and values,
## for values that go through every probe's path (Variants, Arrays, read-only Arrays,
## Dictionaries, read-only Dictionaries, Strings and packed arrays' buffers).
func test_the_codec_matches_the_engine_in_this_mode() -> void:
	var codec := FastVariantCodec.new()
	var all := values()
	for i in all.size():
		var value = all[i]
		var what := "value %d %s (%s)" % [i, Mismatches.show(value), mode()]
		var bytes := var_to_bytes(value)
		var encoded := codec.encode(value)
		if encoded != bytes:
			fail("encode of %s: %s" % [what, Mismatches.compare_bytes(bytes, encoded)])
		assert_eq(codec.encoded_size(value), bytes.size(), "encoded_size of " + what)
		assert_same(codec.decode(bytes), bytes_to_var(bytes), "decode of " + what)
	var packets := codec.encode_batch(all)
	assert_eq(Array(packets), all.map(func(v) -> PackedByteArray: return var_to_bytes(v)), "encode_batch (%s)" % mode())
	var decoded := codec.decode_batch(packets)
	for i in all.size():
		assert_same(decoded[i], bytes_to_var(packets[i]), "decode_batch value %d (%s)" % [i, mode()])
	var peer := StreamPeerBuffer.new()
	for value in all:
		peer.put_var(value)
	assert_eq(codec.encode_stream(all), peer.data_array, "encode_stream == put_var (%s)" % mode())
	var streamed := codec.decode_stream(peer.data_array)
	if assert_eq(streamed.size(), all.size(), "decode_stream: every value (%s)" % mode()):
		for i in all.size():
			assert_same(streamed[i], bytes_to_var(packets[i]), "decode_stream value %d (%s)" % [i, mode()])


# --- Helpers -------------------------------------------------------------------------------

## Values through every path: scalars, Strings and names, packed arrays small and large,
## Arrays and Dictionaries typed and not, writable and read-only, nested.
func values() -> Array:
	var texts := PackedStringArray()
	var bytes := PackedByteArray()
	bytes.resize(2 << 20)
	var ints: Array[int] = []
	var big := {}
	# More distinct NodePaths than the decoder's cache tries before it stops keeping them.
	var paths := []
	for i in 1000:
		paths.append(NodePath("/root/n%d/ünï:p%d" % [i, i]) if i % 2 else NodePath("n%d" % i))
	for i in 10_000:
		texts.append("text %d é😀" % i)
		bytes[i * 200] = i & 0xFF
		ints.append(i * 31 - 7)
		big["k%d" % i] = [i, StringName("n%d" % i)] if i % 3 else Vector3(i, 0, -i)
	var read_only_ints := ints.duplicate()
	read_only_ints.make_read_only()
	var read_only_big := big.duplicate(true)
	read_only_big.make_read_only()
	var typed: Dictionary[String, int] = {"one": 1, "two": 2}
	var read_only_typed := typed.duplicate()
	read_only_typed.make_read_only()
	var read_only_mixed := [1, "two", &"three", Vector3(4, 5, 6), PackedInt32Array([7]), {"eight": [8]}]
	read_only_mixed.make_read_only()
	var read_only_dictionary := {"a": read_only_mixed, 1: "b", &"c": [2.5, {"d": null}]}
	read_only_dictionary.make_read_only()
	return [null, true, 7, -9223372036854775807 - 1, 2.5, NAN, "", "héllo", "x".repeat(5000), &"name",
			Vector3(1, 2, 3), Transform3D.IDENTITY, Color(0.1, 0.2, 0.3, 0.4), NodePath("a/b:c"),
			NodePath(""), NodePath("/"), NodePath(":p:q"), NodePath("../a/./b"), paths,
			PackedByteArray([1, 2, 3]), bytes, PackedStringArray(["a", "", "日本"]), texts,
			PackedFloat64Array([0.1, -0.0]), PackedVector3Array([Vector3(1, 2, 3)]),
			[], [1, [2, [3]], {"x": "y"}], ints, read_only_ints, read_only_mixed, [read_only_mixed, read_only_ints],
			{}, {"a": 1, 2: [3], Vector2i(1, 2): {"b": &"c"}}, typed, read_only_typed, big, read_only_big,
			read_only_dictionary, {"ro": read_only_dictionary, "list": [read_only_typed]}]
