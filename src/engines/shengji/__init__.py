"""升级 (Shengji / Tractor): rules API, batch API, game engine and players.

Modules: :mod:`~engines.shengji.cards` (card text and count vectors),
:mod:`~engines.shengji.rules` (``TrumpContext``, ``is_tractor``, ``decompose``,
``is_legal_follow``, ``legal_follows``, ``check_throw``, ``trick_winner``,
``score_round``, ``resolve_bids`` and the policy enums),
:mod:`~engines.shengji.arrays` (array-in, array-out forms),
:mod:`~engines.shengji.game` and :mod:`~engines.shengji.players` (rounds and
matches), :mod:`~engines.shengji.verify` (the section 15 case format).

Names load lazily (:mod:`engines.lazy`) so that ``qipai --help`` does not load Numba.
The rules are ``docs/rules/shengji.md``; "section N" anywhere in this package
(and in :mod:`solvers.shengji`) is a section of that document.

Example:
    >>> from engines.shengji import TrumpContext, is_tractor
    >>> is_tractor("S10 S10 H10 H10", TrumpContext("10", "S"))
    True
"""

from __future__ import annotations

from engines.lazy import lazy_exports

_EXPORTS = {
    "TrumpContext": "rules",
    "Policies": "policies",
    "ThrowWinnerPolicy": "policies",
    "BottomPolicy": "policies",
    "ThrowPenalty": "policies",
    "IllegalPlayError": "errors",
    "is_tractor": "rules",
    "decompose": "rules",
    "shape": "rules",
    "is_legal_follow": "rules",
    "validate_follow": "rules",
    "legal_follows": "rules",
    "check_throw": "rules",
    "trick_winner": "rules",
    "trick_points": "rules",
    "bottom_multiplier": "rules",
    "score_round": "rules",
    "resolve_bids": "bidding",
    "ShengjiInputError": "errors",
    "CardError": "errors",
    "parse_cards": "cards",
    "Round": "game",
    "play_match": "game",
    "RandomPlayer": "players",
    "HeuristicPlayer": "players",
}

__all__ = [*sorted(_EXPORTS), "warmup"]


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)


def warmup() -> None:
    """Load (or compile, on first use) every kernel, so later calls pay no JIT time."""
    from engines.shengji import arrays, rules

    ctx = rules.TrumpContext("10", "H")
    hand, lead = "S4 S5 S5 S6 S6 D5", "S9 S9 S8 S8"
    trick = [lead, "S5 S5 S6 S6", "H2 H2 H3 H3", "C2 C3 C4 C5"]
    rules.is_tractor(lead, ctx)
    rules.decompose(lead, ctx)
    rules.legal_follows(hand, lead, ctx).count()
    list(rules.legal_follows(hand, lead, ctx))
    rules.check_throw("SA SK SK", ["S2", "S3", "S4"], ctx)
    rules.trick_winner(trick, ctx)
    rules.bottom_multiplier(lead, ctx)
    rules.is_legal_follow(hand, lead, "S5 S5 S6 S6", ctx)
    # the batch calls' serial kernels (one thread, or under 256 rows: what the batch
    # runner's chunks call) and their parallel ones
    for rows, threads in ((1, 1), (300, 2)):
        arrays.are_legal_follows([hand] * rows, [lead] * rows, ["S5 S5 S6 S6"] * rows, ctx,
                                 threads=threads)
        arrays.trick_winners([trick] * rows, ctx, threads=threads)
    arrays.count_legal_follows([hand], [lead], ctx)
    arrays.legal_follows_batch([hand], [lead], ctx)
    arrays.check_throws(["SA SK SK"], [["S2", "S3", "S4"]], ctx)
    arrays.are_tractors([lead], ctx)
    arrays.decompose_many([lead], [ctx])
    arrays.realise_shapes([lead], ["S"], [(2, 2)], [ctx])
    arrays.bottom_multipliers([lead], [ctx])
    arrays.trick_points_batch([lead])
