"""``engines.rummikub.warmup()`` compiles (or loads) every kernel the default rules'
searches call: after it, ``best_moves`` and ``best_move`` on generated positions add no
compiled signature to any kernel; and it compiles none of :data:`APART`.  Checked in a
fresh interpreter (a test run before this one may have loaded the kernels already)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

# Kernels the engine warm-up must not compile apart (nor load): the held-out pass of the
# probes, which no engine search calls,
# the thin kernels inlined into their callers (compiled apart, each would optimise and
# emit the whole DP again: minutes of CPU on an empty cache; they show only where they
# compile, as a cached caller loads without its callees), and least_position, which runs
# least_range's kernel (an entry of its own would be the whole least-disturbance chain again)
APART = ("_held_pass", "solve_exact", "_meld_continue", "_has_meld", "solve_pass",
         "least_one", "_narrow_passes", "_exact_passes", "least_position")

# The compiled signatures of every kernel loaded (each script's first lines)
SIGNATURES = textwrap.dedent("""
    import sys
    import numba.core.registry

    def signatures():
        return {(name, attr): len(value.overloads)
                for name, module in list(sys.modules.items())
                if name.startswith("solvers.rummikub")
                for attr, value in vars(module).items()
                if isinstance(value, numba.core.registry.CPUDispatcher)}
""")

SCRIPT = f"APART = {APART!r}\n" + SIGNATURES + textwrap.dedent("""
    import engines.rummikub
    import solvers.rummikub

    engines.rummikub.warmup()
    from engines.rummikub import Position, best_move, best_moves
    from engines.rummikub.generate import rummikub_positions

    before = signatures()
    print(sorted(key for key, n in before.items() if n and key[1] in APART))
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
    apart, added = out.stdout.strip().splitlines()[-2:]
    assert apart == "[]", out.stdout
    assert added == "[]", out.stdout


WIDE_SCRIPT = SIGNATURES + textwrap.dedent("""
    import random
    from engines.rummikub import best_move, wide, wide_kept
    from engines.rummikub.rules import Rules

    wide.warmup()
    before = signatures()
    asked, parts = [], []
    bounds, searched = wide._kept_bounds, wide._kept_by_parts
    wide._kept_bounds = lambda *a: asked.append(1) or bounds(*a)
    wide._kept_by_parts = lambda *a: parts.append(1) or searched(*a)
    nodes, node = [], wide_kept.kept_at_node

    def answered(*a):
        found = node(*a)
        nodes.append(found is not None)
        return found

    wide_kept.kept_at_node = answered
    wide.WIDTH = 1  # (narrow passes that miss: the bounds and the parts asked for)
    rules = Rules(colours=6, numbers=20, copies=3, jokers=3)
    rng = random.Random(5)
    for i in range(30):
        wide_kept.BRANCH = i % 2 == 0  # (the branched relaxation's node, then the parts)
        table = []
        for _ in range(rng.randint(4, 12)):
            c, first = rng.choice("KRBOGY"), rng.randint(1, 16)
            table.append([f"{c}{n}" for n in range(first, first + rng.randint(3, 5))])
        rack = [f"{rng.choice('KRBOGY')}{rng.randint(1, 20)}" for _ in range(10)] + ["J"]
        try:
            best_move(table, rack, True, "tiles", rules)
        except ValueError:  # (more copies than the tile set holds)
            pass
    after = signatures()
    print(len(asked), len(parts), sum(nodes))
    print(sorted(key for key, n in after.items() if n > before.get(key, 0)))
""")


def test_wide_warmup_loads_what_the_wide_engine_calls() -> None:
    """``engines.rummikub.wide.warmup()``: after it, least disturbance on a wide tile set
    (the relaxation's bounds, the branched relaxation's node that a move keeps and the
    parts left out asked for) adds no signature."""
    out = subprocess.run([sys.executable, "-c", WIDE_SCRIPT], capture_output=True, text=True,
                         check=True)
    counts, added = out.stdout.strip().splitlines()[-2:]
    asked, parts, nodes = map(int, counts.split())
    assert asked > 0 and parts > 0 and nodes > 0, out.stdout
    assert added == "[]", out.stdout
