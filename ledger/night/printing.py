"""Printables of a night: QR codes (segno) and the PDF downloads (fpdf2, pure Python).

Every printable is also an HTML page with the print stylesheet; the PDF holds the same
content: pairings with each table's QR code (it opens that table's score entry), table
tents, score sheets (a row per hand, a column per seat, and the game's summary fields) and
the standings."""

from __future__ import annotations

import base64
import io
from typing import Any

import segno
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from fpdf import FPDF

from games.core import RecordError, registry
from games.core.declare import Field
from ledger.clubs.games import engine_available, reader_language
from ledger.clubs.models import Competition

# fpdf2's built-in fonts cover Latin-1: the few other characters the pages use are
# written with their nearest Latin-1 equivalent.
_PLAIN = str.maketrans({"–": "-", "—": "-", "’": "'", "‘": "'", "“": '"', "”": '"', "…": "..."})


def _text(value: Any) -> str:
    return str(value).translate(_PLAIN).encode("latin-1", "replace").decode("latin-1")


def qr_png(url: str, scale: int = 8) -> bytes:
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="png", scale=scale, border=4)
    return out.getvalue()


def qr_png_uri(url: str) -> str:
    return "data:image/png;base64," + base64.b64encode(qr_png(url)).decode()


def summary_fields(competition: Competition) -> list[str]:
    """The labels of the game's summary form (what a score sheet asks per hand), read from
    the game's declaration (games/core/declare.py) in the reader's language, as the score
    page labels its fields: each seat's field names the seat by its number."""
    if not engine_available(competition.game):
        return []
    engine = registry.get(competition.game)
    try:
        ruleset = engine.ruleset(competition.ruleset or None)
    except RecordError:
        ruleset = engine.ruleset(None)
    declaration = engine.summary_form(ruleset)
    if declaration is None:
        return []
    language = reader_language()

    def label(field: Field) -> str:
        words = field.label.get(language)
        return words if field.seat is None else words.replace("{name}", str(field.seat + 1))

    # A field the engine fills in from the last hand (the next dealer) is not asked.
    labels = [label(f) for f in declaration.fields() if not f.follows]
    for rows in declaration.rows():
        labels.extend(label(f) for f in rows.fields())
    out: list[str] = []
    for words in labels:
        if words and words not in out:
            out.append(words)
    return out


class _Sheet(FPDF):
    def __init__(self, title: str, orientation: str = "P") -> None:
        super().__init__(orientation=orientation, unit="mm", format="A4")
        self.title_text = _text(title)
        self.set_auto_page_break(True, margin=15)
        self.set_title(self.title_text)
        self.set_creator("Club ledger")

    def footer(self) -> None:
        self.set_y(-12)
        self.set_font("Helvetica", size=8)
        self.cell(0, 6, self.title_text + f"  ·  {self.page_no()}", align="C")


def pdf(kind: str, competition: Competition, context: dict[str, Any]) -> bytes:
    rnd = context.get("round")
    heading = competition.name + (
        " - " + _("Round %(n)d") % {"n": rnd.number} if rnd is not None else ""
    )
    venue = context.get("venue")
    if venue is not None:
        heading += " - " + venue.name
    if kind == "pairings":
        doc = _pairings(heading, context)
    elif kind == "tents":
        doc = _tents(heading, context)
    elif kind == "sheets":
        doc = _sheets(heading, context)
    else:
        doc = _standings(heading, context)
    return bytes(doc.output())


def _title(doc: _Sheet, text: str, size: int = 16) -> None:
    doc.set_font("Helvetica", "B", size)
    doc.multi_cell(0, size * 0.5, _text(text), new_x="LMARGIN", new_y="NEXT")
    doc.set_font("Helvetica", size=9)
    doc.cell(
        0,
        5,
        _text(date_format(timezone.localtime(), "DATETIME_FORMAT")),
        new_x="LMARGIN",
        new_y="NEXT",
    )
    doc.ln(3)


def _pairings(heading: str, context: dict[str, Any]) -> _Sheet:
    doc = _Sheet(_("Pairings") + " - " + heading)
    doc.add_page()
    _title(doc, _("Pairings") + " - " + heading)
    for t in context["tables"]:
        if doc.get_y() > 245:
            doc.add_page()
        top = doc.get_y()
        doc.set_font("Helvetica", "B", 13)
        doc.cell(140, 8, _text(t["label"]), new_x="LMARGIN", new_y="NEXT")
        doc.set_font("Helvetica", size=11)
        for s in t["seats"]:
            doc.cell(140, 6, _text(f"{s['index'] + 1}. {s['name']}"), new_x="LMARGIN", new_y="NEXT")
        doc.set_font("Helvetica", size=7)
        doc.cell(140, 4, _text(t["url"]), new_x="LMARGIN", new_y="NEXT")
        doc.image(io.BytesIO(qr_png(t["url"])), x=160, y=top, w=32, h=32)
        doc.set_y(max(doc.get_y(), top + 34))
        doc.line(10, doc.get_y(), 200, doc.get_y())
        doc.ln(2)
    byes = context.get("byes") or []
    if byes:
        doc.set_font("Helvetica", size=11)
        doc.multi_cell(0, 6, _text(_("Bye") + ": " + ", ".join(b["name"] for b in byes)))
    return doc


def _tents(heading: str, context: dict[str, Any]) -> _Sheet:
    doc = _Sheet(_("Table tents") + " - " + heading, orientation="L")
    for t in context["tables"]:
        doc.add_page()
        doc.set_font("Helvetica", size=12)
        doc.cell(0, 8, _text(heading), align="C", new_x="LMARGIN", new_y="NEXT")
        doc.set_font("Helvetica", "B", 54)
        doc.cell(0, 30, _text(t["label"]), align="C", new_x="LMARGIN", new_y="NEXT")
        doc.set_font("Helvetica", size=18)
        for s in t["seats"]:
            doc.cell(
                0,
                11,
                _text(f"{s['index'] + 1}. {s['name']}"),
                align="C",
                new_x="LMARGIN",
                new_y="NEXT",
            )
        doc.image(io.BytesIO(qr_png(t["url"])), x=123.5, y=doc.get_y() + 4, w=50, h=50)
        doc.set_y(doc.get_y() + 56)
        doc.set_font("Helvetica", size=10)
        doc.cell(0, 6, _text(_("Scan to record this table's results.")), align="C")
    return doc


def _fitted_cell(doc: _Sheet, value: str, width: float, height: float) -> tuple[str, float]:
    """A bordered cell whose text fits its width: a smaller type down to 6 points, then
    cut with an ellipsis (a name never runs into the next column)."""
    text = _text(value)
    room = width - 2 * doc.c_margin
    size = 9.0
    while size > 6 and doc.get_string_width(text) > room:
        size -= 0.5
        doc.set_font_size(size)
    if doc.get_string_width(text) > room:
        while text and doc.get_string_width(text + "...") > room:
            text = text[:-1]
        text = text.rstrip() + "..."
    doc.cell(width, height, text, border=1)
    doc.set_font_size(9)
    return text, size


def _sheets(heading: str, context: dict[str, Any]) -> _Sheet:
    doc = _Sheet(_("Score sheets") + " - " + heading)
    hands = context["hands"]
    fields = context["fields"]
    for t in context["tables"]:
        doc.add_page()
        top = doc.get_y()
        _title(doc, _("Score sheet") + " - " + t["label"], 14)
        doc.set_font("Helvetica", size=10)
        doc.multi_cell(150, 5, _text(heading))
        doc.image(io.BytesIO(qr_png(t["url"])), x=170, y=top, w=28, h=28)
        doc.set_y(max(doc.get_y(), top + 30))
        seats = t["seats"]
        width = (doc.w - doc.l_margin - doc.r_margin - 20) / max(len(seats), 1)
        doc.set_font("Helvetica", "B", 9)
        doc.cell(20, 7, _text(_("Hand")), border=1)
        for s in seats:
            _fitted_cell(doc, f"{s['index'] + 1}. {s['name']}", width, 7)
        doc.set_font("Helvetica", "B", 9)
        doc.ln()
        doc.set_font("Helvetica", size=9)
        for n in hands:
            doc.cell(20, 9, str(n), border=1)
            for _s in seats:
                doc.cell(width, 9, "", border=1)
            doc.ln()
        doc.cell(20, 9, _text(_("Total")), border=1)
        for _s in seats:
            doc.cell(width, 9, "", border=1)
        doc.ln(12)
        if fields:
            doc.set_font("Helvetica", "B", 10)
            doc.cell(0, 6, _text(_("For each hand, note:")), new_x="LMARGIN", new_y="NEXT")
            doc.set_font("Helvetica", size=9)
            for label in fields:
                doc.cell(
                    0,
                    6,
                    _text("- " + label + ": ____________________"),
                    new_x="LMARGIN",
                    new_y="NEXT",
                )
        doc.ln(4)
        doc.cell(0, 6, _text(_("Signatures") + ": " + "  ____________ " * len(seats)))
    return doc


def _standings(heading: str, context: dict[str, Any]) -> _Sheet:
    doc = _Sheet(_("Standings") + " - " + heading)
    doc.add_page()
    _title(doc, _("Standings") + " - " + heading)
    widths = (12, 80, 20, 15, 15, 15, 28)
    names = ("#", _("Player"), _("Played"), _("W"), _("D"), _("L"), _("Points"))
    doc.set_font("Helvetica", "B", 10)
    for w, n in zip(widths, names, strict=True):
        doc.cell(w, 7, _text(n), border="B")
    doc.ln()
    doc.set_font("Helvetica", size=10)
    fines = context.get("fines") or {}
    for r in context["rows"]:
        cells = (
            str(r.rank),
            r.name + (" *" if r.player_id in fines else ""),
            str(r.played),
            str(r.wins),
            str(r.draws),
            str(r.losses),
            f"{r.points.normalize():f}",
        )
        for w, c in zip(widths, cells, strict=True):
            doc.cell(w, 7, _text(c)[:40])
        doc.ln()
    if fines:
        doc.ln(3)
        doc.set_font("Helvetica", size=8)
        doc.multi_cell(0, 5, _text("* " + _("Penalties are counted in the points.")))
    return doc


def table_pdf(
    title: str, header: list[str], rows: list[list[str]], notes: list[str] | None = None
) -> bytes:
    """Any table of text as a PDF (a season's table, say): the title, the notes that explain
    it, the header in bold and a row per line, the widest column (the names) given the room
    the others leave, on a landscape page when the columns are many."""
    landscape = len(header) > 8
    doc = _Sheet(title, "L" if landscape else "P")
    doc.add_page()
    _title(doc, title)
    if notes:
        doc.set_font("Helvetica", size=9)
        for note in notes:
            doc.multi_cell(0, 5, _text(note), new_x="LMARGIN", new_y="NEXT")
        doc.ln(2)
    room = doc.w - doc.l_margin - doc.r_margin
    narrow = min(22.0, (room - 55) / max(1, len(header) - 1))
    widths = [narrow] * len(header)
    if len(header) > 1:
        widths[1] = room - narrow * (len(header) - 1)
    doc.set_font("Helvetica", "B", 9)
    for w, name in zip(widths, header, strict=True):
        doc.cell(w, 7, _text(name)[: int(w / 1.8)], border="B")
    doc.ln()
    doc.set_font("Helvetica", size=9)
    for row in rows:
        for w, value in zip(widths, row, strict=True):
            doc.cell(w, 6, _text(value)[: int(w / 1.8)])
        doc.ln()
    return bytes(doc.output())
