"""The treasurer's report: per event, each person's fee, what they paid and by which method,
refunds, and what is still due; per season, one line per event. Exact euros (Decimal)
throughout; the same table is the page, the CSV, the .xlsx and .ods workbooks
(ledger/clubs/transfer/sheets.py: numbers as numbers, frozen header, columns as wide as their cells)
and the PDF (fpdf2, as the night's printables: ledger/night/printing.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import Prefetch
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from fpdf import FPDF

from ledger.clubs.models import Competition, Season
from ledger.clubs.transfer import sheets
from ledger.signup.models import Payment, Registration, SignUp

ZERO = Decimal("0.00")
METHODS = list(Payment.Method)


@dataclass
class Line:
    """One row of the report: a person (per event) or an event (per season)."""

    label: str
    detail: str = ""
    due: Decimal = ZERO
    paid: Decimal = ZERO
    by_method: dict[str, Decimal] = field(default_factory=lambda: {m.value: ZERO for m in METHODS})
    refunded: Decimal = ZERO
    count: int = 0

    @property
    def balance(self) -> Decimal:
        """Still due (positive) or to give back (negative)."""
        return self.due - self.paid

    def add(self, other: Line) -> None:
        self.due += other.due
        self.paid += other.paid
        self.refunded += other.refunded
        self.count += other.count
        for method, amount in other.by_method.items():
            self.by_method[method] += amount


@dataclass
class Report:
    title: str
    lines: list[Line]
    total: Line
    per_event: bool

    def by_method(self) -> list[tuple[str, str, Decimal]]:
        """The total per method: its value, its name, the amount (refunds taken off)."""
        return [(m.value, str(m.label), self.total.by_method[m.value]) for m in METHODS]

    def header(self) -> list[str]:
        first = [_("#"), _("Name"), _("Status")] if self.per_event else [_("Event"), _("People")]
        return [
            *first,
            _("Due (€)"),
            _("Paid (€)"),
            *[_("%(method)s (€)") % {"method": m.label} for m in METHODS],
            _("Refunded (€)"),
            _("Balance (€)"),
        ]

    def rows(self) -> list[list[Any]]:
        """The table with numbers as numbers (Decimal), the total last."""
        out = []
        for n, line in enumerate([*self.lines, self.total], start=1):
            last = line is self.total
            first: list[Any] = (
                ["" if last else n, line.label, line.detail]
                if self.per_event
                else [line.label, line.count]
            )
            out.append(
                [
                    *first,
                    line.due,
                    line.paid,
                    *[line.by_method[m.value] for m in METHODS],
                    line.refunded,
                    line.balance,
                ]
            )
        return out


def _person(signup: SignUp) -> Line:
    line = Line(signup.name, signup.get_status_display(), count=1)
    if signup.status == SignUp.Status.REGISTERED:
        line.due = signup.fee
    if signup.rate != SignUp.Rate.FULL:
        line.detail += f" ({signup.get_rate_display()})"
    for payment in signup.payments.all():
        line.paid += payment.amount
        line.by_method[payment.method] += payment.amount
        if payment.amount < 0:
            line.refunded -= payment.amount
    return line


def _signups() -> Any:
    return SignUp.objects.order_by("number").prefetch_related(
        Prefetch("payments", queryset=Payment.objects.order_by("pk"))
    )


def event_report(competition: Competition) -> Report:
    """Everyone who signed up for the event (withdrawn people too, when money moved)."""
    lines = []
    for signup in _signups().filter(registration__competition=competition):
        line = _person(signup)
        if signup.status == SignUp.Status.WITHDRAWN and not signup.payments.all():
            continue  # nothing owed, nothing paid: not the treasurer's business
        lines.append(line)
    total = Line(_("Total"))
    for line in lines:
        total.add(line)
    return Report(_("Fees: %(event)s") % {"event": competition.name}, lines, total, True)


def season_report(season: Season) -> Report:
    """One line per event of the season with a registration."""
    per: dict[int, Line] = {}
    registrations = Registration.objects.filter(competition__season=season).select_related(
        "competition"
    )
    for registration in registrations.order_by("competition__name"):
        per[registration.pk] = Line(registration.competition.name)
    for signup in _signups().filter(registration__in=per.keys()):
        if signup.status == SignUp.Status.WITHDRAWN and not signup.payments.all():
            continue
        per[signup.registration_id].add(_person(signup))
    lines = list(per.values())
    total = Line(_("Total"))
    for line in lines:
        total.add(line)
    return Report(_("Fees: season %(season)s") % {"season": season.name}, lines, total, False)


# --- files ---------------------------------------------------------------------------------


def as_csv(report: Report) -> str:
    """Amounts with their two decimals, as a treasurer writes them."""
    rows = [[f"{v:.2f}" if isinstance(v, Decimal) else v for v in row] for row in report.rows()]
    return sheets.write_csv(report.header(), rows)


def as_workbook(report: Report, kind: str) -> bytes:
    return sheets.write([sheets.Sheet(_("Fees"), report.header(), report.rows())], kind)


# fpdf2's built-in fonts cover Latin-1 (as the night's printables): "€" is not in it, so
# the PDF's header says "EUR".
_PLAIN = str.maketrans({"–": "-", "—": "-", "’": "'", "‘": "'", "€": "EUR", "…": "..."})


def _text(value: Any) -> str:
    return str(value).translate(_PLAIN).encode("latin-1", "replace").decode("latin-1")


def as_pdf(report: Report, club: str) -> bytes:
    doc = FPDF(orientation="L", unit="mm", format="A4")
    doc.set_title(_text(report.title))
    doc.set_creator("Club ledger")
    doc.set_auto_page_break(True, margin=15)
    doc.add_page()
    doc.set_font("Helvetica", "B", 15)
    doc.multi_cell(0, 8, _text(f"{club} - {report.title}"), new_x="LMARGIN", new_y="NEXT")
    doc.set_font("Helvetica", size=9)
    doc.cell(0, 5, _text(date_format(timezone.localtime(), "DATETIME_FORMAT")))
    doc.ln(8)
    header = report.header()
    text_columns = 3 if report.per_event else 1
    first = [10, 62, 45] if report.per_event else [97, 20]
    widths = first + [22] * (len(header) - len(first))
    doc.set_font("Helvetica", "B", 8)
    for width, title in zip(widths, header, strict=True):
        doc.cell(width, 7, _text(title), border=1, align="C")
    doc.ln()
    rows = report.rows()
    for n, row in enumerate(rows):
        doc.set_font("Helvetica", "B" if n == len(rows) - 1 else "", 8)
        for i, (width, value) in enumerate(zip(widths, row, strict=True)):
            shown = f"{value:.2f}" if isinstance(value, Decimal) else str(value)
            align = "L" if i < text_columns else "R"
            doc.cell(width, 6, _text(shown)[:45], border=1, align=align)
        doc.ln()
    return bytes(doc.output())
