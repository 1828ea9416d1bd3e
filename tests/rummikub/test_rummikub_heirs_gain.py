"""The fewest-tiles-moved pass's bound on the rack's gain to come (engines/rummikub/heirs_gain.py)
against the reference integer programme (HiGHS, ``ip_model.py``), and the pass's answer with
and without it."""

from __future__ import annotations

import numpy as np
from rummikub_ip_model import solve_ip
from rummikub_ip_reference import _table_set, _tile_spec, reference_move

from engines.rummikub import best_move, heirs, heirs_gain, least
from engines.rummikub.generate import rummikub_positions
from engines.rummikub.heirs_turned import turned_set
from engines.rummikub.position import Position, _counts, check_move, objective_weights
from engines.rummikub.rules import Rules
from engines.rummikub.sets import validate_set

FEWEST = Rules(fewest_tiles_moved=True)


def _answer(move):
    return move.tiles, move.value, move.sets_kept, move.tiles_moved


def _short_of_the_rack(seed: int, objective: str, count: int = 40):
    """Positions (12-30 table tiles, jokers) whose optimum leaves rack tiles unplayed, with
    the pass's two orders of numbers and ``(rack jokers, joker weight, optimum)``."""
    weight, joker_weight = objective_weights(objective)
    for p in rummikub_positions(count, seed=seed, table_tiles=(12, 30), joker_rate=0.5,
                                initial_meld_rate=0.0):
        pos = Position.from_strings(p["table"], p["rack"])
        rack, rack_j = _counts(pos.rack)
        move = best_move(p["table"], p["rack"], True, objective)
        played, played_j = _counts(move.played)
        optimum = int((weight * played).sum()) + joker_weight * played_j
        if not pos.table or optimum >= int((weight * rack).sum()) + joker_weight * rack_j:
            continue
        sets = list(pos.table)
        turned = [turned_set(s, 13) for s in sets]
        yield pos, [(sets, rack, weight), (turned, rack[:, ::-1], weight[:, ::-1])], (
            rack_j, joker_weight, optimum)


def test_the_bound_is_the_programmes_most_gain_from_each_number_on():
    # gain_from[v] bounds the rack gain (real tiles) any arrangement gets at numbers v+1 and
    # up: at each of the DP's cuts it equals the programme's most with those weights alone
    # (jokers worth nothing), between them it is no less, in both orders of numbers; and
    # it is below the rack's own gain there somewhere (else the pass would cut nothing).
    tighter = 0
    for objective, seed in (("tiles", 5), ("value", 6)):
        for pos, ways, rest in _short_of_the_rack(seed, objective, 20):
            for sets, rack, weight in ways:
                gain = heirs_gain.with_gain_bound({}, (sets, rack, weight), rest,
                                                  FEWEST)["gain_from"]
                table = [_table_set(validate_set(s), FEWEST) for s in sets]
                for v in sorted({*heirs_gain.CUTS, 0, 11}):
                    masked = np.zeros_like(weight)
                    masked[:, v:] = weight[:, v:]
                    most = solve_ip(_tile_spec(FEWEST), table, rack, rest[0], masked, 0,
                                    melded=True, least_disturbance=False).score
                    assert gain[v] == most if v in heirs_gain.CUTS else gain[v] >= most, (
                        pos, v)
                    tighter += gain[v] < int((rack[:, v:] * weight[:, v:]).sum())
                assert gain[13] == 0
    assert tighter >= 10


def test_the_pass_with_the_bound_finds_the_same_answer_in_fewer_states(monkeypatch):
    # With the bound computed at once (the probes' first slice one state), the pass finds
    # the answer it finds without it, a valid move, in fewer states summed; where the bound
    # was computed and the answer moves fewer tiles than least disturbance's move, the
    # programme's fewest too.
    monkeypatch.setattr(heirs_gain, "GAIN_AFTER", 1)
    states = {False: 0, True: 0}
    checked = 0
    for pos, _ways, _rest in (*_short_of_the_rack(7, "tiles"), *_short_of_the_rack(8, "tiles")):
        table, rack = [list(map(str, s)) for s in pos.table], list(map(str, pos.rack))
        answers = {}
        for on in (False, True):
            monkeypatch.setattr(heirs_gain, "GAIN_BOUND", on)
            work = least.WORK.copy()
            answers[on] = best_move(table, rack, True, "tiles", FEWEST)
            states[on] += int((least.WORK - work)[1])
        move = answers[True]
        assert _answer(move) == _answer(answers[False]), pos
        assert check_move(pos, move, FEWEST) == [], pos
        plain = best_move(table, rack, True, "tiles")
        if move.tiles_moved < plain.tiles_moved and checked < 6:
            ref, moved = reference_move(table, rack, True, "tiles", FEWEST)
            assert _answer(move) == (ref.tiles, ref.value, ref.sets_kept, moved), pos
            checked += 1
    assert states[True] < states[False]
    assert checked >= 2


def test_a_tightened_pass_reads_the_new_bound_and_nothing_else():
    # A pass tightened while running (the probes' case) reads the capped bound from then
    # on: told that no number has rack gain to come, only the later colours' tiles at a
    # number remain in rem, before is zero, and its other arguments are the same objects.
    pos = Position.from_strings(["R3 R4 R5 R6", "K7 O7 B7"], "R5 B1 K2")
    weight, joker_weight = objective_weights("tiles")
    rack, rack_j = _counts(pos.rack)
    one = heirs._Pass(list(pos.table), rack, rack_j, (weight, joker_weight), int(weight[0, 4]),
                      1, 2, FEWEST)
    old = one.args
    one.tighten(np.zeros(14, np.int64))
    assert all(a is b for k, (a, b) in enumerate(zip(old, one.args)) if k not in (14, 15))
    assert (one.args[15] == 0).all() and old[15].any()
    assert (one.args[14] == old[14] - old[14][:, 3:4]).all()
