"""Top-level batch commands: ``qipai gen``, ``batch``, ``results``, ``report`` and ``bench``.

``register(subparsers)`` receives the top-level subparsers of ``qipai``.
Heavy modules (engines, dask, matplotlib) are imported inside the handlers.
"""

from __future__ import annotations

import argparse
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from engines.cliargs import (
    add_count_flag,
    add_deprecated_flag,
    add_output_flag,
    add_progress_flags,
    add_seed_flag,
    add_threads_flag,
    open_output,
)
from engines.errors import InputError

DEFAULT_DB = "qipai-results.sqlite"


def register(subparsers: Any) -> None:
    _register_gen(subparsers)
    _register_batch(subparsers)
    _register_pack(subparsers)
    _register_results(subparsers)
    _register_report(subparsers)
    _register_bench(subparsers)


# -- gen --------------------------------------------------------------------------------------


def _register_gen(subparsers: Any) -> None:
    from engines.batch.generate import GENERATORS

    gen = subparsers.add_parser(
        "gen",
        help="generate random positions of a game (" + ", ".join(GENERATORS) + ")",
        description="Generate seeded random positions for `qipai batch` and `qipai bench`.",
    )
    games = gen.add_subparsers(title="games", metavar="GAME")
    gen.set_defaults(func=lambda _a: gen.print_help() or 0)
    for generator in GENERATORS.values():
        parser = games.add_parser(
            generator.game, help=generator.help, description=generator.description
        )
        add_count_flag(parser, default=100, what=generator.what)
        add_seed_flag(parser, default=0)
        add_output_flag(parser)
        generator.add_arguments(parser)
        parser.set_defaults(func=_gen, generator=generator)


def _gen(args: argparse.Namespace) -> int:
    records = args.generator.records(args)
    with open_output(args.output) as out:
        args.generator.write(records, out, args)
    return 0


# -- pack -------------------------------------------------------------------------------------


def _register_pack(subparsers: Any) -> None:
    pack = subparsers.add_parser(
        "pack",
        help="write JSON Lines positions of a 升级/双扣 task as a packed file for `qipai batch`",
        description="Write the positions of JSON Lines FILEs as one packed positions file "
        "(.qpk): count rows instead of text, read by `qipai batch --task TASK` without "
        "parsing. Ids, canonical inputs and input hashes stay those of the JSON Lines, so a "
        "store resumes either. For tasks with a native record reader (shengji-legal, "
        "shuangkou-legal). A line that is not a position stops it (exit 2), naming the line.",
    )
    pack.add_argument("files", nargs="+", metavar="FILE", help="JSON Lines input")
    pack.add_argument("--task", required=True, metavar="TASK", help="the task to read them for")
    pack.add_argument("-o", "--output", required=True, metavar="OUT", help="packed file (.qpk)")
    pack.set_defaults(func=_pack)


def _pack(args: argparse.Namespace) -> int:
    from engines.batch.inputs import BadInput, jsonl_entry
    from engines.batch.packed import write_packed
    from engines.batch.tasks import get_task

    task = get_task(args.task)

    def prepared(label: str, number: int, text: str) -> tuple[str, Any] | None:
        entry = jsonl_entry(label, number, text)
        if entry is None or isinstance(entry, BadInput):
            if entry is not None:
                raise InputError(str(entry))
            return None
        try:
            return entry.position_id, task.json_text(task.prepare(entry.obj))
        except KeyError as exc:
            raise InputError(f"{label}:{number}: missing field {exc}") from None
        except (ValueError, TypeError) as exc:
            raise InputError(f"{label}:{number}: {exc}") from None

    try:
        handle = open(args.output, "wb")  # noqa: SIM115 (closed below)
    except OSError as exc:
        raise InputError(f"{args.output}: cannot write: {exc.strerror}") from exc
    try:
        with handle:
            count = write_packed(task, args.files, handle, prepared)
    except BaseException:
        Path(args.output).unlink(missing_ok=True)
        raise
    print(f"{args.output}: {count} positions packed for {task.name}", file=sys.stderr)
    return 0


# -- batch ------------------------------------------------------------------------------------


def _task_help() -> str:
    from engines.batch.tasks import TASKS

    return "; ".join(f"{t.name}: {t.summary}" for t in sorted(TASKS.values(), key=lambda t: t.name))


def _register_batch(subparsers: Any) -> None:
    from engines.batch.tasks import TASKS

    batch = subparsers.add_parser(
        "batch",
        help="run a task over many positions on all cores or a Dask cluster, resumably",
        description="Run TASK on every position of the input files (PBN or JSON Lines) and "
        "store one row per position in an SQLite database. Rerunning the same command after "
        "an interruption resumes: stored positions are neither recomputed nor duplicated. "
        "Bad input lines are reported (file:line: reason) and skipped. Exit status: 0, or 1 "
        "when the solver refused some position (its row holds the error), 2 for unusable "
        "input (with --strict: the first bad line), 130 when interrupted.",
    )
    batch.add_argument(
        "files", nargs="+", metavar="FILE", help="PBN or JSON Lines input (- = stdin)"
    )
    batch.add_argument(
        "--task",
        choices=sorted(TASKS),
        metavar="TASK",
        help=f"what to compute (required). {_task_help()}",
    )
    add_deprecated_flag(
        batch, "-t", dest="task", replacement="--task", choices=sorted(TASKS), metavar="TASK"
    )
    batch.add_argument("--db", default=DEFAULT_DB, help=f"result database ({DEFAULT_DB})")
    add_threads_flag(batch, "threads (native engines) or worker processes (default: all cores)")
    batch.add_argument(
        "--chunk-size",
        type=int,
        default=None,
        help="positions per solver call and per committed transaction (task default)",
    )
    batch.add_argument(
        "--strict", action="store_true", help="stop at the first bad input line (exit 2)"
    )
    batch.add_argument(
        "--store-layout", choices=("auto", "rows", "packed", "placed"), default="auto",
        help="how the task is kept in --db: rows (input hash of the canonical text), "
        "packed blocks (hash of the packed payload; packed inputs only, chosen once per "
        "store and task), or placed (each position keyed by its packed file and record "
        "number: nothing hashed, repeats solved again, no input stored; exports read the "
        "inputs back from the file; shengji-legal and shuangkou-legal, locally). auto: for "
        "packed inputs (qipai pack) into a store that has nothing of the task yet, placed "
        "where the task allows it, else packed blocks; else as the store has it",
    )  # fmt: skip
    add_progress_flags(batch)
    dask = batch.add_mutually_exclusive_group()
    dask.add_argument(
        "--dask-scheduler",
        metavar="ADDRESS",
        help="run on an existing Dask cluster (e.g. tcp://10.0.0.5:8786)",
    )
    dask.add_argument(
        "--dask-local",
        type=int,
        metavar="N",
        help="start a local Dask cluster of N single-threaded worker processes for this run",
    )
    batch.set_defaults(func=_batch)


def _batch(args: argparse.Namespace) -> int:
    from engines.batch.runner import BatchInterrupted, run_batch, run_batch_distributed
    from engines.batch.store import ResultStore

    if args.task is None:
        raise InputError("--task is required (qipai batch --help lists the tasks)")
    if args.chunk_size is not None and args.chunk_size < 1:
        raise InputError(f"--chunk-size must be >= 1, got {args.chunk_size}")
    for path in args.files:
        if path != "-" and not Path(path).is_file():
            raise InputError(f"{path}: no such input file")
    # (a local run opens and closes the store itself: a new one is made for packed blocks
    # at once when the run stores them)
    dask = args.dask_scheduler or args.dask_local
    store = ResultStore(args.db) if dask else args.db
    try:
        if dask:
            with _dask_client(args.dask_scheduler, args.dask_local) as client:
                summary = run_batch_distributed(
                    client,
                    args.files,
                    args.task,
                    store,
                    chunk_size=args.chunk_size,
                    strict=args.strict,
                    progress=args.progress,
                    store_layout=args.store_layout,
                )
        else:
            summary = run_batch(
                args.files,
                args.task,
                store,
                jobs=args.threads,
                chunk_size=args.chunk_size,
                strict=args.strict,
                progress=args.progress,
                store_layout=args.store_layout,
            )
    except BatchInterrupted as exc:
        print(f"qipai: {exc}", file=sys.stderr)
        print(f"qipai: {exc.summary}", file=sys.stderr)
        return 130
    finally:
        if isinstance(store, ResultStore):
            store.close()
    print(f"{summary}; results in {args.db}", file=sys.stderr)
    return 1 if summary.solver_errors else 0


@contextmanager
def _dask_client(address: str | None, local_workers: int | None):
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise InputError(
            "Dask is not installed: pip install 'qipai[dist]' (dask[distributed])"
        ) from None
    if address:
        try:
            client = Client(address, timeout="20s")
        except OSError as exc:
            raise InputError(f"cannot reach the Dask scheduler at {address}: {exc}") from exc
        with client:
            yield client
        return
    if local_workers is not None and local_workers < 1:
        raise InputError(f"--dask-local must be >= 1, got {local_workers}")
    with (
        LocalCluster(
            n_workers=local_workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
        ) as cluster,
        Client(cluster) as client,
    ):
        yield client


# -- results / report -------------------------------------------------------------------------


def _register_results(subparsers: Any) -> None:
    results = subparsers.add_parser(
        "results", help="inspect and export a result database", description="Result databases."
    )
    commands = results.add_subparsers(title="results commands", metavar="COMMAND")
    results.set_defaults(func=lambda _a: results.print_help() or 0)
    export = commands.add_parser(
        "export",
        help="export as CSV or JSON Lines",
        description="One row per stored position with its input id, source file and line, "
        "task, input hash, input, result (JSON), error, seconds and solver version.",
    )
    export.add_argument("db", metavar="DB")
    export.add_argument("-f", "--format", choices=("csv", "jsonl"), default="jsonl")
    add_output_flag(export)
    export.add_argument("--task", default=None, help="only this task's rows")
    add_deprecated_flag(export, "-t", dest="task", replacement="--task")
    export.set_defaults(func=_export)


def _export(args: argparse.Namespace) -> int:
    from engines.batch.export import export
    from engines.batch.store import ResultStore

    with ResultStore.open_existing(args.db) as store, open_output(args.output) as out:
        n = export(store, out, args.format, task=args.task)
    if args.output != "-":
        print(f"exported {n} rows to {args.output}", file=sys.stderr)
    return 0


def _register_report(subparsers: Any) -> None:
    report = subparsers.add_parser(
        "report",
        help="summary and plots of a result database (PNG + one HTML page)",
        description="Print counts, throughput, p50/p90/p99 seconds per position and errors; "
        "write plots (time histograms, DD tricks per strain, par scores, Rummikub tiles "
        "played…) as PNG files and one self-contained HTML page.",
    )
    report.add_argument("db", metavar="RESULTS.sqlite")
    report.add_argument(
        "-o",
        "--output",
        default=None,
        metavar="DIR",
        help="folder to write the files into (default: DB-report/ beside the database)",
    )
    add_deprecated_flag(report, "--output-dir", dest="output", replacement="-o/--output")
    report.add_argument("--no-plots", action="store_true", help="text summary only")
    report.set_defaults(func=_report)


def _report(args: argparse.Namespace) -> int:
    from engines.batch.report import summary_text, write_report
    from engines.batch.store import ResultStore

    with ResultStore.open_existing(args.db) as store:
        print(summary_text(store))
        if args.no_plots:
            return 0
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise InputError(
                "plots need matplotlib: pip install 'qipai[report]' (or use --no-plots)"
            ) from None
        out_dir = args.output or str(Path(args.db).with_suffix("")) + "-report"
        try:
            page = write_report(store, out_dir)
        except OSError as exc:
            raise InputError(
                f"{out_dir}: cannot write the report ({exc.strerror}); pass -o DIR elsewhere"
            ) from exc
    print(f"report: {page} (PNG files beside it)")
    return 0


# -- bench ------------------------------------------------------------------------------------


def _register_bench(subparsers: Any) -> None:
    from engines.batch import bench

    parser = subparsers.add_parser(
        "bench",
        help="time our solver and the reference system on the same positions",
        description="Run our solver and the reference (endplay/DDS with 1 thread; "
        "rummikub-solver) alternately on the same positions; print per-position medians and "
        "the ratio ours/reference.",
    )
    games = parser.add_subparsers(title="games", metavar="GAME")
    parser.set_defaults(func=lambda _a: parser.print_help() or 0)
    for game, spec in bench.BENCHES.items():
        p = games.add_parser(game, help=spec.help, description=spec.help)
        p.add_argument("file", nargs="?", help="positions to time (default: generate --count)")
        add_count_flag(p, spec.default_count, "positions to generate when no FILE is given")
        add_seed_flag(p)
        p.add_argument(
            "-r", "--repeat", type=int, default=3, help="timed runs per position and solver (3)"
        )
        p.set_defaults(func=_bench, game=game)


def _bench(args: argparse.Namespace) -> int:
    from engines.batch import bench

    if args.repeat < 1:
        raise InputError(f"--repeat must be >= 1, got {args.repeat}")
    result = bench.run(
        args.game, path=args.file, count=args.count, seed=args.seed, repeat=args.repeat
    )
    print(result.text())
    return 0
