"""``engines.rummikub.warmup()`` compiles (or loads) every kernel the default rules'
searches call: after it, ``best_moves`` and ``best_move`` on generated positions add no
compiled signature to any kernel.  Checked in a fresh interpreter (a test run before this
one may have loaded the kernels already)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent("""
    import sys
    import numba.core.registry
    import engines.rummikub
    import solvers.rummikub

    engines.rummikub.warmup()
    from engines.rummikub import Position, best_move, best_moves
    from engines.rummikub.generate import rummikub_positions

    def signatures():
        return {(name, attr): len(value.overloads)
                for name, module in list(sys.modules.items())
                if name.startswith("solvers.rummikub")
                for attr, value in vars(module).items()
                if isinstance(value, numba.core.registry.CPUDispatcher)}

    before = signatures()
    positions = [Position.from_json(p) for p in rummikub_positions(
        12, seed=11, table_tiles=(10, 80), joker_rate=0.3)]
    best_moves(positions, threads=1)
    for p in positions[:6]:
        best_move([[str(t) for t in s] for s in p.table], [str(t) for t in p.rack],
                  p.initial_meld_done)
    after = signatures()
    print(sorted(key for key, n in after.items() if n > before.get(key, 0)))
""")


def test_warmup_compiles_the_default_searches() -> None:
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip().splitlines()[-1] == "[]", out.stdout
