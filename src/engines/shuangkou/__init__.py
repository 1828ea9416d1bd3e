"""双扣 (Shuangkou): cards, rules, rounds, players and the exact end-game solver.

Modules: :mod:`~engines.shuangkou.cards` (card text and count arrays, named
errors), :mod:`~engines.shuangkou.rules` (``classify``, ``beats``,
``legal_plays``, ``legal_responses_count``, ``trick_next``, ``round_result``,
``Policy``), :mod:`~engines.shuangkou.arrays` (array-in, array-out forms),
:mod:`~engines.shuangkou.game` and :mod:`~engines.shuangkou.players` (rounds
and matches), :mod:`~engines.shuangkou.endgame` (exact solver),
:mod:`~engines.shuangkou.verify` (the section 12 case format).

Names are imported lazily so that ``qipai --help`` does not load Numba.
The rules are ``docs/rules/shuangkou.md``; "section N" anywhere in this
package (and in :mod:`solvers.shuangkou`) is a section of that document.

Example:
    >>> from engines.shuangkou import classify
    >>> classify("S3 H3 S4 D4 C5 C5")
    Combination(type='consecutive_pairs', rank='5', length=6)
"""

from __future__ import annotations

from engines.lazy import lazy_exports

_EXPORTS = {
    "Card": "cards",
    "ShuangkouInputError": "errors",
    "CardTextError": "errors",
    "ThirdCopyError": "errors",
    "FifthJokerError": "errors",
    "DealError": "errors",
    "parse_cards": "cards",
    "card_names": "cards",
    "format_cards": "cards",
    "Policy": "rules",
    "StraightFlushPolicy": "rules",
    "NotACombinationError": "errors",
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
    "IllegalPlayError": "errors",
    "SearchLimitError": "errors",
    "play_round": "game",
    "play_match": "game",
    "RandomPlayer": "players",
    "HeuristicPlayer": "players",
    "EndgameResult": "endgame",
    "solve_endgame": "endgame",
    "classify_many": "arrays",
    "beats_many": "arrays",
    "count_plays_many": "arrays",
    "enumerate_plays_many": "arrays",
    "trick_next_many": "arrays",
}

__all__ = [*sorted(_EXPORTS), "warmup"]


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)


def warmup() -> None:
    """Load (or compile, on first use) every kernel, so later calls pay no JIT time."""
    from engines.shuangkou import arrays, endgame, game, rules

    hand = "S3 H3 D3 S4 S5 S6 S7 HA S8 S8 H8 LJ LJ BJ BJ"
    rules.classify(hand)
    rules.beats("S4", "H3")
    view = rules.legal_plays(hand, "C10")
    view.count()
    view.by_type()
    list(view)
    rules.trick_next([0, 1, 2, 3], 0, [1])
    arrays.warmup()
    endgame.solve_endgame(game.Round([["S3", "S4"], ["H9"], ["SQ"], ["S8"]], leader=0), tt_bits=10)
