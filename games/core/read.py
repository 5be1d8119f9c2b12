"""Reading JSON records and summaries: one helper per kind of field, one wording per mistake.

Every reader takes the raw value and the path it was read at (``deal.sfide[2].deck``,
``points[1]``) and either returns the value typed or raises ``RecordError`` with that path,
so the person who typed it is told what is wrong and where. Games read their own shapes
(a deal, an action) with these; the wording of a mistake is the same in every game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.core.errors import RecordError

WHOLE = "expected a whole number"
FLAG = "expected true or false"
SIDES_WORDING = 'expected "tramontana" or "mezzogiorno"'


def whole(raw: Any, path: str, *, text_too: bool = False) -> int:
    """A whole number (not a boolean, though ``True == 1``). With ``text_too``, digits typed
    as text are read as the number they write (forms send numbers as text)."""
    if type(raw) is int:
        return raw
    if isinstance(raw, int) and not isinstance(raw, bool):
        return int(raw)
    if text_too and isinstance(raw, str) and raw.strip().lstrip("-").isdigit():
        return int(raw)
    raise RecordError(WHOLE, path=path)


def whole_in(raw: Any, low: int, high: int, path: str) -> int:
    """A whole number from ``low`` to ``high``, both included."""
    if isinstance(raw, bool) or not isinstance(raw, int) or not low <= raw <= high:
        raise RecordError(f"{WHOLE} from {low} to {high}", path=path)
    return int(raw)


def wholes(raw: Any, n: int, path: str) -> list[int]:
    """A list of exactly ``n`` whole numbers; a bad one is reported at ``path[i]``."""
    if not isinstance(raw, list) or len(raw) != n:
        raise RecordError(f"expected a list of {n} whole numbers", path=path)
    return [whole(v, f"{path}[{i}]") for i, v in enumerate(raw)]


def flag(raw: Any, path: str) -> bool:
    """true or false."""
    if not isinstance(raw, bool):
        raise RecordError(FLAG, path=path)
    return raw


def one_of(raw: Any, allowed: Sequence[str], path: str, wording: str | None = None) -> str:
    """One of the ``allowed`` words; ``wording`` replaces the default list when the allowed
    words read better otherwise (``expected "east" or "west"``)."""
    if not isinstance(raw, str) or raw not in allowed:
        raise RecordError(wording or f"expected one of {', '.join(allowed)}", path=path)
    return raw


def index_in(raw: Any, names: Sequence[str], path: str, wording: str | None = None) -> int:
    """The position of a name in ``names`` (a side, a quarter...)."""
    return names.index(one_of(raw, names, path, wording))


def side(raw: Any, path: str) -> int:
    """0 for tramontana, 1 for mezzogiorno: the two sides of the Pisan games."""
    return index_in(raw, ("tramontana", "mezzogiorno"), path, SIDES_WORDING)


def seed(record: Mapping[str, Any], path: str = "seed") -> int | None:
    """A record's optional seed (absent or null: none)."""
    raw = record.get("seed")
    return None if raw is None else whole(raw, path)


def obj(raw: Any, path: str, wording: str = "expected a JSON object") -> Mapping[str, Any]:
    """A JSON object; ``wording`` can show the shape expected (``expected {"deck": [...]}``)."""
    if not isinstance(raw, Mapping):
        raise RecordError(wording, path=path)
    return raw


def list_of(raw: Any, path: str, wording: str = "expected a list") -> list[Any]:
    """A JSON list, its items left for the caller to read at ``path[i]``."""
    if not isinstance(raw, list):
        raise RecordError(wording, path=path)
    return raw


def required(data: Mapping[str, Any], key: str, path: str = "", wording: str | None = None) -> Any:
    """A field that must be there and not null; its path is ``path.key`` (``key`` alone at the
    top of a record)."""
    value = data.get(key)
    if value is None:
        at = f"{path}.{key}" if path else key
        raise RecordError(wording or f"{key!r} is missing", path=at)
    return value
