# cython: language_level=3
"""The CPU check of this build, run when ``solvers`` is imported, before any kernel.

setup.py compiles every other extension of ``solvers`` with ``-mpopcnt`` on x86-64 (the
bridge search's popcounts become one instruction), and GCC may use POPCNT anywhere in
them: on a CPU without it (x86-64 CPUs before 2008) they would die of SIGILL, taking the
interpreter with them.  This module alone is compiled without it (setup.py, ``_PLAIN_MODULES``),
so it can ask the CPU (CPUID) and raise a clear ImportError instead.
"""

cdef extern from *:
    """
    #if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
    #include <cpuid.h>
    /* POPCNT: CPUID leaf 1, ECX bit 23 */
    static int qp_cpu_has_popcnt(void) {
        unsigned int a, b, c, d;
        if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
        return (c >> 23) & 1;
    }
    #else
    static int qp_cpu_has_popcnt(void) { return 1; }
    #endif
    /* setup.py defines it when the other extensions get -mpopcnt */
    #ifndef QIPAI_POPCNT_BUILD
    #define QIPAI_POPCNT_BUILD 0
    #endif
    """
    int qp_cpu_has_popcnt() noexcept nogil
    int QIPAI_POPCNT_BUILD


BUILT_WITH_POPCNT = bool(QIPAI_POPCNT_BUILD)


def cpu_has_popcnt() -> bool:
    """Whether this CPU runs POPCNT (True off x86, where no build asks for it)."""
    return bool(qp_cpu_has_popcnt())


def missing_instructions(built_with_popcnt: bool, has_popcnt: bool) -> list[str]:
    """The instructions the build uses and the CPU lacks."""
    return ["POPCNT"] if built_with_popcnt and not has_popcnt else []


def check_cpu() -> None:
    """Raise ImportError when this CPU cannot run the kernels as they were built."""
    missing = missing_instructions(BUILT_WITH_POPCNT, cpu_has_popcnt())
    if missing:
        raise ImportError(
            f"qipai's native kernels were built with {', '.join(missing)}, which this CPU "
            "lacks: build qipai from source on this machine with the environment variable "
            "QIPAI_NATIVE_ARCH=1 (it compiles for this CPU's own instruction set)"
        )
