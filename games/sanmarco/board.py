"""San Marco's board as data: six districts (two prestige values and a die face each), the
pairs of districts a bridge may join, and where the Doge starts.

The printed board's figures are only partly known (San Marco 8/6, Castello on die face 6), so
the engine ships a *house board* (``boards/house.json``) that uses every known figure and
plausible values for the rest. A club that owns the game writes its own board in the same
shape and sets it as the ruleset's ``board`` option; ``load_board`` validates it and says
where it is wrong.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games.core import RecordError, read

# The six districts, in the order of the district cards (and of the house board's die faces).
DISTRICTS = ("cannaregio", "santa_croce", "san_polo", "san_marco", "dorsoduro", "castello")
# sanmarco.board.house: the board used when a club brings none of its own.
HOUSE_PATH = Path(__file__).resolve().parent / "boards" / "house.json"
MAX_BRIDGES = 12


@dataclass(frozen=True, slots=True)
class Board:
    """A validated board. Districts are indices into ``DISTRICTS``."""

    name: str
    values: tuple[tuple[int, int], ...]  # per district: (first, second)
    die: tuple[int, ...]  # per district: its die face, 1..6
    sites: tuple[tuple[int, int], ...]  # bridge sites, each (a, b) with a < b
    doge_start: int
    per_site: int

    def district_of_face(self, face: int) -> int:
        return self.die.index(face)

    def site_index(self, a: int, b: int) -> int | None:
        key = (a, b) if a < b else (b, a)
        try:
            return self.sites.index(key)
        except ValueError:
            return None

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "districts": [
                {"name": DISTRICTS[i], "die": self.die[i], "values": list(self.values[i])}
                for i in range(6)
            ],
            "bridge_sites": [[DISTRICTS[a], DISTRICTS[b]] for a, b in self.sites],
            "doge_start": DISTRICTS[self.doge_start],
            "bridges_per_site": self.per_site,
        }


def _whole(value: Any, path: str, low: int, high: int) -> int:
    return read.whole_in(value, low, high, path)


def _district(value: Any, path: str) -> int:
    return read.index_in(value, DISTRICTS, path)


def parse_board(data: Any, path: str = "board") -> Board:
    """Read and validate a board; RecordError names the first wrong field."""
    if not isinstance(data, Mapping):
        raise RecordError("a board is an object with districts and bridge_sites", path=path)
    name = data.get("name", "club")
    if not isinstance(name, str) or not name:
        raise RecordError("expected a name", path=f"{path}.name")
    rows = data.get("districts")
    if not isinstance(rows, list) or len(rows) != 6:
        raise RecordError("expected the six districts", path=f"{path}.districts")
    values: list[tuple[int, int] | None] = [None] * 6
    die: list[int | None] = [None] * 6
    for i, row in enumerate(rows):
        at = f"{path}.districts[{i}]"
        if not isinstance(row, Mapping):
            raise RecordError('expected {"name", "die", "values"}', path=at)
        d = _district(row.get("name"), f"{at}.name")
        if values[d] is not None:
            raise RecordError(f"{DISTRICTS[d]} is given twice", path=f"{at}.name")
        face = _whole(row.get("die"), f"{at}.die", 1, 6)
        if face in die:
            raise RecordError(f"die face {face} is on two districts", path=f"{at}.die")
        pair = row.get("values")
        if not isinstance(pair, list) or len(pair) != 2:
            raise RecordError("expected [first, second]", path=f"{at}.values")
        first = _whole(pair[0], f"{at}.values[0]", 1, 99)
        second = _whole(pair[1], f"{at}.values[1]", 0, 99)
        if second > first:
            raise RecordError("the second value is not above the first", path=f"{at}.values")
        values[d] = (first, second)
        die[d] = face
    per_site = _whole(data.get("bridges_per_site", 3), f"{path}.bridges_per_site", 1, 12)
    raw_sites = data.get("bridge_sites")
    if not isinstance(raw_sites, list) or not raw_sites:
        raise RecordError("expected a list of district pairs", path=f"{path}.bridge_sites")
    sites: list[tuple[int, int]] = []
    for k, pair in enumerate(raw_sites):
        at = f"{path}.bridge_sites[{k}]"
        if not isinstance(pair, list) or len(pair) != 2:
            raise RecordError("expected two district names", path=at)
        a, b = _district(pair[0], f"{at}[0]"), _district(pair[1], f"{at}[1]")
        if a == b:
            raise RecordError("a bridge joins two different districts", path=at)
        key = (min(a, b), max(a, b))
        if key in sites:
            raise RecordError("this pair is listed twice", path=at)
        sites.append(key)
    touched = {d for s in sites for d in s}
    if len(touched) != 6:
        lonely = [DISTRICTS[d] for d in range(6) if d not in touched]
        raise RecordError(f"no bridge can reach {', '.join(lonely)}", path=f"{path}.bridge_sites")
    doge = _district(data.get("doge_start"), f"{path}.doge_start")
    return Board(
        name,
        tuple(v for v in values if v is not None),
        tuple(f for f in die if f is not None),
        tuple(sites),
        doge,
        per_site,
    )


@functools.cache
def _cached(text: str) -> Board:
    return parse_board(json.loads(text))


def load_board(data: Mapping[str, Any] | None) -> Board:
    """The ruleset's board: None is the house board; a mapping is a club's own board."""
    if data is None:
        return house_board()
    if not isinstance(data, Mapping):
        raise RecordError("a board is an object with districts and bridge_sites", path="board")
    try:
        text = json.dumps(data, sort_keys=True)
    except (TypeError, ValueError) as exc:
        raise RecordError("a board is plain JSON", path="board") from exc
    return _cached(text)


@functools.cache
def house_board() -> Board:
    return parse_board(json.loads(HOUSE_PATH.read_text(encoding="utf-8")), "house board")
