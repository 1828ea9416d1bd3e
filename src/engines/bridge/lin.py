"""LIN (Bridge Base Online hand records): lenient import, complete export.

A LIN record is a chain of ``key|value|`` pairs.  The deal is
``md|<dealer digit><S hand>,<W hand>,<N hand>,<E hand>|`` with the dealer
digit 1 = S, 2 = W, 3 = N, 4 = E and hands written suit letter then ranks
(``SAKQHJT9D...C...``, ``10`` accepted for the ten); the fourth hand may be
left empty and is then the 13 cards nobody holds.  Also read: ``ah`` (board
title, ``Board 7``), ``sv`` (vulnerability ``o``/``0`` none, ``n`` NS, ``e``
EW, ``b`` both), ``mb`` (calls ``p``, ``d``, ``r``, ``1N`` …; ``!`` alerts
dropped), ``pc`` (cards played), ``pn`` (players S, W, N, E), ``qx`` (table
and board id).  A new ``qx``, or an ``md`` or ``pn`` after the deal, starts the next
board.

Each board becomes a :class:`~engines.bridge.pbn.PbnBoard` (tags ``Board``,
``Dealer``, ``Vulnerable``, ``Deal``, players, ``Auction`` and ``Play``
sections), so everything that takes PBN boards takes LIN ones; defects are
collected in ``errors`` with the line number, never raised.

>>> record = "md|3S2HAKQJT98765D32C,S3456789TJQKAD4,H432DAKQJT98765,|sv|b|ah|Board 5|"
>>> record += "mb|1H|mb|p|mb|p|mb|p|"
>>> (board,) = loads(record)
>>> board.board_number, board.dealer, board.vulnerability
(5, <Seat.NORTH: 0>, 'Both')
>>> board.errors, board.deal[Seat.EAST].to_pbn()
([], '...AKQJT98765432')
>>> board.deal[Seat.SOUTH].to_pbn()
'2.AKQJT98765.32.'
>>> board.tags["Auction"], board.sections["Auction"]
('N', ['1H Pass Pass Pass'])

Export (:func:`dumps`) writes one line per board with the player names
(``pn``), the deal, vulnerability, board title, every call and every card
played (``pc``, a ``pg`` after each trick), the shape BBO writes and endplay
reads back.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import TextIO

from engines.bridge.auction import AuctionError, Call, parse_pbn_auction
from engines.bridge.cards import FULL_SUIT, Card, Hand
from engines.bridge.contract import Contract
from engines.bridge.encoding import read_text
from engines.bridge.pbn import PbnBoard, PbnDefect, _check_board
from engines.bridge.play import PlayError, parse_pbn_play, play_to_pbn_rows
from engines.bridge.seats import SEATS, BridgeInputError, Seat, pbn_vulnerability

__all__ = ["dump", "dumps", "load", "loads", "read_lin"]

# LIN hand order in md: S, W, N, E; dealer digits 1..4 name the same seats.
_LIN_ORDER: tuple[Seat, ...] = (Seat.SOUTH, Seat.WEST, Seat.NORTH, Seat.EAST)
_VUL = {"o": "None", "0": "None", "-": "None", "n": "NS", "e": "EW", "b": "Both"}
_VUL_OUT = {"None": "o", "NS": "n", "EW": "e", "Both": "b"}
_SEAT_TAGS = {Seat.NORTH: "North", Seat.EAST: "East", Seat.SOUTH: "South", Seat.WEST: "West"}


def read_lin(source: str | Path | TextIO) -> list[PbnBoard]:
    """Boards of a LIN file (path or open stream)."""
    if isinstance(source, str | Path):
        text, encoding = read_text(source)
        boards = loads(text)
        for board in boards:
            board.encoding = encoding
        return boards
    return load(source)


def load(fp: TextIO) -> list[PbnBoard]:
    """Parse an open LIN text stream."""
    if not hasattr(fp, "read"):
        raise BridgeInputError(f"expected a LIN path or an open file, got {fp!r}"[:300])
    return loads(fp.read())


def loads(text: str) -> list[PbnBoard]:
    """Parse LIN text into boards (lenient; see the module docstring)."""
    if not isinstance(text, str):
        raise BridgeInputError(f"expected LIN text, got {text!r}"[:300])
    pairs = _pairs(text)
    boards: list[PbnBoard] = []
    current: _Builder | None = None
    for key, value, line in pairs:
        # qx, or a pn or md after the deal (one board a line, as BBO writes) starts a new board
        if key == "qx" or (key in ("md", "pn") and current is not None and current.has_deal):
            if current is not None and current.started:
                boards.append(current.finish())
            current = None
        if current is None:
            current = _Builder(line)
        current.add(key, value, line)
    if current is not None and current.started:
        boards.append(current.finish())
    return boards


def _pairs(text: str) -> list[tuple[str, str, int]]:
    """``(key, value, line)`` triples; keys are lower-cased."""
    out = []
    tokens = re.split(r"\|", text)
    line = 1
    i = 0
    while i < len(tokens):
        key_token = tokens[i]
        key_line = line + key_token.count("\n")
        value = tokens[i + 1] if i + 1 < len(tokens) else ""
        line = key_line + value.count("\n")
        key = key_token.strip().lower()
        if key:
            out.append((key, value.strip(), key_line))
        i += 2
    return out


class _Builder:
    def __init__(self, line: int) -> None:
        self.board = PbnBoard(line=line)
        self.calls: list[str] = []
        self.notes: list[tuple[int, str]] = []
        self.cards: list[str] = []
        self.has_deal = False
        self.started = False
        self.card_line = line
        self.call_line = line

    def error(self, line: int, message: str) -> None:
        self.board.errors.append(PbnDefect(line, self.board.label, message))

    def add(self, key: str, value: str, line: int) -> None:
        self.started = True
        tags = self.board.tags
        if key == "md":
            self.has_deal = True
            self._deal(value, line)
        elif key == "ah":
            match = re.search(r"(\d+)", value)
            if match:
                tags["Board"] = match.group(1)
                self.board.tag_lines["Board"] = line
            else:
                self.error(line, f"ah: no board number in {value!r}")
        elif key == "sv":
            vul = _VUL.get(value.lower())
            if vul is None:
                self.error(line, f"sv: unknown vulnerability {value!r}; expected o, n, e or b")
            else:
                tags["Vulnerable"] = pbn_vulnerability(vul)
                self.board.tag_lines["Vulnerable"] = line
        elif key == "pn":
            names = value.split(",")
            for seat, name in zip(_LIN_ORDER, names):
                tags[_SEAT_TAGS[seat]] = name.strip()
        elif key == "mb":
            if not self.calls:
                self.call_line = line
            self.calls.append(value)
        elif key == "an" and self.calls:
            # the explanation of the last call: PBN keeps it as a note "=k=" on the call
            self.notes.append((len(self.calls) - 1, value))
        elif key == "pc":
            if not self.cards:
                self.card_line = line
            self.cards.append(value)
        elif key == "qx":
            tags["Room"] = {"o": "Open", "c": "Closed"}.get(value[:1].lower(), value)

    def _deal(self, value: str, line: int) -> None:
        text = value.strip()
        dealer: Seat | None = None
        if text[:1].isdigit():
            digit = int(text[0])
            if 1 <= digit <= 4:
                dealer = _LIN_ORDER[digit - 1]
            else:
                self.error(line, f"md: dealer digit {digit} is not 1..4")
            text = text[1:]
        if dealer is not None:
            self.board.tags["Dealer"] = dealer.char
            self.board.tag_lines["Dealer"] = line
        parts = text.split(",")
        if len(parts) < 3 or len(parts) > 4:
            self.error(line, f"md: expected 3 or 4 hands separated by ',', found {len(parts)}")
            return
        masks: list[list[int] | None] = [None, None, None, None]
        for seat, part in zip(_LIN_ORDER, parts):
            if not part.strip():
                continue
            try:
                masks[seat] = _lin_hand(part)
            except BridgeInputError as exc:
                self.error(line, f"md: hand {seat.char}: {exc}")
                return
        deal_text = _deal_text(masks)
        self.board.tags["Deal"] = deal_text
        self.board.tag_lines["Deal"] = line

    def finish(self) -> PbnBoard:
        board = self.board
        # Errors found before the "ah" pair named the board by line; use its final name.
        board.errors[:] = [e._replace(board=board.label) for e in board.errors]
        _check_board(board)
        dealer = board.dealer
        if self.calls:
            if dealer is None:
                self.error(self.call_line, "mb: calls but no dealer in md")
            else:
                calls = [_lin_call(c) for c in self.calls]
                try:
                    auction = parse_pbn_auction(dealer.char, [" ".join(calls)])
                except AuctionError as exc:
                    self.error(self.call_line, f"mb: {exc}")
                    auction = None
                board.tags["Auction"] = dealer.char
                written = list(calls)
                for number, (index, text) in enumerate(self.notes, start=1):
                    written[index] += f" ={number}="
                    board.tags.add("Note", f"{number}:{text}")
                board.sections["Auction"] = [" ".join(written)]
                if auction is not None and auction.contract is not None:
                    contract = auction.contract
                    board.tags["Contract"] = contract.pbn_contract()
                    if contract.declarer is not None:
                        board.tags["Declarer"] = contract.declarer.char
                    if self.cards and contract.strain is not None and board.deal is not None:
                        self._play(board, contract.declarer.next, contract.strain)  # type: ignore[union-attr]
        return board

    def _play(self, board: PbnBoard, leader: Seat, trump) -> None:
        from engines.bridge.play import replay

        cards: list[Card] = []
        try:
            for token in self.cards:
                cards.append(Card.from_str(token))
            replay(board.deal, trump, leader, cards)  # type: ignore[arg-type]
        except (PlayError, BridgeInputError) as exc:
            self.error(self.card_line, f"pc: {exc}")
            return
        board.tags["Play"] = leader.char
        board.sections["Play"] = play_to_pbn_rows(leader, cards, trump)


def _lin_hand(text: str) -> list[int]:
    masks = [0, 0, 0, 0]
    suit = -1
    body = text.strip().upper().replace("10", "T")
    for char in body:
        if char in "SHDC":
            suit = "SHDC".index(char)
            continue
        if suit < 0 or char not in "23456789TJQKA":
            raise BridgeInputError(f"bad character {char!r} in {text!r}")
        bit = 1 << "23456789TJQKA".index(char)
        if masks[suit] & bit:
            raise BridgeInputError(f"card {'SHDC'[suit]}{char} twice in {text!r}")
        masks[suit] |= bit
    return masks


def _deal_text(masks: list[list[int] | None]) -> str:
    """PBN text of the hands; one missing hand becomes the cards nobody holds."""
    missing = [s for s in SEATS if masks[s] is None]
    if len(missing) == 1:
        used = [0, 0, 0, 0]
        for m in masks:
            if m is not None:
                used = [u | x for u, x in zip(used, m)]
        masks[missing[0]] = [FULL_SUIT & ~u for u in used]
    hands = ["-" if m is None else Hand(m).to_pbn() for m in masks]
    return "N:" + " ".join(hands)


def _lin_call(text: str) -> str:
    key = text.strip().rstrip("!").upper()
    key = {"P": "Pass", "D": "X", "R": "XX"}.get(key, key)
    try:
        return str(Call.from_str(key))
    except AuctionError:
        return key  # kept as written; parse_pbn_auction reports it


# -- export -----------------------------------------------------------------------------------


def _hand_lin(hand: Hand) -> str:
    return "".join(
        suit + "".join("23456789TJQKA"[r] for r in range(12, -1, -1) if hand.masks[i] >> r & 1)
        for i, suit in enumerate("SHDC")
    )


def dumps(boards: Iterable[PbnBoard]) -> str:
    """One LIN line per board with a deal: names, deal, vulnerability, title, calls, cards."""
    lines = []
    for board in boards:
        if board.deal is None:
            continue
        dealer = board.dealer or Seat.NORTH
        digit = _LIN_ORDER.index(dealer) + 1
        hands = ",".join(_hand_lin(board.deal[s]) for s in _LIN_ORDER)
        # every board starts with pn (BBO does so, and readers such as endplay split on it)
        names = [board.tags.get(_SEAT_TAGS[s], "").strip() for s in _LIN_ORDER]
        names = ["" if n == "?" else n.replace("|", "/").replace(",", " ") for n in names]
        parts = [f"pn|{','.join(names)}|", f"md|{digit}{hands}|", "rh||"]
        if board.board_number is not None:
            parts.append(f"ah|Board {board.board_number}|")
        parts.append(f"sv|{_VUL_OUT[board.vulnerability or 'None']}|")
        parts += _lin_calls(board)
        parts.append("pg||")
        cards = _played_cards(board)
        for start in range(0, len(cards), 4):
            parts += [f"pc|{card}|" for card in cards[start : start + 4]]
            parts.append("pg||")
        lines.append("".join(parts))
    return "\n".join(lines) + ("\n" if lines else "")


def _lin_calls(board: PbnBoard) -> list[str]:
    """LIN ``mb`` (and ``an`` explanation) pairs of the board's PBN ``Auction`` section.

    ``AP`` (all pass) is written out as passes; a call with a note ``=k=`` gets
    the text of ``[Note "k:…"]`` as its ``an`` explanation.
    """
    notes = {}
    for note in board.tags.get_all("Note"):
        number, _, text = note.partition(":")
        notes[number.strip()] = text.strip()
    calls: list[str] = []
    explained: dict[int, str] = {}
    for token in " ".join(board.sections.get("Auction", [])).split():
        if token.startswith("=") and token.endswith("=") and len(token) > 2 and calls:
            text = notes.get(token.strip("="))
            if text is not None:
                explained[len(calls) - 1] = text
            continue
        if token.startswith("$") or token in ("*", "+", "-"):
            continue  # NAGs and the end of the auction are not LIN calls
        if token.upper() == "AP":
            bid = any(c not in ("p", "d", "r") for c in calls)
            calls += ["p"] * ((3 if bid else 4) - _trailing_passes(calls))
            continue
        call = {"PASS": "P", "X": "D", "XX": "R"}.get(token.upper(), token.upper()).rstrip("!")
        call = call[:-1] if call.endswith("NT") else call
        calls.append(call.lower() if call in ("P", "D", "R") else call)
    pairs = []
    for index, call in enumerate(calls):
        text = explained.get(index)
        if text is None:
            pairs.append(f"mb|{call}|")
        else:
            pairs.append(f"mb|{call}!|an|{text.replace('|', '/')}|")
    return pairs


def _trailing_passes(calls: list[str]) -> int:
    count = 0
    for call in reversed(calls):
        if call != "p":
            break
        count += 1
    return count


def _played_cards(board: PbnBoard) -> list[str]:
    """The cards of the ``Play`` section in play order (empty when it cannot be read)."""
    leader = board._value("Play")
    if leader is None or not board.sections.get("Play"):
        return []
    try:
        contract = Contract.from_str(board.tags["Contract"], declarer=board._value("Declarer"))
        if contract.strain is None:
            return []
        return [str(c) for c in parse_pbn_play(leader, board.sections["Play"], contract.strain)]
    except (BridgeInputError, KeyError):
        return []


def dump(boards: Iterable[PbnBoard], fp: TextIO) -> None:
    fp.write(dumps(boards))
