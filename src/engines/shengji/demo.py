"""``qipai demo shengji``: judge the sample tricks shipped in ``engines/data/shengji``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TextIO

from engines.shengji.rules import (
    TrumpContext,
    check_throw,
    decompose,
    legal_follows,
    trick_points,
    trick_winner,
)


def load_samples() -> dict[str, Any]:
    """The sample positions (``sample_tricks.json``)."""
    path = Path(__file__).resolve().parent.parent / "data" / "shengji" / "sample_tricks.json"
    return json.loads(path.read_text(encoding="utf-8"))


def demo(out: TextIO) -> None:
    """Judge every sample: trick winners, legal follows and throw checks, computed now."""
    samples = load_samples()
    for t in samples["tricks"]:
        ctx = TrumpContext(t["level"], t["trump"])
        print(f"{t['title']}  [level {ctx.level_name}, trump {ctx.trump_name}]", file=out)
        units = " + ".join(" ".join(c.cards) for c in decompose(t["plays"][0], ctx))
        for seat, play in zip(t["seats"], t["plays"]):
            print(f"  seat {seat}: {' '.join(play)}", file=out)
        w = trick_winner(t["plays"], ctx)
        pts = sum(trick_points(p) for p in t["plays"])
        print(f"  lead units: {units}", file=out)
        print(f"  → seat {t['seats'][w]} wins the trick ({pts} points)", file=out)
    for f in samples["follows"]:
        ctx = TrumpContext(f["level"], f["trump"])
        follows = legal_follows(f["hand"], f["lead"], ctx)
        plays = "; ".join(" ".join(p) for p in follows)
        print(f"{f['title']}  [level {ctx.level_name}, trump {ctx.trump_name}]", file=out)
        print(f"  hand {' '.join(f['hand'])}, lead {' '.join(f['lead'])}", file=out)
        print(f"  → {follows.count()} legal follow(s): {plays}", file=out)
    for th in samples["throws"]:
        ctx = TrumpContext(th["level"], th["trump"])
        res = check_throw(th["lead"], th["others"], ctx)
        print(f"{th['title']}  [level {ctx.level_name}, trump {ctx.trump_name}]", file=out)
        print(f"  throw {' '.join(th['lead'])}; others hold "
              + " · ".join(" ".join(o) for o in th["others"]), file=out)
        verdict = "valid" if res.valid else f"fails; forced to play {' '.join(res.forced)}"
        print(f"  → {verdict}", file=out)
