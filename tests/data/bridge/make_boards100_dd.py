"""Regenerate ``boards100.dd.jsonl``: DDS tables and dealer par of the ``boards100.pbn`` boards.

Needs the ``bench`` extra (endplay, DDS 2.9).  One JSON object per board:
``{"board": n, "pbn": ..., "dealer": ..., "vulnerability": ..., "dd": {strain: {seat: tricks}},
"par": {"score": int, "contracts": [...]}}``, the corpus layout.

    python tests/data/bridge/make_boards100_dd.py > tests/data/bridge/boards100.dd.jsonl
"""

import json
import sys
from pathlib import Path

import endplay._dds as dds
from endplay.dds import calc_dd_table
from endplay.dds.parscore import ParList
from endplay.types import Deal as EDeal

from engines.bridge.pbn import read_pbn

HERE = Path(__file__).parent
DDS_STRAIN = {"S": 0, "H": 1, "D": 2, "C": 3, "NT": 4}
DDS_VUL = {"None": 0, "Both": 1, "NS": 2, "EW": 3}


def main() -> None:
    for board in read_pbn(HERE / "boards100.pbn"):
        pbn = board.deal.to_pbn()
        table = calc_dd_table(EDeal(pbn))
        raw = table._data
        dd = {
            s: {p: raw.resTable[i][k] for k, p in enumerate("NESW")} for s, i in DDS_STRAIN.items()
        }
        dd = {s: dd[s] for s in ("C", "D", "H", "S", "NT")}
        result = dds.parResultsMaster()
        dds.DealerParBin(raw, result, int(board.dealer), DDS_VUL[board.vulnerability])
        par = ParList(result)
        contracts = [str(c).translate(str.maketrans("♠♥♦♣", "SHDC")) for c in par]
        record = {
            "board": board.board_number,
            "pbn": pbn,
            "dealer": board.dealer.char,
            "vulnerability": board.vulnerability,
            "dd": dd,
            "par": {"score": par.score, "contracts": contracts},
        }
        sys.stdout.write(json.dumps(record, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
