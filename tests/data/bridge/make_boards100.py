"""Regenerate ``boards100.pbn``: 100 seeded random boards with Board/Dealer/Vulnerable tags.

Deals are dealt like the reference corpus (``random.Random(seed)``, shuffle
0..51, card ``k`` = suit ``"SHDC"[k // 13]``, rank ``"AKQJT98765432"[k % 13]``,
N gets the first 13); dealer and vulnerability follow the board number.

    python tests/data/bridge/make_boards100.py > tests/data/bridge/boards100.pbn
"""

import random
import sys

from engines.bridge.boards import board_dealer, board_vulnerability
from engines.bridge.cards import Card, Deal, Hand
from engines.bridge.pbn import PbnBoard, dumps

SEED = 20261130


def main() -> None:
    rng = random.Random(SEED)
    boards = []
    for number in range(1, 101):
        cards = list(range(52))
        rng.shuffle(cards)
        hands = [
            Hand.from_cards(Card.from_index(k) for k in cards[13 * i : 13 * i + 13])
            for i in range(4)
        ]
        board = PbnBoard.from_deal(
            Deal(hands),
            board=number,
            dealer=board_dealer(number),
            vulnerability=board_vulnerability(number),
        )
        board.tags = {"Event": "qipai boards100", "Site": "seed 20261130", **board.tags}
        boards.append(board)
    sys.stdout.write(dumps(boards))


if __name__ == "__main__":
    main()
