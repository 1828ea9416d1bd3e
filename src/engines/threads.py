"""The one thread cap for Numba batch calls.

Batch entry points take ``threads=None`` (Numba's setting: all cores unless
``NUMBA_NUM_THREADS`` says otherwise) or a count.  :func:`numba_threads`
applies that count for the duration of one kernel call and restores the
previous setting afterwards, so a call never changes the threads of the next.

>>> import numba
>>> before = numba.get_num_threads()
>>> with numba_threads(1):
...     numba.get_num_threads()
1
>>> numba.get_num_threads() == before
True
>>> with numba_threads(-2):
...     pass
Traceback (most recent call last):
...
engines.errors.InputError: threads: expected a count >= 1 (or None for all cores), got -2
"""

from __future__ import annotations

from engines.errors import InputError

__all__ = ["check_threads", "numba_threads"]


def check_threads(threads: int | None, error: type[InputError] = InputError) -> int | None:
    """``threads`` if it is None, 0 (both: the default) or a positive int; else ``error``."""
    if threads is None:
        return None
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 0:
        raise error(
            f"threads: expected a count >= 1 (or None for all cores), got {threads!r}"
        )
    return threads


class numba_threads:  # (lower case: used as a function, in a with statement)
    """Run the body with ``threads`` Numba threads (clamped to ``NUMBA_NUM_THREADS``).

    ``None`` and ``0`` leave Numba's current setting; a negative count or a
    non-integer raises ``error`` (an :class:`InputError`; games pass their own).
    Numba's count is set, and restored afterwards, only when it differs: a batch
    call of a few positions otherwise spent ~6 µs on setting and restoring it
    (and on a generator-based context manager).
    """

    __slots__ = ("old", "threads")

    def __init__(self, threads: int | None, error: type[InputError] = InputError) -> None:
        self.threads = check_threads(threads, error) or 0
        self.old = 0

    def __enter__(self) -> None:
        if self.threads:
            import numba

            want = min(self.threads, numba.config.NUMBA_NUM_THREADS)
            old = numba.get_num_threads()
            if old != want:
                numba.set_num_threads(want)
                self.old = old

    def __exit__(self, *exc: object) -> None:
        if self.old:
            import numba

            numba.set_num_threads(self.old)
            self.old = 0
