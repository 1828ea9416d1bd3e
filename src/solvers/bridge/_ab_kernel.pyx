# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Double-dummy search: null-window alpha-beta on the number of tricks.

``search(c, target)`` answers "does the counted side (``c.max_side``) take at
least ``target`` tricks from here?"  Exact values come from a driver that
moves a guess between a lower and an upper bound (MTD style), as DDS does.
At the start of every trick the search tries, in order: the target already
reached or out of reach, the last trick played out directly, quick tricks
(:mod:`_quick_tricks`), later tricks (:mod:`_later_tricks`) and the
transposition table (:mod:`_trans_table`); then it searches the ordered moves
(:mod:`_moves`), with second-hand quick tricks (:mod:`_second_hand`) after a lead.
The recursion (``search``, ``_play``) lives in
:mod:`_search`, the steps of one node in :mod:`_node_steps`; setting up a deal
or position and saving the root around a root move in :mod:`_root`.  Here: the
drivers that call the search and the Python entry points.
Every node backs up its *win ranks* (per suit, the cards that won a trick by
rank in the subtree, at or above which the relative ranks matter) so that a
stored result covers every position equal down to those ranks.

Everything here is C: the entry points take typed memoryviews, release the
GIL for the search, and the batch entry runs deals on all cores with OpenMP.
Inputs are assumed valid (the engine layer ``engines.bridge`` validates);
the entry points only check shapes and return codes.

This file is compiled twice: as ``_ab_kernel`` for any x86-64 (or other) CPU,
and through ``_ab_kernel_bmi.pyx`` with LZCNT, BMI1 and BMI2 where the compiler
has them.  ``_ab_search`` picks one at import; use that module, not these.
"""

from cython.parallel cimport parallel, prange, threadid
from libc.stdint cimport int32_t, uint16_t
from libc.stdlib cimport calloc, free

import numpy as np

from solvers.bridge._bits cimport built_for_bit_instructions, msb, popcount
from solvers.bridge._moves cimport gen_moves, ordered_moves
from solvers.bridge._node_steps cimport _cards, _clear
from solvers.bridge._root cimport (
    RootClasses,
    RootState,
    _alloc_ctx,
    _class_learn,
    _class_value,
    _classes_clear,
    _ctx_init,
    _ctx_reuse,
    _estimate,
    _free_ctx,
    _play_root,
    _root_state,
    _setup,
    _setup_trick,
)
from solvers.bridge._search cimport search
from solvers.bridge._trans_table cimport tt_bytes, tt_reset
from solvers.bridge._types cimport ALL_FEATURES, Ctx, Move

cdef enum:
    # default transposition table of a thread: 2**DEFAULT_TT_BITS entries (see tt_bytes)
    DEFAULT_TT_BITS = 21
    MIN_TT_BITS = 8
    MAX_TT_BITS = 25


# --- drivers ------------------------------------------------------------------------------


cdef int _value(Ctx* c, int lo, int hi, int guess, int* root_card,
                uint16_t* used) noexcept nogil:
    """Exact number of tricks of the counted side, known to lie in [lo, hi].

    ``root_card`` (when not NULL) gets ``suit * 16 + rank`` of a card of the root
    proven to reach the value, or -1 when no search found one (the value is ``lo``,
    or a bound decided it at the root without trying a card).  ``used`` (when not
    NULL) gets the win ranks of every search added to it."""
    cdef uint16_t wm[4]
    cdef int t, k
    cdef bint reached
    if root_card != NULL:
        root_card[0] = -1
    if guess < lo + 1:
        guess = lo + 1
    if guess > hi:
        guess = hi
    while lo < hi:
        t = guess
        c.root_searches += 1
        c.root_cut = -1
        reached = search(c, t, 0, wm)
        if used != NULL:
            for k in range(4):
                used[k] |= wm[k]
        if reached:
            lo = t
            if root_card != NULL:
                root_card[0] = c.root_cut
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
    return _value(c, 0, n, guess, NULL, NULL)


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


cdef int _check_tt_bits(int tt_bits) except -1:
    if not MIN_TT_BITS <= tt_bits <= MAX_TT_BITS:
        raise ValueError(f"tt_bits must be {MIN_TT_BITS}..{MAX_TT_BITS}, got {tt_bits}")
    return 0


# One context of the calls that solve a single deal or position, kept for the next such
# call (taken and given back under the GIL): a fresh 48.0 MiB table costs each call its
# page faults, about 5 % of a small opening-lead solve.  At most one is kept.
cdef Ctx* _spare = NULL
cdef int _spare_bits = 0


cdef Ctx* _new_ctx(int features, int tt_bits) except NULL:
    """A search context with an empty transposition table, or MemoryError."""
    global _spare
    _check_tt_bits(tt_bits)
    cdef Ctx* c
    if _spare != NULL and _spare_bits == tt_bits:
        c = _spare
        _spare = NULL
        _ctx_reuse(c, features)
        return c
    c = _alloc_ctx()
    if c == NULL:
        raise MemoryError()
    if _ctx_init(c, features, tt_bits) != 0:
        _free_ctx(c)
        raise MemoryError("cannot allocate the transposition table")
    return c


cdef void _release_ctx(Ctx* c, int tt_bits) noexcept:
    """Keep ``c`` for the next call when no context is kept yet, else free it."""
    global _spare, _spare_bits
    if _spare == NULL:
        _spare = c
        _spare_bits = tt_bits
    else:
        _free_ctx(c)


cdef Ctx** _contexts(int count, int tt_bits) except NULL:
    """``count`` contexts with empty tables for a batch (one a thread), the kept one among
    them when its size fits, so that a batch of a few deals does not pay a fresh table's
    page faults; MemoryError when one cannot be allocated."""
    cdef Ctx** ctxs = <Ctx**>calloc(count, sizeof(Ctx*))
    cdef int k
    if ctxs == NULL:
        raise MemoryError()
    try:
        for k in range(count):
            ctxs[k] = _new_ctx(ALL_FEATURES, tt_bits)
    except MemoryError:
        _release_contexts(ctxs, count, tt_bits)
        raise MemoryError("cannot allocate a transposition table for every thread")
    return ctxs


cdef void _release_contexts(Ctx** ctxs, int count, int tt_bits) noexcept:
    """A batch's contexts: one kept for the next call (when none is), the others freed."""
    cdef int k
    for k in range(count):
        if ctxs[k] != NULL:
            _release_ctx(ctxs[k], tt_bits)
    free(ctxs)


def batch_contexts(int count) -> list:
    """``(address, bytes)`` of the search contexts a batch of ``count`` threads takes (as
    ``_contexts`` does, with tables of the smallest size; then freed): each must lie on
    cache lines of its own."""
    cdef Ctx** ctxs = _contexts(count, MIN_TT_BITS)
    cdef int k
    try:
        return [(<size_t>ctxs[k], <size_t>sizeof(Ctx)) for k in range(count)]
    finally:
        for k in range(count):
            _free_ctx(ctxs[k])
        free(ctxs)


def drop_kept_table() -> None:
    """Free the search context kept between single-deal calls (its table's memory)."""
    global _spare
    if _spare != NULL:
        _free_ctx(_spare)
        _spare = NULL


def table_bytes(int tt_bits=DEFAULT_TT_BITS) -> int:
    """Bytes of one thread's transposition table of ``2**tt_bits`` entries."""
    _check_tt_bits(tt_bits)
    return tt_bytes(tt_bits)


DEFAULT_TABLE_BITS = DEFAULT_TT_BITS
# True when this build uses LZCNT, BMI1 and BMI2 (it then needs a CPU that has them)
BIT_INSTRUCTIONS = bool(built_for_bit_instructions)
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
        _release_ctx(c, tt_bits)
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
    search context and transposition table (``table_bytes(tt_bits)``), taken
    before the threads start and reused from deal to deal; one of them is the
    context kept between calls (see :func:`drop_kept_table`), so a call of a few
    deals does not pay a fresh table's page faults.  ``threads`` is capped at
    the number of cores this process may run on and at the number of jobs (five
    per deal), so the memory held is at most that many tables plus the arrays.
    """
    if hands.shape[1] != 4 or hands.shape[2] != 4:
        raise ValueError("hands must have shape (n, 4, 4)")
    _check_tt_bits(tt_bits)
    cdef Py_ssize_t n = hands.shape[0], i
    out = np.zeros((n, 5, 4), dtype=np.int32)
    cdef int32_t[:, :, :] view = out
    cdef Ctx** ctxs
    if n == 0:
        return out
    threads = _thread_count(threads, 5 * n)
    ctxs = _contexts(threads, tt_bits)
    try:
        with nogil, parallel(num_threads=threads):
            # one job per (deal, strain): five times finer than per deal, so one hard
            # deal does not leave the other threads idle at the end of a batch
            for i in prange(n * 5, schedule="dynamic", chunksize=1):
                _strain(ctxs[threadid()], hands[i // 5], <int>(i % 5), view[i // 5, i % 5])
    finally:
        _release_contexts(ctxs, threads, tt_bits)
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


cdef int _root_move_value(Ctx* c, int seat, Move* move, int n_left, int guess,
                          RootClasses* classes) noexcept nogil:
    """Tricks of the side to move after it plays ``move`` (the position is restored);
    taken from ``classes`` when an earlier card of the suit proved it, else searched
    and learnt there."""
    cdef RootState root
    cdef int value = _class_value(classes, move)
    cdef uint16_t used[4]
    if value >= 0:
        return value
    _clear(used)
    _root_state(c, &root, 0)
    _play_root(c, seat, move.suit, move.rank)
    value = _value(c, c.tricks_max, c.tricks_max + (n_left - (1 if c.pos == 0 else 0)),
                   guess, NULL, used)
    _root_state(c, &root, 1)
    _class_learn(c, classes, move, used, value)
    return value


cdef bint _root_move_reaches(Ctx* c, int seat, Move* move, int target,
                            RootClasses* classes) noexcept nogil:
    """Does the side to move take at least ``target`` tricks after it plays ``move``?
    One null-window search (the position is restored), unless ``classes`` knows."""
    cdef RootState root
    cdef uint16_t wm[4]
    cdef int reached = _class_value(classes, move)
    if reached >= 0:
        return reached
    _root_state(c, &root, 0)
    _play_root(c, seat, move.suit, move.rank)
    c.root_searches += 1
    reached = search(c, target, 0, wm)
    _root_state(c, &root, 1)
    _class_learn(c, classes, move, wm, reached)
    return reached


cdef void _score_moves(Ctx* c, int seat, Move* moves, int nm, int n_left, int guess,
                       int* scores) noexcept nogil:
    """``scores[i]``: tricks of the side to move (from the root on) after ``moves[i]``,
    each move solved from the best score so far; the moves are put in search order
    first.  (Solving the root's own value first, as a cap on every card, costs 3 %
    more nodes: its refutation one above the value covers the weaker cards too.)"""
    cdef RootClasses classes
    cdef int i, best = -1
    _classes_clear(&classes)
    ordered_moves(c, seat, moves, 0)  # the same moves as given, in search order
    for i in range(nm):
        scores[i] = _root_move_value(c, seat, &moves[i], n_left, best if best >= 0 else guess,
                                     &classes)
        if scores[i] > best:
            best = scores[i]


cdef void _lead_values(Ctx* c, const uint16_t[:, :] hands, int trump, int leader,
                       int32_t[:, :] out) noexcept nogil:
    """``out[suit, rank]``: tricks of the leader's side after each opening lead of one
    deal (cards the leader does not hold are left alone)."""
    cdef Move moves[13]
    cdef int scores[13]
    cdef int i, j, nm, n
    cdef uint16_t seq
    tt_reset(&c.tt)  # a new deal
    _setup(c, hands, trump)
    c.leader = leader
    c.max_side = leader & 1
    n = _cards(c, leader)
    nm = gen_moves(c, leader, moves)
    _score_moves(c, leader, moves, nm, n, _estimate(c, leader & 1, n), scores)
    for i in range(nm):
        seq = moves[i].seq
        while seq:
            j = msb(seq)
            seq ^= <uint16_t>(1u << j)
            out[moves[i].suit, j] = scores[i]


def lead_values(const uint16_t[:, :, :] hands, int trump, int leader, int threads=0, *,
                int tt_bits=DEFAULT_TT_BITS):
    """Every opening lead of many deals scored, on ``threads`` OpenMP threads (0 = all).

    ``hands[i]`` is a full deal, ``leader`` leads to the first trick in strain
    ``trump``.  Returns ``int32[n, 4, 13]``: ``[i, suit, rank]`` is the number of
    tricks the leader's side takes after leading that card, -1 for the cards
    the leader does not hold.  Threads and memory as for :func:`dd_tables`
    (one context a thread, reused from deal to deal); one of them is the context
    kept between calls (see :func:`drop_kept_table`), so a call of a few deals
    costs as much a deal as :func:`solve_position`.
    """
    if hands.shape[1] != 4 or hands.shape[2] != 4:
        raise ValueError("hands must have shape (n, 4, 4)")
    _check_tt_bits(tt_bits)
    cdef Py_ssize_t n = hands.shape[0], i
    out = np.full((n, 4, 13), -1, dtype=np.int32)
    cdef int32_t[:, :, :] view = out
    cdef Ctx** ctxs
    if n == 0:
        return out
    threads = _thread_count(threads, n)
    ctxs = _contexts(threads, tt_bits)
    try:
        with nogil, parallel(num_threads=threads):
            for i in prange(n, schedule="dynamic", chunksize=1):
                _lead_values(ctxs[threadid()], hands[i], trump, leader, view[i])
    finally:
        _release_contexts(ctxs, threads, tt_bits)
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


cdef void _reaching_cards(Ctx* c, int seat, Move* moves, int nm, int best, int best_card,
                          bint first_only, list suits, list ranks, list values):
    """Append the groups of ``moves`` that reach ``best`` tricks, in the order given (one
    question each, none for the group of ``best_card``, already proven, or -1; none when
    ``best`` is the floor, which every card reaches); with ``first_only``, stop at the
    first.  A target's cards, and the optimal cards once the root's value is known."""
    cdef int i
    cdef bint reached
    cdef RootClasses classes
    _classes_clear(&classes)
    for i in range(nm):
        if best == c.tricks_max or (best_card >= 0 and moves[i].suit == best_card >> 4
                                    and (moves[i].seq >> (best_card & 15)) & 1):
            reached = 1
        else:
            with nogil:
                reached = _root_move_reaches(c, seat, &moves[i], best, &classes)
        if reached:
            _append_group(&moves[i], best, suits, ranks, values)
            if first_only:
                return


def solve_position(const uint16_t[:, :] hands, int trump, int leader,
                   const int32_t[:, :] trick, dict stats=None, *, int target=-1,
                   bint first_only=False, bint optimal_only=False, int features=ALL_FEATURES,
                   int tt_bits=DEFAULT_TT_BITS):
    """Tricks for the side to move after each of its legal cards.

    ``hands`` hold the cards still in the hands; ``trick`` is ``int32[k, 2]``
    (suit, rank bit) of the 0..3 cards already played to the current trick,
    led by ``leader``.  Returns ``(suits, ranks, tricks)`` arrays, one entry
    per legal card, counting the current trick.

    ``target >= 0`` asks one question per card instead (DDS's target): does
    its line take at least ``target`` tricks?  Only the cards that do are
    returned, each with the value ``target``; ``first_only`` stops at the
    first such card.  ``optimal_only`` (without a target) returns only the
    cards of the best value (DDS's solutions=2): the value is solved at the
    root, then each other card is asked one question at it; with
    ``first_only`` too, only the first optimal card in hand order (suits
    S H D C, high first; DDS's solutions=1).  ``stats``, ``features`` and
    ``tt_bits`` as for :func:`dd_table`.
    """
    if hands.shape[0] != 4 or hands.shape[1] != 4:
        raise ValueError("hands must have shape (4, 4)")
    if trick.shape[0] > 3 or (trick.shape[0] and trick.shape[1] != 2):
        raise ValueError("trick must have shape (k, 2) with k <= 3")
    cdef Ctx* c = _new_ctx(features, tt_bits)
    cdef int i, nm, seat, n_left, best = -1, first_guess, best_card = -1
    cdef Move moves[13]
    cdef int scores[13]
    suits = []
    ranks = []
    values = []
    try:
        with nogil:
            seat = _setup_trick(c, hands, trump, leader, trick)
            n_left = _cards(c, seat)
            first_guess = _estimate(c, seat & 1, n_left)
            nm = gen_moves(c, seat, moves)
            if target < 0 and optimal_only:
                best = _value(c, 0, n_left, first_guess, &best_card, NULL)
            elif target >= 0:
                ordered_moves(c, seat, moves, 0)
            else:
                _score_moves(c, seat, moves, nm, n_left, first_guess, scores)
        if target >= 0 or optimal_only:
            # a target's cards in the ordering's order; the optimal ones in hand order (as
            # generated), so that "one" keeps the first optimal card
            _reaching_cards(c, seat, moves, nm, target if target >= 0 else best, best_card,
                            first_only, suits, ranks, values)
            nm = 0
        for i in range(nm):
            _append_group(&moves[i], scores[i], suits, ranks, values)
        if stats is not None:
            _fill_stats(c, stats)
    finally:
        _release_ctx(c, tt_bits)
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
        _release_ctx(c, tt_bits)
    return result
