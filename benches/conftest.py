"""Let a benchmark import its sibling modules (``from bench_rummikub import …``).

pytest runs in importlib mode and leaves ``sys.path`` alone; run as a script
(``python benches/bench_x.py``) a benchmark finds its siblings through the script's
folder, and this puts that folder on the path under pytest too.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)
