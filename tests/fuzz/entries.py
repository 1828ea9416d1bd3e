"""The public entry points the fuzz suite calls, each with a Hypothesis strategy for its
arguments.

Arguments are drawn per parameter name: near-valid game text (card, tile and
deal strings with one thing wrong), valid values now and then (so the native
code runs, on small positions to stay fast), and junk of every type (None,
bools, huge and negative integers, NaN, text, nested lists, NumPy arrays of
odd shapes and dtypes).  An entry fails when a call crashes the process or
raises anything but an :class:`~engines.errors.InputError`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import public_calls
from hypothesis import strategies as st

import engines.bridge as bridge
import engines.rummikub as rummikub
import engines.shengji as shengji
import engines.shuangkou as shuangkou
from engines.bridge import lin, pbn
from engines.shengji import arrays as shengji_arrays

# -- junk of every type ----------------------------------------------------------------------

_arrays = st.one_of(
    st.builds(lambda n, m: np.zeros((n, m), dtype=np.int8), st.integers(0, 3), st.integers(0, 60)),
    st.builds(lambda n: np.full(n, -1, dtype=np.int64), st.integers(0, 60)),
    st.builds(lambda n: np.full(n, np.nan), st.integers(0, 8)),
    st.builds(lambda n: np.full((2, 4, 54), n, dtype=np.int8), st.integers(-2, 3)),
)
JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**40), 2**40),
    st.sampled_from([0, 1, -1, 4, 13, 14, 52, 54, 8191, 8192, 2**31, 2**63, -(2**63)]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.lists(st.integers(-3, 20), max_size=6),
    st.lists(st.text(max_size=4), max_size=5),
    _arrays,
)


def _mutate(text: str, rnd: random.Random) -> str:
    """One edit of ``text``: drop, duplicate or replace a character, or cut it short."""
    if not text:
        return text
    i = rnd.randrange(len(text))
    choice = rnd.randrange(5)
    if choice == 0:
        return text[:i] + text[i + 1 :]
    if choice == 1:
        return text[:i] + text[i] + text[i:]
    if choice == 2:
        return text[:i] + rnd.choice('-.:10 ?XZ♠é\x00,|"[]') + text[i + 1 :]
    if choice == 3:
        return text[:i]
    return text


def near(valid: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """``valid`` text, or the same with one or two edits."""
    return st.builds(
        lambda text, seed, edits: _apply(text, seed, edits), valid, st.integers(0, 2**32),
        st.integers(0, 2),
    )  # fmt: skip


def _apply(text: str, seed: int, edits: int) -> str:
    rnd = random.Random(seed)
    for _ in range(edits):
        text = _mutate(text, rnd)
    return text


# -- bridge ------------------------------------------------------------------------------------


def _deal_text(seed: int, size: int) -> str:
    cards = [(s, r) for s in range(4) for r in range(13)]
    random.Random(seed).shuffle(cards)
    hands = []
    for h in range(4):
        suits = ["", "", "", ""]
        for s, r in sorted(cards[h * size : (h + 1) * size], key=lambda c: -c[1]):
            suits[s] += "23456789TJQKA"[r]
        hands.append(".".join(suits))
    return "N:" + " ".join(hands)


# Small end positions solve in microseconds; a full deal now and then.
DEAL_TEXT = st.builds(_deal_text, st.integers(0, 2**32), st.sampled_from([1, 2, 3, 4, 5, 13]))
DEALS = st.one_of(near(DEAL_TEXT), JUNK)
CARD_TEXT = st.builds(lambda s, r: s + r, st.sampled_from("SHDCX♠"), st.sampled_from("AKQJT9210"))
SEATS = st.one_of(st.sampled_from(["N", "E", "S", "W", "n", "north", "X", ""]), JUNK)
STRAINS = st.one_of(st.sampled_from(["C", "D", "H", "S", "NT", "N", "♠", "Z"]), JUNK)
CONTRACTS = st.one_of(near(st.sampled_from(["3NTN", "4SXS", "7CXXE", "1HW=", "Pass"])), JUNK)
VUL = st.one_of(st.sampled_from(["None", "NS", "EW", "All", "Both", "-", "?", "x"]), JUNK)
SCORES = st.one_of(
    st.lists(st.one_of(st.integers(-7600, 7600), st.floats(allow_nan=True)), max_size=8), JUNK
)
PBN_TEXT = near(
    st.builds(
        lambda deal, extra: f'[Board "1"]\n[Dealer "N"]\n[Deal "{deal}"]\n{extra}',
        DEAL_TEXT,
        st.sampled_from(["", '[Note "1:x"]\n[Note "2:y"]\n', '[Event "a\nb"]\n', "[Auction"]),
    )
)
LIN_TEXT = near(
    st.sampled_from(
        [
            "pn|a,b,c,d|md|3SAKQHJT9D8765C432,S5432HAKQDJ9CT98,,|sv|b|ah|Board 5|mb|1H|mb|p|"
            "mb|p|mb|p|pc|SA|",
            "qx|o1|md|1,,,|pc|H2|",
        ]
    )
)

# -- rummikub, shengji, shuangkou ------------------------------------------------------------------

TILE_TEXT = st.builds(lambda c, n: f"{c}{n}", st.sampled_from("KROBJX"), st.integers(-1, 15))
TILES = st.one_of(
    st.lists(
        st.one_of(
            near(TILE_TEXT),
            st.builds(lambda c, n: rummikub.Tile._make((c, n)), st.text(max_size=2), JUNK),
        ),
        max_size=8,
    ),
    near(st.builds(" ".join, st.lists(TILE_TEXT, max_size=8))),
    JUNK,
)
SJ_CARD = st.sampled_from(["S2", "H10", "DK", "CA", "BJ", "RJ", "S10", "HA", "X5", "S1"])
SJ_CARDS = st.one_of(near(st.builds(" ".join, st.lists(SJ_CARD, max_size=6))), JUNK)
SJ_CTX = st.one_of(
    st.builds(shengji.TrumpContext, st.sampled_from(["2", "10", "A"]), st.sampled_from("SHDCN")),
    JUNK,
)
SK_CARD = st.sampled_from(["S3", "HA", "D2", "C10", "BJ", "RJ", "SK", "X9", "S1"])
SK_CARDS = st.one_of(near(st.builds(" ".join, st.lists(SK_CARD, max_size=8))), JUNK)
THREADS = st.one_of(st.sampled_from([None, 1, 2, 0, -1, 1.5, "2", 2**31, True]), JUNK)


@dataclass(frozen=True)
class Entry:
    """One entry point: ``call(*args)`` and the strategy of ``args`` (a tuple)."""

    call: Callable[..., Any]
    args: st.SearchStrategy[tuple]
    native: bool  # the call reaches compiled code (Cython or Numba)
    weight: int = 1  # inputs per run are weight x QIPAI_FUZZ_EXAMPLES


def _e(call: Callable[..., Any], *args: st.SearchStrategy, native: bool = True) -> Entry:
    return Entry(call, st.tuples(*args), native)


ENTRIES: dict[str, Entry] = {
    # bridge
    "bridge.Deal.from_pbn": _e(
        lambda t, leader, trick: bridge.Deal.from_pbn(t, leader=leader, trick=trick),
        DEALS,
        st.one_of(st.none(), SEATS),
        st.one_of(st.lists(near(CARD_TEXT), max_size=4), JUNK),
        native=False,
    ),
    "bridge.Hand": _e(bridge.Hand, st.one_of(st.lists(JUNK, max_size=5), JUNK), native=False),
    "bridge.dd_table": _e(bridge.dd_table, DEALS),
    "bridge.dd_tables": _e(
        lambda deals, threads: bridge.dd_tables(deals, threads=threads),
        st.one_of(st.lists(DEALS, max_size=3), JUNK),
        THREADS,
    ),
    "bridge.solve_position": _e(
        bridge.solve_position,
        DEALS,
        STRAINS,
        SEATS,
        st.one_of(st.lists(near(CARD_TEXT), max_size=4), JUNK),
    ),
    "bridge.par": _e(
        bridge.par,
        st.one_of(DEALS, st.dictionaries(st.sampled_from(["C", "D", "H", "S", "NT", "X"]), JUNK)),
        SEATS,
        VUL,
    ),
    "bridge.score": _e(bridge.score, CONTRACTS, JUNK, JUNK, native=False),
    "bridge.imps": _e(bridge.imps, JUNK, native=False),
    "bridge.butler_imps": _e(bridge.butler_imps, SCORES, native=False),
    "bridge.cross_imps": _e(bridge.cross_imps, SCORES, native=False),
    "bridge.matchpoints": _e(bridge.matchpoints, SCORES, native=False),
    "bridge.victory_points": _e(bridge.victory_points, JUNK, JUNK, native=False),
    "bridge.hcp": _e(bridge.hcp, st.one_of(DEALS, JUNK)),
    "bridge.shape": _e(bridge.shape, st.one_of(DEALS, JUNK)),
    "bridge.losers": _e(bridge.losers, st.one_of(DEALS, JUNK)),
    "bridge.compile_constraints": _e(
        bridge.compile_constraints,
        st.one_of(near(st.sampled_from(["hcp(N) >= 15", "spades(S) > 4 and balanced(N)"])), JUNK),
        native=False,
    ),
    "bridge.deal": _e(
        lambda n, seed: bridge.deal(n, seed=seed),
        st.one_of(st.integers(-2, 3), JUNK),
        st.one_of(st.integers(-5, 2**64), JUNK),
    ),
    "bridge.pbn.loads": _e(pbn.loads, PBN_TEXT, native=False),
    "bridge.lin.loads": _e(lin.loads, LIN_TEXT, native=False),
    # rummikub
    "rummikub.best_move": _e(
        rummikub.best_move,
        st.one_of(st.lists(TILES, max_size=2), JUNK),
        TILES,
        st.one_of(st.booleans(), JUNK),
    ),
    "rummikub.arrange": _e(rummikub.arrange, TILES),
    "rummikub.parse_tiles": _e(rummikub.parse_tiles, TILES, native=False),
    "rummikub.Position.from_json": _e(
        rummikub.Position.from_json,
        st.one_of(
            st.fixed_dictionaries({"rack": TILES, "table": st.lists(TILES, max_size=2)}), JUNK
        ),
        native=False,
    ),
    # shengji
    "shengji.trick_winner": _e(
        shengji.trick_winner, st.one_of(st.lists(SJ_CARDS, max_size=5), JUNK), SJ_CTX
    ),
    "shengji.legal_follows": _e(shengji.legal_follows, SJ_CARDS, SJ_CARDS, SJ_CTX),
    "shengji.check_throw": _e(
        shengji.check_throw, SJ_CARDS, st.one_of(st.lists(SJ_CARDS, max_size=4), JUNK), SJ_CTX
    ),
    "shengji.decompose": _e(shengji.decompose, SJ_CARDS, SJ_CTX),
    "shengji.trick_points": _e(shengji.trick_points, SJ_CARDS),
    "shengji.TrumpContext": _e(shengji.TrumpContext, JUNK, JUNK, native=False),
    "shengji.arrays.trick_winners": _e(
        shengji_arrays.trick_winners,
        st.one_of(st.lists(st.lists(SJ_CARDS, min_size=3, max_size=5), max_size=3), JUNK),
        SJ_CTX,
    ),
    "shengji.arrays.are_legal_follows": _e(
        lambda h, ld, p, ctx, threads: shengji_arrays.are_legal_follows(
            h, ld, p, ctx, threads=threads
        ),
        st.lists(SJ_CARDS, max_size=3),
        st.lists(SJ_CARDS, max_size=3),
        st.lists(SJ_CARDS, max_size=3),
        SJ_CTX,
        THREADS,
    ),
    # shuangkou
    "shuangkou.classify": _e(shuangkou.classify, SK_CARDS),
    "shuangkou.beats": _e(shuangkou.beats, SK_CARDS, SK_CARDS),
    "shuangkou.legal_plays": _e(shuangkou.legal_plays, SK_CARDS, st.one_of(st.none(), SK_CARDS)),
    "shuangkou.trick_next": _e(
        shuangkou.trick_next,
        st.one_of(st.lists(st.integers(-2, 30), max_size=5), JUNK),
        JUNK,
    ),
    "shuangkou.classify_many": _e(
        lambda cards, threads: shuangkou.classify_many(cards, threads=threads),
        st.one_of(st.lists(SK_CARDS, max_size=4), JUNK),
        THREADS,
    ),
}


# -- every public constructor and function that takes a caller's objects ------------------------


PUBLIC_WEIGHT = 4


def _public_args(package: str) -> st.SearchStrategy[tuple]:
    """(call name, the argument to spoil or "*" for all of them, the junk)."""
    names = sorted(n for n in public_calls.CALLS if n.split(".")[0] == package)
    return st.sampled_from(names).flatmap(
        lambda name: st.tuples(
            st.just(name), st.sampled_from(["*", *public_calls.parameters(name)]), JUNK
        )
    )


def _spoiled_call(name: str, argument: str, junk: Any) -> Any:
    spoil = public_calls.parameters(name) if argument == "*" else [argument]
    return public_calls.call(name, dict.fromkeys(spoil, junk))


for _package in sorted({n.split(".")[0] for n in public_calls.CALLS}):
    # one entry covers a whole package's calls, so it gets more inputs than a single function
    ENTRIES[f"{_package}.public"] = Entry(
        _spoiled_call, _public_args(_package), native=True, weight=PUBLIC_WEIGHT
    )
