"""Bilingual messages: every rule and every violation speaks Italian and English."""

from __future__ import annotations

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
