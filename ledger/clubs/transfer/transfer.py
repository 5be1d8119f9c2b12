"""A whole club as one file, and back: the export that backs a club up or moves it to another
installation (SQLite to PostgreSQL and back) with its journal's chain intact.

The file is JSON lines (docs/export.md): a header, one line per row of every table the club
owns, and an end line. Each line carries its number ``n`` and a check ``x``: the SHA-256 of
the previous line's check and of this line's text up to the check, so a line that was
changed, removed, moved or cut short is named by its number on import. Rows keep their ids:
the journal's hashes cover the ids of the club, its competitions, results and players, so
the chain can only verify in the new place if they come back unchanged. Logins are matched
by user name instead (their ids are in no hash).

The export streams: rows are read in chunks inside one read-only snapshot and written as
they come, so memory does not grow with the club. The import reads line by line, checks
each line and the journal's chain as it goes, inserts in batches (COPY on PostgreSQL) and,
in the same transaction, proves the journal it wrote, rebuilds the standings and ratings
from it and compares them with the file's. Any refusal rolls everything back.
"""

from __future__ import annotations

import contextlib
import datetime
import hashlib
import hmac
import json
import operator
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from decimal import Decimal
from functools import partial
from typing import IO, Any, cast

import orjson
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management.color import no_style
from django.db import DatabaseError, connection, models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from openskill.models import PlackettLuce

from ledger.clubs import jobs, people
from ledger.clubs.journal import checkpoints
from ledger.clubs.journal.selectors import earlier_keys
from ledger.clubs.models import (
    Checkpoint,
    Club,
    Competition,
    Entry,
    Merge,
    Player,
    entry_hash,
)
from ledger.clubs.outcomes import DRAW, LOSS, WIN, outcomes, standing_order
from ledger.clubs.ratings import rate as rate_match
from ledger.clubs.storage import signing

FORMAT = "club-ledger-export"
# 2: every journal line carries its seal, the header names the signing key and the
# checkpoints the journal extends, and the end line is signed (docs/export.md).
VERSION = 2
CHUNK = 5000
# The check that ends every line: ,"x":"<64 hex digits>"}
_CHECK_OPEN, _CHECK_LEN = b',"x":"', 72


class Refused(Exception):
    """An import that wrote nothing, with the line of the file that made it stop."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.message, self.line = message, line

    def __str__(self) -> str:
        if self.line is None:
            return self.message
        return _("line %(n)d: %(why)s") % {"n": self.line, "why": self.message}


@dataclass(frozen=True)
class Kind:
    """One table of a club's data: its rows, in the order the file holds them."""

    name: str
    model_label: str  # "app.Model", or "app.Model.field" for a many-to-many's own table
    # The lookup from a row to its club; "(players)<field>" for a person's own rows (their
    # notification preferences), which follow the club's players rather than the club.
    scope: str
    order: str = "pk"
    secret: bool = False  # only with --with-secrets (signing secrets, delivery logs)
    # JSON that people or engines wrote (records, rulings): read with the standard
    # library, which keeps integers of any size (orjson turns those into floats).
    free_json: bool = False
    # Columns that travel only with --with-secrets (a calendar feed's key): without them the
    # import gives the row a new one (the field's default).
    secret_fields: tuple[str, ...] = ()

    @property
    def model(self) -> type[models.Model]:
        app, name, *through = self.model_label.split(".")
        model = apps.get_model(app, name)
        if through:
            link: type[models.Model] = model._meta.get_field(through[0]).remote_field.through
            return link
        return model


# The file's order: every row after the rows it points to. New tables a club owns go here
# (tests/ledger/test_export.py names any model of ours that is neither here nor left out).
KINDS: tuple[Kind, ...] = (
    Kind("club", "clubs.Club", "pk"),
    Kind("player", "clubs.Player", "(players)"),
    Kind("membership", "clubs.Membership", "club"),
    # The merges of the club's players (and their undoing): who each now counts as.
    Kind("merge", "clubs.Merge", "(players)merged"),
    Kind("season", "clubs.Season", "club"),
    Kind("competition", "clubs.Competition", "club", free_json=True),
    Kind("format_settings", "formats.FormatSettings", "competition__club"),
    Kind("artificial_scores", "referee.ArtificialScores", "competition__club"),
    Kind("round", "clubs.Round", "competition__club"),
    Kind("table", "clubs.Table", "competition__club"),
    Kind("seat", "clubs.Seat", "table__competition__club"),
    Kind("entrant", "formats.Entrant", "competition__club"),
    Kind("absence", "formats.Absence", "competition__club"),
    Kind("forbidden_pair", "formats.ForbiddenPair", "competition__club"),
    Kind("draw", "formats.Draw", "round__competition__club"),
    Kind("bye", "formats.Bye", "competition__club"),
    Kind("team", "formats.Team", "competition__club"),
    Kind("team_member", "formats.Team.members", "team__competition__club"),
    Kind("knockout_match", "formats.KnockoutMatch", "competition__club"),
    Kind("knockout_table", "formats.KnockoutMatch.tables", "knockoutmatch__competition__club"),
    Kind("result", "clubs.Result", "club", free_json=True),
    Kind("penalty", "clubs.Penalty", "club"),
    Kind("entry", "clubs.Entry", "club", order="sequence"),
    Kind("checkpoint", "clubs.Checkpoint", "club", order="length"),
    Kind("standing", "clubs.Standing", "competition__club"),
    Kind("rating", "clubs.Rating", "club"),
    Kind("rating_change", "clubs.RatingChange", "club"),
    Kind("dispute", "clubs.Dispute", "result__club", free_json=True),
    Kind("seal_opening", "clubs.SealOpening", "result__club"),
    Kind("case", "referee.Case", "club", free_json=True),
    Kind("game_table", "play.GameTable", "club", free_json=True),
    Kind("play_seat", "play.PlaySeat", "table__club"),
    Kind("move", "play.Move", "table__club", free_json=True),
    Kind("night_settings", "night.NightSettings", "competition__club"),
    Kind("checkin", "night.CheckIn", "competition__club"),
    Kind("round_clock", "night.RoundClock", "round__competition__club"),
    Kind("extra_time", "night.ExtraTime", "table__competition__club"),
    Kind("replacement", "night.Replacement", "table__competition__club"),
    Kind("import_job", "clubs.ImportJob", "club"),
    Kind("webhook", "clubs.Webhook", "club", secret=True),
    Kind("webhook_delivery", "clubs.WebhookDelivery", "webhook__club", secret=True),
)
KIND = {kind.name: kind for kind in KINDS}
ORDER = {name: n for n, name in enumerate(["user", *KIND])}

# Models of ours a club export leaves out, and why (see docs/export.md).
LEFT_OUT: dict[str, str] = {
    "authtoken.Token": "a login's API token is a password: a new installation issues new ones",
    "authtoken.TokenProxy": "the same tokens, as the admin lists them",
    "clubs.ApiToken": "the club's own tokens: only their digests are kept, a key is shown once",
    "clubs.RoundTotal": "keyed by this database's round ids: counted again on arrival",
    "clubs.Invitation": (
        "a one-time secret for this installation's address: the organiser invites again"
    ),
}


def register(*added: Kind) -> None:
    """The tables an app above this one adds to a club's data, in the order the file holds
    them (each after the rows it points to): called from the app's ``AppConfig.ready``, so
    this layer never imports it. Both ends of a move must run the same apps."""
    global KINDS, KIND, ORDER
    known = {kind.name for kind in KINDS}
    fresh = tuple(kind for kind in added if kind.name not in known)
    if not fresh:
        return
    KINDS = (*KINDS, *fresh)
    KIND = {kind.name: kind for kind in KINDS}
    ORDER = {name: n for n, name in enumerate(["user", *KIND])}


def leave_out(label: str, why: str) -> None:
    """A model of an app above this one that a club's export leaves out on purpose."""
    LEFT_OUT[label] = why


def _scoped(kind: Kind, club: Club, players: list[int]) -> models.QuerySet[Any]:
    """The rows of one kind that are the club's."""
    manager = kind.model._default_manager
    if kind.scope.startswith("(players)"):
        field = kind.scope.removeprefix("(players)") or "pk"
        return manager.filter(**{f"{field}__in": players})
    return manager.filter(**{kind.scope: club.pk})


# A login: what the club's rows need of it. Password hashes and e-mail addresses travel
# only with --with-secrets; staff and superuser flags never do (they are the installation's).
USER_FIELDS = ("id", "username", "first_name", "last_name", "is_active", "date_joined")
USER_SECRET_FIELDS = ("email", "password")


def kinds(secrets: bool) -> list[Kind]:
    return [kind for kind in KINDS if secrets or not kind.secret]


def _fields(model: type[models.Model]) -> list[models.Field[Any, Any]]:
    # A journal line's seal is made with this installation's key (clubs/storage/signing.py): it
    # does not travel; the lines are sealed again on arrival, once their chain is proven.
    return [f for f in model._meta.concrete_fields if not (model is Entry and f.attname == "seal")]


def _points_to(field: models.Field[Any, Any], model: type[models.Model]) -> bool:
    return bool(field.is_relation and field.related_model is model)


# ---------------------------------------------------------------------------------------
# Export


class _Lines:
    """Numbers each line and chains its check to the line before."""

    def __init__(self) -> None:
        self.n = 0
        self.check = b""

    def line(self, obj: dict[str, Any]) -> bytes:
        self.n += 1
        obj["n"] = self.n
        try:
            body = orjson.dumps(obj, option=orjson.OPT_SORT_KEYS)
        except orjson.JSONEncodeError:  # an integer beyond 64 bits, say
            body = json.dumps(
                obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=_plain
            ).encode()
        head = body[:-1]
        self.check = hashlib.sha256(self.check + head).hexdigest().encode()
        return head + _CHECK_OPEN + self.check + b'"}\n'


def _plain(value: Any) -> Any:
    if isinstance(value, datetime.datetime | datetime.date):
        return value.isoformat()
    raise TypeError(type(value).__name__)


@contextlib.contextmanager
def snapshot() -> Iterator[None]:
    """One consistent read of the whole club while the service goes on writing: a
    read-only repeatable-read transaction on PostgreSQL; on SQLite a deferred transaction
    (in WAL mode readers keep their snapshot and never block the writers)."""
    if connection.in_atomic_block:
        yield
        return
    if connection.vendor == "postgresql":
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            yield
        return
    connection.ensure_connection()
    raw = connection.connection
    raw.execute("BEGIN DEFERRED")
    try:
        yield
    finally:
        raw.execute("COMMIT")


def _player_ids(club: Club) -> list[int]:
    """Every player the club's rows name: its members and anyone seated, credited, rated or
    drawn in its competitions (a player who left keeps their history)."""
    found: set[int] = set()
    for kind in KINDS:
        if kind.scope.startswith("(players)"):
            continue
        model = kind.model
        rows = model._default_manager.filter(**{kind.scope: club.pk})
        for f in _fields(model):
            if _points_to(f, Player):
                found.update(
                    rows.exclude(**{f.attname: None}).values_list(f.attname, flat=True).distinct()
                )
    # The people the club's players were merged into (whose rows the merges point to).
    frontier = set(found)
    while frontier:
        into = set(Merge.objects.filter(merged_id__in=frontier).values_list("into_id", flat=True))
        frontier = into - found
        found |= into
    return sorted(found)


def _user_ids(club: Club, secrets: bool, players: list[int]) -> list[int]:
    user = get_user_model()
    found: set[int] = set()
    for kind in kinds(secrets):
        model = kind.model
        rows: models.QuerySet[Any]
        rows = _scoped(kind, club, players)
        for f in _fields(model):
            if _points_to(f, user):
                found.update(
                    rows.exclude(**{f.attname: None}).values_list(f.attname, flat=True).distinct()
                )
    return sorted(found)


def _chunks(ids: list[int], size: int = 500) -> Iterator[list[int]]:
    for start in range(0, len(ids), size):
        yield ids[start : start + size]


def _rows(
    kind: Kind,
    club: Club,
    players: list[int],
    secrets: bool = False,
    window: dict[str, Any] | None = None,
) -> Iterator[dict[str, Any]]:
    model = kind.model
    fields = [f for f in _fields(model) if secrets or f.attname not in kind.secret_fields]
    names = [f.attname for f in fields]
    if model is Entry:
        # Evidence: the seal travels too; this installation checks it on the way back in.
        names.append("seal")
    places = [
        (i, f.decimal_places) for i, f in enumerate(fields) if isinstance(f, models.DecimalField)
    ]
    if kind.name == "player":
        batches: Iterable[Any] = (
            Player.objects.filter(pk__in=ids).order_by("pk").values_list(*names)
            for ids in _chunks(players)
        )
        source: Iterable[Any] = (row for batch in batches for row in batch)
    else:
        source = (
            _scoped(kind, club, players)
            .filter(**(window or {}))
            .order_by(kind.order)
            .values_list(*names)
            .iterator(chunk_size=CHUNK)
        )
    for values in source:
        if places:
            values = list(values)
            for i, dp in places:
                if values[i] is not None:
                    values[i] = f"{values[i]:.{dp}f}"
        row = dict(zip(names, values, strict=False))
        row["t"] = kind.name
        yield row


# What an upload to a hub leaves out: the projections, which the hub counts from its own
# copy of the journal (an upload's journal may stop before the club's standings do).
PROJECTIONS = frozenset({"standing", "rating", "rating_change"})


def export_lines(
    club: Club,
    *,
    secrets: bool = False,
    since: tuple[int, str] | None = None,
    upto: int | None = None,
    journal_only: bool = False,
) -> Iterator[bytes]:
    """The club as lines of the export file, read in one snapshot.

    With ``since`` (a journal length and its head), an upload to a hub
    (docs/operations.md): the same format, whose journal holds only the lines after
    ``since`` up to ``upto`` (default: the last), with the checkpoints among them, and the
    club's other rows as they are now, less the projections (``journal_only``: the club's
    row alone, for the chunks after the first of one sync); the header names ``since``,
    and the club row and the end line the journal's length and head at ``upto``."""
    with snapshot():
        club.refresh_from_db()
        length, head = club.journal_length, club.journal_head
        windows: dict[str, dict[str, Any]] = {}
        sent = kinds(secrets)
        if since is not None:
            length = min(upto if upto is not None else length, length)
            head = (
                Entry.objects.filter(club=club, sequence=length)
                .values_list("hash", flat=True)
                .first()
                or ""
            )
            windows = {
                "entry": {"sequence__gt": since[0], "sequence__lte": length},
                "checkpoint": {"length__gt": since[0], "length__lte": length},
            }
            sent = [kind for kind in sent if kind.name not in PROJECTIONS]
            if journal_only:
                sent = [kind for kind in sent if kind.name in ("club", "entry", "checkpoint")]
        lines = _Lines()
        counts: dict[str, int] = {}
        header: dict[str, Any] = {
            "t": "header",
            "format": FORMAT,
            "version": VERSION,
            "club": club.slug,
            "exported_at": timezone.now(),
            "database": connection.vendor,
            "secrets": secrets,
            "kinds": ["user", *(k.name for k in sent)],
            # Who vouches for the file (the end line's signature), and the signed
            # checkpoints its journal extends.
            "public_key": signing.public_key(),
            "key_id": signing.key_id(),
            "checkpoints": [
                [at, signed_head]
                for at, signed_head in Checkpoint.objects.filter(
                    club=club, **windows.get("checkpoint", {})
                )
                .order_by("length")
                .values_list("length", "head")
            ],
        }
        if since is not None:
            header["since"] = [since[0], since[1]]
        yield lines.line(header)
        players = [] if journal_only else _player_ids(club)
        user_fields = USER_FIELDS + (USER_SECRET_FIELDS if secrets else ())
        users = get_user_model().objects.filter(
            pk__in=[] if journal_only else _user_ids(club, secrets, players)
        )
        for values in users.order_by("pk").values_list(*user_fields):
            counts["user"] = counts.get("user", 0) + 1
            yield lines.line({"t": "user", **dict(zip(user_fields, values, strict=True))})
        for kind in sent:
            for row in _rows(kind, club, players, secrets, windows.get(kind.name)):
                if kind.name == "club":
                    row["journal_length"], row["journal_head"] = length, head
                counts[kind.name] = counts.get(kind.name, 0) + 1
                yield lines.line(row)
        total = lines.n + 1
        yield lines.line(
            {
                "t": "end",
                "lines": total,
                "rows": counts,
                "journal_length": length,
                "journal_head": head,
                "signature": signing.sign(
                    export_message(club.pk, club.slug, total, lines.check.decode(), length, head)
                ),
            }
        )


def export_message(
    club_id: int, slug: str, lines: int, checks: str, length: int, head: str
) -> bytes:
    """The exact bytes an export's signature covers: the check of the line before the end
    line (which chains every line of the file, header and seals included) and the journal's
    end."""
    return (
        f"club-ledger export v2\nclub {club_id} {slug}\nlines {lines}\nchecks {checks}\n"
        f"journal {length} {head}\n"
    ).encode()


def write_export(club: Club, out: IO[bytes], *, secrets: bool = False) -> int:
    """Write the club's export to ``out``; the number of lines."""
    n = 0
    for line in export_lines(club, secrets=secrets):
        out.write(line)
        n += 1
    return n


# ---------------------------------------------------------------------------------------
# Import


class _References:
    """Every reference between the file's rows, checked as they come instead of row by row
    by the database's triggers (PostgreSQL, when the import may switch them off for its own
    session: ``_fast_references``). A row's reference is to a row the file wrote before it
    (a set lookup) or, when not, to one already here: those are looked up at the end in
    batches and locked against deletion (``FOR KEY SHARE``, as the triggers lock them)."""

    def __init__(self) -> None:
        self.written: dict[type[models.Model], set[Any]] = {}
        self.pending: dict[tuple[type[models.Model], str], dict[Any, tuple[str, int]]] = {}
        for kind in KINDS:
            for f in _fields(kind.model):
                if f.is_relation and f.many_to_one and f.related_model is not None:
                    target = f.related_model
                    if cast(Any, f).target_field.primary_key:
                        self.written.setdefault(target, set())

    def check(self) -> None:
        for (model, column), wanted in self.pending.items():
            written = self.written.get(model, set()) if column == model._meta.pk.attname else set()
            missing = [v for v in wanted if v not in written]
            table = connection.ops.quote_name(model._meta.db_table)
            name = connection.ops.quote_name(column)
            for values in _chunks(missing, 5000):
                with connection.cursor() as cursor:
                    cursor.execute(
                        f"SELECT {name} FROM {table} WHERE {name} = ANY(%s) FOR KEY SHARE",
                        [values],
                    )
                    here = {row[0] for row in cursor.fetchall()}
                for value in values:
                    if value not in here:
                        kind, line = wanted[value]
                        raise Refused(
                            _(
                                "a %(kind)s row points to %(what)s number %(id)s, which neither "
                                "the file nor this installation holds"
                            )
                            % {"kind": kind, "what": model._meta.verbose_name, "id": value},
                            line,
                        )


class _Table:
    """The rows of one kind on their way to the database, with the file lines they came from.

    On PostgreSQL the rows of most kinds stream into one COPY as the file is read, so that
    the database writes them while this process reads the next lines (two cores at work, not
    one waiting for the other); a kind whose rows must first be compared with the rows
    already here (players, a person's own rows) is written in batches."""

    def __init__(
        self,
        kind: Kind,
        users: dict[int, int],
        owner: Club | None = None,
        references: _References | None = None,
    ) -> None:
        self.kind = kind
        # An upload to a hub's copy of ``owner``: a row already there, the club's, is
        # brought up to date; a new one is written (the journal only ever gains lines).
        self.owner = owner
        self.model = kind.model
        fields = _fields(self.model)
        self.fields = {f.attname: f for f in fields}
        self.columns = [f.attname for f in fields]
        self.sealed = self.model is Entry
        if self.sealed:
            self.columns.append("seal")
        self.rows: list[list[Any]] = []
        self.lines: list[int] = []
        self.written = 0
        pg = connection.vendor == "postgresql"
        user = get_user_model()
        self.prepare: list[tuple[int, Any]] = []
        for i, f in enumerate(fields):
            if _points_to(f, user):
                self.prepare.append((i, lambda v, m=users: m.get(v, v)))
            elif isinstance(f, models.JSONField):
                dump = json.dumps if kind.free_json else (lambda v: orjson.dumps(v).decode())
                self.prepare.append((i, dump))
            elif isinstance(f, models.DateTimeField) and not pg:
                self.prepare.append((i, _sqlite_datetime))
            elif isinstance(f, models.BooleanField) and not pg:
                self.prepare.append((i, bool))
        # The row's values in the columns' order, when the file's row has them all.
        names = [f.attname for f in fields]
        self.every = operator.itemgetter(*names) if len(names) > 1 else None
        self.seal_of = signing.sealer() if self.sealed else None
        self.references = references
        self.refers: list[tuple[int, set[Any], dict[Any, tuple[str, int]]]] = []
        self.target: set[Any] | None = None
        if references is not None:
            for i, f in enumerate(fields):
                if not (f.is_relation and f.many_to_one and f.related_model is not None):
                    continue
                target = f.related_model
                to = cast(Any, f).target_field
                column = to.attname
                written = references.written.get(target, set()) if to.primary_key else set()
                wanted = references.pending.setdefault((target, column), {})
                self.refers.append((i, written, wanted))
            self.target = references.written.get(self.model)
        self.pk = self.columns.index("id") if "id" in self.columns else None
        # (An upload's rows are compared with the hub's copy first: written in batches; its
        # journal lines, which are only ever new, stream.)
        self.streamed = (
            pg
            and (owner is None or self.sealed)
            and self.model is not Player
            and not kind.scope.startswith("(players)")
        )
        self._copy: Any = None
        self._copy_cm: Any = None
        self._atomic: Any = None
        self.streamed_keys: list[Any] = []
        self.streamed_lines: list[int] = []

    def add(self, row: dict[str, Any], line: int, seal: str | None = None) -> None:
        """``seal``: a journal line's seal already proven to be this installation's (the
        same as sealing it again, without the second HMAC)."""
        if len(row) > len(self.fields) or not self.fields.keys() >= row.keys():
            extra = set(row) - self.fields.keys()
            if extra:
                raise Refused(
                    _(
                        "a %(kind)s with a field this installation does not know (%(field)s): "
                        "the file comes from a newer version; update this installation first"
                    )
                    % {"kind": self.kind.name, "field": ", ".join(sorted(extra))},
                    line,
                )
        if self.sealed and seal and int(row.get("seal_version") or 0) < signing.SEAL_VERSION:
            seal = None  # proven, but of an older version: sealed again, at its place
        if self.sealed and not seal:
            # Sealed here, at the place its chain (proven on the way in) gives it.
            row["seal_version"] = signing.SEAL_VERSION
        values: list[Any]
        if self.every is not None and len(row) == len(self.fields):
            values = list(self.every(row))
        else:
            values = [
                row[name] if name in row else self.fields[name].get_default()
                for name in self.columns
                if name in self.fields
            ]
        for i, prepare in self.prepare:
            if values[i] is not None:
                values[i] = prepare(values[i])
        if self.sealed and seal:
            values.append(seal)
        elif self.sealed:
            assert self.seal_of is not None
            values.append(
                self.seal_of(
                    club_id=row["club_id"],
                    competition_id=row["competition_id"],
                    result_id=row["result_id"],
                    table_id=row["table_id"],
                    seat=row["seat"],
                    player_id=row["player_id"],
                    points=Decimal(str(row["points"])),
                    kind=row["kind"],
                    origin=row.get("origin", ""),
                    penalty_id=row.get("penalty_id"),
                    version=signing.SEAL_VERSION,
                    sequence=row["sequence"],
                    prev_hash=row["prev_hash"],
                )
            )
        for i, written, wanted in self.refers:
            value = values[i]
            if value is not None and value not in written and value not in wanted:
                wanted[value] = (self.kind.name, line)
        if self.target is not None and self.pk is not None:
            self.target.add(values[self.pk])
        if self.streamed:
            self._stream(values, line)
            return
        self.rows.append(values)
        self.lines.append(line)
        if len(self.rows) >= CHUNK:
            self.flush()

    def _stream(self, values: list[Any], line: int) -> None:
        if self._copy is None:
            self._atomic = transaction.atomic()
            self._atomic.__enter__()
            table = connection.ops.quote_name(self.model._meta.db_table)
            names = ", ".join(connection.ops.quote_name(c) for c in self.columns)
            cursor = connection.cursor().cursor
            self._copy_cm = cursor.copy(f"COPY {table} ({names}) FROM STDIN")
            self._copy = self._copy_cm.__enter__()
        try:
            self._copy.write_row(values)
        except _db_errors() as exc:
            self._abort(exc)
            raise self._diagnose(self.streamed_keys, self.streamed_lines, exc) from exc
        if self.pk is not None:
            self.streamed_keys.append(values[self.pk])
        self.streamed_lines.append(line)
        self.written += 1

    def _abort(self, exc: BaseException) -> None:
        """End the open COPY and roll its rows back (an error in it, or a refusal elsewhere
        while it was open)."""
        copy_cm, atomic = self._copy_cm, self._atomic
        self._copy = self._copy_cm = self._atomic = None
        if copy_cm is not None:
            with contextlib.suppress(Exception):
                copy_cm.__exit__(type(exc), exc, exc.__traceback__)
        if atomic is not None:
            atomic.__exit__(type(exc), exc, exc.__traceback__)

    def abort(self, exc: BaseException) -> None:
        if self._copy_cm is not None:
            self._abort(exc)

    def flush(self) -> None:
        if self._copy_cm is not None:
            copy_cm, atomic = self._copy_cm, self._atomic
            try:
                copy_cm.__exit__(None, None, None)
            except _db_errors() as exc:
                self._copy = self._copy_cm = None
                self._atomic = None
                atomic.__exit__(type(exc), exc, exc.__traceback__)
                raise self._diagnose(self.streamed_keys, self.streamed_lines, exc) from exc
            self._copy = self._copy_cm = self._atomic = None
            atomic.__exit__(None, None, None)
            self.streamed_keys, self.streamed_lines = [], []
        if not self.rows:
            return
        rows, lines = self.rows, self.lines
        self.rows, self.lines = [], []
        if self.model is Player:
            rows, lines = self._known_players(rows, lines)
        elif self.kind.scope.startswith("(players)"):
            rows, lines = self._known_rows(rows, lines)
        elif self.owner is not None and not self.sealed:
            rows, lines = self._brought_up_to_date(rows, lines, self.owner)
        try:
            with transaction.atomic():
                _insert(self.model, self.columns, rows)
        except _db_errors() as exc:
            keys = [row[self.pk] for row in rows] if self.pk is not None else []
            raise self._diagnose(keys, lines, exc) from exc
        self.written += len(rows)

    def _known_players(self, rows: list[list[Any]], lines: list[int]) -> tuple[Any, Any]:
        """A player already here under the same number and name is the same person (one
        who plays in two clubs that moved here one after the other): kept, not written
        again. Under the same number with another name, the club cannot come here."""
        pk, name = self.columns.index("id"), self.columns.index("name")
        here = dict(Player.objects.filter(pk__in=[r[pk] for r in rows]).values_list("pk", "name"))
        keep_rows, keep_lines = [], []
        for row, line in zip(rows, lines, strict=True):
            if row[pk] not in here:
                keep_rows.append(row)
                keep_lines.append(line)
            elif here[row[pk]] != row[name]:
                raise Refused(
                    _(
                        "player number %(id)d (%(name)s) is already used here by another "
                        "player (%(other)s); the journal's hashes name players by number, so "
                        "this club can only move into an installation where that number is free"
                    )
                    % {"id": row[pk], "name": row[name], "other": here[row[pk]]},
                    line,
                )
        return keep_rows, keep_lines

    def _brought_up_to_date(
        self, rows: list[list[Any]], lines: list[int], owner: Club
    ) -> tuple[Any, Any]:
        """The rows of an upload already in the hub's copy of the club are written over with
        what the venue has now; the new ones are left to insert. A number that is another
        club's here is refused, naming its line."""
        pk = self.columns.index("id")
        at = {row[pk]: i for i, row in enumerate(rows)}
        # The club's rows of this kind here, in one read (an upload carries them all); of
        # the others, those whose numbers are taken here are another club's.
        mine = set(_scoped(self.kind, owner, []).values_list("pk", flat=True))
        ours = {i for i in at if i in mine}
        foreign = sorted(_existing(self.model, [i for i in at if i not in mine]))
        if foreign:
            raise Refused(
                _(
                    "%(kind)s number %(id)d is already used here by another club's "
                    "data; the club can only come back with its own numbers"
                )
                % {"kind": self.kind.name, "id": foreign[0]},
                lines[at[foreign[0]]],
            )
        if ours and connection.vendor == "postgresql":
            _update_changed(self.model, self.columns, [rows[at[i]] for i in sorted(ours)])
        elif ours:
            table = connection.ops.quote_name(self.model._meta.db_table)
            others = [c for c in self.columns if c != "id"]
            sets = ", ".join(f"{connection.ops.quote_name(c)} = %s" for c in others)
            keep = [i for i, c in enumerate(self.columns) if c != "id"]
            with connection.cursor() as cursor:
                cursor.executemany(
                    f"UPDATE {table} SET {sets} WHERE id = %s",
                    [[rows[at[i]][k] for k in keep] + [i] for i in sorted(ours)],
                )
        kept = [(row, line) for row, line in zip(rows, lines, strict=True) if row[pk] not in ours]
        return [r for r, _l in kept], [line for _r, line in kept]

    def _known_rows(self, rows: list[list[Any]], lines: list[int]) -> tuple[Any, Any]:
        """A person's own row (their preferences) already here with a player kept as the same
        person: theirs already, kept as it is here."""
        field = self.kind.scope.removeprefix("(players)")
        column = self.columns.index(f"{field}_id")
        pk = self.columns.index("id")
        here_pk = set(
            self.model._default_manager.filter(pk__in=[r[pk] for r in rows]).values_list(
                "pk", flat=True
            )
        )
        here_player = set(
            self.model._default_manager.filter(
                **{f"{field}__in": [r[column] for r in rows]}
            ).values_list(field, flat=True)
        )
        # A merge is a line of the people's journal, not a person's one row: kept unless here.
        one_each = self.model is not Merge
        kept = [
            (row, line)
            for row, line in zip(rows, lines, strict=True)
            if row[pk] not in here_pk and not (one_each and row[column] in here_player)
        ]
        return [r for r, _l in kept], [line for _r, line in kept]

    def _diagnose(self, keys: list[Any], lines: list[int], exc: Exception) -> Refused:
        if keys:
            at = dict(zip(keys, lines, strict=False))
            for ids in _chunks(list(at)):
                taken = sorted(
                    self.model._default_manager.filter(pk__in=ids).values_list("pk", flat=True)
                )
                if taken:
                    return Refused(
                        _(
                            "%(kind)s number %(id)d is already used here by another club's "
                            "data; the club can only come back with its own numbers"
                        )
                        % {"kind": self.kind.name, "id": taken[0]},
                        at[taken[0]],
                    )
        first, last = (lines[0], lines[-1]) if lines else (0, 0)
        return Refused(
            _("the database refused the %(kind)s rows of lines %(first)d to %(last)d: %(error)s")
            % {"kind": self.kind.name, "first": first, "last": last, "error": exc}
        )


def _db_errors() -> tuple[type[Exception], ...]:
    """Django's database errors and the driver's own (which a COPY on the driver's cursor
    raises unwrapped)."""
    return (DatabaseError, cast(Any, connection).Database.Error)


def _sqlite_datetime(value: str) -> str:
    # What Django itself stores on SQLite: UTC, without the offset.
    stored = connection.ops.adapt_datetimefield_value(datetime.datetime.fromisoformat(value))
    return cast(str, stored)  # a datetime in, a string out (None only for None)


def _insert(model: type[models.Model], columns: list[str], rows: list[list[Any]]) -> None:
    table = connection.ops.quote_name(model._meta.db_table)
    names = ", ".join(connection.ops.quote_name(c) for c in columns)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # psycopg formats and escapes each row in C: a third of the time of building
            # COPY's text here.
            with cursor.cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
        else:
            marks = ", ".join(["%s"] * len(columns))
            cursor.executemany(f"INSERT INTO {table} ({names}) VALUES ({marks})", rows)


def _existing(model: type[models.Model], ids: list[Any]) -> set[Any]:
    """Which of ``ids`` are numbers of rows of ``model`` here."""
    if not ids:
        return set()
    if connection.vendor == "postgresql":
        table = connection.ops.quote_name(model._meta.db_table)
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT id FROM {table} WHERE id = ANY(%s)", [ids])
            return {row[0] for row in cursor.fetchall()}
    found: set[Any] = set()
    for chunk in _chunks(ids):
        found.update(model._default_manager.filter(pk__in=chunk).values_list("pk", flat=True))
    return found


def _update_changed(model: type[models.Model], columns: list[str], rows: list[list[Any]]) -> None:
    """Write the rows of an upload that the hub's copy already holds over the copy's, on
    PostgreSQL in one statement that touches only the rows whose values changed (most of a
    club's rows come back as they were: an upload carries the club's rows as they are now).
    The rows go by COPY into a scratch table shaped as the real one, so that the database
    reads each value as it would for an insert and compares like with like."""
    qn = connection.ops.quote_name
    table = qn(model._meta.db_table)
    scratch = qn(f"upload_{model._meta.db_table}")
    names = ", ".join(qn(c) for c in columns)
    others = [qn(c) for c in columns if c != "id"]
    sets = ", ".join(f"{c} = s.{c}" for c in others)
    here = ", ".join(f"t.{c}" for c in others)
    sent = ", ".join(f"s.{c}" for c in others)
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE IF EXISTS {scratch}")
        cursor.execute(f"CREATE TEMPORARY TABLE {scratch} (LIKE {table}) ON COMMIT DROP")
        with cursor.cursor.copy(f"COPY {scratch} ({names}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
        if others:
            cursor.execute(
                f"UPDATE {table} AS t SET {sets} FROM {scratch} AS s "
                f"WHERE t.id = s.id AND ({here}) IS DISTINCT FROM ({sent})"
            )
        cursor.execute(f"DROP TABLE {scratch}")


@dataclass
class Imported:
    club: Club
    lines: int
    rows: dict[str, int]
    journal_length: int
    appended: int = 0  # an upload's: the journal lines it added


class _Reader:
    """The lines of the file, checked: each is whole, numbered in turn and unchanged."""

    def __init__(self, stream: Iterable[bytes]) -> None:
        self.stream = stream
        self.n = 0
        self.check = b""
        self.before = b""  # the check of the line before the last one read

    def __iter__(self) -> Iterator[tuple[int, dict[str, Any], bytes]]:
        for raw in self.stream:
            self.n += 1
            n = self.n
            if not raw.endswith(b"\n"):
                raise Refused(_("the line stops in the middle: the file was cut short"), n)
            line = raw.rstrip(b"\r\n")
            if len(line) < _CHECK_LEN + 2 or line[-_CHECK_LEN:-66] != _CHECK_OPEN:
                raise Refused(_("the line has lost its check: it was changed or cut"), n)
            head, check = line[:-_CHECK_LEN], line[-66:-2]
            try:
                obj = orjson.loads(head + b"}")
            except orjson.JSONDecodeError:
                raise Refused(_("the line is not readable JSON: it was changed"), n) from None
            if not isinstance(obj, dict) or not isinstance(obj.get("n"), int):
                raise Refused(_("the line has lost its number: it was changed"), n)
            if obj["n"] > n:
                missing = (
                    str(n) if obj["n"] == n + 1 else "%d–%d" % (n, obj["n"] - 1)  # noqa: UP031
                )
                raise Refused(
                    _("line %(missing)s is missing: the file was changed") % {"missing": missing},
                    n,
                )
            if obj["n"] < n:
                raise Refused(
                    _("this is line %(was)d again, or out of its place: the file was changed")
                    % {"was": obj["n"]},
                    n,
                )
            expected = hashlib.sha256(self.check + head).hexdigest().encode()
            if check != expected:
                raise Refused(_("the line was changed after the export (its check differs)"), n)
            self.before, self.check = self.check, check
            yield n, obj, head


def import_club(
    stream: Iterable[bytes], *, trusted_key: str | None = None, allow_unsigned: bool = False
) -> Imported:
    """Bring a club's export in, all of it or nothing; ``Refused`` names the line that
    stopped it. ``trusted_key``: the public key the file must be signed with (default: this
    installation's; give the other installation's when moving a club). ``allow_unsigned``:
    also take a file of version 1, which has no signature."""
    with transaction.atomic():
        imported = _import(stream, trusted_key, allow_unsigned, write=True)
        assert isinstance(imported, Imported)
        return imported


def extend_club(stream: Iterable[bytes], club: Club, *, trusted_key: str) -> Imported:
    """Append a venue's upload (``export_lines`` with ``since``) to this installation's copy
    of ``club``, all of it or nothing, read and checked as ``import_club`` reads a whole
    club: every line and its check, the journal's chain from the copy's head, the
    checkpoints, the signature with ``trusted_key``. The club's other rows are written over
    with the venue's, its standings counted again from the journal here. ``Refused`` names
    the line; an upload that does not start at the copy's head is refused at its first
    journal line (sent again, or out of order)."""
    with transaction.atomic():
        imported = _import(stream, trusted_key, False, write=True, extend=club)
        assert isinstance(imported, Imported)
        return imported


def _starts_at(header: dict[str, Any], club: Club) -> tuple[tuple[int, str], str]:
    """Where an upload's journal starts, and why it cannot extend the copy here ("" when
    it can)."""
    try:
        length, head = header["since"]
        since = (int(length), str(head))
    except (KeyError, TypeError, ValueError):
        raise Refused(_("this file is not an upload: its header says no start"), 1) from None
    ours = (club.journal_length, club.journal_head)
    if since[0] < ours[0]:
        why = _(
            "journal line #%(n)d is already here (an earlier upload brought it): this upload "
            "was sent before, or replayed"
        ) % {"n": since[0] + 1}
    elif since[0] > ours[0]:
        why = _(
            "this upload starts after journal line #%(since)d, but the lines here stop at "
            "#%(ours)d: an upload before it is missing (uploads sent out of order)"
        ) % {"since": since[0], "ours": ours[0]}
    elif since[1] != ours[1]:
        why = _(
            "journal line #%(n)d does not follow the line #%(ours)d here: the venue's journal "
            "is not the one it sent before"
        ) % {"n": since[0] + 1, "ours": ours[0]}
    else:
        why = ""
    return since, why


@dataclass
class Checked:
    slug: str
    lines: int
    journal_length: int
    checkpoints: int
    signed_by: str


def check_export(
    stream: Iterable[bytes], *, trusted_key: str | None = None, allow_unsigned: bool = False
) -> Checked:
    """Every check ``import_club`` makes of a file before it writes (lines, chain, seals,
    named checkpoints, signature), without writing anything: ``verify_ledger --export``."""
    checked = _import(stream, trusted_key, allow_unsigned, write=False)
    assert isinstance(checked, Checked)
    return checked


def _import(
    stream: Iterable[bytes],
    trusted_key: str | None,
    allow_unsigned: bool,
    write: bool,
    extend: Club | None = None,
) -> Imported | Checked:
    reader = _Reader(stream)
    lines = iter(reader)
    first = next(lines, None)
    if first is None:
        raise Refused(_("the file is empty"), 1)
    _n, header, _head = first
    if header.get("t") != "header" or header.get("format") != FORMAT:
        raise Refused(_("this is not a club export of this service"), 1)
    if header.get("version") not in (1, VERSION):
        raise Refused(
            _(
                "the file is in version %(found)s of the export format; this installation "
                "reads version %(ours)d"
            )
            % {"found": header.get("version"), "ours": VERSION},
            1,
        )
    evidence = _Evidence(header, trusted_key, allow_unsigned)
    users: dict[int, int] = {}
    tables: dict[str, _Table] = {}
    current: _Table | None = None
    place = 0
    club: Club | None = None
    club_line = 0
    chain = _Chain()
    standings: dict[tuple[int, int], tuple[str, int, int, int, int]] = {}
    ratings: dict[tuple[str, int], tuple[float, float, int]] = {}
    end: dict[str, Any] | None = None
    counts: dict[str, int] = {}
    prepared: dict[str, Any] = {}  # what the functions of before_writing keep for this file
    since, not_extending = (0, ""), ""
    if extend is not None:
        since, not_extending = _starts_at(header, extend)
        chain.length, chain.head = since
    references = _References() if write and _fast_references() else None
    try:
        for n, obj, head in lines:
            proven = None
            if end is not None:
                raise Refused(_("a line after the end line: the file was changed"), n)
            name = obj.pop("t", None)
            obj.pop("n")
            if name == "end":
                if not_extending:
                    raise Refused(not_extending, n)
                end = obj
                end["line"] = n
                continue
            if name not in ORDER:
                raise Refused(
                    _("a row of a kind this installation does not know (%(kind)s)")
                    % {"kind": name},
                    n,
                )
            if ORDER[name] < place:
                raise Refused(
                    _("a %(kind)s row out of its place: the file was changed") % {"kind": name}, n
                )
            place = ORDER[name]
            counts[name] = counts.get(name, 0) + 1
            if name == "user":
                if write:
                    _bring_user(obj, users, n)
                continue
            kind = KIND[name]
            kept = not (extend is not None and name in ("club", "checkpoint", *PROJECTIONS))
            if write and kept and (current is None or current.kind is not kind):
                # The kind before is written to the end before this one's lines are read (a
                # COPY still open would take the connection from the checks below).
                if current is not None:
                    current.flush()
                current = tables[name] = _Table(kind, users, extend, references)
            if kind.free_json:
                obj = json.loads(head + b"}")
                obj.pop("t"), obj.pop("n")
            if name == "club":
                club_line = n
                club = _check_club(obj, header, n, write and extend is None)
                if extend is not None and (club.pk, club.slug) != (extend.pk, extend.slug):
                    raise Refused(
                        _(
                            "this upload is of the club '%(slug)s' (number %(id)d), not of "
                            "'%(ours)s' (number %(our_id)d) whose copy it was sent to"
                        )
                        % {
                            "slug": club.slug,
                            "id": club.pk,
                            "ours": extend.slug,
                            "our_id": extend.pk,
                        },
                        n,
                    )
                evidence.club_keys(obj, n)
            elif club is None:
                raise Refused(_("a %(kind)s row before the club's line") % {"kind": name}, n)
            elif name == "entry":
                if not_extending:
                    raise Refused(not_extending, n)
                chain.follow(obj, club.pk, n)
                proven = evidence.entry(obj, n, chain)
            elif name == "checkpoint":
                evidence.checkpoint(obj, n)
            elif name == "standing":
                standings[(obj["competition_id"], obj["player_id"])] = (
                    obj["points"],
                    obj["played"],
                    obj["wins"],
                    obj["draws"],
                    obj["losses"],
                )
            elif name == "rating":
                ratings[(obj["game"], obj["player_id"])] = (obj["mu"], obj["sigma"], obj["results"])
            if not write:
                continue
            if not kept:
                # The copy's own club row, its own signed checkpoints and its projections:
                # the journal's end is written below, the rest counted from the journal here.
                continue
            prepare = _before_writing.get(name)
            if prepare is not None:
                prepare(obj, prepared)
            assert current is not None
            current.add(obj, n, proven)
        if current is not None:
            current.flush()
    except BaseException as exc:
        if current is not None:
            current.abort(exc)
        raise
    if end is None:
        raise Refused(
            _("the file stops after line %(n)d, before its end line: it was cut short")
            % {"n": reader.n},
            reader.n,
        )
    if club is None:
        raise Refused(_("the file holds no club"), end["line"])
    if end.get("lines") != end["line"] or end.get("rows") != counts:
        raise Refused(
            _("the end line does not match the lines before it: the file was changed"), end["line"]
        )
    if (chain.length, chain.head) != (club.journal_length, club.journal_head):
        raise Refused(
            _(
                "the club's journal should end at line #%(length)d (%(head)s) but the file's "
                "journal ends at #%(found)d: journal lines were removed or added"
            )
            % {
                "length": club.journal_length,
                "head": club.journal_head[:12],
                "found": chain.length,
            },
            club_line,
        )
    evidence.finish(end, reader.before.decode(), club, chain)
    if not write:
        return Checked(
            slug=club.slug,
            lines=end["line"],
            journal_length=chain.length,
            checkpoints=len(evidence.named),
            signed_by=evidence.key_id if evidence.signed else "",
        )
    if extend is not None:
        _finish([t.model for t in tables.values()], references, renumber=False)
        return _appended(extend, since, chain, end["line"], tables)
    _finish([t.model for t in tables.values()], references)
    rounds = prove_arrival(club, standings, ratings)
    # The per-round totals are keyed by this database's round ids: counted here again.
    from ledger.clubs.projections.projections import rebuild_round_totals

    for competition in Competition.objects.filter(club=club).order_by("pk"):
        rebuild_round_totals(competition, rounds.get(competition.pk, {}))
    return Imported(
        club=Club.objects.get(pk=club.pk),
        lines=end["line"],
        rows={k: t.written for k, t in tables.items()},
        journal_length=chain.length,
    )


def _bring_user(row: dict[str, Any], users: dict[int, int], line: int) -> None:
    """A login is matched by its user name; a new one keeps its number when free. Without
    a password hash in the file it cannot log in until given a password."""
    user_model = get_user_model()
    old = row["id"]
    found = user_model.objects.filter(username=row["username"]).values_list("pk", flat=True).first()
    if found is not None:
        users[old] = found
        return
    user = user_model(
        username=row["username"],
        first_name=row.get("first_name", ""),
        last_name=row.get("last_name", ""),
        email=row.get("email", ""),
        is_active=row.get("is_active", True),
    )
    if row.get("date_joined"):
        user.date_joined = datetime.datetime.fromisoformat(row["date_joined"])
    if row.get("password"):
        user.password = row["password"]
    else:
        user.set_unusable_password()
    if not user_model.objects.filter(pk=old).exists():
        user.pk = old
    user.save()
    users[old] = user.pk


# What an app above this one changes in its rows before an import writes them (the play
# app seals a running game's secrets that a file holds in clear): the kind's name → a
# function of the row (changed in place) and of a dictionary kept for the whole file.
_before_writing: dict[str, Callable[[dict[str, Any], dict[str, Any]], None]] = {}


def before_writing(kind: str, prepare: Callable[[dict[str, Any], dict[str, Any]], None]) -> None:
    """Have ``prepare`` change each row of ``kind`` an import is about to write."""
    _before_writing[kind] = prepare


def _check_club(row: dict[str, Any], header: dict[str, Any], line: int, write: bool) -> Club:
    if row.get("slug") != header.get("club"):
        raise Refused(_("the club's line names another club than the header"), line)
    if not write:
        pass
    elif Club.objects.filter(slug=row["slug"]).exists():
        raise Refused(
            _("a club called '%(slug)s' is already here: nothing was imported")
            % {"slug": row["slug"]},
            line,
        )
    elif Club.objects.filter(pk=row["id"]).exists():
        raise Refused(
            _(
                "club number %(id)d is already used here by another club; the journal's hashes "
                "name the club by number, so it can only move where that number is free"
            )
            % {"id": row["id"]},
            line,
        )
    club = Club(
        pk=row["id"],
        slug=row["slug"],
        name=row.get("name", ""),
        journal_length=row.get("journal_length", 0),
        journal_head=row.get("journal_head", ""),
    )
    return club


class _Evidence:
    """What makes the file evidence and not only a copy: it is signed with a key this
    installation trusts (its own, or the one the operator names), every journal line
    carries its seal (checked when the key is this installation's, whose seals they are),
    the journal extends every checkpoint the header names, each checkpoint row holds its
    signature, and the end line's signature covers the whole file."""

    def __init__(self, header: dict[str, Any], trusted_key: str | None, unsigned: bool) -> None:
        self.signed = header.get("version") == VERSION
        if not self.signed and not unsigned:
            raise Refused(
                _(
                    "the file is in version 1 of the export format, which is not signed: "
                    "export the club again, or bring it in with --allow-unsigned if you "
                    "trust every hand it went through"
                ),
                1,
            )
        own = signing.public_key()
        self.key = (trusted_key or own).strip().lower()
        self.key_id = signing.key_id(self.key) if self.signed else ""
        self.own = self.key == own
        self.named: dict[int, str] = {}
        self.held: set[int] = set()
        self.sealed_before = False
        self.seal_of = signing.sealer()
        # The keys of the installations the club was in before the one that signed the
        # file (key id → key), as that one vouched for them.
        self.earlier: dict[str, str] = {}
        if not self.signed:
            return
        found = str(header.get("public_key") or "")
        if found != self.key:
            raise Refused(
                _(
                    "the file is signed with the key %(found)s, and this installation trusts "
                    "%(ours)s: give the public key of the installation that made it with "
                    "--public-key"
                )
                % {
                    "found": signing.key_id(found) if _is_key(found) else "?",
                    "ours": signing.key_id(self.key),
                },
                1,
            )
        try:
            self.named = {int(length): str(head) for length, head in header["checkpoints"]}
        except (KeyError, TypeError, ValueError):
            raise Refused(_("the header's list of checkpoints is not readable"), 1) from None

    def club_keys(self, row: dict[str, Any], line: int) -> None:
        """Check the public keys the club row keeps from where the club was before (each
        vouched for by the installation that signed the file), and make them, with that
        installation's own key, the keys the club keeps here, vouched for by this one: the
        club's checkpoints signed there keep verifying here without their keys being named
        (ledger/clubs/journal/checkpoints.py). An unsigned file brings no keys."""
        if not self.signed:
            row["earlier_keys"] = []
            return
        probe = Club(pk=row.get("id"), slug=str(row.get("slug", "")))
        probe.earlier_keys = row.get("earlier_keys") or []
        keys, problems = earlier_keys(probe, vouched_by=self.key)
        if problems:
            raise Refused(
                _(
                    "the club's line keeps a key of an earlier installation that the file's "
                    "signer did not vouch for: the file was changed"
                ),
                line,
            )
        self.earlier = keys
        own = signing.public_key()
        kept = sorted({*keys.values(), self.key} - {own})
        row["earlier_keys"] = [checkpoints.vouch(int(row["id"]), public) for public in kept]

    def entry(self, row: dict[str, Any], line: int, chain: _Chain) -> str | None:
        """Check one journal line; its seal when proven to be this installation's."""
        seal = str(row.pop("seal", "") or "")
        n = chain.length
        if n in self.named and self.named[n] != chain.head:
            raise Refused(
                _(
                    "journal line #%(n)d is not the line the checkpoint at #%(n)d signed: "
                    "history was rewritten"
                )
                % {"n": n},
                line,
            )
        if not (self.signed and self.own):
            return None  # another installation's seals: its signature on the file covers them
        if not seal:
            if self.sealed_before:
                raise Refused(
                    _("journal line #%(n)d has no seal: it was not written by the service")
                    % {"n": n},
                    line,
                )
            return None
        self.sealed_before = True
        try:
            holds = hmac.compare_digest(
                seal,
                self.seal_of(
                    club_id=row["club_id"],
                    competition_id=row["competition_id"],
                    result_id=row["result_id"],
                    table_id=row["table_id"],
                    seat=row["seat"],
                    player_id=row["player_id"],
                    points=Decimal(str(row["points"])),
                    kind=row["kind"],
                    origin=row.get("origin", ""),
                    penalty_id=row.get("penalty_id"),
                    version=int(row.get("seal_version") or 0),
                    sequence=row["sequence"],
                    prev_hash=row["prev_hash"],
                ),
            )
        except (KeyError, ArithmeticError, TypeError, ValueError):
            holds = False
        if not holds:
            raise Refused(
                _(
                    "journal line #%(n)d: its seal is not this installation's (the line was "
                    "forged or changed)"
                )
                % {"n": n},
                line,
            )
        return seal

    def checkpoint(self, row: dict[str, Any], line: int) -> None:
        if not self.signed:
            return
        try:
            length, head = int(row["length"]), str(row["head"])
            at = datetime.datetime.fromisoformat(str(row["signed_at"]))
            message = signing.checkpoint_message(
                int(row["club_id"]),
                length,
                head,
                at.astimezone(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
            )
        except (KeyError, TypeError, ValueError):
            raise Refused(
                _("a checkpoint that cannot be read: the file was changed"), line
            ) from None
        if self.named.get(length) != head:
            raise Refused(
                _("a checkpoint the file's header does not name: the file was changed"), line
            )
        self.held.add(length)
        # Checkpoints signed with the key that signed the file, or with the key of an
        # installation the club was in before it (which that one vouched for), are checked
        # here; any other (from further back, brought without its key) by verify_ledger
        # --public-key.
        key_id = str(row.get("key_id", ""))
        public = self.key if key_id == self.key_id else self.earlier.get(key_id)
        if public is not None and not signing.verify(
            message, str(row.get("signature", "")), public
        ):
            raise Refused(
                _("the checkpoint at journal line #%(n)d has a signature that does not hold")
                % {"n": length},
                line,
            )

    def finish(self, end: dict[str, Any], before: str, club: Club, chain: _Chain) -> None:
        if not self.signed:
            return
        line = end["line"]
        if set(self.named) - self.held:
            raise Refused(
                _("the header names checkpoints the file does not hold: the file was changed"),
                line,
            )
        if (end.get("journal_length"), end.get("journal_head")) != (chain.length, chain.head):
            raise Refused(
                _("the end line's journal head is not the journal's: the file was changed"), line
            )
        message = export_message(club.pk, club.slug, line, before, chain.length, chain.head)
        if not signing.verify(message, str(end.get("signature") or ""), self.key):
            raise Refused(
                _(
                    "the file's signature does not hold: it was changed after it was signed "
                    "(its lines, checks or journal made again by someone without the key)"
                ),
                line,
            )


def _is_key(text: str) -> bool:
    try:
        return len(bytes.fromhex(text)) == 32
    except ValueError:
        return False


class _Chain:
    """The journal's hash chain, followed line by line as the file is read."""

    def __init__(self) -> None:
        self.length = 0
        self.head = ""

    def follow(self, row: dict[str, Any], club_id: int, line: int) -> None:
        sequence = row.get("sequence")
        if row.get("club_id") != club_id:
            raise Refused(_("a journal line of another club"), line)
        if sequence != self.length + 1:
            if isinstance(sequence, int) and sequence > self.length + 1:
                raise Refused(
                    _("journal line #%(n)d is missing before this one") % {"n": self.length + 1},
                    line,
                )
            raise Refused(_("journal line #%(n)s is out of its place") % {"n": sequence}, line)
        if row.get("prev_hash") != self.head:
            raise Refused(
                _("journal line #%(n)d does not follow the line before it (the chain breaks)")
                % {"n": sequence},
                line,
            )
        try:
            digest = entry_hash(
                prev_hash=self.head,
                club_id=club_id,
                competition_id=row["competition_id"],
                sequence=sequence,
                result_id=row["result_id"],
                seat=row["seat"],
                player_id=row["player_id"],
                points=Decimal(row["points"]),
                kind=row["kind"],
            )
        except (KeyError, ArithmeticError, TypeError):
            digest = ""
        if digest != row.get("hash"):
            raise Refused(
                _("journal line #%(n)d was changed: its hash does not match what it says")
                % {"n": sequence},
                line,
            )
        self.length, self.head = sequence, digest


def _fast_references() -> bool:
    """On PostgreSQL, switch the database's row-by-row reference checks off for this
    transaction when the connection's role may (a superuser, or a role granted ``SET`` on
    ``session_replication_role``): the import then checks every reference itself, in
    batches (``_References``), which at a million lines is minutes less of the database
    firing one trigger per reference. Otherwise the triggers check them at the end, as for
    any write (``_finish``). Either way no row points to a row that is not there."""
    if connection.vendor != "postgresql":
        return False
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SET LOCAL session_replication_role = replica")
    except DatabaseError:
        return False
    return True


def _finish(
    written: list[type[models.Model]],
    references: _References | None = None,
    renumber: bool = True,
) -> None:
    """Every reference between the rows holds, and new rows are numbered after these (not
    after an upload's: a venue numbers its rows in a block of its own)."""
    if references is not None:
        # The triggers are back for the rest of the transaction (the projections written
        # next); the file's rows were checked as they came, and the rows they name that
        # were already here are looked up and locked now.
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL session_replication_role = origin")
        references.check()
    else:
        tables = [m._meta.db_table for m in written]
        try:
            with transaction.atomic():
                connection.check_constraints(table_names=tables)
        except DatabaseError as exc:
            raise Refused(
                _("the file's rows point to rows it does not hold: %(e)s") % {"e": exc}
            ) from exc
    if renumber and connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            for sql in connection.ops.sequence_reset_sql(no_style(), [*written, get_user_model()]):
                cursor.execute(sql)


def _appended(
    club: Club, since: tuple[int, str], chain: _Chain, lines: int, tables: dict[str, _Table]
) -> Imported:
    """An upload written: the lines appended are read back and proven to chain from the
    copy's head to the upload's, the club's journal ends there, and the standings of the
    competitions they touch are counted again from the journal here."""
    length, head = since
    touched: set[int] = set()
    for seq, comp, prev, digest in (
        Entry.objects.filter(club_id=club.pk, sequence__gt=since[0])
        .order_by("sequence")
        .values_list("sequence", "competition_id", "prev_hash", "hash")
        .iterator(chunk_size=CHUNK)
    ):
        if seq != length + 1 or prev != head:
            raise Refused(_("the journal written here breaks at line #%(n)d") % {"n": length + 1})
        length, head = seq, digest
        touched.add(comp)
    if (length, head) != (chain.length, chain.head):
        raise Refused(_("the journal written here does not end at the upload's head"))
    Club.objects.filter(pk=club.pk).update(journal_length=length, journal_head=head)
    club.journal_length, club.journal_head = length, head
    from ledger.clubs.projections.projections import rebuild_standings

    games: set[str] = set()
    for competition in Competition.objects.filter(pk__in=touched).order_by("pk"):
        rebuild_standings(competition)
        games.add(competition.game)
    for game in sorted(games):
        transaction.on_commit(partial(jobs.enqueue, jobs.RECOMPUTE_RATINGS, club.pk, game))
    return Imported(
        club=club,
        lines=lines,
        rows={k: t.written for k, t in tables.items()},
        journal_length=length,
        appended=length - since[0],
    )


# ---------------------------------------------------------------------------------------
# Proof on arrival


RATING_MODEL = PlackettLuce()

_ARRIVAL_SQL = """
SELECT e.sequence, e.competition_id, e.result_id, e.seat, e.player_id, e.points, e.kind,
       e.prev_hash, e.hash, r.scores, r.verdict, r.status, c.game,
       t.round_id, e.penalty_id, p.round_id, p.kind
FROM clubs_entry e
LEFT JOIN clubs_result r ON r.id = e.result_id
JOIN clubs_competition c ON c.id = e.competition_id
LEFT JOIN clubs_table t ON t.id = e.table_id
LEFT JOIN clubs_penalty p ON p.id = e.penalty_id
WHERE e.club_id = %s ORDER BY e.sequence
"""


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str | bytes) else value


def prove_arrival(
    club: Club,
    standings: dict[tuple[int, int], tuple[str, int, int, int, int]],
    ratings: dict[tuple[str, int], tuple[float, float, int]],
) -> dict[int, dict[tuple[int, int], Any]]:
    """Read the journal back as written: its chain and head are the ones exported, and
    the standings and ratings rebuilt from it equal the file's. One pass in journal order,
    which also counts each competition's per-round totals (keyed by this database's round
    ids, so counted here and not brought): returned by competition."""
    from ledger.clubs.projections.totals import count_round_line, without_zeros

    rounds: dict[int, dict[tuple[int, int], Any]] = {}
    head, length = "", 0
    totals: dict[tuple[int, int], list[Any]] = {}
    rated: dict[tuple[str, int], list[Any]] = {}
    group: list[Any] = []  # the credit lines of the result being read
    result_id = None
    decided: list[str] = []
    fines = _Fines(club.pk)
    # Each line counts for the person its player now is, as the projections count it.
    steps = people.merged_into(None)
    cursor = connection.chunked_cursor()
    try:
        cursor.execute(_ARRIVAL_SQL, [club.pk])
        while True:
            batch = cursor.fetchmany(CHUNK)
            if not batch:
                break
            for (
                seq,
                comp,
                res,
                seat,
                player,
                points,
                kind,
                prev,
                digest,
                scores,
                verdict,
                status,
                game,
                table_round,
                penalty,
                penalty_round,
                penalty_kind,
            ) in batch:
                points = Decimal(str(points))
                length += 1
                if (
                    seq != length
                    or prev != head
                    or digest
                    != entry_hash(
                        prev_hash=head,
                        club_id=club.pk,
                        competition_id=comp,
                        sequence=seq,
                        result_id=res,
                        seat=seat,
                        player_id=player,
                        points=points,
                        kind=kind,
                    )
                ):
                    raise Refused(
                        _("the journal written here breaks at line #%(n)d") % {"n": length}
                    )
                head = digest
                player = people.resolve(player, steps)
                keyed = rounds.get(comp)
                if keyed is None:
                    keyed = rounds[comp] = {}
                if kind not in Entry.POINTS_ONLY and res != result_id:
                    _rate(group, rated, fines)
                    group = []
                    result_id = res
                    scores = _json(scores)
                    decided = outcomes(scores, _json(verdict))
                    if status == "accepted":
                        group = [game, res, scores, _json(verdict)]
                # (the person's, as the per-round totals count them: projections/totals.py)
                count_round_line(
                    keyed,
                    player,
                    seat,
                    points,
                    kind,
                    table_round,
                    penalty,
                    penalty_round,
                    penalty_kind,
                    decided,
                )
                if kind in Entry.POINTS_ONLY:
                    # A penalty or its cancellation: the player's points, no game played.
                    totals.setdefault((comp, player), [Decimal(0), 0, 0, 0, 0])[0] += points
                    continue
                step = 1 if kind == Entry.Kind.CREDIT else -1
                row = totals.setdefault((comp, player), [Decimal(0), 0, 0, 0, 0])
                row[0] += points
                row[1] += step
                if seat < len(decided):
                    row[2 + (WIN, DRAW, LOSS).index(decided[seat])] += step
                if group and kind == Entry.Kind.CREDIT:
                    group.append((seat, player))
        _rate(group, rated, fines)
    finally:
        cursor.close()
    if (length, head) != (club.journal_length, club.journal_head):
        raise Refused(_("the journal written here does not end at the exported head"))
    rebuilt = {
        key: (f"{p:.2f}", played, w, d, lost) for key, (p, played, w, d, lost) in totals.items()
    }
    exported = {key: (f"{Decimal(v[0]):.2f}", *v[1:]) for key, v in standings.items()}
    _same(_("standings"), exported, rebuilt)
    _same(
        _("ratings"),
        {key: tuple(v) for key, v in ratings.items()},
        {key: (mu, sigma, n) for key, (mu, sigma, n) in rated.items()},
    )
    return {comp: without_zeros(keyed) for comp, keyed in rounds.items()}


class _Fines(dict[str, dict[int, dict[int, Decimal]]]):
    """Per game, the penalties a club counts in its ratings, by result and player (as
    ratings.recompute applies them)."""

    def __init__(self, club_id: int) -> None:
        super().__init__()
        self.club_id = club_id

    def __missing__(self, game: str) -> dict[int, dict[int, Decimal]]:
        from ledger.clubs.ratings import rating_adjustments

        found = self[game] = rating_adjustments(self.club_id, game)
        return found


def _rate(group: list[Any], rated: dict[tuple[str, int], list[Any]], fines: _Fines) -> None:
    """Fold one accepted result into the replayed ratings, as ratings.recompute does."""
    if len(group) < 5:
        return
    game, result_id, scores, verdict, *seats = group
    players = [p for _s, p in sorted(seats)]
    if len(set(players)) < len(players):
        return  # one person in two seats, as ratings.rate_results
    fined = fines[game].get(result_id)
    if fined:
        seated = dict(seats)
        scores = [
            f"{Decimal(s) + fined.get(seated.get(i, 0), Decimal(0)):f}"
            for i, s in enumerate(scores)
        ]
    points = standing_order(scores, verdict)
    if len(players) < 2 or (len(set(points)) < 2 and len(players) > 2):
        return
    current = [
        rated.setdefault((game, p), [RATING_MODEL.mu, RATING_MODEL.sigma, 0]) for p in players
    ]
    for row, (mu, sigma) in zip(current, rate_match(current, points), strict=True):
        row[0], row[1], row[2] = mu, sigma, row[2] + 1


def _same(what: str, exported: dict[Any, Any], rebuilt: dict[Any, Any]) -> None:
    if exported == rebuilt:
        return
    for key in sorted(set(exported) | set(rebuilt), key=str):
        if exported.get(key) != rebuilt.get(key):
            raise Refused(
                _(
                    "the %(what)s rebuilt from the journal differ from the exported ones "
                    "(%(key)s: %(file)s in the file, %(journal)s from the journal)"
                )
                % {
                    "what": what,
                    "key": key,
                    "file": exported.get(key),
                    "journal": rebuilt.get(key),
                }
            )
