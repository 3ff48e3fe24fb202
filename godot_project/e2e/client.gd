## The Godot half of the end-to-end test against the Rust server
## (rust/godot-variant-codec/examples/godot_server.rs): messages over TCP with
## StreamPeerTCP.put_var / get_var and over UDP with PacketPeerUDP.put_var / get_var.
##
##   godot --headless --path godot_project --script res://e2e/client.gd -- \
##       --tcp-port=N --udp-port=N [--count=1000]
##
## Message i and its reply are built here from i alone, as the server builds them; every
## reply is checked against the one built here, compared by the bytes var_to_bytes makes of
## each. Prints one line a transport and quits with 0 when every reply was as expected, 1
## otherwise, 2 for a bad invocation. Every wait is bounded.
extends SceneTree

const KINDS := 8
const KIND_SERDE := 2
const KIND_LARGE := 4
const KIND_PIECES := 6
## The longest wait for a connection or a reply, in milliseconds.
const TIMEOUT_MS := 20000

var _mismatches := 0
var _shown := PackedStringArray()


func _init() -> void:
	var args := {}
	for arg in OS.get_cmdline_user_args():
		var parts := arg.trim_prefix("--").split("=", true, 1)
		args[parts[0]] = parts[1] if parts.size() > 1 else ""
	if not args.has("tcp-port") or not args.has("udp-port"):
		printerr("usage: client.gd -- --tcp-port=N --udp-port=N [--count=N]")
		quit(2)
		return
	var count := int(args.get("count", "1000"))
	var ok := _run_tcp(int(args["tcp-port"]), count)
	ok = _run_udp(int(args["udp-port"]), count) and ok
	for line in _shown:
		printerr(line)
	quit(0 if ok and _mismatches == 0 else 1)


func _run_tcp(port: int, count: int) -> bool:
	var tcp := StreamPeerTCP.new()
	if tcp.connect_to_host("127.0.0.1", port) != OK:
		print("tcp: FAILED: cannot connect")
		return false
	var started := Time.get_ticks_msec()
	while tcp.get_status() == StreamPeerTCP.STATUS_CONNECTING:
		if Time.get_ticks_msec() - started > TIMEOUT_MS:
			break
		tcp.poll()
		OS.delay_msec(1)
	if tcp.get_status() != StreamPeerTCP.STATUS_CONNECTED:
		print("tcp: FAILED: not connected (status %d)" % tcp.get_status())
		return false
	tcp.set_no_delay(true)
	var before := _mismatches
	for i in count:
		var msg = message(i, false)
		if i % KINDS == KIND_PIECES:
			# The frame in pieces of a few bytes, each sent on its own.
			var body := var_to_bytes(msg)
			var frame := PackedByteArray()
			frame.resize(4)
			frame.encode_u32(0, body.size())
			frame.append_array(body)
			var step := 1 + i % 5
			for at in range(0, frame.size(), step):
				tcp.put_data(frame.slice(at, at + step))
				OS.delay_usec(200)
		else:
			tcp.put_var(msg)
		if tcp.get_status() != StreamPeerTCP.STATUS_CONNECTED:
			print("tcp: FAILED: disconnected sending message %d" % i)
			return false
		if not _wait(func() -> bool: tcp.poll(); return tcp.get_available_bytes() > 0):
			print("tcp: FAILED: no reply to message %d (status %d)" % [i, tcp.get_status()])
			return false
		_check(i, tcp.get_var(), expected_reply(i, false))
	tcp.disconnect_from_host()
	print("tcp: %d messages sent, %d replies checked, %d mismatches" % [count, count, _mismatches - before])
	return _mismatches == before


func _run_udp(port: int, count: int) -> bool:
	var udp := PacketPeerUDP.new()
	if udp.connect_to_host("127.0.0.1", port) != OK:
		print("udp: FAILED: cannot connect")
		return false
	var before := _mismatches
	for i in count:
		if udp.put_var(message(i, true)) != OK:
			print("udp: FAILED: put_var of message %d" % i)
			return false
		if not _wait(func() -> bool: return udp.get_available_packet_count() > 0):
			print("udp: FAILED: no reply to message %d" % i)
			return false
		_check(i, udp.get_var(), expected_reply(i, true))
	udp.close()
	print("udp: %d packets sent, %d replies checked, %d mismatches" % [count, count, _mismatches - before])
	return _mismatches == before


## Waits until `ready` is true, at most TIMEOUT_MS.
func _wait(ready: Callable) -> bool:
	var started := Time.get_ticks_msec()
	while not ready.call():
		if Time.get_ticks_msec() - started > TIMEOUT_MS:
			return false
		OS.delay_usec(50)
	return true


func _check(i: int, got, expected) -> void:
	if typeof(got) == typeof(expected) and var_to_bytes(got) == var_to_bytes(expected):
		return
	_mismatches += 1
	if _shown.size() < 3:
		var a := var_to_bytes(got)
		var b := var_to_bytes(expected)
		var at := 0
		while at < mini(a.size(), b.size()) and a[at] == b[at]:
			at += 1
		_shown.append("reply %d differs at byte %d of its var_to_bytes (%s vs %s):\n  got      %s\n  expected %s" % [
			i, at, a.slice(at, at + 8).hex_encode(), b.slice(at, at + 8).hex_encode(), var_to_str(got), var_to_str(expected)])


static func text(i: int) -> String:
	return "msg-%d-ü€🎮" % i


## The reply to message i, as the server builds it.
static func expected_reply(i: int, udp: bool):
	if i % KINDS == KIND_SERDE:
		return {
			"id": i,
			"name": "player-%d" % i,
			"position": Vector2(i + 1, i * 0.5 - i),
			"velocity": Vector3(1, -i, 0.25),
			"health": 100.0 - i * 0.25 - 1.0,
			"tags": ["t%d" % i, "x", "seen"],
			"inventory": [{"kind": "gem", "count": i % 7}, {"kind": "coin", "count": 1}],
			"color": Color(0.5, 0.25, 1, 1),
			"alive": i % 3 != 0,
			"data": PackedInt32Array([i, i + 1]),
		}
	return {"ack": i, "echo": message(i, udp), "from_rust": message(i + 3, udp)}


## Message i (the server's `message(i, udp)` builds the same): over UDP, the kinds that
## only make sense on a stream (large, sent in pieces) are kind 0.
static func message(i: int, udp: bool):
	var kind := i % KINDS
	if udp and (kind == KIND_LARGE or kind == KIND_PIECES):
		kind = 0
	var f := float(i)
	match kind:
		0, KIND_PIECES:
			return {
				"i": i,
				"name": text(i),
				"nested": {"list": [i, i / 8.0, "x", null, true], "deep": {"a": [[i], {}]}},
				&"tag": Vector2(f * 0.1, -f),
			}
		1:
			var bytes := PackedByteArray()
			for k in i % 50:
				bytes.append((k * 7 + i) % 256)
			return [
				bytes,
				PackedInt32Array([i, -i, 2147483647]),
				PackedInt64Array([i << 33, -1]),
				PackedFloat32Array([i * 0.5, 0.1]),
				PackedFloat64Array([i * 0.1, -(f * 0.0)]),  # not a -0.0 literal: GDScript merges it with the literal 0s
				PackedStringArray(["a", text(i), ""]),
				PackedVector2Array([Vector2(i, 0.5)]),
				PackedVector3Array([Vector3(1, 2, i)]),
				PackedColorArray([Color(0.5, 0.25, 1, 0.125)]),
				PackedVector4Array([Vector4(i, 1, 2, 3)]),
			]
		KIND_SERDE:
			return {
				"id": i,
				"name": "player-%d" % i,
				"position": Vector2(i, i * 0.5),
				"velocity": Vector3(1, -i, 0.25),
				"health": 100.0 - i * 0.25,
				"tags": ["t%d" % i, "x"],
				"inventory": [{"kind": "gem", "count": i % 7}],
				"color": Color(0.5, 0.25, 1, 1),
				"alive": i % 3 != 0,
				"data": PackedInt32Array([i, i + 1]),
			}
		3:
			var basis := Basis(Vector3(1, 0, i), Vector3(0, 1, 0), Vector3(0, 0, 1))
			var projection := Projection(
				Vector4(i, 1 + i, 2 + i, 3 + i),
				Vector4(4 + i, 5 + i, 6 + i, 7 + i),
				Vector4(8 + i, 9 + i, 10 + i, 11 + i),
				Vector4(12 + i, 13 + i, 14 + i, 15 + i)
			)
			return [
				Vector2(f * 0.1, 2),
				Vector2i(i, -i),
				Rect2(1, 2, i, 4),
				Rect2i(i, 2, 3, 4),
				Vector3(i, 0.1, 3),
				Vector3i(1, i, 3),
				Transform2D(Vector2(1, i), Vector2(0.5, 1), Vector2(i, 7)),
				Vector4(1, 2, 3, i),
				Vector4i(i, 2, 3, 4),
				Plane(Vector3(1, 2, 4), i),
				Quaternion(0, 0, 0.5, i),
				AABB(Vector3(1, 2, 3), Vector3(i, 5, 6)),
				basis,
				Transform3D(basis, Vector3(i, 0, 1)),
				projection,
				Color(0.1, 0.2, 0.3, 1),
				NodePath("/root/Main/Player%d:position:x" % i),
				StringName("name%d" % i),
				rid_from_int64(i + 1),
				(1 << 40) + i,
				f * 0.1,
			]
		KIND_LARGE:
			var bytes := PackedByteArray()
			bytes.resize(20000 + (i * 13) % 5000)
			for k in bytes.size():
				bytes[k] = (k * 31 + i) % 251
			return [bytes, "é".repeat(3000)]
		5:
			var ints: Array[int] = [i, 2, 3]
			var floats: Dictionary[String, float] = {"a": i * 0.5, "b": 1.0}
			var strings: Array[String] = ["x"]
			return [ints, floats, strings]
		_:
			return [
				null, true, false, i, -i * 1000003, (1 << 40) + i, i / 8.0, 0.1 * i,
				"ünïcødé 🎮", &"", NodePath(""), Callable(),
			]
