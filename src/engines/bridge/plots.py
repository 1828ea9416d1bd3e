"""The bridge plots of ``qipai report``: DD tricks per strain and par scores.

Drawn with the report's helpers (matplotlib's Agg backend, imported on use);
the bridge tasks name them as their ``figures`` (:mod:`engines.bridge.tasks`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from engines.batch.report import Figure, _png, _pyplot

__all__ = ["dd_tricks_plot", "par_figures", "par_plot", "table_figures"]

_STRAINS = ("C", "D", "H", "S", "NT")


def dd_tricks_plot(task: str, tables: Sequence[dict[str, dict[str, int]]]) -> Figure:
    """Per strain, how often North-South (best of N and S) take 0..13 tricks double dummy."""
    plt = _pyplot()
    fig, axes = plt.subplots(1, 5, figsize=(12, 3), sharey=True)
    colours = ("#4c8c4a", "#d9822b", "#c44e52", "#3b5b92", "#6b5b95")
    for ax, strain, colour in zip(axes, _STRAINS, colours):
        counts = Counter(max(t[strain]["N"], t[strain]["S"]) for t in tables)
        xs = list(range(14))
        ax.bar(xs, [counts.get(x, 0) / max(1, len(tables)) for x in xs], color=colour, width=0.8)
        mean = sum(k * v for k, v in counts.items()) / max(1, len(tables))
        ax.set_title(f"{strain}  (mean {mean:.2f})", fontsize=10)
        ax.set_xticks([0, 3, 6, 9, 13])
        ax.set_xlabel("tricks")
        ax.grid(axis="y", alpha=0.3)
    axes[0].set_ylabel("share of deals")
    fig.suptitle(
        f"{task}: double-dummy tricks for North-South (best declarer of N/S), {len(tables)} deals",
        fontsize=11,
    )
    fig.tight_layout()
    return Figure(f"{task}-dd-tricks.png", f"{task}: DD tricks per strain", _png(fig))


def par_plot(task: str, scores: Sequence[int]) -> Figure:
    """Bar per par score (North-South's point of view), the 40 most frequent in score order."""
    plt = _pyplot()
    counts = Counter(scores)
    shown = sorted(score for score, _ in counts.most_common(40))
    fig, ax = plt.subplots(figsize=(max(6.0, 0.28 * len(shown) + 1.5), 3.6))
    ax.bar(range(len(shown)), [counts[x] for x in shown], color="#3b5b92")
    ax.set_xticks(range(len(shown)))
    ax.set_xticklabels([str(x) for x in shown], rotation=70, fontsize=7)
    ax.set_xlabel("par score for North-South (one bar per score; negative: East-West's)")
    ax.set_ylabel("deals")
    hidden = len(counts) - len(shown)
    more = f"; {hidden} rarer scores not shown" if hidden > 0 else ""
    ax.set_title(f"{task}: par scores, {len(scores)} deals{more}")
    ax.grid(axis="y", alpha=0.3)
    return Figure(f"{task}-par.png", f"{task}: par score distribution", _png(fig))


def table_figures(task: str, results: list[Any]) -> list[Figure]:
    """Plots of ``bridge-table`` results (DD tables)."""
    return [dd_tricks_plot(task, results)]


def par_figures(task: str, results: list[Any]) -> list[Figure]:
    """Plots of ``bridge-par`` results (DD table and par)."""
    return [
        dd_tricks_plot(task, [r["table"] for r in results]),
        par_plot(task, [int(r["par"]["score"]) for r in results]),
    ]
