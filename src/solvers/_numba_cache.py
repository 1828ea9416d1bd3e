"""Numba's on-disk cache, invalidated by the package files a kernel depends on.

Numba stamps a cached kernel with the source of the one file that defines it.  A kernel
that calls a compiled function from another file embeds that function's code, so when
the other file changes, the cached caller keeps running the old code (Numba's
documentation lists this among the cache's limitations; 0.68 still behaves so).  For a
package registered here with :func:`register_kernel_package`, the stamp of a kernel is
the hash of its own module and of every module of the package that it imports,
directly or through other package modules (:func:`module_stamp`).  Imports are read
statically from the source (``from ._x import f``, ``from . import _x``, ``from
pkg._x import f``, ``import pkg._x as x``, inside functions too), so a change to a
module recompiles the kernels of that module and of its importers, and no others: the
kernels can live in small modules of one job each and still call each other with
``cache=True``.

Where a module's imports cannot all be resolved statically to files of the package (a
relative import out of it, a subpackage, ``importlib``/``__import__``, or a plain
``import pkg._x``, which binds a name that reaches every loaded module), its kernels are
stamped with every ``.py`` file of the package (:func:`package_stamp`) instead, as all
kernels were before: any change to the package then recompiles them.  Imports from
outside the package are not followed (code a kernel embeds from another package is not
part of its stamp, under either stamp).

Register before the package's kernel modules are imported (the cache locator is chosen
when ``njit(cache=True)`` decorates a function), i.e. first thing in its ``__init__``.
"""

from __future__ import annotations

import ast
import hashlib
import os
from functools import lru_cache

from numba.core import caching

_PACKAGES: set[str] = set()
_DYNAMIC_IMPORTS = frozenset({"__import__", "import_module"})


def _stat_key(path: str) -> tuple[str, int, int]:
    st = os.stat(path)
    return path, st.st_mtime_ns, st.st_size


@lru_cache(maxsize=256)
def _file_bytes(key: tuple[str, int, int]) -> bytes:
    # ``key`` (path, mtime, size) memoizes per file version: an edited file is re-read
    with open(key[0], "rb") as f:
        return f.read()


def _hash_modules(directory: str, names: list[str]) -> bytes:
    # (the names and contents in name order: over every file, the package stamp as it was)
    digest = hashlib.sha256()
    for name in sorted(names):
        digest.update(name.encode())
        digest.update(_file_bytes(_stat_key(os.path.join(directory, name))))
    return digest.digest()


def package_stamp(directory: str) -> bytes:
    """The hash of every ``.py`` file directly in ``directory`` (names and contents)."""
    return _hash_modules(directory, [n for n in os.listdir(directory) if n.endswith(".py")])


def _submodule(directory: str, name: str) -> str | None:
    """The file of package module ``name`` (dotted, relative to the package), or None."""
    if "." in name or not os.path.isfile(os.path.join(directory, name + ".py")):
        return None
    return name + ".py"


def _from_names(directory: str, node: ast.ImportFrom, rest: str | None) -> list[str] | None:
    """The files ``from <package>[.rest] import ...`` depends on, None where not static."""
    if rest is not None:
        found = _submodule(directory, rest)
        return None if found is None else [found]
    files = []
    for alias in node.names:  # ``from . import x``: a module of the package or a name of __init__
        if os.path.isdir(os.path.join(directory, alias.name)):
            return None
        files.append(_submodule(directory, alias.name) or "__init__.py")
    return files


def _within(package: str, name: str) -> bool:
    return name == package or name.startswith(package + ".")


def _import_files(directory: str, package: str, node: ast.Import) -> list[str] | None:
    files = []
    for alias in node.names:
        bound = alias.name if alias.asname else alias.name.partition(".")[0]
        if _within(bound, package):  # the package or a parent bound: every loaded module in reach
            return None
        if _within(package, bound):
            found = _submodule(directory, bound[len(package) + 1:])
            if found is None:
                return None
            files.append(found)
    return files


def _node_files(directory: str, package: str, node: ast.AST) -> list[str] | None:
    """The package files one AST node imports ([] for none), None where not static."""
    if isinstance(node, ast.ImportFrom):
        name = node.module or ""
        if node.level > 1 or (node.level == 0 and _within(name, package) and name != package):
            if node.level == 0 and not any(_within(f"{name}.{a.name}", package)
                                           or a.name == "*" for a in node.names):
                return []  # ``from solvers import other``: outside the package
            return None
        if node.level == 1:
            return _from_names(directory, node, name or None)
        if _within(package, name):
            return _from_names(directory, node, name[len(package) + 1:] or None)
        return []
    if isinstance(node, ast.Import):
        return _import_files(directory, package, node)
    if isinstance(node, ast.Name) and node.id in _DYNAMIC_IMPORTS:
        return None
    if isinstance(node, ast.Attribute) and node.attr in _DYNAMIC_IMPORTS:
        return None
    return []


@lru_cache(maxsize=256)
def _imports(key: tuple[str, int, int], package: str) -> frozenset[str] | None:
    directory = os.path.dirname(key[0])
    tree = ast.parse(_file_bytes(key), filename=key[0])
    files: set[str] = set()
    for node in ast.walk(tree):
        found = _node_files(directory, package, node)
        if found is None:
            return None
        files.update(found)
    return frozenset(files)


def module_imports(path: str, package: str) -> frozenset[str] | None:
    """The files of the package (``package`` is its dotted name) that ``path`` imports.

    None where some import cannot be resolved statically to a file of the package.

    >>> import solvers.rummikub._bound as m
    >>> sorted(module_imports(m.__file__, "solvers.rummikub"))
    ['_layout.py', '_official.py', '_simplex.py']
    """
    return _imports(_stat_key(path), package)


def module_dependencies(path: str, package: str) -> list[str] | None:
    """``path``'s file name and those of the package files it imports, transitively.

    >>> import solvers.rummikub._layers as m
    >>> module_dependencies(m.__file__, "solvers.rummikub")
    ['_layers.py', '_layout.py']
    """
    directory = os.path.dirname(os.path.abspath(path))
    seen = {os.path.basename(path)}
    todo = list(seen)
    while todo:
        found = module_imports(os.path.join(directory, todo.pop()), package)
        if found is None:
            return None
        todo.extend(found - seen)
        seen |= found
    return sorted(seen)


def module_stamp(path: str, package: str) -> bytes:
    """The source stamp of the kernels of ``path``: its file and the package files it needs.

    :func:`package_stamp` where some import is not resolved statically.
    """
    directory = os.path.dirname(os.path.abspath(path))
    names = module_dependencies(path, package) if package else None
    return package_stamp(directory) if names is None else _hash_modules(directory, names)


def _package_locator(base: type) -> type:
    """``base`` (a Numba cache locator) restricted to registered packages, stamped per module."""

    class PackageLocator(base):  # type: ignore[misc, valid-type]
        @classmethod
        def from_function(cls, py_func, py_file):
            if os.path.dirname(os.path.abspath(py_file)) not in _PACKAGES:
                return None
            locator = super().from_function(py_func, py_file)
            if locator is not None:
                module = py_func.__module__ or ""
                in_init = os.path.basename(py_file) == "__init__.py"
                locator._package = module if in_init else module.rpartition(".")[0]
            return locator

        def get_source_stamp(self) -> bytes:
            return module_stamp(self._py_file, self._package)

    PackageLocator.__name__ = PackageLocator.__qualname__ = "Package" + base.__name__.lstrip("_")
    return PackageLocator


def _base_locators() -> list[type]:
    # public names since Numba 0.60, underscored before
    names = ("UserProvidedCacheLocator", "InTreeCacheLocator", "UserWideCacheLocator")
    return [getattr(caching, name, None) or getattr(caching, "_" + name) for name in names]


def register_kernel_package(init_file: str) -> None:
    """Stamp every cached kernel in the directory of ``init_file`` with its package imports.

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
