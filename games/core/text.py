"""Bilingual messages: every rule and every violation speaks Italian and English."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

LANGUAGES = ("it", "en")


@dataclass(frozen=True, slots=True)
class Text:
    it: str
    en: str

    def get(self, language: str) -> str:
        return self.it if language == "it" else self.en

    def as_dict(self) -> dict[str, str]:
        return {"it": self.it, "en": self.en}

    def format(self, **values: object) -> Text:
        return Text(self.it.format(**values), self.en.format(**values))


def seat_no(seat: int | None) -> str:
    """A seat as people count it in a sentence, from 1 (the engine's seat 0 is "1")."""
    return str(seat + 1) if isinstance(seat, int) else "—"


def seat_words(seat: int | None) -> Text:
    """A seat named in a sentence where no player's name is known: "posto 1" / "seat 1",
    counted from 1 (the engine's seat 0 is the first)."""
    return Text(f"posto {seat_no(seat)}", f"seat {seat_no(seat)}")


def per_seat(values: Sequence[object]) -> Text:
    """Values written one per seat, in words: "posto 1: 99, posto 2: 1" (never a list)."""
    return Text(
        ", ".join(f"posto {i + 1}: {v}" for i, v in enumerate(values)),
        ", ".join(f"seat {i + 1}: {v}" for i, v in enumerate(values)),
    )


def written_and_due(written: Sequence[object], due: Sequence[object]) -> Text:
    """What a scorekeeper wrote against what the rules give, seat by seat, naming only the
    seats that differ: "Posto 1: scritto 99, dovuto 2; posto 3: ..." (never the two lists)."""
    seats = [i for i in range(max(len(written), len(due))) if _at(written, i) != _at(due, i)]
    it = "; ".join(f"posto {i + 1}: scritto {_at(written, i)}, dovuto {_at(due, i)}" for i in seats)
    en = "; ".join(f"seat {i + 1}: written {_at(written, i)}, due {_at(due, i)}" for i in seats)
    return Text(f"{it[:1].upper()}{it[1:]}.", f"{en[:1].upper()}{en[1:]}.")


def _at(values: Sequence[object], i: int) -> object:
    return values[i] if i < len(values) else "—"
