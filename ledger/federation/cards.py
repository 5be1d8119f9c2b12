"""Membership cards: who holds a valid one, what a sanctioned competition's enrolment does
without one (the tier says: a warning, or a refusal), and a season's cards imported from the
federation's list (CSV in any of a spreadsheet's separators and encodings, .xlsx, .ods:
the readers of ledger/clubs/transfer/sheets.py)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from ledger.clubs import people
from ledger.clubs.errors import Invalid
from ledger.clubs.models import Competition, Player
from ledger.clubs.transfer import sheets
from ledger.federation.models import Card, CardSeason, MemberClub, Sanction, Tier
from ledger.federation.roles import require_officer
from ledger.formats.names import name_key

MAX_BYTES = 5 * 1024 * 1024
MAX_ROWS = 50_000
COLUMNS = ("number", "name", "valid_from", "valid_until")
#: The columns as a federation's list may head them, in Italian or English.
HEADINGS = {
    "number": "number",
    "numero": "number",
    "tessera": "number",
    "card": "number",
    "name": "name",
    "nome": "name",
    "nominativo": "name",
    "valid_from": "valid_from",
    "valida_dal": "valid_from",
    "dal": "valid_from",
    "from": "valid_from",
    "valid_until": "valid_until",
    "valida_fino": "valid_until",
    "al": "valid_until",
    "until": "valid_until",
}


def valid_card(federation_id: int, player: Player, on: date) -> Card | None:
    """A card of the federation valid on ``on`` held by ``player``: linked to the player,
    or in the player's name (case, accents, apostrophes and word order aside). A card linked
    to a player merged into this one (or this one's survivor) is the person's too."""
    same = people.same_person_ids(player.pk)
    cards = Card.objects.filter(
        season__federation_id=federation_id, valid_from__lte=on, valid_until__gte=on
    ).filter(Q(player_id__in=same) | Q(player__isnull=True))
    key = name_key(player.name)
    for card in cards.order_by("-valid_until"):
        if card.player_id in same or (key and name_key(card.name) == key):
            return card
    return None


def sanction_of(competition: Competition) -> Sanction | None:
    return (
        Sanction.objects.filter(competition=competition).select_related("tier__federation").first()
    )


def check_entry(competition: Competition, player: Player) -> None:
    """Refuse a new entry to a competition sanctioned at a tier that refuses players with
    no valid card (the formats ask before each entry)."""
    sanction = sanction_of(competition)
    if sanction is None or sanction.tier.missing_card != Tier.MissingCard.REFUSE:
        return
    if valid_card(sanction.tier.federation_id, player, timezone.localdate()) is None:
        raise Invalid(
            _(
                "%(name)s holds no valid card of %(federation)s, and this competition is "
                "sanctioned at the %(tier)s tier, which asks for one."
            )
            % {
                "name": player.name,
                "federation": sanction.tier.federation.name,
                "tier": sanction.tier.name,
            },
            fields={"player": [_("No valid membership card.")]},
        )


def entry_warnings(competition: Competition, players: Iterable[Player]) -> list[str]:
    """The players entered in a competition sanctioned at a tier that warns, who hold no
    valid card: one sentence each, for the page that entered them."""
    sanction = sanction_of(competition)
    if sanction is None or sanction.tier.missing_card != Tier.MissingCard.WARN:
        return []
    today = timezone.localdate()
    return [
        _("%(name)s holds no valid card of %(federation)s: entered all the same (%(tier)s tier).")
        % {
            "name": p.name,
            "federation": sanction.tier.federation.name,
            "tier": sanction.tier.name,
        }
        for p in players
        if valid_card(sanction.tier.federation_id, p, today) is None
    ]


@dataclass
class Imported:
    created: int = 0
    updated: int = 0
    linked: int = 0
    errors: list[tuple[int, str]] = field(default_factory=list)
    understood: str = ""


def _rows(raw: bytes) -> tuple[list[list[str]], str]:
    if len(raw) > MAX_BYTES:
        raise Invalid(_("The file is larger than 5 MB; split it."), fields={"file": ["?"]})
    kind = sheets.kind_of(raw)
    if kind is not None:
        book = sheets.read_workbook(raw, kind, MAX_ROWS)
        return book.rows, (
            _("Excel workbook, sheet “%(s)s”")
            if kind == sheets.XLSX
            else _("OpenDocument spreadsheet, sheet “%(s)s”")
        ) % {"s": book.sheet}
    text, _encoding = sheets.decode(raw)
    mark = sheets.separator(text, wanted="number")
    said = {",": _("CSV, comma-separated"), ";": _("CSV, semicolon-separated")}.get(
        mark, _("CSV, tab-separated")
    )
    return [list(r) for r in csv.reader(io.StringIO(text), delimiter=mark)], said


def read_day(text: str) -> date | None:
    text = text.strip()
    for pattern in ("%d/%m/%Y", "%Y-%m-%d", "%d-%m-%Y", "%d.%m.%Y"):
        try:
            return datetime.strptime(text, pattern).date()
        except ValueError:
            continue
    return None


def import_cards(*, user: object, season: CardSeason, raw: bytes) -> Imported:
    """Read the federation's list of cards into ``season``: one row per card, a header
    naming the number and name columns (and, optionally, valid from and until; the season's
    dates otherwise). A card already there (by its number) is brought up to date. A file with
    a bad row imports nothing: each bad row is named by its line and reason."""
    require_officer(user, season.federation)
    rows, understood = _rows(raw)
    header = [HEADINGS.get(h.strip().lower().replace(" ", "_"), "") for h in (rows[:1] or [[]])[0]]
    if "number" not in header or "name" not in header:
        raise Invalid(
            _(
                "The first row must name the columns: number and name (numero, nome), and "
                "optionally valid from and valid until (dd/mm/yyyy)."
            ),
            fields={"file": [_("No number and name columns in the first row.")]},
        )
    at = {name: header.index(name) for name in COLUMNS if name in header}
    out = Imported(understood=understood)
    read: dict[str, tuple[str, date, date, int]] = {}
    for line, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue

        def cell(name: str, row: list[str] = row) -> str:
            i = at.get(name)
            return row[i].strip() if i is not None and i < len(row) else ""

        number, name = cell("number"), cell("name")
        if number.endswith(".0") and number[:-2].isdigit():
            number = number[:-2]  # a spreadsheet's whole number read as a decimal
        starts = read_day(cell("valid_from")) if cell("valid_from") else season.starts
        ends = read_day(cell("valid_until")) if cell("valid_until") else season.ends
        if not number:
            out.errors.append((line, _("The card number is missing.")))
        elif not name:
            out.errors.append((line, _("The name is missing.")))
        elif starts is None or ends is None:
            out.errors.append((line, _("A date is not a day written as dd/mm/yyyy.")))
        elif ends < starts:
            out.errors.append((line, _("The card ends before it starts.")))
        elif number in read:
            out.errors.append(
                (
                    line,
                    _("Card %(n)s is already on line %(l)d.") % {"n": number, "l": read[number][3]},
                )
            )
        else:
            read[number] = (name[:120], starts, ends, line)
    if out.errors:
        return out
    players = _members_by_name(season)
    with transaction.atomic():
        existing = {c.number: c for c in Card.objects.select_for_update().filter(season=season)}
        for number, (name, starts, ends, _line) in read.items():
            player = players.get(name_key(name))
            card = existing.get(number)
            if card is None:
                Card.objects.create(
                    season=season,
                    number=number[:40],
                    name=name,
                    valid_from=starts,
                    valid_until=ends,
                    player=player,
                )
                out.created += 1
            else:
                card.name, card.valid_from, card.valid_until = name, starts, ends
                card.player = player or card.player
                card.save(update_fields=["name", "valid_from", "valid_until", "player"])
                out.updated += 1
            out.linked += player is not None
    return out


def _members_by_name(season: CardSeason) -> dict[str, Player]:
    """The players of the federation's member clubs by the key of their name (a name two
    people share links neither)."""
    clubs = MemberClub.objects.filter(
        federation=season.federation, status=MemberClub.Status.APPROVED
    ).values_list("club_id", flat=True)
    found: dict[str, Player | None] = {}
    for player in Player.objects.filter(memberships__club_id__in=list(clubs)).distinct():
        key = name_key(player.name)
        if key:
            found[key] = None if key in found and found[key] != player else player
    return {k: p for k, p in found.items() if p is not None}
