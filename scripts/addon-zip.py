#!/usr/bin/env python3
"""The addon zip of `cargo xtask package` (Python's zipfile: a fresh machine has python3,
not zip or unzip).

  addon-zip.py create STAGE ZIP   # zips STAGE's tree (directories as entries too)
  addon-zip.py list ZIP           # prints the entries, one a line
  addon-zip.py extract ZIP DIR    # unpacks into DIR

The same stage gives the same zip: entries in name order, each dated by the last commit
(SOURCE_DATE_EPOCH if set), files 0644 and libraries 0755.
"""
import os
import subprocess
import sys
import time
import zipfile


def epoch():
    if os.environ.get("SOURCE_DATE_EPOCH"):
        return int(os.environ["SOURCE_DATE_EPOCH"])
    try:
        out = subprocess.run(["git", "log", "-1", "--format=%ct"], capture_output=True,
                             text=True, check=True, cwd=os.path.dirname(os.path.abspath(__file__)))
        return int(out.stdout.strip())
    except (OSError, ValueError, subprocess.CalledProcessError):
        return int(time.time())


def create(stage, out):
    date_time = time.gmtime(max(epoch(), 315532800))[:6]  # zip dates start in 1980
    entries = []
    for dirpath, dirnames, filenames in os.walk(stage):
        dirnames.sort()
        rel = os.path.relpath(dirpath, stage)
        if rel != ".":
            entries.append((rel.replace(os.sep, "/") + "/", None))
        for name in filenames:
            path = os.path.join(dirpath, name)
            entries.append((os.path.relpath(path, stage).replace(os.sep, "/"), path))
    entries.sort()
    partial = out + ".partial"
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for name, path in entries:
            info = zipfile.ZipInfo(name, date_time=date_time)
            if path is None:
                info.external_attr = (0o40755 << 16) | 0x10
                z.writestr(info, b"")
                continue
            library = name.endswith((".so", ".dll", ".dylib"))
            info.external_attr = (0o100755 if library else 0o100644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            with open(path, "rb") as f:
                z.writestr(info, f.read(), compresslevel=9)
    os.replace(partial, out)


def main(argv):
    if len(argv) == 3 and argv[0] == "create":
        create(argv[1], argv[2])
    elif len(argv) == 2 and argv[0] == "list":
        with zipfile.ZipFile(argv[1]) as z:
            bad = z.testzip()
            if bad is not None:
                sys.exit(f"addon-zip.py: {argv[1]}: {bad} is corrupt")
            print("\n".join(z.namelist()))
    elif len(argv) == 3 and argv[0] == "extract":
        with zipfile.ZipFile(argv[1]) as z:
            z.extractall(argv[2])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
