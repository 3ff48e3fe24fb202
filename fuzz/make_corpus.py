#!/usr/bin/env python3
"""Writes the seed corpus for the fuzz targets from the engine-made golden vectors.

    python3 fuzz/make_corpus.py          # from the repository root (or from fuzz/)

Reads ../tests/golden/godot4.json (relative to this script), picks a small, diverse set of
cases (each Variant type gets a share; hand-made cases before the generator's mutations)
and writes one file per case into corpus/<target>/ beside this script, replacing what those
folders held:

  corpus/decode/     0x00 (the option byte: default depth) + the case's bytes; a few nested
                     cases again with a small max_depth option byte (0xC0 | depth)
  corpus/roundtrip/  the case's bytes
  corpus/stream/     the case's bytes framed as store_var / put_var writes them (u32 LE
                     length + bytes), single frames, streams of several frames, and a few
                     cut short

Deterministic: the same golden file gives the same corpus. File names are the case index
and a sanitized case name.
"""

import json
import re
import shutil
import struct
from collections import OrderedDict
from pathlib import Path

HERE = Path(__file__).resolve().parent
GOLDEN = HERE.parent / "tests" / "golden" / "godot4.json"
CORPUS = HERE / "corpus"

CASES = 100          # distinct golden cases per target
MAX_CASE_BYTES = 2048
DEPTH_VARIANTS = 8   # decode: nested cases again under a small max_depth
MULTI_FRAMES = 25    # stream: files with 2..4 frames
CUT_FRAMES = 5       # stream: files whose last frame is cut short


def category(name: str) -> str:
    """The case's Variant type (quirk and reject cases go with their type)."""
    parts = name.split("/")
    if parts[0] in ("quirk", "reject") and len(parts) > 1:
        return parts[1]
    return parts[0]


# Cases the generator made by mutating another (cut short, header bits or'd in, length word
# replaced, garbage appended): libFuzzer mutates like that itself, so they come last.
MUTATED = re.compile(r"/(trunc|header_or|header_clear|len_word|garbage|type_byte)_")


def pick(cases):
    groups = OrderedDict()
    seen = set()
    for i, case in enumerate(cases):
        raw = bytes.fromhex(case["bytes"])
        if not raw or len(raw) > MAX_CASE_BYTES or raw in seen:
            continue
        seen.add(raw)
        groups.setdefault(category(case["name"]), []).append((i, case, raw))
    # Each type gets a share of the picks growing with the square root of its case count
    # (at least one). Within a type, hand-made cases first, in a low-discrepancy order of
    # their positions (golden-ratio steps) so accepted, quirk and reject cases all come up.
    weight = {key: len(members) ** 0.5 for key, members in groups.items()}
    scale = CASES / sum(weight.values())
    picked = []
    for key, members in groups.items():
        order = sorted(
            range(len(members)),
            key=lambda k: (bool(MUTATED.search(members[k][1]["name"])),
                           (k * 0.6180339887498949) % 1.0),
        )
        share = max(1, round(weight[key] * scale))
        picked.extend(members[k] for k in order[:share])
    return sorted(picked, key=lambda m: m[0])


def file_name(index: int, name: str) -> str:
    return f"{index:05d}_" + re.sub(r"[^A-Za-z0-9_.-]+", "_", name)[:60]


def frame(raw: bytes) -> bytes:
    return struct.pack("<I", len(raw)) + raw


def write(target: str, files):
    folder = CORPUS / target
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    for name, data in files:
        (folder / name).write_bytes(data)
    return len(files), sum(len(d) for _, d in files)


def main():
    cases = json.loads(GOLDEN.read_text())["cases"]
    picked = pick(cases)

    decode = [(file_name(i, c["name"]), b"\x00" + raw) for i, c, raw in picked]
    nested = [(i, c, raw) for i, c, raw in picked
              if c["accepted"] and c["name"].split("/")[0] in ("Array", "Dictionary", "Object")]
    for k, (i, c, raw) in enumerate(nested[:DEPTH_VARIANTS]):
        depth = k % 3
        decode.append((file_name(i, c["name"]) + f"_depth{depth}", bytes([0xC0 | depth]) + raw))

    roundtrip = [(file_name(i, c["name"]), raw) for i, c, raw in picked]

    accepted = [(i, c, raw) for i, c, raw in picked if c["accepted"]]
    stream = [(file_name(i, c["name"]), frame(raw)) for i, c, raw in picked[::2]]
    for k in range(MULTI_FRAMES):
        members = [accepted[(k * 7 + j * 3) % len(accepted)] for j in range(2 + k % 3)]
        if k % 5 == 4:  # one rejected value among accepted ones
            members.insert(1, picked[(k * 11) % len(picked)])
        data = b"".join(frame(raw) for _, _, raw in members)
        stream.append((f"multi_{k:02d}_" + "+".join(str(i) for i, _, _ in members), data))
    for k in range(CUT_FRAMES):
        i, c, raw = accepted[(k * 13) % len(accepted)]
        data = frame(raw) + frame(raw)
        stream.append((f"cut_{k}_{i}", data[: len(data) - 1 - k]))

    total_files = total_bytes = 0
    for target, files in (("decode", decode), ("roundtrip", roundtrip), ("stream", stream)):
        n, size = write(target, files)
        total_files += n
        total_bytes += size
        print(f"corpus/{target}: {n} files, {size} bytes")
    print(f"total: {total_files} files, {total_bytes} bytes")


if __name__ == "__main__":
    main()
