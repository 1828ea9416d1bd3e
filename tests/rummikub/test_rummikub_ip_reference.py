"""The reference oracle (the integer programme of ``ip_model.py``) against brute force.

The exact search refuses these house rules until the DP carries them
(``test_rummikub_rules.py`` checks the refusals); this oracle, proven here, is what the
DP's answers will be checked against.

Random small tile sets (2-4 colours, 4-7 numbers, 1-2 copies, 0-2 jokers, sets of 2-3+
tiles, 1 or 2 real tiles per set) with random tables and racks; each option combination is
checked for the optimal score and, with least disturbance, the most table sets kept.  The
answer itself is checked too: valid sets of these rules, the tiles conserved, the official
joker condition and the initial meld's worth.
"""

from __future__ import annotations

import importlib.util
import random
from collections import Counter
from pathlib import Path

import pytest
from rummikub_ip_reference import position_rules, reference_move

from engines.rummikub import best_move
from engines.rummikub.errors import PositionError, RuleError, SetError, TileError
from engines.rummikub.rules import Rules

_SPEC = importlib.util.spec_from_file_location(
    "rummikub_variant_naive", Path(__file__).resolve().parent / "rummikub_variant_naive.py")
naive = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(naive)


def oracle(table, rack, melded=True, objective="tiles", rules=None):
    """The oracle's move (``reference_move`` without the tiles-moved count)."""
    rules = rules or Rules(least_disturbance=False)  # the optimum (tie-break: own tests)
    return reference_move(table, rack, melded, objective, rules)[0]


def _random_table(rng: random.Random, spec: naive.Spec, sets: int, joker_rate: float = 0.25):
    pool = Counter({(c, n): spec.copies for c in spec.letters
                    for n in range(1, spec.numbers + 1)})
    jokers = spec.jokers
    table = []
    for _ in range(sets * 4):
        if len(table) == sets:
            break
        first = rng.choice(sorted(t for t, k in pool.items() if k))
        shape = rng.choice(naive._candidates(spec, first))
        use = [rng.random() < joker_rate for _ in shape]
        use[shape.index(first)] = False
        need = Counter(t for t, u in zip(shape, use) if not u)
        if sum(use) > jokers or len(shape) - sum(use) < max(2, spec.min_real) or need - pool:
            continue
        pool -= need
        jokers -= sum(use)
        table.append(sorted(((u, *t) for t, u in zip(shape, use)),
                            key=lambda s: (s[2], spec.letters.index(s[1]))))
    return table, pool, jokers


def _case(seed: int, joker_rate: float = 0.25):
    rng = random.Random(seed)
    spec = naive.Spec(rng.randint(2, 4), rng.randint(4, 7), rng.randint(1, 2),
                      rng.randint(0, 2) if joker_rate < 0.5 else 2, rng.choice((2, 3, 3)),
                      rng.choice((1, 1, 2)))
    table, pool, jokers = _random_table(rng, spec, rng.randint(0, 3), joker_rate)
    while sum(map(len, table)) > 8:  # keeps the brute force within a second
        table.pop()
    left = [t for t, k in pool.items() for _ in range(k)] + ["J"] * jokers
    rack = rng.sample(left, min(len(left), rng.randint(1, 4)))
    return spec, table, rack


def _text(tile) -> str:
    return "J" if tile == "J" else f"{tile[0]}{tile[1]}"


def _places(spec: naive.Spec, table):
    places = []
    for s in table:
        run = naive.is_run(s)
        real = {c for j, c, _ in s if not j}
        for j, c, n in s:
            if j:
                places.append(("run", c, n) if run else
                              ("group", [x for x in spec.letters if x not in real], n))
    return places


def _valid(spec: naive.Spec, s) -> bool:
    colours = {c for _, c, _ in s}
    numbers = [n for _, _, n in s]
    if len(s) < spec.min_len or sum(not j for j, _, _ in s) < spec.min_real:
        return False
    if len(colours) == 1 and len(s) > 1:
        return sorted(numbers) == list(range(min(numbers), min(numbers) + len(s)))
    return len(set(numbers)) == 1 and len(colours) == len(s)


def _as_sets(melds):
    return [[(slot.tile.is_joker, slot.stands_for.colour, slot.stands_for.number)
             for slot in m] for m in melds]


OPTIONS = [
    {"least_disturbance": False},
    {},  # least disturbance is on by default
    {"joker_retrieval": "official", "least_disturbance": False},
    {"joker_retrieval": "official", "least_disturbance": True},
    {"meld_continue": True, "least_disturbance": False},
    {"meld_continue": True, "least_disturbance": True, "meld_joker": "zero"},
    {"least_disturbance": True, "fewest_tiles_moved": True},
]


@pytest.mark.parametrize("seed", [*range(84), *range(1000, 1030)])
def test_variants_match_brute_force(seed):
    # seeds from 1000: official retrieval on tables rich in jokers (runs and groups)
    spec, table, rack = _case(seed, 0.25 if seed < 1000 else 0.6)
    rng = random.Random(seed + 1000)
    options = dict(OPTIONS[seed % len(OPTIONS)] if seed < 1000 else
                   {"joker_retrieval": "official", "least_disturbance": seed % 2 == 0})
    melded = not options.get("meld_continue") and rng.random() < 0.7
    threshold = rng.choice((0, 3, 6, 10))
    objective = rng.choice(("tiles", "value"))
    rules = Rules(colours=spec.colours, numbers=spec.numbers, copies=spec.copies,
                  jokers=spec.jokers, min_set_length=spec.min_len,
                  min_real_tiles=spec.min_real, meld_threshold=threshold, **options)
    move, tiles_moved = reference_move(
        [[_text("J" if j else (c, n)) for j, c, n in s] for s in table],
        [_text(t) for t in rack], melded, objective, rules)
    official = options.get("joker_retrieval") == "official"
    best, most_kept, fewest_moved = naive.brute(
        spec, table, _places(spec, table), Counter(rack), objective, melded=melded,
        threshold=threshold, joker_counts=options.get("meld_joker") != "zero",
        meld_continue=bool(options.get("meld_continue")), official=official)
    played = Counter("J" if t.is_joker else (t.colour, t.number) for t in move.played)
    assert naive.score(played, objective) == best
    assert not played - Counter(rack)
    after = _as_sets(move.table)
    assert all(_valid(spec, s) for s in after), after
    before = Counter((c, n) if not j else "J" for s in table for j, c, n in s)
    assert Counter((c, n) if not j else "J" for s in after for j, c, n in s) == before + played
    touched = melded or options.get("meld_continue")
    if official and touched and move.played:
        assert naive.official_ok(spec, _places(spec, table), after, played)
    if not melded and move.played and threshold:
        worth = naive.value(_as_sets(move.new_sets), options.get("meld_joker") != "zero")
        assert worth >= threshold
        assert not Counter(t for m in move.new_sets for t in [s.tile for s in m]) - Counter(
            move.played)
    if touched and options.get("least_disturbance", True):
        assert naive.kept([naive._key(s) for s in table], after) == most_kept
    if touched and options.get("fewest_tiles_moved") and move.played:
        moved = sum(map(len, table)) - naive.stays(table, after)
        if not table:  # nothing to keep: the programme does not count
            tiles_moved = move.tiles_moved
        assert tiles_moved == moved == fewest_moved


def test_two_real_tiles_per_set_on_the_standard_tiles():
    # R5 R6 + J would be a run; with two real tiles per set J(R4) R5 R6 J(R7) is not allowed
    # but R5 R6 J still is; a rack of R5 J J can only play nothing.
    rules = Rules(least_disturbance=False, min_real_tiles=2)
    assert oracle([], "R5 J J", True, rules=rules).tiles == 0
    assert best_move([], "R5 J J").tiles == 3
    assert oracle([["K7", "R7", "O7"]], "J", True, rules=rules).tiles == 1
    with pytest.raises(SetError):
        oracle([["K7", "J", "J"]], "R2", True, rules=rules)


def test_official_retrieval_needs_the_tile_it_stands_for():
    table = [["R3", "R4", "R5", "J"]]  # the joker stands for R6
    # Free: the joker may go to K11 K12 J; official: only once R6 comes from the rack.
    assert best_move(table, "K11 K12", True).tiles == 2
    official = Rules(least_disturbance=False, joker_retrieval="official")
    assert oracle(table, "K11 K12", True, rules=official).tiles == 0
    move = oracle(table, "K11 K12 R6", True, rules=official)
    assert move.tiles == 3 and sorted(map(str, move.played)) == ["K11", "K12", "R6"]
    # A joker that stays where it was needs nothing: R7 extends the run past it.
    assert oracle(table, "R7", True, rules=official).tiles == 1


def test_meld_then_continue():
    # Meld K10 R10 B10 (30), then add R11 and R12 to the table's run R8 R9 R10 ... no R10 is
    # used by the meld; R11 extends the table run R8 R9 R10 in the same turn.
    table = [["O8", "O9", "O10"]]
    assert best_move(table, "K10 R10 B10 O11", False).tiles == 3
    move = oracle(table, "K10 R10 B10 O11", False, rules=Rules(meld_continue=True))
    assert move.tiles == 4
    assert sorted(map(str, (s.tile for m in move.new_sets for s in m))) == ["B10", "K10", "R10"]


def test_least_disturbance_keeps_sets():
    table = [["R3", "R4", "R5", "R6"], ["K3", "O3", "B3"], ["R7", "R8", "R9"]]
    plain = best_move(table, "R3", True)
    calm = oracle(table, "R3", True, rules=Rules(least_disturbance=True))
    assert plain.tiles == calm.tiles == 1
    assert calm.sets_kept == 2  # K3 O3 B3 and R7 R8 R9 stay; R3 joins... a set
    assert calm.sets_kept >= plain.sets_kept


def test_generalised_tiles_are_checked_at_the_boundary():
    rules = Rules(colours=5, numbers=20, copies=3, jokers=0)
    move = oracle([], "G18 G19 G20 G20 K20 R20 O20", True, rules=rules)
    assert move.tiles == 7
    with pytest.raises(TileError, match=r"1\.\.20"):
        oracle([], "G21", True, rules=rules)
    with pytest.raises(TileError, match="K, R, O, B, G"):
        oracle([], "Y3", True, rules=rules)
    with pytest.raises(TileError):
        oracle([], "J", True, rules=rules)  # no jokers in this set
    with pytest.raises(PositionError, match="4 copies of G20"):
        oracle([], "G20 G20 G20 G20", True, rules=rules)
    with pytest.raises(RuleError):
        Rules(colours=9)
    with pytest.raises(RuleError, match="min_real_tiles"):
        Rules.parse(["min_real_tiles=3"])


CORPUS = Path(__file__).resolve().parents[1] / "data" / "rummikub" / "positions.jsonl"


def _corpus():
    import json

    with CORPUS.open() as f:
        return [json.loads(line) for line in f if line.strip()]


@pytest.mark.parametrize("objective", ["tiles", "value"])
def test_integer_programme_reaches_the_corpus_optima(objective):
    # The rules document's game through the integer programme: the optimum the two
    # reference solvers agree on, for every ninth position.
    rules = Rules(least_disturbance=True)
    for rec in _corpus()[::9]:
        move = oracle(rec["table"], rec["rack"], rec["initial_meld_done"], objective, rules)
        want = rec["optimal"]["max_tiles" if objective == "tiles" else "max_value"]
        assert (move.tiles if objective == "tiles" else move.value) == want, rec["id"]


def test_integer_programme_agrees_with_the_dp():
    from engines.rummikub.generate import rummikub_positions

    for pos in rummikub_positions(10, seed=11, table_tiles=(0, 30)):
        for objective in ("tiles", "value"):
            args = (pos["table"], pos["rack"], pos["initial_meld_done"], objective)
            dp = best_move(*args)
            ip = oracle(*args, rules=Rules(least_disturbance=True))
            jokers = [sum(t.is_joker for t in m.played) for m in (ip, dp)]
            assert (ip.tiles, ip.value, jokers[0]) == (dp.tiles, dp.value, jokers[1])
            assert ip.sets_kept >= dp.sets_kept


def test_options_that_cannot_matter_leave_the_dp_the_same_answer():
    # Where ``position_rules`` finds that the options cannot change the answer (no table
    # joker under official retrieval, too few jokers for a set with one real tile, meld then
    # continue once melded), the DP's answer under the remaining rules is the oracle's: a
    # first step for the DP, which can accept these positions as they are.
    from engines.rummikub.generate import rummikub_positions

    rules = Rules(least_disturbance=False, joker_retrieval="official", min_real_tiles=2,
                  meld_continue=True)
    compared = 0
    for pos in rummikub_positions(10, seed=5, table_tiles=(0, 25)):
        args = (pos["table"], pos["rack"], pos["initial_meld_done"], "tiles")
        reset = position_rules(rules, pos["table"], pos["rack"], pos["initial_meld_done"])
        forced = oracle(*args, rules=rules)
        if not reset.unsupported():
            dp = best_move(*args, rules=reset)
            assert (dp.tiles, dp.value) == (forced.tiles, forced.value), pos
            compared += 1
    assert compared >= 3


def test_meld_continue_against_rummikub_solver():
    """``rummikub-solver`` (bench extra) melds and then, in a second round, plays more rack
    tiles onto a non-empty table: a greedy form of meld then continue.  On its ground (no
    jokers, thresholds above 13) our exact answer plays at least as many tiles, and passes
    exactly when it does (both need the same meld first)."""
    rummikub_solver = pytest.importorskip("rummikub_solver")
    from engines.rummikub.generate import rummikub_positions

    ids = {f"{c}{n}": "KBOR".index(c) * 13 + n for c in "KROB" for n in range(1, 14)}
    ruleset = rummikub_solver.RuleSet(min_initial_value=30,
                                      solver_backend=rummikub_solver.MILPSolver.HIGHS)
    rules = Rules(least_disturbance=False, meld_continue=True)
    compared = played = beyond = 0
    for pos in rummikub_positions(40, seed=21, table_tiles=(9, 30), joker_rate=0.0,
                                  rack_size=(10, 14)):
        tiles = [t for s in pos["table"] for t in s] + pos["rack"]
        if "J" in tiles or not pos["table"]:
            continue
        state = ruleset.new_game()
        state.add_table(*(ids[t] for t in [t for s in pos["table"] for t in s]))
        state.add_rack(*(ids[t] for t in pos["rack"]))
        solution = ruleset.solve(state, rummikub_solver.SolverMode.INITIAL)
        theirs = 0 if solution is None else len(solution.tiles)
        ours = oracle(pos["table"], pos["rack"], False, rules=rules).tiles
        assert ours >= theirs and (ours == 0) == (theirs == 0), (pos, ours, theirs)
        compared += 1
        played += theirs > 0
        beyond += ours > best_move(pos["table"], pos["rack"], False).tiles
    # a real comparison: some melds, and some where continuing onto the table adds tiles
    assert compared >= 20 and played >= 5 and beyond >= 1


def test_official_retrieval_of_a_group_joker():
    # A group joker stands for any colour its group lacks: K5 R5 J gives up its joker for O5
    # or B5 from the rack, not for another tile.
    official = Rules(least_disturbance=False, joker_retrieval="official")
    four = [["K5", "R5", "O5", "J"]]
    assert best_move(four, "K11 K12", True).tiles == 2  # free: K11 K12 J
    assert oracle(four, "K11 K12", True, rules=official).tiles == 0
    three = [["K5", "R5", "J"]]
    for tile in ("O5", "B5"):
        assert oracle(three, f"K11 K12 {tile}", True, rules=official).tiles == 3
    assert oracle([*three, ["K4", "K5", "K6"]], "K11 K12 R4", True,
                  rules=official).tiles == 0


def test_fewest_tiles_moved_on_random_positions():
    # With fewest_tiles_moved the reported count is the tiles outside their set's
    # continuation (recounted here by the brute force's matching), never more than the
    # least-disturbance move's own count, with the same score and sets kept.
    from engines.rummikub.generate import rummikub_positions
    from engines.rummikub.sets import validate_set
    from engines.rummikub.tiles import parse_tiles

    def sets(melds):
        return [[(s.tile.is_joker, s.stands_for.colour, s.stands_for.number) for s in m]
                for m in melds]

    fewer = 0
    for pos in rummikub_positions(12, seed=9, table_tiles=(6, 24), initial_meld_rate=0.0):
        args = (pos["table"], pos["rack"], True, "tiles")
        kept = oracle(*args, rules=Rules(least_disturbance=True))
        least, least_moved = reference_move(
            *args, Rules(least_disturbance=True, fewest_tiles_moved=True))
        assert (least.tiles, least.value, least.sets_kept) == (
            kept.tiles, kept.value, kept.sets_kept)
        table = sets(validate_set(parse_tiles(s)) for s in pos["table"])
        total = sum(map(len, table))
        assert least_moved == total - naive.stays(table, sets(least.table))
        other = total - naive.stays(table, sets(kept.table))
        assert least_moved <= other
        fewer += least_moved < other
    assert fewer >= 1
