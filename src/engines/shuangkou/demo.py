"""``qipai demo shuangkou``: classification, legal plays, a solved end-game and a round."""

from __future__ import annotations

import random
from typing import TextIO


def demo(out: TextIO) -> None:
    from engines.shuangkou.cards import format_cards
    from engines.shuangkou.endgame import solve_endgame
    from engines.shuangkou.game import Round, play_round
    from engines.shuangkou.players import HeuristicPlayer
    from engines.shuangkou.rules import classify, legal_plays

    for cards in ("S3 H3 S4 D4 C5 C5", "H5 H6 H7 H8 H9", "S3 H3 D3 S4 H4", "LJ LJ BJ BJ"):
        combo = classify(cards)
        what = "not a combination" if combo is None else f"{combo.type} of {combo.rank}"
        print(f"{cards:>22}: {what}", file=out)
    hand, previous = "S3 H3 D3 S4 S5 S6 S7 HA", "C10"
    plays = legal_plays(hand, previous)
    print(f"hand {hand} answering {previous}: {plays.responses_count()} legal responses "
          f"({', '.join(' '.join(p) for p in plays)}, pass)", file=out)
    print(f"the same hand leading: {legal_plays(hand).count()} distinct leads", file=out)
    game = Round(["S3 S4 H5 D6 C7 S10 SK", "H9 H9 D2", "SQ HQ C8 CA", "S8 S8 DA"], leader=0)
    res = solve_endgame(game)
    print(f"end-game (worked example E100), seat 0 to lead: best play "
          f"{' '.join(res.best_play) if isinstance(res.best_play, list) else res.best_play}; "
          f"side 0 gets {res.points:+d} under best play, finishing order "
          f"{res.finishing_order} ({res.nodes} nodes)", file=out)
    rec = play_round([HeuristicPlayer()] * 4, random.Random(1))
    r = rec.result
    print(f"a round of four heuristic players: {len(rec.actions)} actions, finishing order "
          f"{list(r.order)}, points {list(r.points)}"
          f"{' (双扣)' if r.double_win else ''}; seat 0 was dealt "
          f"{format_cards(rec.hands[0])}", file=out)
