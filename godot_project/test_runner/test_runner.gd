## Runs every suite under res://tests/ (files test_*.gd, methods test_*), one line per
## test, then a last line "N passed, N failed"; quits with 0 when every test passed and at
## least one ran, else 1 (2 for a bad invocation).
##
##   godot --headless --path godot_project -- --run-tests [name-filter ...]
##
## A test fails on a failed assertion or on a script error ("SCRIPT ERROR:") while it
## runs, on any thread; a script error outside a test fails the run.
extends Node

const SUITES_DIR := "res://tests"
const ScriptErrorLog := preload("res://test_runner/script_error_log.gd")


func _ready() -> void:
	var args := OS.get_cmdline_user_args()
	if not args.has("--run-tests") or DisplayServer.get_name() != "headless":
		printerr("Run the tests with: godot --headless --path godot_project -- --run-tests")
		get_tree().quit(2)
		return
	var filters := Array(args).filter(func(arg: String) -> bool: return arg != "--run-tests")

	var errors := ScriptErrorLog.new()
	OS.add_logger(errors)
	var passed := 0
	var failed := 0
	var errors_in_tests := 0
	var started := Time.get_ticks_msec()

	for path in _suite_paths():
		print(path.trim_prefix(SUITES_DIR + "/"))
		var errors_before_load := errors.count()
		var script: GDScript = load(path)
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
			if problems.is_empty():
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
	print("%d passed, %d failed" % [passed, failed])
	OS.remove_logger(errors)
	get_tree().quit(0 if failed == 0 and passed > 0 else 1)


## Suite files, in name order.
func _suite_paths() -> PackedStringArray:
	var paths := PackedStringArray()
	for file in DirAccess.get_files_at(SUITES_DIR):
		if file.begins_with("test_") and file.ends_with(".gd"):
			paths.append(SUITES_DIR.path_join(file))
	paths.sort()
	return paths


func _selected(test: String, filters: Array) -> bool:
	return filters.is_empty() or filters.any(func(f: String) -> bool: return test.contains(f))
