"""The wide DP's per-position tables (:func:`solvers.rummikub.wide._pass.pass_setup`),
built once and shared by the passes of a position: each number's group reach is built by
the first pass that comes to it and each code's close entries by the first state that
holds it, they are the tables a pass of its own builds, and passes sharing them (one dying
early first) answer as passes that build their own."""

from __future__ import annotations

import random

import numpy as np
import pytest

from solvers.rummikub.wide._codes import close_tables, code_setup
from solvers.rummikub.wide._pass import NEG, group_reach, pass_setup, run_pass, solve_pass

NONE = np.zeros(0, np.int64)  # (run_pass's save: no pass kept)


def _position(seed: int) -> tuple:
    """A random melded position without held-out sets: the arguments of ``solve_pass``
    before ``floor``, then those after ``width``."""
    rng = random.Random(seed)
    colours, numbers = rng.choice((5, 6, 8)), rng.choice((8, 13))
    copies, min_len = rng.choice((2, 3)), rng.choice((3, 3, 4))
    must = np.zeros((colours, numbers), np.int64)
    must[0, :min_len] = 1  # (one run on the table)
    opt = np.array([[rng.randint(0, copies - must[c, v]) * (rng.random() < 0.3)
                     for v in range(numbers)] for c in range(colours)], np.int64)
    weight = np.ones((colours, numbers), np.int64)
    none = np.zeros(0, np.int64)
    hold = (np.zeros(numbers + 1, np.int64), none, none, none, np.zeros(numbers, np.int64),
            np.zeros(numbers * colours + 1, np.int64), none, none)
    jokers = rng.randint(0, 2)
    head = (must, opt, 0, jokers, weight, 1, -1, 1, 0, hold, none, (min_len, copies))
    tail = (1 << 20, np.zeros((colours, numbers, 4), np.int64), np.zeros(numbers, np.int64),
            none, np.zeros(2, np.int64))
    return head, tail


def _answer(result: tuple, tail: tuple) -> tuple:
    status, score, truncated = result
    return status, score, truncated, tail[1].tolist(), tail[2].tolist(), tail[4].tolist()


@pytest.mark.parametrize("seed", range(12))
def test_passes_sharing_the_tables_answer_as_passes_building_their_own(seed):
    head, tail = _position(seed)
    must, opt, _mj, jokers = head[:4]
    setup = pass_setup(must, opt, jokers, head[-1], code_setup(head[-1][0], head[-1][1] + jokers))
    best = solve_pass(*head, NEG, 0, *tail)[1]
    floors = (best + 1, best, NEG) if best > NEG else (NEG,)
    for floor in floors:  # (above the optimum first: a pass that may die before the end)
        tail[4][:] = 0
        own = _answer(solve_pass(*head, floor, 0, *tail), tail)
        tail[4][:] = 0
        shared = _answer(run_pass(*head, floor, 0, *tail, setup, NONE), tail)
        assert shared == own
    assert setup[-1].all()  # (the last pass came to every number)


@pytest.mark.parametrize("seed", range(6))
def test_each_numbers_tables_are_built_by_the_first_pass_coming_to_it(seed):
    head, tail = _position(seed)
    must, opt, _mj, jokers = head[:4]
    setup = pass_setup(must, opt, jokers, head[-1], code_setup(head[-1][0], head[-1][1] + jokers))
    ok, cap, _near, real, digits, keys, shift, _traits, order = setup[:9]
    closed, needc, known, reach, ready = setup[9:]
    assert not ready.any() and not known.any()
    run_pass(*head, NEG, 0, *tail, setup, NONE)
    assert ready.all() and known.shape[2] == 0  # (few codes: the whole tables, not lazy ones)
    for v in range(must.shape[1]):
        fresh_closed = np.zeros(closed[v].shape, np.int64)
        fresh_need = np.zeros(needc[v].shape, np.int64)
        close_tables(digits, keys, shift.shape[1] - 1, real, v, jokers, fresh_closed, fresh_need,
                     _traits[3])
        assert np.array_equal(closed[v], fresh_closed)
        assert np.array_equal(needc[v], fresh_need)
        assert np.array_equal(reach[v], group_reach(ok, cap, order[v], real, v, jokers))


def _long_sets_position(seed: int) -> tuple:
    """``_position`` at 4 x 13 with four copies, three jokers and sets of 12 (50,388 codes
    a colour): a rack of two long runs' tiles and some more."""
    head, tail = _position(seed)
    rng = random.Random(seed)
    must = np.zeros((4, 13), np.int64)
    opt = np.zeros((4, 13), np.int64)
    for c in rng.sample(range(4), 2):
        first = rng.randint(0, 1)
        opt[c, first:first + 12] = 1
    opt += np.array([[rng.random() < 0.3 for _ in range(13)] for _ in range(4)], np.int64)
    hold = (np.zeros(14, np.int64), *head[9][1:4], np.zeros(13, np.int64),
            np.zeros(4 * 13 + 1, np.int64), *head[9][6:])
    head = (must, opt, 0, 3, np.ones((4, 13), np.int64), 1, -1, 1, 0, hold, head[10], (12, 4))
    return head, (tail[0], np.zeros((4, 13, 4), np.int64), np.zeros(13, np.int64), *tail[3:])


@pytest.mark.parametrize("seed", range(4))
def test_passes_fill_only_the_codes_their_states_hold(seed):
    # filling every code's close entries was most of such a position's time (4 x 13, sets
    # of 12, seven open runs: 50,388 codes a colour); the entries a pass reads unfilled
    # hold junk here, so a read past close_entry would change the answer
    head, tail = _long_sets_position(seed)
    must, opt, _mj, jokers = head[:4]
    codes = code_setup(12, 4 + jokers)
    full = pass_setup(must, opt, jokers, head[-1], codes)
    lazy = pass_setup(must, opt, jokers, head[-1], codes)
    digits, keys, _shift, traits = codes
    for v in range(13):
        close_tables(digits, keys, 7, full[3], v, jokers, full[9][v], full[10][v], traits[3])
    full[11][:] = True
    lazy[9][:] = 5
    lazy[10][:] = -3
    answers = []
    for setup in (full, lazy):
        tail[4][:] = 0
        answers.append(_answer(run_pass(*head, NEG, 0, *tail, setup, NONE), tail))
    assert answers[0] == answers[1] and answers[0][0] == 1
    assert 0 < lazy[11].sum() < lazy[11].size // 20
    for v in range(13):  # (the entries filled are the whole tables')
        filled = lazy[11][v]
        assert np.array_equal(lazy[9][v][filled], full[9][v][filled])
        assert np.array_equal(lazy[10][v][filled], full[10][v][filled])


@pytest.mark.parametrize(("min_len", "most"), [(2, 4), (4, 5), (5, 7)])
def test_code_tables_are_kept_and_their_neighbours_are_a_brute_forces(min_len, most):
    # the engine keeps one position's code tables for the next (built once: 0.1 s for sets
    # of 12 with seven open runs); each code's dominating neighbours are the codes with one
    # run a class longer or more, or one more long run (searched by key, not by a dict)
    from engines.rummikub.wide import code_setup as kept

    assert kept(min_len, most) is kept(min_len, most)
    digits, _keys, _shift, (_short, _duty, better, _runs) = kept(min_len, most)
    index = {tuple(d): code for code, d in enumerate(digits.tolist())}
    for code, d in enumerate(digits.tolist()):
        want = []
        for i in range(min_len - 1):
            for j in range(i + 1, min_len):
                if d[i]:
                    e = list(d)
                    e[i], e[j] = e[i] - 1, e[j] + 1
                    want.append(index[tuple(e)])
        longer = (*d[:-1], d[-1] + 1)
        want += [index[longer]] if longer in index else []
        assert [x for x in better[code].tolist() if x >= 0] == want


def test_close_tables_leave_codes_past_the_tiles_unset():
    # a colour's code after number v+1 holds at most its tiles there and the jokers in runs
    digits, keys, _shift, traits = code_setup(4, 5)
    real = np.array([[1, 0, 2, 1, 1, 0, 0], [0, 0, 0, 0, 0, 0, 0]], np.int64)
    closed = np.zeros((2, digits.shape[0], 3), np.int64)
    need = np.ones((2, digits.shape[0]), np.int64)
    close_tables(digits, keys, 5, real, 2, 2, closed, need, traits[3])
    runs = digits.sum(axis=1)
    assert (closed[0][runs > 4] == -1).all() and (need[0][runs > 4] == 0).all()
    assert (closed[1][runs > 2] == -1).all() and (need[1][runs > 2] == 0).all()
    assert (closed[0][runs <= 4] >= 0).any()
