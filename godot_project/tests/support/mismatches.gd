## Collects the discrepancies of a randomized test and reports them as one bounded failure:
## how many, then the first few in full (input index, seed, value, both byte strings in
## hex around the first differing byte).
extends RefCounted

const TestSuite := preload("res://test_runner/test_suite.gd")
const SHOWN := 5
## Hex shown per byte string: this many bytes, from a little before the first difference.
const WINDOW := 96

var seed_value: int
var count := 0
var _shown := PackedStringArray()
var _kinds := {}


func _init(seed_: int) -> void:
	seed_value = seed_


## A discrepancy about input `index`: `kind` groups them in the summary.
func add(index: int, kind: String, details: String) -> void:
	count += 1
	_kinds[kind] = _kinds.get(kind, 0) + 1
	if _shown.size() < SHOWN:
		_shown.append("#%d (seed %d) %s: %s" % [index, seed_value, kind, details])


## Two byte strings that should be equal.
func add_bytes(index: int, kind: String, what: String, expected: PackedByteArray,
		actual: PackedByteArray) -> void:
	add(index, kind, "%s\n        %s" % [what, compare_bytes(expected, actual).replace("\n", "\n        ")])


## Fails `suite` (a test_suite.gd) when anything was added. `total`: inputs checked.
func report(suite, total: int, what := "values") -> void:
	if count == 0:
		return
	var kinds := PackedStringArray()
	for kind in _kinds:
		kinds.append("%s: %d" % [kind, _kinds[kind]])
	var text := "%d discrepancies over %d %s (%s); replay with FVC_SEED=%d. The first %d:" % [
			count, total, what, ", ".join(kinds), seed_value, _shown.size()]
	for shown in _shown:
		text += "\n      - " + shown
	suite.fail(text)


## "engine N bytes: <hex>\ncodec M bytes: <hex>", windowed around the first difference.
static func compare_bytes(expected: PackedByteArray, actual: PackedByteArray,
		labels := ["engine", "codec "]) -> String:
	var first := 0
	while first < mini(expected.size(), actual.size()) and expected[first] == actual[first]:
		first += 1
	var from := maxi(0, (first - 16) & ~3)
	return "first difference at byte %d\n%s %d bytes: %s\n%s %d bytes: %s" % [first,
			labels[0], expected.size(), hex_window(expected, from), labels[1], actual.size(), hex_window(actual, from)]


## Hex of `WINDOW` bytes from `from`, in 4-byte words, with "..." where cut.
static func hex_window(bytes: PackedByteArray, from := 0) -> String:
	if bytes.is_empty():
		return "(none)"
	var to := mini(bytes.size(), from + WINDOW)
	var words := PackedStringArray()
	for at in range(from, to, 4):
		words.append(bytes.slice(at, mini(at + 4, to)).hex_encode())
	return ("... " if from > 0 else "") + " ".join(words) + (" ..." if to < bytes.size() else "")


## The innermost parts of `a` and `b` that differ (as test_suite.gd's `difference` sees
## them), as [a part, b part]; [] when they are the same.
static func differing_parts(a, b) -> Array:
	if TestSuite.difference(a, b) == "":
		return []
	if typeof(a) == typeof(b) and a is Array and a.size() == b.size() \
			and a.get_typed_builtin() == b.get_typed_builtin() and a.get_typed_class_name() == b.get_typed_class_name():
		for i in a.size():
			var parts := differing_parts(a[i], b[i])
			if parts:
				return parts
	elif typeof(a) == typeof(b) and a is Dictionary and a.size() == b.size() \
			and a.get_typed_key_builtin() == b.get_typed_key_builtin() \
			and a.get_typed_value_builtin() == b.get_typed_value_builtin():
		var a_keys: Array = a.keys()
		var b_keys: Array = b.keys()
		for i in a_keys.size():
			var parts := differing_parts(a_keys[i], b_keys[i])
			if parts.is_empty():
				parts = differing_parts(a[a_keys[i]], b[b_keys[i]])
			if parts:
				return parts
	return [a, b]


## Where two decoded values differ: the innermost differing parts, shown and written by
## the engine, in hex around their first differing byte.
static func compare_values(expected, actual) -> String:
	var parts := differing_parts(expected, actual)
	if parts.is_empty():
		return "(the same)"
	return "innermost difference: engine %s, codec %s\n%s" % [show(parts[0]), show(parts[1]),
			compare_bytes(var_to_bytes(parts[0]), var_to_bytes(parts[1]))]


## str() of a value, cut to a line.
static func show(value) -> String:
	# str() of a Signal looks its object up, and the engine complains of ids made up by a test.
	Engine.print_error_messages = false
	var text := "<%s> %s" % [type_string(typeof(value)), str(value)]
	Engine.print_error_messages = true
	text = text.replace("\n", "\\n")
	return text if text.length() <= 200 else text.substr(0, 197) + "..."
