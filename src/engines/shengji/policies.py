"""House-rule switches of 升级 where other implementations differ from the rules document.

The defaults are ``docs/rules/shengji.md``; each switch names the rule it replaces.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

import solvers.shengji as K

__all__ = ["DEFAULT_POLICIES", "BottomPolicy", "Policies", "ThrowPenalty", "ThrowWinnerPolicy"]


class ThrowWinnerPolicy(enum.IntEnum):
    """How plays that match a multi-component lead (a throw) are compared (section 8)."""

    LEADING_COMPONENT = K.WIN_LEADING_COMPONENT  # rules: the longest chain decides (default)
    HIGHEST_CARD = K.WIN_HIGHEST_CARD  # house rule: the highest single card decides


class BottomPolicy(enum.IntEnum):
    """Multiplier of the buried cards' points when the defenders win the last trick."""

    POWER_OF_TWO = K.BOTTOM_POWER_OF_TWO  # rules/seed: 2^(1 + pairs of the largest unit)
    TWICE_UNIT_CARDS = K.BOTTOM_TWICE_UNIT_CARDS  # anchor default: 2 × cards of that unit


class ThrowPenalty(enum.IntEnum):
    """Penalty for a failed throw (the forced component is played either way)."""

    NONE = 0  # rules: no penalty
    TEN_POINTS = 10  # house rule: 10 points to the defenders' side of the tally


@dataclass(frozen=True)
class Policies:
    """House-rule switches; the defaults are the rules document."""

    throw_winner: ThrowWinnerPolicy = ThrowWinnerPolicy.LEADING_COMPONENT
    bottom: BottomPolicy = BottomPolicy.POWER_OF_TWO
    throw_penalty: ThrowPenalty = ThrowPenalty.NONE


DEFAULT_POLICIES = Policies()
