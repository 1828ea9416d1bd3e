"""The exception hierarchy shared by every game.

Everything a user can get wrong (a malformed file, an impossible deal, an
unknown tile) raises a subclass of :class:`InputError`, itself a
:class:`ValueError`, with a message that names what is wrong.  The CLI turns
these into one ``qipai: error: ...`` line and exit status 2.

Each game's own root (``BridgeInputError``, ``RummikubInputError``,
``ShengjiInputError``...) and its subclasses live in ``engines/<game>/errors.py``.
Conditions that are not input errors (an interrupted batch run) are
:class:`QipaiError` too, so ``except QipaiError`` catches everything qipai
raises on purpose.
"""


class QipaiError(Exception):
    """Base class of every exception qipai raises on purpose."""


class InputError(QipaiError, ValueError):
    """Input that cannot be accepted; the message says what and where."""
