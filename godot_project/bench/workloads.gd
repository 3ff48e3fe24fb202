## The benchmark's data and the engine's loops, shared by bench.gd and profile.gd. The
## data is fixed (seeded generators), the same on every run.
extends RefCounted

const PACKED_COUNT := 1_000_000
const STRING_COUNT := 100_000
const DICT_ENTRIES := 10_000
const BATCH_DICTS := 10_000
const BATCH_ARRAYS := 64
const BATCH_ARRAY_FLOATS := 65_536


## The time `work` takes, in milliseconds; freeing its result is not timed.
static func time_once(work: Callable) -> float:
	var start := Time.get_ticks_usec()
	var result: Variant = work.call()
	var elapsed := Time.get_ticks_usec() - start
	result = null
	return elapsed / 1000.0


## The engine's bytes of each value, one `var_to_bytes` (`var_to_bytes_with_objects` when
## `full_objects`) each.
static func engine_encode_loop(values: Array, full_objects := false) -> Array[PackedByteArray]:
	var out: Array[PackedByteArray] = []
	out.resize(values.size())
	for i in values.size():
		out[i] = var_to_bytes_with_objects(values[i]) if full_objects else var_to_bytes(values[i])
	return out


static func engine_decode_loop(packets: Array) -> Array:
	var out := []
	out.resize(packets.size())
	for i in packets.size():
		out[i] = bytes_to_var(packets[i])
	return out


static func make_floats(count: int, seed_offset := 0) -> PackedFloat32Array:
	var rng := rng_for(1 + seed_offset)
	var a := PackedFloat32Array()
	a.resize(count)
	for i in count:
		a[i] = rng.randf_range(-1000.0, 1000.0)
	return a


static func make_vector3s(count: int) -> PackedVector3Array:
	var rng := rng_for(2)
	var a := PackedVector3Array()
	a.resize(count)
	for i in count:
		a[i] = Vector3(rng.randf(), rng.randf_range(-50.0, 50.0), rng.randf() * 1e6)
	return a


static func make_colors(count: int) -> PackedColorArray:
	var rng := rng_for(3)
	var a := PackedColorArray()
	a.resize(count)
	for i in count:
		a[i] = Color(rng.randf(), rng.randf(), rng.randf(), rng.randf())
	return a


static func make_int64s(count: int) -> PackedInt64Array:
	var rng := rng_for(4)
	var a := PackedInt64Array()
	a.resize(count)
	for i in count:
		a[i] = rng.randi() * rng.randi() - (1 << 40)
	return a


## ASCII strings of 0 to 23 characters.
static func make_strings(count: int) -> PackedStringArray:
	var rng := rng_for(5)
	var alphabet := "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _-.:"
	var a := PackedStringArray()
	a.resize(count)
	for i in count:
		var s := ""
		for j in rng.randi_range(0, 23):
			s += alphabet[rng.randi_range(0, alphabet.length() - 1)]
		a[i] = s
	return a


## The scripts of the text rows, each the characters its texts are drawn from: ASCII; Latin
## letters with one accented letter in each text, and with many; Cyrillic and Greek; CJK;
## emoji and other characters outside the BMP (4 bytes in UTF-8); and all of them mixed.
const TEXT_SCRIPTS := ["ASCII", "Latin, one accent", "Latin, accents", "Cyrillic/Greek", "CJK",
		"emoji", "mix"]
const ASCII_CHARS := "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _-.:"
const ACCENTED_CHARS := "àáâãäåæçèéêëìíîïñòóôõöøùúûüýÿßœšžłńśźżčřěůőű"
const CYRILLIC_GREEK_CHARS := "абвгдежзийклмнопрстуфхцчшщъыьэюяАБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЭЮЯαβγδεζηθικλμνξοπρστυφχψωΑΒΓΔΘΛΞΠΣΦΨΩ "
const CJK_CHARS := "的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可里后小么心多天而能好都然没日于起还发成事只作当想看文無開發日本語漢字かなカナ한국어글"
const EMOJI_CHARS := "😀😁😂🤣😃😄😅😆😉😊😋😎😍😘🥰🙂🤗🤩🤔🤨😐😑😶🙄😏😣😥😮🤐😯😪😫🥱😴😌😛😜😝🤤😒😓😔😕🙃🤑😲🙁😖😞😟😤😢😭😦😧😨😩🤯😬😰😱🥵🥶😳🤪😵🥴😠😡🤬😷🤒🤕🤢🤮🤧😇🥳🥺🤠🤡🤥🤫🤭🧐🤓😈👿👹👺💀👻👽🤖💩😺🐉🐲🌍🌎🌏🎉🎊🎈𝄞𝕏𠀀𠜎𠮷𡃁"
## Text lengths of the rows, in characters: [label, least, most, how many texts].
const TEXT_LENGTHS := [["short (0-16)", 0, 16, 20_000], ["medium (16-128)", 16, 128, 4_000],
		["long (1k-64k)", 1024, 65_536, 24]]


## `count` texts of `script` (one of TEXT_SCRIPTS), each of `least` to `most` characters:
## pieces of one long text drawn from the script's characters (the same on every run).
static func make_texts(script: String, least: int, most: int, count: int) -> PackedStringArray:
	var rng := rng_for(8 + TEXT_SCRIPTS.find(script))
	var base := text_of(script, maxi(most * 2, 4096), rng)
	var a := PackedStringArray()
	a.resize(count)
	for i in count:
		var length := rng.randi_range(least, most)
		var s := base.substr(rng.randi_range(0, base.length() - length), length)
		if script == "Latin, one accent" and length > 0:
			# Exactly one accented letter, anywhere in the text.
			var at := rng.randi_range(0, length - 1)
			s = s.substr(0, at) + ACCENTED_CHARS[rng.randi_range(0, ACCENTED_CHARS.length() - 1)] + s.substr(at + 1)
		a[i] = s
	return a


## A text of `length` characters of `script`, in runs of 8 drawn from one of its pools.
static func text_of(script: String, length: int, rng: RandomNumberGenerator) -> String:
	var pools: Array = {
		"ASCII": [ASCII_CHARS], "Latin, one accent": [ASCII_CHARS],
		"Latin, accents": [ASCII_CHARS, ACCENTED_CHARS], "Cyrillic/Greek": [CYRILLIC_GREEK_CHARS],
		"CJK": [CJK_CHARS], "emoji": [EMOJI_CHARS],
		"mix": [ASCII_CHARS, ACCENTED_CHARS, CYRILLIC_GREEK_CHARS, CJK_CHARS, EMOJI_CHARS],
	}[script]
	var chars := PackedStringArray()
	chars.resize(length)
	var pool: String = pools[0]
	for i in length:
		if i % 8 == 0:
			pool = pools[rng.randi_range(0, pools.size() - 1)]
		chars[i] = pool[rng.randi_range(0, pool.length() - 1)]
	return "".join(chars)


## 10 000 String keys, each holding [int, float, String, Vector3].
static func make_big_dictionary() -> Dictionary:
	var rng := rng_for(6)
	var d := {}
	for i in DICT_ENTRIES:
		d["entity_%d" % i] = [rng.randi_range(-100000, 100000), rng.randf_range(-1.0, 1.0) * 1e3,
				"name %d" % rng.randi(), Vector3(rng.randf(), rng.randf(), rng.randf())]
	return d


## 10 000 entries that lived, as a game's state does: Vector2i keys, a tenth of them
## erased and put back (the list of entries no longer in the order of the hash table),
## then a thousand Array keys appended to after insertion (their hash no longer leads to
## their entry), each value [int, String].
static func make_lived_dictionary() -> Dictionary:
	var rng := rng_for(7)
	var d := {}
	for i in DICT_ENTRIES - 1000:
		d[Vector2i(i % 100, i / 100)] = [rng.randi(), "tile %d" % i]
	for i in range(0, DICT_ENTRIES - 1000, 10):
		var key := Vector2i(i % 100, i / 100)
		var value = d[key]
		d.erase(key)
		d[key] = value
	var keys := []
	for i in 1000:
		var key := [i]
		keys.append(key)
		d[key] = [rng.randi(), "item %d" % i]
	for key in keys:
		key.append(-1)
	return d


## A message as games send them.
static func make_small_dictionary(i: int) -> Dictionary:
	return {"id": i, "name": "player_%d" % i, "pos": Vector2(i * 0.5, -i * 0.25)}


static func rng_for(stream: int) -> RandomNumberGenerator:
	var rng := RandomNumberGenerator.new()
	rng.seed = 20261122 + stream
	return rng
