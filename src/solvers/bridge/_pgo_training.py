"""Training run for the profile-guided build of the bridge search (run by setup.py only).

setup.py compiles ``_ab_kernel`` and ``_ab_kernel_bmi`` with ``-fprofile-generate``, runs this
file once a kernel, then compiles them again with the recorded profile.  The work is a small
copy of what the solver spends its time on: every opening lead of a deal scored (the lead
simulation's call) in notrump and whole DD tables (all five strains), one thread, on the deals
below (fixed, so the build is reproducible; made once with Python's ``random``, no benchmark's
seed).  The leads in notrump only: with a fifth of them in each strain, as before, the lead
simulation (notrump) ran 1.2-1.5 % slower, tables and leads in spades 0.5-1 % slower
(benches/README #17, "The PGO build trained on leads in notrump").

    python _pgo_training.py ROOT KERNEL

``ROOT`` is the folder holding the just-built ``solvers`` package (its sources come from this
file's own tree); ``KERNEL`` is ``_ab_kernel`` or ``_ab_kernel_bmi``.  Exit status 0: trained;
3: this CPU cannot run that kernel (no profile, setup.py builds it plainly); other: failed.
"""

from __future__ import annotations

import importlib
import sys
import types
from pathlib import Path

import numpy as np

# one deal a string: character 13 * suit + rank (suits S H D C, rank 0 = the two) is the seat
# (0-3: N E S W) holding that card
DEALS = (
    "2303033211110211300131210130223220201022333212030130",
    "0021332001330121222211123200303203013010330313221121",
    "2110323311231331220123023030303121000220231011200213",
    "1131032101222303031111202232230111232330223000130030",
    "0310203030111023022220322311203202333021111132013301",
    "0332310122221232332111032301331000230010302213010112",
    "2031122223302310310311000230111131233221012022303003",
    "3300023212032120012313222330122131113130012003003112",
    "2200102200001102320302033313213111320133123301221312",
    "0111032103021030011023213002232100233311212123302323",
    "1121020131210010223203101032313232103221233030013302",
    "2021112333221133012030233232231320203110111002001003",
    "2131122310023300333130022203022331023111110203101220",
    "2221302313312321020213133012202131000031013010133220",
    "2222021223133113110313200003120312001023300321130312",
    "3022030001011231112030033223232231121101130032332021",
    "1131220330132301220131030221302321132130003230200121",
    "2203121013030102332223201120123233100121301211030330",
    "2321103303332302031202111001330112132120103200222103",
    "2301111110201233230213203003113321010123230232200230",
    "0033100110303022231210123321323212131220210101003332",
    "2023100300232201312012213113231201310303320010113223",
    "1233010112310122221323203313011301023130223022000130",
    "1012033321131333020102332111012022002320013132010322",
    "0111021020330331201320333212122310323120211332000102",
    "0113113101231102022310030002223223021323203211333010",
    "3222011022023032110012110102133301031110200332332332",
    "3113332330001001022230031123321122200123011330222101",
    "1101102021311202332203023310313222033321121003321000",
    "1000102102313213013222201122310010233333320113120023",
    "2002020203301202033313111113202010113210313201233223",
    "0100021230201013132121302201101322301323203122133330",
    "2103133030022230111310103023210133120002031222211233",
    "2303212021003313003201232201001203032113121132032113",
    "0211311300213303212301311213002132200220203201031332",
    "2221332210232110301233202133123011031012031031020003",
    "2030123202132100220211002200333132311002301111321333",
    "3022312000111111232000121203323030330102233133121022",
    "0320012011321202321200312311333312212210320013303010",
    "2311210002312223103110313302110003232002122133323001",
    "3002123313331233202001301222100332013111100012203122",
    "0033221231220321011310120010233313222311331020013200",
    "0013223223230011112133122103300332221103210103120300",
    "0331013220301030121233201201303101032231020112321223",
    "3010212220200331231102201333320201302111231032031013",
    "3311233021212203012232012132003011213233103002310100",
    "3023210201301023131111020231332032030021202301132312",
    "1002223003221310133110200222110310132133130230132230",
)
TABLES = 6  # the first deals also solved as whole DD tables (20 strain-declarer cells each)
NOTRUMP = 4  # the kernel's strain index
CANNOT_RUN = 3


def deal_masks(deal: str) -> np.ndarray:
    """``uint16[4, 4]`` suit masks ``[seat][suit]`` of one deal string."""
    hands = np.zeros((4, 4), dtype=np.uint16)
    for card, seat in enumerate(deal):
        hands[int(seat), card // 13] |= 1 << (card % 13)
    return hands


def _built_packages(root: Path) -> None:
    """``solvers`` and ``solvers.bridge`` as found first in ``root`` (the build), then here."""
    here = Path(__file__).resolve().parent
    for name, source in (("solvers", here.parent), ("solvers.bridge", here)):
        package = types.ModuleType(name)
        package.__path__ = [str(root.joinpath(*name.split("."))), str(source)]
        sys.modules[name] = package


def train(kernel) -> None:
    """The training work on one kernel module."""
    hands = np.stack([deal_masks(deal) for deal in DEALS])
    for i in range(len(DEALS)):
        kernel.lead_values(hands[i : i + 1], NOTRUMP, i % 4, 1)
    for i in range(TABLES):
        kernel.dd_table(hands[i])


def main(argv: list[str]) -> int:
    root, name = Path(argv[0]), argv[1]
    _built_packages(root)
    search = importlib.import_module("solvers.bridge._ab_search")
    if name.endswith("_bmi") and not search.cpu_has_bit_instructions():
        return CANNOT_RUN
    train(importlib.import_module(f"solvers.bridge.{name}"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
