"""``qipai report``: summary tables and plots of a result store, as PNG files and one HTML page.

The summary (per task: positions, errors, bad input lines, throughput, and
p50/p90/p99 seconds per position) is text; the distributions are plots —
per-position time histograms, double-dummy tricks per strain, par scores,
Rummikub tiles played — drawn with matplotlib's Agg backend (imported only
here, and only when plots are asked for).  The HTML page embeds the PNGs as
base64, so it is a single file to mail or archive.

>>> from engines.batch.store import ResultRow, ResultStore
>>> store = ResultStore(":memory:")
>>> run = store.begin_run("t", [], workers=1, mode="local")
>>> rows = [ResultRow("t", f"h{i}", f"p{i}", "f", i, {}, {"x": i}, None, 0.01 * i)
...         for i in range(1, 101)]
>>> _ = store.add(rows, run)
>>> stats = summarize(store)[0]
>>> stats.positions, stats.errors, round(stats.p50, 3), round(stats.p99, 3)
(100, 0, 0.505, 0.99)
"""

from __future__ import annotations

import base64
import html
import io
import statistics
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engines.batch.store import ResultStore


@dataclass
class TaskStats:
    """Summary of one task's rows in a store."""

    task: str
    positions: int
    errors: int
    bad_inputs: int
    total_seconds: float
    wall_seconds: float
    p50: float
    p90: float
    p99: float
    mean: float
    versions: list[str] = field(default_factory=list)
    error_examples: list[str] = field(default_factory=list)

    @property
    def throughput(self) -> float:
        """Positions per second of wall time, over the runs that computed them."""
        return self.positions / self.wall_seconds if self.wall_seconds > 0 else 0.0

    def lines(self) -> list[str]:
        return [
            f"task {self.task}",
            f"  positions          {self.positions}",
            f"  solver errors      {self.errors}",
            f"  bad input lines    {self.bad_inputs}",
            f"  throughput         {_rate(self.throughput)} positions/s "
            f"(wall {self.wall_seconds:.1f} s over the runs that computed them)",
            f"  seconds/position   p50 {_fmt(self.p50)}  p90 {_fmt(self.p90)}  "
            f"p99 {_fmt(self.p99)}  mean {_fmt(self.mean)}",
            f"  solver version     {', '.join(self.versions)}",
        ]


def _rate(per_second: float) -> str:
    """Three significant digits: 0.0968, 12.3, 3160."""
    return f"{per_second:.3g}" if per_second < 1000 else f"{per_second:.0f}"


def _fmt(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds * 1e6:.1f} µs"


def percentile(values: Sequence[float], q: float) -> float:
    """Linear-interpolation percentile (``q`` in 0..100) of ``values``; 0 when empty.

    >>> percentile([1, 2, 3, 4], 50), percentile([5], 99)
    (2.5, 5.0)
    """
    if not values:
        return 0.0
    data = sorted(values)
    pos = (len(data) - 1) * q / 100.0
    low = int(pos)
    high = min(low + 1, len(data) - 1)
    return float(data[low] + (data[high] - data[low]) * (pos - low))


def summarize(store: ResultStore) -> list[TaskStats]:
    """One :class:`TaskStats` per task in ``store``."""
    out = []
    runs = store.runs()
    for task in store.tasks():
        seconds: list[float] = []
        errors: list[str] = []
        versions: set[str] = set()
        for row in store.rows(task):
            seconds.append(float(row["seconds"]))
            versions.add(row["solver_version"])
            if row["error"] is not None:
                errors.append(
                    f"{row['position_id']} ({row['source']}:{row['line']}): {row['error']}"
                )
        wall = sum(
            (r["finished_at"] or r["started_at"]) - r["started_at"]
            for r in runs
            if r["task"] == task and r["computed"] > 0
        )
        out.append(
            TaskStats(
                task=task,
                positions=len(seconds),
                errors=len(errors),
                bad_inputs=len(store.bad_inputs(task)),
                total_seconds=sum(seconds),
                wall_seconds=wall,
                p50=percentile(seconds, 50),
                p90=percentile(seconds, 90),
                p99=percentile(seconds, 99),
                mean=statistics.fmean(seconds) if seconds else 0.0,
                versions=sorted(versions),
                error_examples=errors[:10],
            )
        )
    return out


def summary_text(store: ResultStore) -> str:
    """The text summary ``qipai report`` prints."""
    stats = summarize(store)
    if not stats:
        return f"{store.path}: no results"
    lines = [f"results in {store.path}"]
    for s in stats:
        lines += s.lines()
        if store.input_hashes(s.task) == "payload":
            lines.append("  stored as packed blocks: input_hash is the BLAKE2b digest of the "
                         "compact packed payload, not of the canonical text")  # fmt: skip
        for example in s.error_examples:
            lines.append(f"  error: {example}")
    bad = store.bad_inputs()
    for item in bad[:10]:
        lines.append(
            f"bad input ({item['task']}): {item['source']}:{item['line']}: {item['reason']}"
        )
    if len(bad) > 10:
        lines.append(f"… and {len(bad) - 10} more bad input lines")
    return "\n".join(lines)


# -- plots ---------------------------------------------------------------------------------------


@dataclass
class Figure:
    """One rendered plot: a file name, a caption and the PNG bytes."""

    name: str
    caption: str
    png: bytes


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _png(fig: Any) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=100, bbox_inches="tight")
    _pyplot().close(fig)
    return buffer.getvalue()


def time_histogram(task: str, seconds: Sequence[float]) -> Figure:
    """Histogram of seconds per position, log-spaced bins, with p50/p90/p99 marked."""
    import numpy as np

    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 3.6))
    positive = [s for s in seconds if s > 0] or [1e-9]
    low, high = min(positive), max(positive)
    if high <= low:
        high = low * 10
    bins = np.geomspace(low, high, 40)
    ax.hist(positive, bins=bins, color="#4c72b0", edgecolor="white", linewidth=0.4)
    ax.set_xscale("log")
    for row, (q, style) in enumerate(((50, "-"), (90, "--"), (99, ":"))):
        value = percentile(positive, q)
        ax.axvline(value, color="#c44e52", linestyle=style, linewidth=1.2)
        ax.annotate(
            f"p{q} {_fmt(value)}",
            xy=(value, 1),
            xycoords=("data", "axes fraction"),
            xytext=(3, -12 - 11 * row),
            textcoords="offset points",
            fontsize=8,
            color="#c44e52",
        )
    ax.set_xlabel("seconds per position (log scale)")
    ax.set_ylabel("positions")
    ax.set_title(f"{task}: time per position ({len(seconds)} positions)")
    ax.grid(axis="y", alpha=0.3)
    return Figure(f"{task}-time.png", f"{task}: seconds per position", _png(fig))


def count_plot(task: str, values: Sequence[int], what: str) -> Figure:
    """Bar chart of a small integer per position (e.g. Rummikub tiles played)."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 3.4))
    counts = Counter(values)
    low, high = min(counts, default=0), max(counts, default=0)
    if high - low <= 60:
        xs = list(range(low, high + 1))
        ax.bar(xs, [counts.get(x, 0) for x in xs], color="#4c8c4a")
        if len(xs) <= 30:
            ax.set_xticks(xs)
    else:
        # Wide ranges (e.g. numbers of legal follows): a histogram on a log axis.
        import numpy as np

        bins = np.unique(np.geomspace(max(1, low), high + 1, 40).astype(int))
        ax.hist([max(1, v) for v in values], bins=bins, color="#4c8c4a", edgecolor="white")
        ax.set_xscale("log")
    ax.set_xlabel(what)
    ax.set_ylabel("positions")
    mean = statistics.fmean(values) if values else 0.0
    ax.set_title(f"{task}: {what} ({len(values)} positions, mean {mean:.2f})")
    ax.grid(axis="y", alpha=0.3)
    slug = what.split()[0].lower()
    return Figure(f"{task}-{slug}.png", f"{task}: {what}", _png(fig))


def bool_plot(task: str, values: Sequence[bool], what: str) -> Figure:
    """Two bars: how many positions answered true and false."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(4.5, 3.2))
    yes = sum(1 for v in values if v)
    ax.bar(["true", "false"], [yes, len(values) - yes], color=["#4c8c4a", "#c44e52"])
    ax.set_ylabel("positions")
    ax.set_title(f"{task}: {what}")
    ax.grid(axis="y", alpha=0.3)
    slug = what.split()[0].lower()
    return Figure(f"{task}-{slug}.png", f"{task}: {what}", _png(fig))


def figures(store: ResultStore) -> list[Figure]:
    """Every plot that applies to the tasks in ``store``."""
    from engines.batch.tasks import TASKS

    out: list[Figure] = []
    for task in store.tasks():
        seconds: list[float] = []
        results: list[Any] = []
        for row in store.rows(task):
            seconds.append(float(row["seconds"]))
            if row["result"] is not None:
                results.append(row["result"])
        out.append(time_histogram(task, seconds))
        out.extend(_result_figures(task, TASKS.get(task), results))
    return out


def _result_figures(task: str, task_obj: Any, results: list[Any]) -> list[Figure]:
    """The task's own plots (``Task.figures``), or the generic ones of flat answers."""
    if not results or task_obj is None:
        return []
    if task_obj.figures is not None:
        return list(task_obj.figures(task, results))
    if task_obj.result_kind == "answers":
        labels = dict(task_obj.answer_labels)
        # Flat answers ({"legal": true}, {"count": 3}…): one bar chart per field.
        grouped: dict[str, list[Any]] = defaultdict(list)
        for r in results:
            for key, value in r.items():
                if key != "kind":
                    grouped[key].append(value)
        figs = []
        for key, values in sorted(grouped.items()):
            label = labels.get(key, key)
            if all(isinstance(v, bool) for v in values):
                figs.append(bool_plot(task, values, label))
            elif all(isinstance(v, int) and not isinstance(v, bool) for v in values):
                figs.append(count_plot(task, values, label))
        return figs
    return []


def write_report(store: ResultStore, out_dir: str | Path, *, plots: bool = True) -> Path:
    """Write the PNGs and ``report.html`` into ``out_dir``; returns the HTML file's path."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    figs = figures(store) if plots else []
    for fig in figs:
        (out / fig.name).write_bytes(fig.png)
    page = out / "report.html"
    page.write_text(_html(store, figs), encoding="utf-8")
    return page


def _html(store: ResultStore, figs: Sequence[Figure]) -> str:
    stats = summarize(store)
    head = (
        "<tr><th>task</th><th>positions</th><th>solver errors</th><th>bad input lines</th>"
        "<th>positions/s</th><th>p50</th><th>p90</th><th>p99</th><th>mean</th>"
        "<th>solver version</th></tr>"
    )
    rows = "".join(
        f"<tr><td>{html.escape(s.task)}</td><td>{s.positions}</td><td>{s.errors}</td>"
        f"<td>{s.bad_inputs}</td><td>{_rate(s.throughput)}</td><td>{_fmt(s.p50)}</td>"
        f"<td>{_fmt(s.p90)}</td><td>{_fmt(s.p99)}</td><td>{_fmt(s.mean)}</td>"
        f"<td>{html.escape(', '.join(s.versions))}</td></tr>"
        for s in stats
    )
    problems = [e for s in stats for e in s.error_examples]
    problems += [
        f"bad input ({b['task']}): {b['source']}:{b['line']}: {b['reason']}"
        for b in store.bad_inputs()[:20]
    ]
    problem_html = (
        "<h2>Errors</h2><ul>" + "".join(f"<li>{html.escape(p)}</li>" for p in problems) + "</ul>"
        if problems
        else ""
    )
    images = "".join(
        f'<figure><img alt="{html.escape(f.caption)}" '
        f'src="data:image/png;base64,{base64.b64encode(f.png).decode()}">'
        f"<figcaption>{html.escape(f.caption)}</figcaption></figure>"
        for f in figs
    )
    return (
        "<!DOCTYPE html><html><head><meta charset='utf-8'>"
        f"<title>qipai report: {html.escape(store.path)}</title><style>"
        "body{font-family:sans-serif;margin:2em;max-width:1250px}"
        "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px;"
        "text-align:right}th{background:#f0f0f0}td:first-child{text-align:left}"
        "figure{margin:1.5em 0}img{max-width:100%}figcaption{color:#555;font-size:90%}"
        "</style></head><body>"
        f"<h1>qipai batch report</h1><p>{html.escape(store.path)}</p>"
        f"<table>{head}{rows}</table>{problem_html}{images}</body></html>\n"
    )
