"""The two ways an input can fail, kept apart as the referee needs them.

* ``RecordError``: the record or summary cannot be read at all (malformed JSON, a missing
  field, an unknown card). The CLI exits 2.
* ``IllegalAction``: the action is well formed but the rules forbid it here. Carries the
  violations found, each with its rule id. The CLI exits 1.

No input is ambiguous: every action is written as a JSON object that reads as one action or
is refused (a ``RecordError``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from games.core.verdict import Violation


class EngineError(Exception):
    """Base of every error an engine raises on purpose."""


class RecordError(EngineError, ValueError):
    """The input cannot be read: say what is wrong and where, so the user can fix it."""

    def __init__(self, message: str, *, path: str = "") -> None:
        self.path = path
        self.message = message
        super().__init__(f"{path}: {message}" if path else message)


class IllegalAction(EngineError):
    """A readable action that the rules forbid in the current state."""

    def __init__(self, violations: list[Violation]) -> None:
        self.violations = violations
        first = violations[0] if violations else None
        super().__init__(f"{first.rule}: {first.message['en']}" if first else "illegal action")
