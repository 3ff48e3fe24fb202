#!/usr/bin/env python3
"""Runs the conformance suite (godot4.v1.json beside this file, or the path given) against
the Variant codec of the Python package `playgodot` (playgodot.variant) and prints its pass
rates as a Markdown table row, in the columns of the Rust runner
(cargo run --release --example conformance).

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install playgodot
    /tmp/venv/bin/python tests/conformance/run_playgodot.py [SUITE]

Criteria (README.md beside this file): verdict, decoded size, re-encoding; playgodot makes
no var_to_str text. A case that raises is a rejection; one that takes longer than 10 s
counts as failed ("hung").
"""
import json
import os
import signal
import sys
from importlib.metadata import version

from playgodot.variant import decode_variant, encode_variant


class Hung(Exception):
    pass


def on_alarm(signum, frame):
    raise Hung()


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "godot4.v1.json")
    with open(path, encoding="utf-8") as f:
        suite = json.load(f)
    assert suite["version"] == 1, "a suite of version 1"
    signal.signal(signal.SIGALRM, on_alarm)
    tally = {"verdict": [0, 0], "size": [0, 0], "reencoded": [0, 0]}
    hung = 0

    def count(key, ok):
        tally[key][0] += int(ok)
        tally[key][1] += 1

    for case in suite["cases"]:
        data = bytes.fromhex(case["bytes"])
        accepted, size, reencoded = False, None, None
        signal.alarm(10)
        try:
            value, end = decode_variant(data)
            accepted, size = True, end
            try:
                reencoded = encode_variant(value).hex()
            except Hung:
                raise
            except Exception:
                reencoded = None
        except Hung:
            hung += 1
            accepted = None
        except Exception:
            pass
        finally:
            signal.alarm(0)
        expected = case["verdict"] == "accept"
        count("verdict", accepted is not None and accepted == expected)
        if not expected:
            continue
        count("size", accepted is True and size == case["decoded_size"])
        if case["reencoded"] is not None:
            count("reencoded", accepted is True and reencoded == case["reencoded"])

    def rate(key):
        passed, of = tally[key]
        return f"{100 * passed / of:.1f}% ({passed}/{of})" if of else "n/a"

    print(f"| playgodot {version('playgodot')} (Python) | {rate('verdict')} | {rate('size')} "
          f"| {rate('reencoded')} | not made | {hung} |")


if __name__ == "__main__":
    main()
