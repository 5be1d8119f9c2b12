"""Writes. Every function here is one atomic transaction: it all happens or nothing does.

Views and API endpoints validate their input's shape and call these; the rules about who
may do what, and what the journal must look like, live here and nowhere else.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable, Sequence
from decimal import Decimal
from typing import Any

import orjson
from django.contrib.auth.hashers import check_password, make_password
from django.db import IntegrityError, connection, transaction
from django.db.models import F, Value
from django.db.models.functions import Coalesce
from django.dispatch import Signal
from django.utils import timezone
from django.utils.translation import gettext as _

from ledger.clubs import checkpoints, groupcommit, ratings, signing, tasks, webhooks
from ledger.clubs import rows as rows_module
from ledger.clubs.errors import Conflict, Invalid, NotAllowed
from ledger.clubs.games import meta
from ledger.clubs.models import (
    Club,
    Competition,
    Dispute,
    Entry,
    Penalty,
    Player,
    Result,
    Role,
    Round,
    RoundTotal,
    Seat,
    Standing,
    Table,
    Webhook,
    entry_hash,
)
from ledger.clubs.outcomes import DRAW, LOSS, WIN, SettingsError, clean_settings, outcomes
from ledger.clubs.scoring import score_result
from ledger.clubs.standings import journal_totals

# How a correction, a ruling or a confirmation locks the rows it changes: only those rows
# (never the competition or club a select_related joins), and FOR NO KEY UPDATE, which the
# foreign-key checks of other writes (KEY SHARE on a result, a competition, the club) do
# not wait for. With the club's row locked first, a ruling waited for the standings rows a
# write held while that write waited for the club's journal head: a deadlock.
ROW_LOCK: dict[str, Any] = {"no_key": True, "of": ("self",)}
_ROW = ROW_LOCK


def require_role(user: Any, club: Any, role: str) -> None:
    if not club.allows(user, role):
        raise NotAllowed(
            _("You need the role '%(role)s' in %(club)s to do this.")
            % {"role": Role(role).label, "club": club.name}
        )


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
    seat_counts = meta(competition.game).seat_counts
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
    )
    Seat.objects.bulk_create([Seat(table=table, index=i, player=p) for i, p in enumerate(players)])
    return table


def _check_players(table: Table, seated: dict[int, int], players: Sequence[Any] | None) -> None:
    """When the sender names who sat where, it must match the table."""
    if players is None:
        return
    for i, player_id in enumerate(players):
        if i not in seated:
            raise Invalid(
                _("Table %(t)s has no seat %(i)d (seats are 0 to %(last)d).")
                % {"t": table.label, "i": i, "last": len(seated) - 1},
                fields={"players": {str(i): [_("Unknown seat.")]}},
            )
        if player_id is not None and seated[i] != player_id:
            raise Invalid(
                _("Player %(p)s is not in seat %(i)d of table %(t)s.")
                % {"p": player_id, "i": i, "t": table.label},
                fields={"players": {str(i): [_("Not the player in this seat.")]}},
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
) -> tuple[Result, bool]:
    """Record what a table reports. Returns (result, created).

    A retry with the same idempotency key and the same body returns the first result;
    the same key with another body is a conflict. The engine decides the points.
    """
    club = table.competition.club
    require_role(user, club, Role.SCOREKEEPER)
    result_requested.send(sender=Table, table=table, user=user)
    # Checked and scored before any transaction: the engine's work holds no lock.
    write = _prepare(
        user, table, source, record, scores, players, idempotency_key, fingerprint, origin=origin
    )
    # Several requests of this process that arrive together share one transaction.
    if (
        not connection.in_atomic_block
        and groupcommit.enabled()
        and groupcommit.submit(write, _write_batch)
    ):
        return write.result, True
    return _write_alone(write, club.pk)


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
) -> _Write:
    competition = table.competition
    seated = getattr(table, "seated", None)
    if seated is None:
        seated = _seats(table.pk)
    _check_players(table, seated, players)
    scored = score_result(
        game=competition.game,
        ruleset=competition.ruleset,
        seats=len(seated),
        source=source,
        record=record,
        explicit=scores,
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


def _record(
    user: Any,
    table: Table,
    source: str,
    record: Any,
    scores: Any,
    reversals: Sequence[tuple[Result, Sequence[tuple[int, int, Decimal]]]] = (),
) -> Result:
    """Check, score and write a referee's or organiser's result inside the caller's
    transaction: it counts at once, with no confirmation; ``reversals`` (of the result it
    corrects) are journaled in the same write."""
    write = _prepare(user, table, source, record, scores, None, None, "", force=True)
    _insert([write.result])
    _credit_many([(write.result, write.seated)], reversals)
    return write.result


def _write(writes: Sequence[_Write]) -> None:
    """Insert results and credit the accepted ones, in a transaction of their own: a few
    statements for the whole batch, sent in two round trips (the second carries the
    journal lines and the commit, and the database chains the lines, so a club's journal
    head is held for no round trip at all); the results' ids come back with the first
    answer, the lines' once the commit is back."""
    deferred: list[Callable[[], None]] = []
    with rows_module.atomic():
        numbered = _insert_later([w.result for w in writes])
        accepted = [w for w in writes if w.accept]
        if accepted:
            _credit_many(
                [(w.result, w.seated) for w in accepted], deferred=deferred, numbered=numbered
            )
        numbered()
    for finish in deferred:
        finish()


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


def _insert_later(results: Sequence[Result]) -> Callable[[], None]:
    """``_insert``, sent now; the returned function gives the results their ids (at once
    outside a pipeline, else with the next answer waited for). Calling it again does
    nothing."""
    ids = rows_module.insert_later(
        Result,
        _RESULT_COLUMNS,
        [[getattr(result, name) for name in _RESULT_COLUMNS] for result in results],
        suffix="RETURNING id",
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
    Table: ("id", "competition_id", "round_id", "totals_round", "label", "seat_points"),
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
    table, competition, club = built[Table], built[Competition], built[Club]
    Competition.club.field.set_cached_value(competition, club)
    Table.competition.field.set_cached_value(table, competition)
    table.seated = {r[-2]: r[-1] for r in found if r[-2] is not None}  # type: ignore[attr-defined]
    table.hooked = bool(row[-3])  # type: ignore[attr-defined]
    if user is not None:
        club.known_roles = {user.pk: row[-4]}  # type: ignore[attr-defined]
    return table


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


def _credit(result: Result, seats: dict[int, int]) -> None:
    _credit_many([(result, seats)])


def _credit_many(
    items: Sequence[tuple[Result, dict[int, int]]],
    reversals: Sequence[tuple[Result, Sequence[tuple[int, int, Decimal]]]] = (),
    deferred: list[Callable[[], None]] | None = None,
    numbered: Callable[[], None] | None = None,
) -> None:
    """Write accepted results' journal lines and fold them into standings and ratings;
    ``reversals`` (a correction's) are journaled first, in the same write. ``deferred``
    as for ``_chain``; ``numbered``, when the results' ids are still on their way, gives
    them their ids (as ``_insert_later``'s function does)."""
    journal = [(result, rows, Entry.Kind.REVERSAL) for result, rows in reversals] + [
        (result, credited(result, seats), Entry.Kind.CREDIT) for result, seats in items
    ]
    now = timezone.now()
    written = _journal(journal, now, rate=items, deferred=deferred, numbered=numbered)
    webhooks.announce_many("result.accepted", [result for result, _seated in items])
    for (result, _seated), entries in zip(items, written[len(reversals) :], strict=True):
        result.written_entries = entries  # type: ignore[attr-defined]


def credited(result: Result, seats: dict[int, int]) -> list[tuple[int, int, Decimal]]:
    """A result's journal lines as (seat, player, points): the points the hand gave each
    seat, except at a seat the table credits otherwise (a substitute's, whose points go
    to nobody or are a fixed score, as the competition said when the player was replaced)."""
    special = result.table.seat_points
    if not special:
        return [(i, seats[i], Decimal(points)) for i, points in enumerate(result.scores)]
    out = []
    for i, points in enumerate(result.scores):
        if str(i) in special:
            fixed = special[str(i)]
            out.append((i, seats[i], Decimal(fixed) if fixed is not None else Decimal(0)))
        else:
            out.append((i, seats[i], Decimal(points)))
    return out


def _may_confirm(user: Any, result: Result) -> None:
    """Scorekeepers confirm; with sign-off at the table, the players seated there may too.
    Never the person who entered the result."""
    if result.entered_by_id == user.pk:
        raise NotAllowed(_("Someone other than the person who entered a result must confirm it."))
    seated = result.table.seats.filter(player__user=user).exists()
    opponents = result.competition.confirmation == Competition.Confirmation.OPPONENTS
    if not (opponents and seated):
        require_role(user, result.club, Role.SCOREKEEPER)


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


def who_confirms(result: Result) -> str:
    """Who must confirm a pending result and why, in words for the result page."""
    mode = result.competition.confirmation
    who = result.entered_by.get_username() if result.entered_by_id else ""
    if mode == Competition.Confirmation.OPPONENTS:
        return _(
            "This competition has the players sign off at the table: any player seated here "
            "other than %(who)s, who entered it, or a scorekeeper of the club confirms it. "
            "Until then it does not count in the standings."
        ) % {"who": who}
    if mode == Competition.Confirmation.BLIND:
        return _(
            "This competition checks every result by blind re-entry: a scorekeeper other than "
            "%(who)s, who entered it, types it again without seeing it. It counts once the "
            "two entries agree."
        ) % {"who": who}
    return _(
        "This competition asks a second person to check every result: a scorekeeper or a "
        "referee other than %(who)s, who entered it, confirms it. Until then it does not "
        "count in the standings."
    ) % {"who": who}


def why_not_confirm(user: Any, result: Result) -> str | None:
    """None when ``user`` may confirm the pending ``result``; otherwise the reason, in words
    (the same rules as ``_may_confirm``)."""
    if not getattr(user, "is_authenticated", False):
        return _("Log in to confirm this result.")
    if result.entered_by_id == user.pk:
        return _(
            "You entered this result: someone else must confirm it, so that two people check it."
        )
    if result.club.allows(user, Role.SCOREKEEPER):
        return None
    seated = result.table.seats.filter(player__user=user).exists()
    if result.competition.confirmation == Competition.Confirmation.OPPONENTS:
        if seated:
            return None
        return _(
            "Only the players seated at this table or a scorekeeper of the club confirm it; "
            "you are neither."
        )
    if seated:
        return _(
            "You played at this table, and this competition does not let the players confirm "
            "their own results: a scorekeeper of the club confirms it."
        )
    return _("Only a scorekeeper or a referee of the club confirms results here.")
    return None


def confirmable(user: Any, competition: Competition) -> Any:
    """The pending results of ``competition`` that ``user`` may confirm with one tap (blind
    re-entry is typed one by one, so none there), oldest first."""
    mode = competition.confirmation
    if not getattr(user, "is_authenticated", False) or mode in (
        Competition.Confirmation.NONE,
        Competition.Confirmation.BLIND,
    ):
        return Result.objects.none()
    pending = (
        Result.objects.filter(competition=competition, status=Result.Status.PENDING)
        .exclude(entered_by=user)
        .select_related("table", "entered_by")
        .prefetch_related("table__seats__player")
        .order_by("entered_at", "pk")
    )
    if competition.club.allows(user, Role.SCOREKEEPER):
        return pending
    if mode == Competition.Confirmation.OPPONENTS:
        return pending.filter(table__seats__player__user=user).distinct()
    return Result.objects.none()


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


def pin_signers(result: Result) -> list[Player]:
    """The players seated at a pending result's table who may sign it off with their PIN
    (sign-off at the table, a login and a PIN of their own, not the one who entered it)."""
    if (
        result.status != Result.Status.PENDING
        or result.competition.confirmation != Competition.Confirmation.OPPONENTS
    ):
        return []
    return [
        seat.player
        for seat in result.table.seats.select_related("player").order_by("index")
        if seat.player.user_id
        and seat.player.signoff_pin
        and seat.player.user_id != result.entered_by_id
    ]


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
    *, user: Any, result: Result, source: str, record: Any = None, scores: Any = None
) -> tuple[Result, Dispute | None]:
    """Blind re-entry: the confirmer types the result again without seeing it. Equal scores
    accept it; different ones open a dispute holding both versions."""
    result = _pending(result)
    _may_confirm(user, result)
    competition = result.competition
    scored = score_result(
        game=competition.game,
        ruleset=competition.ruleset,
        seats=result.table.seats.count(),
        source=source,
        record=record,
        explicit=scores,
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
    result = Result.objects.select_for_update(**_ROW).get(pk=dispute.result_id)
    if ruling == Dispute.Ruling.FIRST:
        _accept(result, confirmed_by=user)
        counting = result
    elif ruling in (Dispute.Ruling.SECOND, Dispute.Ruling.NEW):
        if ruling == Dispute.Ruling.SECOND:
            if dispute.other_scores is None:
                raise Invalid(_("This dispute has no second version; give the referee's own."))
            source, record, scores = (
                dispute.other_source,
                dispute.other_record,
                None if dispute.other_record else dispute.other_scores,
            )
        result.status = Result.Status.SUPERSEDED
        result.save(update_fields=["status"])
        counting = _record(user, result.table, source, record, scores)
        counting.supersedes = result
        counting.reason = note or dispute.reason
        counting.confirmed_by = user
        counting.save(update_fields=["supersedes", "reason", "confirmed_by"])
    else:
        raise Invalid(_("Unknown ruling %(r)r.") % {"r": ruling}, fields={"ruling": ["?"]})
    dispute.ruling = ruling
    dispute.ruled_by = user
    dispute.ruled_at = timezone.now()
    dispute.note = note
    dispute.save(update_fields=["ruling", "ruled_by", "ruled_at", "note"])
    webhooks.announce("result.ruled", counting)
    return counting


@transaction.atomic
def supersede_result(
    *,
    user: Any,
    result: Result,
    source: str,
    record: Any = None,
    scores: Sequence[Any] | None = None,
    reason: str = "",
) -> Result:
    """A correction: the old result stays, reversed in the journal; the new one counts
    at once (a referee's or organiser's correction needs no further confirmation)."""
    old = Result.objects.select_for_update(**_ROW).get(pk=result.pk)
    require_role(user, old.club, Role.REFEREE)
    if old.status == Result.Status.SUPERSEDED:
        raise Conflict(_("This result was already corrected; correct the newest version."))
    reversal = []
    if old.status == Result.Status.ACCEPTED:
        credits = old.entries.filter(kind=Entry.Kind.CREDIT).order_by("seat")
        reversal = [(old, [(e.seat, e.player_id, -e.points) for e in credits])]
    old.status = Result.Status.SUPERSEDED
    old.save(update_fields=["status"])
    new = _record(user, old.table, source, record, scores, reversals=reversal)
    new.supersedes = old
    new.reason = reason
    new.save(update_fields=["supersedes", "reason"])
    webhooks.announce("result.corrected", new)
    # Ratings depend on the order of every later result: replay the game's history.
    club_id, game = old.club_id, old.competition.game
    transaction.on_commit(lambda: tasks.enqueue(tasks.recompute_ratings, club_id, game))
    return new


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
    given hand. The version that counted is reversed and the new one credited in one
    write; the result keeps its place among the table's hands through ``supersedes``."""
    old = (
        Result.objects.select_for_update()
        .select_related("club", "competition", "table")
        .get(pk=result.pk)
    )
    require_role(user, old.club, role)
    if old.status != Result.Status.ACCEPTED:
        raise Conflict(_("Only a hand that counts can be written again."))
    if sorted(seat for seat, _p, _x in lines) != list(range(len(old.scores))):
        raise Invalid(_("Give every seat of the hand once."), fields={"lines": ["?"]})
    credits = old.entries.filter(kind=Entry.Kind.CREDIT).order_by("seat")
    reversal = [(old, [(e.seat, e.player_id, -e.points) for e in credits])]
    old.status = Result.Status.SUPERSEDED
    old.save(update_fields=["status"])
    now = timezone.now()
    new = Result(
        club_id=old.club_id,
        competition=old.competition,
        table=old.table,
        record=old.record,
        source=old.source,
        status=Result.Status.ACCEPTED,
        scores=list(old.scores),
        verdict=old.verdict,
        entered_by=user,
        entered_at=now,
        confirmed_by=user,
        confirmed_at=now,
        reason=reason,
        supersedes=old,
    )
    _insert([new])
    ordered = sorted(lines)
    journal = [
        (old, reversal[0][1], Entry.Kind.REVERSAL),
        (
            new,
            [(seat, player, Decimal(points)) for seat, player, points in ordered],
            Entry.Kind.CREDIT,
        ),
    ]
    _journal(journal, now)
    webhooks.announce("result.corrected", new)
    club_id, game = old.club_id, old.competition.game
    transaction.on_commit(lambda: tasks.recompute_ratings.delay(club_id, game))
    return new


def append_entries(
    result: Result, rows: Sequence[tuple[int, int, Decimal]], kind: str
) -> list[Entry]:
    """Append journal lines for a result, extending its club's hash chain."""
    return journal_entries([(result, rows, kind)])[0]


def journal_entries(
    items: Sequence[tuple[Result, Sequence[tuple[int, int, Decimal]], str]],
) -> list[list[Entry]]:
    """Append the journal lines of several results (a correction's reversals and new
    credits, say) in one write: the order the write path takes its locks in, whatever
    the caller's order, so corrections and new results never wait for each other in a
    circle."""
    return [[line.as_entry() for line in lines] for lines in _journal(items, timezone.now())]


class Line:
    """A journal line just written: what an Entry holds, without a model instance's cost
    (the write path makes several per result)."""

    __slots__ = (
        "club_id",
        "competition_id",
        "created_at",
        "entered_by_id",
        "hash",
        "kind",
        "pk",
        "player_id",
        "points",
        "prev_hash",
        "result_id",
        "seal",
        "seat",
        "sequence",
        "source",
        "table_id",
    )

    def __init__(self, **values: Any) -> None:
        for name, value in values.items():
            setattr(self, name, value)

    def as_entry(self) -> Entry:
        entry = Entry(**{name: getattr(self, name) for name in self.__slots__})
        entry._state.adding = False
        return entry


_ENTRY_COLUMNS = (
    "club_id",
    "competition_id",
    "result_id",
    "table_id",
    "player_id",
    "seat",
    "points",
    "kind",
    "source",
    "entered_by_id",
    "created_at",
    "sequence",
    "prev_hash",
    "hash",
    "seal",
)


def _journal(
    items: Sequence[tuple[Result, Sequence[tuple[int, int, Decimal]], str]],
    now: Any,
    rate: Sequence[tuple[Result, dict[int, int]]] = (),
    deferred: list[Callable[[], None]] | None = None,
    numbered: Callable[[], None] | None = None,
) -> list[list[Line]]:
    """Journal the lines of several results, in order, with everything derived from them;
    the lines of each result are returned. ``numbered`` as for ``_credit_many``: called
    once the first answer is back, before anything needs the results' ids.

    Every write takes its locks in one order: the standings rows, the ratings rows (each
    set sorted), and last its club's journal head, held until the commit so that the
    chain never forks. The standings only add up, in any order; a player's ratings change
    in journal order, because a later write for the same player waits for the row until
    this one commits. Writes to one club queue only for the few statements after the head.
    """
    keys = _round_keys([result for result, _rows, _kind in items])
    _project(
        [
            (result.competition_id, rows, kind, outcomes(result.scores, result.verdict), key)
            for (result, rows, kind), key in zip(items, keys, strict=True)
        ],
        now,
    )
    # The new ratings and their history travel with the journal lines: the ratings' rows
    # are this write's already, so they take no lock there.
    pending = ratings.rate_results(rate, now, ready=numbered) if rate else []
    if numbered is not None:
        numbered()
    return _chain(items, now, deferred, first=pending)


def _chain(
    items: Sequence[tuple[Result, Sequence[tuple[int, int, Decimal]], str]],
    now: Any,
    deferred: list[Callable[[], None]] | None = None,
    first: Sequence[rows_module.Statement] = (),
) -> list[list[Line]]:
    """Append the lines to each club's hash chain, under the lock on the club's row. On
    PostgreSQL the database numbers and hashes them (``ledger_append``, migration 0010) in
    one statement, so the head is held for no round trip to this process; elsewhere three
    statements per club do, whatever the number of lines. With ``deferred``, the lines'
    numbers, hashes and ids are read by the functions it is given, to be called once the
    write's statements have all gone out (in a pipeline); without, before this returns.
    ``first``: writes to other tables, whose locks the transaction holds already (their
    order with the lines is the database's), that travel with the first club's lines."""
    written: list[list[Line]] = [[] for _ in items]
    clubs = sorted({result.club_id for result, _rows, _kind in items})
    chain = _chain_in_database if connection.vendor == "postgresql" else _chain_here
    for club_id in clubs:
        mine: list[Line] = []
        for n, (result, rows, kind) in enumerate(items):
            if result.club_id != club_id:
                continue
            for seat, player_id, points in rows:
                line = Line(
                    pk=None,
                    club_id=club_id,
                    competition_id=result.competition_id,
                    result_id=result.pk,
                    table_id=result.table_id,
                    player_id=player_id,
                    seat=seat,
                    points=Decimal(points),
                    kind=kind,
                    source=result.source,
                    entered_by_id=result.entered_by_id,
                    created_at=now,
                    sequence=None,
                    prev_hash=None,
                    hash=None,
                    seal=signing.seal(
                        club_id=club_id,
                        competition_id=result.competition_id,
                        result_id=result.pk,
                        table_id=result.table_id,
                        seat=seat,
                        player_id=player_id,
                        points=points,
                        kind=kind,
                    ),
                )
                written[n].append(line)
                mine.append(line)
        if not mine:
            continue
        finish = chain(club_id, mine, now, first)
        first = ()
        if deferred is None:
            finish()
        else:
            # Once committed, the club's new length may call for a checkpoint (a write
            # inside a caller's transaction is counted by the next write, whose length
            # includes its lines).
            deferred += (finish, functools.partial(_written, club_id, mine[-1]))
    rows_module.flush(first, wait=False)
    return written


def _written(club_id: int, last: Line) -> None:
    checkpoints.written(club_id, last.sequence)


def _chain_in_database(
    club_id: int, lines: list[Line], now: Any, first: Sequence[rows_module.Statement]
) -> Callable[[], None]:
    document = orjson.dumps(
        [
            {
                "competition_id": line.competition_id,
                "result_id": line.result_id,
                "table_id": line.table_id,
                "player_id": line.player_id,
                "seat": line.seat,
                "points": str(line.points),
                "shown": f"{line.points:.2f}",
                "kind": line.kind,
                "source": line.source,
                "entered_by_id": line.entered_by_id,
                "seal": line.seal,
            }
            for line in lines
        ]
    ).decode()
    appended = rows_module.later(
        "SELECT line_id, line_sequence, line_prev, line_hash FROM ledger_append(%s, %s, %s::json)",
        [club_id, now, document],
        first=first,
    )

    def finish() -> None:
        for line, (pk, sequence, prev_hash, digest) in zip(lines, appended(), strict=True):
            line.pk, line.sequence, line.prev_hash, line.hash = pk, sequence, prev_hash, digest

    return finish


def _chain_here(
    club_id: int, lines: list[Line], now: Any, first: Sequence[rows_module.Statement]
) -> Callable[[], None]:
    rows_module.flush(first)
    ops = connection.ops
    club_table = ops.quote_name(Club._meta.db_table)
    ((sequence, head),) = rows_module.run(
        f"SELECT journal_length, journal_head FROM {club_table} WHERE id = %s", [club_id]
    )
    params: list[list[Any]] = []
    for line in lines:
        sequence += 1
        digest = entry_hash(
            prev_hash=head,
            club_id=club_id,
            competition_id=line.competition_id,
            sequence=sequence,
            result_id=line.result_id,
            seat=line.seat,
            player_id=line.player_id,
            points=line.points,
            kind=line.kind,
        )
        line.sequence, line.prev_hash, line.hash = sequence, head, digest
        params.append([getattr(line, name) for name in _ENTRY_COLUMNS])
        head = digest
    ids = rows_module.insert_later(Entry, _ENTRY_COLUMNS, params, suffix="RETURNING id")
    rows_module.run(
        f"UPDATE {club_table} SET journal_length = %s, journal_head = %s WHERE id = %s",
        [sequence, head, club_id],
        wait=False,
    )

    def finish() -> None:
        for line, (pk,) in zip(lines, ids(), strict=True):
            line.pk = pk

    return finish


def _round_keys(results: Sequence[Result]) -> list[int]:
    """The round whose per-round totals each result's lines join: its table's
    ``totals_round`` (where that table's lines are counted until a read moves them), from
    the tables the write loaded when they carry it, otherwise one query for all."""
    keys: list[int | None] = []
    missing: set[int] = set()
    for result in results:
        table = result.table if Result.table.is_cached(result) else None
        if table is not None and "totals_round" in table.__dict__:
            keys.append(table.totals_round)
        else:
            keys.append(None)
            missing.add(result.table_id)
    if missing:
        found = dict(Table.objects.filter(pk__in=missing).values_list("pk", "totals_round"))
        return [
            k if k is not None else found.get(r.table_id) or 0
            for k, r in zip(keys, results, strict=True)
        ]
    return [k or 0 for k in keys]


def reconcile_moved_tables(competition_id: int) -> None:
    """Tables moved to another round (or out of a deleted one) since their lines were
    counted: their totals move to the round they are in now. One indexed read when none
    moved (the usual case); each moved table is locked, so two readers move it once."""
    moved = rows_module.run(
        f"SELECT id FROM {Table._meta.db_table} WHERE competition_id = %s "
        "AND COALESCE(round_id, 0) <> totals_round",
        [competition_id],
    )
    if not moved:
        return
    with transaction.atomic():
        # Tables with no journal lines (new ones, say) only take their round.
        Table.objects.filter(pk__in=[pk for (pk,) in moved]).exclude(
            pk__in=Entry.objects.filter(table_id__in=[pk for (pk,) in moved]).values("table_id")
        ).update(totals_round=Coalesce(F("round_id"), Value(0)))
        moved = rows_module.run(
            f"SELECT id FROM {Table._meta.db_table} WHERE competition_id = %s "
            "AND COALESCE(round_id, 0) <> totals_round",
            [competition_id],
        )
        for (table_id,) in moved:
            row = (
                Table.objects.select_for_update()
                .filter(pk=table_id)
                .values_list("round_id", "totals_round")
                .first()
            )
            if row is None or (row[0] or 0) == row[1]:
                continue
            move_table_totals(table_id, row[1], row[0] or 0)
            Table.objects.filter(pk=table_id).update(totals_round=row[0] or 0)


def _project(
    changes: Sequence[tuple[int, Sequence[tuple[int, int, Decimal]], str, Sequence[str], int]],
    now: Any,
) -> None:
    """Fold journal lines into the standings rows and the per-round totals with one upsert
    each, whatever the number of results and seats: new rows are inserted, existing ones
    add the change. ``changes`` holds (competition id, lines as (seat, player id, points),
    their kind, the outcome of each seat, the round's id the lines count in or 0)."""
    delta: dict[tuple[int, int], list[Any]] = {}
    by_round: dict[tuple[int, int, int], list[Any]] = {}
    for competition_id, lines, kind, seat_outcomes, round_key in changes:
        # A penalty's line moves the points only.
        step = 0 if kind in Entry.POINTS_ONLY else 1 if kind == Entry.Kind.CREDIT else -1
        for seat, player_id, points in lines:
            row = delta.setdefault((competition_id, player_id), [Decimal(0), 0, 0, 0, 0])
            per_round = by_round.setdefault(
                (competition_id, round_key, player_id), [Decimal(0), 0, 0, 0, 0]
            )
            for target in (row, per_round):
                target[0] += Decimal(points)
                target[1] += step
                if step and seat < len(seat_outcomes):
                    target[2 + (WIN, DRAW, LOSS).index(seat_outcomes[seat])] += step
    _project_rounds(by_round)
    if any(kind != Entry.Kind.CREDIT for _c, _l, kind, _o, _r in changes):
        # A correction updates some rows and upserts others: every row it touches is
        # locked first, in the order the upsert of any other write locks them.
        list(
            Standing.objects.select_for_update()
            .filter(competition_id__in={c for c, _p in delta}, player_id__in={p for _c, p in delta})
            .order_by("competition_id", "player_id")
            .values_list("pk", flat=True)
        )
    # Reversals only follow credits, so their rows exist: a plain update (a negative count
    # in an insert's values would trip the checks on the counters even when it never lands).
    for (competition_id, player_id), (points, played, wins, draws, losses) in sorted(delta.items()):
        if min(played, wins, draws, losses) < 0:
            Standing.objects.filter(competition_id=competition_id, player_id=player_id).update(
                points=F("points") + points,
                played=F("played") + played,
                wins=F("wins") + wins,
                draws=F("draws") + draws,
                losses=F("losses") + losses,
                updated_at=now,
            )
    credits = sorted((k, d) for k, d in delta.items() if min(d[1:]) >= 0)
    if not credits:
        return
    table = connection.ops.quote_name(Standing._meta.db_table)
    rows = [
        [competition_id, player_id, points, played, wins, draws, losses, now]
        for (competition_id, player_id), (points, played, wins, draws, losses) in credits
    ]
    # The same statement on PostgreSQL and SQLite (3.24 and later).
    rows_module.insert(
        Standing,
        (
            "competition_id",
            "player_id",
            "points",
            "played",
            "wins",
            "draws",
            "losses",
            "updated_at",
        ),
        rows,
        suffix=(
            "ON CONFLICT (competition_id, player_id) DO UPDATE SET "
            f"points = {table}.points + excluded.points, "
            f"played = {table}.played + excluded.played, "
            f"wins = {table}.wins + excluded.wins, "
            f"draws = {table}.draws + excluded.draws, "
            f"losses = {table}.losses + excluded.losses, "
            "updated_at = excluded.updated_at"
        ),
        wait=False,
    )


ROUND_TOTAL_COLUMNS = (
    "competition_id",
    "round_key",
    "player_id",
    "points",
    "played",
    "wins",
    "draws",
    "losses",
)


def _project_rounds(by_round: dict[tuple[int, int, int], list[Any]], *, wait: bool = False) -> None:
    """Add (competition, round key, player) -> [points, played, wins, draws, losses] to the
    per-round totals with one upsert. Their rows are locked after the standings rows of
    the same players (taken first by every write), so writes never wait in a circle."""
    if not by_round:
        return
    table = connection.ops.quote_name(RoundTotal._meta.db_table)
    rows_module.insert(
        RoundTotal,
        ROUND_TOTAL_COLUMNS,
        [[*key, *values] for key, values in sorted(by_round.items())],
        suffix=(
            "ON CONFLICT (competition_id, round_key, player_id) DO UPDATE SET "
            f"points = {table}.points + excluded.points, "
            f"played = {table}.played + excluded.played, "
            f"wins = {table}.wins + excluded.wins, "
            f"draws = {table}.draws + excluded.draws, "
            f"losses = {table}.losses + excluded.losses"
        ),
        wait=wait,
    )


def round_totals_from_journal(competition: Competition) -> dict[tuple[int, int], Any]:
    """Each (round key, player)'s totals summed from the competition's journal in one pass,
    as the per-round totals should hold them (rows all zero left out): a result's lines
    count in its table's round, a penalty's in the round it was given in (0: none)."""
    from ledger.clubs.outcomes import COUNTERS
    from ledger.clubs.standings import Totals

    decided = {
        pk: outcomes(scores, verdict)
        for pk, scores, verdict in Result.objects.filter(competition=competition).values_list(
            "pk", "scores", "verdict"
        )
    }
    keyed: dict[tuple[int, int], Totals] = {}
    lines = Entry.objects.filter(competition=competition).values_list(
        "player_id",
        "seat",
        "points",
        "kind",
        "result_id",
        "table__round_id",
        "penalty_id",
        "penalty__round_id",
    )
    for player_id, seat, points, kind, result_id, table_round, penalty, penalty_round in lines:
        key = (penalty_round if penalty is not None else table_round) or 0
        t = keyed.get((key, player_id))
        if t is None:
            t = keyed[(key, player_id)] = Totals()
        t.points += points
        if kind in Entry.POINTS_ONLY:
            continue
        step = 1 if kind == Entry.Kind.CREDIT else -1
        t.played += step
        seat_outcomes = decided.get(result_id, ())
        if seat < len(seat_outcomes):
            name = COUNTERS[seat_outcomes[seat]]
            setattr(t, name, getattr(t, name) + step)
    return {k: t for k, t in keyed.items() if t != Totals()}


def rebuild_round_totals(competition: Competition) -> None:
    """Recompute a competition's per-round totals from its journal (after a restore, or
    when a round is deleted and its tables fall out of every round)."""
    with transaction.atomic():
        Table.objects.filter(competition=competition).update(
            totals_round=Coalesce(F("round_id"), Value(0))
        )
        RoundTotal.objects.filter(competition=competition).delete()
        RoundTotal.objects.bulk_create(
            [
                RoundTotal(
                    competition=competition,
                    round_key=round_key,
                    player_id=player_id,
                    points=t.points,
                    played=t.played,
                    wins=t.wins,
                    draws=t.draws,
                    losses=t.losses,
                )
                for (round_key, player_id), t in sorted(
                    round_totals_from_journal(competition).items()
                )
            ]
        )


def move_table_totals(table_id: int, old_key: int, new_key: int) -> None:
    """A table moved from one round to another (keys: round ids, 0 for none): its journal
    lines' totals leave the old round's rows and join the new one's. Called as the table's
    round changes, in the same transaction."""
    from ledger.clubs.standings import journal_totals_of_table

    competition_id = (
        Table.objects.filter(pk=table_id).values_list("competition_id", flat=True).first()
    )
    if competition_id is not None and old_key != new_key:
        _move_totals(competition_id, journal_totals_of_table(table_id), old_key, new_key)


def move_penalty_totals(penalty_id: int, old_key: int, new_key: int) -> None:
    """As ``move_table_totals``, for a penalty's lines (its round deleted)."""
    from ledger.clubs.standings import journal_totals_of_penalty

    competition_id = (
        Penalty.objects.filter(pk=penalty_id).values_list("competition_id", flat=True).first()
    )
    if competition_id is not None and old_key != new_key:
        _move_totals(competition_id, journal_totals_of_penalty(penalty_id), old_key, new_key)


def _move_totals(competition_id: int, totals: dict[int, Any], old_key: int, new_key: int) -> None:
    if not totals:
        return
    list(
        Standing.objects.select_for_update()
        .filter(competition_id=competition_id, player_id__in=totals)
        .order_by("competition_id", "player_id")
        .values_list("pk", flat=True)
    )
    change: dict[tuple[int, int, int], list[Any]] = {}
    for player_id, t in totals.items():
        values = [t.points, t.played, t.wins, t.draws, t.losses]
        change[(competition_id, old_key, player_id)] = [-v for v in values]
        change[(competition_id, new_key, player_id)] = values
    _project_rounds(change, wait=True)


def rebuild_standings(competition: Competition) -> None:
    """Recompute a competition's standings and per-round totals from its journal (after a
    restore, say)."""
    with transaction.atomic():
        Competition.objects.select_for_update().get(pk=competition.pk)
        rebuild_round_totals(competition)
        Standing.objects.filter(competition=competition).delete()
        Standing.objects.bulk_create(
            [
                Standing(
                    competition=competition,
                    player_id=player_id,
                    points=t.points,
                    played=t.played,
                    wins=t.wins,
                    draws=t.draws,
                    losses=t.losses,
                )
                for player_id, t in journal_totals(competition).items()
            ]
        )


def verify_chain(club: Club) -> list[str]:
    """Every break in a club's hash chain, as sentences naming the first bad link; empty
    when the chain is intact."""
    problems = []
    head, expected = "", 0
    for entry in Entry.objects.filter(club=club).order_by("sequence").iterator():
        expected += 1
        if entry.sequence != expected:
            problems.append(
                _("%(club)s: entry %(n)d is missing") % {"club": club.slug, "n": expected}
            )
            expected = entry.sequence
        if entry.prev_hash != head:
            problems.append(
                _("%(club)s#%(n)d: the chain is broken before this entry")
                % {"club": club.slug, "n": entry.sequence}
            )
        if entry.compute_hash() != entry.hash:
            problems.append(
                _("%(club)s#%(n)d: altered after it was written")
                % {"club": club.slug, "n": entry.sequence}
            )
        head = entry.hash
    club.refresh_from_db(fields=["journal_length", "journal_head"])
    if (club.journal_length, club.journal_head) != (expected, head):
        problems.append(
            _("%(club)s: the journal's end does not match its recorded head") % {"club": club.slug}
        )
    return problems


def preview_correction(
    *,
    user: Any,
    result: Result,
    source: str,
    record: Any = None,
    scores: Sequence[Any] | None = None,
) -> dict[str, Any]:
    """What a correction would change downstream, without changing anything: it is applied
    inside a transaction that is always rolled back, and the standings and ratings are
    read before and after; what is read inside is kept in no cache."""
    from ledger.clubs import ratings as rating_module
    from ledger.clubs.models import Rating
    from ledger.clubs.standings import kept_nowhere, standings

    competition = result.competition

    def snapshot() -> tuple[dict[int, Any], dict[int, tuple[float, float]]]:
        rows = {r.player_id: r for r in standings(competition)}
        rated = {
            r.player_id: (r.mu, r.sigma)
            for r in Rating.objects.filter(club_id=result.club_id, game=competition.game)
        }
        return rows, rated

    class _Rollback(Exception):
        pass

    before_rows, before_ratings = snapshot()
    changes: dict[str, Any] = {}
    try:
        with kept_nowhere(), transaction.atomic():
            new = supersede_result(
                user=user, result=result, source=source, record=record, scores=scores
            )
            rating_module.recompute(result.club_id, competition.game)
            after_rows, after_ratings = snapshot()
            changes["scores"] = list(new.scores)
            raise _Rollback
    except _Rollback:
        pass
    names = dict(
        Player.objects.filter(pk__in=set(before_rows) | set(after_rows)).values_list("pk", "name")
    )
    table = []
    for player_id in set(before_rows) | set(after_rows):
        b, a = before_rows.get(player_id), after_rows.get(player_id)
        rb, ra = before_ratings.get(player_id), after_ratings.get(player_id)
        row = {
            "player": player_id,
            "name": names.get(player_id, ""),
            "rank_before": b.rank if b else None,
            "rank_after": a.rank if a else None,
            "points_before": b.points if b else Decimal(0),
            "points_after": a.points if a else Decimal(0),
            "rating_before": rb[0] if rb else None,
            "rating_after": ra[0] if ra else None,
        }
        if (
            row["rank_before"] != row["rank_after"]
            or row["points_before"] != row["points_after"]
            or (rb and ra and abs(rb[0] - ra[0]) > 1e-9)
        ):
            table.append(row)
    table.sort(key=lambda r: (r["rank_after"] or 10**9, r["name"]))
    later = Result.objects.filter(competition=competition, entered_at__gt=result.entered_at).count()
    return {"scores": changes.get("scores", []), "rows": table, "later_results": later}


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
