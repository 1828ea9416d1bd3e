"""Fewest tiles moved (``Rules.fewest_tiles_moved``, engines/rummikub/heirs.py) against the
reference integer programme (HiGHS, ``ip_model.py``: its third solve maximises the tiles
in their set's heir) and against hand cases of the positional definition."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from rummikub_ip_reference import reference_move

from engines.rummikub import best_move, best_moves
from engines.rummikub.generate import rummikub_positions
from engines.rummikub.position import Position, check_move
from engines.rummikub.rules import Rules

FEWEST = Rules(fewest_tiles_moved=True)


def _answer(move):
    return move.tiles, move.value, move.sets_kept, move.tiles_moved


@pytest.mark.default_forms
@pytest.mark.parametrize(("table", "rack", "moved"), [
    (["R3 R4 R5 R6 R7 R8"], "R5 R6", 2),  # the doc's example: either half is the heir
    (["B1 B2 B3", "B4 B5 B6"], "K9", 0),  # nothing to play: the table as it was
    (["R3 J R5"], "R4 K1", 1),  # R4 takes the joker's place: the joker moves
    (["K7 R7 J"], "O7 B7", 0),  # the group grows: nothing moves
])
def test_hand_cases(table, rack, moved):
    move = best_move(table, rack, rules=FEWEST)
    plain = best_move(table, rack)
    assert (move.tiles, move.value, move.sets_kept) == (plain.tiles, plain.value,
                                                         plain.sets_kept)
    assert move.tiles_moved == moved
    assert check_move(Position.from_strings(table, rack), move, FEWEST) == []


def test_joined_runs_move_one_side():
    # B1 B2 B3 and B4 B5 B6 with B7 B8 B9 J from the rack: no run is kept; one heir each
    move = best_move(["B1 B2 B3", "B4 B5 B6", "R1 R2 R3 R4"], "R5 B7", rules=FEWEST)
    ref, moved = reference_move(["B1 B2 B3", "B4 B5 B6", "R1 R2 R3 R4"], "R5 B7", True,
                                "tiles", FEWEST)
    assert _answer(move) == (ref.tiles, ref.value, ref.sets_kept, moved)


@pytest.mark.default_forms
@pytest.mark.parametrize("objective", ["tiles", "value"])
def test_against_the_programme(objective):
    # The DP's fewest tiles moved equals the programme's, with the same optimum and sets
    # kept, on random positions (runs, groups, jokers on the table and in the rack).
    compared = fewer = 0
    seed = 21 if objective == "tiles" else 22
    for pos in rummikub_positions(30, seed=seed, table_tiles=(6, 30), joker_rate=0.5,
                                  initial_meld_rate=0.0):
        table, rack = pos["table"], pos["rack"]
        move = best_move(table, rack, True, objective, FEWEST)
        ref, moved = reference_move(table, rack, True, objective, FEWEST)
        assert _answer(move) == (ref.tiles, ref.value, ref.sets_kept, moved), pos
        assert check_move(Position.from_strings(table, rack), move, FEWEST) == []
        plain = best_move(table, rack, True, objective)
        assert move.tiles_moved <= plain.tiles_moved
        # (that the option moves fewer: against the plain DP's arrangement, 11 of the 30;
        # least disturbance's own, among equally good ones as its passes find them, moves
        # as few as the fewest on all but 0-3)
        loose = best_move(table, rack, True, objective, Rules(least_disturbance=False))
        fewer += move.tiles_moved < loose.tiles_moved
        compared += 1
    assert compared == 30 and fewer >= 5


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(1_000, 10**6), objective=st.sampled_from(["tiles", "value"]),
       jokers=st.sampled_from([0.0, 0.5, 1.0]))
@example(seed=44223, objective="tiles", jokers=0.0)  # (HiGHS's presolve: ip_model.solve)
def test_drawn_positions_match_the_programme(seed, objective, jokers):
    # Positions drawn by hypothesis (small tables, jokers often): the pass's answer (one
    # successors call a state, the store made room once for all of them) equals the
    # programme's (tiles, value, sets kept, tiles moved), and its move is valid.
    pos = next(iter(rummikub_positions(1, seed=seed, table_tiles=(6, 24), joker_rate=jokers,
                                       initial_meld_rate=0.0)))
    table, rack = pos["table"], pos["rack"]
    move = best_move(table, rack, True, objective, FEWEST)
    ref, moved = reference_move(table, rack, True, objective, FEWEST)
    assert _answer(move) == (ref.tiles, ref.value, ref.sets_kept, moved), pos
    assert check_move(Position.from_strings(table, rack), move, FEWEST) == []


@pytest.mark.parametrize("objective", ["tiles", "value"])
def test_both_directions_and_their_alternation_agree(objective, monkeypatch):
    # The pass downwards (on the table with its numbers turned round, the objective's gains
    # with them) and the two directions in turn with small slices (each stopped and resumed
    # many times, either one finishing) find upwards' fewest tiles moved, and a valid move;
    # asking for one tile more than least disturbance's move (ABOVE, its move the answer
    # when none) or for its own; after probes (PROBES: the answer when one finds a move, else
    # the direction) or without.
    import engines.rummikub.heirs as heirs

    cases = [(p["table"], p["rack"], FEWEST) for p in rummikub_positions(
        14, seed=24, table_tiles=(12, 40), joker_rate=0.5, initial_meld_rate=0.0)]
    short = Rules(fewest_tiles_moved=True, numbers=9)
    cases += [(["R3 R4 R5 R6 R7 R8", "K7 B7 O7", "B1 B2 J"], "R5 R6 K8 J B9", short),
              (["O7 O8 O9", "K9 R9 B9", "R2 R3 R4 R5"], "O9 R4 K2", short)]
    for table, rack, rules in cases:
        pos = Position.from_strings(table, rack)
        answers = set()
        for direction, slices, above, probes in (
                (0, (0, 1), 0, ()), (0, (0, 1), 1, ()), (1, (0, 1), 1, ()), (-1, (40, 2), 1, ()),
                (-1, (1_000, 3), 0, ()), (-1, (40, 2), 1, (1,)), (-1, (100, 2), 1, (2, 4))):
            monkeypatch.setattr(heirs, "DIRECTION", direction)
            monkeypatch.setattr(heirs, "ALTERNATE", slices)
            monkeypatch.setattr(heirs, "ABOVE", above)
            monkeypatch.setattr(heirs, "PROBES", probes)
            move = best_move(table, rack, True, objective, rules)
            assert check_move(pos, move, rules) == [], (table, rack, direction)
            answers.add(_answer(move))
        assert len(answers) == 1, (table, rack, answers)


@pytest.mark.parametrize("option, masks", [("DOMINANCE", (0, 1, 7, 15)),
                                           ("GROUP_BOUND", (0, 1, 2, 3))])
def test_dominance_inside_a_number_keeps_the_answer(monkeypatch, option, masks):
    # Dropping dominated states after the first colours of a number too (heirs.DOMINANCE
    # bits 2, 4, 8), not only at its close (1) or never (0); before a close, its groups'
    # losses bounded and the profiles alike merged (heirs.GROUP_BOUND bits 1, 2): the same
    # answer as the programme's fewest tiles moved, and a valid move.
    import engines.rummikub.heirs as heirs

    for p in rummikub_positions(8, seed=26, table_tiles=(20, 40), joker_rate=0.5,
                                initial_meld_rate=0.0):
        pos = Position.from_strings(p["table"], p["rack"])
        answers = set()
        for mask in masks:
            monkeypatch.setattr(heirs, option, mask)
            move = best_move(p["table"], p["rack"], True, "tiles", FEWEST)
            assert check_move(pos, move, FEWEST) == [], (p["table"], p["rack"], mask)
            answers.add(_answer(move))
        ref, moved = reference_move(p["table"], p["rack"], True, "tiles", FEWEST)
        assert answers == {(ref.tiles, ref.value, ref.sets_kept, moved)}, (p["table"], p["rack"])


def _with_twin(table, rack, tail):
    """``table`` with a copy of its first set without jokers whose tiles are nowhere else
    (``tail``: of the last three tiles of its first such run of 4+ tiles, a set ending as
    it does), or None when there is none."""
    from collections import Counter

    seen = Counter(t for s in table for t in s) + Counter(rack)
    for tiles in table:
        copy = tiles[-3:] if tail else tiles
        if tail and (len(tiles) < 4 or len({t[1:] for t in tiles}) == 1):
            continue
        if "J" not in tiles and all(seen[t] == 1 for t in copy):
            return [*table, copy]
    return None


def test_twin_sets_in_one_order_agree(monkeypatch):
    # Identical table sets (a run or group copied), and runs ending alike (a run's last
    # three tiles copied), are held out and adopt heirs in one order only (heirs.TWINS):
    # the same answer as naming them both ways, the programme's fewest tiles moved, and a
    # valid move.
    import engines.rummikub.heirs as heirs

    compared = 0
    for k, p in enumerate(rummikub_positions(60, seed=25, table_tiles=(12, 36),
                                             joker_rate=0.3, initial_meld_rate=0.0)):
        table = _with_twin(p["table"], p["rack"], k % 2)
        if table is None or compared == 10:
            continue
        pos = Position.from_strings(table, p["rack"])
        answers = set()
        for twins in (False, True):
            monkeypatch.setattr(heirs, "TWINS", twins)
            move = best_move(table, p["rack"], True, "tiles", FEWEST)
            assert check_move(pos, move, FEWEST) == [], (table, p["rack"])
            answers.add(_answer(move))
        ref, moved = reference_move(table, p["rack"], True, "tiles", FEWEST)
        assert answers == {(ref.tiles, ref.value, ref.sets_kept, moved)}, (table, p["rack"])
        compared += 1
    assert compared == 10


def test_best_moves_and_the_batch_path_agree():
    positions = [Position.from_strings(p["table"], p["rack"])
                 for p in rummikub_positions(12, seed=23, table_tiles=(20, 40),
                                             joker_rate=0.5, initial_meld_rate=0.0)]
    batch = best_moves(positions, rules=FEWEST)
    for pos, move in zip(positions, batch):
        one = best_move([[str(t) for t in s] for s in pos.table],
                        [str(t) for t in pos.rack], rules=FEWEST)
        assert _answer(move) == _answer(one)


def test_refused_with_other_rules():
    from engines.rummikub.errors import RuleError

    for extra in ({"copies": 3}, {"min_real_tiles": 2}, {"joker_retrieval": "official"},
                  {"jokers": 3}, {"numbers": 20}):
        with pytest.raises(RuleError, match="fewest_tiles_moved=true with"):
            best_move(["R1 R2 R3"], "R4", rules=Rules(fewest_tiles_moved=True, **extra))


def test_native_group_table_matches_the_enumeration():
    # The released groups' best stays per profile (solvers/rummikub/_heirs_groups.py)
    # equal the Python enumeration of the partitions and heirs (group_heirs).
    import random

    from engines.rummikub.heirs import _GROUP_KINDS, _stays_table, group_heirs

    rng = random.Random(5)
    for colours in (4, 3):
        for _ in range(6):
            released = tuple(sorted(rng.choice(_GROUP_KINDS) for _ in range(rng.randint(0, 3))))
            table = _stays_table(released, colours)
            for sub in range(1 << len(released)):
                chosen = tuple(g for k, g in enumerate(released) if sub >> k & 1)
                for p in range(81):
                    profile = tuple(p // 3 ** c % 3 for c in range(4))
                    for jokers in range(3):
                        assert table[sub, p, jokers] == group_heirs(chosen, profile, jokers,
                                                                    colours)[0]


def test_auto_is_on_where_the_pass_solves_the_rules():
    # fewest_tiles_moved="auto" (the tri-state a default can take): the pass where it
    # solves the rules, no refusal elsewhere (the rules' answer without it)
    from engines.rummikub.errors import RuleError

    auto = Rules(fewest_tiles_moved="auto")
    assert auto.fewest_moved and FEWEST.fewest_moved and not Rules().fewest_moved
    assert Rules.parse(["fewest_tiles_moved=auto"]) == auto
    assert Rules.from_json(auto.to_json()) == auto
    assert auto.to_json() == {"fewest_tiles_moved": "auto"}
    with pytest.raises(RuleError, match="must be true or false or auto"):
        Rules(fewest_tiles_moved="sometimes")
    table, rack = ["B1 B2 B3", "B4 B5 B6", "R1 R2 R3 R4"], "R5 B7"
    assert _answer(best_move(table, rack, rules=auto)) == _answer(
        best_move(table, rack, rules=FEWEST))
    for extra in ({"copies": 3}, {"min_real_tiles": 2}, {"joker_retrieval": "official"},
                  {"jokers": 3}, {"numbers": 20}, {"least_disturbance": False},
                  {"meld_continue": True}):
        rules = Rules(fewest_tiles_moved="auto", **extra)
        assert not rules.fewest_moved and rules.unsupported() == []
        assert rules.check_supported() is rules
        if set(extra) & {"least_disturbance", "min_real_tiles"}:
            plain = Rules(**extra)  # (two solved: the others' kernels are other tests')
            assert _answer(best_move(table, rack, rules=rules)) == _answer(
                best_move(table, rack, rules=plain))


def test_the_names_path_steps_aside_when_the_default_moves_fewest(monkeypatch):
    # the batch runner's names path has no hook for the pass: a default with fewest tiles
    # moved on sends the default rules' rows through best_moves
    import engines.rummikub.rules as rules_module
    from engines.rummikub import tasks

    assert tasks._names_path()
    monkeypatch.setattr(rules_module, "DEFAULT_RULES", Rules(fewest_tiles_moved="auto"))
    assert not tasks._names_path()
    payloads = [{"table": [["B1", "B2", "B3"], ["B4", "B5", "B6"], ["R1", "R2", "R3", "R4"]],
                 "rack": ["R5", "B7"], "initial_meld_done": True}]
    monkeypatch.setattr(tasks, "_solve_moves", lambda p, o, t, r: ["moves", r])
    assert tasks._solve_names(payloads, "tiles", 1) == ["moves", {}]


def test_look_ahead_losses_keep_the_answer_at_a_tight_floor(monkeypatch):
    # The look-ahead bound on the tiles still lost (AHEAD_LOSSES: runs the next two numbers
    # cannot hold) never drops the answer: asked for exactly its tiles staying (no slack to
    # hide a wrong cut), each direction finds the fewest tiles moved found without it, in
    # fewer states over all.
    import engines.rummikub.heirs as heirs
    from engines.rummikub import least

    monkeypatch.setattr(heirs, "PROBES", ())
    compared, states = 0, [0, 0]
    for p in rummikub_positions(24, seed=27, table_tiles=(12, 44), joker_rate=0.5,
                                initial_meld_rate=0.0):
        pos = Position.from_strings(p["table"], p["rack"])
        first = best_move(p["table"], p["rack"], True, "tiles")
        if first.sets_kept == len(pos.table) or first.tiles_moved == 0:
            continue
        monkeypatch.setattr(heirs, "AHEAD_LOSSES", False)
        monkeypatch.setattr(heirs, "DIRECTION", 0)
        monkeypatch.setattr(heirs, "ABOVE", 1)
        fewest = heirs.fewest_moved_move(pos, "tiles", FEWEST, first).tiles_moved
        monkeypatch.setattr(heirs, "ABOVE", first.tiles_moved - fewest)
        for ahead in (False, True):
            monkeypatch.setattr(heirs, "AHEAD_LOSSES", ahead)
            for direction in (0, 1):
                monkeypatch.setattr(heirs, "DIRECTION", direction)
                work = int(least.WORK[1])
                move = heirs.fewest_moved_move(pos, "tiles", FEWEST, first)
                states[ahead] += int(least.WORK[1]) - work
                assert move.tiles_moved == fewest, (p, direction, ahead)
        compared += 1
    assert compared >= 10 and states[1] < states[0]
