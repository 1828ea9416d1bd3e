"""House-rule variants: solved exactly by the DP, checked against brute force and by hand.

The brute force (``rummikub_naive``) enumerates every subset of the rack and every
arrangement, so it shares nothing with the DP but the rules themselves.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.cli import main
from engines.rummikub import Position, RuleError, Rules, best_move, best_moves, check_move

HERE = Path(__file__).resolve().parent


def _load(name: str, file: str):
    spec = importlib.util.spec_from_file_location(name, HERE / file)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


naive = _load("rummikub_naive", "rummikub_naive.py")
positions = _load("rummikub_properties_positions", "test_rummikub_properties.py").positions

RULES = st.builds(Rules, meld_threshold=st.sampled_from([0, 1, 6, 12, 20, 30]),
                  meld_joker=st.sampled_from(["stands-for", "zero"]))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(initial=True), RULES, st.sampled_from(["tiles", "value"]))
def test_initial_meld_variants_agree_with_brute_force(case, rules, objective) -> None:
    table, rack, melded = case
    max_t, value_at_t, max_v, tiles_at_v = naive.brute_force(
        table, rack, melded, rules.meld_threshold, rules.meld_joker == "zero")
    move = best_move(table, rack, initial_meld_done=melded, objective=objective, rules=rules)
    if objective == "tiles":
        assert (move.tiles, move.value) == (max_t, value_at_t)
    else:
        assert (move.value, move.tiles) == (max_v, tiles_at_v)
    pos = Position.from_strings(table, rack, melded)
    assert check_move(pos, move, rules) == []
    # the batch path answers the same
    assert best_moves([pos], objective, rules=rules)[0].played == move.played


# Behaviours of other solvers' house rules, each with its own position.
PEER_CASES = [
    # no threshold: any first play counts (a low run opens the game)
    ("R1 R2 R3 K9", Rules(meld_threshold=0), 3),
    ("R1 R2 R3 K9", Rules(), 0),
    # a lower threshold: 24 is short of 25, 27 reaches it
    ("K8 R8 O8 B1", Rules(meld_threshold=25), 0),
    ("K9 R9 O9 B1", Rules(meld_threshold=25), 3),
    # a joker standing for R12 brings R10 R11 to 33; worth nothing it leaves 21
    ("R10 R11 J", Rules(), 3),
    ("R10 R11 J", Rules(meld_joker="zero"), 0),
    # worth nothing, the joker still joins once real tiles reach the threshold alone
    ("R10 R11 R12 J", Rules(meld_joker="zero"), 4),
    # a higher threshold, as some clubs play: 40 needs both sets
    ("K13 R13 O13 B5 B6 B7", Rules(meld_threshold=40), 6),
    ("K13 R13 O13 B1 B2 B3", Rules(meld_threshold=46), 0),
]


@pytest.mark.parametrize(("rack", "rules", "tiles"), PEER_CASES)
def test_peer_house_rules(rack: str, rules: Rules, tiles: int) -> None:
    move = best_move([["K5", "R5", "O5"]], rack, initial_meld_done=False, rules=rules)
    assert move.tiles == tiles
    assert move.table[0] == best_move([["K5", "R5", "O5"]], "", True).table[0]
    pos = Position.from_strings([["K5", "R5", "O5"]], rack, False)
    assert check_move(pos, move, rules) == []


def test_check_move_uses_the_rules() -> None:
    pos = Position.from_strings([], "R10 R11 J", False)
    move = best_move([], "R10 R11 J", initial_meld_done=False)
    assert check_move(pos, move) == []
    assert check_move(pos, move, Rules(meld_joker="zero")) == ["initial meld worth 21 < 30"]


@pytest.mark.parametrize("bad", ["meld_threshold=-1", "meld_threshold=128", "threshold=5",
                                 "meld_joker=half", "meld_threshold"])
def test_bad_rules_are_named(bad: str) -> None:
    with pytest.raises(RuleError, match="rule"):
        Rules.parse([bad])


def test_rules_must_be_rules() -> None:
    with pytest.raises(RuleError, match="rules must be a Rules"):
        best_move([], "R1 R2 R3", rules={"meld_threshold": 0})


def test_cli_rule_flag(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "pos.json"
    path.write_text(json.dumps({"table": [], "rack": ["R1", "R2", "R3"],
                                "initial_meld_done": False}))
    assert main(["rummikub", "best", str(path), "--json", "--rule", "meld_threshold=0"]) == 0
    assert json.loads(capsys.readouterr().out)["tiles"] == 3
    assert main(["rummikub", "best", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["tiles"] == 0
    assert main(["rummikub", "best", str(path), "--rule", "meld_joker=1"]) != 0
    assert "meld_joker" in capsys.readouterr().err


def test_batch_task_reads_rules(tmp_path: Path) -> None:
    from engines.batch.runner import run_batch
    from engines.batch.store import ResultStore

    first = {"table": [], "rack": ["R1", "R2", "R3", "K9"], "initial_meld_done": False}
    records = [dict(first, id="default"), dict(first, id="open", rules={"meld_threshold": 0}),
               dict(first, id="same", rules={"meld_threshold": 30})]
    path = tmp_path / "p.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    with ResultStore(tmp_path / "r.sqlite") as store:
        summary = run_batch([str(path)], "rummikub-best", store, jobs=1, progress=False)
        tiles = {r["position_id"]: r["result"]["tiles"] for r in store.rows("rummikub-best")}
    # explicit default rules are the same payload as none
    assert summary.duplicates == 1
    assert tiles == {"default": 0, "open": 3}
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(dict(first, rules={"meld_threshold": "x"})) + "\n")
    with ResultStore(tmp_path / "b.sqlite") as store:
        summary = run_batch([str(bad)], "rummikub-best", store, jobs=1, progress=False)
    assert summary.computed == 0


def test_meld_threshold_agrees_with_rummikub_solver() -> None:
    """The reference ``rummikub-solver`` (bench extra) as an oracle for ``meld_threshold``.

    Its initial mode maximises the non-joker tiles of new sets worth at least the
    threshold; it skips the threshold when one tile alone reaches it and continues onto a
    non-empty table, so the shared ground is an empty table, thresholds above 13 and racks
    without jokers, where both answer the same question.
    """
    rummikub_solver = pytest.importorskip("rummikub_solver")
    import random

    ids = {f"{c}{n}": "KBOR".index(c) * 13 + n for c in "KROB" for n in range(1, 14)}
    pool = sorted(ids) * 2
    rng = random.Random(3)
    answers = []
    for threshold in (14, 30, 50):
        ruleset = rummikub_solver.RuleSet(min_initial_value=threshold,
                                          solver_backend=rummikub_solver.MILPSolver.HIGHS)
        for _ in range(8):
            rack = rng.sample(pool, rng.randint(8, 14))
            state = ruleset.new_game()
            state.add_rack(*(ids[t] for t in rack))
            solution = ruleset.solve(state, rummikub_solver.SolverMode.INITIAL)
            theirs = 0 if solution is None else len(solution.tiles)
            move = best_move([], rack, initial_meld_done=False,
                             rules=Rules(meld_threshold=threshold))
            assert move.tiles == theirs, (threshold, rack)
            answers.append(theirs)
    assert len(set(answers)) >= 3  # the positions are not all passes or all the same


BEYOND_THE_KEY = [("min_set_length", 14)]


@pytest.mark.parametrize(("name", "value"), BEYOND_THE_KEY)
def test_tile_sets_beyond_the_dp_are_refused(name: str, value: object) -> None:
    # Tile sets larger than the DP's state key holds are refused by name and limit.
    rules = Rules(**{name: value})
    message = rf"rule {name}={value} is beyond the tile sets the exact search's state key"
    pos = Position.from_strings([["R3", "R4", "R5"]], "R6 K9", initial_meld_done=True)
    with pytest.raises(RuleError, match=message):
        best_move([["R3", "R4", "R5"]], "R6", rules=rules)
    with pytest.raises(RuleError, match=r"colours 1\.\.8, numbers 1\.\.26"):
        best_moves([pos], rules=rules)
    with pytest.raises(RuleError, match=f"; {name}: "):  # why the key stops there
        best_moves([pos], rules=rules)


def test_fewest_tiles_moved_is_refused_past_the_rules_documents_sets() -> None:
    # (its pass, solvers/rummikub/_heirs.py, follows the rules document's sets)
    assert Rules(fewest_tiles_moved=True).unsupported() == []
    rules = Rules(least_disturbance=True, fewest_tiles_moved=True, copies=3)
    with pytest.raises(RuleError, match="fewest_tiles_moved=true with copies=3 is not "
                                        "supported"):
        best_move([], "R1 R2 R3", rules=rules)
    assert rules.unsupported() == ["fewest_tiles_moved=true with copies=3"]


def test_cli_refuses_unsupported_rules(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "pos.json"
    path.write_text(json.dumps({"table": [["R3", "R4", "R5", "J"]], "rack": ["K11", "K12"]}))
    # meld then continue with least disturbance is solved (melded here: K11 K12 take the J)
    assert main(["rummikub", "best", str(path), "--json", "--rule", "meld_continue=on",
                 "--rule", "least_disturbance=on"]) == 0
    assert json.loads(capsys.readouterr().out)["tiles"] == 2
    # meld then continue is solved: K10 R10 B10 meld, then O11 onto the table
    first = tmp_path / "first.json"
    first.write_text(json.dumps({"table": [["O8", "O9", "O10"]], "initial_meld_done": False,
                                 "rack": ["K10", "R10", "B10", "O11"]}))
    assert main(["rummikub", "best", str(first), "--json", "--rule", "meld_continue=on"]) == 0
    assert json.loads(capsys.readouterr().out)["tiles"] == 4
    # official retrieval is solved: the joker (R6) stays, K11 K12 cannot take it
    assert main(["rummikub", "best", str(path), "--json", "--rule",
                 "joker_retrieval=official"]) == 0
    assert json.loads(capsys.readouterr().out)["tiles"] == 0
    # a bad rule is named before the file is read
    assert main(["rummikub", "best", "missing.json", "--rule", "min_set_length=14"]) != 0
    assert "min_set_length=14 is beyond the tile sets" in capsys.readouterr().err


def test_cli_and_batch_solve_longer_sets(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    # sets of 4 tiles at least: R7 extends the table's run, K1 K2 K3 is too short
    path = tmp_path / "pos.json"
    position = {"table": [["R3", "R4", "R5", "R6"]], "rack": ["R7", "K1", "K2", "K3"]}
    path.write_text(json.dumps(position))
    assert main(["rummikub", "best", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["tiles"] == 4
    assert main(["rummikub", "best", str(path), "--json", "--rule", "min_set_length=4"]) == 0
    assert json.loads(capsys.readouterr().out)["tiles"] == 1
    records = [dict(position, id="three"), dict(position, id="four",
                                                rules={"min_set_length": 4}),
               dict(position, id="five", rules={"min_set_length": 5},
                    table=[["R2", "R3", "R4", "R5", "R6"]]),
               dict(position, id="short", rules={"min_set_length": 5},
                    table=[["K7", "K8", "K9", "K10"]])]
    tiles, summary, bad = run_best_batch(tmp_path, records)
    assert tiles == {"three": 4, "four": 1, "five": 1}
    assert summary.rejected == 1 and "fewer than 5 tiles" in str(bad[0])


def test_cli_and_batch_solve_sets_of_six_and_more(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    # sets of 6 tiles at least: R7 extends the table's run of six, K1..K5 is too short; with
    # sets of 8, a run of six on the table is refused by name
    position = {"table": [["R1", "R2", "R3", "R4", "R5", "R6"]],
                "rack": ["R7", "K1", "K2", "K3", "K4", "K5"]}
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(position))
    assert main(["rummikub", "best", str(path), "--json", "--rule", "min_set_length=6"]) == 0
    assert json.loads(capsys.readouterr().out)["tiles"] == 1
    assert main(["rummikub", "best", str(path), "--json", "--rule", "min_set_length=14"]) != 0
    assert "min_set_length=14 is beyond the tile sets" in capsys.readouterr().err
    # sets of 13 (two key words a state) and two real tiles per set with sets of 6
    thirteen = {"table": [], "rack": [*(f"O{n}" for n in range(1, 13)), "J", "K1"]}
    path.write_text(json.dumps(thirteen))
    assert main(["rummikub", "best", str(path), "--json", "--rule", "min_set_length=13"]) == 0
    assert json.loads(capsys.readouterr().out)["tiles"] == 13
    assert main(["rummikub", "best", str(path), "--json", "--rule", "min_set_length=6",
                 "--rule", "min_real_tiles=2"]) == 0
    assert json.loads(capsys.readouterr().out)["tiles"] == 13
    records = [dict(position, id="three"), dict(position, id="six",
                                                rules={"min_set_length": 6}),
               dict(position, id="eight", rules={"min_set_length": 8},
                    table=[["R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8"]],
                    rack=["R9", "K1", "K2", "K3", "K4", "K5", "J"]),
               dict(position, id="short", rules={"min_set_length": 8}),
               dict(thirteen, id="thirteen", rules={"min_set_length": 13}),
               dict(position, id="six-real2", rules={"min_set_length": 6, "min_real_tiles": 2},
                    rack=["R7", "J", "K1", "K2", "K3", "K4", "K5"])]
    tiles, summary, bad = run_best_batch(tmp_path, records)
    # R9 and a joker extend the run; under two real tiles K1..K5 and the joker make a run
    assert tiles == {"three": 6, "six": 1, "eight": 2, "thirteen": 13, "six-real2": 7}
    assert summary.rejected == 1 and "fewer than 8 tiles" in str(bad[0])


def test_cli_and_batch_solve_sets_of_two(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    # sets of 2 tiles at least: the table's pair R5 R6 and the rack's K9 B9
    position = {"table": [["R5", "R6"], ["O1", "O2", "O3"]], "rack": ["R7", "K9", "B9", "J"]}
    cli_refuses_then_solves(tmp_path, capsys, position, "at least 3 tiles", "min_set_length=2", 4)
    records = [dict(position, id="two", rules={"min_set_length": 2}),
               dict(position, id="three", table=[["O1", "O2", "O3"]]),
               dict(position, id="short")]
    tiles, summary, bad = run_best_batch(tmp_path, records)
    assert tiles == {"two": 4, "three": 3}
    assert summary.rejected == 1 and "at least 3 tiles" in str(bad[0])


def test_cli_and_batch_solve_three_jokers(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    # a third joker: refused by the rules document, solved under jokers=3
    position = {"table": [["O1", "O2", "O3"]], "rack": ["R7", "K9", "J", "J", "J"]}
    cli_refuses_then_solves(tmp_path, capsys, position, "3 jokers", "jokers=3", 4)  # K9 J J J
    records = [dict(position, id="three", rules={"jokers": 3}),
               dict(position, id="two", rack=["R7", "K9", "J", "J"]),
               dict(position, id="refused")]
    tiles, summary, bad = run_best_batch(tmp_path, records)
    assert tiles == {"three": 4, "two": 3}
    assert summary.rejected == 1 and "3 jokers" in str(bad[0])


def test_cli_and_batch_solve_three_jokers_with_two_real_tiles(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # two real tiles per set with a third joker: R5 J J J is no set there, R1 J J J R5 is
    path = tmp_path / "pos.json"
    path.write_text(json.dumps({"table": [], "rack": ["R5", "J", "J", "J"]}))
    for rules, tiles in ((["jokers=3", "min_real_tiles=2"], 0), (["jokers=3"], 4)):
        assert main(["rummikub", "best", str(path), "--json",
                     *(word for rule in rules for word in ("--rule", rule))]) == 0
        assert json.loads(capsys.readouterr().out)["tiles"] == tiles
    both = {"jokers": 3, "min_real_tiles": 2}
    records = [{"id": "five", "table": [], "rack": ["R1", "R5", "J", "J", "J"], "rules": both},
               {"id": "none", "table": [], "rack": ["R5", "J", "J", "J"], "rules": both},
               {"id": "one", "table": [], "rack": ["R5", "J", "J", "J"], "rules": {"jokers": 3}},
               {"id": "four", "table": [], "rack": ["R12", "R13", "J", "J", "J", "J"],
                "rules": {"jokers": 4, "min_real_tiles": 2}},
               {"id": "refused", "table": [], "rack": ["R5", "J", "J", "J", "J"],
                "rules": {"jokers": 4, "min_real_tiles": 2, "copies": 4}}]
    tiles, summary, bad = run_best_batch(tmp_path, records)
    assert tiles == {"five": 5, "none": 0, "one": 4, "four": 6}
    assert summary.rejected == 1 and "jokers=4 with copies=4" in str(bad[0])


@pytest.mark.parametrize("copies", [3, 4])
def test_cli_and_batch_solve_more_copies(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                         copies: int) -> None:
    # a third / fourth copy: refused by the rules document, solved under copies=3 / 4
    position = {"table": [["R5", "R6", "R7"]] * (copies - 1), "rack": ["R5", "R6", "R7"]}
    cli_refuses_then_solves(tmp_path, capsys, position, f"{copies} copies", f"copies={copies}",
                            3)
    records = [dict(position, id="more", rules={"copies": copies}),
               dict(position, id="refused")]
    tiles, summary, bad = run_best_batch(tmp_path, records)
    assert tiles == {"more": 3}
    assert summary.rejected == 1 and f"{copies} copies" in str(bad[0])


def test_cli_and_batch_solve_wide_tile_sets(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    # colours past 4 and numbers past 13 (the width-generic DP): G4 and K14 are read only
    # under rules whose tile set holds them
    position = {"table": [["G4", "G5", "G6"]], "rack": ["G7", "Y13", "K13", "R13"]}
    cli_refuses_then_solves(tmp_path, capsys, position, "unknown tile", "colours=6", 4)
    cli_refuses_then_solves(tmp_path, capsys, {"table": [["K14", "K15", "K16"]],
                                               "rack": ["K17", "K13"]},
                            "unknown tile", "numbers=17", 2)
    records = [dict(position, id="wide", rules={"colours": 6}),
               dict(position, id="narrow", rules={"colours": 5}),
               dict(position, id="refused")]
    tiles, summary, bad = run_best_batch(tmp_path, records)
    assert tiles == {"wide": 4}
    assert summary.rejected == 2 and "not in the tile set" in str(bad[0])


def cli_refuses_then_solves(tmp_path: Path, capsys: pytest.CaptureFixture[str], position: dict,
                            refusal: str, rule: str, tiles: int) -> None:
    """``qipai rummikub best`` refuses ``position`` under the rules document (naming
    ``refusal``) and plays ``tiles`` tiles with ``--rule rule``."""
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(position))
    assert main(["rummikub", "best", str(path), "--json"]) != 0
    assert refusal in capsys.readouterr().err
    assert main(["rummikub", "best", str(path), "--json", "--rule", rule]) == 0
    assert json.loads(capsys.readouterr().out)["tiles"] == tiles


def run_best_batch(tmp_path: Path, records: list[dict]) -> tuple[dict, object, list]:
    """``rummikub-best`` over ``records``: (tiles by id, summary, the rejected inputs)."""
    from engines.batch.runner import run_batch
    from engines.batch.store import ResultStore

    path = tmp_path / "p.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    bad: list[object] = []
    with ResultStore(tmp_path / "r.sqlite") as store:
        summary = run_batch([str(path)], "rummikub-best", store, jobs=1, progress=False,
                            on_bad_input=bad.append)
        tiles = {r["position_id"]: r["result"]["tiles"] for r in store.rows("rummikub-best")}
    return tiles, summary, bad


def test_batch_task_refuses_unsupported_rules(tmp_path: Path) -> None:
    base = {"table": [["R3", "R4", "R5", "J"]], "rack": ["K11", "K12"],
            "initial_meld_done": True}
    records = [dict(base, id="free"), dict(base, id="official",
                                           rules={"joker_retrieval": "official"}),
               dict(base, id="continue",
                    rules={"meld_continue": True, "least_disturbance": True}),
               dict(base, id="first", table=[["O8", "O9", "O10"]], initial_meld_done=False,
                    rack=["K10", "R10", "B10", "O11"], rules={"meld_continue": True}),
               dict(base, id="fewest", rules={"fewest_tiles_moved": True}),
               dict(base, id="fewest copies=3",
                    rules={"fewest_tiles_moved": True, "copies": 3})]
    tiles, summary, bad = run_best_batch(tmp_path, records)
    assert tiles == {"free": 2, "official": 0, "continue": 2, "first": 4, "fewest": 2}
    assert summary.rejected == 1
    assert "fewest_tiles_moved=true with copies=3 is not supported" in str(bad[0])


def test_batch_task_solves_the_dp_house_rules(tmp_path: Path) -> None:
    base = {"table": [], "rack": ["R5", "J", "J", "K9"], "initial_meld_done": True}
    records = [dict(base, id="free"), dict(base, id="two", rules={"min_real_tiles": 2}),
               dict(base, id="small", rules={"colours": 3, "numbers": 9}),
               dict(base, id="bad", rules={"min_real_tiles": 2},
                    table=[["K7", "J", "J"]], rack=["R2"]),
               dict(base, id="tile", rules={"numbers": 8})]
    tiles, summary, bad = run_best_batch(tmp_path, records)
    assert tiles == {"free": 3, "two": 0, "small": 3}
    assert summary.rejected == 2
    assert "table set 1 [K7 J J]" in str(bad[0]) and "K9" in str(bad[1])


def test_cli_and_batch_solve_crossings_by_the_wide_dp(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    # a third copy with sets of 4: past the fast kernels' key, solved by the width-generic
    # DP (Rules.wide_search); with two real tiles per set and three jokers neither DP solves
    # it (with two, two real tiles bind no set of 4: solved as one, Rules.solved_as)
    position = {"table": [["R1", "R2", "R3", "R4"]], "rack": ["R1", "R2", "R3", "R4", "R1",
                                                            "R2", "R3", "R4", "K9"]}
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(position))
    assert main(["rummikub", "best", str(path), "--json", "--rule", "copies=3",
                 "--rule", "min_set_length=4"]) == 0
    assert json.loads(capsys.readouterr().out)["tiles"] == 8
    records = [dict(position, id="routed", rules={"copies": 3, "min_set_length": 4}),
               dict(position, id="unbound", rules={"copies": 3, "min_set_length": 4,
                                                   "min_real_tiles": 2}),
               dict(position, id="refused", rules={"copies": 3, "min_set_length": 4,
                                                   "min_real_tiles": 2, "jokers": 3})]
    tiles, summary, bad = run_best_batch(tmp_path, records)
    assert tiles == {"routed": 8, "unbound": 8}
    assert summary.rejected == 1 and "copies=3 with min_real_tiles=2" in str(bad[0])
