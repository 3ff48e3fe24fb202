# Writes save.bin: what a game's save looks like, as FileAccess.store_var writes it (the
# read_save example of the pure crate reads it).
# godot --headless --script tests/golden/save/make_save.gd -- --out=tests/golden/save/save.bin
extends SceneTree


func _init() -> void:
	var out := ""
	for arg in OS.get_cmdline_user_args():
		if arg.begins_with("--out="):
			out = arg.trim_prefix("--out=")
	if out.is_empty():
		push_error("--out=FILE is required")
		quit(2)
		return
	var save := {
		"player": "Ada",
		"level": 3,
		"health": 97.5,
		"position": Vector2(1.5, -2.0),
		"inventory": ["sword", "shield", "potion"],
		"quests_done": PackedInt32Array([1, 4, 7]),
	}
	var file := FileAccess.open(out, FileAccess.WRITE)
	if file == null:
		push_error("cannot write %s" % out)
		quit(3)
		return
	file.store_var(save)
	file.store_var({"autosave": true})
	file.close()
	quit(0)
