# cython: language_level=3
"""The CPU checks: this build's, run when ``solvers`` is imported, before any kernel, and
the bridge search's choice of build (:func:`cpu_has_bit_instructions`).

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
    /* LZCNT: CPUID 0x80000001 ECX bit 5 (ABM); BMI1, BMI2: leaf 7 EBX bits 3 and 8 */
    static int qp_cpu_has_bit_instructions(void) {
        unsigned int a, b, c, d;
        if (__get_cpuid_max(0x80000000u, 0) < 0x80000001u) return 0;
        __cpuid(0x80000001u, a, b, c, d);
        if (!(c & (1u << 5))) return 0;
        if (__get_cpuid_max(0, 0) < 7) return 0;
        __cpuid_count(7, 0, a, b, c, d);
        return (b & (1u << 3)) && (b & (1u << 8));
    }
    #else
    static int qp_cpu_has_popcnt(void) { return 1; }
    static int qp_cpu_has_bit_instructions(void) { return 0; }
    #endif
    /* setup.py defines it when the other extensions get -mpopcnt */
    #ifndef QIPAI_POPCNT_BUILD
    #define QIPAI_POPCNT_BUILD 0
    #endif
    """
    int qp_cpu_has_popcnt() noexcept nogil
    int qp_cpu_has_bit_instructions() noexcept nogil
    int QIPAI_POPCNT_BUILD


BUILT_WITH_POPCNT = bool(QIPAI_POPCNT_BUILD)


def cpu_has_popcnt() -> bool:
    """Whether this CPU runs POPCNT (True off x86, where no build asks for it)."""
    return bool(qp_cpu_has_popcnt())


def cpu_has_bit_instructions() -> bool:
    """Whether this CPU runs LZCNT, BMI1 and BMI2 (always False off x86): the bridge
    search's second build (:mod:`solvers.bridge._ab_search`) needs all three."""
    return bool(qp_cpu_has_bit_instructions())


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
