"""Fewest tiles moved: after the one-tile probes, the probes asking for twice the tiles moved
each time (``heirs.DEEPEN``, engines/rummikub/heirs.py) and the probe's floor lowered round
by round (``heirs.LOWER``, solvers/rummikub/_heirs_rounds.py), with the other direction's
rounds as a rival (``heirs.RIVAL``), against the reference integer programme (HiGHS,
``ip_model.py``) and against the passes without them."""

from __future__ import annotations

from itertools import islice

from rummikub_ip_reference import reference_move

from engines.rummikub import best_move
from engines.rummikub.generate import rummikub_positions
from engines.rummikub.position import Position, check_move
from engines.rummikub.rules import Rules

FEWEST = Rules(fewest_tiles_moved=True)


def _answer(move):
    return move.tiles, move.value, move.sets_kept, move.tiles_moved


def _against_plain(monkeypatch, seeds, option, off, on, found):
    """On random positions of the ``seeds``, the answer with ``heirs.<option>`` at ``on``
    equals the one at ``off`` and, where ``found`` grew (the option found it), the
    programme's; the move is valid."""
    import engines.rummikub.heirs as heirs

    for seed in seeds:
        for pos in rummikub_positions(60, seed=seed, table_tiles=(12, 30), joker_rate=0.5,
                                      initial_meld_rate=0.0):
            table, rack = pos["table"], pos["rack"]
            monkeypatch.setattr(heirs, option, off)
            plain = best_move(table, rack, True, "tiles", FEWEST)
            monkeypatch.setattr(heirs, option, on)
            calls = len(found)
            move = best_move(table, rack, True, "tiles", FEWEST)
            assert _answer(move) == _answer(plain), pos
            assert check_move(Position.from_strings(table, rack), move, FEWEST) == [], pos
            if len(found) > calls:
                ref, moved = reference_move(table, rack, True, "tiles", FEWEST)
                assert _answer(move) == (ref.tiles, ref.value, ref.sets_kept, moved), pos


def _deepened_finds(monkeypatch) -> list[tuple[int, tuple[int, int]]]:
    """``heirs._deepened`` made to record, each time a deepened probe finds the answer, its
    direction and the one-tile probe before it (tiles moved at most, states): the list."""
    import engines.rummikub.heirs as heirs

    found: list[tuple[int, tuple[int, int]]] = []
    deepened = heirs._deepened

    def counted(made, direction, probed, moved):
        out = deepened(made, direction, probed, moved)
        if out[1] is not None:
            found.append((direction, probed))
        return out

    monkeypatch.setattr(heirs, "_deepened", counted)
    return found


def _lowered_records(monkeypatch, record) -> None:
    """``heirs._lowered`` made to call ``record(done, out)`` with the probe it lowers and
    what it returns (the answer or False, and the pass that gave it)."""
    import engines.rummikub.heirs as heirs

    lowered = heirs._lowered

    def counted(done, rival=None):
        out = lowered(done, rival)
        record(done, out)
        return out

    monkeypatch.setattr(heirs, "_lowered", counted)


def test_deepened_probes_find_the_programmes_fewest(monkeypatch):
    # With the probes deepened after every one-tile probe that found nothing (from one state
    # on, never stopping for slow growth), the answer equals the programme's and the pass's
    # without them, and the move is valid; on these seeds a deepened probe finds the answer
    # in each direction (upwards, and downwards on the turned table) at least once (seed 33
    # found downwards until the bound on the sets kept lost its rounding error, rkb9: seed 30).
    import engines.rummikub.heirs as heirs

    found = _deepened_finds(monkeypatch)
    monkeypatch.setattr(heirs, "LOWER", -1)  # (the probes deepened, not lowered)
    _against_plain(monkeypatch, (30, 39), "DEEPEN", (0, 0), (1, 0), found)
    assert sorted({direction for direction, _ in found}) == [0, 1]


def test_lowered_rounds_find_the_fresh_passes_fewest(monkeypatch):
    # With the probe lowered round by round after every one-tile probe that found nothing
    # (whatever the full pass's floor), the answer equals the passes' started afresh (the
    # probes deepened, then the full pass) and the programme's, and the move is valid; on
    # these seeds a lowered round finds the answer, and rounds prove that none moves fewer
    # tiles than least disturbance's move.
    found: list[bool] = []
    proven: list[bool] = []
    _lowered_records(monkeypatch, lambda done, out: (proven if out[0] is False else found
                                                     ).append(True))
    _against_plain(monkeypatch, (33,), "LOWER", -1, 99, found)
    assert found and proven


def test_rounds_without_the_owners_check_find_the_same_fewest(monkeypatch):
    # The lowered rounds drop dominated states without the owners' check (heirs.
    # ROUND_DOMINANCE 7; 255: with it, as a fresh pass does): with rounds after every
    # one-tile probe that found nothing, the answer equals the rounds' with the check and,
    # where rounds ran, the programme's; the move is valid; on these seeds rounds run.
    import engines.rummikub.heirs as heirs

    rounds: list[bool] = []
    _lowered_records(monkeypatch, lambda done, out: rounds.append(True))
    monkeypatch.setattr(heirs, "LOWER", 99)
    _against_plain(monkeypatch, (33,), "ROUND_DOMINANCE", 255, 7, rounds)
    assert rounds


def test_a_small_probe_is_deepened(monkeypatch):
    # A one-tile probe of fewer than 2,000 states is deepened too (heirs.DEEPEN from one
    # state): on this table of 23 sets, least disturbance's move moves 14 tiles, the chosen
    # probe finds none in under 1,000 states, and a deepened probe finds the answer (3 tiles
    # moved) where the full pass would search every state losing up to 13; the answer equals
    # the programme's and the passes' without deepening.
    import engines.rummikub.heirs as heirs

    pos = next(islice(rummikub_positions(40, seed=30, table_tiles=(40, 80), joker_rate=0.5,
                                         initial_meld_rate=0.0), 8, None))
    table, rack = pos["table"], pos["rack"]
    found = _deepened_finds(monkeypatch)
    move = best_move(table, rack, True, "tiles", FEWEST)
    assert found and found[0][1][1] < 2_000
    assert check_move(Position.from_strings(table, rack), move, FEWEST) == []
    monkeypatch.setattr(heirs, "DEEPEN", (0, 0))
    assert _answer(best_move(table, rack, True, "tiles", FEWEST)) == _answer(move)
    ref, moved = reference_move(table, rack, True, "tiles", FEWEST)
    assert _answer(move) == (ref.tiles, ref.value, ref.sets_kept, moved) == (14, 98, 18, 3)


def test_the_rival_direction_leads_where_its_rounds_are_cheaper(monkeypatch):
    # With the other direction's probe lowered after every first round (whatever its
    # growth, without a cap on the rival's states), the answer equals the one of the chosen
    # direction's rounds alone and, where the rival found it, the programme's; on these
    # seeds the rival finds the answer, and the chosen direction keeps the lead elsewhere.
    by_rival: list[bool] = []
    kept: list[bool] = []

    def record(done, out):
        if out[0] is not False:
            (by_rival if out[1] is not done else kept).append(True)

    _lowered_records(monkeypatch, record)
    _against_plain(monkeypatch, (33, 39), "RIVAL", (0, 0), (1e-9, 1e9), by_rival)
    assert by_rival and kept
