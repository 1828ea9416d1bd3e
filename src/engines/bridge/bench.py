"""The bridge solvers of ``qipai bench``: DD tables and opening leads, ours against
endplay/DDS, both on one thread (registered in :mod:`engines.bridge.tasks`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engines.batch.bench import BenchSpec, Solver, load_positions
from engines.errors import InputError

_STRAINS = ("C", "D", "H", "S", "NT")
_SEATS = ("N", "E", "S", "W")


def bridge_load(path: str | None, count: int, seed: int) -> list[dict[str, Any]]:
    from engines.bridge.generate import bridge_deals

    if path:
        return load_positions(path)
    return list(bridge_deals(count, seed))


def _deal_text(obj: dict[str, Any]) -> str:
    text = obj.get("pbn") or obj.get("deal")
    if not isinstance(text, str):
        raise InputError(f"position {obj.get('id', '?')}: no 'pbn' deal string")
    return text


def bridge_ours() -> Solver:
    from engines.bridge import Deal
    from engines.bridge.dd import dd_table

    def solve(deal: Any) -> Any:
        return dd_table(deal).to_dict()

    return Solver("qipai dd_table (1 thread)", lambda o: Deal.from_pbn(_deal_text(o)), solve)


def _forget_dds() -> Callable[[], Any]:
    """Solve a one-card deal: DDS's next call sees a new deal and starts from a cold table."""
    from endplay.dds import solve_board
    from endplay.types import Deal as EDeal
    from endplay.types import Denom, Player

    other = EDeal("N:A... K... Q... J...")
    other.first = Player.north
    other.trump = Denom.nt
    return lambda: solve_board(other)


def bridge_reference() -> Solver:
    from endplay import _dds
    from endplay.dds import calc_dd_table
    from endplay.types import Deal as EDeal

    _dds.SetMaxThreads(1)

    def answer(table: Any) -> dict[str, dict[str, int]]:
        if isinstance(table, dict):
            return table
        rows = table.to_list()  # endplay: [strain][player], strains S H D C NT, players N E S W
        order = {"S": 0, "H": 1, "D": 2, "C": 3, "NT": 4}
        return {s: {p: rows[order[s]][i] for i, p in enumerate(_SEATS)} for s in _STRAINS}

    return Solver(
        "endplay/DDS calc_dd_table (1 thread)",
        lambda o: EDeal(_deal_text(o)),
        calc_dd_table,
        answer,
        forget=_forget_dds(),
    )


def bridge_lead_ours() -> Solver:
    from engines.bridge import Deal
    from engines.bridge.dd import solve_position

    def solve(deal: Any) -> Any:
        return solve_position(deal, "NT", "W")

    def answer(result: Any) -> dict[str, int]:
        # outside the timed region, as the reference's conversion is
        return {str(card): tricks for card, tricks in result.items()}

    return Solver(
        "qipai solve_position (NT, West leads, 1 thread)",
        lambda o: Deal.from_pbn(_deal_text(o)),
        solve,
        answer,
    )


def bridge_lead_reference() -> Solver:
    from endplay import _dds
    from endplay.dds import solve_board
    from endplay.types import Deal as EDeal
    from endplay.types import Denom, Player

    _dds.SetMaxThreads(1)

    def prepare(obj: dict[str, Any]) -> Any:
        deal = EDeal(_deal_text(obj))
        deal.first = Player.west
        deal.trump = Denom.nt
        return deal

    def answer(result: Any) -> dict[str, int]:
        if isinstance(result, dict):
            return result
        return {f"{'SHDC'[int(card.suit)]}{card.rank.abbr}": tricks for card, tricks in result}

    return Solver(
        "endplay/DDS SolveBoard (all cards, 1 thread)",
        prepare,
        lambda deal: list(solve_board(deal)),
        answer,
        forget=_forget_dds(),
    )



def bridge_bench(
    help: str, ours: Callable[[], Solver], reference: Callable[[], Solver]
) -> BenchSpec:
    return BenchSpec(help, 20, bridge_load, ours, reference, "endplay", "endplay/DDS")
