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

    with zipfile.ZipFile(io.BytesIO(raw)) as archive:
        _not_a_bomb(archive)
    book = openpyxl.load_workbook(io.BytesIO(raw), read_only=True, data_only=True)
    try:
        sheet = book.worksheets[0]
        rows: list[list[str]] = []
        filled = 0
        for row in sheet.iter_rows(values_only=True):
            cells = [cell_text(v) for v in row[:MAX_COLUMNS]]
            rows.append(cells)
            filled += any(cells)
            if filled > max_rows + 1:  # the header besides the rows an import may take
                raise _too_many(max_rows)
        return Workbook(XLSX, sheet.title, _trim(rows))
    finally:
        book.close()


_TABLE = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
_OFFICE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"
_TEXT = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"


def _ods_cell(cell: Any) -> str:
    kind = cell.get(_OFFICE + "value-type")
    if kind in ("float", "percentage", "currency"):
        try:
            return cell_text(float(cell.get(_OFFICE + "value")))
        except (TypeError, ValueError):
            pass
    if kind == "boolean":
        return cell_text(cell.get(_OFFICE + "boolean-value") == "true")
    if kind == "date":
        return str(cell.get(_OFFICE + "date-value") or "")
    return cell_text(" ".join("".join(p.itertext()) for p in cell.iter(_TEXT + "p")))


def _read_ods(raw: bytes, max_rows: int) -> Workbook:
    """The first sheet of an .ods, read as a stream (a sheet of thousands of rows is read
    in a second or two, and a row repeated a million times costs nothing)."""
    from xml.etree.ElementTree import iterparse

    with zipfile.ZipFile(io.BytesIO(raw)) as archive:
        _not_a_bomb(archive)
        stream = archive.open("content.xml")
        rows: list[list[str]] = []
        filled = 0
        name: str | None = None
        depth = 0  # tables open (a sheet inside a cell is not a row of the first sheet)
        for event, element in iterparse(stream, events=("start", "end")):
            if element.tag == _TABLE + "table":
                if event == "start":
                    depth += 1
                    if name is None:
                        name = element.get(_TABLE + "name") or ""
                    continue
                depth -= 1
                if depth == 0:
                    break
                continue
            if event != "end" or element.tag != _TABLE + "table-row" or depth != 1:
                continue
            cells: list[str] = []
            for cell in element:
                if cell.tag not in (_TABLE + "table-cell", _TABLE + "covered-table-cell"):
                    continue
                repeat = int(cell.get(_TABLE + "number-columns-repeated") or 1)
                # Blank cells to the sheet's edge are one cell repeated thousands of times.
                cells.extend([_ods_cell(cell)] * min(repeat, MAX_COLUMNS))
                if len(cells) >= MAX_COLUMNS:
                    break
            cells = cells[:MAX_COLUMNS]
            repeat_rows = int(element.get(_TABLE + "number-rows-repeated") or 1)
            element.clear()
            if not any(cells):
                # Blank rows to the sheet's end: one row repeated a million times.
                rows.extend([[]] * min(repeat_rows, 1000))
                continue
            rows.extend([list(cells)] * min(repeat_rows, max_rows + 2))
            filled += min(repeat_rows, max_rows + 2)
            if filled > max_rows + 1:  # the header besides the rows an import may take
                raise _too_many(max_rows)
    if name is None:
        raise Invalid(_("The spreadsheet has no sheet."))
    return Workbook(ODS, name, _trim(rows))


# A workbook of a few megabytes that unpacks into more than this is not a club's results.
MAX_UNPACKED = 200 * 1024 * 1024


def _not_a_bomb(archive: zipfile.ZipFile) -> None:
    if sum(info.file_size for info in archive.infolist()) > MAX_UNPACKED:
        raise Invalid(
            _("The workbook unpacks into more than %(mb)d MB; split it.")
            % {"mb": MAX_UNPACKED // (1024 * 1024)}
        )


# --- writing -----------------------------------------------------------------------------


@dataclass
class Sheet:
    """One sheet to write: its title, header and rows (numbers as int, float or Decimal)."""

    title: str
    header: Sequence[str]
    rows: Iterable[Sequence[Any]]


def _width(sheet_rows: Sequence[Sequence[Any]], header: Sequence[str]) -> list[int]:
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
        # Fixed-point: 10.00 is "10", never normalize()'s "1E+1".
        return f"{value:g}" if isinstance(value, float) else f"{value.normalize():f}"
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
    """An .xlsx written row by row (openpyxl's write-only mode): the header bold and frozen,
    the columns' widths set before the rows."""
    import openpyxl
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    book = openpyxl.Workbook(write_only=True)
    taken: set[str] = set()
    bold = Font(bold=True)
    for sheet, rows in sheets:
        ws = book.create_sheet(_title(sheet.title, taken))
        ws.freeze_panes = "A2"
        for n, width in enumerate(_width(rows, sheet.header), start=1):
            ws.column_dimensions[get_column_letter(n)].width = width
        head = []
        for h in sheet.header:
            cell = WriteOnlyCell(ws, value=str(h))
            cell.font = bold
            head.append(cell)
        ws.append(head)
        for row in rows:
            ws.append([_cell_xlsx(v) for v in row])
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


_ODS_NAMESPACES = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" '
    'xmlns:config="urn:oasis:names:tc:opendocument:xmlns:config:1.0" '
    'office:version="1.2"'
)


def _write_ods(sheets: list[tuple[Sheet, list[list[Any]]]]) -> bytes:
    """An .ods written as a stream of XML (the journal of a season is thousands of rows):
    the header row bold and frozen (the view settings), the columns' widths as styles."""
    from xml.sax.saxutils import quoteattr

    taken: set[str] = set()
    names: list[str] = []
    widths: set[int] = set()
    body = io.StringIO()
    for sheet, rows in sheets:
        name = _title(sheet.title, taken)
        names.append(name)
        body.write(f"<table:table table:name={quoteattr(name)}>")
        for width in _width(rows, sheet.header):
            widths.add(width)
            body.write(f'<table:table-column table:style-name="w{width}"/>')
        body.write("<table:table-header-rows><table:table-row>")
        for h in sheet.header:
            body.write(
                '<table:table-cell table:style-name="head" office:value-type="string">'
                f"<text:p>{_xml(str(h))}</text:p></table:table-cell>"
            )
        body.write("</table:table-row></table:table-header-rows>")
        for row in rows:
            body.write("<table:table-row>")
            for value in row:
                body.write(_cell_ods(value))
            body.write("</table:table-row>")
        body.write("</table:table>")
    styles = "".join(
        f'<style:style style:name="w{w}" style:family="table-column">'
        f'<style:table-column-properties style:column-width="{w * 0.21:.2f}cm"/></style:style>'
        for w in sorted(widths)
    )
    content = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        f"<office:document-content {_ODS_NAMESPACES}><office:automatic-styles>{styles}"
        '<style:style style:name="head" style:family="table-cell">'
        '<style:text-properties fo:font-weight="bold"/></style:style>'
        "</office:automatic-styles><office:body><office:spreadsheet>"
        f"{body.getvalue()}</office:spreadsheet></office:body></office:document-content>"
    )
    frozen = "".join(
        f"<config:config-item-map-entry config:name={quoteattr(name)}>"
        '<config:config-item config:name="VerticalSplitMode" config:type="short">2'
        "</config:config-item>"
        '<config:config-item config:name="VerticalSplitPosition" config:type="int">1'
        "</config:config-item>"
        '<config:config-item config:name="ActiveSplitRange" config:type="short">2'
        "</config:config-item>"
        '<config:config-item config:name="PositionBottom" config:type="int">1'
        "</config:config-item></config:config-item-map-entry>"
        for name in names
    )
    settings = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        f"<office:document-settings {_ODS_NAMESPACES}><office:settings>"
        '<config:config-item-set config:name="ooo:view-settings">'
        '<config:config-item-map-indexed config:name="Views"><config:config-item-map-entry>'
        f'<config:config-item-map-named config:name="Tables">{frozen}'
        "</config:config-item-map-named></config:config-item-map-entry>"
        "</config:config-item-map-indexed></config:config-item-set>"
        "</office:settings></office:document-settings>"
    )
    manifest = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"'
        ' manifest:version="1.2">'
        '<manifest:file-entry manifest:full-path="/" manifest:version="1.2" '
        f'manifest:media-type="{_ODS_MIME.decode()}"/>'
        '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
        '<manifest:file-entry manifest:full-path="settings.xml" manifest:media-type="text/xml"/>'
        "</manifest:manifest>"
    )
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        # The mimetype first and stored, as OpenDocument asks.
        archive.writestr(zipfile.ZipInfo("mimetype"), _ODS_MIME, compress_type=zipfile.ZIP_STORED)
        archive.writestr("META-INF/manifest.xml", manifest, compress_type=zipfile.ZIP_DEFLATED)
        archive.writestr("content.xml", content, compress_type=zipfile.ZIP_DEFLATED)
        archive.writestr("settings.xml", settings, compress_type=zipfile.ZIP_DEFLATED)
    return out.getvalue()


def _xml(text: str) -> str:
    from xml.sax.saxutils import escape

    # Characters XML 1.0 cannot hold (control characters) are left out.
    return escape("".join(c for c in text if c >= " " or c in "\t\n"))


def _cell_ods(value: Any) -> str:
    number = _number(value)
    if number is not None:
        return (
            f'<table:table-cell office:value-type="float" office:value="{number}">'
            f"<text:p>{_xml(_shown(value))}</text:p></table:table-cell>"
        )
    if value is None or value == "":
        return "<table:table-cell/>"
    if isinstance(value, datetime.datetime | datetime.date):
        if isinstance(value, datetime.datetime):
            value = value.replace(tzinfo=None, microsecond=0)
        return (
            f'<table:table-cell office:value-type="date" office:date-value="{value.isoformat()}">'
            f"<text:p>{_xml(value.isoformat())}</text:p></table:table-cell>"
        )
    return (
        '<table:table-cell office:value-type="string">'
        f"<text:p>{_xml(str(value))}</text:p></table:table-cell>"
    )
