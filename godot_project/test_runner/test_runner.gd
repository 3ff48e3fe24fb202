## Runs every suite under res://tests/ (files test_*.gd, methods test_*), one line per
## test, then a last line "N passed, N failed"; quits with 0 when every test passed and at
## least one ran, else 1 (2 for a bad invocation).
##
##   godot --headless --path godot_project -- --run-tests [--suite=TEXT ...] [name-filter ...]
##
## A name filter selects the tests whose method name contains it; --suite=TEXT selects the
## suite files whose name contains TEXT (the others are not even loaded). Either kind
## given several times selects the union.
##
## A test fails on a failed assertion or on a script error ("SCRIPT ERROR:") while it
## runs, on any thread; a script error outside a test fails the run. A test may skip itself
## (test_suite.gd's `skip`): it is printed with its reason and counted apart, neither
## passed nor failed; the last line then ends ", N skipped".
##
## FVC_CODEC=FastVariant in the environment runs the suites through the addon's GDScript
## fallback: each suite is compiled from its source with `FastVariant` in place of every
## `FastVariantCodec` in its code (the fallback has the same API), so that the same tests check it,
## with the library loaded (it forwards every call) and without it (a project without the
## `.gdextension`, where such a suite could not even be compiled as written).
##
## This is the project's main scene, so an exported pack runs it too: Godot's release
## export template can run neither --script nor --path (scripts/release-template.sh).
## There, `-- --bench [bench args]`, `-- --shapes [args]`, `-- --call-cost [args]` and
## `-- --memory [args]` run res://bench/bench.gd, res://bench/shapes.gd,
## res://bench/call_cost.gd and res://bench/memory.gd (scripts written for --script; see
## _run_main_loop_script).
extends Node

const SUITES_DIR := "res://tests"
const TestSuite := preload("res://test_runner/test_suite.gd")
## In a suite's source: a double-quoted text, or the library class's name.
static var _name_or_text := RegEx.create_from_string("\"(\\\\.|[^\"\\\\])*\"|\\bFastVariantCodec\\b")
const ScriptErrorLog := preload("res://test_runner/script_error_log.gd")
## User args that run a `--script` main-loop script instead of the tests.
const ENTRY_SCRIPTS := {"--bench": "res://bench/bench.gd", "--shapes": "res://bench/shapes.gd",
		"--call-cost": "res://bench/call_cost.gd", "--memory": "res://bench/memory.gd"}


func _ready() -> void:
	var args := OS.get_cmdline_user_args()
	for entry: String in ENTRY_SCRIPTS:
		if args.has(entry):
			get_tree().quit(_run_main_loop_script(ENTRY_SCRIPTS[entry]))
			return
	if not args.has("--run-tests") or DisplayServer.get_name() != "headless":
		printerr("Run the tests with: godot --headless --path godot_project -- --run-tests")
		get_tree().quit(2)
		return
	var filters := []
	var suite_filters := []
	for arg in args:
		if arg.begins_with("--suite="):
			suite_filters.append(arg.trim_prefix("--suite="))
		elif arg != "--run-tests":
			filters.append(arg)
	print(mode())

	var errors := ScriptErrorLog.new()
	OS.add_logger(errors)
	var passed := 0
	var failed := 0
	var skipped := 0
	var errors_in_tests := 0
	var started := Time.get_ticks_msec()

	for path in _suite_paths(suite_filters):
		print(path.trim_prefix(SUITES_DIR + "/"))
		var errors_before_load := errors.count()
		var script := _load_suite(path)
		if script == null or not script.can_instantiate():
			print("  (the suite does not load) ... FAILED")
			failed += 1
			errors_in_tests += errors.count() - errors_before_load
			continue
		var suite = script.new()
		for method in suite.get_method_list():
			var test: String = method.name
			if not test.begins_with("test_") or not _selected(test, filters):
				continue
			suite.reset()
			var errors_before := errors.count()
			var test_started := Time.get_ticks_msec()
			suite.call(test)
			var problems: PackedStringArray = suite.failures()
			var new_errors := errors.count() - errors_before
			if new_errors:
				errors_in_tests += new_errors
				problems.append("%d script error(s), the last: %s" % [new_errors, errors.last()])
			var took := "(%d ms)" % (Time.get_ticks_msec() - test_started)
			if problems.is_empty() and suite.skipped():
				skipped += 1
				print("  %s ... skipped (%s)" % [test, suite.skipped()])
			elif problems.is_empty():
				passed += 1
				print("  %s ... ok %s" % [test, took])
			else:
				failed += 1
				print("  %s ... FAILED %s" % [test, took])
				for problem in problems:
					print("    - ", problem)

	var stray_errors := errors.count() - errors_in_tests
	if stray_errors:
		failed += 1
		print("%d script error(s) outside any test, the last: %s" % [stray_errors, errors.last()])
	if passed + failed == 0:
		print("no test ran")
	print("(%.1f s)" % ((Time.get_ticks_msec() - started) / 1000.0))
	print("%d passed, %d failed%s" % [passed, failed, ", %d skipped" % skipped if skipped else ""])
	OS.remove_logger(errors)
	get_tree().quit(0 if failed == 0 and passed > 0 else 1)


## One line naming the engine build and the codec's settings that this run tests: an
## editor (debug) build or a release export template (`OS.has_feature("template")`,
## `OS.is_debug_build()`), the binding's environment variables when set, and which of
## the binding's engine-layout fast paths are off (FastVariantCodec's layout report; the
## class is looked up by name, so that this script loads without the extension).
static func mode() -> String:
	var build := "editor build" if OS.has_feature("editor") else "export template"
	build += " (debug)" if OS.is_debug_build() else " (release)"
	var settings := PackedStringArray([build])
	for variable in ["FAST_VARIANT_CODEC_ENGINE_LAYOUT", "FAST_VARIANT_CODEC_FAILED_PROBES"]:
		if OS.has_environment(variable):
			settings.append("%s=%s" % [variable, OS.get_environment(variable)])
	if TestSuite.through_fallback():
		settings.append("through FastVariant, %s" % ("the library loaded" if TestSuite.has_library()
				else "without the library: the engine's functions"))
	if ClassDB.class_has_method("FastVariantCodec", "get_engine_layout_report"):
		var report: Dictionary = ClassDB.class_call_static("FastVariantCodec", "get_engine_layout_report")
		var off := report.keys().filter(func(probe: Variant) -> bool: return not report[probe].get("in_use", false))
		settings.append("layout fast paths off: %s" % (", ".join(off) if off else "none"))
	return "mode: " + "; ".join(settings)


## Suite files whose name contains one of `filters` (all when it is empty), in name order.
## ResourceLoader.list_directory names scripts by their .gd path also in an exported pack
## that holds them as binary tokens (.gdc and .remap files, which DirAccess lists); the
## project exports them as text anyway (export_presets.cfg: script_export_mode=0).
func _suite_paths(filters: Array) -> PackedStringArray:
	var paths := PackedStringArray()
	for file in ResourceLoader.list_directory(SUITES_DIR):
		if file.begins_with("test_") and file.ends_with(".gd") and _selected(file, filters):
			paths.append(SUITES_DIR.path_join(file))
	paths.sort()
	return paths


## The suite at `path`: as written, or, through the fallback (FVC_CODEC=FastVariant),
## compiled from its source with `FastVariant` in place of every `FastVariantCodec` in its
## code (text in double quotes is left as it is: messages, class names looked up). The
## project exports its scripts as text (export_presets.cfg: script_export_mode=0), so the
## source is there in a pack too. Null when it does not compile.
func _load_suite(path: String) -> GDScript:
	if not TestSuite.through_fallback():
		return load(path)
	var source := FileAccess.get_file_as_string(path)
	var code := PackedStringArray()
	var end := 0
	for found in _name_or_text.search_all(source):
		code.append(source.substr(end, found.get_start() - end))
		code.append(found.get_string() if found.get_string().begins_with("\"") else "FastVariant")
		end = found.get_end()
	code.append(source.substr(end))
	var script := GDScript.new()
	script.source_code = "".join(code)
	# Its errors then name the file; the suite itself is never loaded from it.
	script.resource_path = path
	return script if script.reload() == OK else null


## Runs a script written for `godot --script` (extends SceneTree, works in _initialize and
## then calls quit): its _initialize on an instance of its own, which is not the main
## loop, so its quit() does not end this one. Returns the exit code to quit with: 1 when
## the script does not load or its `_ok` variable, when it has one, ends false.
func _run_main_loop_script(path: String) -> int:
	var script: Script = load(path)
	if script == null or not script.can_instantiate():
		printerr("cannot load %s" % path)
		return 1
	var main_loop: Object = script.new()
	main_loop.call("_initialize")
	var ok: Variant = main_loop.get("_ok")
	main_loop.free()
	return 1 if ok is bool and not ok else 0


## Whether `name` (a test's or a suite file's) contains one of `filters`, or they are empty.
func _selected(name: String, filters: Array) -> bool:
	return filters.is_empty() or filters.any(func(f: String) -> bool: return name.contains(f))
