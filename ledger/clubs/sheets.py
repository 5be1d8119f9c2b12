"""Spreadsheets in and out: the files a club's secretary saves (CSV in any separator and
encoding a spreadsheet writes, .xlsx, .ods) read as rows of text, and tables written as
.xlsx or .ods with numbers as numbers, a frozen header row and column widths.

Nothing here knows a game or the ledger's models: rows in, rows out.
"""

from __future__ import annotations

import codecs
import csv
import datetime
import io
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _

from ledger.clubs.errors import Invalid

SEPARATORS = {",": "comma", ";": "semicolon", "\t": "tab"}
XLSX = "xlsx"
ODS = "ods"
CONTENT_TYPES = {
    XLSX: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    ODS: "application/vnd.oasis.opendocument.spreadsheet",
}
_ODS_MIME = b"application/vnd.oasis.opendocument.spreadsheet"


def expected() -> str:
    """What an import takes, in words, for the messages that refuse a file."""
    return _(
        "An import takes a CSV file with a header row (comma-, semicolon- or tab-separated, "
        "UTF-8 or Windows-1252, as Excel and LibreOffice save it), an Excel workbook (.xlsx), "
        "a LibreOffice/OpenOffice spreadsheet (.ods) or JSONL."
    )


# --- reading -----------------------------------------------------------------------------


def kind_of(raw: bytes) -> str | None:
    """``xlsx`` or ``ods`` for a workbook (whatever its name says), None for text; Invalid
    for another kind of binary file, saying what it is and what an import takes."""
    if raw.startswith(b"PK\x03\x04"):
        try:
            with zipfile.ZipFile(io.BytesIO(raw)) as archive:
                names = set(archive.namelist())
                if "mimetype" in names and archive.read("mimetype").strip() == _ODS_MIME:
                    return ODS
                if "xl/workbook.xml" in names:
                    return XLSX
                if "mimetype" in names:
                    what = _("an OpenDocument file that is not a spreadsheet")
                elif "word/document.xml" in names:
                    what = _("a Word document")
                else:
                    what = _("a ZIP archive")
        except (zipfile.BadZipFile, KeyError, OSError):
            what = _("a damaged ZIP archive or workbook")
        raise Invalid(
            _("The file is %(what)s. %(expected)s") % {"what": what, "expected": expected()}
        )
    if raw.startswith(b"\xd0\xcf\x11\xe0"):
        raise Invalid(
            _(
                "The file is an old Excel 97-2003 workbook (.xls): save it as .xlsx or as CSV "
                "and import that."
            )
        )
    if raw.startswith(b"%PDF"):
        raise Invalid(_("The file is a PDF document. %(expected)s") % {"expected": expected()})
    return None


def decode(raw: bytes) -> tuple[str, str]:
    """The file's text and the encoding it was read in: UTF-8 (with or without a byte-order
    mark), else Windows-1252 (what Excel saves as "CSV" in Italy); Invalid, in words,
    for anything else."""
    if raw.startswith(
        (codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
    ):
        raise Invalid(
            _(
                'The file is UTF-16 or UTF-32 text (Excel\'s "Unicode text"); save it as '
                '"CSV UTF-8" and try again.'
            )
        )
    if b"\x00" in raw:
        # UTF-16 without a byte-order mark, or a binary file.
        raise Invalid(
            _(
                "The file is not text: it contains NUL bytes (perhaps UTF-16 text or a "
                "program's own file). %(expected)s"
            )
            % {"expected": expected()}
        )
    try:
        return raw.decode("utf-8-sig"), (
            "utf-8-sig" if raw.startswith(codecs.BOM_UTF8) else "utf-8"
        )
    except UnicodeDecodeError:
        pass
    try:
        return raw.decode("cp1252"), "cp1252"
    except UnicodeDecodeError as exc:
        raise Invalid(
            _(
                "The file is neither UTF-8 nor Windows-1252 text (the character at byte "
                "%(at)d is neither). %(expected)s"
            )
            % {"at": exc.start, "expected": expected()}
        ) from exc


def separator(text: str, wanted: str = "competition") -> str:
    """The separator of a CSV text: the one whose header row names the ``wanted`` column,
    else the one that splits the header into the most cells."""
    header = next((line for line in text.splitlines() if line.strip()), "")
    best, most = ",", 0
    for candidate in SEPARATORS:
        try:
            cells = next(csv.reader([header], delimiter=candidate), [])
        except csv.Error:
            continue
        if wanted in (c.strip().lower() for c in cells):
            return candidate
        if len(cells) > most:
            best, most = candidate, len(cells)
    return best


def cell_text(value: Any) -> str:
    """A workbook cell as the text a CSV would hold: whole numbers without ``.0``."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    return " ".join(str(value).splitlines()).strip()


@dataclass
class Workbook:
    """A workbook's first sheet as rows of text, row n of the sheet at index n - 1."""

    kind: str
    sheet: str
    rows: list[list[str]] = field(default_factory=list)

    def csv(self) -> str:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        for row in self.rows:
            # Blank rows stay as empty lines, so that a line of the text is the sheet's row.
            writer.writerow(row if any(row) else [])
        return out.getvalue()


# Beyond these a workbook is refused before it is read further: a file that unpacks into
# millions of cells holds no club's results.
MAX_COLUMNS = 500


def _too_many(limit: int) -> Invalid:
    return Invalid(
        _(
            "The sheet has more than %(max)s rows; an import takes at most %(max)s. Nothing "
            "was imported: split it into files of at most %(max)s rows and import each."
        )
        % {"max": f"{limit:,}"}
    )


def read_workbook(raw: bytes, kind: str, max_rows: int = 20_000) -> Workbook:
    """The first sheet's rows as text; Invalid, in words, for a workbook its library cannot
    open or one with more than ``max_rows`` rows."""
    try:
        return _read_xlsx(raw, max_rows) if kind == XLSX else _read_ods(raw, max_rows)
    except Invalid:
        raise
    except Exception as exc:  # a workbook its library cannot open: say so, in words
        raise Invalid(
            _("The workbook cannot be read (%(e)s); open it, save it again and retry.")
            % {"e": type(exc).__name__}
        ) from exc


def _trim(rows: list[list[str]]) -> list[list[str]]:
    while rows and not any(rows[-1]):
        rows.pop()
    out = []
    for row in rows:
        while row and row[-1] == "":
            row = row[:-1]
        out.append(row)
    return out


def _read_xlsx(raw: bytes, max_rows: int) -> Workbook:
    import openpyxl

    book = openpyxl.load_workbook(io.BytesIO(raw), read_only=True, data_only=True)
    try:
        sheet = book.worksheets[0]
        rows: list[list[str]] = []
        filled = 0
        for row in sheet.iter_rows(values_only=True, max_col=MAX_COLUMNS):
            cells = [cell_text(v) for v in row]
            rows.append(cells)
            filled += any(cells)
            if filled > max_rows + 1:  # the header besides the rows an import may take
                raise _too_many(max_rows)
        return Workbook(XLSX, sheet.title, _trim(rows))
    finally:
        book.close()


def _read_ods(raw: bytes, max_rows: int) -> Workbook:
    from odf import opendocument, table, teletype

    doc = opendocument.load(io.BytesIO(raw))
    sheets = doc.spreadsheet.getElementsByType(table.Table)
    if not sheets:
        raise Invalid(_("The spreadsheet has no sheet."))
    first = sheets[0]
    rows: list[list[str]] = []
    filled = 0
    for row in first.getElementsByType(table.TableRow):
        cells: list[str] = []
        for cell in row.childNodes:
            if cell.qname[1] not in ("table-cell", "covered-table-cell"):
                continue
            repeat = int(cell.getAttribute("numbercolumnsrepeated") or 1)
            kind = cell.getAttribute("valuetype")
            if kind in ("float", "percentage", "currency"):
                number = float(cell.getAttribute("value"))
                text = cell_text(number)
            elif kind == "boolean":
                text = cell_text(cell.getAttribute("booleanvalue") == "true")
            elif kind == "date":
                text = str(cell.getAttribute("datevalue"))
            else:
                text = cell_text(teletype.extractText(cell))
            # Blank cells to the sheet's edge are one cell repeated thousands of times.
            cells.extend([text] * min(repeat, MAX_COLUMNS))
            if len(cells) >= MAX_COLUMNS:
                break
        cells = cells[:MAX_COLUMNS]
        repeat_rows = int(row.getAttribute("numberrowsrepeated") or 1)
        if not any(cells):
            # Blank rows to the sheet's end are written as one row repeated a million times.
            rows.extend([[]] * min(repeat_rows, 1000))
        else:
            rows.extend([list(cells)] * min(repeat_rows, max_rows + 2))
            filled += min(repeat_rows, max_rows + 2)
        if filled > max_rows + 1:  # the header besides the rows an import may take
            raise _too_many(max_rows)
    return Workbook(ODS, str(first.getAttribute("name")), _trim(rows))


# --- writing -----------------------------------------------------------------------------


@dataclass
class Sheet:
    """One sheet to write: its title, header and rows (numbers as int, float or Decimal)."""

    title: str
    header: Sequence[str]
    rows: Iterable[Sequence[Any]]


def _width(sheet_rows: list[Sequence[Any]], header: Sequence[str]) -> list[int]:
    widths = [len(str(h)) for h in header]
    for row in sheet_rows:
        for n, value in enumerate(row):
            size = len(_shown(value))
            if n < len(widths):
                widths[n] = max(widths[n], size)
            else:
                widths.append(size)
    return [min(max(w + 2, 6), 60) for w in widths]


def _shown(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float | Decimal) and not isinstance(value, bool):
        return f"{value:g}" if isinstance(value, float) else str(value.normalize())
    return str(value)


def _number(value: Any) -> int | float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, float):
        return value
    return None


def _safe_text(value: Any) -> str:
    """Text a spreadsheet will show as text, never run as a formula."""
    text = _shown(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@") and _number(value) is None else text


def write_csv(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """A table as CSV text: numbers written plainly, text never a formula."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(header)
    for row in rows:
        writer.writerow([_safe_text(v) if v is not None else "" for v in row])
    return out.getvalue()


def write(sheets: Sequence[Sheet], kind: str) -> bytes:
    """The sheets as an .xlsx or .ods workbook."""
    materialised = [(s, [list(r) for r in s.rows]) for s in sheets]
    return _write_xlsx(materialised) if kind == XLSX else _write_ods(materialised)


def _title(title: str, taken: set[str]) -> str:
    clean = "".join(c for c in title if c not in "[]:*?/\\'")[:31] or "Sheet"
    name, n = clean, 2
    while name in taken:
        name = f"{clean[:28]} {n}"
        n += 1
    taken.add(name)
    return name


def _write_xlsx(sheets: list[tuple[Sheet, list[list[Any]]]]) -> bytes:
    import openpyxl
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    book = openpyxl.Workbook()
    book.remove(book.active)
    taken: set[str] = set()
    for sheet, rows in sheets:
        ws = book.create_sheet(_title(sheet.title, taken))
        ws.append([str(h) for h in sheet.header])
        for cell in ws[1]:
            cell.font = Font(bold=True)
        for row in rows:
            ws.append([_cell_xlsx(v) for v in row])
        ws.freeze_panes = "A2"
        for n, width in enumerate(_width(rows, sheet.header), start=1):
            ws.column_dimensions[get_column_letter(n)].width = width
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _cell_xlsx(value: Any) -> Any:
    number = _number(value)
    if number is not None:
        return number
    if isinstance(value, datetime.datetime):
        return value.replace(tzinfo=None, microsecond=0)
    if isinstance(value, datetime.date):
        return value
    return _safe_text(value) if value is not None else None


def _write_ods(sheets: list[tuple[Sheet, list[list[Any]]]]) -> bytes:
    from odf import config, opendocument, style, table, text

    doc = opendocument.OpenDocumentSpreadsheet()
    bold = style.Style(name="head", family="table-cell")
    bold.addElement(style.TextProperties(fontweight="bold"))
    doc.automaticstyles.addElement(bold)
    widths: dict[int, style.Style] = {}
    taken: set[str] = set()
    frozen = config.ConfigItemMapNamed(name="Tables")
    for sheet, rows in sheets:
        name = _title(sheet.title, taken)
        tab = table.Table(name=name)
        for width in _width(rows, sheet.header):
            if width not in widths:
                column_style = style.Style(name=f"w{width}", family="table-column")
                column_style.addElement(
                    style.TableColumnProperties(columnwidth=f"{width * 0.21:.2f}cm")
                )
                doc.automaticstyles.addElement(column_style)
                widths[width] = column_style
            tab.addElement(table.TableColumn(stylename=widths[width]))
        head = table.TableRow()
        for h in sheet.header:
            cell = table.TableCell(valuetype="string", stylename=bold)
            cell.addElement(text.P(text=str(h)))
            head.addElement(cell)
        tab.addElement(head)
        for row in rows:
            line = table.TableRow()
            for value in row:
                line.addElement(_cell_ods(value))
            tab.addElement(line)
        doc.spreadsheet.addElement(tab)
        entry = config.ConfigItemMapEntry(name=name)
        for key, kind, value in (
            ("VerticalSplitMode", "short", "2"),
            ("VerticalSplitPosition", "int", "1"),
            ("ActiveSplitRange", "short", "2"),
            ("PositionTop", "int", "0"),
            ("PositionBottom", "int", "1"),
        ):
            item = config.ConfigItem(name=key, type=kind)
            item.addText(value)
            entry.addElement(item)
        frozen.addElement(entry)
    view = config.ConfigItemMapEntry()
    view.addElement(frozen)
    views = config.ConfigItemMapIndexed(name="Views")
    views.addElement(view)
    settings = config.ConfigItemSet(name="ooo:view-settings")
    settings.addElement(views)
    doc.settings.addElement(settings)
    out = io.BytesIO()
    doc.write(out)
    return out.getvalue()


def _cell_ods(value: Any) -> Any:
    from odf import table, text

    number = _number(value)
    if number is not None:
        cell = table.TableCell(valuetype="float", value=str(number))
        cell.addElement(text.P(text=_shown(value)))
        return cell
    if value is None or value == "":
        return table.TableCell()
    if isinstance(value, datetime.datetime | datetime.date):
        if isinstance(value, datetime.datetime):
            value = value.replace(tzinfo=None, microsecond=0)
        cell = table.TableCell(valuetype="date", datevalue=value.isoformat())
        cell.addElement(
            text.P(
                text=value.isoformat(sep=" ")
                if isinstance(value, datetime.datetime)
                else value.isoformat()
            )
        )
        return cell
    cell = table.TableCell(valuetype="string")
    cell.addElement(text.P(text=str(value)))
    return cell
