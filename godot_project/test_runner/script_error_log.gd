## Counts script errors (what Godot prints as "SCRIPT ERROR:"), from any thread, so that
## the runner can fail the test during which one happened. Needs Godot 4.5+ (Logger).
extends Logger

var _lock := Mutex.new()
var _count := 0
var _last := ""


func _log_error(function: String, file: String, line: int, code: String, rationale: String,
		_editor_notify: bool, error_type: int, _script_backtraces: Array[ScriptBacktrace]) -> void:
	if error_type != ERROR_TYPE_SCRIPT:
		return
	_lock.lock()
	_count += 1
	_last = "%s (%s:%d in %s)" % [rationale if rationale else code, file, line, function]
	_lock.unlock()


func count() -> int:
	_lock.lock()
	var n := _count
	_lock.unlock()
	return n


func last() -> String:
	_lock.lock()
	var text := _last
	_lock.unlock()
	return text
