"""Plain spreadsheet columns for a game's summary, so that a club can import results typed
in a spreadsheet without writing JSON.

Nothing here knows a game: the columns are the paths of the game's own example summaries
(``summary_examples``, declared by each game): ``card_points``, ``pair`` (a list in one cell,
its values separated by ``|``), ``scontri.2.tramontana.force`` (rows counted from 1). The
example also says which cells hold a list, so that a cell is read back as the summary wants.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from ledger.clubs.errors import Invalid

SEPARATOR = "|"
_INT = re.compile(r"^-?\d+$")
_DECIMAL = re.compile(r"^-?\d+[.,]\d+$")

# The columns of an import file of its own (docs/imports.md); any other names a field of
# the game's summary.
CSV_COLUMNS = [
    "competition",
    "table",
    "players",
    "source",
    "record",
    "scores",
    "key",
    "void",
    "reason",
]

# A summary's field named like one of the file's own columns (cardChess's "players") is
# written "summary.players".
OWN = "summary."


def file_column(field: str) -> str:
    """The column of an import file that holds a summary's ``field``."""
    return OWN + field if field in CSV_COLUMNS else field


def summary_field(column: str) -> str:
    """The summary's field an import file's ``column`` holds."""
    return column.removeprefix(OWN)


def _scalar(value: Any) -> bool:
    return not isinstance(value, (dict, list))


def flatten(summary: Mapping[str, Any], prefix: str = "") -> dict[str, str]:
    """A summary as plain cells: column name -> text."""
    out: dict[str, str] = {}
    for key, value in summary.items():
        out.update(_flat(value, f"{prefix}{key}"))
    return out


def _flat(value: Any, path: str) -> dict[str, str]:
    if isinstance(value, dict):
        return flatten(value, path + ".")
    if isinstance(value, list):
        if all(_scalar(v) for v in value):
            return {path: SEPARATOR.join(_text(v) for v in value)}
        out: dict[str, str] = {}
        for n, item in enumerate(value, start=1):
            out.update(_flat(item, f"{path}.{n}"))
        return out
    return {path: _text(value)}


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def columns(examples: tuple[Mapping[str, Any], ...]) -> list[str]:
    """Every column the examples use, in their order (rows beyond an example's fall in too)."""
    seen: dict[str, None] = {}
    for example in examples:
        for name in flatten(example):
            seen.setdefault(name, None)
    return list(seen)


def _shape(examples: tuple[Mapping[str, Any], ...], parts: list[str]) -> Any:
    """The example's value at a column's path (a row of a list stands for every row)."""
    for example in examples:
        node: Any = example
        for part in parts:
            if isinstance(node, dict) and part in node:
                node = node[part]
            elif isinstance(node, list) and part.isdigit() and node:
                node = node[0]
            else:
                node = None
                break
        if node is not None:
            return node
    return None


def _value(text: str) -> Any:
    text = text.strip()
    if _INT.match(text):
        return int(text)
    if _DECIMAL.match(text):
        # A spreadsheet writes a whole number as 61,0 or 61.0: it is the whole number 61.
        number = float(text.replace(",", "."))
        return int(number) if number.is_integer() else number
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return text


def summary_of(cells: Mapping[str, str], examples: tuple[Mapping[str, Any], ...]) -> dict[str, Any]:
    """The summary written in plain cells (blank cells left out); Invalid, naming the column,
    for a column the game's summaries do not have."""
    tree: dict[str, Any] = {}
    for name, text in cells.items():
        if text is None or str(text).strip() == "":
            continue
        parts = name.strip().split(".")
        shape = _shape(examples, parts)
        if shape is None:
            raise Invalid(
                _("The column %(c)s is not one of this game's: see the column guide.") % {"c": name}
            )
        if isinstance(shape, list):
            value: Any = [_value(v) for v in str(text).split(SEPARATOR) if v.strip() != ""]
        else:
            value = _value(str(text))
        node = tree
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = value
    lists: dict[str, Any] = _lists(tree)
    return lists


def _lists(node: Any) -> Any:
    """Rows written as numbered columns become lists, in their numbers' order."""
    if not isinstance(node, dict):
        return node
    done = {k: _lists(v) for k, v in node.items()}
    if done and all(k.isdigit() for k in done):
        return [done[k] for k in sorted(done, key=int)]
    return done
