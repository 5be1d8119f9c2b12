"""The transfer room's reads (selectors, as HackSoft's Django styleguide has them): a
competition's import template with the example rows its game's engine accepts, and what was
understood of an import file, in words, before its rows are applied. Nothing here writes:
import jobs are made, confirmed, put aside and run in imports.py; a club's export and import
are transfer.py's, backups backup.py's.

Imports the club's models, the games as the ledger knows them, the engines' registry and
the plain columns and spreadsheets of this room (columns.py, sheets.py): never a module that
writes (imports, transfer, backup), nor the results' services.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.core import UNFINISHED, RecordError, registry
from ledger.clubs.games import engine_available
from ledger.clubs.models import Competition
from ledger.clubs.transfer import sheets
from ledger.clubs.transfer.columns import columns, file_column, flatten


def examples(competition: Competition) -> tuple[dict[str, Any], ...]:
    """The game's example summaries that its engine accepts under the competition's ruleset."""
    if not engine_available(competition.game):
        return ()
    engine = registry.get(competition.game)
    good = []
    for example in engine.summary_examples:
        try:
            report = engine.score(example, competition.ruleset or None)
        except RecordError:
            continue
        if report.valid and report.outcome is not None and report.outcome.termination != UNFINISHED:
            good.append(dict(example))
    return tuple(good)


def template_rows(competition: Competition, names: list[str]) -> list[list[str]]:
    """An import template for a competition: the header, then example rows to overwrite."""
    shown = examples(competition)
    plain = columns(shown)
    rows = [["competition", "table", "players", "key", *[file_column(c) for c in plain]]]
    for n, example in enumerate(shown, start=1):
        cells = flatten(example)
        rows.append(
            [
                competition.slug,
                _("Table %(n)d") % {"n": n},
                "|".join(names),
                f"{competition.slug}-{n}",
                *[cells.get(c, "") for c in plain],
            ]
        )
    return rows


def in_words(understood: dict[str, Any]) -> str:
    """What was read of a file, as the import page says it before the rows are applied:
    "CSV, semicolon-separated, UTF-8 with a byte-order mark: 24 rows; columns: ..."."""
    kind = understood.get("kind")
    if not kind:
        return ""
    parts: list[str] = []
    if kind == sheets.XLSX:
        parts.append(_("Excel workbook, sheet “%(s)s”") % {"s": understood.get("sheet", "")})
    elif kind == sheets.ODS:
        parts.append(
            _("OpenDocument spreadsheet, sheet “%(s)s”") % {"s": understood.get("sheet", "")}
        )
    elif kind == "jsonl":
        parts.append(_("JSONL, one result per line"))
    else:
        parts.append(
            {
                ",": _("CSV, comma-separated"),
                ";": _("CSV, semicolon-separated"),
                "\t": _("CSV, tab-separated"),
            }.get(understood.get("separator", ","), "CSV")
        )
    encoding = understood.get("encoding")
    if encoding:
        parts.append(
            {
                "utf-8": _("UTF-8"),
                "utf-8-sig": _("UTF-8 with a byte-order mark"),
                "cp1252": _("Windows-1252 (Western European)"),
            }.get(encoding, encoding)
        )
    text = ", ".join(parts)
    rows = int(understood.get("rows") or 0)
    text += ": " + ngettext("%(n)d row", "%(n)d rows", rows) % {"n": rows}
    if understood.get("columns"):
        text += "; " + _("columns: %(c)s") % {"c": ", ".join(understood["columns"])}
    return text + "."
