"""One person's name, however it was typed: the identity the sign-up and the enrolment by
paste both match on. Letter case, accents, apostrophes, hyphens, extra spaces and the order
of the words aside, two names are the same person ("Niccolo Della Gherardesca" is
"Niccolò Della Gherardesca", "D'Amico Rosa" is "Rosa Damico"); a name only close to another
("Nicolo Della Gherardesca", "Mario Rossi" beside "Mario Rossi Bianchi") is a "did you mean"
for a person to answer, never decided here. Plain Python: no Django."""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable
from typing import TypeVar

T = TypeVar("T")

# Apostrophes of every keyboard, and the marks that join parts of one name.
_JOINERS = re.compile(r"['’‘`´ʼ.\-]")
_NOT_WORD = re.compile(r"[^0-9a-z]+")


# How many letters two keys may differ by (added, dropped or changed: one changed letter
# counts two) to ask "did you mean": two in a short name, one more per ten letters.
def _allowed(a: str, b: str) -> int:
    return max(2, max(len(a), len(b)) // 10)


def _plain(name: str) -> str:
    """The name without accents, in lower case, its joining marks dropped."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    # Letters NFKD does not split (ß is folded by casefold already).
    bare = bare.replace("ø", "o").replace("đ", "d").replace("ł", "l").replace("æ", "ae")
    return _JOINERS.sub("", bare)


def words(name: str) -> list[str]:
    """The name's words, plain, sorted: the order they were typed in does not count."""
    return sorted(w for w in _NOT_WORD.split(_plain(name)) if w)


def name_key(name: str) -> str:
    """The key two spellings of one person share; empty for a name with no letters."""
    return " ".join(words(name))


def same_person(a: str, b: str) -> bool:
    key = name_key(a)
    return bool(key) and key == name_key(b)


def _close(a: str, b: str) -> bool:
    if not a or not b or a == b:
        return False
    wa, wb = set(a.split()), set(b.split())
    # One name holds all the words of the other (a second surname, a middle name).
    if min(len(wa), len(wb)) >= 2 and (wa <= wb or wb <= wa):
        return True
    # The words run together ("Della Gherardesca", "Dellagherardesca").
    if a.replace(" ", "") == b.replace(" ", ""):
        return True
    same = sum(block.size for block in difflib.SequenceMatcher(None, a, b).get_matching_blocks())
    return len(a) + len(b) - 2 * same <= _allowed(a, b)


def close_matches(name: str, candidates: Iterable[tuple[str, T]]) -> list[T]:
    """The candidates (each a name and what it names) whose name is close to ``name`` but
    not the same person: the "did you mean" to ask before making someone new."""
    key = name_key(name)
    return [item for other, item in candidates if _close(key, name_key(other))]


def find_same(name: str, candidates: Iterable[tuple[str, T]]) -> T | None:
    """The first candidate that is the same person as ``name``, or None."""
    key = name_key(name)
    if not key:
        return None
    for other, item in candidates:
        if name_key(other) == key:
            return item
    return None
