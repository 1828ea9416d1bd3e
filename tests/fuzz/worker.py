"""Run fuzz inputs against one entry point, in this (child) process.

Usage: ``python worker.py ENTRY INPUTS.pickle PROGRESS``.  Before each call the
index is written (flushed) to PROGRESS, so when native code kills the process
the parent knows which input did it.  Prints one JSON object: counts per
outcome and every call that raised something other than an ``InputError``.
"""

from __future__ import annotations

import importlib
import json
import pickle
import signal
import sys
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from entries import ENTRIES

from engines.errors import InputError

SECONDS_PER_CALL = 60


class _Slow(Exception):
    pass


def _alarm(signum: int, frame: object) -> None:
    raise _Slow


def main() -> int:
    name, inputs_path, progress_path = sys.argv[1:4]
    call = ENTRIES[name].call
    inputs = pickle.loads(Path(inputs_path).read_bytes())
    # compile the game's kernels first: an alarm must never interrupt a Numba compilation
    package = importlib.import_module(f"engines.{name.split('.')[0]}")
    if hasattr(package, "warmup"):
        package.warmup()
    counts = {"ok": 0, "input_error": 0, "slow": 0}
    failures = []
    signal.signal(signal.SIGALRM, _alarm)
    with open(progress_path, "w") as progress:
        for index, args in enumerate(inputs):
            progress.write(f"{index}\n")
            progress.flush()
            signal.alarm(SECONDS_PER_CALL)
            try:
                call(*args)
                counts["ok"] += 1
            except InputError:
                counts["input_error"] += 1
            except _Slow:
                counts["slow"] += 1
            except Exception as exc:  # every other exception is a finding
                failures.append(
                    {
                        "index": index,
                        "input": repr(args)[:400],
                        "error": f"{type(exc).__name__}: {exc}"[:400],
                        "where": traceback.format_exc().splitlines()[-3:-1],
                    }
                )
            finally:
                signal.alarm(0)
    print(json.dumps({"counts": counts, "failures": failures}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
