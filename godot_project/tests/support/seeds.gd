## The seed of a randomized run: the environment variable FVC_SEED if set, else the suite's
## default. Printed, so that a failure can be replayed:
##
##   FVC_SEED=123 GODOT=... godot_project/run_tests.sh <test name>
extends RefCounted


## The run's seed; `suite` (a test_suite.gd) fails if FVC_SEED is not an integer.
static func run_seed(suite, default_seed: int, announce := true) -> int:
	var text := OS.get_environment("FVC_SEED").strip_edges()
	var seed_value := default_seed
	if text != "":
		if text.is_valid_int():
			seed_value = text.to_int()
		else:
			suite.fail("FVC_SEED=%s is not an integer; used %d" % [text, default_seed])
	if announce:
		print("    seed %d (replay: FVC_SEED=%d godot_project/run_tests.sh <test name>)" % [seed_value, seed_value])
	return seed_value


## The seed of input `index` of a stream of inputs: each input can be made on its own.
static func input_seed(seed_value: int, stream: String, index: int) -> int:
	return hash([seed_value, stream, index])


## How many inputs a randomized suite checks: the environment variable `variable` if set
## (printed when `announce`), else `default`; a value that is not a positive integer fails
## `suite` (a test_suite.gd), which then checks `default`. `what` names the inputs.
static func count_from_environment(suite, variable: String, default: int, what: String,
		announce := true) -> int:
	var text := OS.get_environment(variable).strip_edges()
	if text == "":
		return default
	if not text.is_valid_int() or text.to_int() < 1:
		suite.fail("%s=%s is not a positive integer; checked %d %s" % [variable, text, default, what])
		return default
	if announce:
		print("    %s=%s %s" % [variable, text, what])
	return text.to_int()
