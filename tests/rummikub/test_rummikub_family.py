"""The entry kernels' two compiled forms (``solvers.rummikub._family``): ``variants`` None
compiles none of the wider passes (meld then continue's two arrangements, the DP's two key
words and length classes), True all of them.

Checked: the engines' choice (:func:`~solvers.rummikub._family.variants_for`) is None for
the rules the default form solves and True for those that need a wider pass; on bench
positions of the rules the default form solves, both forms give the same status, score,
choice and group jokers, initial meld or melded (so the pruned branches were never taken
there); and ``qipai warmup rummikub`` compiles both forms of the batch and single-position
entries, the default one alone where asked (``--default-rules``)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from engines.rummikub import Position, Rules
from engines.rummikub.position import _counts, objective_weights
from solvers.rummikub import solve_serial, variants_for
from solvers.rummikub._family import needs_variants
from solvers.rummikub._layout import BEAM

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benches"))
from bench_rummikub import band_positions
from bench_rummikub_rules import restrict

# Rules the default form solves, up to the jokers each allows
PLAIN = [Rules(), Rules(copies=3), Rules(jokers=3), Rules(joker_retrieval="official"),
         Rules(min_real_tiles=2), Rules(min_set_length=2), Rules(min_set_length=4),
         Rules(copies=3, jokers=3), Rules(meld_threshold=0)]
# Rules (and jokers in play) that take a wider pass
WIDER = [(Rules(meld_continue=True), 0), (Rules(jokers=4), 4), (Rules(min_set_length=6), 0),
         (Rules(min_real_tiles=2, jokers=3), 3), (Rules(min_real_tiles=2, copies=3), 0),
         (Rules(min_real_tiles=2, min_set_length=4), 0)]


def _batch(rules: Rules, melded: bool, seed: int) -> tuple:
    """Bench positions of tables of 20 and 60 tiles with jokers, as ``solve_serial``'s
    arrays."""
    rows = []
    for size in (20, 60):
        for p in band_positions(size, True, n=6, seed=seed):
            p = restrict(p, rules)
            pos = Position.from_strings(p["table"], p["rack"], melded,
                                        **rules.position_limits())
            must, must_j = _counts(pos.table_tiles)
            rack, rack_j = _counts(pos.rack)
            if not melded:  # (the initial meld leaves the table as it is)
                must, must_j = np.zeros_like(must), 0
            rows.append((must, rack, must_j, rack_j, rules.search_mode(melded, pos.table)))
    weight, joker_weight = objective_weights("tiles")
    n = len(rows)
    return (np.array([r[0] for r in rows], np.int64), np.array([r[1] for r in rows], np.int64),
            np.array([r[2] for r in rows], np.int64), np.array([r[3] for r in rows], np.int64),
            np.ascontiguousarray(np.broadcast_to(weight, (n, 4, 13)), np.int64),
            np.full(n, joker_weight, np.int64), np.array([r[4] for r in rows], np.int64),
            rules.group_tables()[0])


def _solve(batch: tuple, variants: bool | None) -> list:
    n = batch[0].shape[0]
    out = (np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros((n, 4, 13, 4), np.int64),
           np.zeros((n, 13), np.int64), np.zeros((n, 2), np.int64))
    solve_serial(*batch, *out, np.int64(BEAM), variants)
    return [a.tolist() for a in out[:4]]


@pytest.mark.parametrize("melded", [True, False])
@pytest.mark.parametrize("rules", PLAIN, ids=str)
def test_the_default_form_answers_as_the_whole_kernel(rules: Rules, melded: bool) -> None:
    batch = _batch(rules, melded, seed=3)
    assert variants_for(batch[6], batch[2] + batch[3]) is None
    plain, whole = _solve(batch, None), _solve(batch, True)
    assert plain == whole
    assert 1 in whole[0]  # (some position solved)


@pytest.mark.parametrize("rules, jokers", WIDER, ids=str)
def test_rules_with_a_wider_pass_get_the_whole_kernel(rules: Rules, jokers: int) -> None:
    mode = rules.search_mode(not rules.meld_continue)
    assert needs_variants(mode, jokers)
    assert variants_for(np.array([0, mode]), np.array([0, jokers])) is True
    assert variants_for(np.int64(mode), np.int64(jokers)) is True


SCRIPT = textwrap.dedent("""
    import sys
    from engines.cli import main
    from solvers.rummikub import _least, _pooled, _position

    main(["warmup", "rummikub", *sys.argv[1:]])
    for kernel in (_pooled.solve_range, _least.least_range, _position._solve_position):
        print(sorted(str(sig[-1]) for sig in kernel.signatures))
""")


@pytest.mark.parametrize("flags, forms", [(["--default-rules"], "['none']"),
                                          ([], "['bool', 'none']")])
def test_the_warmup_compiles_the_forms_asked_for(flags: list[str], forms: str) -> None:
    """``qipai warmup rummikub`` compiles (or loads) both forms of the engines' batch entry
    kernels, with ``--default-rules`` the default one alone (a fresh interpreter: a
    kernel lists the forms it compiled or loaded); ``best_move``'s one-call path
    (``_solve_position``) takes standard positions of at most two jokers, which never need
    the wider passes: its default form only."""
    out = subprocess.run([sys.executable, "-c", SCRIPT, *flags], capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip().splitlines()[-3:] == [forms, forms, "['none']"], out.stdout
