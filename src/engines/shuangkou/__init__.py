"""双扣 (Shuangkou): cards, rules, rounds, players and the exact end-game solver.

Modules: :mod:`~engines.shuangkou.cards` (card text and count arrays, named
errors), :mod:`~engines.shuangkou.rules` (``classify``, ``beats``,
``legal_plays``, ``legal_responses_count``, ``trick_next``, ``round_result``,
``Policy``), :mod:`~engines.shuangkou.batch` (array-in, array-out forms),
:mod:`~engines.shuangkou.game` and :mod:`~engines.shuangkou.players` (rounds
and matches), :mod:`~engines.shuangkou.endgame` (exact solver),
:mod:`~engines.shuangkou.conformance` (the section 12 case format).

Names are imported lazily so that ``qipai --help`` does not load Numba.
The rules are ``docs/rules/shuangkou.md``; "section N" anywhere in this
package (and in :mod:`solvers.shuangkou`) is a section of that document.

Example:
    >>> from engines.shuangkou import classify
    >>> classify("S3 H3 S4 D4 C5 C5")
    Combination(type='consecutive_pairs', rank='5', length=6)
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "Card": "cards",
    "ShuangkouInputError": "cards",
    "CardTextError": "cards",
    "ThirdCopyError": "cards",
    "FifthJokerError": "cards",
    "DealError": "cards",
    "parse_cards": "cards",
    "card_names": "cards",
    "format_cards": "cards",
    "Policy": "rules",
    "StraightFlushPolicy": "rules",
    "NotACombinationError": "rules",
    "Combination": "rules",
    "LegalPlays": "rules",
    "Turn": "rules",
    "RoundResult": "rules",
    "classify": "rules",
    "beats": "rules",
    "legal_plays": "rules",
    "legal_responses_count": "rules",
    "trick_next": "rules",
    "round_result": "rules",
    "Round": "game",
    "IllegalPlayError": "game",
    "play_round": "game",
    "play_match": "game",
    "RandomPlayer": "players",
    "HeuristicPlayer": "players",
    "EndgameResult": "endgame",
    "solve_endgame": "endgame",
}

__all__ = [*sorted(_EXPORTS), "warmup"]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'engines.shuangkou' has no attribute {name!r}")
    return getattr(importlib.import_module(f"engines.shuangkou.{module}"), name)


def warmup() -> None:
    """Load (or compile, on first use) every kernel, so later calls pay no JIT time."""
    from engines.shuangkou import batch, rules

    hand = "S3 H3 D3 S4 S5 S6 S7 HA S8 S8 H8 LJ LJ BJ BJ"
    rules.classify(hand)
    rules.beats("S4", "H3")
    view = rules.legal_plays(hand, "C10")
    view.count()
    view.by_type()
    list(view)
    rules.trick_next([0, 1, 2, 3], 0, [1])
    batch.warmup()
