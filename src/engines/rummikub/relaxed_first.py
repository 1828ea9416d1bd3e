"""Least disturbance through a relaxation solved first (:func:`relaxation_route`): the route
of :func:`engines.rummikub.arrays.solve_moves` where
:func:`~engines.rummikub.least.relaxation_pays_first` (two real tiles a set with three or
more copies or jokers), whose relaxation (one real tile a set) solves faster and whose
least-disturbing move the rules mostly allow."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from engines.rummikub import arrays
from engines.rummikub.position import Move, Position
from engines.rummikub.rules import Rules


def relaxation_route(positions: Sequence[Position], objective: str, threads: int | None,
                     rules: Rules, turn: np.ndarray | None = None) -> list[Move]:
    """Least disturbance for ``positions`` (checked) under ``rules``: the positions whose
    relaxation's least-disturbing move the rules allow (or allow made again under them:
    :func:`~engines.rummikub.least.relaxation_first`) take it; those whose relaxation's
    plain move the rules allow start least disturbance from it (:func:`_from_relaxed_plain`);
    the others are solved under the rules, capped at the relaxation's optimum (at least
    theirs), searching first the way the relaxation's solve found its move (its numbers as
    they are or reversed: :func:`solvers.rummikub._exact.solve_either`), as the relaxation
    solved after the rules does (:func:`~engines.rummikub.least._relaxed_move`'s
    ``first_turned``); ``turn``: the way the relaxations search first (see
    :func:`~engines.rummikub.arrays.solve_counts`; not written).  Seed 8 40J #9 of two real
    tiles + jokers=3: the relaxation turned; under the rules, capped, as it is first 69 ms
    (its exact pass was cut at its own beam pass's floor and started again at the reversed
    way's higher one: 241 k states), reversed first 13 ms (benches/README, rkdp8)."""
    from engines.rummikub.least import relaxation_first

    moves: list = [None] * len(positions)
    ways = np.zeros(len(positions), np.int64) if turn is None else np.array(turn, np.int64)

    def relaxed(i: int) -> None:
        moves[i] = relaxation_first(positions[i], objective, rules, ways[i:i + 1])

    arrays._side_by_side(relaxed, range(len(positions)), threads)
    rest = [i for i, m in enumerate(moves) if not isinstance(m, Move)]
    if rest:
        _from_relaxed_plain(positions, moves, rest, objective, rules, threads)
        rest = [i for i in rest if not isinstance(moves[i], Move)]
    if rest:
        known = [moves[i] for i in rest]
        more = arrays._solve_rules([positions[i] for i in rest], objective, threads, rules,
                                   ways[rest], None, known, _relaxed_cap(known, objective, rules))
        for i, move in zip(rest, more):
            moves[i] = move
    return moves


def _from_relaxed_plain(positions: Sequence[Position], moves: list, rows: list[int],
                        objective: str, rules: Rules, threads: int | None) -> None:
    """Least disturbance for the positions ``rows`` whose relaxation's least-disturbing move
    the rules do not allow (``moves[i]``: :func:`~engines.rummikub.least.relaxation_first`'s
    plain move of the relaxation and the sets its least-disturbing move keeps, or None) but
    whose relaxation's plain move they do: that move reaches the relaxation's optimum, at
    least the rules', so it is optimal under the rules, and least disturbance starts from
    it, the solve under the rules skipped (``moves[i]`` replaced; the others left as they
    are).  Of the 75 positions of seeds 11 and 1-7 (bands 20-80 with and without jokers, 10
    a band) that fall back under copies=3 + jokers=4, copies=4 + jokers=3 and its official
    row, 37 have the relaxation's plain move allowed (benches/README, rkc4j3)."""
    from engines.rummikub.least import least_disturbing_move
    from engines.rummikub.position import check_move

    allowed = []
    for i in rows:
        if moves[i] is None:
            continue
        plain = moves[i][0]
        move = Move(plain.played, plain.table, plain.tiles, plain.value,
                    previous=list(positions[i].table), tile_set=(rules.colours, rules.numbers))
        if not check_move(positions[i], move, rules):
            allowed.append((i, move, moves[i]))

    def solve(k: int) -> None:
        i, move, known = allowed[k]
        moves[i] = least_disturbing_move(positions[i], objective, rules, move,
                                         relaxed_known=known)

    arrays._side_by_side(solve, range(len(allowed)), threads)


def _relaxed_cap(known: list, objective: str, rules: Rules) -> np.ndarray:
    """The scores of the relaxations' plain moves (:func:`relaxation_route`'s ``known``), each
    its optimum: a cap on the optimum under ``rules`` (NO_CAP where none is known)."""
    from engines.rummikub.least import _score
    from solvers.rummikub._layout import NEG, NO_CAP

    scores = [NEG if k is None else _score(k[0], objective, rules) for k in known]
    return np.array([NO_CAP if s == NEG else s for s in scores], np.int64)
