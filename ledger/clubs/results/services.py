"""Results: recording them, confirming them, disputing and correcting them, and the tables
they are played at. Every function here is one atomic transaction: it all happens or
nothing does.

Views and API endpoints validate their input's shape and call these; the rules about who
may do what live here and nowhere else. The journal lines a result writes are appended by
ledger/clubs/journal/journal.py, which folds them into the projections
(ledger/clubs/projections/projections.py: standings and per-round totals) in the same
transaction.
"""

from __future__ import annotations

import functools
import hashlib
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.contrib.auth.hashers import check_password, make_password
from django.db import IntegrityError, connection, transaction
from django.db.models import Case, F, Value, When
from django.dispatch import Signal
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ledger.clubs import events, jobs, webhooks
from ledger.clubs.errors import Conflict, Invalid, NotAllowed
from ledger.clubs.games import meta, table_sizes
from ledger.clubs.journal.journal import write as write_journal
from ledger.clubs.models import (
    Club,
    Competition,
    Dispute,
    Entry,
    Player,
    Result,
    Role,
    Round,
    SealOpening,
    Seat,
    Table,
    Webhook,
)
from ledger.clubs.office.roles import require_role
from ledger.clubs.outcomes import SettingsError, clean_settings, forfeit_verdict
from ledger.clubs.results import confirmers, previews
from ledger.clubs.results.selectors import pin_signers, sealed_blind
from ledger.clubs.scoring import Scored, score_result
from ledger.clubs.storage import groupcommit
from ledger.clubs.storage import rows as rows_module

log = logging.getLogger(__name__)

# How a correction, a ruling or a confirmation locks the rows it changes: only those rows
# (never the competition or club a select_related joins), and FOR NO KEY UPDATE, which the
# foreign-key checks of other writes (KEY SHARE on a result, a competition, the club) do
# not wait for. With the club's row locked first, a ruling waited for the standings rows a
# write held while that write waited for the club's journal head: a deadlock.
ROW_LOCK: dict[str, Any] = {"no_key": True, "of": ("self",)}
_ROW = ROW_LOCK


# How many games a new table of a competition may take (None: no limit). The competition's
# format settings decide (ledger/formats registers its reading when it loads:
# ``set_capacity_source``); the clubs know no format, so without one a table has no limit.
def _no_limit(competition: Competition) -> int | None:
    return None


_capacity_source: Callable[[Competition], int | None] = _no_limit


def set_capacity_source(source: Callable[[Competition], int | None]) -> None:
    global _capacity_source
    _capacity_source = source


def set_table_capacity(*, competition: Competition, capacity: int | None) -> None:
    """Give every table of the competition room for ``capacity`` games (None: no limit),
    when its settings change. A table that already holds more keeps what it holds and
    takes no more."""
    tables = Table.objects.filter(competition=competition)
    if capacity is None:
        tables.update(capacity=None)
        return
    tables.update(capacity=Case(When(games__gt=capacity, then=F("games")), default=Value(capacity)))


@transaction.atomic
def create_table(
    *,
    user: Any,
    competition: Competition,
    label: str,
    players: Sequence[Player],
    round: Round | None = None,
) -> Table:
    """A table of the competition with its players in seat order (seat 0 first)."""
    require_role(user, competition.club, Role.SCOREKEEPER)
    seat_counts = table_sizes(competition)
    if len(players) not in seat_counts:
        allowed = ", ".join(str(n) for n in seat_counts)
        raise Invalid(
            _("%(game)s is played by %(allowed)s players; this table has %(n)d.")
            % {"game": meta(competition.game).label, "allowed": allowed, "n": len(players)},
            fields={"players": [_("Give %(allowed)s players.") % {"allowed": allowed}]},
        )
    if len({p.pk for p in players}) != len(players):
        raise Invalid(
            _("A player can sit in only one seat of a table."),
            fields={"players": [_("A player appears twice.")]},
        )
    members = set(
        competition.club.memberships.filter(player__in=players).values_list("player_id", flat=True)
    )
    strangers = [p.name for p in players if p.pk not in members]
    if strangers:
        raise Invalid(
            _("Not members of %(club)s: %(names)s. Add them to the club first.")
            % {"club": competition.club.name, "names": ", ".join(strangers)},
            fields={"players": [_("Not a member: %(n)s") % {"n": n} for n in strangers]},
        )
    if round is not None and round.competition_id != competition.pk:
        raise Invalid(_("That round belongs to another competition."), fields={"round": ["?"]})
    table = Table.objects.create(
        competition=competition,
        round=round,
        totals_round=round.pk if round is not None else 0,
        label=label,
        created_by=user,
        capacity=_capacity_source(competition),
    )
    Seat.objects.bulk_create([Seat(table=table, index=i, player=p) for i, p in enumerate(players)])
    return table


def _check_players(table: Table, seated: dict[int, int], players: Sequence[Any] | None) -> None:
    """When the sender names who sat where, it must match the table."""
    if players is None:
        return
    if len(players) > len(seated):
        raise Invalid(
            _("Table %(t)s seats %(n)d players, but %(named)d were named.")
            % {"t": table.label, "n": len(seated), "named": len(players)},
            fields={"players": [_("Name one player per seat, in the seats' order.")]},
        )
    for i, player_id in enumerate(players):
        if player_id is not None and seated[i] != player_id:
            names = dict(
                Player.objects.filter(pk__in=[player_id, seated[i]]).values_list("pk", "name")
            )
            raise Invalid(
                _("%(named)s is not in seat %(seat)d of table %(t)s: %(there)s sits there.")
                % {
                    "named": names.get(player_id, _("The player named")),
                    "seat": i + 1,
                    "t": table.label,
                    "there": names.get(seated[i], "?"),
                },
                fields={"players": {str(i): [_("Not the player in this seat.")]}},
            )


def _check_table(table: Table, seated: dict[int, int], *, counts: bool) -> None:
    """The ledger's invariants of the table a result is written at, checked before the
    engine's work with what the write read already (docs/ledger.md, "Invariants"): the
    table's round is of its competition; its seats are numbered from the first with no
    gap, as many as the game is played by; and, for a result that takes a new place
    (``counts``: not a correction, which takes its old version's), the table has room
    for another game. The database holds the last one too, for writes that race."""
    round_competition = getattr(table, "round_competition", None)
    if round_competition is None and table.round_id is not None:
        round_competition = Round.objects.values_list("competition_id", flat=True).get(
            pk=table.round_id
        )
    if round_competition is not None and round_competition != table.competition_id:
        raise Invalid(
            _("Table %(t)s is in a round of another competition: no result can be written at it.")
            % {"t": table.label},
            fields={"table": [_("Its round is of another competition.")]},
        )
    game = meta(table.competition.game)
    sizes = table_sizes(table.competition)
    if sorted(seated) != list(range(len(seated))) or len(seated) not in sizes:
        raise Invalid(
            _(
                "Table %(t)s has %(n)d seats taken, and %(game)s is played by %(allowed)s: "
                "seat the table's players again before recording."
            )
            % {
                "t": table.label,
                "n": len(seated),
                "game": game.label,
                "allowed": ", ".join(str(n) for n in sizes),
            },
            fields={"table": [_("Its seats do not make a table of this game.")]},
        )
    if counts:
        _check_room(table)


class TableFull(Invalid):
    """The table has no room for another game."""


def _check_room(table: Table, *, fresh: bool = False) -> None:
    """Refuse a new result at a table with no room. The table's count may be older than
    the last write (a caller that kept it): a table that looks full is read again first."""
    capacity = getattr(table, "capacity", None)
    if capacity is None or table.games < capacity:
        return
    if not fresh:
        table.capacity, table.games = Table.objects.values_list("capacity", "games").get(
            pk=table.pk
        )
        _check_room(table, fresh=True)
        return
    raise TableFull(
        ngettext(
            "Table %(t)s has played its %(n)d game, as the competition's settings say: "
            "no other result can be added. Void the one entered by mistake, or correct it.",
            "Table %(t)s has played its %(n)d games, as the competition's settings say: "
            "no other result can be added. Void the one entered by mistake, or correct it.",
            capacity,
        )
        % {"t": table.label, "n": capacity},
        fields={"table": [_("No room for another game at this table.")]},
    )


# Sent before a table's new result is checked and scored; a receiver refuses the result by
# raising Invalid (the round clock of a tournament night does, once time is up). Rulings
# and corrections by a referee or an organiser are not asked.
result_requested = Signal()


def sender_key(user_id: int, source: str, key: str) -> str:
    """The idempotency key as stored: the client's key scoped by its sender (the login a
    session or API token acts for) and the result's source, hashed to a fixed length. Two
    senders never share a key, so nobody can take another's key ahead of time (the
    probe's ``Idempotency-Key: play-table-N``), and a key says nothing of whose it is."""
    scoped = f"{user_id}\x1f{source}\x1f{key}"
    return "k1:" + hashlib.sha256(scoped.encode("utf-8", "surrogatepass")).hexdigest()


def record_result(
    *,
    user: Any,
    table: Table,
    source: str,
    record: Any = None,
    scores: Sequence[Any] | None = None,
    players: Sequence[Any] | None = None,
    idempotency_key: str | None = None,
    fingerprint: str = "",
    origin: str | None = None,
    scored: Scored | None = None,
) -> tuple[Result, bool]:
    """Record what a table reports. Returns (result, created).

    A retry with the same idempotency key and the same body returns the first result;
    the same key with another body is a conflict. The engine decides the points:
    ``scored`` is its answer for this very input when the caller has it already (the
    score-entry page scored the form it shows), so that the engine runs once a write.
    """
    club = table.competition.club
    require_role(user, club, Role.SCOREKEEPER)
    result_requested.send(sender=Table, table=table, user=user)
    # Checked and scored before any transaction: the engine's work holds no lock.
    try:
        write = _prepare(
            user,
            table,
            source,
            record,
            scores,
            players,
            idempotency_key,
            fingerprint,
            origin=origin,
            scored=scored,
        )
    except TableFull:
        # The form or request sent again once its result filled the table: the first answer.
        if idempotency_key:
            scoped = sender_key(user.pk, origin or source, idempotency_key)
            earlier = _replay(club.pk, scoped, fingerprint)
            if earlier is not None:
                return earlier, False
        raise
    # Several requests of this process that arrive together share one transaction.
    if (
        not connection.in_atomic_block
        and groupcommit.enabled()
        and groupcommit.submit(write, _write_batch)
    ):
        return write.result, True
    return _write_alone(write, club.pk)


#: The results that keep a table's place: a forfeit is written only at a table without one.
_STANDING = (Result.Status.PENDING, Result.Status.ACCEPTED, Result.Status.DISPUTED)


def record_forfeit(
    *,
    user: Any,
    table: Table,
    forfeited: Sequence[int],
    reason: str,
    idempotency_key: str | None = None,
) -> Result:
    """A referee decides a table without a game: the seats in ``forfeited`` did not play
    (all of them: a double forfeit). The result is written through the one write path,
    accepted at once (a referee's decision has no second person to wait for), with the
    forfeit's own Outcome (``outcomes.forfeit_verdict``): the journal credits each seat 0
    game points and the standings count the players' win or loss; the reason is kept.

    Only at a table with no result waiting or counted: a game begun is corrected or voided
    first, so a forfeit never stands beside hands that were played."""
    club = table.competition.club
    require_role(user, club, Role.REFEREE)
    why = (reason or "").strip()
    if not why:
        raise Invalid(
            _("Say why the table was not played: the reason is kept with the forfeit."),
            fields={"reason": [_("Give the reason.")]},
        )
    if len(why) > 500:
        raise Invalid(_("Keep the reason to 500 characters."), fields={"reason": [_("Too long.")]})
    seated = _seats(table.pk)
    lost = sorted({int(s) for s in forfeited})
    if not lost or any(s not in seated for s in lost):
        raise Invalid(
            _("Choose who did not play: at least one of the table's seats."),
            fields={"forfeited": [_("Choose at least one seat of this table.")]},
        )
    if Result.objects.filter(table=table, status__in=_STANDING).exists():
        raise Conflict(
            _(
                "Table %(t)s has a result already: a forfeit decides a table nobody played. "
                "Void or correct that result first."
            )
            % {"t": table.label},
            fields={"forfeited": [_("The table has a result.")]},
        )
    verdict = forfeit_verdict(table.competition.game, len(seated), lost, why)
    scored = Scored([Decimal(0)] * len(seated), verdict)
    record = {"forfeited": lost, "reason": why}
    write = _prepare(
        user,
        table,
        Result.Source.FORFEIT,
        record,
        None,
        None,
        idempotency_key,
        "",
        scored=scored,
    )
    # A referee's decision counts at once, whatever the competition's confirmation.
    now = timezone.now()
    write.accept = True
    write.result.status = Result.Status.ACCEPTED
    write.result.confirmed_by, write.result.confirmed_at = user, now
    result, _created = _write_alone(write, club.pk)
    return result


def _write_alone(write: _Write, club_id: int) -> tuple[Result, bool]:
    # A retry is found by the unique key when the insert collides, not by a look-up before
    # every write: first attempts, by far the common case, cost one query less.
    write.reset()
    try:
        _write([write])
        return write.result, True
    except IntegrityError:
        # Another request with the same key won the race; answer as a retry would.
        key = write.result.idempotency_key
        if key:
            earlier = _replay(club_id, key, write.result.fingerprint)
            if earlier is not None:
                return earlier, False
        # Or another write took the table's last place meanwhile.
        table = write.result.table
        table.capacity, table.games = Table.objects.values_list("capacity", "games").get(
            pk=table.pk
        )
        _check_room(table, fresh=True)
        raise


def _write_batch(writes: Sequence[_Write]) -> bool:
    """Write a batch in one transaction. False when a unique key refused it (a repeated
    idempotency key): then each request writes alone and gets its own answer. Any other
    database error reaches every request of the batch."""
    try:
        _write(writes)
    except IntegrityError:
        return False
    return True


def _replay(club_id: int, key: str, fingerprint: str) -> Result | None:
    earlier = Result.objects.filter(club_id=club_id, idempotency_key=key).first()
    if earlier is None:
        return None
    if earlier.fingerprint != fingerprint:
        raise Conflict(
            _(
                "This Idempotency-Key was already used for a different result (#%(id)d). "
                "Use a new key for a new result."
            )
            % {"id": earlier.pk},
            fields={"Idempotency-Key": [_("Already used with another body.")]},
        )
    return earlier


class _Write:
    """A checked, scored result waiting to be written, with the seats it credits."""

    __slots__ = ("accept", "result", "seated")

    def __init__(self, result: Result, seated: dict[int, int], accept: bool) -> None:
        self.result, self.seated, self.accept = result, seated, accept

    def reset(self) -> None:
        """Forget what a failed transaction assigned, before writing again."""
        self.result.pk = None
        self.result._state.adding = True
        self.result.__dict__.pop("written_entries", None)


def _prepare(
    user: Any,
    table: Table,
    source: str,
    record: Any,
    scores: Sequence[Any] | None,
    players: Sequence[Any] | None,
    idempotency_key: str | None,
    fingerprint: str,
    force: bool = False,
    origin: str | None = None,
    scored: Scored | None = None,
) -> _Write:
    competition = table.competition
    seated = getattr(table, "seated", None)
    if seated is None:
        seated = _seats(table.pk)
    _check_table(table, seated, counts=not force)
    _check_players(table, seated, players)
    if scored is None or len(scored.scores) != len(seated) or not scored.finished:
        scored = score_result(
            game=competition.game,
            ruleset=competition.ruleset,
            seats=len(seated),
            source=source,
            record=record,
            explicit=scores,
            names=lambda: _names(seated),
        )
    accept = force or competition.confirmation == Competition.Confirmation.NONE
    now = timezone.now()
    result = Result(
        club_id=competition.club_id,
        competition=competition,
        table=table,
        record=record if record is not None else {},
        source=origin or source,
        scores=[f"{s:f}" for s in scored.scores],
        verdict=scored.verdict,
        entered_by=user,
        entered_at=now,
        idempotency_key=sender_key(user.pk, origin or source, idempotency_key)
        if idempotency_key
        else None,
        fingerprint=fingerprint,
        # Accepted at once when nobody has to confirm: written so, not updated after.
        status=Result.Status.ACCEPTED if accept else Result.Status.PENDING,
        confirmed_by=user if force else None,
        confirmed_at=now if force else None,
    )
    return _Write(result, seated, accept)


def _write(writes: Sequence[_Write]) -> None:
    """Insert results and credit the accepted ones, in a transaction of their own: a few
    statements for the whole batch, sent in two round trips (the second carries the
    journal lines and the commit, and the database chains the lines, so a club's journal
    head is held for no round trip at all); the results' ids come back with the first
    answer, the lines' once the commit is back."""
    deferred: list[Callable[[], None]] = []
    with rows_module.atomic():
        numbered = _insert_later([w.result for w in writes], first=[_games_taken(writes)])
        accepted = [w for w in writes if w.accept]
        if accepted:
            _credit_many(
                [(w.result, w.seated) for w in accepted], deferred=deferred, numbered=numbered
            )
        numbered()
    for finish in deferred:
        finish()
    for w in writes:
        if not w.accept:  # waits for a confirmation: those who may give it hear of it
            events.after_commit(events.RESULT_WAITING, result=w.result.pk)
    _recorded([w.result for w in writes if w.accept])


_RESULT_COLUMNS = (
    "club_id",
    "competition_id",
    "table_id",
    "record",
    "source",
    "status",
    "scores",
    "verdict",
    "entered_by_id",
    "entered_at",
    "confirmed_by_id",
    "confirmed_at",
    "reason",
    "supersedes_id",
    "idempotency_key",
    "fingerprint",
)


def _insert(results: Sequence[Result]) -> None:
    """INSERT results in a single statement (the ORM's save() costs several times more
    Python than the database spends on the row; this is the hottest write there is)."""
    _insert_later(results)()


def _games_taken(writes: Sequence[_Write]) -> rows_module.Statement:
    """The statement that counts the new results' places at their tables, to travel with
    their insert: one statement whatever the batch. A table with no room left makes it
    break the tables' check constraint (an IntegrityError), so a write that raced another
    for a table's last place is refused by the database, not written."""
    taken: dict[int, int] = {}
    for w in writes:
        taken[w.result.table_id] = taken.get(w.result.table_id, 0) + 1
    ops = connection.ops
    whens = " ".join(["WHEN %s THEN %s"] * len(taken))
    marks = ", ".join(["%s"] * len(taken))
    sql = (
        f"UPDATE {ops.quote_name(Table._meta.db_table)} SET games = games + CASE id {whens} "
        f"END WHERE id IN ({marks})"
    )
    params: list[Any] = [v for pair in taken.items() for v in pair] + list(taken)
    return sql, params


def _insert_later(
    results: Sequence[Result], first: Sequence[rows_module.Statement] = ()
) -> Callable[[], None]:
    """``_insert``, sent now; the returned function gives the results their ids (at once
    outside a pipeline, else with the next answer waited for). Calling it again does
    nothing. ``first``: writes that travel in the same statement (``rows.run``'s)."""
    ids = rows_module.insert_later(
        Result,
        _RESULT_COLUMNS,
        [[getattr(result, name) for name in _RESULT_COLUMNS] for result in results],
        suffix="RETURNING id",
        first=first,
    )
    done: list[bool] = []

    def number() -> None:
        if done:
            return
        done.append(True)
        for result, (pk,) in zip(results, ids(), strict=True):
            result.pk = pk
            result._state.adding = False
            result._state.db = connection.alias

    return number


def table_for_write(table_id: int, user: Any = None) -> Table | None:
    """A table with its competition and club, as a write needs them, in one plain query
    (the ORM's select_related costs more Python than the rest of recording a result). Only
    the fields a write reads are loaded; any other is read if something asks for it. With
    ``user``, the same query reads that user's role in the club, which the club then
    answers without asking again."""
    member = getattr(user, "is_authenticated", False) and not user.is_superuser
    found = rows_module.run(_table_sql(member), [user.pk, table_id] if member else [table_id])
    return table_from_rows(found, user if member else None)


@functools.cache
def _table_sql(member: bool) -> str:
    columns, joins = table_query("%s" if member else None)
    return (
        f"SELECT {', '.join(columns)} FROM {connection.ops.quote_name(Table._meta.db_table)} "
        f"t {joins} WHERE t.id = %s"
    )


_TABLE_WANTED: dict[Any, tuple[str, ...]] = {
    Table: (
        "id",
        "competition_id",
        "round_id",
        "totals_round",
        "label",
        "seat_points",
        "capacity",
        "games",
    ),
    Competition: ("id", "club_id", "game", "ruleset", "confirmation"),
    Club: ("id", "name"),
}
_TABLE_ALIASES = {Table: "t", Competition: "c", Club: "k"}


@functools.cache
def _table_plan() -> list[tuple[Any, list[Any]]]:
    return [
        (model, [f for f in model._meta.concrete_fields if f.attname in names])
        for model, names in _TABLE_WANTED.items()
    ]


@functools.cache
def table_query(user: str | None, outer: bool = False) -> tuple[list[str], str]:
    """The columns and joins of ``table_for_write``'s query, for a query that starts from
    the table as ``t``: the table's, competition's and club's fields, the role in the club
    of the user ``user`` gives (an SQL expression; None: no role), whether the club has a
    webhook to tell (so that a write need not ask again), then the seats, one row each.
    ``table_from_rows`` reads the rows, after any columns before these. ``outer``: outer
    joins, for a query where the table may be missing."""
    ops = connection.ops
    columns = [
        f"{_TABLE_ALIASES[model]}.{ops.quote_name(f.column)}"
        for model, fields in _table_plan()
        for f in fields
    ]
    if user is not None:
        columns.append(f"({Club.ROLE_QUERY.format(club='c.club_id', user=user)})")
    columns += [
        # The competition of the table's round, which must be the table's own.
        f"(SELECT r.competition_id FROM {ops.quote_name(Round._meta.db_table)} r "
        "WHERE r.id = t.round_id)",
        f"EXISTS (SELECT 1 FROM {ops.quote_name(Webhook._meta.db_table)} w "
        "WHERE w.club_id = c.club_id AND w.active)",
        f"s.{ops.quote_name('index')}",
        "s.player_id",
    ]
    join = "LEFT JOIN" if outer else "JOIN"
    joins = (
        f"{join} {ops.quote_name(Competition._meta.db_table)} c ON c.id = t.competition_id "
        f"{join} {ops.quote_name(Club._meta.db_table)} k ON k.id = c.club_id "
        f"LEFT JOIN {ops.quote_name(Seat._meta.db_table)} s ON s.table_id = t.id"
    )
    return columns, joins


def table_from_rows(found: Sequence[Sequence[Any]], user: Any = None, at: int = 0) -> Table | None:
    """The table of ``table_query``'s rows, whose columns start at ``at``; ``user`` when
    the query read that user's role. None when there are no rows or the table's id is
    empty (an outer join that found no table)."""
    if not found or found[0][at] is None:
        return None
    row = found[0]
    built: dict[Any, Any] = {}
    for model, fields in _table_plan():
        built[model] = rows_module.instance(model, fields, row[at : at + len(fields)])
        at += len(fields)
    table: Table = built[Table]
    competition: Competition = built[Competition]
    club: Club = built[Club]
    Competition.club.field.set_cached_value(competition, club)
    Table.competition.field.set_cached_value(table, competition)
    table.seated = {r[-2]: r[-1] for r in found if r[-2] is not None}
    table.hooked = bool(row[-3])
    table.round_competition = row[-4]
    if user is not None:
        club.known_roles = {user.pk: row[-5]}
    return table


def _names(seated: Mapping[int, int]) -> list[str]:
    """The players' names in seat order (for a message that names a seat)."""
    by_id = dict(Player.objects.filter(pk__in=seated.values()).values_list("pk", "name"))
    return [by_id.get(seated[i], "") for i in sorted(seated)]


def _seats(table_id: int) -> dict[int, int]:
    """Seat index -> player id of a table."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {connection.ops.quote_name('index')}, player_id FROM "
            f"{connection.ops.quote_name(Seat._meta.db_table)} WHERE table_id = %s",
            [table_id],
        )
        return dict(cursor.fetchall())


def _accept(result: Result, *, confirmed_by: Any) -> None:
    result.status = Result.Status.ACCEPTED
    result.confirmed_by = confirmed_by
    result.confirmed_at = timezone.now() if confirmed_by else None
    result.save(update_fields=["status", "confirmed_by", "confirmed_at"])
    _credit(result, dict(result.table.seats.values_list("index", "player_id")))
    _recorded([result])


def _recorded(results: Sequence[Result]) -> None:
    """Tell, after the commit, of results that now count (written accepted, or confirmed):
    the federation's rankings follow them (ledger/federation/listening.py)."""
    for result in results:
        events.after_commit(
            events.RESULT_RECORDED,
            result=result.pk,
            club=result.club_id,
            competition=result.competition_id,
        )


def _credit(result: Result, seats: dict[int, int]) -> None:
    _credit_many([(result, seats)])


def _credit_many(
    items: Sequence[tuple[Result, dict[int, int]]],
    deferred: list[Callable[[], None]] | None = None,
    numbered: Callable[[], None] | None = None,
) -> None:
    """Write accepted results' journal lines and fold them into standings and ratings.
    ``deferred`` as for the journal's ``_chain``; ``numbered``, when the results' ids are
    still on their way, gives them their ids (as ``_insert_later``'s function does)."""
    journal = [(result, credited(result, seats), Entry.Kind.CREDIT) for result, seats in items]
    now = timezone.now()
    written = write_journal(journal, now, rate=items, deferred=deferred, numbered=numbered)
    webhooks.announce_many("result.accepted", [result for result, _seated in items])
    for (result, _seated), entries in zip(items, written, strict=True):
        result.written_entries = entries


def credited(result: Result, seats: dict[int, int]) -> list[tuple[int, int, Decimal]]:
    """A result's journal lines as (seat, player, points): the points the hand gave each
    seat, except at a seat the table credits otherwise (a substitute's, whose points go
    to nobody or are a fixed score, as the competition said when the player was replaced)."""
    special = result.table.seat_points
    if not special:
        return [(i, seats[i], Decimal(points)) for i, points in enumerate(result.scores)]
    # The table's special credit is its substitute's: a hand credited to the player who sat
    # there before the replacement (a correction of an earlier hand) is credited as played.
    sitting = dict(Seat.objects.filter(table_id=result.table_id).values_list("index", "player_id"))
    out = []
    for i, points in enumerate(result.scores):
        if str(i) in special and sitting.get(i) == seats[i]:
            fixed = special[str(i)]
            out.append((i, seats[i], Decimal(fixed) if fixed is not None else Decimal(0)))
        else:
            out.append((i, seats[i], Decimal(points)))
    return out


def _may_confirm(user: Any, result: Result) -> None:
    """Two people check a result: never the one who entered it, never someone who played at
    the table for it (ledger/clubs/results/confirmers.py says who may)."""
    why = confirmers.refusal(user, result)
    if why is not None:
        raise NotAllowed(why)


def _pending(result: Result) -> Result:
    locked = (
        Result.objects.select_for_update(**_ROW).select_related("competition").get(pk=result.pk)
    )
    if locked.status != Result.Status.PENDING:
        raise Conflict(
            _("Only a pending result can be confirmed or contested; this one is %(s)s.")
            % {"s": locked.get_status_display()}
        )
    return locked


@transaction.atomic
def confirm_result(*, user: Any, result: Result) -> Result:
    """A second person (or, with sign-off at the table, a player seated there) confirms a
    pending result; never the one who entered it. Blind re-entry uses ``reenter_result``."""
    result = _pending(result)
    _may_confirm(user, result)
    if result.competition.confirmation == Competition.Confirmation.BLIND:
        raise Conflict(
            _("This competition confirms by blind re-entry: type the result again instead.")
        )
    _accept(result, confirmed_by=user)
    return result


@transaction.atomic
def confirm_results(*, user: Any, competition: Competition, ids: Sequence[int]) -> list[Result]:
    """Confirm several pending results of one competition together, in one write: every one
    of them counts, or (if any may not be confirmed by ``user`` or is no longer pending)
    none does and nothing is written."""
    if not ids:
        raise Invalid(
            _("Tick at least one result to confirm."), fields={"results": [_("Required.")]}
        )
    if competition.confirmation == Competition.Confirmation.BLIND:
        raise Conflict(
            _("This competition confirms by blind re-entry: type each result again instead.")
        )
    wanted = sorted({int(i) for i in ids})
    found = list(
        Result.objects.select_for_update(**_ROW)
        .filter(competition=competition, pk__in=wanted)
        .order_by("pk")
    )
    if len(found) != len(wanted):
        raise Conflict(_("Some of the ticked results are not in this competition."))
    for result in found:
        if result.status != Result.Status.PENDING:
            raise Conflict(
                _(
                    "Result #%(n)s is no longer waiting for confirmation (it is %(s)s): "
                    "nothing was confirmed."
                )
                % {"n": result.pk, "s": result.get_status_display()}
            )
        try:
            _may_confirm(user, result)
        except NotAllowed as exc:
            raise NotAllowed(
                _("Result #%(n)s: %(why)s Nothing was confirmed.")
                % {"n": result.pk, "why": exc.message}
            ) from exc
    now = timezone.now()
    for result in found:
        result.status = Result.Status.ACCEPTED
        result.confirmed_by = user
        result.confirmed_at = now
        result.save(update_fields=["status", "confirmed_by", "confirmed_at"])
    _credit_many([(r, dict(r.table.seats.values_list("index", "player_id"))) for r in found])
    _recorded(found)
    return found


PIN_DIGITS = (4, 6)


@transaction.atomic
def set_signoff_pin(*, user: Any, player: Player, pin: str) -> None:
    """A player sets (or, with an empty ``pin``, removes) their own sign-off PIN."""
    if not getattr(user, "is_authenticated", False) or player.user_id != user.pk:
        raise NotAllowed(_("Only the player themself sets their sign-off PIN."))
    pin = (pin or "").strip()
    if pin and not (pin.isdigit() and PIN_DIGITS[0] <= len(pin) <= PIN_DIGITS[1]):
        raise Invalid(_("The PIN is 4 to 6 digits."), fields={"pin": [_("Type 4 to 6 digits.")]})
    player.signoff_pin = make_password(pin) if pin else ""
    player.save(update_fields=["signoff_pin"])


def confirm_with_pin(*, result: Result, player: Player, pin: str) -> Result:
    """A seated player signs a pending result off on someone else's phone with their PIN:
    it is confirmed as them (rate limiting of wrong PINs is the caller's)."""
    if player not in pin_signers(result):
        raise NotAllowed(_("This player cannot sign this result off with a PIN."))
    if not (pin and check_password(pin.strip(), player.signoff_pin)):
        raise Invalid(
            _("Wrong PIN for %(name)s.") % {"name": player.name},
            fields={"pin": [_("Wrong PIN.")]},
        )
    return confirm_result(user=player.user, result=result)


@transaction.atomic
def reenter_result(
    *,
    user: Any,
    result: Result,
    source: str,
    record: Any = None,
    scores: Any = None,
    scored: Scored | None = None,
) -> tuple[Result, Dispute | None]:
    """Blind re-entry: the confirmer types the result again without seeing it. Equal scores
    accept it; different ones open a dispute holding both versions. ``scored``: the
    engine's answer for this input, when the page has it already."""
    result = _pending(result)
    _may_confirm(user, result)
    if SealOpening.objects.filter(result=result, opened_by_id=getattr(user, "pk", None)).exists():
        raise NotAllowed(
            _(
                "You opened this result before its second entry: someone who has not seen it "
                "must type it again."
            )
        )
    competition = result.competition
    seats = len(result.scores)
    if scored is None or len(scored.scores) != seats or not scored.finished:
        scored = score_result(
            game=competition.game,
            ruleset=competition.ruleset,
            seats=seats,
            source=source,
            record=record,
            explicit=scores,
            names=lambda: _names(_seats(result.table_id)),
        )
    again = [f"{x:f}" for x in scored.scores]
    if [Decimal(x) for x in again] == [Decimal(x) for x in result.scores]:
        _accept(result, confirmed_by=user)
        return result, None
    dispute = _open_dispute(
        result,
        user,
        _("The blind re-entry gave different scores."),
        {"record": record, "scores": again, "source": source},
    )
    return result, dispute


@transaction.atomic
def open_sealed_result(*, user: Any, result: Result, reason: str) -> SealOpening | None:
    """A referee opens a pending blind result before its second entry: it is written down
    (who, when, why) and only then may they read it; they can no longer be its blind second
    entry. None when the result is not sealed that way (there is nothing to open)."""
    require_role(user, result.club, Role.REFEREE)
    locked = (
        Result.objects.select_for_update(**_ROW).select_related("competition").get(pk=result.pk)
    )
    if not sealed_blind(locked):
        return None
    if not reason.strip():
        raise Invalid(
            _("Say why you open this result before its blind second entry."),
            fields={"reason": [_("Required.")]},
        )
    log.warning(
        "sealed result %s opened before its blind second entry by user %s",
        locked.pk,
        getattr(user, "pk", None),
    )
    return SealOpening.objects.create(result=locked, opened_by=user, reason=reason.strip())


@transaction.atomic
def dispute_result(*, user: Any, result: Result, reason: str) -> Dispute:
    """A player at the table or a scorekeeper contests a pending result."""
    result = _pending(result)
    seated = result.table.seats.filter(player__user=user).exists()
    if not seated:
        require_role(user, result.club, Role.SCOREKEEPER)
    if not reason.strip():
        raise Invalid(
            _("Say what is wrong with the result, for the referee."),
            fields={"reason": [_("Required.")]},
        )
    return _open_dispute(result, user, reason.strip(), None)


def _open_dispute(result: Result, user: Any, reason: str, other: dict[str, Any] | None) -> Dispute:
    result.status = Result.Status.DISPUTED
    result.save(update_fields=["status"])
    events.after_commit(events.RESULT_CHANGED, result=result.pk, change="contested")
    return Dispute.objects.create(
        result=result,
        opened_by=user,
        reason=reason,
        other_record=other["record"] if other else None,
        other_scores=other["scores"] if other else None,
        other_source=other["source"] if other else "",
    )


@transaction.atomic
def rule_dispute(
    *,
    user: Any,
    dispute: Dispute,
    ruling: str,
    note: str = "",
    source: str = "",
    record: Any = None,
    scores: Any = None,
) -> Result:
    """A referee settles a dispute: the first version stands, the second does, or the
    referee's own. Returns the result that now counts."""
    dispute = Dispute.objects.select_for_update(**_ROW).select_related("result").get(pk=dispute.pk)
    require_role(user, dispute.result.club, Role.REFEREE)
    if dispute.ruling != Dispute.Ruling.OPEN:
        raise Conflict(_("This dispute was already ruled on."))
    if ruling == Dispute.Ruling.FIRST:
        result = Result.objects.select_for_update(**_ROW).get(pk=dispute.result_id)
        _accept(result, confirmed_by=user)
        _close_dispute(dispute, ruling, user, note, timezone.now())
        webhooks.announce("result.ruled", result)
        events.after_commit(events.RESULT_CHANGED, result=result.pk, change="ruled")
        return result
    if ruling not in (Dispute.Ruling.SECOND, Dispute.Ruling.NEW):
        raise Invalid(_("Unknown ruling “%(r)s”.") % {"r": ruling}, fields={"ruling": ["?"]})
    if ruling == Dispute.Ruling.SECOND:
        if dispute.other_scores is None:
            raise Invalid(_("This dispute has no second version; give the referee's own."))
        source, record, scores = (
            dispute.other_source,
            dispute.other_record,
            None if dispute.other_record else dispute.other_scores,
        )
    return correct(
        user=user,
        result=dispute.result,
        version=engine_version(user, dispute.result.table, source, record, scores),
        reason=note or dispute.reason,
        event="result.ruled",
        ruling=(ruling, note),
    )


@transaction.atomic
def supersede_result(
    *,
    user: Any,
    result: Result,
    source: str,
    record: Any = None,
    scores: Sequence[Any] | None = None,
    reason: str = "",
    scored: Scored | None = None,
) -> Result:
    """A correction: the old result stays, reversed in the journal; the new one counts
    at once (a referee's or organiser's correction needs no further confirmation).
    ``scored``: the engine's answer for this very input, when the caller has it already
    (the correction page scored the form it shows), so that the engine is not run again."""
    require_role(user, result.club, Role.REFEREE)
    version = engine_version(user, result.table, source, record, scores, scored)
    return correct(
        user=user, result=result, version=version, reason=reason, event="result.corrected"
    )


@transaction.atomic
def rewrite_result(
    *,
    user: Any,
    result: Result,
    lines: Sequence[tuple[int, int, Decimal]],
    reason: str,
    role: str = Role.ORGANISER,
) -> Result:
    """The same hand (record, scores, verdict) written again with other players in its
    seats, as (seat, player id, points credited): a re-seated table, a substitute from a
    given hand. A correction (``correct``) whose new version is the old one's, credited
    as ``lines`` say."""
    return correct(
        user=user,
        result=result,
        version=None,
        lines=lines,
        reason=reason,
        event="result.corrected",
        role=role,
    )


def _credits_of(result: Result) -> list[tuple[int, int, Decimal]]:
    """What a counted result's journal credited, as (seat, player, points): the players
    the journal credited, whoever sits at the table now. A correction reverses each line."""
    return list(
        result.entries.filter(kind=Entry.Kind.CREDIT)
        .order_by("seat")
        .values_list("seat", "player_id", "points")
    )


@transaction.atomic
def void_result(*, user: Any, result: Result, reason: str) -> Result:
    """An organiser or referee takes a result back: entered twice, at the wrong table, a
    game that never happened. Nothing is deleted and nothing replaces it: a counted
    result's credits are reversed in the journal (standings, per-round totals and ratings
    follow), the result is marked voided with who, when and why, and an open dispute on it
    is closed. A result still waiting (pending or disputed) credited nothing, so it is only
    marked. A correction (``correct``) with no new version."""
    voided = correct(
        user=user, result=result, version=None, reason=(reason or "").strip(), event="result.voided"
    )
    result.status, result.voided_by, result.voided_at, result.void_reason = (
        voided.status,
        voided.voided_by,
        voided.voided_at,
        voided.void_reason,
    )
    return voided


@dataclass(frozen=True)
class Version:
    """A correction's new version of a hand: how it was given, its record, each seat's
    points and the engine's verdict (``engine_version`` asks the engine; a referee's
    ruling gives its own scores)."""

    source: str
    record: Any
    scores: Sequence[Decimal]
    verdict: dict[str, Any] | None


def engine_version(
    user: Any,
    table: Table,
    source: str,
    record: Any,
    scores: Sequence[Any] | None,
    scored: Scored | None = None,
) -> Version:
    """The version a correction writes for this input, checked and scored by the engine
    as a new result at ``table`` would be (``scored``: its answer already at hand)."""
    write = _prepare(user, table, source, record, scores, None, None, "", force=True, scored=scored)
    made = write.result
    return Version(made.source, made.record, [Decimal(s) for s in made.scores], made.verdict)


def _close_dispute(dispute: Dispute, ruling: str, user: Any, note: str, now: Any) -> None:
    dispute.ruling = ruling
    dispute.ruled_by = user
    dispute.ruled_at = now
    dispute.note = note
    dispute.save(update_fields=["ruling", "ruled_by", "ruled_at", "note"])


def correct(
    *,
    user: Any,
    result: Result,
    version: Version | None,
    reason: str,
    event: str,
    lines: Sequence[tuple[int, int, Decimal]] | None = None,
    ruling: tuple[str, str] | None = None,
    role: str = Role.REFEREE,
) -> Result:
    """The one way a written result is changed: a correction, a ruling on a dispute, the
    referee desk's ruling, a void, and a hand written again for other seats all come here,
    inside the caller's transaction. Returns the version that counts now (the voided
    result, for a void).

    ``result`` is locked; a result already corrected or voided is refused. The version
    that counted is reversed line by line, and the new one credited to the people who
    played the hand (those the counted version credited, even when a substitute has taken
    a seat since; the table's seats for a hand that had not counted yet) or as ``lines``
    say (a hand written again: ``version`` None, and the new version is the old one's),
    both in one journal write. With ``version`` and ``lines`` both None the result is
    voided: marked so with who, when and ``reason``, nothing replacing it, its place at
    the table freed. A correction takes the old version's place, so the table's room is
    neither checked nor counted. An open dispute on the result is closed (``ruling``: its
    ruling and note; else "referee's own version", or "result voided"). Then the club's
    webhooks hear ``event`` and the game's ratings are replayed after the commit (a
    correction changes the order of every later result)."""
    old = (
        Result.objects.select_for_update(**_ROW)
        .select_related("club", "competition", "table")
        .get(pk=result.pk)
    )
    require_role(user, old.club, role)
    voiding = version is None and lines is None
    if voiding and not reason:
        raise Invalid(
            _("Say why the result is voided: the reason is kept with it."),
            fields={"reason": [_("Required.")]},
        )
    if old.status == Result.Status.SUPERSEDED:
        raise Conflict(
            _("This result was replaced by a correction: void its newest version instead.")
            if voiding
            else _("This result was already corrected; correct the newest version.")
        )
    if old.status == Result.Status.VOIDED:
        raise Conflict(_("This result was already voided."))
    counted = old.status == Result.Status.ACCEPTED
    # Only a disputed result has an open dispute to close.
    disputed = old.status == Result.Status.DISPUTED
    if lines is not None:
        if not counted:
            raise Conflict(_("Only a hand that counts can be written again."))
        if sorted(seat for seat, _p, _x in lines) != list(range(len(old.scores))):
            raise Invalid(_("Give every seat of the hand once."), fields={"lines": ["?"]})
    now = timezone.now()
    played = _credits_of(old) if counted else []
    journal: list[tuple[Result, Sequence[tuple[int, int, Decimal]], str]] = []
    if played:
        journal.append(
            (old, [(seat, player, -points) for seat, player, points in played], Entry.Kind.REVERSAL)
        )
    counting = old
    if voiding:
        # Its place at the table is free again.
        Table.objects.filter(pk=old.table_id).update(games=F("games") - 1)
        old.status = Result.Status.VOIDED
        old.voided_by, old.voided_at, old.void_reason = user, now, reason
        old.save(update_fields=["status", "voided_by", "voided_at", "void_reason"])
    else:
        old.status = Result.Status.SUPERSEDED
        old.save(update_fields=["status"])
        if version is None:
            version = Version(old.source, old.record, [Decimal(s) for s in old.scores], old.verdict)
        counting = Result(
            club_id=old.club_id,
            competition=old.competition,
            table=old.table,
            record=version.record if version.record is not None else {},
            source=version.source,
            status=Result.Status.ACCEPTED,
            scores=[f"{Decimal(s):f}" for s in version.scores],
            verdict=version.verdict,
            entered_by=user,
            entered_at=now,
            confirmed_by=user,
            confirmed_at=now,
            reason=reason,
            supersedes=old,
        )
        _insert([counting])
        if lines is None:
            # The hand is credited to the people who played it.
            seats = {seat: player for seat, player, _points in played} or _seats(old.table_id)
            lines = credited(counting, seats)
        journal.append((counting, sorted(lines), Entry.Kind.CREDIT))
    if journal:
        write_journal(journal, now)
    dispute = (
        Dispute.objects.select_for_update(**_ROW)
        .filter(result=old, ruling=Dispute.Ruling.OPEN)
        .first()
        if disputed
        else None
    )
    if dispute is not None:
        ruled, note = ruling or (
            Dispute.Ruling.VOID if voiding else Dispute.Ruling.NEW,
            reason,
        )
        _close_dispute(dispute, ruled, user, note, now)
    if counted or not voiding:
        # Other software hears of the results that count: a new version, or one leaving.
        webhooks.announce(event, counting)
        club_id, game = old.club_id, old.competition.game
        transaction.on_commit(lambda: jobs.enqueue(jobs.RECOMPUTE_RATINGS, club_id, game))
    # The players of the hand hear of it (ledger/notify), a void of a waiting result too.
    change = "voided" if voiding else ("ruled" if event == "result.ruled" else "corrected")
    events.after_commit(events.RESULT_CHANGED, result=counting.pk, change=change)
    return counting


def preview_correction(
    *,
    user: Any,
    result: Result,
    source: str,
    record: Any = None,
    scores: Sequence[Any] | None = None,
    reason: str = "",
    scored: Scored | None = None,
) -> dict[str, Any]:
    """What a correction would change, without changing anything: ``supersede_result``
    itself runs in a savepoint that is rolled back, and the standings people read for the
    competition's format and the ratings are read before and after it
    (ledger/clubs/results/previews.py)."""
    found = previews.preview(
        result.competition,
        lambda: supersede_result(
            user=user,
            result=result,
            source=source,
            record=record,
            scores=scores,
            reason=reason,
            scored=scored,
        ),
        since=result.entered_at,
    )
    found["scores"] = list(found.pop("made").scores)
    return found


def preview_void(*, user: Any, result: Result, reason: str) -> dict[str, Any]:
    """What voiding ``result`` would change: ``void_result`` itself, rolled back."""
    found = previews.preview(
        result.competition,
        # A copy: void_result marks the object it is given, and this one is rolled back.
        lambda: void_result(user=user, result=Result.objects.get(pk=result.pk), reason=reason),
        since=result.entered_at,
    )
    found.pop("made")
    return found


@transaction.atomic
def update_standings_settings(*, user: Any, competition: Competition, settings: Any) -> Competition:
    """An organiser sets the points for a win, a draw and a loss and the standings' order.
    The projection counts wins, draws and losses, so the table follows at once; an empty
    object goes back to the game's defaults."""
    competition = Competition.objects.select_for_update().get(pk=competition.pk)
    require_role(user, competition.club, Role.ORGANISER)
    try:
        chosen = clean_settings(settings)
    except SettingsError as exc:
        raise Invalid(str(exc), fields={exc.field: [str(exc)]}) from exc
    competition.standings_settings = chosen
    competition.save(update_fields=["standings_settings"])
    return competition
