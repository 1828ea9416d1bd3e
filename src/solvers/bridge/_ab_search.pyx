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
from libc.string cimport memcpy, memset

import numpy as np

from solvers.bridge._bits cimport lsb, msb, popcount
from solvers.bridge._moves cimport gen_moves, order_moves
from solvers.bridge._later_tricks cimport later_tricks
from solvers.bridge._quick_tricks cimport quick_tricks, second_hand_tricks
from solvers.bridge._trans_table cimport (
    tt_free,
    tt_bytes,
    tt_init,
    tt_lengths,
    tt_lookup,
    tt_patterns,
    tt_prefetch,
    tt_reset,
    tt_store,
)
from solvers.bridge._types cimport (
    ALL_FEATURES,
    FEATURE_LATER_TRICKS,
    FEATURE_QUICK_TRICKS,
    FEATURE_SMALL_CARDS,
    FEATURE_TT,
    MAX_PLY,
    NOTRUMP,
    Ctx,
    Move,
)

cdef enum:
    # default transposition table of a thread: 2**DEFAULT_TT_BITS entries (see tt_bytes)
    DEFAULT_TT_BITS = 21
    MIN_TT_BITS = 8
    MAX_TT_BITS = 25


cdef struct TrickStart:
    # what a node at the start of a trick needs again after its moves are searched
    uint64_t lens          # the transposition-table key: suit lengths of the four hands
    uint32_t pat[4]        # owners of the cards still out, highest first
    int n                  # tricks left
    int threshold          # the question for the leader's side: >= threshold tricks?
    bint leader_max        # the leader's side is the counted side


cdef inline void _clear(uint16_t* wm) noexcept nogil:
    wm[0] = 0
    wm[1] = 0
    wm[2] = 0
    wm[3] = 0


cdef inline void _copy(uint16_t* dst, uint16_t* src) noexcept nogil:
    dst[0] = src[0]
    dst[1] = src[1]
    dst[2] = src[2]
    dst[3] = src[3]


cdef inline int _cards(Ctx* c, int seat) noexcept nogil:
    return popcount(c.hands[seat][0]) + popcount(c.hands[seat][1]) \
        + popcount(c.hands[seat][2]) + popcount(c.hands[seat][3])


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
            if r > wr:
                wr = r
                winner = seat
        elif s == c.trump and ws != c.trump:
            ws = s
            wr = r
            winner = seat
    # the winner won by rank when another card of the winning suit was played
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


cdef inline int _trick_start(Ctx* c, int seat, int target, TrickStart* ts,
                             uint16_t* wm) noexcept nogil:
    """The cheap answers at the start of a trick: 1 or 0 when one decides, else -1.

    In order: target reached or out of reach, the last trick, quick tricks, later
    tricks (their win ranks are the most general), the transposition table.
    """
    cdef int n = _cards(c, seat), answer
    c.trick_nodes[n] += 1
    ts.n = n
    if c.tricks_max >= target:
        _clear(wm)
        return 1
    if c.tricks_max + n < target:
        _clear(wm)
        return 0
    if n == 1:
        return _last_trick(c, target, wm)
    ts.leader_max = (seat & 1) == c.max_side
    # the question for the leader's side: at least `threshold` of the n tricks?
    ts.threshold = target - c.tricks_max if ts.leader_max else n - target + c.tricks_max + 1
    ts.lens = tt_lengths(c)
    if c.features & FEATURE_TT:
        tt_prefetch(&c.tt, ts.lens, seat)
    if (c.features & FEATURE_QUICK_TRICKS) and quick_tricks(c, seat, ts.threshold, wm) >= ts.threshold:
        c.qt_cutoffs += 1
        return ts.leader_max
    if (c.features & FEATURE_LATER_TRICKS) and later_tricks(c, seat, n, n - ts.threshold + 1, wm):
        c.lt_cutoffs += 1
        return not ts.leader_max
    tt_patterns(c, ts.pat)
    if c.features & FEATURE_TT:
        answer = tt_lookup(&c.tt, ts.lens, seat, ts.pat, ts.threshold, c, wm)
        if answer >= 0:
            return answer == ts.leader_max
    return -1


cdef inline int _second_hand(Ctx* c, int seat, int target, bint mover_max,
                             uint16_t* wm) noexcept nogil:
    """Second-hand quick tricks: 1 or 0 when they decide, else -1."""
    cdef int k = second_hand_tricks(c, seat, wm)
    if k == 0:
        return -1
    if (k >= target - c.tricks_max) if mover_max else (c.tricks_max + _cards(c, seat) - k < target):
        c.qt2_cutoffs += 1
        return mover_max
    return -1


cdef inline bint _play(Ctx* c, int seat, int s, int r, int target, int ply,
                       uint16_t* cwm) noexcept nogil:
    """Play card (s, r) of ``seat``, search the rest, take the card back; ``cwm`` gets the
    child's win ranks (plus the winning card when the card completed a trick won by rank)."""
    cdef uint16_t bit = <uint16_t>(1u << r)
    cdef int old_win = c.win_pos, old_leader, old_tricks, ws, wr, w, k, same = 0
    cdef int ts[4]
    cdef int tr[4]
    cdef bint child
    c.hands[seat][s] ^= bit
    _place_card(c, s, r)
    if c.pos < 3:
        c.pos += 1
        child = search(c, target, ply + 1, cwm)
        c.pos -= 1
    else:
        ws = c.trick_suit[c.win_pos]
        wr = c.trick_rank[c.win_pos]
        w = (c.leader + c.win_pos) & 3
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
    return child


cdef bint search(Ctx* c, int target, int ply, uint16_t* wm) noexcept nogil:
    """Does the counted side take at least ``target`` tricks?  ``wm`` gets the win ranks."""
    cdef int seat = (c.leader + c.pos) & 3
    cdef int answer, i, k, nm, s, r
    cdef bint mover_max = (seat & 1) == c.max_side, res, cut = 0
    cdef Move moves[13]
    cdef uint16_t cwm[4]
    cdef uint16_t acc[4]
    cdef int small[4]
    cdef TrickStart ts
    c.nodes += 1
    if c.pos == 0:
        answer = _trick_start(c, seat, target, &ts, wm)
        if answer >= 0:
            return answer
    elif c.pos == 1 and (c.features & FEATURE_QUICK_TRICKS):
        answer = _second_hand(c, seat, target, mover_max, wm)
        if answer >= 0:
            return answer
    nm = gen_moves(c, seat, moves)
    order_moves(c, seat, moves, nm, ply)
    _clear(acc)
    for k in range(4):
        small[k] = -1
    for i in range(nm):
        s = moves[i].suit
        r = moves[i].rank
        if r < small[s]:
            # small-card pruning: a lower card of this suit was searched and neither it
            # nor this one reaches the lowest rank that mattered below it: same result
            c.small_skips += 1
            continue
        if _play(c, seat, s, r, target, ply, cwm) == mover_max:
            cut = 1
            c.killer[ply] = s * 16 + r
            # the cut needs only the card played, already above the lowest win rank
            # when it matters; the other cards of its group need not stay equal to it
            _copy(wm, cwm)
            break
        for k in range(4):
            acc[k] |= cwm[k]
        if c.features & FEATURE_SMALL_CARDS:
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
        _copy(wm, acc)
        for i in range(nm):
            _cover_sequence(&moves[i], wm)
    if c.pos == 0:
        _trick_result(c, seat, &ts, res, wm)
    return res


cdef inline void _trick_result(Ctx* c, int seat, TrickStart* ts, bint res,
                               uint16_t* wm) noexcept nogil:
    """Store a searched trick-start node: ``res`` for the counted side becomes a bound
    on the leader's side's tricks."""
    c.trick_searched[ts.n][res == ts.leader_max] += 1
    if not (c.features & FEATURE_TT):
        return
    if res == ts.leader_max:
        tt_store(&c.tt, ts.lens, seat, ts.pat, c, wm, ts.threshold, ts.n)
    else:
        tt_store(&c.tt, ts.lens, seat, ts.pat, c, wm, 0, ts.threshold - 1)


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
    cdef int n = _cards(c, leader)
    c.leader = leader
    c.pos = 0
    c.max_side = leader & 1
    c.tricks_max = 0
    return _value(c, 0, n, guess)


cdef int _estimate(Ctx* c, int side, int n) noexcept nogil:
    """First target of the null-window searches of a cold cell: ``side``'s share of
    the ``n`` tricks by high-card points, plus two thirds of its trump length
    advantage (the closer the guess, the fewer searches: about 4 a cell with the
    middle of the range, 2 when right)."""
    cdef int h, s, pts = 0, total = 0, v, t = 0
    for h in range(4):
        for s in range(4):
            v = 4 * popcount(c.hands[h][s] & 0x1000) + 3 * popcount(c.hands[h][s] & 0x800) \
                + 2 * popcount(c.hands[h][s] & 0x400) + popcount(c.hands[h][s] & 0x200)
            total += v
            if (h & 1) == side:
                pts += v
        if c.trump != NOTRUMP:
            v = popcount(c.hands[h][c.trump])
            t += v if (h & 1) == side else -v
    if total == 0:
        return (n + 1) // 2
    v = (2 * n * pts + total) // (2 * total) + (2 * t) // 3
    if v < 1:
        v = 1
    if v > n:
        v = n
    return v


cdef void _strain(Ctx* c, const uint16_t[:, :] hands, int trump, int32_t[:] out) noexcept nogil:
    """out[declarer] for one trump (S H D C NT = 0..4) and declarers N E S W."""
    cdef int first, n, guess
    n = popcount(hands[0, 0]) + popcount(hands[0, 1]) + popcount(hands[0, 2]) \
        + popcount(hands[0, 3])
    tt_reset(&c.tt)  # nothing is shared across strains
    _setup(c, hands, trump)
    # leaders E, W (N-S declare), then S, N (E-W declare); the first result
    # seeds the guesses of the others
    first = _leader_tricks(c, 1, _estimate(c, 1, n))
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


cdef int _ctx_init(Ctx* c, int features, int tt_bits) noexcept nogil:
    memset(c, 0, sizeof(Ctx))
    c.features = features
    return tt_init(&c.tt, tt_bits)


cdef int _check_tt_bits(int tt_bits) except -1:
    if not MIN_TT_BITS <= tt_bits <= MAX_TT_BITS:
        raise ValueError(f"tt_bits must be {MIN_TT_BITS}..{MAX_TT_BITS}, got {tt_bits}")
    return 0


cdef Ctx* _new_ctx(int features, int tt_bits) except NULL:
    """A search context with its transposition table, or MemoryError."""
    _check_tt_bits(tt_bits)
    cdef Ctx* c = <Ctx*>malloc(sizeof(Ctx))
    if c == NULL:
        raise MemoryError()
    if _ctx_init(c, features, tt_bits) != 0:
        free(c)
        raise MemoryError("cannot allocate the transposition table")
    return c


cdef void _free_ctx(Ctx* c) noexcept nogil:
    tt_free(&c.tt)
    free(c)


def table_bytes(int tt_bits=DEFAULT_TT_BITS) -> int:
    """Bytes of one thread's transposition table of ``2**tt_bits`` entries."""
    _check_tt_bits(tt_bits)
    return tt_bytes(tt_bits)


DEFAULT_TABLE_BITS = DEFAULT_TT_BITS
TABLE_BITS_RANGE = (MIN_TT_BITS, MAX_TT_BITS)


def dd_table(const uint16_t[:, :] hands, dict stats=None, *, int features=ALL_FEATURES,
             int tt_bits=DEFAULT_TT_BITS):
    """DD table of one deal: ``int32[5, 4]``, rows trump S H D C NT, columns declarer N E S W.

    ``hands[seat][suit]`` are the 13-bit suit masks (all hands the same size).
    ``stats``, when given, receives node counts and transposition-table figures.
    ``features`` switches search features off (differential tests only);
    ``tt_bits``: the transposition table holds ``2**tt_bits`` entries.
    """
    if hands.shape[0] != 4 or hands.shape[1] != 4:
        raise ValueError("hands must have shape (4, 4)")
    out = np.zeros((5, 4), dtype=np.int32)
    cdef int32_t[:, :] view = out
    cdef Ctx* c = _new_ctx(features, tt_bits)
    try:
        with nogil:
            _table(c, hands, view)
        if stats is not None:
            _fill_stats(c, stats)
    finally:
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
    stats["small_card_skips"] = stats.get("small_card_skips", 0) + c.small_skips
    for key, counts in (
        ("trick_nodes", [c.trick_nodes[k] for k in range(14)]),
        ("trick_searched_fail", [c.trick_searched[k][0] for k in range(14)]),
        ("trick_searched_make", [c.trick_searched[k][1] for k in range(14)]),
    ):
        stats[key] = [a + b for a, b in zip(stats.get(key, [0] * 14), counts)]
    for k in range(4):
        key = f"cutoffs_pos{k}"
        first, later, none = stats.get(key, (0, 0, 0))
        stats[key] = (first + c.cut_first[k], later + c.cut_later[k], none + c.no_cut[k])


def dd_tables(const uint16_t[:, :, :] hands, int threads=0, *, int tt_bits=DEFAULT_TT_BITS):
    """DD tables of many deals on ``threads`` OpenMP threads (0 = all cores).

    Returns ``int32[n, 5, 4]`` (see :func:`dd_table`).  Each thread owns one
    search context and transposition table (``table_bytes(tt_bits)``),
    allocated once and freed at the end.  ``threads`` is capped at the number
    of cores this process may run on and at the number of jobs (five per
    deal), so the memory held is at most that many tables plus the arrays.
    """
    if hands.shape[1] != 4 or hands.shape[2] != 4:
        raise ValueError("hands must have shape (n, 4, 4)")
    _check_tt_bits(tt_bits)
    cdef Py_ssize_t n = hands.shape[0], i
    out = np.zeros((n, 5, 4), dtype=np.int32)
    cdef int32_t[:, :, :] view = out
    cdef Ctx* c
    cdef int failed = 0
    if n == 0:
        return out
    threads = _thread_count(threads, 5 * n)
    with nogil, parallel(num_threads=threads):
        c = <Ctx*>malloc(sizeof(Ctx))
        if c != NULL and _ctx_init(c, ALL_FEATURES, tt_bits) != 0:
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


def _thread_count(int threads, Py_ssize_t jobs) -> int:
    """``threads`` (0 = all cores) capped at the usable cores and at the number of jobs."""
    from solvers._parallel import max_threads
    cores = max(max_threads(), _usable_cores())
    if threads <= 0:
        threads = max_threads()
    return <int>max(1, min(threads, cores, jobs))


def _usable_cores() -> int:
    import os

    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


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


cdef int _setup_trick(Ctx* c, const uint16_t[:, :] hands, int trump, int leader,
                      const int32_t[:, :] trick) noexcept nogil:
    """Set up a position with ``trick`` already played; returns the seat to move."""
    cdef int k
    _setup(c, hands, trump)
    c.leader = leader
    for k in range(trick.shape[0]):
        c.remain[trick[k, 0]] |= <uint16_t>(1u << trick[k, 1])
    c.pos = 0
    for k in range(trick.shape[0]):
        # a card already on the table: in the trick state, in no hand
        _place_card(c, trick[k, 0], trick[k, 1])
        c.pos += 1
    c.max_side = ((c.leader + c.pos) & 3) & 1
    return (c.leader + c.pos) & 3


cdef struct RootState:
    # the position at the root, restored after each root move is searched
    uint16_t hands[4][4]
    uint16_t remain[4]
    int trick_suit[4]
    int trick_rank[4]
    int leader
    int pos
    int win_pos
    int tricks_max


cdef inline void _transfer(void* ctx_field, void* saved, size_t size, bint restore) noexcept nogil:
    if restore:
        memcpy(ctx_field, saved, size)
    else:
        memcpy(saved, ctx_field, size)


cdef inline void _root_state(Ctx* c, RootState* r, bint restore) noexcept nogil:
    """Save the root position into ``r``, or put it back into ``c`` when ``restore``."""
    _transfer(c.hands, r.hands, sizeof(r.hands), restore)
    _transfer(c.remain, r.remain, sizeof(r.remain), restore)
    _transfer(c.trick_suit, r.trick_suit, sizeof(r.trick_suit), restore)
    _transfer(c.trick_rank, r.trick_rank, sizeof(r.trick_rank), restore)
    _transfer(&c.leader, &r.leader, sizeof(int), restore)
    _transfer(&c.pos, &r.pos, sizeof(int), restore)
    _transfer(&c.win_pos, &r.win_pos, sizeof(int), restore)
    _transfer(&c.tricks_max, &r.tricks_max, sizeof(int), restore)


cdef int _root_move_value(Ctx* c, int seat, Move* move, int n_left, int guess) noexcept nogil:
    """Tricks of the side to move after it plays ``move`` (the position is restored)."""
    cdef RootState root
    cdef int value
    _root_state(c, &root, 0)
    _play_root(c, seat, move.suit, move.rank)
    value = _value(c, c.tricks_max, c.tricks_max + (n_left - (1 if c.pos == 0 else 0)),
                   guess)
    _root_state(c, &root, 1)
    return value


cdef bint _root_move_reaches(Ctx* c, int seat, Move* move, int target) noexcept nogil:
    """Does the side to move take at least ``target`` tricks after it plays ``move``?
    One null-window search (the position is restored)."""
    cdef RootState root
    cdef uint16_t wm[4]
    cdef bint reached
    _root_state(c, &root, 0)
    _play_root(c, seat, move.suit, move.rank)
    c.root_searches += 1
    reached = search(c, target, 0, wm)
    _root_state(c, &root, 1)
    return reached


cdef void _lead_values(Ctx* c, const uint16_t[:, :] hands, int trump, int leader,
                       int32_t[:, :] out) noexcept nogil:
    """``out[suit, rank]``: tricks of the leader's side after each opening lead of one
    deal (cards the leader does not hold are left alone)."""
    cdef Move moves[13]
    cdef int i, j, nm, n, value, best = -1, guess
    cdef uint16_t seq
    tt_reset(&c.tt)  # a new deal
    _setup(c, hands, trump)
    c.leader = leader
    c.max_side = leader & 1
    n = _cards(c, leader)
    guess = _estimate(c, leader & 1, n)
    nm = gen_moves(c, leader, moves)
    order_moves(c, leader, moves, nm, 0)
    for i in range(nm):
        value = _root_move_value(c, leader, &moves[i], n, best if best >= 0 else guess)
        if value > best:
            best = value
        seq = moves[i].seq
        while seq:
            j = msb(seq)
            seq ^= <uint16_t>(1u << j)
            out[moves[i].suit, j] = value


def lead_values(const uint16_t[:, :, :] hands, int trump, int leader, int threads=0, *,
                int tt_bits=DEFAULT_TT_BITS):
    """Every opening lead of many deals scored, on ``threads`` OpenMP threads (0 = all).

    ``hands[i]`` is a full deal, ``leader`` leads to the first trick in strain
    ``trump``.  Returns ``int32[n, 4, 13]``: ``[i, suit, rank]`` is the number of
    tricks the leader's side takes after leading that card, -1 for the cards
    the leader does not hold.  Threads and memory as for :func:`dd_tables`
    (one context a thread, reused from deal to deal).
    """
    if hands.shape[1] != 4 or hands.shape[2] != 4:
        raise ValueError("hands must have shape (n, 4, 4)")
    _check_tt_bits(tt_bits)
    cdef Py_ssize_t n = hands.shape[0], i
    out = np.full((n, 4, 13), -1, dtype=np.int32)
    cdef int32_t[:, :, :] view = out
    cdef Ctx* c
    cdef int failed = 0
    if n == 0:
        return out
    threads = _thread_count(threads, n)
    with nogil, parallel(num_threads=threads):
        c = <Ctx*>malloc(sizeof(Ctx))
        if c != NULL and _ctx_init(c, ALL_FEATURES, tt_bits) != 0:
            free(c)
            c = NULL
        for i in prange(n, schedule="dynamic", chunksize=1):
            if c == NULL:
                failed = 1
            else:
                _lead_values(c, hands[i], trump, leader, view[i])
        if c != NULL:
            _free_ctx(c)
    if failed:
        raise MemoryError("cannot allocate a transposition table for every thread")
    return out


cdef void _append_group(Move* move, int value, list suits, list ranks, list values):
    """One entry per card of the move's group of equal cards."""
    cdef uint16_t seq = move.seq
    cdef int j
    while seq:
        j = msb(seq)
        seq ^= <uint16_t>(1u << j)
        suits.append(move.suit)
        ranks.append(j)
        values.append(value)


def solve_position(const uint16_t[:, :] hands, int trump, int leader,
                   const int32_t[:, :] trick, dict stats=None, *, int target=-1,
                   bint first_only=False, int features=ALL_FEATURES,
                   int tt_bits=DEFAULT_TT_BITS):
    """Tricks for the side to move after each of its legal cards.

    ``hands`` hold the cards still in the hands; ``trick`` is ``int32[k, 2]``
    (suit, rank bit) of the 0..3 cards already played to the current trick,
    led by ``leader``.  Returns ``(suits, ranks, tricks)`` arrays, one entry
    per legal card, counting the current trick.

    ``target >= 0`` asks one question per card instead (DDS's target): does
    its line take at least ``target`` tricks?  Only the cards that do are
    returned, each with the value ``target``; ``first_only`` stops at the
    first such card.  ``stats``, ``features`` and ``tt_bits`` as for
    :func:`dd_table`.
    """
    if hands.shape[0] != 4 or hands.shape[1] != 4:
        raise ValueError("hands must have shape (4, 4)")
    if trick.shape[0] > 3 or (trick.shape[0] and trick.shape[1] != 2):
        raise ValueError("trick must have shape (k, 2) with k <= 3")
    cdef Ctx* c = _new_ctx(features, tt_bits)
    cdef int i, nm, seat, n_left, best = -1, value, first_guess
    cdef bint reached
    cdef Move moves[13]
    suits = []
    ranks = []
    values = []
    try:
        with nogil:
            seat = _setup_trick(c, hands, trump, leader, trick)
            n_left = _cards(c, seat)
            first_guess = _estimate(c, seat & 1, n_left)
            nm = gen_moves(c, seat, moves)
            order_moves(c, seat, moves, nm, 0)
        for i in range(nm):
            if target >= 0:
                with nogil:
                    reached = _root_move_reaches(c, seat, &moves[i], target)
                if reached:
                    _append_group(&moves[i], target, suits, ranks, values)
                    if first_only:
                        break
                continue
            with nogil:
                value = _root_move_value(c, seat, &moves[i], n_left,
                                         best if best >= 0 else first_guess)
            if value > best:
                best = value
            _append_group(&moves[i], value, suits, ranks, values)
        if stats is not None:
            _fill_stats(c, stats)
    finally:
        _free_ctx(c)
    return (np.array(suits, dtype=np.int32), np.array(ranks, dtype=np.int32),
            np.array(values, dtype=np.int32))


def leader_tricks(const uint16_t[:, :] hands, int trump, int leader, dict stats=None, *,
                  int features=ALL_FEATURES, int tt_bits=DEFAULT_TT_BITS):
    """Tricks the side of ``leader`` takes when it leads to the first trick (one DD cell).

    ``stats``, ``features`` and ``tt_bits`` as for :func:`dd_table`.
    """
    if hands.shape[0] != 4 or hands.shape[1] != 4:
        raise ValueError("hands must have shape (4, 4)")
    cdef Ctx* c = _new_ctx(features, tt_bits)
    cdef int n = 0, result
    try:
        with nogil:
            _setup(c, hands, trump)
            n = _cards(c, leader)
            result = _leader_tricks(c, leader, _estimate(c, leader & 1, n))
        if stats is not None:
            _fill_stats(c, stats)
    finally:
        _free_ctx(c)
    return result
