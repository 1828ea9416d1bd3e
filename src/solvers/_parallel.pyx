# cython: language_level=3
"""What the compiled core knows about threads: was it built with OpenMP, and how many cores."""

cimport openmp


def openmp_available() -> bool:
    """True when the extensions were compiled with OpenMP (``prange`` runs in parallel)."""
    return bool(_openmp_compiled())


def max_threads() -> int:
    """Threads an OpenMP region would use by default (1 without OpenMP)."""
    if _openmp_compiled():
        return openmp.omp_get_max_threads()
    return 1


cdef extern from *:
    """
    #ifdef _OPENMP
    static int _openmp_compiled(void) { return 1; }
    #else
    static int _openmp_compiled(void) { return 0; }
    #endif
    """
    int _openmp_compiled()
