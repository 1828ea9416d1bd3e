# cython: language_level=3
"""Random bridge deals as suit masks: a seeded shuffle of the free cards, no Python per deal.

Kernels only (see :mod:`engines.bridge.dealer` for the checked public API).
A deal is ``uint16[4, 4]`` suit masks ``[seat][suit]`` (seats N E S W, suits
S H D C, bit ``rank - 2``).  The fixed cards of every seat are OR-ed in; the
free cards are shuffled (Fisher–Yates, each position drawn with Lemire's
unbiased bounded-integer method) and cut into the numbers of cards each seat
still needs.  The generator is xoshiro256** (Blackman and Vigna, 2018), whose
four 64-bit state words live in a caller-owned ``uint64[4]`` array, so one
stream continues across calls and a seed reproduces every deal.
"""

from libc.stdint cimport uint16_t, uint32_t, uint64_t, int32_t, uint8_t

import numpy as np


cdef inline uint64_t _rotl(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))


cdef inline uint64_t _next(uint64_t* s) noexcept nogil:
    """xoshiro256**: one 64-bit output, advancing the state."""
    cdef uint64_t result = _rotl(s[1] * 5, 7) * 9
    cdef uint64_t t = s[1] << 17
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = _rotl(s[3], 45)
    return result


cdef inline uint32_t _below(uint64_t* s, uint32_t bound) noexcept nogil:
    """A uniform integer in [0, bound) (Lemire 2019: multiply, reject the biased low range)."""
    cdef uint64_t m = (_next(s) >> 32) * bound
    cdef uint32_t low = <uint32_t>m
    cdef uint32_t threshold
    if low < bound:
        threshold = (<uint32_t>(-bound)) % bound
        while low < threshold:
            m = (_next(s) >> 32) * bound
            low = <uint32_t>m
    return <uint32_t>(m >> 32)


def seed_state(uint64_t seed):
    """The xoshiro256** state for ``seed``: four splitmix64 outputs (never all zero)."""
    state = np.zeros(4, dtype=np.uint64)
    cdef uint64_t x = seed
    cdef uint64_t z
    cdef int i
    for i in range(4):
        x += <uint64_t>0x9E3779B97F4A7C15
        z = x
        z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
        z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
        state[i] = z ^ (z >> 31)
    return state


def deal_batch(const uint16_t[:, :] fixed, const int32_t[:] need, uint64_t[:] state,
               uint16_t[:, :, :] out):
    """Fill ``out[n, 4, 4]`` with deals: ``fixed`` cards plus ``need[seat]`` free cards each.

    The free cards are those in no hand of ``fixed``; ``need`` must sum to their
    number (the engine checks).  ``state`` (``uint64[4]``) advances in place.
    """
    cdef uint8_t suit_of[52]
    cdef uint16_t bit_of[52]
    cdef uint8_t perm[52]
    cdef int n_free = 0, s, r, i, j, seat, k, cut, start
    cdef uint16_t taken
    cdef uint8_t tmp
    cdef uint64_t st[4]
    cdef Py_ssize_t d, n = out.shape[0]
    cdef int bounds[5]
    for s in range(4):
        taken = fixed[0, s] | fixed[1, s] | fixed[2, s] | fixed[3, s]
        for r in range(13):
            if not (taken >> r) & 1:
                suit_of[n_free] = <uint8_t>s
                bit_of[n_free] = <uint16_t>(1 << r)
                perm[n_free] = <uint8_t>n_free
                n_free += 1
    bounds[0] = 0
    for seat in range(4):
        bounds[seat + 1] = bounds[seat] + need[seat]
    if bounds[4] != n_free:
        raise ValueError("need must add up to the number of free cards")
    # the last seat takes what is left, so only the first cuts need random positions
    cut = bounds[3]
    for i in range(4):
        st[i] = state[i]
    with nogil:
        for d in range(n):
            for i in range(cut):
                j = i + <int>_below(st, <uint32_t>(n_free - i))
                tmp = perm[i]
                perm[i] = perm[j]
                perm[j] = tmp
            for seat in range(4):
                for s in range(4):
                    out[d, seat, s] = fixed[seat, s]
                start = bounds[seat]
                for k in range(start, bounds[seat + 1]):
                    out[d, seat, suit_of[perm[k]]] |= bit_of[perm[k]]
    for i in range(4):
        state[i] = st[i]
    return out
