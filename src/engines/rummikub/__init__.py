"""Rummikub: tiles, sets, the exact best move, and full rounds.

>>> from engines.rummikub import best_move
>>> best_move([["K4", "O4", "R4"]], ["B4"]).tiles
1

Names load lazily from their modules (:mod:`engines.lazy`): ``errors``
(every exception), ``tiles`` (Tile, parsing), ``sets`` (runs and groups), ``rules``
(house-rule variants), ``position`` (Position, Move, the single and batch best-move API),
``game`` (full rounds), ``verify`` (reference records).
"""

from __future__ import annotations

from engines.lazy import lazy_exports

_EXPORTS = {
    "Move": "position",
    "Position": "position",
    "PositionError": "errors",
    "RuleError": "errors",
    "Rules": "rules",
    "arrange": "position",
    "best_move": "position",
    "best_moves": "position",
    "check_meld": "sets",
    "check_move": "position",
    "Meld": "sets",
    "SetError": "errors",
    "Slot": "sets",
    "format_meld": "sets",
    "validate_set": "sets",
    "JOKER": "tiles",
    "RummikubInputError": "errors",
    "Tile": "tiles",
    "TileError": "errors",
    "parse_tiles": "tiles",
}

__all__ = [*sorted(_EXPORTS), "warmup"]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)


def warmup(house_rules: bool = True) -> None:
    """Compile (first use after installation) or load every Rummikub kernel the engines
    call, the entry kernels of the default rules' searches included: :func:`best_moves`
    runs its batch kernels (``solve_range``, then least disturbance's ``least_range``) and
    :func:`best_move` its own (``solve_position``; ``least_position`` runs ``least_range``),
    which the kernels' warm-up does not call.  The move R1-R5 breaks the table's only set,
    so least disturbance runs on both paths.  Each entry kernel has two compiled forms
    (:mod:`solvers.rummikub._family`): the default rules', and, where ``house_rules``,
    the one the house rules' wider passes need (meld then continue, four jokers, ...): a
    default-rules user never compiles it.  Every default form is compiled (and cached)
    before the first house-rules one, so that another process may load them minutes before
    this one ends (``./run test`` runs the tests of the default rules then).  Not the
    kernels only tests and benches call (:func:`solvers.rummikub.warmup`'s
    ``engine_only``)."""
    from engines.rummikub.position import Position, best_move, best_moves
    from engines.rummikub.rules import Rules
    from solvers.rummikub import warmup as warm_kernels

    warm_kernels(engine_only=True, house_rules=False)
    table, rack = [["R1", "R2", "R3", "R4"]], ["R5", "B7"]
    best_move(table, rack)
    best_moves([Position.from_strings(table, rack, True)])
    if house_rules:  # (four jokers in play: two key words a state)
        warm_kernels(engine_only=True, house_rules=True)  # (its default calls: compiled above)
        rules, rack = Rules(jokers=4), ["R5", "B7", "J", "J", "J", "J"]
        best_move(table, rack, rules=rules)
        best_moves([Position.from_strings(table, rack, True, **rules.position_limits())],
                   rules=rules)
