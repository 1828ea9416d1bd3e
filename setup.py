"""Build the Cython extensions under ``src/solvers``.

Every ``.pyx`` file below ``src/solvers`` becomes one extension module compiled
with ``-O3``.  OpenMP is used when the compiler accepts ``-fopenmp``; where it
does not, the same code builds without it and ``prange`` loops run serially.
On x86-64 ``-mpopcnt`` is added (POPCNT is on every x86-64 CPU since 2008).
Set ``QIPAI_NATIVE_ARCH=1`` to add ``-march=native`` (off by default so that
wheels run on any CPU of the target architecture).

The bridge search is compiled twice: ``_ab_kernel`` for any CPU and
``_ab_kernel_bmi`` with ``-mlzcnt -mbmi -mbmi2`` where the compiler accepts them
(x86-64; elsewhere it builds like the first and is never chosen).
``solvers.bridge._ab_search`` picks the second at import only on a CPU that has
all three (without LZCNT that instruction runs as BSR: wrong answers).
"""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).parent
SOURCE_ROOT = ROOT / "src"


def _find_extensions() -> list[Extension]:
    extensions = []
    for pyx in sorted((SOURCE_ROOT / "solvers").rglob("*.pyx")):
        module = ".".join(pyx.relative_to(SOURCE_ROOT).with_suffix("").parts)
        extensions.append(Extension(module, [str(pyx.relative_to(ROOT))]))
    return extensions


_OPENMP_PROBE = '#include <omp.h>\nint main(void){return omp_get_max_threads() > 0 ? 0 : 1;}\n'
_POPCNT_PROBE = "int main(int argc, char **argv){return __builtin_popcount((unsigned)argc) - 1;}\n"
_BIT_INSTRUCTIONS_PROBE = (
    "int main(int argc, char **argv){return __builtin_clz((unsigned)argc) - 31;}\n"
)
# extensions that get the flags below on x86-64: a second build chosen at import by a CPU check
_BIT_INSTRUCTION_MODULES = ("solvers.bridge._ab_kernel_bmi",)
_BIT_INSTRUCTION_FLAGS = ["-mlzcnt", "-mbmi", "-mbmi2"]


def _compiler_accepts(compiler_cmd: list[str], flags: list[str], source: str) -> bool:
    """Try to compile and link a tiny program with ``flags``."""
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "probe.c"
        src.write_text(source)
        cmd = [*compiler_cmd, *flags, str(src), "-o", str(Path(tmp) / "probe")]
        try:
            result = subprocess.run(cmd, capture_output=True, timeout=60)
        except (OSError, subprocess.SubprocessError):
            return False
        return result.returncode == 0


class BuildExt(build_ext):
    """``build_ext`` that cythonizes on the fly and probes for OpenMP."""

    def finalize_options(self) -> None:
        from Cython.Build import cythonize

        self.distribution.ext_modules = cythonize(
            self.distribution.ext_modules,
            compiler_directives={
                "language_level": "3",
                "boundscheck": False,
                "wraparound": False,
                "cdivision": True,
                "initializedcheck": False,
            },
            quiet=True,
        )
        super().finalize_options()
        if self.parallel is None:
            # the bridge search alone is two ~2 MB C files (its two builds): compile the
            # modules side by side; at most four, since one gcc of such a file takes ~1 GB
            self.parallel = min(os.cpu_count() or 1, 4)

    def build_extensions(self) -> None:
        compiler_cmd = list(getattr(self.compiler, "compiler_so", None) or ["cc"])[:1]
        bit_flags: list[str] = []
        if self.compiler.compiler_type == "msvc":
            compile_flags, link_flags = ["/O2", "/openmp"], []
        else:
            compile_flags = ["-O3", "-fno-strict-aliasing"]
            link_flags = []
            if os.environ.get("QIPAI_NATIVE_ARCH") == "1":
                compile_flags.append("-march=native")
            elif platform.machine().lower() in ("x86_64", "amd64") and _compiler_accepts(
                compiler_cmd, ["-mpopcnt"], _POPCNT_PROBE
            ):
                # every x86-64 CPU since 2008 has POPCNT; without the flag the bridge
                # solver's popcounts become library calls
                compile_flags.append("-mpopcnt")
            if platform.machine().lower() in ("x86_64", "amd64") and _compiler_accepts(
                compiler_cmd, _BIT_INSTRUCTION_FLAGS, _BIT_INSTRUCTIONS_PROBE
            ):
                bit_flags = _BIT_INSTRUCTION_FLAGS
            if os.environ.get("QIPAI_NO_OPENMP") != "1" and shutil.which(compiler_cmd[0]):
                if _compiler_accepts(compiler_cmd, ["-fopenmp"], _OPENMP_PROBE):
                    compile_flags.append("-fopenmp")
                    link_flags.append("-fopenmp")
                else:
                    print("qipai: compiler has no OpenMP; building serial kernels", file=sys.stderr)
        for ext in self.extensions:
            extra = bit_flags if ext.name in _BIT_INSTRUCTION_MODULES else []
            ext.extra_compile_args = [*ext.extra_compile_args, *compile_flags, *extra]
            ext.extra_link_args = [*ext.extra_link_args, *link_flags]
        super().build_extensions()


setup(ext_modules=_find_extensions(), cmdclass={"build_ext": BuildExt})
