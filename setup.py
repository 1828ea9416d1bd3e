"""Build the Cython extensions under ``src/solvers``.

Every ``.pyx`` file below ``src/solvers`` becomes one extension module compiled
with ``-O3``.  OpenMP is used when the compiler accepts ``-fopenmp``; where it
does not, the same code builds without it and ``prange`` loops run serially.
On x86-64 ``-mpopcnt`` is added (POPCNT is on every x86-64 CPU since 2008) to every
module but ``solvers._cpu``, which checks the CPU when ``solvers`` is imported and refuses
one without POPCNT with a clear ImportError (instead of a crash by SIGILL).
Set ``QIPAI_NATIVE_ARCH=1`` to add ``-march=native`` (off by default so that
wheels run on any CPU of the target architecture).

The bridge search is compiled twice: ``_ab_kernel`` for any CPU and
``_ab_kernel_bmi`` with ``-mlzcnt -mbmi -mbmi2`` where the compiler accepts them
(x86-64; elsewhere it builds like the first and is never chosen).
``solvers.bridge._ab_search`` picks the second at import only on a CPU that has
all three (without LZCNT that instruction runs as BSR: wrong answers).

Both builds of the bridge search are profile-guided with GCC: compiled with
``-fprofile-generate``, run once on a fixed training set (``solvers/bridge/_pgo_training.py``:
opening leads and DD tables of 48 embedded deals, one thread, ~10 s a kernel), then compiled
again with ``-fprofile-use``.  The profile makes GCC's inlining and code layout follow the hot
paths instead of its size heuristics: ~2 % less time on the lead simulation, ~9 % on DD
tables, and no more 10 % swings between builds of nearly the same source (benches/README.md,
"Build").  It is made afresh by every build, so it always matches the source.  A plain
``-O3`` build is made instead when the compiler is not GCC, when it lacks the flags, when
training fails (a kernel not trained is built plainly, alone), or with ``QIPAI_PGO=0``.
"""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
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
# extensions compiled without the instruction-set flags: the CPU check that runs before the rest
_PLAIN_MODULES = ("solvers._cpu",)
_POPCNT_BUILD_MACRO = ("QIPAI_POPCNT_BUILD", "1")  # tells the check the rest uses POPCNT
# extensions built profile-guided, and the script that trains them
_PGO_MODULES = ("solvers.bridge._ab_kernel", "solvers.bridge._ab_kernel_bmi")
_PGO_TRAINING = SOURCE_ROOT / "solvers" / "bridge" / "_pgo_training.py"
_PGO_TRAINING_CANNOT_RUN = 3  # its exit status on a CPU that cannot run the kernel
_PGO_TRAINING_TIMEOUT_S = 600
_GCC_PROBE = (
    "#if defined(__clang__) || !defined(__GNUC__)\n#error not GCC\n#endif\n"
    "int main(void){return 0;}\n"
)


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
        arch_flags: list[str] = []
        if self.compiler.compiler_type == "msvc":
            compile_flags, link_flags = ["/O2", "/openmp"], []
        else:
            compile_flags = ["-O3", "-fno-strict-aliasing"]
            link_flags = []
            if os.environ.get("QIPAI_NATIVE_ARCH") == "1":
                arch_flags = ["-march=native"]
            elif platform.machine().lower() in ("x86_64", "amd64") and _compiler_accepts(
                compiler_cmd, ["-mpopcnt"], _POPCNT_PROBE
            ):
                # every x86-64 CPU since 2008 has POPCNT; without the flag the bridge
                # solver's popcounts become library calls (solvers._cpu refuses, at import,
                # a CPU without it)
                arch_flags = ["-mpopcnt"]
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
            if ext.name in _PLAIN_MODULES:
                extra = []
                if "-mpopcnt" in arch_flags:
                    ext.define_macros = [*ext.define_macros, _POPCNT_BUILD_MACRO]
            else:
                extra = [*arch_flags, *(bit_flags if ext.name in _BIT_INSTRUCTION_MODULES else [])]
            ext.extra_compile_args = [*ext.extra_compile_args, *compile_flags, *extra]
            ext.extra_link_args = [*ext.extra_link_args, *link_flags]
        # an up-to-date kernel is left as it is (setuptools skips it), so not trained again
        guided = [ext for ext in self.extensions if ext.name in _PGO_MODULES and self._stale(ext)]
        if guided and self._profile_guided(compiler_cmd):
            self._build_profile_guided(guided)
        else:
            super().build_extensions()

    def _stale(self, ext: Extension) -> bool:
        """Whether setuptools would build ``ext`` (forced, or a source newer than the module)."""
        built = Path(self.get_ext_fullpath(ext.name))
        if self.force or not built.exists():
            return True
        mtime = built.stat().st_mtime
        sources = [Path(p) for p in [*ext.sources, *ext.depends]]
        return any(p.exists() and p.stat().st_mtime > mtime for p in sources)

    def _profile_guided(self, compiler_cmd: list[str]) -> bool:
        """Whether to build ``_PGO_MODULES`` profile-guided: GCC with the flags, not turned off."""
        if os.environ.get("QIPAI_PGO", "1").strip() == "0" or self.compiler.compiler_type == "msvc":
            return False
        if not shutil.which(compiler_cmd[0]):
            return False
        with tempfile.TemporaryDirectory() as tmp:
            flags = [f"-fprofile-generate={tmp}", "-fprofile-update=single"]
            if not _compiler_accepts(compiler_cmd, flags, _GCC_PROBE):
                return False
        flags = ["-fprofile-use", "-fprofile-partial-training", "-Wno-missing-profile"]
        return _compiler_accepts(compiler_cmd, flags, _GCC_PROBE)

    def _build_profile_guided(self, guided: list[Extension]) -> None:
        """Instrumented build, training run, and the final build of ``guided``.

        Every extension is built first (the instrumented kernels among them: training imports
        the built package); each kernel is then trained in its own process, side by side, and
        built again with its profile, or plainly when it has none.
        """
        profiles = self._profiles()
        shutil.rmtree(profiles, ignore_errors=True)  # a stale profile would not match the source
        plain = {ext.name: (ext.extra_compile_args, ext.extra_link_args) for ext in guided}
        for ext in guided:
            generate = [f"-fprofile-generate={profiles / ext.name}", "-fprofile-update=single"]
            ext.extra_compile_args = [*ext.extra_compile_args, *generate]
            ext.extra_link_args = [*ext.extra_link_args, *generate]
        super().build_extensions()
        print("qipai: training the profile-guided bridge search", file=sys.stderr)
        with ThreadPoolExecutor(max_workers=len(guided)) as pool:
            trained = list(pool.map(self._train, guided))
        for ext, ok in zip(guided, trained):
            compile_args, link_args = plain[ext.name]
            use = [f"-fprofile-use={profiles / ext.name}", "-fprofile-partial-training",
                   "-Wno-missing-profile"]
            ext.extra_compile_args = [*compile_args, *use] if ok else compile_args
            ext.extra_link_args = link_args
        force, self.force = self.force, True
        try:
            with ThreadPoolExecutor(max_workers=min(len(guided), self.parallel or 1)) as pool:
                list(pool.map(self.build_extension, guided))
        finally:
            self.force = force

    def _train(self, ext: Extension) -> bool:
        """Run the training on one instrumented kernel; True when it left a profile."""
        built = Path(self.get_ext_fullpath(ext.name)).resolve()
        root = built.parents[len(ext.name.split(".")) - 1]
        cmd = [sys.executable, str(_PGO_TRAINING), str(root), ext.name.rsplit(".", 1)[1]]
        try:
            result = subprocess.run(cmd, capture_output=True, text=True,
                                    timeout=_PGO_TRAINING_TIMEOUT_S)
        except (OSError, subprocess.SubprocessError) as exc:
            print(f"qipai: {ext.name} training failed ({exc}); plain build", file=sys.stderr)
            return False
        if result.returncode == _PGO_TRAINING_CANNOT_RUN:
            print(f"qipai: this CPU cannot run {ext.name}; plain build", file=sys.stderr)
            return False
        if result.returncode != 0:
            print(f"qipai: {ext.name} training failed; plain build\n{result.stderr[-2000:]}",
                  file=sys.stderr)
            return False
        return any((self._profiles() / ext.name).rglob("*.gcda"))

    def _profiles(self) -> Path:
        """Where the training runs leave their profiles, one folder a kernel."""
        return Path(self.build_temp).resolve() / "pgo-profiles"


setup(ext_modules=_find_extensions(), cmdclass={"build_ext": BuildExt})
