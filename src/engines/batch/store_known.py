"""What one connection of a result store has read of a task: the stored input hashes and
the hashes each running run claimed, brought up to date by :func:`sync_known`.

A claim row holds the hashes a run claimed in one transaction: 16-byte digests in one
blob (schema 4, the batch runner's claims) or hash strings separated by spaces (the
general :meth:`~engines.batch.store.ResultStore.claim`, and every claim of schema 3).
Both are read, so the claims of a run begun by an older qipai count as well.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from engines.batch.store_packed import block_digests
from solvers._batch_hashes import DigestSet


class Known:
    """What one connection has read of a task's chunks, blocks and claims: the stored
    hashes, the claimed ones per running run, and the last row ids read.

    ``foreign`` counts the stored rows read from the store (those of other connections:
    this one's own are marked read when committed), and ``first_claims[run_id]`` its value
    after the sync of the run's first claim here.  While ``foreign`` has not moved since,
    nothing was stored by anyone else after the run's claims checked what was stored, so
    a position the run claimed and has not stored is not stored (:meth:`absent`)."""

    __slots__ = ("aside", "aside_run", "block_mark", "chunk_mark", "claim_mark", "claims",
                 "first_claims", "foreign", "packed_mark", "running", "stamp",
                 "stored")  # fmt: skip

    def __init__(self) -> None:
        self.stored = DigestSet()
        self.claims: dict[int, DigestSet] = {}
        # The runs of this task recorded ``running`` at the last sync of the claims.
        self.running: set[int] = set()
        self.chunk_mark = 0
        self.block_mark = 0
        self.packed_mark = 0
        self.claim_mark = 0
        self.foreign = 0
        self.first_claims: dict[int, int] = {}
        # Digests run ``aside_run`` stored here, not yet in ``stored``: see put_aside.
        self.aside: list[bytes] = []
        self.aside_run: int | None = None
        # (the connection's data_version, runs epoch) in the last lazy claim's transaction:
        # see engines.batch.store_claims
        self.stamp: tuple[int, int] | None = None

    def put_aside(self, run_id: int, digests: bytes) -> None:
        """``digests`` stored now by ``run_id``, each of them claimed by it here: kept out of
        ``stored`` until something else reads it (:meth:`settle`).  The run's own reads need
        none of them (it claims a position once, and stores only what it claimed), and a
        run that is the only one on its connection never pays for putting them in."""
        if self.aside_run != run_id:
            self.settle()
            self.aside_run = run_id
        self.aside.append(digests)

    def settle(self, unless_run: int | None = None) -> None:
        """Put the digests set aside in ``stored`` (unless they are ``unless_run``'s)."""
        if self.aside and self.aside_run != unless_run:
            for digests in self.aside:
                self.stored.add_digests(digests)
            self.aside.clear()

    def shared(self, run_id: int) -> bool:
        """Whether another run than ``run_id`` runs on this task or holds claims of it (as
        of the last sync of the claims)."""
        return any(r != run_id for r in self.running) or any(r != run_id for r in self.claims)

    def claiming(self, run_id: int) -> None:
        """``run_id`` claims now (just after a sync, in the claim's transaction)."""
        self.first_claims.setdefault(run_id, self.foreign)

    def absent(self, digests: bytes, claimed_by: int | None) -> bytearray | None:
        """``stored.absent_first(digests, False)``, or None (every digest absent) when run
        ``claimed_by`` claimed each here and has stored none, and no other connection
        stored since its first claim (known after a sync in a write transaction: exact).
        A 升级 position's lookup costs ~10 ns, in a table that outgrows the caches."""
        if claimed_by is not None and self.first_claims.get(claimed_by) == self.foreign:
            return None
        return self.stored.absent_first(digests, False)


_NEW_CHUNKS = "SELECT chunk_id, hashes FROM chunks WHERE task=? AND chunk_id>? ORDER BY chunk_id"
_NEW_BLOCKS = "SELECT block_id, digests FROM blocks WHERE task=? AND block_id>? ORDER BY block_id"
_NEW_PACKED = (
    "SELECT block_id, digests, size FROM packed_blocks WHERE task=? AND block_id>? "
    "ORDER BY block_id"
)
_NEW_CLAIMS = (
    "SELECT claim_id, run_id, hashes FROM claims WHERE task=? AND claim_id>? ORDER BY claim_id"
)


def sync_known(
    db: sqlite3.Connection, task: str, known: Known, *, blocks: bool, claims: bool,
    packed: bool = False, damaged: Any = ValueError,
) -> Known:
    """Bring ``known`` up to date with ``db``: the chunks and blocks (``blocks``: the store
    has that table; ``packed``: its ``packed_blocks`` too) written since it last looked,
    with ``claims`` the claims too, and which runs of the task (and which claiming runs)
    still run.  Exact when called inside a write transaction (nobody else writes
    meanwhile).  ``damaged(why)``: the error to raise for a packed block whose hashes do
    not read back."""
    for chunk_id, hashes in db.execute(_NEW_CHUNKS, (task, known.chunk_mark)):
        known.stored.add_hex_text(hashes)
        known.chunk_mark = chunk_id
        known.foreign += 1
    for block_id, digests in db.execute(_NEW_BLOCKS, (task, known.block_mark)) if blocks else ():
        known.stored.add_digests(digests)
        known.block_mark = block_id
        known.foreign += 1
    for block_id, digests, size in db.execute(_NEW_PACKED, (task, known.packed_mark)) \
            if packed else ():  # fmt: skip
        try:
            known.stored.add_digests(block_digests(db, block_id, digests, size))
        except ValueError as exc:
            raise damaged(f"packed block {block_id} of task {task} is damaged ({exc})") from None
        known.packed_mark = block_id
        known.foreign += 1
    if claims:
        found = db.execute("SELECT run_id, task FROM runs WHERE status='running'").fetchall()
        running = {run_id for run_id, _task in found}
        known.running = {run_id for run_id, of in found if of == task}
        for claim_id, run_id, hashes in db.execute(_NEW_CLAIMS, (task, known.claim_mark)):
            claimed = known.claims.setdefault(run_id, DigestSet())
            if type(hashes) is bytes:
                claimed.add_digests(hashes)
            else:
                claimed.add_hex_text(hashes)
            known.claim_mark = claim_id
        for run_id in [r for r in known.claims if r not in running]:
            del known.claims[run_id]
    return known
