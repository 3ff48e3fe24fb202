## Where things are in engine-made bytes (var_to_bytes / var_to_bytes_with_objects), for
## the mutation fuzzer to aim at: every value header, every length or count word, every
## typed-container type word, every NodePath flags word. Reads Godot 4's format as the
## engine writes it (single-precision reals); `parse` returns false on anything else.
extends RefCounted

const FLAG_64 := 1 << 16

## Offsets of value headers (type byte and flags).
var headers := PackedInt32Array()
## Offsets of words that say how long something is: String, StringName and name lengths,
## Array, Dictionary, packed array, NodePath name and property counts.
var lengths := PackedInt32Array()
## Offsets of typed-container built-in type words and NodePath flags words.
var type_words := PackedInt32Array()
## Bytes the value took (== the input's size for engine-made bytes).
var size := 0

var _bytes: PackedByteArray


func parse(bytes: PackedByteArray) -> bool:
	_bytes = bytes
	headers.clear()
	lengths.clear()
	type_words.clear()
	size = _value(0)
	return size == bytes.size()


## Every offset the fuzzer may aim at.
func all_words() -> PackedInt32Array:
	return headers + lengths + type_words


func _u32(at: int) -> int:
	return _bytes.decode_u32(at) if at + 4 <= _bytes.size() else -1


## The offset after the value at `at`, or -1.
func _value(at: int) -> int:
	var header := _u32(at)
	if header < 0:
		return -1
	headers.append(at)
	var t := header & 0xFF
	var real := 8 if header & FLAG_64 else 4
	at += 4
	match t:
		TYPE_NIL, TYPE_CALLABLE:
			return at
		TYPE_BOOL:
			return at + 4
		TYPE_INT, TYPE_FLOAT:
			return at + real
		TYPE_STRING, TYPE_STRING_NAME:
			return _string(at)
		TYPE_VECTOR2:
			return at + 2 * real
		TYPE_VECTOR2I:
			return at + 8
		TYPE_RECT2, TYPE_VECTOR4, TYPE_PLANE, TYPE_QUATERNION:
			return at + 4 * real
		TYPE_RECT2I, TYPE_VECTOR4I, TYPE_COLOR:
			return at + 16
		TYPE_VECTOR3:
			return at + 3 * real
		TYPE_VECTOR3I:
			return at + 12
		TYPE_TRANSFORM2D, TYPE_AABB:
			return at + 6 * real
		TYPE_BASIS:
			return at + 9 * real
		TYPE_TRANSFORM3D:
			return at + 12 * real
		TYPE_PROJECTION:
			return at + 16 * real
		TYPE_RID:
			return at + 8
		TYPE_NODE_PATH:
			var names := _u32(at)
			var subnames := _u32(at + 4)
			if names < 0 or subnames < 0 or _u32(at + 8) < 0:
				return -1
			lengths.append_array([at, at + 4])
			type_words.append(at + 8)
			var total := (names & 0x7FFFFFFF) + subnames + (1 if _u32(at + 8) & 2 else 0)
			at += 12
			for i in total:
				at = _string(at)
				if at < 0:
					return -1
			return at
		TYPE_OBJECT:
			if header & FLAG_64:
				return at + 8
			var class_length := _u32(at)
			at = _string(at)
			if at < 0 or class_length == 0:
				return at
			var count := _u32(at)
			if count < 0:
				return -1
			lengths.append(at)
			at += 4
			for i in count:
				at = _string(at)
				if at < 0:
					return -1
				at = _value(at)
				if at < 0:
					return -1
			return at
		TYPE_SIGNAL:
			at = _string(at)
			return at + 8 if at >= 0 else -1
		TYPE_DICTIONARY:
			at = _container_type(at, (header >> 16) & 3)
			if at >= 0:
				at = _container_type(at, (header >> 18) & 3)
			return _elements(at, 2)
		TYPE_ARRAY:
			return _elements(_container_type(at, (header >> 16) & 3), 1)
		TYPE_PACKED_BYTE_ARRAY:
			var count := _u32(at)
			lengths.append(at)
			return at + 4 + count + (4 - count % 4) % 4
		TYPE_PACKED_INT32_ARRAY, TYPE_PACKED_FLOAT32_ARRAY:
			return _packed(at, 4)
		TYPE_PACKED_INT64_ARRAY, TYPE_PACKED_FLOAT64_ARRAY:
			return _packed(at, 8)
		TYPE_PACKED_STRING_ARRAY:
			var count := _u32(at)
			if count < 0:
				return -1
			lengths.append(at)
			at += 4
			for i in count:
				at = _string(at)
				if at < 0:
					return -1
			return at
		TYPE_PACKED_VECTOR2_ARRAY:
			return _packed(at, 2 * real)
		TYPE_PACKED_VECTOR3_ARRAY:
			return _packed(at, 3 * real)
		TYPE_PACKED_COLOR_ARRAY:
			return _packed(at, 16)
		TYPE_PACKED_VECTOR4_ARRAY:
			return _packed(at, 4 * real)
	return -1


func _string(at: int) -> int:
	var length := _u32(at)
	if length < 0:
		return -1
	lengths.append(at)
	return at + 4 + length + (4 - length % 4) % 4


func _packed(at: int, element_size: int) -> int:
	var count := _u32(at)
	if count < 0:
		return -1
	lengths.append(at)
	return at + 4 + count * element_size


func _container_type(at: int, kind: int) -> int:
	if at < 0:
		return -1
	match kind:
		0:
			return at
		1:
			type_words.append(at)
			return at + 4
		_:
			return _string(at)


func _elements(at: int, per_item: int) -> int:
	if at < 0:
		return -1
	var count := _u32(at)
	if count < 0:
		return -1
	lengths.append(at)
	at += 4
	for i in (count & 0x7FFFFFFF) * per_item:
		at = _value(at)
		if at < 0:
			return -1
	return at
