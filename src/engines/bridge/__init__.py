"""Contract bridge: cards and deals as bitboards, the double-dummy solver, and analysis.

>>> from engines.bridge import Deal, Seat
>>> deal = Deal.from_pbn("N:AKQJ.T98.765.432 T987.AKQ.432.J65 65432.J76.AKQ.T9 .5432.JT98.AKQ87")
>>> len(deal[Seat.WEST])
13
"""

from engines.bridge.cards import (
    FULL_SUIT,
    Card,
    Deal,
    DealSyntaxError,
    Hand,
    InvalidDealError,
    Status,
)
from engines.bridge.dd import DDTable, dd_table, dd_tables, solve_position
from engines.bridge.seats import (
    SEATS,
    STRAINS,
    BridgeInputError,
    Seat,
    Strain,
    is_vulnerable,
    parse_vulnerability,
)

__all__ = [
    "FULL_SUIT",
    "SEATS",
    "STRAINS",
    "BridgeInputError",
    "Card",
    "DDTable",
    "Deal",
    "DealSyntaxError",
    "Hand",
    "InvalidDealError",
    "Seat",
    "Status",
    "Strain",
    "dd_table",
    "dd_tables",
    "is_vulnerable",
    "parse_vulnerability",
    "solve_position",
]

# --- analysis (issue 4) ---
# Contracts, scoring, boards, par, result comparison, auctions, PBN/LIN, play and board analysis.
# The par *function* stays engines.bridge.par.par: re-exporting it here would hide the module.
from engines.bridge.analysis import BoardAnalysis, analyse, dd_score
from engines.bridge.auction import Auction, AuctionError, Call
from engines.bridge.boards import board_dealer, board_vulnerability
from engines.bridge.compare import (
    butler_imps,
    cross_imps,
    imps,
    matchpoint_percentages,
    matchpoints,
    victory_points,
)
from engines.bridge.contract import Contract
from engines.bridge.par import Par, par_by_dealer, sides_par
from engines.bridge.pbn import PbnBoard, read_deal_file, read_pbn
from engines.bridge.scoring import score

__all__ += [
    "Auction",
    "AuctionError",
    "BoardAnalysis",
    "Call",
    "Contract",
    "Par",
    "PbnBoard",
    "analyse",
    "board_dealer",
    "board_vulnerability",
    "butler_imps",
    "cross_imps",
    "dd_score",
    "imps",
    "matchpoint_percentages",
    "matchpoints",
    "par_by_dealer",
    "read_deal_file",
    "read_pbn",
    "score",
    "sides_par",
    "victory_points",
]
