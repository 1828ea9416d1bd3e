"""qipai engines: types, parsers, rules, the public API and the ``qipai`` CLI.

Game subpackages: :mod:`engines.bridge`, :mod:`engines.rummikub`,
:mod:`engines.shengji`; batch analysis in :mod:`engines.batch`.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("qipai")
except PackageNotFoundError:  # running from a source tree without installation
    __version__ = "0.0.0+source"

__all__ = ["__version__"]
