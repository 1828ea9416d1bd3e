# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Double-dummy search: null-window alpha-beta on the number of tricks.

``search(c, target)`` answers "does the counted side (``c.max_side``) take at
least ``target`` tricks from here?"  Exact values come from a driver that
moves a guess between a lower and an upper bound (MTD style), as DDS does.
At the start of every trick the search tries, in order: the target already
reached or out of reach, the last trick played out directly, the
transposition table (:mod:`_trans_table`), and quick tricks
(:mod:`_quick_tricks`); then it searches the ordered moves (:mod:`_moves`).
Every node backs up its *win ranks* (per suit, the cards that won a trick by
rank in the subtree, at or above which the relative ranks matter) so that a
stored result covers every position equal down to those ranks.

Everything here is C: the entry points take typed memoryviews, release the
GIL for the search, and the batch entry runs deals on all cores with OpenMP.
Inputs are assumed valid (the engine layer ``engines.bridge`` validates);
the entry points only check shapes and return codes.
"""

cimport cython
from cython.parallel cimport parallel, prange
from libc.stdint cimport int32_t, int64_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memset

import numpy as np

from solvers.bridge._bits cimport lsb, msb, popcount
from solvers.bridge._moves cimport gen_moves, order_moves
from solvers.bridge._later_tricks cimport later_tricks
from solvers.bridge._quick_tricks cimport quick_tricks, second_hand_tricks
from solvers.bridge._trans_table cimport (
    tt_free,
    tt_init,
    tt_lengths,
    tt_lookup,
    tt_patterns,
    tt_prefetch,
    tt_reset,
    tt_store,
)
from solvers.bridge._types cimport MAX_PLY, NOTRUMP, Ctx, Move, TransTable

cdef enum:
    LOG_ENTRIES = 21   # 2M entries of 35 bytes (70 MB) + 128k distributions (22 MB) a thread


# bit 0: transposition table, 1: quick tricks, 2: later tricks, 3: small-card pruning
cdef int _features = 15


def _set_features(int features):
    """Switch search features off for differential tests (bits: TT, quick tricks,
    later tricks, small-card pruning)."""
    global _features
    _features = features


cdef inline void _clear(uint16_t* wm) noexcept nogil:
    wm[0] = 0
    wm[1] = 0
    wm[2] = 0
    wm[3] = 0


cdef bint _last_trick(Ctx* c, int target, uint16_t* wm) noexcept nogil:
    """Every hand holds one card: play it out."""
    cdef int leader = c.leader, i, seat, s, r, ws = -1, wr = -1, winner = leader, same = 0
    _clear(wm)
    for i in range(4):
        seat = (leader + i) & 3
        for s in range(4):
            if c.hands[seat][s]:
                r = msb(c.hands[seat][s])
                break
        if i == 0:
            ws = s
            wr = r
        elif s == ws:
            same += 1
            if r > wr:
                wr = r
                winner = seat
        elif s == c.trump and ws != c.trump:
            ws = s
            wr = r
            winner = seat
            same = 0
    # a trump that beat only non-trumps, or a lone card of the led suit, wins by suit
    if same:
        # some other card of the winning suit was played: the winner won by rank
        # (recount exactly for the ruff case)
        pass
    same = 0
    for i in range(4):
        seat = (leader + i) & 3
        if c.hands[seat][ws]:
            same += 1
    if same >= 2:
        wm[ws] = <uint16_t>(1u << wr)
    return c.tricks_max + ((winner & 1) == c.max_side) >= target


cdef inline void _place_card(Ctx* c, int s, int r) noexcept nogil:
    """Record card (s, r) at ``c.pos`` of the current trick and update the winning position."""
    cdef int ws
    c.trick_suit[c.pos] = s
    c.trick_rank[c.pos] = r
    if c.pos == 0:
        c.win_pos = 0
    else:
        ws = c.trick_suit[c.win_pos]
        if (s == ws and r > c.trick_rank[c.win_pos]) or (s == c.trump and ws != c.trump):
            c.win_pos = c.pos


cdef bint search(Ctx* c, int target, int ply, uint16_t* wm) noexcept nogil:
    cdef int seat = (c.leader + c.pos) & 3
    cdef int n, need, threshold, answer, i, k, nm, s, r, w, ws, wr, same
    cdef int old_win, old_leader, old_tricks, old_pos
    cdef bint leader_max, mover_max, res, child, cut = 0
    cdef Move moves[13]
    cdef uint16_t cwm[4]
    cdef uint16_t acc[4]
    cdef uint32_t pat[4]
    cdef uint64_t lens = 0
    cdef uint16_t bit
    cdef int ts[4]
    cdef int tr[4]
    cdef int small[4]
    c.nodes += 1
    if c.pos == 0:
        n = popcount(c.hands[seat][0]) + popcount(c.hands[seat][1]) \
            + popcount(c.hands[seat][2]) + popcount(c.hands[seat][3])
        c.trick_nodes[n] += 1
        if c.tricks_max >= target:
            _clear(wm)
            return 1
        if c.tricks_max + n < target:
            _clear(wm)
            return 0
        if n == 1:
            return _last_trick(c, target, wm)
        need = target - c.tricks_max
        leader_max = (seat & 1) == c.max_side
        # the question for the leader's side: at least `threshold` of the n tricks?
        threshold = need if leader_max else n - need + 1
        lens = tt_lengths(c)
        if _features & 1:
            tt_prefetch(&c.tt, lens, seat)
        # the cheap sure-trick counts first: their win ranks are the most general
        if (_features & 2) and quick_tricks(c, seat, wm) >= threshold:
            c.qt_cutoffs += 1
            return leader_max
        if (_features & 4) and n - later_tricks(c, seat, wm) < threshold:
            c.lt_cutoffs += 1
            return not leader_max
        tt_patterns(c, pat)
        if _features & 1:
            answer = tt_lookup(&c.tt, lens, seat, pat, threshold, c, wm)
            if answer >= 0:
                return answer == leader_max
    mover_max = (seat & 1) == c.max_side
    if c.pos == 1 and (_features & 2):
        k = second_hand_tricks(c, seat, wm)
        if k:
            n = popcount(c.hands[seat][0]) + popcount(c.hands[seat][1]) \
                + popcount(c.hands[seat][2]) + popcount(c.hands[seat][3])
            if (k >= target - c.tricks_max) if mover_max else (c.tricks_max + n - k < target):
                c.qt2_cutoffs += 1
                return mover_max
    nm = gen_moves(c, seat, moves)
    order_moves(c, seat, moves, nm, ply)
    _clear(acc)
    small[0] = -1
    small[1] = -1
    small[2] = -1
    small[3] = -1
    for i in range(nm):
        s = moves[i].suit
        r = moves[i].rank
        if r < small[s]:
            # small-card pruning: a lower card of this suit was searched and neither it
            # nor this one reaches the lowest rank that mattered below it: same result
            c.small_skips += 1
            continue
        bit = <uint16_t>(1u << r)
        c.hands[seat][s] ^= bit
        old_win = c.win_pos
        _place_card(c, s, r)
        if c.pos < 3:
            c.pos += 1
            child = search(c, target, ply + 1, cwm)
            c.pos -= 1
        else:
            ws = c.trick_suit[c.win_pos]
            wr = c.trick_rank[c.win_pos]
            w = (c.leader + c.win_pos) & 3
            same = 0
            for k in range(4):
                if c.trick_suit[k] == ws:
                    same += 1
                c.remain[c.trick_suit[k]] ^= <uint16_t>(1u << c.trick_rank[k])
            old_leader = c.leader
            old_tricks = c.tricks_max
            # the next tricks overwrite the trick arrays: keep this one
            for k in range(4):
                ts[k] = c.trick_suit[k]
                tr[k] = c.trick_rank[k]
            if (w & 1) == c.max_side:
                c.tricks_max += 1
            c.leader = w
            c.pos = 0
            child = search(c, target, ply + 1, cwm)
            c.pos = 3
            c.leader = old_leader
            c.tricks_max = old_tricks
            for k in range(4):
                c.trick_suit[k] = ts[k]
                c.trick_rank[k] = tr[k]
                c.remain[ts[k]] ^= <uint16_t>(1u << tr[k])
            if same >= 2:
                cwm[ws] |= <uint16_t>(1u << wr)
        c.win_pos = old_win
        c.hands[seat][s] ^= bit
        if child == mover_max:
            cut = 1
            c.killer[ply] = s * 16 + r
            wm[0] = cwm[0]
            wm[1] = cwm[1]
            wm[2] = cwm[2]
            wm[3] = cwm[3]
            _cover_sequence(&moves[i], wm)
            break
        acc[0] |= cwm[0]
        acc[1] |= cwm[1]
        acc[2] |= cwm[2]
        acc[3] |= cwm[3]
        if _features & 8:
            k = lsb(cwm[s]) if cwm[s] else 13
            if r < k and k > small[s]:
                small[s] = k
    if cut:
        res = mover_max
        if i == 0:
            c.cut_first[c.pos] += 1
        else:
            c.cut_later[c.pos] += 1
    else:
        c.no_cut[c.pos] += 1
        res = not mover_max
        wm[0] = acc[0]
        wm[1] = acc[1]
        wm[2] = acc[2]
        wm[3] = acc[3]
        for i in range(nm):
            _cover_sequence(&moves[i], wm)
    if c.pos == 0:
        c.trick_searched[n][res == leader_max] += 1
    if c.pos == 0 and (_features & 1):
        # res is for the counted side; turn it into a bound on the leader's side
        if res == leader_max:
            tt_store(&c.tt, lens, seat, pat, c, wm, threshold, n)
        else:
            tt_store(&c.tt, lens, seat, pat, c, wm, 0, threshold - 1)
    return res


cdef inline void _cover_sequence(Move* m, uint16_t* wm) noexcept nogil:
    """Cards searched for their whole group of equals: if the group's top card is at or
    above the lowest win rank of its suit, the whole group must stay above it."""
    cdef unsigned int w = wm[m.suit]
    if w and m.rank >= lsb(w):
        wm[m.suit] = <uint16_t>(w | (m.seq & (~m.seq + 1u)))


# --- drivers ------------------------------------------------------------------------------

cdef int _setup(Ctx* c, const uint16_t[:, :] hands, int trump) noexcept nogil:
    cdef int h, s
    for s in range(4):
        c.remain[s] = 0
        for h in range(4):
            c.hands[h][s] = hands[h, s]
            c.remain[s] |= hands[h, s]
    c.trump = trump
    c.tricks_max = 0
    c.pos = 0
    c.win_pos = 0
    for h in range(MAX_PLY):
        c.killer[h] = -1
    return 0


cdef int _value(Ctx* c, int lo, int hi, int guess) noexcept nogil:
    """Exact number of tricks of the counted side, known to lie in [lo, hi]."""
    cdef uint16_t wm[4]
    cdef int t
    if guess < lo + 1:
        guess = lo + 1
    if guess > hi:
        guess = hi
    while lo < hi:
        t = guess
        c.root_searches += 1
        if search(c, t, 0, wm):
            lo = t
            guess = t + 1
        else:
            hi = t - 1
            guess = t - 1
        if guess > hi:
            guess = hi
        if guess < lo + 1:
            guess = lo + 1
    return lo


cdef int _leader_tricks(Ctx* c, int leader, int guess) noexcept nogil:
    """Tricks the leader's side takes from a full position at the start of a trick."""
    cdef int n = popcount(c.hands[leader][0]) + popcount(c.hands[leader][1]) \
        + popcount(c.hands[leader][2]) + popcount(c.hands[leader][3])
    c.leader = leader
    c.pos = 0
    c.max_side = leader & 1
    c.tricks_max = 0
    return _value(c, 0, n, guess)


cdef void _strain(Ctx* c, const uint16_t[:, :] hands, int trump, int32_t[:] out) noexcept nogil:
    """out[declarer] for one trump (S H D C NT = 0..4) and declarers N E S W."""
    cdef int first, n, guess
    n = popcount(hands[0, 0]) + popcount(hands[0, 1]) + popcount(hands[0, 2]) \
        + popcount(hands[0, 3])
    tt_reset(&c.tt)  # nothing is shared across strains
    _setup(c, hands, trump)
    # leaders E, W (N-S declare), then S, N (E-W declare); the first result
    # seeds the guesses of the others
    first = _leader_tricks(c, 1, (n + 1) // 2)
    out[0] = n - first
    out[2] = n - _leader_tricks(c, 3, first)
    guess = n - first
    out[3] = n - _leader_tricks(c, 0, guess)
    out[1] = n - _leader_tricks(c, 2, n - out[3])


cdef void _table(Ctx* c, const uint16_t[:, :] hands, int32_t[:, :] out) noexcept nogil:
    """out[trump][declarer] for trump S H D C NT (0..4) and declarers N E S W."""
    cdef int trump
    for trump in range(5):
        _strain(c, hands, trump, out[trump])


cdef int _ctx_init(Ctx* c) noexcept nogil:
    memset(c, 0, sizeof(Ctx))
    return tt_init(&c.tt, LOG_ENTRIES)


cdef Ctx* _new_ctx() except NULL:
    """A search context with its transposition table, or MemoryError."""
    cdef Ctx* c = <Ctx*>malloc(sizeof(Ctx))
    if c == NULL:
        raise MemoryError()
    if _ctx_init(c) != 0:
        free(c)
        raise MemoryError("cannot allocate the transposition table")
    return c


cdef void _free_ctx(Ctx* c) noexcept nogil:
    tt_free(&c.tt)
    free(c)


def dd_table(const uint16_t[:, :] hands, dict stats=None):
    """DD table of one deal: ``int32[5, 4]``, rows trump S H D C NT, columns declarer N E S W.

    ``hands[seat][suit]`` are the 13-bit suit masks (all hands the same size).
    ``stats``, when given, receives node counts and transposition-table figures.
    """
    if hands.shape[0] != 4 or hands.shape[1] != 4:
        raise ValueError("hands must have shape (4, 4)")
    out = np.zeros((5, 4), dtype=np.int32)
    cdef int32_t[:, :] view = out
    cdef Ctx* c = _new_ctx()
    with nogil:
        _table(c, hands, view)
    if stats is not None:
        _fill_stats(c, stats)
    _free_ctx(c)
    return out


cdef void _fill_stats(Ctx* c, dict stats):
    stats["nodes"] = stats.get("nodes", 0) + c.nodes
    stats["tt_lookups"] = stats.get("tt_lookups", 0) + c.tt.lookups
    stats["tt_probes"] = stats.get("tt_probes", 0) + c.tt.probes
    stats["tt_hits"] = stats.get("tt_hits", 0) + c.tt.hits
    stats["tt_stores"] = stats.get("tt_stores", 0) + c.tt.stores
    stats["tt_resets"] = stats.get("tt_resets", 0) + c.tt.resets
    stats["quick_trick_cutoffs"] = stats.get("quick_trick_cutoffs", 0) + c.qt_cutoffs
    stats["root_searches"] = stats.get("root_searches", 0) + c.root_searches
    stats["second_hand_cutoffs"] = stats.get("second_hand_cutoffs", 0) + c.qt2_cutoffs
    stats["later_trick_cutoffs"] = stats.get("later_trick_cutoffs", 0) + c.lt_cutoffs
    stats["trick_nodes"] = [c.trick_nodes[k] for k in range(14)]
    stats["trick_searched_fail"] = [c.trick_searched[k][0] for k in range(14)]
    stats["trick_searched_make"] = [c.trick_searched[k][1] for k in range(14)]
    stats["small_card_skips"] = stats.get("small_card_skips", 0) + c.small_skips
    for k in range(4):
        key = f"cutoffs_pos{k}"
        first, later, none = stats.get(key, (0, 0, 0))
        stats[key] = (first + c.cut_first[k], later + c.cut_later[k], none + c.no_cut[k])


def dd_tables(const uint16_t[:, :, :] hands, int threads=0):
    """DD tables of many deals on ``threads`` OpenMP threads (0 = all cores).

    Returns ``int32[n, 5, 4]`` (see :func:`dd_table`).  Each thread owns one
    search context and transposition table, allocated once and freed at the end.
    """
    if hands.shape[1] != 4 or hands.shape[2] != 4:
        raise ValueError("hands must have shape (n, 4, 4)")
    cdef Py_ssize_t n = hands.shape[0], i
    out = np.zeros((n, 5, 4), dtype=np.int32)
    cdef int32_t[:, :, :] view = out
    cdef Ctx* c
    cdef int failed = 0
    if threads <= 0:
        from solvers._parallel import max_threads
        threads = max_threads()
    if n == 0:
        return out
    if threads > 5 * n:
        threads = <int>(5 * n)
    with nogil, parallel(num_threads=threads):
        c = <Ctx*>malloc(sizeof(Ctx))
        if c != NULL and _ctx_init(c) != 0:
            free(c)
            c = NULL
        # one job per (deal, strain): five times finer than per deal, so one hard
        # deal does not leave the other threads idle at the end of a batch
        for i in prange(n * 5, schedule="dynamic", chunksize=1):
            if c == NULL:
                failed = 1
            else:
                _strain(c, hands[i // 5], <int>(i % 5), view[i // 5, i % 5])
        if c != NULL:
            _free_ctx(c)
    if failed:
        raise MemoryError("cannot allocate a transposition table for every thread")
    return out


cdef int _play_root(Ctx* c, int seat, int s, int r) noexcept nogil:
    """Play one card at the root (as the search does), completing the trick if it is full."""
    cdef int w, k
    c.hands[seat][s] ^= <uint16_t>(1u << r)
    _place_card(c, s, r)
    if c.pos < 3:
        c.pos += 1
        return 0
    w = (c.leader + c.win_pos) & 3
    for k in range(4):
        c.remain[c.trick_suit[k]] ^= <uint16_t>(1u << c.trick_rank[k])
    if (w & 1) == c.max_side:
        c.tricks_max += 1
    c.leader = w
    c.pos = 0
    return 0


def solve_position(const uint16_t[:, :] hands, int trump, int leader,
                   const int32_t[:, :] trick, dict stats=None):
    """Tricks for the side to move after each of its legal cards.

    ``hands`` hold the cards still in the hands; ``trick`` is ``int32[k, 2]``
    (suit, rank bit) of the 0..3 cards already played to the current trick,
    led by ``leader``.  Returns ``(suits, ranks, tricks)`` arrays, one entry
    per legal card, counting the current trick.
    """
    if hands.shape[0] != 4 or hands.shape[1] != 4:
        raise ValueError("hands must have shape (4, 4)")
    if trick.shape[0] > 3 or (trick.shape[0] and trick.shape[1] != 2):
        raise ValueError("trick must have shape (k, 2) with k <= 3")
    cdef Ctx* c = _new_ctx()
    cdef Ctx saved
    cdef int k, i, nm, seat, n_left, j, best = -1, value
    cdef Move moves[13]
    cdef uint16_t rest
    cdef uint16_t seq
    suits = []
    ranks = []
    values = []
    with nogil:
        _setup(c, hands, trump)
        c.leader = leader
        for k in range(trick.shape[0]):
            c.remain[trick[k, 0]] |= <uint16_t>(1u << trick[k, 1])
        c.pos = 0
        c.max_side = ((leader + trick.shape[0]) & 3) & 1
        for k in range(trick.shape[0]):
            _play_root_trick_card(c, trick[k, 0], trick[k, 1])
        seat = (c.leader + c.pos) & 3
        c.max_side = seat & 1
        n_left = popcount(c.hands[seat][0]) + popcount(c.hands[seat][1]) \
            + popcount(c.hands[seat][2]) + popcount(c.hands[seat][3])
        nm = gen_moves(c, seat, moves)
        order_moves(c, seat, moves, nm, 0)
    for i in range(nm):
        with nogil:
            saved = c[0]  # a struct copy of the small state; the table pointer is shared
            _play_root(c, seat, moves[i].suit, moves[i].rank)
            value = _value(c, c.tricks_max, c.tricks_max + (n_left - (1 if c.pos == 0 else 0)),
                           best if best >= 0 else (n_left + 1) // 2)
            _restore(c, &saved)
        if value > best:
            best = value
        seq = moves[i].seq
        while seq:
            j = msb(seq)
            seq ^= <uint16_t>(1u << j)
            suits.append(moves[i].suit)
            ranks.append(j)
            values.append(value)
    if stats is not None:
        _fill_stats(c, stats)
    _free_ctx(c)
    return (np.array(suits, dtype=np.int32), np.array(ranks, dtype=np.int32),
            np.array(values, dtype=np.int32))


cdef void _play_root_trick_card(Ctx* c, int s, int r) noexcept nogil:
    """Put a card already on the table into the trick state (it is not in any hand)."""
    _place_card(c, s, r)
    c.pos += 1


cdef void _restore(Ctx* c, Ctx* saved) noexcept nogil:
    """Undo a root move: copy back the position, keep the table and the counters."""
    cdef TransTable tt = c.tt
    cdef int64_t nodes = c.nodes, qt = c.qt_cutoffs
    c[0] = saved[0]
    c.tt = tt
    c.nodes = nodes
    c.qt_cutoffs = qt


def leader_tricks(const uint16_t[:, :] hands, int trump, int leader, dict stats=None):
    """Tricks the side of ``leader`` takes when it leads to the first trick (one DD cell)."""
    if hands.shape[0] != 4 or hands.shape[1] != 4:
        raise ValueError("hands must have shape (4, 4)")
    cdef Ctx* c = _new_ctx()
    cdef int n = 0, result
    with nogil:
        _setup(c, hands, trump)
        n = popcount(hands[leader, 0]) + popcount(hands[leader, 1]) \
            + popcount(hands[leader, 2]) + popcount(hands[leader, 3])
        result = _leader_tricks(c, leader, (n + 1) // 2)
    if stats is not None:
        _fill_stats(c, stats)
    _free_ctx(c)
    return result
