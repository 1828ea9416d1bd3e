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
    "Deal",
    "DealSyntaxError",
    "Hand",
    "InvalidDealError",
    "Seat",
    "Status",
    "Strain",
    "is_vulnerable",
    "parse_vulnerability",
]

# --- analysis (issue 4) ---
