# Renders the addon's icon (addons/fast_variant_codec/icon.svg, 16x16) as the Asset
# Library's icon: a square PNG (the Asset Library takes PNG or JPG, square, 64x64 or
# larger), the SVG at 8 times its size with a margin of one of its pixels, on a dark
# rounded square so that it reads on any page: 144x144.
#
#   godot --headless --script scripts/asset-library-icon.gd -- SVG PNG
extends SceneTree

const SCALE := 8.0
const BACKGROUND := Color("#2d3340")


func _init() -> void:
	var args := OS.get_cmdline_user_args()
	if args.size() != 2:
		printerr("usage: godot --headless --script scripts/asset-library-icon.gd -- SVG PNG")
		quit(2)
		return
	var svg := FileAccess.get_file_as_string(args[0])
	var icon := Image.new()
	if svg.is_empty() or icon.load_svg_from_string(svg, SCALE) != OK:
		printerr("cannot read the SVG ", args[0])
		quit(1)
		return
	var margin := int(SCALE)
	var size := icon.get_width() + 2 * margin
	var out := Image.create_empty(size, size, false, Image.FORMAT_RGBA8)
	var radius := size / 8.0
	for y in size:
		for x in size:
			var dx := maxf(absf(x + 0.5 - size / 2.0) - (size / 2.0 - radius), 0.0)
			var dy := maxf(absf(y + 0.5 - size / 2.0) - (size / 2.0 - radius), 0.0)
			if dx * dx + dy * dy <= radius * radius:
				out.set_pixel(x, y, BACKGROUND)
	out.blend_rect(icon, Rect2i(Vector2i.ZERO, icon.get_size()), Vector2i(margin, margin))
	var err := out.save_png(args[1])
	if err != OK:
		printerr("cannot write ", args[1], ": ", error_string(err))
	quit(err)
