"""Double-dummy simulations: opening leads and contracts over deals consistent with what is known.

Both deal ``n`` layouts with :func:`engines.bridge.dealer.deal` (fixed hands
or cards, constraints, a seed), solve each one double dummy, and summarise:

- :func:`simulate_lead`: every opening lead of the leader's hand, with the
  defence's average tricks, the share of deals on which it sets the contract,
  the defenders' average score and IMPs against the best lead, each with a 95 %
  confidence interval; equal cards (touching in the leader's hand) form one
  row; best lead first.
- :func:`simulate_contracts`: for North–South's hands, each strain's tricks
  by declarer, and for every contract its make rate, expected score and
  average IMPs against the contract with the best expected score.

The solving goes through the batch runner (task ``bridge-lead`` or
``bridge-contracts``) when a result store is given: the deals of a seed are
the same on every run, so an interrupted simulation resumes where it stopped,
and the rows can be plotted with ``qipai report``.

Intervals: a mean's is ``mean ± 1.96·s/√n`` (normal approximation, fine for
the hundreds of deals a simulation uses); a rate's is Wilson's score interval,
which stays inside [0, 1] and is honest at rates near 0 or 1.

>>> sim = simulate_lead("KQJ2.T98.765.432", "3NT", "S", n=6, seed=1,
...                     constraints="opens_1nt(S)")
>>> len(sim.deals), sim.rows[0].cards[0] in sim.hand, sim.rows[0].label
(6, True, 'D7/6/5')
>>> sim.rows[0].mean_tricks >= sim.rows[-1].mean_tricks
True
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from engines.bridge.cards import Card, Deal, Hand
from engines.bridge.compare import imps
from engines.bridge.contract import Contract
from engines.bridge.dealer import DealSample, deal
from engines.bridge.scoring import contract_score
from engines.bridge.seats import (
    STRAINS,
    BridgeInputError,
    Seat,
    Strain,
    is_vulnerable,
    parse_vulnerability,
)

__all__ = [
    "ContractRow",
    "ContractSimulation",
    "LeadRow",
    "LeadSimulation",
    "Solver",
    "mean_interval",
    "simulate_contracts",
    "simulate_lead",
    "wilson_interval",
]

Z95 = 1.959963984540054
# solve(task name, payloads) -> results in payload order; see :func:`local_solver`
Solver = Callable[[str, list[dict[str, Any]]], list[Any]]


def mean_interval(values: np.ndarray) -> tuple[float, float]:
    """95 % interval of the mean (normal approximation); a point for fewer than 2 values.

    >>> [round(x, 3) for x in mean_interval(np.array([1, 2, 3, 4]))]
    [1.235, 3.765]
    """
    values = np.asarray(values, dtype=float)
    mean = float(values.mean()) if len(values) else 0.0
    if len(values) < 2:
        return mean, mean
    half = Z95 * float(values.std(ddof=1)) / math.sqrt(len(values))
    return mean - half, mean + half


def wilson_interval(successes: int, n: int) -> tuple[float, float]:
    """Wilson's 95 % score interval of a proportion.

    >>> [round(x, 4) for x in wilson_interval(0, 10)], [round(x, 4) for x in wilson_interval(5, 10)]
    ([0.0, 0.2775], [0.2366, 0.7634])
    """
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


# -- solving ------------------------------------------------------------------------------


def lead_payload(pbn: str, trump: Strain, leader: Seat) -> dict[str, Any]:
    """The canonical batch input of one lead problem (task ``bridge-lead``)."""
    return {"pbn": pbn, "trump": trump.symbol, "leader": leader.char}


def solve_leads(payloads: list[dict[str, Any]], threads: int = 1) -> list[dict[str, int]]:
    """``{card: tricks for the leader's side}`` for every opening lead of each payload.

    The deals of one strain and leader go to the native batch kernel at once
    (``lead_values``: no Python per deal, one search context a thread reused
    from deal to deal); cards come in hand order (suits S H D C, high first).
    """
    from solvers.bridge import lead_values

    out: list[dict[str, int]] = [{} for _ in payloads]
    groups: dict[tuple[str, str], list[int]] = {}
    for i, payload in enumerate(payloads):
        groups.setdefault((payload["trump"], payload["leader"]), []).append(i)
    for (trump, leader), indices in groups.items():
        hands = np.array(
            [Deal.from_pbn(payloads[i]["pbn"]).validate().masks() for i in indices],
            dtype=np.uint16,
        )
        values = lead_values(
            hands, Strain.from_str(trump).suit_index, int(Seat.from_char(leader)), threads
        )
        names = [[str(Card(suit, rank + 2)) for rank in range(13)] for suit in range(4)]
        for i, cards in zip(indices, values.tolist()):  # lists: no numpy scalar a card
            out[i] = {names[suit][rank]: cards[suit][rank] for suit in range(4)
                      for rank in range(12, -1, -1) if cards[suit][rank] >= 0}  # fmt: skip
    return out


def dealt_lead_values(masks: np.ndarray, trump: Strain, leader: Seat, threads: int) -> np.ndarray:
    """``int32[n, 4, 13]``: the leader's side's tricks after each lead of the dealer's
    ``masks[n, seat, suit]`` (-1: not the leader's card). A simulation solved in this process:
    the dealt deals are valid by construction, so no PBN, payload or dict a deal; a layout
    dealt twice is solved once, as by the local solver."""
    from solvers.bridge import lead_values

    flat = np.ascontiguousarray(masks, dtype=np.uint16).reshape(len(masks), 16)
    unique, index = np.unique(flat, axis=0, return_inverse=True)
    values = lead_values(unique.reshape(-1, 4, 4), trump.suit_index, int(leader), threads)
    return values[index.reshape(-1)]


def contracts_payload(pbn: str, strains: Sequence[Strain]) -> dict[str, Any]:
    """The canonical batch input of one deal of a contract simulation (``bridge-contracts``)."""
    return {"pbn": pbn, "strains": [s.symbol for s in sorted(strains)]}


def solve_contract_tables(payloads: list[dict[str, Any]], threads: int = 1) -> list[dict[str, int]]:
    """North's and South's DD tricks per strain, flat: ``{"N NT": 9, "S NT": 8, ...}``."""
    from engines.bridge.dd import dd_table

    def one(payload: dict[str, Any]) -> dict[str, int]:
        table = dd_table(payload["pbn"], strains=payload["strains"])
        return {f"{seat} {strain}": table[strain][seat] for strain in table for seat in ("N", "S")}

    return _map_threads(one, payloads, threads)


def _map_threads(function: Callable, items: list, threads: int) -> list:
    if threads <= 1 or len(items) <= 1:
        return [function(item) for item in items]
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(min(threads, len(items))) as pool:
        return list(pool.map(function, items))


def _solver(solver: Solver | None, threads: int | None) -> Solver:
    if solver is None:
        return local_solver(threads)
    if not callable(solver):
        raise BridgeInputError(f"solver must be a function (task, payloads), got {solver!r}"[:300])
    return solver


def _local_threads(threads: int | None) -> int:
    from engines.bridge.dd import _thread_count
    from solvers._parallel import max_threads

    return _thread_count(threads) or max_threads()


def local_solver(threads: int | None = None) -> Solver:
    """A :data:`Solver` that solves in this process on ``threads`` threads (None = all)."""
    count = _local_threads(threads)
    functions = {"bridge-lead": solve_leads, "bridge-contracts": solve_contract_tables}

    def solve(task: str, payloads: list[dict[str, Any]]) -> list[Any]:
        # a layout dealt twice (likely when few cards are unknown) is solved once
        keys = [json.dumps(p, sort_keys=True) for p in payloads]
        unique = list(dict.fromkeys(keys))
        solved = dict(zip(unique, functions[task]([json.loads(k) for k in unique], count)))
        return [solved[k] for k in keys]

    return solve


# -- opening leads ------------------------------------------------------------------------


@dataclass
class LeadRow:
    """One opening lead (equal cards together) over the simulated deals.

    Tricks and scores are the defenders' (the leader's side); ``imps_vs_best``
    is the average, deal by deal, of the IMPs this lead gains (negative: loses)
    against the lead with the best average score.
    """

    cards: tuple[Card, ...]
    mean_tricks: float
    tricks_interval: tuple[float, float]
    set_rate: float
    set_interval: tuple[float, float]
    mean_score: float
    score_interval: tuple[float, float]
    imps_vs_best: float
    tricks: np.ndarray = field(repr=False)

    @property
    def label(self) -> str:
        """``SQ`` or, for equal cards, ``SQJT`` written ``SQ/J/T``."""
        first = str(self.cards[0])
        return first + "".join("/" + str(c)[1] for c in self.cards[1:])


@dataclass
class LeadSimulation:
    """The result of :func:`simulate_lead`: ``rows`` best lead first."""

    hand: Hand
    contract: Contract
    leader: Seat
    vulnerable: bool
    deals: DealSample
    rows: list[LeadRow]

    def to_dict(self) -> dict[str, Any]:
        return {
            "hand": self.hand.to_pbn(),
            "contract": str(self.contract),
            "leader": self.leader.char,
            "vulnerable": self.vulnerable,
            "deals": len(self.deals),
            "tried": self.deals.tried,
            "acceptance_rate": self.deals.acceptance_rate,
            "seed": self.deals.seed,
            "leads": [
                {
                    "cards": [str(c) for c in row.cards],
                    "mean_tricks": row.mean_tricks,
                    "tricks_interval": list(row.tricks_interval),
                    "set_rate": row.set_rate,
                    "set_interval": list(row.set_interval),
                    "mean_score": row.mean_score,
                    "score_interval": list(row.score_interval),
                    "imps_vs_best": row.imps_vs_best,
                }
                for row in self.rows
            ],
        }

    def __str__(self) -> str:
        size = len(self.deals)
        head = (
            f"{_name(self.contract)} by {self.contract.declarer}, {self.leader} leads "
            f"{self.hand.to_pbn()}: {size} deals (acceptance {self.deals.acceptance_rate:.2%}, "
            f"seed {self.deals.seed})"
        )
        lines = [
            head,
            f"{'lead':<12}{'tricks':>7}  {'95% CI':<13}{'set %':>7}  {'95% CI':<13}"
            f"{'score':>8}{'IMPs':>7}",
        ]
        for row in self.rows:
            lo, hi = row.tricks_interval
            slo, shi = row.set_interval
            lines.append(
                f"{row.label:<12}{row.mean_tricks:>7.2f}  {lo:5.2f}-{hi:<7.2f}"
                f"{100 * row.set_rate:>7.1f}  {100 * slo:5.1f}-{100 * shi:<7.1f}"
                f"{row.mean_score:>8.0f}{row.imps_vs_best:>7.2f}"
            )
        return "\n".join(lines)


def _name(contract: Contract) -> str:
    """``3NT``, ``4Sx``: the contract without its declarer."""
    return f"{contract.level}{contract.strain}" + ("", "x", "xx")[contract.penalty]


def _equal_groups(hand: Hand) -> list[tuple[Card, ...]]:
    """Cards touching in rank within a suit of ``hand`` (equal as opening leads)."""
    groups: list[list[Card]] = []
    for card in hand.cards():  # spades first, high to low
        last = groups[-1][-1] if groups else None
        if last is not None and last.suit == card.suit and last.rank == card.rank + 1:
            groups[-1].append(card)
        else:
            groups.append([card])
    return [tuple(g) for g in groups]


def _contract(contract: Contract | str, declarer: Seat | str | None) -> Contract:
    if isinstance(contract, str):
        text = contract.strip()
        if declarer is not None:
            text += str(Seat.coerce(declarer))
        contract = Contract.from_str(text)
    if not isinstance(contract, Contract):
        raise BridgeInputError(f"contract must be a Contract or text, got {contract!r}"[:300])
    if contract.is_passout or contract.declarer is None:
        raise BridgeInputError(f"contract {contract} needs a level, a strain and a declarer")
    return contract


def simulate_lead(
    hand: Hand | str,
    contract: Contract | str,
    declarer: Seat | str | None = None,
    *,
    n: int = 500,
    constraints: Any = None,
    fixed: Mapping[Seat | str, Hand | str] | None = None,
    vulnerable: bool = False,
    seed: int = 0,
    max_tries: int | None = None,
    solver: Solver | None = None,
    threads: int | None = None,
) -> LeadSimulation:
    """Every opening lead from ``hand`` against ``contract`` over ``n`` simulated deals.

    The leader is declarer's left-hand opponent and holds ``hand``; the other
    cards are dealt at random subject to ``fixed`` (other known hands or cards)
    and ``constraints`` (see :mod:`engines.bridge.constraints`, e.g. what the
    auction showed).  ``solver`` solves the deals (default: this process on
    ``threads`` threads; the CLI passes one that goes through a result store).
    """
    contract = _contract(contract, declarer)
    leader = Seat((contract.declarer + 1) % 4)  # type: ignore[operator]
    hand = hand if isinstance(hand, Hand) else Hand.from_pbn(hand)
    if len(hand) != 13:
        raise BridgeInputError(f"the leader's hand must have 13 cards, got {len(hand)}: {hand}")
    known = {
        Seat(int(k)) if not isinstance(k, str) else Seat.from_char(k): v
        for k, v in (fixed or {}).items()
    }
    if leader in known:
        raise BridgeInputError(f"the leader ({leader}) holds HAND; do not fix that seat again")
    known[leader] = hand
    kwargs = {} if max_tries is None else {"max_tries": max_tries}
    sample = deal(n, fixed=known, constraints=constraints, seed=seed, **kwargs)
    trump = contract.strain
    groups = _equal_groups(hand)
    if solver is None:
        values = dealt_lead_values(sample.masks, trump, leader, _local_threads(threads))
        firsts = [g[0] for g in groups]
        tricks = values[:, [c.suit for c in firsts], [c.rank - 2 for c in firsts]]
    else:
        payloads = [lead_payload(pbn, trump, leader) for pbn in sample.to_pbn()]
        results = _solver(solver, threads)("bridge-lead", payloads)
        tricks = np.array([[r[str(g[0])] for g in groups] for r in results], dtype=np.int64)
    rows = _lead_rows(contract, vulnerable, groups, tricks.reshape(len(sample), len(groups)))
    return LeadSimulation(hand, contract, leader, vulnerable, sample, rows)


def _imps_of(diffs: np.ndarray) -> np.ndarray:
    """:func:`~engines.bridge.compare.imps` of every score difference (once per distinct one)."""
    distinct, index = np.unique(diffs, return_inverse=True)
    table = np.array([imps(int(d)) for d in distinct], dtype=np.int64)
    return table[index.reshape(diffs.shape)]


def _lead_rows(
    contract: Contract, vulnerable: bool, groups: list[tuple[Card, ...]], tricks: np.ndarray
) -> list[LeadRow]:
    tricks = tricks.astype(np.int64)  # [deal, group of equal cards]: the defence's tricks
    size = len(tricks)
    needed = 14 - (contract.level + 6)  # defence tricks that set the contract
    # defenders' score for each possible number of defence tricks
    declarer_scores = np.array(
        [
            contract_score(contract.level, contract.strain, contract.penalty, 13 - t, vulnerable)
            for t in range(14)
        ]
    )
    scores = -declarer_scores[tricks]
    means = scores.mean(axis=0) if size else np.zeros(len(groups))
    best = int(np.argmax(means))
    rows = []
    for index, cards in enumerate(groups):
        column = tricks[:, index]
        sets = int((column >= needed).sum())
        swing = _imps_of(scores[:, index] - scores[:, best]) if size else np.zeros(0)
        rows.append(
            LeadRow(
                cards=cards,
                mean_tricks=float(column.mean()) if size else 0.0,
                tricks_interval=mean_interval(column),
                set_rate=sets / size if size else 0.0,
                set_interval=wilson_interval(sets, size),
                mean_score=float(means[index]),
                score_interval=mean_interval(scores[:, index]),
                imps_vs_best=float(swing.mean()) if size else 0.0,
                tricks=column,
            )
        )
    rows.sort(key=lambda r: (-r.mean_tricks, -r.set_rate, r.cards[0].suit, -r.cards[0].rank))
    return rows


# -- contracts ----------------------------------------------------------------------------


@dataclass
class ContractRow:
    """One contract over the simulated deals (scores for North–South)."""

    contract: Contract
    make_rate: float
    make_interval: tuple[float, float]
    mean_score: float
    score_interval: tuple[float, float]
    imps_vs_best: float


@dataclass
class ContractSimulation:
    """The result of :func:`simulate_contracts`.

    ``tricks[(seat, strain)]`` holds each deal's DD tricks for that declarer;
    ``rows`` every contract, best expected score first; ``imps`` the matrix of
    average IMPs of row contract against column contract (same order as ``rows``).
    """

    deals: DealSample
    vulnerability: str
    tricks: dict[tuple[Seat, Strain], np.ndarray]
    rows: list[ContractRow]
    imps: np.ndarray

    def to_dict(self, top: int | None = None) -> dict[str, Any]:
        return {
            "deals": len(self.deals),
            "tried": self.deals.tried,
            "acceptance_rate": self.deals.acceptance_rate,
            "seed": self.deals.seed,
            "vulnerability": self.vulnerability,
            "tricks": {
                f"{seat.char} {strain.symbol}": {
                    "mean": float(values.mean()),
                    "interval": list(mean_interval(values)),
                    "counts": np.bincount(values, minlength=14).tolist(),
                }
                for (seat, strain), values in self.tricks.items()
            },
            "contracts": [
                {
                    "contract": str(row.contract),
                    "make_rate": row.make_rate,
                    "make_interval": list(row.make_interval),
                    "mean_score": row.mean_score,
                    "score_interval": list(row.score_interval),
                    "imps_vs_best": row.imps_vs_best,
                }
                for row in self.rows[:top]
            ],
        }

    def text(self, top: int = 12) -> str:
        size = len(self.deals)
        lines = [
            f"{size} deals (acceptance {self.deals.acceptance_rate:.2%}, seed {self.deals.seed}), "
            f"vulnerability {self.vulnerability}",
            "DD tricks       mean  95% CI        " + " ".join(f"{t:>4}" for t in range(6, 14)),
        ]
        for (seat, strain), values in self.tricks.items():
            lo, hi = mean_interval(values)
            counts = np.bincount(values, minlength=14)
            shares = " ".join(f"{100 * c / size:4.0f}" for c in counts[6:])
            lines.append(
                f"{strain.symbol:>2} by {seat.char}      {values.mean():5.2f}  "
                f"{lo:5.2f}-{hi:<7.2f} {shares}"
            )
        lines.append("(last columns: % of deals with exactly that many tricks)")
        lines.append(
            f"{'contract':<10}{'make %':>7}  {'95% CI':<13}{'score':>7}  "
            f"{'95% CI':<13}{'IMPs vs best':>12}"
        )
        for row in self.rows[:top]:
            mlo, mhi = row.make_interval
            slo, shi = row.score_interval
            lines.append(
                f"{row.contract!s:<10}{100 * row.make_rate:>7.1f}  "
                f"{100 * mlo:5.1f}-{100 * mhi:<7.1f}{row.mean_score:>7.0f}  "
                f"{slo:5.0f}-{shi:<7.0f}{row.imps_vs_best:>12.2f}"
            )
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.text()


def simulate_contracts(
    north: Hand | str | None = None,
    south: Hand | str | None = None,
    *,
    n: int = 1000,
    constraints: Any = None,
    fixed: Mapping[Seat | str, Hand | str] | None = None,
    vulnerability: str = "None",
    strains: Sequence[Strain | str] | str | None = None,
    declarers: str = "NS",
    seed: int = 0,
    max_tries: int | None = None,
    solver: Solver | None = None,
    threads: int | None = None,
) -> ContractSimulation:
    """How every North–South contract fares over ``n`` deals holding ``north`` and ``south``.

    ``strains`` limits the strains solved (default all five); ``declarers`` is
    ``"N"``, ``"S"`` or ``"NS"`` (both).  Contracts are undoubled; scores use
    ``vulnerability`` (``None``, ``NS``, ``EW``, ``Both``).

    >>> sim = simulate_contracts("AKQ2.KQ3.A54.K32", "J543.A54.KQ2.A54", n=4, seed=3,
    ...                          strains="NT", declarers="S")
    >>> [str(row.contract) for row in sim.rows[:2]], sim.rows[0].make_rate
    (['6NTS', '3NTS'], 1.0)
    """
    known: dict[Seat | str, Hand | str] = dict(fixed or {})
    for seat, hand in ((Seat.NORTH, north), (Seat.SOUTH, south)):
        if hand is not None:
            known[seat] = hand
    vul = parse_vulnerability(vulnerability)
    if not isinstance(declarers, str):
        raise BridgeInputError(f"declarers must be N, S or NS, got {declarers!r}"[:300])
    seats = [Seat.from_char(c) for c in declarers.upper() if c in "NS"]
    if not seats or any(c not in "NS" for c in declarers.upper()):
        raise BridgeInputError(f"declarers must be N, S or NS, got {declarers!r}")
    from engines.bridge.dd import _strain_filter

    chosen = _strain_filter(strains) or STRAINS
    kwargs = {} if max_tries is None else {"max_tries": max_tries}
    sample = deal(n, fixed=known, constraints=constraints, seed=seed, **kwargs)
    payloads = [contracts_payload(pbn, chosen) for pbn in sample.to_pbn()]
    results = _solver(solver, threads)("bridge-contracts", payloads)
    tricks = {
        (seat, strain): np.array([r[f"{seat.char} {strain.symbol}"] for r in results], np.int64)
        for strain in sorted(chosen, key=lambda s: -s)
        for seat in seats
    }
    rows, matrix = _contract_rows(tricks, is_vulnerable(vul, Seat.NORTH))
    return ContractSimulation(sample, vul, tricks, rows, matrix)


def _contract_rows(
    tricks: dict[tuple[Seat, Strain], np.ndarray], vulnerable: bool
) -> tuple[list[ContractRow], np.ndarray]:
    contracts, score_columns = [], []
    for (seat, strain), values in tricks.items():
        for level in range(1, 8):
            table = np.array([contract_score(level, strain, 0, t, vulnerable) for t in range(14)])
            contracts.append(Contract(level, strain, seat))
            score_columns.append(table[values])
    scores = np.stack(score_columns, axis=1) if score_columns else np.zeros((0, 0))
    size = scores.shape[0]
    means = scores.mean(axis=0) if size else np.zeros(len(contracts))
    order = np.argsort(-means, kind="stable")
    scores, means = scores[:, order], means[order]
    contracts = [contracts[i] for i in order]
    imp_of = np.vectorize(imps, otypes=[np.int64])
    matrix = np.zeros((len(contracts), len(contracts)))
    if size:
        for i in range(len(contracts)):
            matrix[i] = imp_of(scores[:, [i]] - scores).mean(axis=0)
    rows = []
    for i, contract in enumerate(contracts):
        values = tricks[(contract.declarer, contract.strain)]  # type: ignore[index]
        makes = int((values >= contract.level + 6).sum())
        rows.append(
            ContractRow(
                contract=contract,
                make_rate=makes / size if size else 0.0,
                make_interval=wilson_interval(makes, size),
                mean_score=float(means[i]),
                score_interval=mean_interval(scores[:, i]),
                imps_vs_best=float(matrix[i, 0]),
            )
        )
    return rows, matrix
