"""Writes of the digital tables. Each public function is one transaction.

A table is made with its seats (the creator, open seats for invited players, bots); once
every seat is taken the ledger's Table is made through clubs.results.services.create_table and the
game begins. Each move is checked by the engine, appended to the log and, when the game
ends, the full record goes to the ledger through clubs.results.services.record_result.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.core import RecordError
from games.core.engine import State
from games.core.fair import commitment
from games.core.verdict import violation
from ledger.clubs import events
from ledger.clubs.errors import Conflict, Invalid, NotAllowed, RuleViolation
from ledger.clubs.games import engine_available, meta, reader_language, turn_rule
from ledger.clubs.models import Club, Competition, Membership, Player, Role, Table
from ledger.clubs.office.roles import require_role
from ledger.clubs.results import services as ledger
from ledger.play import clocks, live, sealing
from ledger.play.models import GameTable, Move, PlaySeat, Takeback
from ledger.play.replay import bot_kinds, bot_seed, engine, make_bot, replay

ENGINE_USERNAME = "play-engine"
ME, OPEN = "me", "open"


def new_seed() -> int:
    """A deal's seed: the server's alone, from the operating system's secure source."""
    return secrets.randbits(62)


def result_key(table: GameTable) -> str:
    """The idempotency key of a table's result: the table's id and a MAC of it under the
    site's secret, so nobody can send a result ahead under the key of a future table."""
    mac = hmac.new(
        settings.SECRET_KEY.encode(), f"play-table:{table.pk}".encode(), hashlib.sha256
    ).hexdigest()
    return f"play-table-{table.pk}-{mac[:40]}"


def timeout() -> timedelta:
    return timedelta(minutes=int(getattr(settings, "PLAY_TABLE_TIMEOUT_MINUTES", 120)))


# --- selectors ---------------------------------------------------------------------------
def state_of(table: GameTable) -> State:
    return replayed(table)[0]


def replayed(table: GameTable) -> tuple[State, int]:
    """The table's state and the number of moves its log holds (taken back or not: the
    next move's step), read together: the table row's own count may be older, when a bot
    moved after the row was read. A move sent from a board answers that number, which a
    takeback never lowers, so a move's id is never one an earlier move used."""
    rows = moves_of(table, live=False)
    voided = voided_steps(table)
    moves = [(seat, action) for step, seat, action in rows if step not in voided]
    return replay(table.game, secrets_of(table)[1], moves), len(rows)


def version(table: GameTable) -> int:
    """A table row's version: its moves and agreed takebacks, one more at each change."""
    return table.moves_count + table.takebacks


def voided_steps(table: GameTable) -> set[int]:
    """The log's steps taken back at this practice table (none at any other)."""
    if not table.practice:
        return set()
    out: set[int] = set()
    for start, end in Takeback.objects.filter(
        table=table, status=Takeback.Status.ACCEPTED
    ).values_list("from_step", "to_step"):
        out.update(range(start, end or start))
    return out


# --- the sealed secrets of a running game (ledger/play/sealing.py) -------------------------
def secrets_of(table: GameTable) -> tuple[int, dict[str, Any]]:
    """The table's seed and deal: opened from ``sealed`` while the game runs."""
    if table.sealed:
        opened = sealing.unseal(table.sealed, sealing.table_place(table.pk))
        return int(opened["seed"]), opened["deal"]
    assert table.seed is not None and table.deal is not None
    return table.seed, table.deal


def moves_of(
    table: GameTable, last: int | None = None, live: bool = True
) -> list[tuple[int, int, Any]]:
    """(step, seat, action) of every move in order (the ``last`` ones only, if given),
    sealed ones opened; without the moves taken back unless ``live`` is False."""
    rows = table.moves.order_by("-step" if last else "step").values_list(
        "step", "seat", "action", "sealed"
    )
    found = list(rows[:last] if last else rows)
    if last:
        found.reverse()
    if live:
        voided = voided_steps(table)
        found = [row for row in found if row[0] not in voided]
    return [
        (step, seat, sealing.unseal(sealed, sealing.move_place(table.pk, step)) if sealed else a)
        for step, seat, a, sealed in found
    ]


def seal_table(table: GameTable, seed: int, deal: dict[str, Any]) -> None:
    """Keep a running table's seed and deal only sealed (the row must have its id)."""
    table.sealed = sealing.seal({"seed": seed, "deal": deal}, sealing.table_place(table.pk))
    table.seed, table.deal = None, None


def reveal(table: GameTable) -> None:
    """The game is over: its seed, deal and moves are written in clear, as evidence that
    anyone may replay (call it inside the transaction that ends the game)."""
    if table.sealed:
        table.seed, table.deal = secrets_of(table)
        table.sealed = ""
        table.save(update_fields=["seed", "deal", "sealed"])
    sealed = table.moves.exclude(sealed="").values_list("pk", "step", "sealed")
    opened = {
        pk: sealing.unseal(value, sealing.move_place(table.pk, step)) for pk, step, value in sealed
    }
    if opened:
        Move.objects.reveal(opened)


def reseal_running() -> int:
    """Seal the secrets of every running table again under the first sealing key, once a
    new key is listed first (docs/operations.md, key rotation). One transaction per table,
    which is locked as a move locks it. Returns the number of tables sealed again."""
    first = sealing.keys()[0][0]
    done = 0
    for pk in GameTable.objects.exclude(sealed="").values_list("pk", flat=True):
        with transaction.atomic():
            table = GameTable.objects.select_for_update().get(pk=pk)
            if not table.sealed:
                continue  # the game ended meanwhile
            if sealing.key_id(table.sealed) != first:
                seal_table(table, *secrets_of(table))
                table.save(update_fields=["sealed", "seed", "deal"])
            moves = table.moves.exclude(sealed="").values_list("pk", "step", "sealed")
            again = {
                pk: sealing.seal(
                    sealing.unseal(value, sealing.move_place(table.pk, step)),
                    sealing.move_place(table.pk, step),
                )
                for pk, step, value in moves
                if sealing.key_id(value) != first
            }
            if again:
                Move.objects.reseal(again)
            done += 1
    return done


def seat_of(table: GameTable, user: Any) -> PlaySeat | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return table.seats.filter(user=user).first()


def language() -> str:
    """The reader's language for the games' words (the one helper: clubs.games)."""
    return reader_language()


# --- helpers -----------------------------------------------------------------------------
def _player_of(user: Any, club: Club) -> Player:
    player: Player | None = (
        getattr(user, "player", None) if getattr(user, "is_authenticated", False) else None
    )
    if player is None:
        raise NotAllowed(
            _("Your login has no player yet: ask an organiser of %(club)s to link one.")
            % {"club": club.name}
        )
    if not Membership.objects.filter(club=club, player=player).exists():
        raise NotAllowed(
            _("Only members of %(club)s play at its tables: ask an organiser to add you.")
            % {"club": club.name}
        )
    return player


def engine_user(club: Club) -> Any:
    """The login that enters digital results: the engine refereed the game, nobody typed it.

    It has no usable password and no token, so nobody can log in as it; it holds the
    scorekeeper role that clubs.results.services asks of whoever records a result.
    """
    user_model = get_user_model()
    user, created = user_model.objects.get_or_create(username=ENGINE_USERNAME)
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    player = getattr(user, "player", None)
    if player is None:
        player = Player.objects.create(name="Arbitro digitale", user=user, automated=True)
    Membership.objects.get_or_create(club=club, player=player, defaults={"role": Role.SCOREKEEPER})
    return user


BOT_NAMES = {"random": "Bot casuale", "heuristic": "Bot euristico", "strong": "Bot forte"}


def bot_player(club: Club, kind: str, number: int) -> Player:
    """The club's player for a bot of this kind in the n-th bot seat of a table (a ledger
    table seats a player once, so three heuristic bots need three players)."""
    name = f"{BOT_NAMES.get(kind, 'Bot ' + kind)} {number}"
    player = Player.objects.filter(
        name=name, user__isnull=True, automated=True, memberships__club=club
    ).first()
    if player is None:
        player = Player.objects.create(name=name, automated=True)
        Membership.objects.create(club=club, player=player, role=Role.MEMBER)
    return player


def digital_competition(club: Club, game: str) -> Competition:
    """Where a table that belongs to no competition records its game: one per club and
    game, results counting at once."""
    slug = f"partite-digitali-{game}"
    found = Competition.objects.filter(club=club, slug=slug).first()
    if found is not None:
        return found
    return Competition.objects.create(
        club=club,
        slug=slug,
        name=f"Partite digitali: {meta(game).label}",
        game=game,
        format=Competition.Format.LEAGUE,
        confirmation=Competition.Confirmation.NONE,
    )


def _scheduled_seats(user: Any, club: Club, ledger_table: Table) -> list[str]:
    """The seats of a scheduled table: "me" for the creator's, "open" (kept for their
    player) for the others. Only a player of that table or a scorekeeper may open it."""
    if ledger_table.competition.club_id != club.pk:
        raise Invalid(_("That table belongs to another club."), fields={"ledger_table": ["?"]})
    player = _player_of(user, club)
    seated = list(ledger_table.seats.order_by("index").values_list("index", "player_id"))
    if player.pk not in {p for _i, p in seated}:
        raise NotAllowed(_("Only a player of that table can open it for a digital game."))
    return [ME if p == player.pk else OPEN for _i, p in seated]


def _locked(table: GameTable) -> GameTable:
    return GameTable.objects.select_for_update().get(pk=table.pk)


def _expire_if_stale(table: GameTable) -> bool:
    """Mark a table abandoned when nobody moved for longer than the timeout. The log stays."""
    if table.over or table.last_move_at > timezone.now() - timeout():
        return False
    table.status = GameTable.Status.ABANDONED
    table.ended_at = timezone.now()
    table.save(update_fields=["status", "ended_at"])
    reveal(table)
    live.announce_after_commit(table, "status")
    return True


def _refuse_if_over(table: GameTable) -> None:
    # The caller marked a stale table abandoned in a transaction of its own (this one may
    # roll back); a table that went stale in between is refused all the same.
    stale = not table.over and table.last_move_at <= timezone.now() - timeout()
    if table.status == GameTable.Status.ABANDONED and table.clock_flagged is not None:
        raise Conflict(_("Out of time: the game stopped there and was abandoned."))
    if stale or table.status == GameTable.Status.ABANDONED:
        raise Conflict(
            _("This table timed out after %(n)d minutes without a move; its log is kept.")
            % {"n": int(timeout().total_seconds() // 60)}
        )
    if table.status == GameTable.Status.FINISHED:
        raise Conflict(_("This game is over."))


# --- writes ------------------------------------------------------------------------------
@transaction.atomic
def create_table(
    *,
    user: Any,
    club: Club,
    game: str,
    seats: Sequence[str],
    ruleset: Any = None,
    competition: Competition | None = None,
    ledger_table: Table | None = None,
    label: str = "",
    seed: int | None = None,
    practice: bool = False,
    clock: dict[str, Any] | None = None,
) -> GameTable:
    """A new digital table. ``seats`` lists each seat: "me" (the creator, once), "open"
    (for a player invited by link) or a bot kind ("random", "heuristic").

    With ``ledger_table`` (a scheduled table of a competition) the seats are its players
    in its order: the creator sits in their own seat, the others' seats wait for them.

    The server chooses the deal. ``seed`` (a named deal) is for a ``practice`` table only,
    which counts nowhere; so is any table with bots, unless its competition lets the
    people's results at such tables count."""
    if seed is not None and not practice:
        raise Invalid(
            _("Only a practice table may replay a chosen deal: the server deals every other."),
            fields={"seed": [_("Leave it out, or make a practice table.")]},
        )
    if practice and (competition is not None or ledger_table is not None):
        raise Invalid(
            _("A practice table counts in no competition: leave the competition out."),
            fields={"competition": [_("Not for a practice table.")]},
        )
    if ledger_table is not None:
        competition = ledger_table.competition
        game = competition.game
        seats = _scheduled_seats(user, club, ledger_table)
    if not engine_available(game):
        raise Invalid(
            _("There is no rules engine for %(game)s here.") % {"game": game},
            fields={"game": [_("Choose a game with an engine.")]},
        )
    player = _player_of(user, club)
    if competition is not None and ledger_table is None:
        if competition.club_id != club.pk:
            raise Invalid(
                _("That competition belongs to another club."), fields={"competition": ["?"]}
            )
        if competition.game != game:
            raise Invalid(
                _("That competition plays %(game)s.") % {"game": competition.get_game_display()},
                fields={"competition": [_("Choose a competition of this game.")]},
            )
        # Putting a game into a competition's standings is a scorekeeper's decision.
        require_role(user, club, Role.SCOREKEEPER)
    if competition is not None:
        ruleset = competition.ruleset or ruleset
    rules_engine = engine(game)
    try:
        chosen = rules_engine.ruleset(ruleset or None)
    except RecordError as exc:
        said = rules_engine.read_error(exc).get(reader_language())
        raise Invalid(
            _("The ruleset is not valid: %(e)s") % {"e": said}, fields={"ruleset": [said]}
        ) from exc
    if len(seats) != chosen.seats:
        raise Invalid(
            _("The ruleset %(name)s is played by %(n)d players: give %(n)d seats.")
            % {"name": chosen.name, "n": chosen.seats},
            fields={"seats": [_("Expected %(n)d seats.") % {"n": chosen.seats}]},
        )
    kinds = [ME, OPEN, *bot_kinds(game)]
    for i, kind in enumerate(seats):
        if kind not in kinds:
            raise Invalid(
                _("Seat %(i)d: choose one of %(kinds)s.") % {"i": i + 1, "kinds": ", ".join(kinds)},
                fields={"seats": {str(i): [_("Unknown seat kind “%(k)s”.") % {"k": kind}]}},
            )
    if list(seats).count(ME) != 1:
        raise Invalid(
            _("Take exactly one seat yourself ('me')."),
            fields={"seats": [_("Exactly one seat is 'me'.")]},
        )
    with_bots = any(kind not in (ME, OPEN) for kind in seats)
    if with_bots and competition is not None:
        _refuse_bots_in(competition)
    if clock:
        clock = clocks.checked(
            str(clock.get("kind", "")), int(clock.get("seconds", 0)), int(clock.get("increment", 0))
        )
    named = seed is not None
    if seed is None:
        seed = new_seed()
    deal = rules_engine.new_game(chosen, seed).to_record()
    table = GameTable.objects.create(
        practice=practice or (with_bots and competition is None),
        named_deal=named,
        club=club,
        game=game,
        ruleset=deal.get("ruleset", {}),
        seed=None,
        deal=None,
        competition=competition,
        ledger_table=ledger_table,
        label=(label or (ledger_table.label if ledger_table else ""))[:40],
        created_by=user,
    )
    table.commitment = commitment(seed, table.pk)
    seal_table(table, seed, deal)
    clocks.setup(table, clock, chosen.seats)
    table.save(
        update_fields=[
            "commitment",
            "sealed",
            "clock_kind",
            "clock_seconds",
            "clock_increment",
            "clock_banks",
        ]
    )
    scheduled = dict(ledger_table.seats.values_list("index", "player_id")) if ledger_table else {}
    rows = []
    for i, kind in enumerate(seats):
        if kind == OPEN and i in scheduled:
            rows.append(PlaySeat(table=table, index=i, player_id=scheduled[i]))
        elif kind == ME:
            rows.append(
                PlaySeat(table=table, index=i, kind=PlaySeat.Kind.HUMAN, user=user, player=player)
            )
        elif kind == OPEN:
            rows.append(PlaySeat(table=table, index=i, kind=PlaySeat.Kind.OPEN))
        else:
            rows.append(PlaySeat(table=table, index=i, kind=kind))
    PlaySeat.objects.bulk_create(rows)
    _start_when_full(table)
    return table


def play_again(*, user: Any, table: GameTable) -> GameTable:
    """A new table like a finished one, for one who sat at it: the same game, ruleset,
    competition and label, the same bots in the same seats, the asker in their seat and the
    other people's seats open for them (the new table's invitation). A new deal, chosen by
    the server as always; a table scheduled by a competition is not repeated this way."""
    if table.status != GameTable.Status.FINISHED:
        raise Conflict(_("The game is not over yet."))
    if table.ledger_table_id is not None:
        raise Invalid(_("A competition's scheduled table is played once."))
    mine = seat_of(table, user)
    if mine is None:
        raise NotAllowed(_("Only a player of the table can start another game at it."))
    seats = []
    for seat in table.seats.order_by("index"):
        if seat.index == mine.index:
            seats.append(ME)
        elif seat.kind in (PlaySeat.Kind.HUMAN, PlaySeat.Kind.OPEN):
            seats.append(OPEN)
        else:
            seats.append(seat.kind)
    return create_table(
        user=user,
        club=table.club,
        game=table.game,
        seats=seats,
        ruleset=table.ruleset or None,
        competition=table.competition if not table.practice else None,
        label=table.label,
        clock=_clock_of(table),
    )


def _clock_of(table: GameTable) -> dict[str, Any] | None:
    if not table.clock_kind:
        return None
    return {
        "kind": table.clock_kind,
        "seconds": table.clock_seconds,
        "increment": table.clock_increment,
    }


def _refuse_bots_in(competition: Competition) -> None:
    if not competition.bot_tables_count:
        raise Invalid(
            _(
                "Games with bots count nowhere in %(competition)s: invite people to the open "
                "seats, or play with bots at a practice table."
            )
            % {"competition": competition.name},
            fields={"seats": [_("No bots at a table of this competition.")]},
        )


def join(*, user: Any, table: GameTable, invite: str, seat: int | None = None) -> PlaySeat:
    """Take an open seat with the table's invitation."""
    expire_stale_tables_for(table)
    with transaction.atomic():
        return _join(user, table, invite, seat)


def _join(user: Any, table: GameTable, invite: str, seat: int | None) -> PlaySeat:
    table = _locked(table)
    # As bytes: compare_digest refuses str with non-ASCII characters (a TypeError, a 500).
    if not secrets.compare_digest((invite or "").encode(), table.invite.encode()):
        raise NotAllowed(_("This invitation link is not valid for this table."))
    _refuse_if_over(table)
    mine = seat_of(table, user)
    if mine is not None:
        return mine
    if table.status != GameTable.Status.WAITING:
        raise Conflict(_("Every seat of this table is taken."))
    player = _player_of(user, table.club)
    open_seats = table.seats.select_for_update().filter(kind=PlaySeat.Kind.OPEN)
    if seat is not None:
        open_seats = open_seats.filter(index=seat)
    kept = open_seats.filter(player__isnull=False)
    if table.ledger_table_id is not None:
        # A scheduled table (the only kind with a ledger table while seats are open): each
        # player takes the seat the competition gave them.
        chosen = kept.filter(player=player).first()
        if chosen is None:
            raise NotAllowed(_("This table's seats are kept for the players it was made for."))
    else:
        chosen = open_seats.filter(player__isnull=True).order_by("index").first()
    if chosen is None:
        raise Conflict(
            _("Seat %(i)d is taken.") % {"i": seat + 1}
            if seat is not None
            else _("Every seat of this table is taken.")
        )
    chosen.kind, chosen.user, chosen.player = PlaySeat.Kind.HUMAN, user, player
    chosen.save(update_fields=["kind", "user", "player"])
    live.announce_after_commit(table, "seats")
    _start_when_full(table)
    return chosen


def fill_with_bots(*, user: Any, table: GameTable, kind: str) -> GameTable:
    """The creator gives every open seat to a bot, and the game begins."""
    expire_stale_tables_for(table)
    with transaction.atomic():
        return _fill_with_bots(user, table, kind)


def _fill_with_bots(user: Any, table: GameTable, kind: str) -> GameTable:
    table = _locked(table)
    if table.created_by_id != getattr(user, "pk", None):
        raise NotAllowed(_("Only the player who made this table can seat bots."))
    _refuse_if_over(table)
    if table.status != GameTable.Status.WAITING:
        raise Conflict(_("Every seat of this table is taken."))
    # While seats are open, only a scheduled table already has its ledger table.
    if table.ledger_table_id is not None:
        raise Conflict(
            _("The seats of a scheduled table are kept for its players: bots cannot take them.")
        )
    if kind not in bot_kinds(table.game):
        raise Invalid(
            _("Choose a bot: %(kinds)s.") % {"kinds": ", ".join(bot_kinds(table.game))},
            fields={"kind": [_("Unknown bot “%(k)s”.") % {"k": kind}]},
        )
    if table.competition is not None:
        _refuse_bots_in(table.competition)
    else:
        # A friendly table that bots join is practice: it counts nowhere.
        table.practice = True
        table.save(update_fields=["practice"])
    table.seats.filter(kind=PlaySeat.Kind.OPEN).update(kind=kind)
    _start_when_full(table)
    return table


def _start_when_full(table: GameTable) -> None:
    seats = list(table.seats.order_by("index"))
    if table.status != GameTable.Status.WAITING or any(s.kind == PlaySeat.Kind.OPEN for s in seats):
        return
    if table.practice:
        # Nothing goes to the ledger: the bots need no player, the game no ledger table.
        table.status = GameTable.Status.PLAYING
        table.last_move_at = timezone.now()
        _start_clock(table, state_of(table), table.last_move_at)
        table.save(update_fields=["status", "last_move_at", *clocks.FIELDS])
        live.announce_after_commit(table, "seats")
        _bots_after_commit(table)
        return
    club = table.club
    players = []
    numbers: dict[str, int] = {}
    for seat in seats:
        if seat.is_bot:
            numbers[seat.kind] = numbers.get(seat.kind, 0) + 1
            seat.player = bot_player(club, seat.kind, numbers[seat.kind])
            seat.save(update_fields=["player"])
        assert seat.player is not None
        players.append(seat.player)
    if table.ledger_table is None:
        competition = table.competition or digital_competition(club, table.game)
        table.ledger_table = ledger.create_table(
            user=engine_user(club),
            competition=competition,
            label=(table.label or _("Digital #%(n)d") % {"n": table.pk})[:40],
            players=players,
        )
    table.status = GameTable.Status.PLAYING
    table.last_move_at = timezone.now()
    _start_clock(table, state_of(table), table.last_move_at)
    table.save(update_fields=["ledger_table", "status", "last_move_at", *clocks.FIELDS])
    live.announce_after_commit(table, "seats")
    _bots_after_commit(table)


def _start_clock(table: GameTable, state: State, now: Any) -> None:
    if not table.clock_kind:
        return
    bots = {s.index for s in table.seats.all() if s.is_bot}
    clocks.start(table, None if state.is_over() else state.to_act(), bots, now)


def _bots_after_commit(table: GameTable) -> None:
    from ledger.play import tasks

    table_id = table.pk
    transaction.on_commit(lambda: tasks.play_bots.delay(table_id))


def turn_violation(table: GameTable, state: State, seat: int) -> dict[str, Any]:
    return violation(engine(table.game).rules, turn_rule(table.game), seat=seat).to_json()


def act(
    *,
    user: Any,
    table: GameTable,
    action: Any,
    move_id: str | None = None,
    seat: int | None = None,
) -> tuple[Move, bool]:
    """A human seat's move. Returns (move, created): a move id already seen returns the
    move it made, so a retry or a double click is applied once."""
    if move_id is not None and (not isinstance(move_id, str) or not 0 < len(move_id) <= 64):
        raise Invalid(_("A move id is a string of 1 to 64 characters."), fields={"move_id": ["?"]})
    expire_stale_tables_for(table)
    flagged = enforce_clock(table)
    try:
        with transaction.atomic():
            return _act(user, table, action, move_id, seat, flagged)
    except IntegrityError:
        # Two copies of one move raced past the lock-free check; the first one won.
        earlier = Move.objects.filter(table=table, client_move_id=move_id).first()
        if move_id and earlier is not None:
            return earlier, False
        raise


def _act(
    user: Any,
    table: GameTable,
    action: Any,
    move_id: str | None,
    seat: int | None,
    flagged: bool = False,
) -> tuple[Move, bool]:
    table = _locked(table)
    if move_id:
        earlier = table.moves.filter(client_move_id=move_id).first()
        if earlier is not None:
            return earlier, False
    mine = seat_of(table, user)
    if mine is None:
        raise NotAllowed(_("You do not sit at this table."))
    if seat is not None and seat != mine.index:
        raise NotAllowed(
            # Seats as people count them, from 1 (the engine's seat 0 is the first).
            _("You sit in seat %(mine)d, not %(seat)d.")
            % {"mine": mine.index + 1, "seat": seat + 1 if isinstance(seat, int) else 0}
        )
    _refuse_if_over(table)
    if flagged and table.clock_flagged == mine.index:
        # The move came after the seat's time ran out: its turn was played for it (the
        # game's rule), and the move is not carried over to whatever turn comes next.
        raise Conflict(_("Your time ran out: the heuristic bot played that turn for you."))
    if table.status == GameTable.Status.WAITING:
        raise Conflict(_("The game has not begun: some seats are still open."))
    if not isinstance(action, dict):
        raise Invalid(
            _("An action is a JSON object in the game's notation."), fields={"action": ["?"]}
        )
    game = engine(table.game)
    state = state_of(table)
    try:
        decoded = game.decode_step({**action, "seat": mine.index}, "action")[1]
    except RecordError as exc:
        said = game.read_error(exc, action, action=True).get(language())
        raise Invalid(
            _("The action cannot be read: %(e)s") % {"e": said}, fields={"action": [said]}
        ) from exc
    found = [v.to_json() for v in state.check(mine.index, decoded)]
    if not found and state.to_act() != mine.index:
        found = [turn_violation(table, state, mine.index)]
    if found:
        lang = language()
        # The rule's words only: its id stays in the API's violations, not in the message.
        text = "; ".join(v["message"].get(lang, "") for v in found)
        raise RuleViolation(text, fields={"action": [text]}, violations=found)
    move = _append(table, state, mine.index, decoded, by=user, move_id=move_id)
    if not table.over:
        _bots_after_commit(table)
    return move, True


def _append(
    table: GameTable,
    state: State,
    seat: int,
    decoded: Any,
    *,
    by: Any = None,
    bot: str = "",
    move_id: str | None = None,
) -> Move:
    game = engine(table.game)
    state.apply_unchecked(seat, decoded)
    encoded = game.encode_action(decoded)
    step = table.moves_count
    # Sealed like the deal while the game runs; reveal() opens it when the game is over.
    move = Move.objects.create(
        table=table,
        step=step,
        seat=seat,
        action=None if table.sealed else encoded,
        sealed=sealing.seal(encoded, sealing.move_place(table.pk, step)) if table.sealed else "",
        client_move_id=move_id or None,
        by=by,
        bot=bot,
    )
    table.moves_count += 1
    table.last_move_at = move.created_at
    clocks.stop(table, seat, move.created_at)
    _start_clock(table, state, move.created_at)
    table.save(update_fields=["moves_count", "last_move_at", *clocks.FIELDS])
    if state.is_over():
        _finish(table, state)
    else:  # the player whose turn it is hears of it later, if not at the table (ledger/notify)
        events.after_commit(events.TABLE_TURN, table=table.pk, move=table.moves_count)
    live.announce_after_commit(table)
    return move


def _finish(table: GameTable, state: State) -> None:
    """The finished game enters the ledger with its full record (once: the key is the
    table's, so a retried finish finds the first result). A practice game stays here."""
    if not table.practice:
        assert table.ledger_table is not None
        table.result, _created = ledger.record_result(
            user=engine_user(table.club),
            table=table.ledger_table,
            source="digital",
            record=state.to_record(),
            idempotency_key=result_key(table),
        )
    table.status = GameTable.Status.FINISHED
    table.ended_at = timezone.now()
    table.save(update_fields=["result", "status", "ended_at"])
    reveal(table)


def play_bots(table_id: int, limit: int | None = None) -> int:
    """Let the bots move while it is a bot's turn. Returns the number of moves made.

    A bot thinks without holding the table's lock (a strong bot may think half a second):
    its move is chosen from the state read outside any transaction, then applied under the
    lock only if the table still holds the moves it was chosen for; if anything moved
    meanwhile (a takeback, a clock, another worker) it thinks again from the new state."""
    made = 0
    table = GameTable.objects.get(pk=table_id)
    cap = limit if limit is not None else engine(table.game).info.max_actions
    stale = 0
    while made < cap and stale < 5:
        table = GameTable.objects.get(pk=table_id)
        if table.status != GameTable.Status.PLAYING:
            break
        bots = {s.index: s.kind for s in table.seats.all() if s.is_bot}
        state, seen = replayed(table)
        seat = state.to_act()
        if state.is_over() or seat is None or seat not in bots:
            break
        bot = make_bot(table.game, bots[seat], bot_seed(secrets_of(table)[0], seat, seen))
        taken_back = table.takebacks
        chosen = bot.choose(state, seat)
        with transaction.atomic():
            locked = _locked(table)
            if (
                locked.status != GameTable.Status.PLAYING
                or locked.moves_count != seen
                or locked.takebacks != taken_back
            ):
                stale += 1
                continue
            fresh = state_of(locked)
            if fresh.to_act() != seat or fresh.check(seat, chosen):
                stale += 1
                continue
            _append(locked, fresh, seat, chosen, bot=bots[seat])
            made += 1
    return made


def enforce_clock(table: GameTable) -> bool:
    """The server's decision on a table whose running turn is out of time (called on every
    board, move and socket message, and by the task ``check_clocks``): by the game's rule,
    the heuristic bot plays that turn for the seat, or the game is abandoned there. Returns
    whether a flag fell. A quick unlocked look first: most calls find nothing due."""
    if not clocks.due(table, timezone.now()):
        return False
    with transaction.atomic():
        locked = _locked(table)
        now = timezone.now()
        if not clocks.due(locked, now):
            return False
        seat = locked.clock_seat
        assert seat is not None
        state, seen = replayed(locked)
        locked.clock_flagged = seat
        if state.is_over() or state.to_act() != seat:
            # Nothing of this seat is due any more: run the clock of whoever is to act.
            _start_clock(locked, state, now)
            locked.save(update_fields=[*clocks.FIELDS])
            return False
        if engine(locked.game).info.on_flag == "abandon":
            locked.status = GameTable.Status.ABANDONED
            locked.ended_at = now
            locked.clock_seat, locked.clock_deadline = None, None
            locked.save(update_fields=["status", "ended_at", "clock_flagged", *clocks.FIELDS])
            reveal(locked)
            live.announce_after_commit(locked, "status")
            return True
        # The heuristic bot is quick (well under a millisecond a move): it plays under the
        # lock, so the turn it plays is the one that ran out.
        kind = "heuristic" if "heuristic" in bot_kinds(locked.game) else "random"
        bot = make_bot(locked.game, kind, bot_seed(secrets_of(locked)[0], seat, seen))
        locked.save(update_fields=["clock_flagged"])
        _append(locked, state, seat, bot.choose(state, seat), bot="clock")
        if not locked.over:
            _bots_after_commit(locked)
    table.refresh_from_db()
    return True


def decide_time(table_id: int) -> None:
    """What the server decides by the clock alone, before telling a socket where a table is
    (ledger/play/live.py): the same decisions as before a posted move (``act``): a table
    idle past the timeout is abandoned, a turn out of time is played or ends the game."""
    table = GameTable.objects.filter(pk=table_id).first()
    if table is None or table.over:
        return
    expire_stale_tables_for(table)
    enforce_clock(table)


def enforce_clocks() -> int:
    """Every table whose running turn is out of time, decided now (the periodic task)."""
    due = GameTable.objects.filter(
        status=GameTable.Status.PLAYING, clock_deadline__lte=timezone.now()
    ).only("pk")
    return sum(1 for t in due if enforce_clock(GameTable.objects.get(pk=t.pk)))


def expire_stale_tables_for(table: GameTable) -> bool:
    with transaction.atomic():
        return _expire_if_stale(_locked(table))


def expire_stale_tables() -> int:
    """Mark every table idle for longer than the timeout as abandoned (its log is kept)."""
    cutoff = timezone.now() - timeout()
    stale = GameTable.objects.filter(
        status__in=[GameTable.Status.WAITING, GameTable.Status.PLAYING], last_move_at__lt=cutoff
    )
    n = 0
    for table in stale.only("pk"):
        with transaction.atomic():
            if _expire_if_stale(_locked(table)):
                n += 1
    return n


# --- takebacks (practice tables only) -----------------------------------------------------
def pending_takeback(table: GameTable) -> Takeback | None:
    """The takeback asked and not yet answered, while the table is still where it was."""
    if not table.practice:
        return None
    found = Takeback.objects.filter(table=table, status=Takeback.Status.PENDING).last()
    if found is None or found.version != version(table):
        return None  # a move since lapsed it
    return found


def _last_own_step(table: GameTable, seat: int) -> int | None:
    mine = [step for step, s, _a in moves_of(table) if s == seat]
    return mine[-1] if mine else None


def can_take_back(table: GameTable, seat: PlaySeat) -> bool:
    return (
        table.practice
        and table.status == GameTable.Status.PLAYING
        and _last_own_step(table, seat.index) is not None
    )


@transaction.atomic
def ask_takeback(*, user: Any, table: GameTable) -> Takeback:
    """A player asks to take back their last move (and what followed it). Only at a
    practice table; the other people agree or refuse, bots agree at once."""
    table = _locked(table)
    mine = seat_of(table, user)
    if mine is None:
        raise NotAllowed(_("You do not sit at this table."))
    if not table.practice:
        raise Conflict(_("Moves are taken back only at practice tables: here every move stands."))
    _refuse_if_over(table)
    if table.status != GameTable.Status.PLAYING:
        raise Conflict(_("The game has not begun: some seats are still open."))
    if pending_takeback(table) is not None:
        raise Conflict(_("A takeback is already asked: wait for the answer."))
    step = _last_own_step(table, mine.index)
    if step is None:
        raise Conflict(_("You have no move to take back yet."))
    asked = Takeback.objects.create(
        table=table, seat=mine.index, version=version(table), from_step=step
    )
    people = [s.index for s in table.seats.all() if not s.is_bot and s.index != mine.index]
    if not people:
        _take_back(table, asked)
    else:
        live.announce_after_commit(table, "seats")
    return asked


@transaction.atomic
def answer_takeback(*, user: Any, table: GameTable, agree: bool) -> Takeback:
    table = _locked(table)
    mine = seat_of(table, user)
    if mine is None:
        raise NotAllowed(_("You do not sit at this table."))
    asked = pending_takeback(table)
    if asked is None:
        raise Conflict(_("No takeback is waiting for an answer: the game moved on."))
    if asked.seat == mine.index:
        raise NotAllowed(_("The others answer your own request."))
    answers = {**asked.answers, str(mine.index): bool(agree)}
    asked.answers = answers
    if not agree:
        asked.status = Takeback.Status.REFUSED
        asked.decided_at = timezone.now()
        asked.save(update_fields=["answers", "status", "decided_at"])
        live.announce_after_commit(table, "seats")
        return asked
    asked.save(update_fields=["answers"])
    people = [s.index for s in table.seats.all() if not s.is_bot and s.index != asked.seat]
    if all(answers.get(str(i)) for i in people):
        _take_back(table, asked)
    else:
        live.announce_after_commit(table, "seats")
    return asked


def _take_back(table: GameTable, asked: Takeback) -> None:
    """Void the log's steps from the asker's last move on; the state is the engine's replay
    of what remains, and the clock runs again for whoever is then to act."""
    asked.status = Takeback.Status.ACCEPTED
    asked.to_step = table.moves_count
    asked.decided_at = timezone.now()
    asked.save(update_fields=["status", "to_step", "decided_at"])
    table.takebacks += 1
    state = state_of(table)
    _start_clock(table, state, timezone.now())
    table.save(update_fields=["takebacks", *clocks.FIELDS])
    # As a change of seats: boards with as many moves in the log are drawn again too.
    live.announce_after_commit(table, "seats")
    _bots_after_commit(table)
