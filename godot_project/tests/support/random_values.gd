## Random Variants of every type from a seeded generator, for the randomized suites:
## boundary numbers (±2^31, ±2^63, f32-exact or not, ±0, ±inf, NaN payloads, subnormals),
## Unicode up to astral characters, nested and typed containers (built-in element types,
## classes, a script), and live, scripted and freed objects.
##
## Everything comes from `rng`: the same seed gives the same values (`reseed` before each
## value makes each one replayable on its own). Objects come from a pool made at `_init`;
## call `free_all` when done (Nodes are not reference-counted).
extends RefCounted

const StoredResource := preload("res://fixtures/stored_resource.gd")

## Every Variant type: TYPE_NIL (0) to TYPE_PACKED_VECTOR4_ARRAY (38).
const TYPE_COUNT := 39

## Math types: wire type -> number of 32-bit components (reals, or ints for the *i types).
const REAL_COMPONENTS := {
	TYPE_VECTOR2: 2, TYPE_RECT2: 4, TYPE_VECTOR3: 3, TYPE_TRANSFORM2D: 6, TYPE_VECTOR4: 4,
	TYPE_PLANE: 4, TYPE_QUATERNION: 4, TYPE_AABB: 6, TYPE_BASIS: 9, TYPE_TRANSFORM3D: 12,
	TYPE_PROJECTION: 16, TYPE_COLOR: 4,
}
const INT_COMPONENTS := {TYPE_VECTOR2I: 2, TYPE_RECT2I: 4, TYPE_VECTOR3I: 3, TYPE_VECTOR4I: 4}
## Packed arrays of reals: wire type -> components per element.
const PACKED_REAL_COMPONENTS := {
	TYPE_PACKED_VECTOR2_ARRAY: 2, TYPE_PACKED_VECTOR3_ARRAY: 3, TYPE_PACKED_COLOR_ARRAY: 4,
	TYPE_PACKED_VECTOR4_ARRAY: 4,
}

## float64 edge values as [high word, low word].
const F64_SPECIALS := [
	[0, 0], [0x80000000, 0],  # ±0
	[0x7FF00000, 0], [0xFFF00000, 0],  # ±inf
	[0x7FF80000, 0], [0xFFF80000, 0],  # quiet NaN, negative quiet NaN
	[0x7FF00000, 1], [0x7FF40000, 0], [0xFFF00000, 0x1234],  # signalling NaNs
	[0x7FF80000, 1], [0x7FFDEADB, 0xEEF00D], [0x7FFFFFFF, 0xFFFFFFFF], [0xFFFFFFFF, 0xFFFFFFFF],
	[0, 1], [0x80000000, 1], [0x000FFFFF, 0xFFFFFFFF], [0x00100000, 0],  # subnormals, min normal
	[0x7FEFFFFF, 0xFFFFFFFF], [0xFFEFFFFF, 0xFFFFFFFF],  # ±max
	[0x3FF00000, 0], [0xBFF00000, 0], [0x3FE00000, 0],  # ±1, 0.5 (f32-exact)
	[0x47EFFFFF, 0xE0000000],  # f32 max (exact)
	[0x47EFFFFF, 0xE0000001],  # just above f32 max (not exact)
	[0x47EFFFFF, 0xF0000000],  # rounds to inf in f32 (not exact)
	[0x36A00000, 0], [0x36900000, 0],  # 2^-149 (f32's smallest, exact), 2^-150 (not)
	[0x38100000, 0], [0x380FFFFF, 0xC0000000],  # f32 min normal, f32 max subnormal
	[0x41700000, 0], [0x41700000, 0x10000000],  # 16777216 (exact), 16777217 (not)
	[0x3FB99999, 0x9999999A], [0x3FB99999, 0xA0000000],  # 0.1, 0.1f (exact)
	[0x41DFFFFF, 0xFFC00000], [0x41E00000, 0], [0xC1E00000, 0],  # 2^31 - 1, ±2^31
	[0x43E00000, 0], [0xC3E00000, 0],  # ±2^63
]
## float32 edge values (bits).
const F32_SPECIALS := [
	0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001, 0x7FA00000,
	0xFF812345, 0x7FC00001, 0x7FFFFFFF, 0xFFFFFFFF, 0x00000001, 0x80000001, 0x007FFFFF,
	0x00800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x3F800000, 0xBF800000, 0x4B800000, 0x3DCCCCCD,
]
const INT_SPECIALS := [
	0, 1, -1, 2, 127, 128, 255, 256, 65535, 65536,
	2147483647, 2147483648, -2147483648, -2147483649, 4294967295, 4294967296, -4294967296,
	9223372036854775807, -9223372036854775807 - 1, -9223372036854775807, 9223372036854775806,
]

## Character ranges [first, last], weighted by repetition: ASCII, controls, Latin, Greek and
## Cyrillic, combining marks, CJK, kana, Hangul, specials (BOM, U+FFFD, non-characters),
## and astral planes (emoji, music, CJK extension B, tags, private use up to U+10FFFF).
const CHAR_RANGES := [
	[0x20, 0x7E], [0x20, 0x7E], [0x20, 0x7E], [0x61, 0x7A], [0x01, 0x1F], [0x7F, 0x9F],
	[0xA0, 0x24F], [0x370, 0x4FF], [0x300, 0x36F], [0x4E00, 0x9FFF], [0x3040, 0x30FF],
	[0xAC00, 0xD7A3], [0xFEFF, 0xFEFF], [0xFFFD, 0xFFFF], [0x2000, 0x206F],
	[0x1F600, 0x1F64F], [0x1F300, 0x1FAFF], [0x1D100, 0x1D1FF], [0x10000, 0x1FFFF],
	[0x20000, 0x2A6DF], [0xE0000, 0xE007F], [0xF0000, 0x10FFFF], [0x10FFFF, 0x10FFFF],
]
const IDENTIFIER_CHARS := "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"

## Object classes typed containers are made of (besides the script type).
const OBJECT_CLASSES := [&"Object", &"RefCounted", &"Resource", &"Node", &"Node2D", &"Gradient",
		&"InputEvent", &"InputEventKey", &"EncodedObjectAsID"]

var rng := RandomNumberGenerator.new()
## Nesting below the top value: Arrays and Dictionaries go this deep at most.
var max_nesting := 3
## The chance that a packed array is large (1000 to 5000 elements).
var large_chance := 0.005
var objects: bool
var nodes: bool
## No Dictionary keys that are written alike although they differ (Callables, freed
## objects): decoding such a Dictionary keeps one entry, and with whole objects, a Node in
## a dropped entry would be lost unfreed.
var distinct_keys := false

var _refs: Array = []  # RefCounted instances, Resources and scripted Resources included
var _nodes: Array[Node] = []  # live Nodes, freed by free_all()
var _freed: Array = []  # freed Objects (Variants that still say TYPE_OBJECT)
var _word := PackedByteArray()


## `with_objects`: Objects may appear (as pooled instances); `with_nodes`: Nodes and freed
## objects too (they need free_all()). Without objects, the values are safe to hand to
## other threads.
func _init(seed_value: int, with_objects := true, with_nodes := true) -> void:
	rng.seed = seed_value
	objects = with_objects
	nodes = with_objects and with_nodes
	_word.resize(8)
	if objects:
		_make_pool()


func reseed(seed_value: int) -> void:
	rng.seed = seed_value


func free_all() -> void:
	for node in _nodes:
		if is_instance_valid(node):
			node.free()
	_nodes.clear()
	_refs.clear()
	_freed.clear()


# --- Top-level values --------------------------------------------------------------------

## A value of a random type: often a container (typed or not), often a leaf of any type.
func value() -> Variant:
	var r := rng.randi() % 100
	if r < 60:
		return value_of_type(rng.randi() % TYPE_COUNT, 0)
	if r < 75:
		return typed_array(0)
	if r < 85:
		return typed_dictionary(0)
	if r < 93:
		return untyped_array(0)
	return untyped_dictionary(0)


## A value of type `t` (a Variant.Type), `depth` levels down.
func value_of_type(t: int, depth: int) -> Variant:
	if REAL_COMPONENTS.has(t):
		return from_words(t, real_words(REAL_COMPONENTS[t]))
	if INT_COMPONENTS.has(t):
		var words := []
		for i in INT_COMPONENTS[t]:
			words.append(random_int32() & 0xFFFFFFFF)
		return from_words(t, words)
	if PACKED_REAL_COMPONENTS.has(t):
		var count := packed_size()
		return from_words(t, [count] + real_words(count * PACKED_REAL_COMPONENTS[t]))
	match t:
		TYPE_NIL:
			return null
		TYPE_BOOL:
			return rng.randi() % 2 == 0
		TYPE_INT:
			return random_int()
		TYPE_FLOAT:
			return random_float()
		TYPE_STRING:
			return random_string()
		TYPE_STRING_NAME:
			return StringName(random_string())
		TYPE_NODE_PATH:
			return random_node_path()
		TYPE_RID:
			return from_words(TYPE_RID, [rng.randi(), rng.randi() if rng.randi() % 2 else 0])
		TYPE_OBJECT:
			return random_object()
		TYPE_CALLABLE:
			return random_callable()
		TYPE_SIGNAL:
			return random_signal()
		TYPE_DICTIONARY:
			return typed_dictionary(depth) if rng.randi() % 3 == 0 else untyped_dictionary(depth)
		TYPE_ARRAY:
			return typed_array(depth) if rng.randi() % 3 == 0 else untyped_array(depth)
		TYPE_PACKED_BYTE_ARRAY:
			var bytes := PackedByteArray()
			bytes.resize(packed_size())
			for i in bytes.size():
				bytes[i] = rng.randi() & 0xFF
			return bytes
		TYPE_PACKED_INT32_ARRAY:
			var ints := PackedInt32Array()
			for i in packed_size():
				ints.append(random_int32())
			return ints
		TYPE_PACKED_INT64_ARRAY:
			var longs := PackedInt64Array()
			for i in packed_size():
				longs.append(random_int())
			return longs
		TYPE_PACKED_FLOAT32_ARRAY:
			return words_to_bytes(real_words(packed_size())).to_float32_array()
		TYPE_PACKED_FLOAT64_ARRAY:
			var doubles := PackedByteArray()
			var count := packed_size()
			doubles.resize(count * 8)
			for i in count:
				doubles.encode_double(i * 8, random_float())
			return doubles.to_float64_array()
		TYPE_PACKED_STRING_ARRAY:
			var strings := PackedStringArray()
			for i in mini(packed_size(), 300):
				strings.append(random_string())
			return strings
	push_error("no generator for type %d" % t)
	return null


## A value for an element `depth` levels down: containers get rarer, and stop at max_nesting.
func element(depth: int) -> Variant:
	if depth < max_nesting and rng.randi() % 100 < 18:
		return value_of_type(TYPE_ARRAY if rng.randi() % 2 else TYPE_DICTIONARY, depth)
	var t := rng.randi() % TYPE_COUNT
	while t == TYPE_ARRAY or t == TYPE_DICTIONARY:
		t = rng.randi() % TYPE_COUNT
	return value_of_type(t, depth)


# --- Numbers -----------------------------------------------------------------------------

func random_int() -> int:
	match rng.randi() % 7:
		0, 1:
			return INT_SPECIALS[rng.randi() % INT_SPECIALS.size()]
		2:
			return rng.randi_range(-300, 300)
		3:
			return random_int32()
		4:
			return bits64(rng.randi(), rng.randi())
		5:  # near a boundary
			var base: int = [2147483647, -2147483648, 9223372036854775807,
					-9223372036854775807 - 1, 4294967295][rng.randi() % 5]
			var delta := rng.randi_range(-3, 3)
			if (base > 0 and delta > 0 and base > 9223372036854775807 - delta) \
					or (base < 0 and delta < 0 and base < -9223372036854775807 - 1 - delta):
				delta = -delta
			return base + delta
		_:  # a power of two, give or take one
			var power := 1 << rng.randi_range(0, 62)
			return power + rng.randi_range(-1, 1) if rng.randi() % 2 else -power + rng.randi_range(-1, 1)


## A signed 32-bit int.
func random_int32() -> int:
	match rng.randi() % 4:
		0:
			return [0, 1, -1, 2147483647, -2147483648, 65535, -65536][rng.randi() % 7]
		1:
			return rng.randi_range(-1000, 1000)
		_:
			var u := rng.randi()
			return u - 4294967296 if u >= 2147483648 else u


func random_float() -> float:
	match rng.randi() % 9:
		0, 1:
			var special: Array = F64_SPECIALS[rng.randi() % F64_SPECIALS.size()]
			return double_from_bits(special[0], special[1])
		2:
			return double_from_bits(rng.randi(), rng.randi())
		3:  # any float32 value: written in 4 bytes
			_word.encode_u32(0, random_f32_bits())
			return _word.decode_float(0)
		4:
			return rng.randf_range(-1000.0, 1000.0)
		5:
			return float(rng.randi_range(-1000000, 1000000)) / [1.0, 2.0, 4.0, 10.0][rng.randi() % 4]
		6:  # subnormal
			return double_from_bits((rng.randi() & 0xFFFFF) | (0x80000000 if rng.randi() % 2 else 0), rng.randi())
		7:  # NaN with a random payload, quiet or signalling, either sign
			var high := 0x7FF00000 | (rng.randi() & 0xFFFFF) | (0x80000000 if rng.randi() % 2 else 0)
			var low := rng.randi()
			if high & 0xFFFFF == 0 and low == 0:
				low = 1
			return double_from_bits(high, low)
		_:
			return rng.randfn(0.0, 1e6) * pow(10.0, rng.randi_range(-40, 40))


## float32 bits: edge values, random bit patterns, ordinary numbers.
func random_f32_bits() -> int:
	match rng.randi() % 5:
		0:
			return F32_SPECIALS[rng.randi() % F32_SPECIALS.size()]
		1:
			return rng.randi()
		_:
			_word.encode_float(0, rng.randf_range(-100.0, 100.0) * [1.0, 0.001, 1000.0][rng.randi() % 3])
			return _word.decode_u32(0)


func real_words(count: int) -> Array:
	var words := []
	words.resize(count)
	for i in count:
		words[i] = random_f32_bits()
	return words


func double_from_bits(high: int, low: int) -> float:
	_word.encode_u32(0, low)
	_word.encode_u32(4, high)
	return _word.decode_double(0)


func bits64(high: int, low: int) -> int:
	_word.encode_u32(0, low)
	_word.encode_u32(4, high)
	return _word.decode_s64(0)


# --- Text --------------------------------------------------------------------------------

func random_string() -> String:
	var r := rng.randi() % 100
	var length := 0
	if r < 8:
		return ""
	elif r < 70:
		length = rng.randi_range(1, 8)
	elif r < 95:
		length = rng.randi_range(9, 40)
	else:
		length = rng.randi_range(41, 300)
	var text := ""
	for i in length:
		var range_: Array = CHAR_RANGES[rng.randi() % CHAR_RANGES.size()]
		text += String.chr(rng.randi_range(range_[0], range_[1]))
	return text


func identifier() -> String:
	var text := ""
	for i in rng.randi_range(1, 10):
		text += IDENTIFIER_CHARS[rng.randi() % IDENTIFIER_CHARS.length()]
	return text


## A NodePath part: an identifier, "." or "..", a unique name, or any text without the
## separators.
func path_part() -> String:
	match rng.randi() % 6:
		0:
			return ["..", ".", "%" + identifier()][rng.randi() % 3]
		1:
			var text := random_string().replace("/", "").replace(":", "")
			return text if text.strip_edges() != "" else "x"
		_:
			return identifier()


func random_node_path() -> NodePath:
	if rng.randi() % 10 == 0:
		return NodePath()
	var text := "/" if rng.randi() % 4 == 0 else ""
	var names := PackedStringArray()
	for i in rng.randi_range(0, 4):
		names.append(path_part())
	text += "/".join(names)
	for i in rng.randi_range(0 if names.size() > 0 or text == "/" else 1, 3):
		text += ":" + path_part()
	return NodePath(text)


# --- Objects and the like ---------------------------------------------------------------

func _make_pool() -> void:
	for i in 3:
		_refs.append(RefCounted.new())
		var resource := Resource.new()
		resource.resource_name = random_string()
		_refs.append(resource)
		var placeholder := EncodedObjectAsID.new()
		placeholder.object_id = bits64(rng.randi(), rng.randi()) if i else 0
		_refs.append(placeholder)
	var last_stored: Resource = null
	for i in 4:
		var stored := StoredResource.new()
		stored.count = random_int()
		stored.label = random_string()
		var numbers: Array[int] = []
		for j in rng.randi_range(0, 5):
			numbers.append(random_int())
		stored.numbers = numbers
		stored.child = [null, last_stored, Resource.new()][i % 3]
		stored.scratch = random_int()
		_refs.append(stored)
		last_stored = stored
	for i in 2:
		var gradient := Gradient.new()
		var count := rng.randi_range(1, 5)
		var offsets := PackedFloat32Array()
		var colors := PackedColorArray()
		for j in count:
			offsets.append(rng.randf())
			colors.append(Color(rng.randf(), rng.randf(), rng.randf(), rng.randf()))
		gradient.offsets = offsets
		gradient.colors = colors
		_refs.append(gradient)
		var key := InputEventKey.new()
		key.keycode = rng.randi_range(32, 126) as Key
		key.unicode = rng.randi_range(32, 0x1F64F)
		key.pressed = i == 0
		_refs.append(key)
	if not nodes:
		return
	for i in 4:
		var node: Node = Node2D.new() if i % 2 else Node.new()
		node.name = identifier()
		if node is Node2D:
			node.position = Vector2(rng.randf_range(-100, 100), rng.randf_range(-100, 100))
		_nodes.append(node)
	for i in 2:
		var doomed := Node.new()
		doomed.free()
		_freed.append(doomed)
		var gone := Object.new()
		gone.free()
		_freed.append(gone)


## A pooled object, a new RefCounted, or (with nodes) a live or freed Node.
func random_object() -> Variant:
	if not objects:
		return null
	var r := rng.randi() % 10
	if nodes and r < 2:
		return _nodes[rng.randi() % _nodes.size()]
	if nodes and r == 2:
		return _freed[rng.randi() % _freed.size()]
	if r == 3:
		return RefCounted.new()
	return _refs[rng.randi() % _refs.size()]


## Pooled objects of a class (and script), for a typed container; at least one.
func objects_of(class_name_: StringName, script: Script) -> Array:
	var found := []
	for candidate in _refs + (Array(_nodes) if nodes else []):
		if candidate.is_class(class_name_) and (script == null or candidate.get_script() == script):
			found.append(candidate)
	return found


func random_callable() -> Callable:
	match rng.randi() % 4:
		0:
			return Callable()
		1:
			return func() -> int: return 1
		2:
			return Callable(self, &"random_string")
		_:
			var target: Object = _refs[rng.randi() % _refs.size()] if objects else self
			return Callable(target, &"get_class").bind(rng.randi())


func random_signal() -> Signal:
	if rng.randi() % 4 == 0:
		return Signal()
	var owner: Object = self
	if objects and rng.randi() % 2:
		var candidate = random_object()
		if is_instance_valid(candidate):
			owner = candidate
	return Signal(owner, StringName(identifier() if rng.randi() % 2 else random_string()))


# --- Containers --------------------------------------------------------------------------

func container_size() -> int:
	var r := rng.randi() % 100
	if r < 15:
		return 0
	if r < 85:
		return rng.randi_range(1, 4)
	return rng.randi_range(5, 12)


func packed_size() -> int:
	if rng.randf() < large_chance:
		return rng.randi_range(1000, 5000)
	var r := rng.randi() % 100
	if r < 15:
		return 0
	if r < 55:
		return rng.randi_range(1, 4)
	if r < 95:
		return rng.randi_range(5, 32)
	return rng.randi_range(33, 200)


func untyped_array(depth: int) -> Array:
	var array := []
	for i in container_size():
		array.append(element(depth + 1))
	return array


## Keys that are equal, nearly so, or odd: int and float, String and StringName, ±0, NaN.
func look_alike_key() -> Variant:
	return [0, 1, 1.0, 0.0, -0.0, NAN, "1", &"1", "", &"", true, null, Vector2(), Vector2i(),
			[], {}, [1], "a", &"a", NodePath("a")][rng.randi() % 20]


func untyped_dictionary(depth: int) -> Dictionary:
	var dictionary := {}
	var look_alike := rng.randi() % 4 == 0
	for i in container_size():
		var key = look_alike_key() if look_alike else element(depth + 1)
		while distinct_keys and not _distinct_key(key):
			key = element(depth + 1)
		dictionary[key] = element(depth + 1)
	return dictionary


func _distinct_key(key) -> bool:
	return typeof(key) != TYPE_CALLABLE and (typeof(key) != TYPE_OBJECT or is_instance_valid(key))


## An element type: [Variant.Type, class name, script]; TYPE_NIL is untyped (Variant).
func element_type(allow_untyped: bool) -> Array:
	var r := rng.randi() % 10
	if allow_untyped and r < 2:
		return [TYPE_NIL, &"", null]
	if objects and r >= 8:
		if rng.randi() % 4 == 0:
			return [TYPE_OBJECT, &"Resource", StoredResource]
		# Without nodes, no class whose instances need freeing (Nodes, plain Objects).
		var classes := OBJECT_CLASSES if nodes else OBJECT_CLASSES.filter(
				func(c: StringName) -> bool: return ClassDB.is_parent_class(c, &"RefCounted"))
		return [TYPE_OBJECT, classes[rng.randi() % classes.size()], null]
	var t := rng.randi_range(1, TYPE_COUNT - 1)
	while t == TYPE_OBJECT:
		t = rng.randi_range(1, TYPE_COUNT - 1)
	return [t, &"", null]


## An element of an element type (see element_type).
func element_of(type: Array, depth: int, allow_null_object := true) -> Variant:
	if type[0] == TYPE_NIL:
		return element(depth)
	if type[0] == TYPE_OBJECT:
		var candidates := objects_of(type[1], type[2])
		if candidates.is_empty() or (allow_null_object and rng.randi() % 8 == 0):
			return null
		return candidates[rng.randi() % candidates.size()]
	if (type[0] == TYPE_ARRAY or type[0] == TYPE_DICTIONARY) and depth > max_nesting:
		return [] if type[0] == TYPE_ARRAY else {}
	return value_of_type(type[0], depth)


func typed_array(depth: int) -> Array:
	var type := element_type(false)
	var items := []
	for i in container_size():
		items.append(element_of(type, depth + 1))
	return Array(items, type[0], type[1], type[2])


func typed_dictionary(depth: int) -> Dictionary:
	var key_type := element_type(true)
	while distinct_keys and key_type[0] == TYPE_CALLABLE:
		key_type = element_type(true)
	var value_type := element_type(true)
	if key_type[0] == TYPE_NIL and value_type[0] == TYPE_NIL:
		value_type = element_type(false)
	var dictionary := Dictionary({}, key_type[0], key_type[1], key_type[2],
			value_type[0], value_type[1], value_type[2])
	for i in container_size():
		var key = element_of(key_type, depth + 1, false)
		if (key == null and key_type[0] == TYPE_OBJECT) or (distinct_keys and not _distinct_key(key)):
			continue
		dictionary[key] = element_of(value_type, depth + 1)
	return dictionary


# --- Bytes -------------------------------------------------------------------------------

## The value the engine decodes from a header of type `t` followed by 32-bit `words`: the
## way to get exact float32 bits (NaN payloads included) into math types and packed arrays.
static func from_words(t: int, words: Array) -> Variant:
	return bytes_to_var(words_to_bytes([t] + words))


static func words_to_bytes(words: Array) -> PackedByteArray:
	var bytes := PackedByteArray()
	bytes.resize(words.size() * 4)
	for i in words.size():
		bytes.encode_u32(i * 4, words[i])
	return bytes


## Nodes and plain Objects that a decode made (they belong to no one), freed.
static func free_decoded(value) -> void:
	if typeof(value) == TYPE_OBJECT:
		if is_instance_valid(value) and not value is RefCounted:
			value.free()
	elif value is Array:
		for item in value:
			free_decoded(item)
	elif value is Dictionary:
		var keys: Array = value.keys()
		var items: Array = value.values()
		free_decoded(keys)
		free_decoded(items)
