"""``verify``: the conformance case format of the event rules (JSON Lines, section 15).

:func:`compute` turns one case's inputs into the ``expected`` object we
compute; :func:`record_mismatches` compares it with the case under the rules of
the format: integers exactly, other numbers within 1e-6 (we compare our exact
values, not rounded ones), ``null`` as null, keys exactly, lists in order.

>>> case = {"id": "EX01", "kind": "datum", "scores": [420, -50],
...         "expected": {"datum": 190, "imps": [6, -6]}}
>>> record_mismatches(case)
[]
>>> [str(m) for m in record_mismatches({**case, "expected": {"datum": 180, "imps": [6, -6]}})]
['MISMATCH EX01 datum: expected 180, got 190']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any, TextIO

from engines.events import awards, pairs, rate, scoring, swiss, teams, tiedian
from engines.events.common import exact
from engines.events.errors import EventInputError
from engines.events.files import parse_event, parse_players, parse_week_boards
from engines.verify import Mismatch, VerifyReport, verify_each

__all__ = ["KINDS", "case_mismatches", "compute", "record_mismatches", "verify_file"]

TOLERANCE = Fraction(1, 10**6)


def _field(case: Mapping[str, Any], name: str) -> Any:
    if name not in case:
        raise EventInputError(f"case {case.get('id', '?')}: missing field {name!r}")
    return case[name]


def _datum(case: Mapping[str, Any]) -> dict[str, Any]:
    centre, values = scoring.datum_imps(_field(case, "scores"))
    return {"datum": centre, "imps": values}


def _stream(case: Mapping[str, Any]) -> dict[str, Any]:
    params = case.get("params") or {}
    board = scoring.stream_board(
        _field(case, "scores"), params.get("min_results", 6), params.get("max_results", 40)
    )
    return {"imps": board.imps, "datum": board.datums}


def _players_out(figures: Mapping[str, rate.PlayerWeek]) -> dict[str, Any]:
    return {"players": {name: f.to_dict(places=None) for name, f in figures.items()}}


def _rate_week(case: Mapping[str, Any]) -> dict[str, Any]:
    cid = str(case.get("id", "case"))
    params = rate.RateParams.from_dict(case.get("params"), f"{cid}: params")
    players = parse_players(case.get("players") or {}, cid)
    boards = parse_week_boards(_field(case, "boards"), cid, params.max_results)
    return _players_out(rate.rate_week(players, boards, params))


def _rate_weeks(case: Mapping[str, Any]) -> dict[str, Any]:
    cid = str(case.get("id", "case"))
    params = rate.RateParams.from_dict(case.get("params"), f"{cid}: params")
    players = parse_players(case.get("players") or {}, cid)
    weeks = [parse_week_boards(w, cid, params.max_results) for w in _field(case, "weeks")]
    return _players_out(rate.rate_weeks(players, weeks, params))


def _tiedian(case: Mapping[str, Any]) -> dict[str, Any]:
    table = tiedian.check_table(_field(case, "table"))
    boards = []
    for item in _field(case, "boards"):
        hcp = item["ns_hcp"] if "ns_hcp" in item else tiedian.deal_hcp(item["deal"])
        boards.append(
            tiedian.TiedianBoard(
                item["ns_score"], hcp, item.get("side", "NS"), bool(item.get("disconnect"))
            )
        )
    results, total = tiedian.tiedian_session(boards, table, case.get("disconnect_points", 20))
    return {"results": results, "total": total}


def _team_match(case: Mapping[str, Any]) -> dict[str, Any]:
    boards = [(b["open"], b["closed"]) for b in _field(case, "boards")]
    return teams.team_match(boards).to_dict()


def _ladder(case: Mapping[str, Any]) -> dict[str, Any]:
    ops: list[teams.Challenge | teams.Join] = []
    for op in _field(case, "ops"):
        if op.get("op") == "join":
            ops.append(teams.Join(op["team"]))
        elif op.get("op") == "challenge":
            ops.append(
                teams.Challenge(op["challenger"], op["challenged"], op["boards"], op["margin"])
            )
        else:
            raise EventInputError(f"case {case.get('id')}: unknown ladder op {op.get('op')!r}")
    result = teams.ladder(_field(case, "teams"), ops, case.get("reach", 3))
    return {"order": result.order, "log": result.log}


def _pairs_event(case: Mapping[str, Any]) -> dict[str, Any]:
    event = parse_event(_field(case, "event"), str(case.get("id")), require_format=False)
    result = pairs.pairs_event(event)
    ranking = {
        side: [row.to_dict(places=None) for row in rows] for side, rows in result.ranking.items()
    }
    return {"result_scores": result.values, "ranking": ranking}


def _registration(case: Mapping[str, Any]) -> dict[str, Any]:
    result = swiss.register(_field(case, "attempts"))
    return {
        "accepted": result.accepted,
        "pairs": [{"id": p.id, "players": list(p.players)} for p in result.pairs],
    }


def _pairing(case: Mapping[str, Any]) -> dict[str, Any]:
    standings = [
        swiss.Standing(s["pair"], exact(s["score"]), s["boards"], s.get("byes", 0))
        for s in _field(case, "standings")
    ]
    result = swiss.pair_round(standings, case.get("history") or [])
    return {
        "order": result.order,
        "tables": [list(t) for t in result.tables],
        "bye": result.bye,
        "rematches": result.rematches,
    }


def _ranking_rows(rows: list[pairs.RankRow]) -> list[dict[str, Any]]:
    return [row.to_dict(places=None) for row in rows]


def _swiss_ranking(case: Mapping[str, Any]) -> dict[str, Any]:
    event = parse_event(_field(case, "event"), str(case.get("id")), require_format=False)
    return {"ranking": _ranking_rows(swiss.swiss_ranking(event))}


def _swiss_event(case: Mapping[str, Any]) -> dict[str, Any]:
    rounds = [
        swiss.SwissRound(r["boards"], r["results"], r.get("withdraw") or [])
        for r in _field(case, "rounds")
    ]
    run = swiss.run_event(
        _field(case, "pairs"),
        _field(case, "method"),
        rounds,
        case.get("completion", Fraction(7, 10)),
    )
    return {
        "rounds": [
            {"tables": [list(t) for t in p.tables], "bye": p.bye, "rematches": p.rematches}
            for p in run.rounds
        ],
        "ranking": _ranking_rows(run.ranking),
    }


def _masterpoints(case: Mapping[str, Any]) -> dict[str, Any]:
    return {"awards": awards.masterpoints(_field(case, "completed"))}


def _grade(case: Mapping[str, Any]) -> dict[str, Any]:
    level, name = awards.grade(_field(case, "masterpoints"), case.get("thresholds"))
    return {"grade": level, "name": name}


KINDS: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {
    "datum": _datum,
    "stream_board": _stream,
    "rate_week": _rate_week,
    "rate_weeks": _rate_weeks,
    "tiedian": _tiedian,
    "team_match": _team_match,
    "ladder": _ladder,
    "pairs_event": _pairs_event,
    "swiss_registration": _registration,
    "swiss_pairing": _pairing,
    "swiss_ranking": _swiss_ranking,
    "swiss_event": _swiss_event,
    "masterpoints": _masterpoints,
    "grade": _grade,
}


def compute(case: Mapping[str, Any]) -> dict[str, Any]:
    """Our answer to one case (exact numbers: ints and Fractions, floats only for VPs)."""
    kind = case.get("kind")
    if kind not in KINDS:
        raise EventInputError(f"case {case.get('id', '?')}: unknown kind {kind!r}")
    try:
        return KINDS[kind](case)
    except (KeyError, TypeError, AttributeError) as exc:
        raise EventInputError(
            f"case {case.get('id', '?')}: malformed {kind} inputs ({exc!r})"
        ) from exc


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float | Fraction) and not isinstance(value, bool)


def _diff(path: str, want: Any, got: Any, out: list[tuple[str, Any, Any]]) -> None:
    if _is_number(want) and _is_number(got):
        exact_match = got == want if isinstance(want, int) else None
        if exact_match is False or (
            exact_match is None and abs(exact(got) - exact(want)) > TOLERANCE
        ):
            out.append((path, want, got))
    elif isinstance(want, dict) and isinstance(got, dict):
        for key in sorted(set(want) | set(got), key=str):
            _diff(
                f"{path}.{key}" if path else str(key),
                want.get(key, "<absent>"),
                got.get(key, "<absent>"),
                out,
            )
    elif isinstance(want, list) and isinstance(got, list):
        if len(want) != len(got):
            out.append((f"{path}.length", len(want), len(got)))
        for i, (w, g) in enumerate(zip(want, got)):
            _diff(f"{path}[{i}]", w, g, out)
    elif want != got or type(want) is not type(got):
        out.append((path, want, got))


def _plain(value: Any) -> Any:
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else round(float(value), 6)
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def record_mismatches(case: Mapping[str, Any]) -> list[Mismatch]:
    """Every field where our answer differs from the case's ``expected``."""
    if not isinstance(case, Mapping):
        raise EventInputError(f"a case must be a JSON object, got {case!r}"[:300])
    case_id = str(case.get("id", "?"))
    got = compute(case)
    found: list[tuple[str, Any, Any]] = []
    _diff("", _field(case, "expected"), got, found)
    return [Mismatch(case_id, path, want, _plain(value)) for path, want, value in found]


case_mismatches = record_mismatches


def verify_file(
    path: str | Path, *, threads: int | None = None, out: TextIO | None = None
) -> VerifyReport:
    """Check every case of a JSON Lines file, printing differences and the summary line.

    ``threads`` is accepted for the common ``verify`` signature; the event rules
    need no solver threads.  A malformed case raises :class:`EventInputError`
    naming the file and line.
    """
    return verify_each(path, record_mismatches, EventInputError, out=out)
