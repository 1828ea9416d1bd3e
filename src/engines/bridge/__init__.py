"""Contract bridge: cards and deals as bitboards, the double-dummy solver, and analysis.

>>> from engines.bridge import Deal, Seat
>>> deal = Deal.from_pbn("N:AKQJ.T98.765.432 T987.AKQ.432.J65 65432.J76.AKQ.T9 .5432.JT98.AKQ87")
>>> len(deal[Seat.WEST])
13

Names load lazily from their modules (:mod:`engines.lazy`); the modules are
``errors`` (every exception), ``cards`` (Card, Hand, Deal), ``seats`` (Seat,
Strain, vulnerability), ``dd`` (the double-dummy solver), ``dealer_par``
(par), ``contract``, ``scoring``, ``compare`` (IMPs, matchpoints, VPs),
``auction``, ``boards`` (dealer and vulnerability by board number), ``pbn``,
``lin`` and ``board_files`` (files), ``analysis`` and ``play`` (board and
play analysis), ``verify`` (reference records), ``evaluation`` (HCP, shape,
losing tricks, Kaplan–Rubens), ``dealer`` and ``constraints`` (constrained
random dealing), ``simulation`` (opening-lead and contract simulations).
"""

from __future__ import annotations

from engines.lazy import lazy_exports

_EXPORTS = {
    "FULL_SUIT": "cards",
    "Card": "cards",
    "Deal": "cards",
    "DealSyntaxError": "errors",
    "Hand": "cards",
    "InvalidDealError": "errors",
    "Status": "cards",
    "DDTable": "dd",
    "dd_table": "dd",
    "dd_tables": "dd",
    "solve_position": "dd",
    "SEATS": "seats",
    "STRAINS": "seats",
    "BridgeInputError": "errors",
    "Seat": "seats",
    "Strain": "seats",
    "is_vulnerable": "seats",
    "parse_vulnerability": "seats",
    "BoardAnalysis": "analysis",
    "analyse": "analysis",
    "dd_score": "analysis",
    "Auction": "auction",
    "AuctionError": "errors",
    "Call": "auction",
    "board_dealer": "boards",
    "board_vulnerability": "boards",
    "butler_imps": "compare",
    "cross_imps": "compare",
    "imps": "compare",
    "matchpoint_percentages": "compare",
    "matchpoints": "compare",
    "victory_points": "compare",
    "Contract": "contract",
    "Par": "dealer_par",
    "par": "dealer_par",
    "PbnSyntaxError": "errors",
    "PlayError": "errors",
    "par_by_dealer": "dealer_par",
    "sides_par": "dealer_par",
    "PbnBoard": "pbn",
    "read_deal_file": "pbn",
    "read_pbn": "pbn",
    "score": "scoring",
    "ShapeClass": "evaluation",
    "cccc": "evaluation",
    "controls": "evaluation",
    "hcp": "evaluation",
    "is_balanced": "evaluation",
    "is_semi_balanced": "evaluation",
    "losers": "evaluation",
    "quick_tricks": "evaluation",
    "shape": "evaluation",
    "shape_class": "evaluation",
    "suit_lengths": "evaluation",
    "ConstraintError": "constraints",
    "DealView": "constraints",
    "compile_constraints": "constraints",
    "DealSample": "dealer",
    "ImpossibleConstraintsError": "dealer",
    "RareConstraintsError": "dealer",
    "deal": "dealer",
    "ContractSimulation": "simulation",
    "LeadSimulation": "simulation",
    "simulate_contracts": "simulation",
    "simulate_lead": "simulation",
}

__all__ = [*sorted(_EXPORTS), "warmup"]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)


def warmup() -> None:
    """Load the compiled double-dummy solver and dealer and run them once on tiny inputs."""
    from engines.bridge.dd import solve_position
    from engines.bridge.dealer import deal

    solve_position("N:A.K.2. K.A.3. Q.Q.4. J.J.5.", "NT", "N")
    deal(1, constraints="hcp(N) >= 0")
