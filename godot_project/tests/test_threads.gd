## FastVariantCodec from several threads at once: GDScript Threads and WorkerThreadPool
## tasks (group and single) call one shared instance and their own instances together —
## encode, encoded_size, decode, batches, streams — and get exactly what the main thread
## gets; instances used by one thread each report that thread's errors and sizes; setting
## properties while other threads encode does not disturb them. Results are compared on
## the main thread, after the threads finished.
##
## Random values come from FVC_SEED, else DEFAULT_SEED (printed).
extends "res://test_runner/test_suite.gd"

const RandomValues := preload("res://tests/support/random_values.gd")
const Mismatches := preload("res://tests/support/mismatches.gd")
const Seeds := preload("res://tests/support/seeds.gd")

const DEFAULT_SEED := 1618
const VALUES := 150
const THREADS := 4
const GROUP_TASKS := 6
const SINGLE_TASKS := 2
const ROUNDS := 2


## Every worker runs every method ROUNDS times; even-numbered ones on the shared instance.
func test_threads_and_tasks_get_what_the_main_thread_gets() -> void:
	var work := Work.new(values("work"))
	var expected := work.run(FastVariantCodec.new(), -1)
	var shared := FastVariantCodec.new()
	var results := run_workers(func(worker: int) -> Dictionary:
		return work.run(shared if worker % 2 == 0 else FastVariantCodec.new(), worker))
	compare(results, expected)


## Workers with their own instance: after each decode, get_error() and get_decoded_size()
## are those of that decode, good or bad, whatever the other threads do meanwhile.
func test_own_instances_report_their_own_outcome() -> void:
	var inputs := []
	for value in values("own"):
		var bytes := var_to_bytes(value)
		inputs.append(bytes)
		inputs.append(bytes.slice(0, bytes.size() / 2))  # cut short: an error, or a shorter value
		inputs.append(PackedByteArray([40 + bytes.size() % 200, 0, 0, 0]))  # unknown type
	var outcome := func(codec: FastVariantCodec) -> Array:
		var seen := []
		for bytes in inputs:
			var value = codec.decode(bytes)
			seen.append([var_to_bytes(value), codec.get_error(), codec.get_error_message(), codec.get_decoded_size()])
		return seen
	var expected: Array = outcome.call(FastVariantCodec.new())
	var errors := expected.filter(func(o: Array) -> bool: return o[1] != OK).size()
	assert_that(errors > inputs.size() / 3, "the inputs hold errors (%d of %d)" % [errors, inputs.size()])
	var results := run_workers(func(worker: int) -> Array:
		var codec := FastVariantCodec.new()
		var all := []
		for round in ROUNDS:
			all.append(outcome.call(codec))
		return all)
	for worker in results:
		for round in results[worker].size():
			var seen: Array = results[worker][round]
			for i in seen.size():
				if seen[i] != expected[i]:
					fail("%s, round %d, input %d (%s): decoded bytes, error, message, size %s; on the main thread %s" % [
							who(worker), round, i, Mismatches.hex_window(inputs[i]), seen[i], expected[i]])
					return


## Properties set on the shared instance while threads encode and decode with it (to
## values that change nothing for these values: no objects in them, the default depth).
func test_setting_properties_while_threads_use_the_instance() -> void:
	var work := Work.new(values("setters"))
	var expected := work.run(FastVariantCodec.new(), -1)
	var shared := FastVariantCodec.new()
	var stop := [false]
	var setter := Thread.new()
	setter.start(func() -> int:
		var sets := 0
		while not stop[0]:
			shared.full_objects = not shared.full_objects
			shared.allow_objects = not shared.allow_objects
			shared.max_depth = 1024
			sets += 1
			OS.delay_usec(50)
		return sets)
	var results := run_workers(func(worker: int) -> Dictionary: return work.run(shared, worker))
	stop[0] = true
	var sets: int = setter.wait_to_finish()
	assert_that(sets > 10, "the setter ran alongside (%d times)" % sets)
	compare(results, expected)
	shared.full_objects = false
	shared.allow_objects = false
	assert_eq(shared.encode([1, "a"]), var_to_bytes([1, "a"]), "the instance still works")


## Whole objects from threads: each worker writes and reads RefCounted objects of its own
## (made on its thread) whole, like the engine does on the main thread.
func test_whole_objects_on_threads() -> void:
	var make := func(i: int) -> Array:
		var stored := RandomValues.StoredResource.new()
		stored.count = i
		stored.label = "label %d é😀" % i
		var gradient := Gradient.new()
		gradient.offsets = PackedFloat32Array([0.25, 0.75])
		gradient.colors = PackedColorArray([Color.RED, Color(0.1, 0.2, 0.3, 0.4)])
		return [stored, [gradient, RefCounted.new()], {"r": Resource.new()}]
	var expected := []
	for i in 20:
		var codec := FastVariantCodec.new()
		codec.full_objects = true
		expected.append(codec.encode(make.call(i)))
	var results := run_workers(func(worker: int) -> Array:
		var codec := FastVariantCodec.new()
		codec.full_objects = true
		codec.allow_objects = true
		var written := []
		for i in 20:
			var bytes := codec.encode(make.call(i))
			# Read back and written again: the same bytes.
			written.append([bytes, codec.encode(codec.decode(bytes))])
		return written)
	for worker in results:
		for i in 20:
			assert_eq(results[worker][i][0], expected[i], "%s: value %d written whole" % [who(worker), i])
			assert_eq(results[worker][i][1], expected[i], "%s: value %d read and written again" % [who(worker), i])


# --- Workers ---------------------------------------------------------------------------------

## Runs `job` (worker number -> result) on THREADS Threads, GROUP_TASKS tasks of a
## WorkerThreadPool group and SINGLE_TASKS single pool tasks, all at once, plus once on the
## main thread meanwhile; returns {worker number: result}. Threads are 0.., group tasks
## 100.., single tasks 200.., the main thread 300.
func run_workers(job: Callable) -> Dictionary:
	var results := {}
	var lock := Mutex.new()
	var record := func(worker: int) -> void:
		var result = job.call(worker)
		lock.lock()
		results[worker] = result
		lock.unlock()
	var threads: Array[Thread] = []
	for i in THREADS:
		var thread := Thread.new()
		thread.start(record.bind(i))
		threads.append(thread)
	var group := WorkerThreadPool.add_group_task(func(i: int) -> void: record.call(100 + i), GROUP_TASKS)
	var tasks := []
	for i in SINGLE_TASKS:
		tasks.append(WorkerThreadPool.add_task(record.bind(200 + i)))
	record.call(300)
	for thread in threads:
		thread.wait_to_finish()
	WorkerThreadPool.wait_for_group_task_completion(group)
	for task in tasks:
		WorkerThreadPool.wait_for_task_completion(task)
	assert_eq(results.size(), THREADS + GROUP_TASKS + SINGLE_TASKS + 1, "every thread and task finished")
	return results


## Every worker's results against the main thread's, method by method.
func compare(results: Dictionary, expected: Dictionary) -> void:
	var wrong := 0
	for worker in results:
		var result: Dictionary = results[worker]
		for method in expected:
			for round in ROUNDS:
				var diff := difference(result[method][round], expected[method][0])
				if diff:
					wrong += 1
					if wrong <= 5:
						fail("%s, %s, round %d: %s" % [who(worker), method, round, diff])
	assert_eq(wrong, 0, "results that differ from the main thread's")


static func who(worker: int) -> String:
	if worker >= 300:
		return "main thread"
	if worker >= 200:
		return "single task %d" % (worker - 200)
	return "group task %d" % (worker - 100) if worker >= 100 else "thread %d" % worker


## VALUES random values without objects (objects belong to the thread that made them),
## and a few large ones.
func values(stream: String) -> Array:
	var seed_value := Seeds.run_seed(self, DEFAULT_SEED)
	var generator := RandomValues.new(Seeds.input_seed(seed_value, stream, -1), false)
	var made := []
	for i in VALUES:
		generator.reseed(Seeds.input_seed(seed_value, stream, i))
		made.append(generator.value())
	var big := PackedFloat32Array()
	big.resize(30000)
	for i in big.size():
		big[i] = i * 0.25
	var strings := PackedStringArray()
	for i in 2000:
		strings.append("string %d 😀" % i)
	made.append_array([big, strings, range(5000)])
	return made


## What a worker does: every method, ROUNDS times, on the same values.
class Work:
	var values: Array
	var packets: Array[PackedByteArray] = []
	var stream: PackedByteArray

	func _init(values_: Array) -> void:
		values = values_
		for value in values:
			packets.append(var_to_bytes(value))
		var peer := StreamPeerBuffer.new()
		for value in values:
			peer.put_var(value)
		stream = peer.data_array

	## {method: [result of each round]}; the main thread's reference (worker -1) does one round.
	func run(codec: FastVariantCodec, worker: int) -> Dictionary:
		var out := {"encode": [], "encoded_size": [], "decode": [], "encode_batch": [], "decode_batch": [],
				"encode_stream": [], "decode_stream": []}
		for round in (1 if worker < 0 else ROUNDS):
			# Every other worker goes through the values backwards, so that calls overlap differently.
			var order := range(values.size())
			if worker % 2:
				order.reverse()
			var encoded := []
			var sizes := []
			var decoded := []
			encoded.resize(values.size())
			sizes.resize(values.size())
			decoded.resize(values.size())
			for i in order:
				encoded[i] = codec.encode(values[i])
				sizes[i] = codec.encoded_size(values[i])
				decoded[i] = codec.decode(packets[i])
			out.encode.append(encoded)
			out.encoded_size.append(sizes)
			out.decode.append(decoded)
			out.encode_batch.append(codec.encode_batch(values))
			out.decode_batch.append(codec.decode_batch(packets))
			out.encode_stream.append(codec.encode_stream(values))
			out.decode_stream.append(codec.decode_stream(stream))
		return out
