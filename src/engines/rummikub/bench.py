"""The Rummikub solvers of ``qipai bench``: our best move against rummikub-solver
(HiGHS), registered in :mod:`engines.rummikub.tasks`."""

from __future__ import annotations

from typing import Any

from engines.batch.bench import Solver, load_positions


def rummikub_load(path: str | None, count: int, seed: int) -> list[dict[str, Any]]:
    from engines.rummikub.generate import rummikub_positions

    if path:
        return load_positions(path)
    return list(rummikub_positions(count, seed, table_tiles=(0, 24), rack_size=(5, 14)))


def rummikub_ours() -> Solver:
    from engines.rummikub import Position, best_moves

    return Solver(
        "qipai best_moves (tiles, 1 thread)",
        Position.from_json,
        lambda pos: best_moves([pos], objective="tiles", threads=1)[0],
        lambda move: int(move.tiles),
    )


def rummikub_reference() -> Solver:
    from rummikub_solver import MILPSolver, RuleSet

    backend = MILPSolver.HIGHS if MILPSolver.HIGHS in MILPSolver.supported() else None
    rules = RuleSet(solver_backend=backend)
    # rummikub-solver numbers tiles colour-major in the order black, blue, orange, red.
    colour_index = {"K": 0, "B": 1, "O": 2, "R": 3}
    joker = rules.tiles[-1]

    def tile(text: str) -> Any:
        if text == "J":
            return joker
        return rules.tiles[13 * colour_index[text[0]] + int(text[1:]) - 1]

    def prepare(obj: dict[str, Any]) -> Any:
        state = rules.new_game()
        state.add_table(*(tile(t) for s in obj.get("table", []) for t in s))
        state.add_rack(*(tile(t) for t in obj.get("rack", [])))
        state.initial = not obj.get("initial_meld_done", True)
        return state

    def answer(solution: Any) -> int:
        return 0 if solution is None else len(solution.tiles)

    name = f"rummikub-solver {rules.backend.value if rules.backend else ''} (RuleSet.solve)"
    return Solver(name.replace(" )", ")"), prepare, rules.solve, answer)
