"""qipai engines: types, parsers, rules, the public API and the ``qipai`` CLI.

Game subpackages: :mod:`engines.bridge`, :mod:`engines.rummikub`,
:mod:`engines.shengji`; batch analysis in :mod:`engines.batch`.
"""

import os
import re
import sys

__all__ = ["__version__"]

# The metadata folders importlib.metadata takes for the distribution "qipai".
_OURS = re.compile(r"qipai(?:-[^-]*)?\.(?:dist|egg)-info", re.IGNORECASE)


def _installed_version() -> str:
    """``importlib.metadata.version("qipai")``, read straight from the first folder on
    ``sys.path`` holding qipai's metadata, as that function looks it up, without importing
    importlib.metadata (~30 ms, as much as the rest of a short command's imports after
    numpy); anything unusual (two candidates in one folder, a zip on the path, no
    ``Version`` line) is left to importlib.metadata.  "0.0.0+source" when qipai is not
    installed, "0.0.0+unknown" when its metadata has no version."""
    for entry in sys.path:
        try:
            names = [n for n in os.listdir(entry or ".") if _OURS.fullmatch(n)]
        except (FileNotFoundError, PermissionError):
            continue
        except OSError:  # a zip archive: only importlib.metadata reads inside
            break
        if len(names) == 1:
            folder = os.path.join(entry or ".", names[0])
            for name in ("METADATA", "PKG-INFO"):
                try:
                    with open(os.path.join(folder, name), encoding="utf-8") as lines:
                        for line in lines:
                            if line.startswith("Version:"):
                                return line[len("Version:"):].strip()
                            if not line.strip():
                                break  # the headers end at the first blank line
                except OSError:
                    continue
        if names:
            break
    from importlib.metadata import PackageNotFoundError, version

    try:
        found = version("qipai")
    except PackageNotFoundError:  # running from a source tree without installation
        return "0.0.0+source"
    except KeyError:  # no Version header: importlib_metadata >= 8 raises, the stdlib gives None
        found = None
    return found or "0.0.0+unknown"


__version__ = _installed_version()
