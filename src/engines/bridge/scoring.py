"""Duplicate bridge scoring (Laws of Duplicate Bridge, law 77).

Scores are from the declaring side's point of view; the defenders score the
negative.  ``vulnerable`` is always the *declaring side's* vulnerability.

>>> contract_score(4, Strain.HEARTS, 0, 10, vulnerable=True)
620
>>> contract_score(3, Strain.NOTRUMP, 1, 6, vulnerable=False)
-500
>>> doubled_undertricks(3, vulnerable=False)
500
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.arguments import integer
from engines.bridge.seats import BridgeInputError, Strain

if TYPE_CHECKING:
    from engines.bridge.contract import Contract

__all__ = ["contract_score", "doubled_undertricks", "score", "trick_value"]


def trick_value(strain: Strain) -> int:
    """Points per odd trick bid and made, undoubled (notrump: 30, the first one scores 40)."""
    return 20 if strain.is_minor else 30


def _trick_score(level: int, strain: Strain) -> int:
    """Undoubled trick score of ``level`` odd tricks bid and made."""
    return trick_value(strain) * level + (10 if strain == Strain.NOTRUMP else 0)


def doubled_undertricks(down: int, vulnerable: bool) -> int:
    """What a *doubled* contract going ``down`` tricks costs (a positive number).

    Not vulnerable: 100, 200, 200, then 300 each; vulnerable: 200, then 300 each.

    >>> [doubled_undertricks(d, False) for d in range(5)]
    [0, 100, 300, 500, 800]
    >>> [doubled_undertricks(d, True) for d in range(4)]
    [0, 200, 500, 800]
    """
    if down <= 0:
        return 0
    if vulnerable:
        return 200 + 300 * (down - 1)
    return 100 + 200 * min(down - 1, 2) + 300 * max(down - 3, 0)


def contract_score(level: int, strain: Strain, penalty: int, tricks: int, vulnerable: bool) -> int:
    """Score of a contract taking ``tricks`` tricks (0..13), declaring side's point of view.

    ``penalty`` is 0 (undoubled), 1 (doubled) or 2 (redoubled).  A ``level`` of
    0 stands for a passed-out board and scores 0.

    >>> contract_score(7, Strain.HEARTS, 2, 13, vulnerable=True)
    2940
    >>> contract_score(3, Strain.DIAMONDS, 2, 12, vulnerable=False)
    1240
    """
    if level == 0:
        return 0
    if not 1 <= level <= 7:
        raise BridgeInputError(f"contract level {level} is not 1..7")
    if penalty not in (0, 1, 2):
        raise BridgeInputError(f"penalty {penalty} is not 0 (undoubled), 1 (X) or 2 (XX)")
    if not 0 <= tricks <= 13:
        raise BridgeInputError(f"{tricks} tricks is not 0..13")
    needed = level + 6
    multiplier = (1, 2, 4)[penalty]
    if tricks < needed:
        down = needed - tricks
        if penalty == 0:
            return -(100 if vulnerable else 50) * down
        return -doubled_undertricks(down, vulnerable) * penalty  # XX doubles the X figures
    trick_score = _trick_score(level, strain) * multiplier
    total = trick_score
    total += (500 if vulnerable else 300) if trick_score >= 100 else 50
    if level == 6:
        total += 750 if vulnerable else 500
    elif level == 7:
        total += 1500 if vulnerable else 1000
    total += (0, 50, 100)[penalty]
    over = tricks - needed
    if penalty == 0:
        total += over * trick_value(strain)
    else:
        total += over * (200 if vulnerable else 100) * penalty
    return total


def score(contract: Contract, tricks: int | None = None, vulnerable: bool = False) -> int:
    """Score of ``contract`` for the declaring side.

    ``tricks`` is the number of tricks declarer took; when omitted, the
    contract's own ``result`` (``=``, ``+k``, ``-k``) gives it.

    >>> from engines.bridge.contract import Contract
    >>> score(Contract.from_str("3NTN"), 10, vulnerable=True)
    630
    >>> score(Contract.from_str("4SEx-2"), vulnerable=True)
    -500
    """
    import numpy as np

    from engines.bridge.contract import Contract

    if not isinstance(contract, Contract):
        raise BridgeInputError(
            f"score needs a Contract (Contract.from_str('4SN')), got {contract!r}"[:300]
        )
    if tricks is not None:
        tricks = integer(tricks, "tricks", BridgeInputError)
    if not isinstance(vulnerable, bool | np.bool_):
        raise BridgeInputError(f"vulnerable must be True or False, got {vulnerable!r}"[:300])
    if contract.is_passout:
        return 0
    if tricks is None:
        if contract.result is None:
            raise BridgeInputError(f"contract {contract} has no result; pass the tricks taken")
        tricks = contract.level + 6 + contract.result
    return contract_score(
        contract.level,
        contract.strain,
        contract.penalty,
        tricks,
        vulnerable,  # type: ignore[arg-type]
    )
