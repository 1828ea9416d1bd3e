# cython: language_level=3
"""The recursion of the double-dummy search: ``search`` and ``_play``.

``search(c, target, ply, wm)`` answers "does the counted side (``c.max_side``)
take at least ``target`` tricks from here?"; ``wm`` gets the node's win ranks.
At the start of a trick it first tries the cheap answers of :mod:`_node_steps`
(target reached or out of reach, the last trick, quick tricks, later tricks, the
transposition table), at the second hand the second-hand quick tricks; then it
searches the moves (:mod:`_moves`) heaviest first, with small-card pruning (a
follower, or a leader whose killer is a sure winner, makes only the move tried first
until it fails to cut off), and
stores a trick start's result in the table; in the first two tricks a follower's
moves are first probed for a cutoff within the trick (``_probe_cut``).  ``_play``
plays a card, keeps the table key of the next trick up to date when the card
completes a trick (and starts loading its table slot when a probe stops there:
the probe's last trick start asks the table at once), recurses, and takes it all
back.  The drivers and entry points live in ``_ab_search.pyx``.

Both functions are inline only to live in a ``.pxd`` (they call each other, so
the C compiler keeps ``search`` a real function).
"""

from libc.stdint cimport uint16_t, uint32_t, uint64_t
from libc.string cimport memcpy

from solvers.bridge._bits cimport lsb, popcount
from solvers.bridge._leads cimport killer_lead
from solvers.bridge._moves cimport FollowPlan, first_follower_move, later_moves, ordered_moves
from solvers.bridge._node_steps cimport TrickStart, _cards, _clear, _copy, _cover_sequence
from solvers.bridge._node_steps cimport _place_card, _second_hand, _trick_result, _trick_start
from solvers.bridge._probe cimport horizon_answer
from solvers.bridge._trans_table cimport tt_drop_slot, tt_length_unit, tt_lengths, tt_patterns
from solvers.bridge._trans_table cimport tt_prefetch
from solvers.bridge._types cimport FEATURE_QUICK_TRICKS, FEATURE_SMALL_CARDS, Ctx, Move


cdef inline bint _play(Ctx* c, int seat, int s, int r, int target, int ply,
                       uint16_t* cwm) noexcept nogil:
    """Play card (s, r) of ``seat``, search the rest, take the card back; ``cwm`` gets the
    child's win ranks (plus the winning card when the card completed a trick won by rank)."""
    cdef uint16_t bit = <uint16_t>(1u << r)
    cdef int old_win = c.win_pos, old_leader, old_tricks, ws, wr, w, k, same = 0
    cdef int ts[4]
    cdef int tr[4]
    cdef uint32_t old_pat[4]
    cdef uint16_t old_remain[4]
    cdef uint64_t old_lens = c.lens, cw
    cdef bint child
    c.hands[seat][s] ^= bit
    c.lens -= tt_length_unit(seat, s)
    _place_card(c, s, r)
    if c.pos < 3:
        c.pos += 1
        child = search(c, target, ply + 1, cwm)
        c.pos -= 1
    else:
        ws = c.trick_suit[c.win_pos]
        wr = c.trick_rank[c.win_pos]
        w = (c.leader + c.win_pos) & 3
        if ply + 1 == c.probe_horizon:
            # a probe stops at this trick start and asks the table alone
            tt_prefetch(&c.tt, c.lens, w)
        memcpy(old_pat, c.pat, sizeof(old_pat))
        memcpy(old_remain, c.remain, sizeof(old_remain))
        for k in range(4):
            if c.trick_suit[k] == ws:
                same += 1
            # the card leaves the key's owners: its place among the suit's cards still out
            c.pat[c.trick_suit[k]] = tt_drop_slot(
                c.pat[c.trick_suit[k]], popcount(c.remain[c.trick_suit[k]] >> (c.trick_rank[k] + 1)))
            c.remain[c.trick_suit[k]] ^= <uint16_t>(1u << c.trick_rank[k])
        old_leader = c.leader
        old_tricks = c.tricks_max
        # the next tricks overwrite the trick arrays: keep this one
        memcpy(ts, c.trick_suit, sizeof(ts))
        memcpy(tr, c.trick_rank, sizeof(tr))
        if (w & 1) == c.max_side:
            c.tricks_max += 1
        c.leader = w
        c.pos = 0
        child = search(c, target, ply + 1, cwm)
        c.pos = 3
        c.leader = old_leader
        c.tricks_max = old_tricks
        memcpy(c.trick_suit, ts, sizeof(ts))
        memcpy(c.trick_rank, tr, sizeof(tr))
        memcpy(c.remain, old_remain, sizeof(old_remain))
        memcpy(c.pat, old_pat, sizeof(old_pat))
        if same >= 2:
            # the whole word at once: the caller reads it whole at a cutoff
            memcpy(&cw, cwm, sizeof(cw))
            cw |= <uint64_t>1 << (16 * ws + wr)
            memcpy(cwm, &cw, sizeof(cw))
    c.win_pos = old_win
    c.hands[seat][s] ^= bit
    c.lens = old_lens
    return child


cdef inline int _card_to_play(Ctx* c, Move* m) noexcept nogil:
    """The card of a follower's group of equal cards to play: the highest when it beats
    the card winning the trick so far, else the lowest, so that the higher ones stay in
    hand: the win ranks below then name the higher cards, and the table entries above
    pin fewer cards (when the group wins, the winning card's rank is pinned instead)."""
    cdef int ws = c.trick_suit[c.win_pos]
    if (m.suit == ws and m.rank > c.trick_rank[c.win_pos]) or (m.suit == c.trump
                                                               and ws != c.trump):
        return m.rank
    return lsb(m.seq)


cdef enum:
    # probe the moves of the second to fourth hand while at least this many tricks are
    # left (_probe_cut; benches/README, "Early-node probes": leads, or more nodes, lose)
    PROBE_TRICKS = 12


cdef inline int _probe_cut(Ctx* c, int seat, Move* moves, int n, int target, int ply,
                           bint mover_max, uint16_t* cwm) noexcept nogil:
    """Before searching the moves one by one, look for one that cuts off within the current
    trick: each move is searched down to the next trick start only, where a trick start
    that the table does not decide (``_probe.horizon_answer``) counts as the mover's
    failure.  Such a pessimistic search proves a cutoff when it finds one (with its win
    ranks: every node on the way answered in the mover's favour, so none used a
    stand-in answer), and it stops early otherwise: an opponent refutes a move at the first
    undecided trick start.  Returns the index of the cutting move (``cwm`` its win
    ranks), or -1.  The killers of the plies below are kept as they were."""
    cdef int killers[4]
    cdef int i, found = -1
    memcpy(killers, &c.killer[ply + 1], sizeof(killers))
    c.probe_horizon = ply + 4 - c.pos
    c.probe_fail = not mover_max
    for i in range(n):
        if _play(c, seat, moves[i].suit, _card_to_play(c, &moves[i]), target, ply,
                 cwm) == mover_max:
            found = i
            break
    c.probe_horizon = 0
    memcpy(&c.killer[ply + 1], killers, sizeof(killers))
    return found


cdef inline bint search(Ctx* c, int target, int ply, uint16_t* wm) noexcept nogil:
    """Does the counted side take at least ``target`` tricks?  ``wm`` gets the win ranks."""
    cdef int seat = (c.leader + c.pos) & 3
    cdef int answer, i, k, nm, s, r
    cdef bint mover_max = (seat & 1) == c.max_side, res, cut = 0, probe, complete = 1
    cdef FollowPlan plan
    cdef Move moves[13]
    cdef uint16_t cwm[4]
    cdef uint16_t acc[4]
    cdef int small[4]
    cdef uint64_t cw
    cdef TrickStart ts
    c.nodes += 1
    if ply == 0:
        # the root of a search: the key, from scratch (the cards of the current trick
        # are still out; they leave when it is complete)
        c.lens = tt_lengths(c)
        tt_patterns(c, c.pat)
        # the plies whose mover holds PROBE_TRICKS cards or more (the root's mover has
        # not played to the root's trick yet)
        c.probe_plies = 4 * (_cards(c, seat) - PROBE_TRICKS + 1) - c.pos
    if c.pos == 0:
        if ply == c.probe_horizon and ply > 0:
            return horizon_answer(c, seat, target, wm)
        answer = _trick_start(c, seat, target, &ts, wm)
        if answer >= 0:
            if ts.table_move >= 0:
                # a table answer is a cutoff found earlier: its lead is this ply's killer
                c.killer[ply] = ts.table_move
            return answer
    elif c.pos == 1 and (c.features & FEATURE_QUICK_TRICKS):
        answer = _second_hand(c, seat, target, mover_max, wm)
        if answer >= 0:
            return answer
    probe = ply < c.probe_plies and c.pos > 0 and c.probe_horizon == 0
    # a follower's first move, or a killer lead that wins surely, alone: the rest if it fails
    if c.pos > 0 and not probe:
        nm = 1
        complete = first_follower_move(c, seat, &moves[0], &plan)
    elif c.pos == 0 and ply > 0 and killer_lead(c, seat, ply, &moves[0]):
        nm = 1
        complete = 0
    else:
        nm = ordered_moves(c, seat, moves, ply)
    _clear(acc)
    for k in range(4):
        small[k] = -1
    i = -1
    if probe and nm > 1:
        i = _probe_cut(c, seat, moves, nm, target, ply, mover_max, cwm)
    if i >= 0:
        cut = 1
        s = moves[i].suit
        r = moves[i].rank
    else:
        i = 0
        while i < nm:
            s = moves[i].suit
            r = _card_to_play(c, &moves[i]) if c.pos > 0 else moves[i].rank
            if r < small[s]:
                # small-card pruning: a lower card of this suit was searched and neither
                # it nor this one reaches the lowest rank that mattered below it: same result
                c.small_skips += 1
                i += 1
                continue
            if _play(c, seat, s, r, target, ply, cwm) == mover_max:
                cut = 1
                break
            for k in range(4):
                acc[k] |= cwm[k]
            if c.features & FEATURE_SMALL_CARDS:
                k = lsb(cwm[s]) if cwm[s] else 13
                if r < k and k > small[s]:
                    small[s] = k
            i += 1
            if not complete:
                complete = 1
                nm = later_moves(c, seat, moves, &plan, ply)
    if cut:
        c.killer[ply] = s * 16 + r
        if ply == 0:
            c.root_cut = s * 16 + r
        # the cut needs only the card played, already above the lowest win rank
        # when it matters; the other cards of its group need not stay equal to it
        _copy(wm, cwm)
        res = mover_max
        if i == 0:
            c.cut_first[c.pos] += 1
        else:
            c.cut_later[c.pos] += 1
    else:
        c.no_cut[c.pos] += 1
        res = not mover_max
        memcpy(&cw, acc, sizeof(cw))
        for i in range(nm):
            _cover_sequence(&moves[i], &cw)
        memcpy(wm, &cw, sizeof(cw))
    if c.pos == 0:
        _trick_result(c, seat, &ts, res, wm, s * 16 + r if cut else -1)
    return res
