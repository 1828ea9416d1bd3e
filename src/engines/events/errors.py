"""The exceptions of the events package.

:class:`EventInputError` is the root (an :class:`~engines.errors.InputError`);
:class:`EventFileError` is a file or record that breaks a validity rule of the
event rules (its message names the file, the record and the rule).
"""

from __future__ import annotations

from engines.errors import InputError

__all__ = ["EventFileError", "EventInputError"]


class EventInputError(InputError):
    """An event, week, match or case input that cannot be accepted; the message names where."""


class EventFileError(EventInputError):
    """A file or record that breaks a validity rule (``file: record: what (rule: …)``)."""
