## FastVariantCodec's API on every platform: Godot's binary Variant format
## ([method @GlobalScope.var_to_bytes], [method @GlobalScope.bytes_to_var],
## [method FileAccess.store_var], [method StreamPeer.put_var]) through the addon's library
## where the platform has one, else through the engine's own functions.
##
## Where the addon's library is loaded ([method is_native]), every call goes to a
## [code]FastVariantCodec[/code]: the same bytes, values and errors, a GDScript call more per
## call. Elsewhere (Web, Android, iOS, any platform the addon has no library for), the
## engine's [method @GlobalScope.var_to_bytes] and [method @GlobalScope.bytes_to_var] do the
## work: the same bytes and values, [code]null[/code] or an empty result on error, and
## [method get_error] tells what failed where the bytes' first words show it (else
## [constant ERR_INVALID_DATA] at the value's first byte). The Godot 3 and 2 formats exist
## only in the library: without it, [member format] 3 or 2 makes every call fail with
## [constant ERR_UNAVAILABLE].
##
## This script never names [code]FastVariantCodec[/code] in its code, so it loads
## whether or not the library is there.
class_name FastVariant
extends RefCounted

## [member format]: the Godot 4 format ([method @GlobalScope.var_to_bytes]).
const FORMAT_GODOT_4 := 4
## [member format]: the Godot 3 format (needs the library).
const FORMAT_GODOT_3 := 3
## [member format]: the Godot 2 format (needs the library).
const FORMAT_GODOT_2 := 2
## The engine's nesting limit, and [member max_depth]'s default and highest value.
const MAX_DEPTH := 1024

const _NATIVE_CLASS := &"FastVariantCodec"
## The header bit of an object written as its instance id (the engine's
## ENCODE_FLAG_OBJECT_AS_ID).
const _OBJECT_AS_ID := 1 << 16
## Threads whose last static call failure is kept, at most (see [method _record_static]).
const _KEPT_THREAD_FAILURES := 256

## Encode objects whole, like [method @GlobalScope.var_to_bytes_with_objects]. Off, an
## object is written as its instance id, like [method @GlobalScope.var_to_bytes].
var full_objects: bool:
	get:
		return _native.full_objects if _native else _full_objects
	set(value):
		_set_option(&"full_objects", value)

## Decode whole objects, like [method @GlobalScope.bytes_to_var_with_objects]. Off, bytes
## holding a whole object fail with [constant ERR_UNAUTHORIZED]. Only allow objects from
## trusted bytes: instantiating and setting properties can run any script.
var allow_objects: bool:
	get:
		return _native.allow_objects if _native else _allow_objects
	set(value):
		_set_option(&"allow_objects", value)

## Deepest nesting of Arrays, Dictionaries and objects written or read, from 0 to 1024
## (the engine's limit); values outside are clamped. The top value is at depth 0, a
## container's elements one deeper. Without the library, a value is checked against a
## limit below 1024 as a whole: before it is encoded, after it is decoded.
var max_depth: int:
	get:
		return _native.max_depth if _native else _max_depth
	set(value):
		_set_option(&"max_depth", value if _native else clampi(value, 0, MAX_DEPTH))

## The format every method writes and reads: [constant FORMAT_GODOT_4] (the default),
## [constant FORMAT_GODOT_3] or [constant FORMAT_GODOT_2]; any other value fails
## ([constant ERR_INVALID_PARAMETER]) and keeps the old one. Godot 3 and 2 need the
## library: without it, every call in them fails with [constant ERR_UNAVAILABLE].
var format: int:
	get:
		return _native.format if _native else _format
	set(value):
		if _native:
			_native.format = value
		elif value in [FORMAT_GODOT_4, FORMAT_GODOT_3, FORMAT_GODOT_2]:
			_format = value
		else:
			_record(_Failure.new(ERR_INVALID_PARAMETER,
					"format %d is not 4, 3 or 2 (FORMAT_GODOT_4, _3, _2)" % value))

## Whether the library's class is loaded in this process.
static var _has_native := ClassDB.class_exists(_NATIVE_CLASS)
## The failure of each thread's last static call, by thread id; none after a success.
static var _static_failures := {}
static var _static_lock := Mutex.new()

## The library's codec that does the work, when there is one. Typed as Object and called
## by name: naming its class would stop this script from loading without the library.
var _native: Object
var _full_objects := false
var _allow_objects := false
var _max_depth := MAX_DEPTH
var _format := FORMAT_GODOT_4
## Without the library: the last call's outcome, and what get_decoded_size() measures.
## Several threads may call one instance, so they are changed under `_lock`; `_failed` is
## also read without it, so that a success after a success takes no lock.
var _lock: Mutex
var _failed := false
var _failure: _Failure
var _decoded: PackedByteArray
var _decoded_at := -1
var _decoded_objects := false


func _init() -> void:
	if _has_native:
		_native = ClassDB.instantiate(_NATIVE_CLASS)
	else:
		_lock = Mutex.new()


## [code]true[/code] when the addon's library is loaded (its class [code]FastVariantCodec[/code]
## exists) and every call goes through it; [code]false[/code] where the platform has no
## library and the engine's own functions do the work.
static func is_native() -> bool:
	return _has_native


## The bytes of [param value], as [method @GlobalScope.var_to_bytes] writes them (objects
## as their instance ids, the Godot 4 format). Empty on error: see [method get_last_error].
@warning_ignore("shadowed_global_identifier")
static func var_to_bytes(value: Variant) -> PackedByteArray:
	if _has_native:
		return ClassDB.class_call_static(_NATIVE_CLASS, &"var_to_bytes", value)
	var bytes := _engine_bytes(value, false, MAX_DEPTH)
	_record_static(_encode_failure(value, false, MAX_DEPTH) if bytes.is_empty() else null)
	return bytes


## The value at the start of [param bytes], as [method @GlobalScope.bytes_to_var] reads it
## (objects not decoded, the Godot 4 format). [code]null[/code] on error: see
## [method get_last_error].
@warning_ignore("shadowed_global_identifier")
static func bytes_to_var(bytes: PackedByteArray) -> Variant:
	if _has_native:
		return ClassDB.class_call_static(_NATIVE_CLASS, &"bytes_to_var", bytes)
	var value = _engine_value(bytes, 0, false, MAX_DEPTH, 0)
	if value is _Failure:
		_record_static(value)
		return null
	_record_static(null)
	return value


## [constant OK] if this thread's last call of the static [method bytes_to_var] or
## [method var_to_bytes] succeeded, else its [enum Error]. Each thread has its own.
static func get_last_error() -> Error:
	if _has_native:
		return ClassDB.class_call_static(_NATIVE_CLASS, &"get_last_error")
	var failure := _static_failure()
	return failure.error if failure else OK


## What went wrong in this thread's last call of the static [method bytes_to_var] or
## [method var_to_bytes]; empty after a success.
static func get_last_error_message() -> String:
	if _has_native:
		return ClassDB.class_call_static(_NATIVE_CLASS, &"get_last_error_message")
	var failure := _static_failure()
	return failure.message if failure else ""


## The bytes of [param value], as [method @GlobalScope.var_to_bytes] (with
## [member full_objects], [method @GlobalScope.var_to_bytes_with_objects]) writes them.
## Empty on error: see [method get_error].
func encode(value: Variant) -> PackedByteArray:
	if _native:
		return _native.encode(value)
	if _refuses_format():
		return PackedByteArray()
	var bytes := _engine_bytes(value, _full_objects, _max_depth)
	_finish(_encode_failure(value, _full_objects, _max_depth) if bytes.is_empty() else null)
	return bytes


## The value in [param bytes] from byte [param offset] on, as
## [method @GlobalScope.bytes_to_var] (with [member allow_objects],
## [method @GlobalScope.bytes_to_var_with_objects]) reads it; bytes after it are ignored.
## [code]null[/code] on error: see [method get_error].
func decode(bytes: PackedByteArray, offset: int = 0) -> Variant:
	if _native:
		return _native.decode(bytes, offset)
	var held := _held(bytes)
	var value = _instance_value(held, offset, offset)
	if value is _Failure:
		_record(value)
		return null
	_lock.lock()
	_decoded = held
	_decoded_at = offset
	_decoded_objects = _allow_objects
	_failure = null
	_failed = false
	_lock.unlock()
	return value


## How many bytes the last successful [method decode] used; 0 before any. Without the
## library the engine measures them when this is called (it decodes the value again,
## without objects): 0 when that value held whole objects.
func get_decoded_size() -> int:
	if _native:
		return _native.get_decoded_size()
	_lock.lock()
	var bytes := _decoded
	var at := _decoded_at
	var objects := _decoded_objects
	_lock.unlock()
	if at < 0:
		return 0
	if objects and _holds_whole_object(bytes, at):
		return 0
	return bytes.decode_var_size(at, false)


## How many bytes [method encode] gives for [param value]; -1 on error: see
## [method get_error]. Without the library the value is encoded to count them.
func encoded_size(value: Variant) -> int:
	if _native:
		return _native.encoded_size(value)
	var bytes := encode(value)
	return -1 if bytes.is_empty() else bytes.size()


## [method encode] of every value of [param values], in one call: the same bytes, in the
## same order. A value that fails gives an empty packet; [method get_error] then tells
## about the first that failed.
func encode_batch(values: Array) -> Array[PackedByteArray]:
	if _native:
		return _native.encode_batch(values)
	var packets: Array[PackedByteArray] = []
	if _refuses_format():
		return packets
	# Property getters run for objects written whole and may change the caller's array.
	var held := values.duplicate() if _full_objects else values
	packets.resize(held.size())
	var first: _Failure = null
	for i in held.size():
		var bytes := _engine_bytes(held[i], _full_objects, _max_depth)
		if bytes.is_empty() and first == null:
			first = _encode_failure(held[i], _full_objects, _max_depth).of_value(i)
		packets[i] = bytes
	_finish(first)
	return packets


## [method decode] of every packet of [param packets] (each a [PackedByteArray]): the same
## values, in the same order. A packet that fails gives [code]null[/code]; [method get_error]
## then tells about the first that failed.
func decode_batch(packets: Array) -> Array:
	if _native:
		return _native.decode_batch(packets)
	var values := []
	if _refuses_format():
		return values
	# Scripts run for objects decoded whole and may change the caller's array.
	var held := packets.duplicate() if _allow_objects else packets
	values.resize(held.size())
	var first: _Failure = null
	for i in held.size():
		var packet = held[i]
		var value: Variant
		if packet is PackedByteArray:
			value = _instance_value(_held(packet), 0, 0)
		else:
			value = _Failure.new(ERR_INVALID_PARAMETER,
					"%s is not a PackedByteArray" % type_string(typeof(packet)))
		if value is _Failure:
			if first == null:
				first = value.of_value(i)
		else:
			values[i] = value
	_finish(first)
	return values


## All [param values] as one stream: each as a 32-bit little-endian length, then its bytes,
## as [method FileAccess.store_var] and [method StreamPeer.put_var] write them. Empty on
## error: see [method get_error].
func encode_stream(values: Array) -> PackedByteArray:
	if _native:
		return _native.encode_stream(values)
	if _refuses_format():
		return PackedByteArray()
	var held := values.duplicate() if _full_objects else values
	var stream := PackedByteArray()
	for i in held.size():
		var bytes := _engine_bytes(held[i], _full_objects, _max_depth)
		if bytes.is_empty():
			_record(_encode_failure(held[i], _full_objects, _max_depth).of_value(i))
			return PackedByteArray()
		var at := stream.size()
		stream.resize(at + 4)
		stream.encode_u32(at, bytes.size())
		stream.append_array(bytes)
	_finish(null)
	return stream


## Every value of a stream written by [method encode_stream], [method FileAccess.store_var]
## or [method StreamPeer.put_var], as [method FileAccess.get_var] reads them one after
## another. Empty on error (a value that is invalid or cut short): see [method get_error].
func decode_stream(bytes: PackedByteArray) -> Array:
	if _native:
		return _native.decode_stream(bytes)
	if _refuses_format():
		return []
	bytes = _held(bytes)
	var values := []
	var at := 0
	while at < bytes.size():
		var frame := "value %d (frame at byte %d): " % [values.size(), at]
		var end := at + 4
		if end <= bytes.size():
			end += bytes.decode_u32(at)
		if end > bytes.size():
			_record(_Failure.new(ERR_FILE_EOF, "%sincomplete: the frame needs %d more bytes"
					% [frame, end - bytes.size()]))
			return []
		# The value must lie within its frame, as in get_var: decoded from the frame alone.
		var value = _instance_value(bytes.slice(at + 4, end), 0, at + 4)
		if value is _Failure:
			_record(_Failure.new(value.error, frame + value.message))
			return []
		values.append(value)
		at = end
	_finish(null)
	return values


## The value in [param bytes], written in format [param from_format], rewritten in
## [param to_format] (see [member format]). Needs the library: without it, fails with
## [constant ERR_UNAVAILABLE]. Empty on error: see [method get_error].
@warning_ignore("shadowed_global_identifier")
func convert(bytes: PackedByteArray, from_format: int, to_format: int) -> PackedByteArray:
	if _native:
		return _native.convert(bytes, from_format, to_format)
	_record(_unavailable("convert()"))
	return PackedByteArray()


## Like [method convert], for every value of a stream written with
## [method FileAccess.store_var]. Needs the library: without it, fails with
## [constant ERR_UNAVAILABLE].
func convert_stream(bytes: PackedByteArray, from_format: int, to_format: int) -> PackedByteArray:
	if _native:
		return _native.convert_stream(bytes, from_format, to_format)
	_record(_unavailable("convert_stream()"))
	return PackedByteArray()


## What the last [method convert] or [method convert_stream] could not carry over, one line
## each; empty without the library.
func get_conversion_report() -> PackedStringArray:
	if _native:
		return _native.get_conversion_report()
	return PackedStringArray()


## [constant OK] if the last call succeeded, else its [enum Error]: the engine's for the
## same input, as far as it can be known without the library (see the class description).
func get_error() -> Error:
	if _native:
		return _native.get_error()
	var failure := _last_failure()
	return failure.error if failure else OK


## What went wrong in the last call and at which byte; empty if it succeeded. Batch and
## stream calls name the value ([code]"value 3: ..."[/code]).
func get_error_message() -> String:
	if _native:
		return _native.get_error_message()
	var failure := _last_failure()
	return failure.message if failure else ""


# --- Without the library -------------------------------------------------------------------

## What a failed call reports: an [enum Error] and what went wrong where.
class _Failure:
	var error: Error
	var message: String

	func _init(failed_with: Error, text: String) -> void:
		error = failed_with
		message = text

	## The same failure, naming the value of a batch or stream it belongs to.
	func of_value(index: int) -> _Failure:
		return _Failure.new(error, "value %d: %s" % [index, message])


## Sets the option `name` (a property) to `value`: the library's codec's, else the one
## this script keeps (`_` + name).
func _set_option(name: StringName, value: Variant) -> void:
	if _native:
		_native.set(name, value)
	else:
		set("_" + name, value)


## Records the outcome of a call: `failure`, or a success (null).
func _finish(failure: _Failure) -> void:
	if failure:
		_record(failure)
	elif _failed:
		_record(null)


## The last call's failure, or null.
func _last_failure() -> _Failure:
	_lock.lock()
	var failure := _failure
	_lock.unlock()
	return failure


func _record(failure: _Failure) -> void:
	_lock.lock()
	_failure = failure
	_failed = failure != null
	_lock.unlock()


## The value at byte `offset` of `bytes` with this instance's settings, or the _Failure;
## `shown_at` is the byte its messages name for the value's start.
func _instance_value(bytes: PackedByteArray, offset: int, shown_at: int) -> Variant:
	if _format != FORMAT_GODOT_4:
		return _format_unavailable()
	return _engine_value(bytes, offset, _allow_objects, _max_depth, shown_at)


## `bytes` as they are now, for a decode: with objects allowed, scripts run while it reads
## them and may change the caller's array, so the call holds its own reference (a
## copy-on-write copy, which copies nothing unless the caller's array changes).
func _held(bytes: PackedByteArray) -> PackedByteArray:
	return bytes.duplicate() if _allow_objects else bytes


## Whether the call fails for this instance's format, which needs the library (recorded).
func _refuses_format() -> bool:
	if _format == FORMAT_GODOT_4:
		return false
	_record(_format_unavailable())
	return true


func _format_unavailable() -> _Failure:
	return _unavailable("the Godot %d format" % _format)


static func _unavailable(what: String) -> _Failure:
	return _Failure.new(ERR_UNAVAILABLE, "%s needs the FastVariantCodec library, which is not "
			% what + "loaded on this platform (FastVariant.is_native() is false)")


## The engine's bytes for `value` (with objects whole when `objects`), empty when it
## refuses them or they nest deeper than `depth_limit`.
static func _engine_bytes(value: Variant, objects: bool, depth_limit: int) -> PackedByteArray:
	if depth_limit < MAX_DEPTH and _depth_failure(value, objects, depth_limit) != null:
		return PackedByteArray()
	return var_to_bytes_with_objects(value) if objects else var_to_bytes(value)


## Why `value` cannot be encoded (see _engine_bytes), as the engine's encoder decides,
## walking the value in the order the engine writes it: nesting past the limit
## (ERR_OUT_OF_MEMORY, which also stops a cycle), and, with objects whole, a class that
## cannot be instantiated (ERR_INVALID_PARAMETER) or a script without a res:// path
## (ERR_UNAVAILABLE).
static func _encode_failure(value: Variant, objects: bool, depth_limit: int) -> _Failure:
	var found := _depth_failure(value, objects, depth_limit)
	if found:
		return found
	var pending := [[value, 0]]
	while not pending.is_empty():
		var entry: Array = pending.pop_back()
		var item = entry[0]
		var depth: int = entry[1]
		var types: Array[Script] = []
		if item is Array:
			types = [item.get_typed_script()]
		elif item is Dictionary:
			types = [item.get_typed_key_script(), item.get_typed_value_script()]
		for script in types:
			if objects and not _has_res_path(script):
				return _Failure.new(ERR_UNAVAILABLE, "script path \"%s\" is not a res:// path (a "
						% script.resource_path + "container's type at depth %d)" % depth)
		if objects and _is_live_object(item):
			if not ClassDB.can_instantiate(item.get_class()):
				return _Failure.new(ERR_INVALID_PARAMETER, "class %s cannot be instantiated, so its "
						% item.get_class() + "objects cannot be encoded whole at depth %d" % depth)
			if not _has_res_path(item.get_script()):
				return _Failure.new(ERR_UNAVAILABLE, "script \"%s\" has no res:// path at depth %d"
						% [item.get_script().resource_path, depth])
		var inside := _elements(item, objects)
		for i in range(inside.size() - 1, -1, -1):
			pending.append([inside[i], depth + 1])
	return _Failure.new(FAILED, "the engine's var_to_bytes refused the value")


static func _has_res_path(script: Script) -> bool:
	return script == null or script.resource_path.begins_with("res://")


## The first value of `value` nested deeper than `depth_limit` (the top at depth 0, each
## element, key, value and object property one deeper than its container; objects are
## walked when `objects`), as the failure that reports it; null when there is none. The
## walk stops there, so a cyclic container costs depth_limit steps.
static func _depth_failure(value: Variant, objects: bool, depth_limit: int) -> _Failure:
	var pending := [value]
	var depths := PackedInt32Array([0])
	while not pending.is_empty():
		var item = pending.pop_back()
		var depth := depths[depths.size() - 1]
		depths.resize(depths.size() - 1)
		if depth > depth_limit:
			return _Failure.new(ERR_OUT_OF_MEMORY, "nesting deeper than %d (a cyclic Array or "
					% depth_limit + "Dictionary?) at depth %d" % depth)
		var inside := _elements(item, objects)
		for i in range(inside.size() - 1, -1, -1):
			pending.append(inside[i])
			depths.append(depth + 1)
	return null


## The values `value` holds one level down, in the order the engine writes them: an
## Array's elements, a Dictionary's keys and values (key, value, key, ...), and, when
## `objects`, a live object's stored properties but its script (written as a path).
static func _elements(value: Variant, objects: bool) -> Array:
	if value is Array:
		return value
	if value is Dictionary:
		var entries := []
		for key in value:
			entries.append_array([key, value[key]])
		return entries
	if objects and _is_live_object(value) and not value is EncodedObjectAsID:
		var properties := []
		for property in value.get_property_list():
			if property.usage & PROPERTY_USAGE_STORAGE and property.name != "script":
				properties.append(value.get(property.name))
		return properties
	return []


## The value at byte `offset` of `bytes`, as the engine decodes it (whole objects when
## `objects`), or the _Failure that says why not; `shown_at` is the byte the messages name
## for the value's start (the caller's numbering). A value nested deeper than
## `depth_limit` (below the engine's) fails, the Nodes it made freed.
static func _engine_value(bytes: PackedByteArray, offset: int, objects: bool, depth_limit: int,
		shown_at: int) -> Variant:
	if offset < 0 or offset > bytes.size():
		return _Failure.new(ERR_INVALID_PARAMETER, "offset %d is outside the %d bytes"
				% [offset, bytes.size()])
	if bytes.size() - offset < 4:
		return _Failure.new(ERR_INVALID_DATA, "truncated header at byte %d" % shown_at)
	var value: Variant
	if offset == 0:
		value = bytes_to_var_with_objects(bytes) if objects else bytes_to_var(bytes)
	else:
		value = bytes.decode_var(offset, objects)
	if value == null and not _holds_null(bytes, offset, objects):
		return _refusal(bytes, offset, objects, shown_at)
	if depth_limit < MAX_DEPTH:
		var too_deep := _depth_failure(value, objects, depth_limit)
		if too_deep:
			_free_nodes(value)
			return _Failure.new(ERR_OUT_OF_MEMORY, "nesting deeper than %d at byte %d"
					% [depth_limit, shown_at])
	return value


## Whether the bytes at `offset` hold a value the engine decodes to null: Nil, an object id
## (0 is null; any other decodes to an EncodedObjectAsID), or a whole object with an empty
## class name. Every other value decodes to something else, so a null result for them is
## a refusal.
static func _holds_null(bytes: PackedByteArray, offset: int, objects: bool) -> bool:
	var header := bytes.decode_u32(offset)
	match header & 0xFF:
		TYPE_NIL:
			return true
		TYPE_OBJECT:
			if header & _OBJECT_AS_ID:
				return bytes.size() - offset >= 12
			return objects and bytes.size() - offset >= 8 and bytes.decode_u32(offset + 4) == 0
	return false


## Whether the value at `offset` is an object written whole.
static func _holds_whole_object(bytes: PackedByteArray, offset: int) -> bool:
	var header := bytes.decode_u32(offset)
	return header & 0xFF == TYPE_OBJECT and not header & _OBJECT_AS_ID


## Why the engine refused the value at `offset` (at least 4 bytes), as far as its first
## words tell, with the codec's Error and message: an unknown type, a whole object without
## `objects`, a String or StringName longer than the bytes left; anything else
## ERR_INVALID_DATA at the value's first byte.
static func _refusal(bytes: PackedByteArray, offset: int, objects: bool, shown_at: int) -> _Failure:
	var type := bytes.decode_u32(offset) & 0xFF
	var left := bytes.size() - offset
	if type >= TYPE_MAX:
		return _Failure.new(ERR_INVALID_DATA, "unknown type id %d at byte %d" % [type, shown_at])
	if not objects and _holds_whole_object(bytes, offset):
		return _Failure.new(ERR_UNAUTHORIZED,
				"encoded object, but objects are not allowed at byte %d" % shown_at)
	if type in [TYPE_STRING, TYPE_STRING_NAME] and left >= 8:
		var length := bytes.decode_u32(offset + 4)
		if length + (4 - length % 4) % 4 > left - 8:
			return _Failure.new(ERR_FILE_EOF, "String length %d exceeds the remaining %d bytes at byte %d"
					% [length, left - 8, shown_at + 4])
	return _Failure.new(ERR_INVALID_DATA, "the engine's decoder refused the value at byte %d" % shown_at)


## Frees the Nodes (objects that are not reference-counted) in a value a decode made and
## then refused: nothing else holds them.
static func _free_nodes(value: Variant) -> void:
	var pending := [value]
	while not pending.is_empty():
		var item = pending.pop_back()
		pending.append_array(_elements(item, true))
		if _is_live_object(item) and not item is RefCounted:
			item.free()


## Whether `value` is an object that has not been freed.
static func _is_live_object(value: Variant) -> bool:
	return typeof(value) == TYPE_OBJECT and is_instance_valid(value)


## This thread's last static call failure, or null.
static func _static_failure() -> _Failure:
	_static_lock.lock()
	var failure: _Failure = _static_failures.get(OS.get_thread_caller_id())
	_static_lock.unlock()
	return failure


## Records the outcome of this thread's static call: `failure`, or a success (null). While
## no thread holds a failure, a success takes no lock. A thread's entry lives until its
## next success, so threads that fail and end would pile up: past _KEPT_THREAD_FAILURES the
## oldest entry is dropped (that thread then reads OK).
static func _record_static(failure: _Failure) -> void:
	if failure == null and _static_failures.is_empty():
		return
	var thread := OS.get_thread_caller_id()
	_static_lock.lock()
	if failure:
		_static_failures.erase(thread)
		_static_failures[thread] = failure
		if _static_failures.size() > _KEPT_THREAD_FAILURES:
			_static_failures.erase(_static_failures.keys()[0])
	else:
		_static_failures.erase(thread)
	_static_lock.unlock()
