"""Cache hints shared by the native modules.

``prefetch_read(address, locality)`` asks for the cache line holding ``address`` before a
load that would otherwise wait on it (locality 0-3 as GCC's ``__builtin_prefetch``: 3 keeps
the line in every level, 1 in the outer ones).  It is a hint only: results never depend on
it, so compilers without the builtin get an empty macro and build the same modules.
"""


cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define qp_prefetch_read(address, locality) __builtin_prefetch((address), 0, (locality))
    #else
    #define qp_prefetch_read(address, locality) ((void)(address))
    #endif
    """
    void prefetch_read "qp_prefetch_read"(const void* address, int locality) noexcept nogil
