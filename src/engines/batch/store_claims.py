"""A result store's claims (:class:`~engines.batch.store.ResultStore` inherits them): the
positions a run will compute, so that another run on the same store leaves them to it.

A run alone on its task may keep its claims in this connection's memory rather than write
them (the batch runner's claims of a fast task: writing them cost ~0.05 µs of SQLite a 升级
position on the runner's thread).  It then says so in ``meta`` (key ``claims_kept:RUN``,
value the task), and writes what it kept and has not stored as soon as it sees another
run of the task (at its next claim, at its next commit, or every :data:`COMMIT_PAUSE`
seconds while it waits for a solve), removing the key.  A run's claims wait, up to
:data:`SHARE_WAIT_SECONDS`, while another live run of the task keeps claims on another
connection: a run that starts while another is mid-way so sees all the first one's
claims, as when every claim is written.  Should the wait end first (the other run stopped,
``kill -STOP`` or Ctrl-Z, or stuck; or the second run of an older qipai), positions may be
solved twice but are never stored twice: a commit looks up what other connections stored
(:meth:`Known.absent`); and the claims of this connection wait no more for that run (a
stopped run would otherwise hold back every claim of the other by the whole wait).
While such a run stays alone and nothing changed since its last claim's transaction (no
other connection committed: SQLite's ``data_version``; no run began or ended on this one),
its next claim is made in memory without a transaction, which would read nothing new.
"""

from __future__ import annotations

import functools
import sqlite3
import threading
import time
from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any, TypeVar

from engines.batch.store_errors import StoreError
from engines.batch.store_known import Known
from engines.batch.store_packed import task_hashes
from solvers._batch_hashes import DigestSet, select

#: The longest a run's claim waits for another live run of the task to write the claims it
#: keeps in memory (it does within a claim, a commit or :data:`COMMIT_PAUSE`, unless stuck).
SHARE_WAIT_SECONDS = 5.0
#: How often a run keeping claims looks for another run while it waits for a solve.
COMMIT_PAUSE = 0.25
_POLL_SECONDS = 0.01
_KEPT = "claims_kept:"
_OTHER_RUN = "SELECT 1 FROM runs WHERE task=? AND status='running' AND run_id<>? LIMIT 1"

_Method = TypeVar("_Method", bound=Any)


def serialized(method: _Method) -> _Method:
    """Run ``method`` holding the store's lock (its transaction and the updates after it)."""

    @functools.wraps(method)
    def locked(self: Any, *args: Any, **kwargs: Any) -> Any:
        with self._lock:
            return method(self, *args, **kwargs)

    return locked  # type: ignore[return-value]


def kept_key(run_id: int) -> str:
    """The ``meta`` key saying that run ``run_id`` keeps claims in memory."""
    return f"{_KEPT}{run_id}"


class StoreClaims:
    """Claims of a result store (its connection ``_db``, behind ``_write``)."""

    path: str
    _db: sqlite3.Connection
    _lock: threading.RLock
    _hash_kinds: dict[str, str]
    # Claims each run of this connection keeps in memory (its key in meta written).
    _kept: dict[int, list[bytes]]
    # Runs keeping claims elsewhere whose wait ran out: not waited for again.
    _unanswered: set[int]
    _runs_epoch: int

    def _write(self, *, durable: bool) -> AbstractContextManager[None]:
        raise NotImplementedError

    def _guard(self) -> AbstractContextManager[None]:
        raise NotImplementedError

    def _sync(self, task: str, *, claims: bool, own_run: int | None = None) -> Known:
        raise NotImplementedError

    @serialized
    def claim(self, task: str, hashes: Sequence[str], run_id: int) -> tuple[set[str], set[str]]:
        """Claim the positions of ``hashes`` for ``run_id``: ``(stored, claimed by others)``.

        In one write transaction: the hashes already stored and those another
        running run claimed are returned; every other hash is claimed for this
        run (one ``claims`` row), which must then store it or end
        (:meth:`end_run` releases its claims).  A hash both stored and claimed
        counts as stored.  Hashes hold no whitespace.
        """
        with self._write(durable=False):
            self._db.execute("BEGIN IMMEDIATE")
            known = self._sync(task, claims=True)
            stored = {h for h in hashes if h in known.stored}
            elsewhere = [claimed for rid, claimed in known.claims.items() if rid != run_id]
            others = {
                h for h in hashes if h not in stored and any(h in c for c in elsewhere)
            }
            todo = [h for h in dict.fromkeys(hashes) if h not in stored and h not in others]
            if todo:
                cur = self._db.execute(
                    "INSERT INTO claims (task, run_id, hashes) VALUES (?, ?, ?)",
                    (task, run_id, " ".join(todo)),
                )
        # Only once committed: a failed transaction claimed nothing.
        if todo:
            known.claims.setdefault(run_id, DigestSet()).update(todo)
            known.claim_mark = int(cur.lastrowid)
        return stored, others

    def claim_digests(self, task: str, digests: bytes, run_id: int, *,
                      lazy: bool = False) -> bytearray:  # fmt: skip
        """:meth:`claim` for hashes given as 16-byte digests (``hexes(digests)``, no repeats):
        one status a position, 0 claimed now, 1 stored, 2 claimed by another running run.
        ``lazy``: while no other run of the task runs, the claim is kept in memory (not the
        run's first: it binds the task's hashes, ``choose_payload_hashes``), see the module.
        Waits first while another run keeps claims of the task elsewhere (up to
        :data:`SHARE_WAIT_SECONDS`, once for each such run)."""
        deadline = time.monotonic() + SHARE_WAIT_SECONDS
        while (status := self._claim_digests(task, digests, run_id, lazy, deadline)) is None:
            time.sleep(_POLL_SECONDS)
        return status

    @serialized
    def _claim_digests(self, task: str, digests: bytes, run_id: int, lazy: bool,
                       deadline: float) -> bytearray | None:  # fmt: skip
        """One try of :meth:`claim_digests`: None when it must wait."""
        known = self._known.get(task)
        if lazy and known is not None and self._unchanged(known, run_id):
            return self._keep_more(known, digests, run_id)
        if known is not None:
            known.stamp = None  # (until this transaction commits)
        keeping: set[int] = set()
        stamp = None
        with self._write(durable=False):
            self._db.execute("BEGIN IMMEDIATE")
            if lazy:  # (nobody else commits during the transaction)
                stamp = (self._data_version(), self._runs_epoch)
            kind, now = self._hash_kinds.get(task), task_hashes(self._db, task)
            if kind is not None and now != kind:  # (another run chose after this one did)
                raise StoreError(f"{self.path}: another run made task {task} hashed by its "
                                 f"{'packed payloads' if now == 'payload' else 'canonical text'}"
                                 " here meanwhile; run again")  # fmt: skip
            known = self._sync(task, claims=True, own_run=run_id)
            alone = not known.shared(run_id)
            shared = not alone and self._write_kept(task, run_id, known)
            keeping = self._kept_elsewhere(task, run_id, known) - self._unanswered
            if keeping and time.monotonic() < deadline:
                status = None
            else:
                known.claiming(run_id)
                status = known.stored.present(digests)
                for rid, claimed in known.claims.items():
                    if rid != run_id:
                        claimed.mark(digests, status, 2)
                todo = select(digests, status, 0)
                keep = bool(todo) and lazy and alone and run_id in known.claims
                if todo and not keep:
                    cur = self._db.execute(
                        "INSERT INTO claims (task, run_id, hashes) VALUES (?, ?, ?)",
                        (task, run_id, todo),
                    )
                elif keep and run_id not in self._kept:
                    self._db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                                     (kept_key(run_id), task))  # fmt: skip
        # Only once committed: a failed transaction claimed nothing.
        known.stamp = stamp
        if shared:
            del self._kept[run_id]
        if status is None:
            return None
        self._unanswered |= keeping  # (claimed without them: the wait ran out)
        if todo:
            # (into the set when read: only another run on this connection reads it)
            known.claims.setdefault(run_id, DigestSet()).add_later(todo)
            if keep:
                self._kept.setdefault(run_id, []).append(todo)
            else:
                known.claim_mark = int(cur.lastrowid)
        return status

    def _data_version(self) -> int:
        """SQLite's ``data_version``: it changes when another connection commits, and only
        then (not for this connection's own commits)."""
        return int(self._db.execute("PRAGMA data_version").fetchone()[0])

    def _unchanged(self, known: Known, run_id: int) -> bool:
        """Whether a lazy claim of ``run_id`` may skip its transaction: the run keeps its
        claims (it was alone on the task at its last claim, whose transaction read
        ``known.stamp``), and since then no other connection committed anything and no run
        began or ended on this one.  What this connection wrote meanwhile is in ``known``
        already (the run's own rows, put aside; claims of other runs need a run begun here),
        so the transaction would read nothing new: the claim is the same without it (~0.3 ms
        of SQLite a claim in a 升级 run: a write lock, six reads, a commit)."""
        if (known.stamp is None or run_id not in self._kept or run_id not in known.claims
                or known.shared(run_id)):  # fmt: skip
            return False
        with self._guard():
            return known.stamp == (self._data_version(), self._runs_epoch)

    def _keep_more(self, known: Known, digests: bytes, run_id: int) -> bytearray:
        """The claim of a run alone on its task that keeps its claims, with ``known`` up to
        date (:meth:`_unchanged`): what the transaction would do, without it."""
        known.settle(run_id)
        status = known.stored.present(digests)
        todo = select(digests, status, 0)
        if todo:
            known.claims[run_id].add_later(todo)
            self._kept[run_id].append(todo)
        return status

    def _write_kept(self, task: str, run_id: int, known: Known) -> bool:
        """Write the claims ``run_id`` kept and has not stored (in the caller's write
        transaction; the caller forgets them once committed); False if it kept none."""
        kept = self._kept.get(run_id)
        if kept is None:
            return False
        known.settle()  # (the run's own stored digests, set aside, are looked up here)
        digests = b"".join(kept)
        left = select(digests, known.stored.absent_first(digests, False), 1)
        if left:
            self._db.execute("INSERT INTO claims (task, run_id, hashes) VALUES (?, ?, ?)",
                             (task, run_id, left))  # fmt: skip
        self._db.execute("DELETE FROM meta WHERE key=?", (kept_key(run_id),))
        return True

    def _share_kept(self, task: str, run_id: int | None, known: Known) -> bool:
        """:meth:`_write_kept` if ``run_id`` keeps claims and another run of ``task`` runs."""
        return (run_id in self._kept
                and self._db.execute(_OTHER_RUN, (task, run_id)).fetchone() is not None
                and self._write_kept(task, run_id, known))  # fmt: skip

    def _kept_elsewhere(self, task: str, run_id: int, known: Known) -> set[int]:
        """The other live runs of ``task`` that keep claims on another connection (removing
        the keys of runs gone: a run killed leaves its key).  Empty, without reading ``meta``
        (~25 µs a claim), at a claim of a run alone on its task after its first claim here:
        only a running run's key is waited for (run ids are never reused), and the keys of
        runs gone before are removed at the first."""
        found: set[int] = set()
        if run_id in known.first_claims and all(rid == run_id for rid in known.running):
            return found
        for key, of in self._db.execute("SELECT key, value FROM meta WHERE key GLOB ?",
                                        (f"{_KEPT}*",)).fetchall():  # fmt: skip
            rid = int(key[len(_KEPT) :])
            if of != task or rid == run_id or rid in self._kept:
                continue
            if rid in known.running:
                found.add(rid)
            else:
                self._db.execute("DELETE FROM meta WHERE key=?", (key,))
        return found

    def share_kept_claims(self, task: str, run_id: int) -> None:
        """Write the claims ``run_id`` keeps if another run of ``task`` runs (the runner asks
        every :data:`COMMIT_PAUSE` while it waits for a solve, with nothing to commit).
        Skipped while the connection is busy: its commit looks itself."""
        if run_id not in self._kept or not self._lock.acquire(blocking=False):
            return
        try:
            with self._guard():
                if self._db.execute(_OTHER_RUN, (task, run_id)).fetchone() is None:
                    return
            with self._write(durable=False):
                self._db.execute("BEGIN IMMEDIATE")
                self._write_kept(task, run_id, self._sync(task, claims=False, own_run=run_id))
            del self._kept[run_id]
        finally:
            self._lock.release()
