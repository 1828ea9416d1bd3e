"""Maximum matching in a graph given by its missing edges, kept up to date as vertices leave.

Swiss pairing needs, again and again, the size of a maximum matching of the
"have not met" graph on the pairs still to seat: the fewest rematches to seat
a set S of pairs is ``|S|/2 - ν(S)`` (every pair left unmatched by a maximum
rematch-free matching must meet an old opponent).  :class:`MatchingOracle`
keeps one maximum matching and answers "what is ν once pairs a and b are
seated together?" with at most two augmenting-path searches (Edmonds' blossom
algorithm from a single root), instead of re-solving from scratch.

The graph is dense (almost every pair has not met almost every other), so it
is stored by its complement: ``met[v]`` is the set of vertices ``v`` must not
be matched with.

>>> oracle = MatchingOracle(4, [{1}, {0}, set(), set()])
>>> oracle.size
2
>>> oracle.size_without(0, 1)  # 0 and 1 have met: seating them leaves 2-3
1
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

__all__ = ["MatchingOracle"]


class MatchingOracle:
    """A maximum matching of the graph on vertices ``0..n-1`` whose non-edges are ``met``."""

    def __init__(self, n: int, met: Sequence[set[int]]) -> None:
        self.n = n
        self.met = met
        self.alive = list(range(n))
        self._alive_flag = [True] * n
        self.mate = [-1] * n
        self.size = 0
        self._greedy()
        for v in range(n):
            if self.mate[v] == -1 and self._augment(v):
                self.size += 1

    def _greedy(self) -> None:
        # rank order first: in the usual case this is already the final seating
        for v in range(self.n):
            if self.mate[v] != -1:
                continue
            for u in range(v + 1, self.n):
                if self.mate[u] == -1 and u not in self.met[v]:
                    self.mate[v], self.mate[u] = u, v
                    self.size += 1
                    break

    def _neighbours(self, v: int) -> list[int]:
        # lowest-ranked first: augmenting paths then rewire the bottom of the field and
        # leave the top of the rank-order matching (usually the final seating) alone
        blocked = self.met[v]
        return [u for u in reversed(self.alive) if u != v and u not in blocked]

    def _augment(self, root: int) -> bool:
        """Edmonds' search from the exposed vertex ``root``; augments, True if a path exists."""
        mate, n = self.mate, self.n
        parent = [-1] * n
        base = list(range(n))
        used = [False] * n
        used[root] = True
        queue = deque([root])
        tree = [root]  # every labelled vertex; a blossom only ever contains these

        def lca(a: int, b: int) -> int:
            seen = set()
            while True:
                a = base[a]
                seen.add(a)
                if mate[a] == -1:
                    break
                a = parent[mate[a]]
            while True:
                b = base[b]
                if b in seen:
                    return b
                b = parent[mate[b]]

        def mark_path(v: int, stop: int, child: int, blossom: set[int]) -> None:
            while base[v] != stop:
                blossom.add(base[v])
                blossom.add(base[mate[v]])
                parent[v] = child
                child = mate[v]
                v = parent[mate[v]]

        def augment_to(to: int) -> bool:
            while to != -1:
                previous = parent[to]
                following = mate[previous]
                mate[to], mate[previous] = previous, to
                to = following
            return True

        while queue:
            v = queue.popleft()
            neighbours = self._neighbours(v)
            # an exposed neighbour ends a path at once; looking first spares the blossom work
            # that the dense graph would otherwise do on every edge between even vertices
            for to in neighbours:
                if mate[to] == -1 and to != root and base[v] != base[to]:
                    parent[to] = v
                    return augment_to(to)
            for to in neighbours:
                if base[v] == base[to] or mate[v] == to:
                    continue
                if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                    top = lca(v, to)
                    blossom: set[int] = set()
                    mark_path(v, top, to, blossom)
                    mark_path(to, top, v, blossom)
                    for i in tree:
                        if base[i] in blossom:
                            base[i] = top
                            if not used[i]:
                                used[i] = True
                                queue.append(i)
                elif parent[to] == -1:
                    parent[to] = v
                    tree.append(to)
                    if mate[to] == -1:
                        return augment_to(to)
                    used[mate[to]] = True
                    tree.append(mate[to])
                    queue.append(mate[to])
        return False

    def _remove(self, v: int) -> None:
        self._alive_flag[v] = False
        self.alive.remove(v)

    def size_without(self, a: int, b: int) -> int:
        """ν of the graph without ``a`` and ``b`` (both alive); the oracle is left unchanged."""
        quick = self._quick_size_without(a, b)
        if quick is not None:
            return quick
        saved = (list(self.mate), list(self.alive), self.size)
        size = self.remove_pair(a, b)
        self.mate, self.alive, self.size = saved
        self._alive_flag[a] = self._alive_flag[b] = True
        return size

    def _quick_size_without(self, a: int, b: int) -> int | None:
        """ν without ``a`` and ``b`` when it follows from the matching alone, else None."""
        mate = self.mate
        if mate[a] == b:
            return self.size - 1
        x, y = mate[a], mate[b]
        if x == -1 and y == -1:
            return self.size
        if x != -1 and y != -1 and y not in self.met[x] and 2 * self.size == len(self.alive):
            return self.size - 1  # a perfect matching stays perfect: the widowed mates pair up
        return None

    def remove_pair(self, a: int, b: int) -> int:
        """Take ``a`` and ``b`` out of the graph, restore a maximum matching, return its size."""
        mate = self.mate
        if mate[a] == b:
            mate[a] = mate[b] = -1
            self._remove(a)
            self._remove(b)
            self.size -= 1
            return self.size
        x, y = mate[a], mate[b]
        if x != -1 and y != -1 and y not in self.met[x] and 2 * self.size == len(self.alive):
            # the widowed mates can take each other, and a perfect matching stays perfect
            mate[a] = mate[b] = -1
            mate[x], mate[y] = y, x
            self._remove(a)
            self._remove(b)
            self.size -= 1
            return self.size
        exposed = []
        for v in (a, b):
            if mate[v] != -1:
                exposed.append(mate[v])
                mate[mate[v]] = -1
                mate[v] = -1
                self.size -= 1
            self._remove(v)
        # Every augmenting path now ends at a vertex that just lost its mate, so these
        # searches come first and usually restore the old size at once.  But once the
        # first path has ended at the second widowed vertex, a path between two vertices
        # that were exposed all along may open: the other exposed vertices are searched
        # too until the old size is back (a search that fails needs no repeat: no later
        # augmentation opens a path from that vertex).
        bound = self.size + len(exposed)
        for v in exposed + self.alive:
            if self.size >= bound:
                break
            if mate[v] == -1 and self._augment(v):
                self.size += 1
        return self.size
