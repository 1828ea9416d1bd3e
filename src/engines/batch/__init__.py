"""Batch analysis at scale: run a task over many positions, resumably, locally or on Dask.

>>> from engines.batch import run_batch, ResultStore  # doctest: +SKIP
>>> with ResultStore("results.sqlite") as store:  # doctest: +SKIP
...     print(run_batch(["deals.pbn"], "bridge-par", store))
bridge-par: 1000 positions read, 1000 computed, 0 already stored, ...

* :mod:`engines.batch.tasks`: the tasks (``bridge-table``, ``rummikub-best``…)
  and how to register one;
* :mod:`engines.batch.runner`: :func:`run_batch` (all cores of this machine)
  and :func:`run_batch_distributed` (a ``dask.distributed.Client``);
* :mod:`engines.batch.store`: the SQLite result store;
* :mod:`engines.batch.generate`, :mod:`engines.batch.report`,
  :mod:`engines.batch.export`, :mod:`engines.batch.bench`: ``qipai gen``,
  ``report``, ``results export`` and ``bench``.
"""

from engines.batch.runner import BatchInterrupted, BatchSummary, run_batch, run_batch_distributed
from engines.batch.store import ResultRow, ResultStore
from engines.batch.tasks import TASKS, Task, get_task, register_task

__all__ = [
    "TASKS",
    "BatchInterrupted",
    "BatchSummary",
    "ResultRow",
    "ResultStore",
    "Task",
    "get_task",
    "register_task",
    "run_batch",
    "run_batch_distributed",
]
