"""The long fuzz campaign: the CI fuzz suite with many more inputs and fresh seeds.

    .venv/bin/python tests/fuzz/campaign.py                # 2,000 inputs per entry, seed 1
    .venv/bin/python tests/fuzz/campaign.py -n 10000 --seeds 1 2 3 -k shengji

Each seed runs the whole suite (``tests/fuzz``) with ``QIPAI_FUZZ_EXAMPLES``
inputs per entry point, every native call in a child process; findings are
reported as pytest failures naming the entry, the input and the exception.
Exit status 0 when every seed passed.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", "--examples", type=int, default=2000, help="inputs per entry")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1], help="Hypothesis seeds")
    parser.add_argument("-k", default=None, help="only entries matching (pytest -k)")
    args = parser.parse_args()
    status = 0
    for seed in args.seeds:
        env = {
            **os.environ,
            "QIPAI_FUZZ_EXAMPLES": str(args.examples),
            "QIPAI_FUZZ_SEED": str(seed),
        }
        cmd = [sys.executable, "-m", "pytest", str(Path(__file__).parent), "-q", "-rf"]
        if args.k:
            cmd += ["-k", args.k]
        print(f"campaign: seed {seed}, {args.examples} inputs per entry", flush=True)
        status |= subprocess.run(cmd, env=env).returncode
    return status


if __name__ == "__main__":
    sys.exit(main())
