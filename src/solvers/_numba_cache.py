"""Numba's on-disk cache, invalidated per kernel package instead of per file.

Numba stamps a cached kernel with the source of the one file that defines it.  A kernel
that calls a compiled function from another file embeds that function's code, so when
the other file changes, the cached caller keeps running the old code (Numba's
documentation lists this among the cache's limitations; 0.68 still behaves so).  For a
package registered here with :func:`register_kernel_package`, the stamp of every kernel
is the hash of all the package's ``.py`` files instead: changing any of them recompiles
every kernel of the package, so its kernels can live in small modules of one job each
and still call each other with ``cache=True``.

Register before the package's kernel modules are imported (the cache locator is chosen
when ``njit(cache=True)`` decorates a function), i.e. first thing in its ``__init__``.
"""

from __future__ import annotations

import hashlib
import os
from functools import lru_cache

from numba.core import caching

_PACKAGES: set[str] = set()


@lru_cache(maxsize=64)
def _hash_files(directory: str, stats: tuple[tuple[str, int, int], ...]) -> bytes:
    # ``stats`` (name, mtime, size) is part of the memo key, so an edited file is re-read
    digest = hashlib.sha256()
    for name, _mtime, _size in stats:
        digest.update(name.encode())
        with open(os.path.join(directory, name), "rb") as f:
            digest.update(f.read())
    return digest.digest()


def package_stamp(directory: str) -> bytes:
    """The hash of every ``.py`` file directly in ``directory`` (names and contents)."""
    stats = []
    for name in sorted(os.listdir(directory)):
        if name.endswith(".py"):
            st = os.stat(os.path.join(directory, name))
            stats.append((name, st.st_mtime_ns, st.st_size))
    return _hash_files(directory, tuple(stats))


def _package_locator(base: type) -> type:
    """``base`` (a Numba cache locator) restricted to registered packages, stamped per package."""

    class PackageLocator(base):  # type: ignore[misc, valid-type]
        @classmethod
        def from_function(cls, py_func, py_file):
            if os.path.dirname(os.path.abspath(py_file)) not in _PACKAGES:
                return None
            return super().from_function(py_func, py_file)

        def get_source_stamp(self) -> bytes:
            return package_stamp(os.path.dirname(os.path.abspath(self._py_file)))

    PackageLocator.__name__ = PackageLocator.__qualname__ = "Package" + base.__name__.lstrip("_")
    return PackageLocator


def _base_locators() -> list[type]:
    # public names since Numba 0.60, underscored before
    names = ("UserProvidedCacheLocator", "InTreeCacheLocator", "UserWideCacheLocator")
    return [getattr(caching, name, None) or getattr(caching, "_" + name) for name in names]


def register_kernel_package(init_file: str) -> None:
    """Stamp every cached kernel in the directory of ``init_file`` with the whole package.

    >>> import solvers.rummikub, os
    >>> os.path.dirname(os.path.abspath(solvers.rummikub.__file__)) in _PACKAGES
    True
    """
    directory = os.path.dirname(os.path.abspath(init_file))
    if not _PACKAGES:
        impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl
        locators = impl._locator_classes
        locators[:0] = [_package_locator(base) for base in _base_locators()]
    _PACKAGES.add(directory)
