"""How a game goes, told in a few short sections of our own words (Italian and English), for
the page a player opens from the board before the rule book: each section names, as small
references, the rules of the book it sums up. Never the rule texts' own sentences."""

from __future__ import annotations

from dataclasses import dataclass

from games.core.text import Text


@dataclass(frozen=True, slots=True)
class Section:
    title: Text
    text: Text
    rules: tuple[str, ...] = ()
