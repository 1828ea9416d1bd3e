"""Meld then continue with least disturbance: the melded player's plain move solved once.

The meld-then-continue DP (:mod:`solvers.rummikub._exact`, ``_meld_continue``) first solves
the position as a melded player's (the same move without the meld's condition: an upper
bound); where that move's played tiles hold a meld worth the threshold, it is the answer.
Least disturbance's relaxation (:func:`engines.rummikub.least._relaxation`) then solved
that same melded position again for its plain move.  Here the melded position is solved
first, once (where the rack holds a meld at all): where its move's tiles hold a meld it is
the plain answer (the DP's own), the meld-then-continue DP runs only for the other
positions, and the relaxation takes the melded move as its plain move.  The answers are the
same; a position whose melded move holds a meld spends one DP less.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np

from engines.rummikub.position import Move, Position
from engines.rummikub.rules import Rules

Solve = Callable[[Sequence[Position], str, "int | None", Rules], list[Move]]


def routes(rules: Rules) -> bool:
    """Whether :func:`continue_moves` solves a batch under ``rules`` (meld then continue with
    least disturbance and a threshold: with none, the DP solves a first play as a melded
    player's)."""
    return rules.meld_continue and rules.least_disturbance and rules.meld_threshold > 0


def continue_moves(positions: Sequence[Position], objective: str, threads: int | None,
                   rules: Rules, solve: Solve) -> list[Move]:
    """The best moves of ``positions`` under ``rules`` (:func:`routes`), as
    :func:`engines.rummikub.arrays.solve_moves` finds them (``solve``: it, without this
    route); the positions still to meld as the module says, the others through ``solve``."""
    from engines.rummikub.arrays import _side_by_side
    from engines.rummikub.least import least_disturbing_move

    moves: dict[int, Move] = {}
    done = [i for i, p in enumerate(positions) if p.initial_meld_done]
    for i, move in zip(done, solve([positions[i] for i in done], objective, threads, rules)):
        moves[i] = move
    plain = replace(rules, least_disturbance=False)
    own = replace(plain, meld_continue=False)
    first = [i for i, p in enumerate(positions) if not p.initial_meld_done]
    limits = rules.position_limits()  # (a third copy: a rack may hold three of a tile)
    # (a rack holding no meld: no move, which the meld-then-continue DP finds first, fast)
    racks = solve([Position((), positions[i].rack, False, **limits) for i in first], "value",
                  threads, own)
    todo = [i for i, meld in zip(first, racks) if meld.played]
    melded = solve([replace(positions[i], initial_meld_done=True) for i in todo], objective,
                   threads, own)
    playing = [k for k, move in enumerate(melded) if move.played]
    melds = solve([Position((), tuple(melded[k].played), False, **limits)
                   for k in playing], "value", threads, own)
    held = {k: meld.new_sets for k, meld in zip(playing, melds) if meld.played}
    rest = [i for k, i in enumerate(todo) if k not in held] + [
        i for i, meld in zip(first, racks) if not meld.played]
    for i, move in zip(rest, solve([positions[i] for i in rest], objective, threads, plain)):
        moves[i] = move
    for k, new_sets in held.items():
        move, pos = melded[k], positions[todo[k]]
        moves[todo[k]] = Move(move.played, move.table, move.tiles, move.value,
                              new_sets=new_sets, previous=list(pos.table),
                              tile_set=(rules.colours, rules.numbers))
    known = dict(zip(todo, melded))
    need = [i for i in first
            if positions[i].table and moves[i].sets_kept < len(positions[i].table)]

    def least(n: int) -> None:
        i = need[n]
        moves[i] = least_disturbing_move(positions[i], objective, rules, moves[i], known.get(i))

    _side_by_side(least, range(len(need)), threads)
    return [moves[i] for i in range(len(positions))]


def position_policy(pos: Position, rules: Rules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The held-out passes' policy for ``pos`` (:func:`engines.rummikub.least._passes`):
    :func:`engines.rummikub.least.policy`, or :func:`continue_policy`'s for a first turn
    (meld then continue)."""
    from engines.rummikub.least import policy

    rules_policy = policy(rules, sum(t.is_joker for t in (*pos.table_tiles, *pos.rack)))
    return rules_policy if pos.initial_meld_done else continue_policy(rules_policy)


def continue_policy(policy: tuple[np.ndarray, np.ndarray, np.ndarray]
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The held-out passes' policy (:func:`engines.rummikub.least.policy`) for a first turn
    under meld then continue: after the bound (below; it comes before the narrow passes,
    so these do not run), one exact pass of its two-arrangement passes
    (:mod:`solvers.rummikub._continue`), with no budget and no wider narrow pass
    (``WIDER`` empty), asking for one set more than the plain move keeps (``PLAIN_FIRST``:
    the plain move, optimal, is the answer where none keeps more), its hold layers dropping
    the states that cannot keep that many (``FEWEST_HELD``: the sets held out so far and
    those starting later; the score's sets are the final arrangement's held out, as a
    melded player's).  The exact pass keeps the best-scored state, the most sets kept, as
    the budgeted one did when it finished.  A budgeted pass cut short searched its states
    again in the exact pass after it (seed 13 40J #6: copies=4 248 K states of 588 K, the
    wider pass 22 K; copies=3 211 K of 443 K, 0.7 K short of its budget).

    The bound on the sets kept applies (``CONTINUE_BOUND``: the melded player's programme
    at the rules' optimum, its node's sets checked by the rules' own pass on the rest of
    the table) before any narrow pass, as for a melded player, but with no descent: the
    melded optimum is mostly above the rules' (that is why the two-arrangement passes
    run), which loosens the bound, and exact passes asking for it and one set less found
    nothing (seed 13 40J #6 copies=3: 5 and 4 sets asked, 53 K states, the answer 3).
    The first turns whose held-out passes run, the 18 meld-then-continue rows of the
    --combos bench, seeds 1-18, all bands, 10 a band: tiles 183 positions, held-out states
    2.08 M -> 0.25 M, thread CPU 622 -> 167 ms, none 0.3 ms slower; value 125, 1.47 M ->
    0.23 M, 427 -> 140 ms; the same sets kept (seed 13 40J #6 copies=4 92,220 states,
    35.5 ms -> 1,261, 1.9 ms: the node's check is the move; benches/README, rkmc16)."""
    from solvers.rummikub._least import CONTINUE_BOUND, FEWEST_HELD, PLAIN_FIRST

    narrow, exact_budget, _wider = policy
    exact_budget = exact_budget.copy()
    exact_budget[3] |= FEWEST_HELD | PLAIN_FIRST | CONTINUE_BOUND
    exact_budget[4] = 0  # (no descent)
    return narrow, exact_budget, np.zeros(0, np.int64)
