## Base of every suite under res://tests/: assertions that record a failure and let the
## test go on, and a strict comparison of Variants. Call assertions on the main thread.
extends RefCounted

## Below this nesting, `difference` compares whole subtrees by their bytes (GDScript's
## own call stack is shorter than the format's 1024 levels).
const STRUCTURAL_DEPTH := 64

var _failures := PackedStringArray()
var _skipped := ""

## An object's text form, "<Class#instance id>", as `str()` and String conversions write it.
static var _object_text := RegEx.create_from_string("<(\\w+)#-?\\d+>")


## Whether the suites run through the addon's GDScript fallback, FastVariant (the
## environment's FVC_CODEC=FastVariant; see test_runner.gd), not FastVariantCodec itself.
static func through_fallback() -> bool:
	return OS.get_environment("FVC_CODEC") == "FastVariant"


## Whether the suites run through FastVariant without the library: the engine's own
## functions do the work. The library's class is looked up by name, not through
## FastVariant, so that the runner and every suite load even if FastVariant does not (its
## own suite then fails to load).
static func without_library() -> bool:
	return through_fallback() and not has_library()


## Whether the addon's library is loaded (its class exists).
static func has_library() -> bool:
	return ClassDB.class_exists(&"FastVariantCodec")


## What `action` returns. It calls the codec on input meant to fail: without the library,
## the engine's functions then print their errors (as bytes_to_var does; thousands of
## lines for a cyclic Array), which are not printed here. A script error while they are
## off is not counted either, so keep `action` to the one call.
func codec_quietly(action: Callable) -> Variant:
	if not without_library():
		return action.call()
	Engine.print_error_messages = false
	var result = action.call()
	Engine.print_error_messages = true
	return result


func reset() -> void:
	_failures = PackedStringArray()
	_skipped = ""


## Marks the running test skipped, for `reason` (printed); returns true, so that a test
## can `return` on it.
func skip(reason: String) -> bool:
	_skipped = reason
	return true


## Why the test that ran was skipped; empty if it was not.
func skipped() -> String:
	return _skipped


func failures() -> PackedStringArray:
	return _failures


func fail(message: String) -> void:
	_failures.append(message)


func assert_that(condition: bool, message: String) -> bool:
	if not condition:
		fail(message)
	return condition


func assert_eq(actual, expected, message: String) -> bool:
	if typeof(actual) == typeof(expected) and actual == expected:
		return true
	fail("%s\n      actual:   %s\n      expected: %s" % [message, _show(actual), _show(expected)])
	return false


## Asserts `difference(actual, expected)` is empty.
func assert_same(actual, expected, message: String) -> bool:
	var diff := difference(actual, expected)
	if diff.is_empty():
		return true
	fail("%s: %s" % [message, diff])
	return false


## "" when `a` and `b` are the same value: the same types all the way down, the same bits
## (NaN payloads and -0.0 included), the same container element types, objects of the same
## class with the same instance ids (EncodedObjectAsID), scripts and stored properties.
## Otherwise, where and how they differ.
static func difference(a, b, path := "value", depth := 0) -> String:
	if typeof(a) != typeof(b):
		return "%s: %s vs %s" % [path, type_string(typeof(a)), type_string(typeof(b))]
	match typeof(a):
		TYPE_OBJECT:
			return _object_difference(a, b, path, depth)
		TYPE_ARRAY:
			if depth < STRUCTURAL_DEPTH:
				return _array_difference(a, b, path, depth)
		TYPE_DICTIONARY:
			if depth < STRUCTURAL_DEPTH:
				return _dictionary_difference(a, b, path, depth)
	# Nil-typed containers, callables and the like carry nothing beyond their bytes.
	if var_to_bytes(a) != var_to_bytes(b) and not _same_text_but_instance_ids(a, b):
		return "%s: %s vs %s" % [path, _show(a), _show(b)]
	return ""


## Text made from an object (a typed String container converting a decoded whole object)
## reads "<Class#instance id>": every decode makes a new instance with its own id, so two
## such texts are the same when only those ids differ.
static func _same_text_but_instance_ids(a, b) -> bool:
	if typeof(a) not in [TYPE_STRING, TYPE_STRING_NAME, TYPE_PACKED_STRING_ARRAY]:
		return false
	var without_ids := func(text: String) -> String:
		return _object_text.sub(text, "<$1#id>", true)
	var a_texts := Array(PackedStringArray([a]) if typeof(a) != TYPE_PACKED_STRING_ARRAY else a)
	var b_texts := Array(PackedStringArray([b]) if typeof(b) != TYPE_PACKED_STRING_ARRAY else b)
	return a_texts.map(without_ids) == b_texts.map(without_ids)


static func _object_difference(a: Object, b: Object, path: String, depth: int) -> String:
	if is_instance_valid(a) != is_instance_valid(b):
		return "%s: %s vs %s" % [path, _show(a), _show(b)]
	if not is_instance_valid(a):
		return ""
	if a.get_class() != b.get_class():
		return "%s: class %s vs %s" % [path, a.get_class(), b.get_class()]
	if a is EncodedObjectAsID:
		if a.get_object_id() != b.get_object_id():
			return "%s: object id %d vs %d" % [path, a.get_object_id(), b.get_object_id()]
		return ""
	if a.get_script() != b.get_script():
		return "%s: script %s vs %s" % [path, a.get_script(), b.get_script()]
	for property in a.get_property_list():
		if property.usage & PROPERTY_USAGE_STORAGE and property.name != "script":
			var diff := difference(a.get(property.name), b.get(property.name),
					"%s.%s" % [path, property.name], depth + 1)
			if diff:
				return diff
	return ""


static func _array_difference(a: Array, b: Array, path: String, depth: int) -> String:
	var a_type := [a.get_typed_builtin(), a.get_typed_class_name(), a.get_typed_script()]
	var b_type := [b.get_typed_builtin(), b.get_typed_class_name(), b.get_typed_script()]
	if a_type != b_type:
		return "%s: element type %s vs %s" % [path, a_type, b_type]
	if a.size() != b.size():
		return "%s: %d vs %d elements" % [path, a.size(), b.size()]
	for i in a.size():
		var diff := difference(a[i], b[i], "%s[%d]" % [path, i], depth + 1)
		if diff:
			return diff
	return ""


static func _dictionary_difference(a: Dictionary, b: Dictionary, path: String, depth: int) -> String:
	var a_type := [a.get_typed_key_builtin(), a.get_typed_key_class_name(), a.get_typed_key_script(),
			a.get_typed_value_builtin(), a.get_typed_value_class_name(), a.get_typed_value_script()]
	var b_type := [b.get_typed_key_builtin(), b.get_typed_key_class_name(), b.get_typed_key_script(),
			b.get_typed_value_builtin(), b.get_typed_value_class_name(), b.get_typed_value_script()]
	if a_type != b_type:
		return "%s: key and value types %s vs %s" % [path, a_type, b_type]
	if a.size() != b.size():
		return "%s: %d vs %d entries" % [path, a.size(), b.size()]
	var a_keys := a.keys()
	var b_keys := b.keys()
	for i in a_keys.size():
		var diff := difference(a_keys[i], b_keys[i], "%s key %d" % [path, i], depth + 1)
		if diff:
			return diff
		diff = difference(a[a_keys[i]], b[b_keys[i]], "%s[%s]" % [path, _show(a_keys[i])], depth + 1)
		if diff:
			return diff
	return ""


## A short printable form: str(), cut to a line.
static func _show(value) -> String:
	var text := "<%s> %s" % [type_string(typeof(value)), str(value)]
	return text if text.length() <= 160 else text.substr(0, 157) + "..."
