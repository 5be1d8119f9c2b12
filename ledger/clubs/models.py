"""The ledger's core: clubs, people, competitions, tables, results and the journal.

The journal (``Entry``) is append-only: one row per seat of an accepted result, chained by
hash within its competition. Corrections never edit a row; they add reversing entries and
new ones (see services.supersede_result). The model layer refuses updates and deletes, and
a database trigger refuses them too (migration 0002), so even raw SQL cannot rewrite history.
"""

from __future__ import annotations

import hashlib
from datetime import UTC
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledger.clubs.addresses import Refused, check_url
from ledger.clubs.games import label as game_label
from ledger.clubs.games import validate_game
from ledger.clubs.storage import rows


class Role(models.TextChoices):
    MEMBER = "member", _("Member")
    SCOREKEEPER = "scorekeeper", _("Scorekeeper")
    REFEREE = "referee", _("Referee")
    ORGANISER = "organiser", _("Organiser")


# Each role can do what the ones before it can: a referee also keeps score, an organiser
# also referees. One membership per person and club keeps the question "who may" simple.
ROLE_RANK = {Role.MEMBER: 0, Role.SCOREKEEPER: 1, Role.REFEREE: 2, Role.ORGANISER: 3}


class Club(models.Model):
    # Set on an instance read by a query with the user's role (services.table_from_rows, the
    # competition's page): {user id: role}, read back by getattr; and by the competition's
    # page, its latest signed checkpoint ({"length", "at"}) or None. Not fields.
    known_roles: dict[int, str]
    signed: dict[str, Any] | None

    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("short name"), unique=True)
    city = models.CharField(_("city"), max_length=80, blank=True)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    penalties_in_ratings = models.BooleanField(
        _("penalties count in the ratings"),
        default=False,
        help_text=_(
            "A penalty given at a table lowers the player's score in that table's hand "
            "when the ratings rank it."
        ),
    )
    contest_days = models.PositiveSmallIntegerField(
        _("days to contest a result"),
        default=7,
        help_text=_("How long after a result counts a player at its table may call the referee."),
    )
    # The head of this club's hash chain; the row is locked while entries are appended.
    journal_length = models.PositiveBigIntegerField(default=0, editable=False)
    journal_head = models.CharField(max_length=64, default="", editable=False)
    # The public keys of the installations the club was brought from, whose checkpoints it
    # keeps (ledger/clubs/journal/checkpoints.py): ``[{"public_key": hex, "voucher": hex}]``, each
    # vouched for by this installation's key when the club arrived in a file signed with it.
    earlier_keys = models.JSONField(default=list, blank=True, editable=False)

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name

    # A user's role in a club (``{club}``: the club's id, as SQL): the first membership of
    # the player linked to the login. Also read inside the table's query of a write.
    ROLE_QUERY = (
        "SELECT m.role FROM clubs_membership m JOIN clubs_player p ON p.id = m.player_id "
        "WHERE m.club_id = {club} AND p.user_id = {user} ORDER BY m.id LIMIT 1"
    )

    def role_of(self, user: Any) -> str | None:
        """The role this user holds here (None for strangers and anonymous visitors)."""
        if not getattr(user, "is_authenticated", False):
            return None
        held = self._held_by(user)
        # An API token acts for its login within its club and scope only.
        limit: TokenLimit | None = getattr(user, "token_limit", None)
        return held if limit is None else limit.cap(self.pk, held)

    def _held_by(self, user: Any) -> str | None:
        if user.is_superuser or getattr(getattr(user, "token_limit", None), "superuser", False):
            return Role.ORGANISER
        known: dict[int, str] | None = getattr(self, "known_roles", None)
        if known is not None and user.pk in known:
            return known[user.pk]
        # Plain SQL: every write asks this, and the ORM's query costs several times more.
        found = rows.run(self.ROLE_QUERY.format(club="%s", user="%s"), [self.pk, user.pk])
        return found[0][0] if found else None

    def allows(self, user: Any, role: str) -> bool:
        held = self.role_of(user)
        return held is not None and ROLE_RANK[Role(held)] >= ROLE_RANK[Role(role)]


class Player(models.Model):
    """A person who plays. May belong to several clubs; may have a login."""

    name = models.CharField(_("name"), max_length=120)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("login"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
    )
    clubs = models.ManyToManyField(Club, through="Membership", related_name="players")
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    # A bot or the digital referee: seated where a game needs it, never listed among a
    # club's members, never ranked or rated (see docs/ledger.md).
    automated = models.BooleanField(_("bot or digital referee"), default=False)
    # A short PIN of the player's own (stored hashed), to sign off a result on the
    # scorekeeper's phone at the table (docs/ledger.md).
    signoff_pin = models.CharField(_("sign-off PIN"), max_length=128, blank=True, editable=False)

    class Meta:
        ordering = ["name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(_("role"), max_length=16, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(_("joined"), default=timezone.now)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(fields=["club", "player"], name="one_membership_per_club")
        ]

    def __str__(self) -> str:
        return f"{self.player} @ {self.club} ({self.get_role_display()})"


class Season(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=80)
    starts_on = models.DateField(_("starts"))
    ends_on = models.DateField(_("ends"))

    class Meta:
        ordering = ["-starts_on"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="season_name_unique_in_club")
        ]

    def __str__(self) -> str:
        return f"{self.club.slug} {self.name}"

    def clean(self) -> None:
        if self.starts_on and self.ends_on and self.ends_on < self.starts_on:
            raise ValidationError({"ends_on": _("A season cannot end before it starts.")})


class Competition(models.Model):
    # Set on an instance the competition's page reads in one query (web.views): the number
    # of its latest round, or None. Not a field.
    latest_round: int | None

    class Format(models.TextChoices):
        LEAGUE = "league", _("League")
        ROUND_ROBIN = "round_robin", _("Round robin")
        SWISS = "swiss", _("Swiss")
        KNOCKOUT = "knockout", _("Knockout")
        TEAM = "team", _("Team event")

    class Confirmation(models.TextChoices):
        NONE = "none", _("None: results count at once")
        SECOND_PERSON = "second_person", _("A second person confirms")
        BLIND = "blind", _("Blind re-entry")
        OPPONENTS = "opponents", _("Opponents sign off at the table")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="competitions")
    season = models.ForeignKey(
        Season, null=True, blank=True, on_delete=models.SET_NULL, related_name="competitions"
    )
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("short name"))
    # An installed game's slug, checked against the games found (no choices: a game
    # installed later needs no migration).
    game = models.CharField(_("game"), max_length=16, validators=[validate_game])
    ruleset = models.JSONField(
        _("ruleset"), default=dict, blank=True, help_text=_("A ruleset name and its options.")
    )
    format = models.CharField(
        _("format"), max_length=16, choices=Format.choices, default=Format.LEAGUE
    )
    confirmation = models.CharField(
        _("confirmation"), max_length=16, choices=Confirmation.choices, default=Confirmation.NONE
    )
    standings_settings = models.JSONField(
        _("standings settings"),
        default=dict,
        blank=True,
        help_text=_(
            "Points for a win, a draw and a loss, and the order of the standings' keys "
            "(match_points, points, wins). Empty: the game's defaults."
        ),
    )
    bot_tables_count = models.BooleanField(
        _("games with bots count"),
        default=False,
        help_text=_(
            "The people's results at a digital table where bots fill the other seats count "
            "here. The bots are never ranked."
        ),
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        ordering = ["club", "name"]
        verbose_name = _("competition")
        verbose_name_plural = _("competitions")
        constraints = [
            models.UniqueConstraint(fields=["club", "slug"], name="competition_slug_unique")
        ]

    def __str__(self) -> str:
        return self.name

    def get_game_display(self) -> str:
        """The game's name as it declares it, in the reader's language."""
        return game_label(self.game)

    def clean(self) -> None:
        from ledger.clubs.scoring import check_ruleset

        if self.season is not None and self.season.club_id != self.club_id:
            raise ValidationError({"season": _("The season belongs to another club.")})
        if self.game:
            message = check_ruleset(self.game, self.ruleset)
            if message:
                raise ValidationError({"ruleset": message})


class Round(models.Model):
    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField(_("number"))
    name = models.CharField(_("name"), max_length=80, blank=True)
    played_on = models.DateField(_("played on"), null=True, blank=True)

    class Meta:
        ordering = ["competition", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(fields=["competition", "number"], name="round_number_unique")
        ]

    def __str__(self) -> str:
        return self.name or f"{self.competition} #{self.number}"


class Table(models.Model):
    """A sitting: which players sit in which seats, for one or more hands."""

    # Set on an instance read with its seats in one query (services.table_from_rows), each
    # read back by getattr: {seat: player id}, whether its competition has webhooks, and the
    # competition of its round. Not fields.
    seated: dict[int, int]
    hooked: bool
    round_competition: int | None

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="tables")
    round = models.ForeignKey(
        Round, null=True, blank=True, on_delete=models.SET_NULL, related_name="tables"
    )
    # The round whose per-round totals (RoundTotal) hold this table's journal lines (0:
    # none). It follows ``round`` at the next standings read when the table is moved.
    totals_round = models.BigIntegerField(default=0, editable=False)
    label = models.CharField(_("label"), max_length=40)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Seats whose hands credit other points than the hand gave (a substitute's, as the
    # competition says): {"seat index": "fixed points" or null for none}. Empty: none.
    seat_points = models.JSONField(null=True, blank=True, editable=False)
    # How many games (hands) the table may take, as its competition's settings said when
    # the table was made or they last changed (null: no limit), and how many of its results
    # hold a place now (pending, accepted or disputed: a correction takes its old version's
    # place, a voided result frees its own). The database refuses a table over its capacity
    # (the check below), whatever the path and however many writes race for the last place.
    capacity = models.PositiveSmallIntegerField(null=True, blank=True, editable=False)
    games = models.PositiveIntegerField(default=0, db_default=0, editable=False)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(capacity__isnull=True)
                | models.Q(games__lte=models.F("capacity")),
                name="table_games_within_capacity",
            )
        ]

    def __str__(self) -> str:
        return f"{self.competition} – {self.label}"


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField(_("seat"))
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    # A substitute's seat names the player it was drawn for: the draw, the Swiss table and
    # the bracket count a match for that entrant, whoever played it (docs/ledger.md,
    # "Substitutes"); the journal credits each hand's points to whoever played it.
    stands_for = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["table", "index"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["table", "index"], name="seat_index_unique"),
            models.UniqueConstraint(fields=["table", "player"], name="one_seat_per_player"),
        ]

    def __str__(self) -> str:
        return f"{self.index}: {self.player}"

    @property
    def entrant_id(self) -> int:
        """The player the seat was drawn for: the one sitting, or the one a substitute
        replaced."""
        return int(self.stands_for_id or self.player_id)


class Result(models.Model):
    """What a table reports for one hand or game, with every version kept."""

    # Set on an instance, not fields: by a page on the results it lists, whether it is sealed
    # from this visitor until confirmed (ledger/clubs/office/visibility.py); by the write path, the
    # journal lines it wrote (services); by confirmers, {seat: login id or None}.
    hidden: bool
    written_entries: list[Any]
    _seated_users: dict[int, int | None]

    class Source(models.TextChoices):
        SUMMARY = "summary", _("Summary")
        FULL_RECORD = "full_record", _("Full record")
        DIGITAL = "digital", _("Digital game")
        IMPORT = "import", _("Import")
        MANUAL = "manual", _("Per-seat scores")
        # A table decided without a game: who did not play lost (services.record_forfeit).
        FORFEIT = "forfeit", _("Forfeit")

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending confirmation")
        ACCEPTED = "accepted", _("Accepted")
        DISPUTED = "disputed", _("Disputed")
        SUPERSEDED = "superseded", _("Superseded")
        # Taken back (entered twice, at the wrong table, a game never played): what it
        # credited is reversed in the journal and nothing replaces it.
        VOIDED = "voided", _("Voided")

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="results")
    # Served by the (competition, status) index.
    competition = models.ForeignKey(
        Competition, on_delete=models.PROTECT, related_name="results", db_index=False
    )
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="results")
    record = models.JSONField(_("record"), default=dict, blank=True)
    source = models.CharField(_("source"), max_length=16, choices=Source.choices)
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.PENDING
    )
    scores = models.JSONField(_("scores per seat"), default=list)
    verdict = models.JSONField(_("engine verdict"), null=True, blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="results_entered"
    )
    entered_at = models.DateTimeField(_("entered"), default=timezone.now)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="results_confirmed",
    )
    confirmed_at = models.DateTimeField(_("confirmed"), null=True, blank=True)
    reason = models.TextField(
        _("reason for the correction"), blank=True, help_text=_("Why this version replaced one.")
    )
    supersedes = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="superseded_by"
    )
    # Who voided the result, when and why (services.void_result); empty unless voided.
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="results_voided",
    )
    voided_at = models.DateTimeField(_("voided"), null=True, blank=True)
    void_reason = models.TextField(_("why it was voided"), blank=True, default="", db_default="")
    # NULL, not "", for "no key": the uniqueness constraint must ignore keyless results.
    idempotency_key = models.CharField(max_length=128, null=True, blank=True)  # noqa: DJ001
    # sha256 of the request body, so a retry can be told apart from a different request
    # that reuses a key.
    fingerprint = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["-entered_at", "-id"]
        verbose_name = _("result")
        verbose_name_plural = _("results")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "idempotency_key"],
                name="idempotency_key_unique_in_club",
                condition=models.Q(idempotency_key__isnull=False),
            )
        ]
        indexes = [
            models.Index(fields=["competition", "status"]),
            models.Index(fields=["competition", "-entered_at", "-id"]),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.table} ({self.get_status_display()})"


class Penalty(models.Model):
    """Points taken from (or, rarely, given to) a player by an organiser or a referee, with
    the reason the player reads. Journaled as an entry of its own (kind "penalty"); a
    cancellation adds a reversing entry (kind "cancel") and never removes the first."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="penalties")
    competition = models.ForeignKey(Competition, on_delete=models.PROTECT, related_name="penalties")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="penalties")
    round = models.ForeignKey(
        Round, null=True, blank=True, on_delete=models.SET_NULL, related_name="penalties"
    )
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="penalties"
    )

    class Kind(models.TextChoices):
        PENALTY = "penalty", _("Penalty")
        CARRY = "carry", _("Carried over")

    # A penalty, or the score a player carries over into a stage from the stage before it
    # (written when the players advance): both move the points only, never the ratings.
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices, default=Kind.PENALTY)
    # The change to the player's points: negative for a penalty.
    points = models.DecimalField(_("points"), max_digits=10, decimal_places=2)
    reason = models.CharField(_("reason"), max_length=200)
    given_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    given_at = models.DateTimeField(default=timezone.now)
    cancelled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    cancelled_at = models.DateTimeField(null=True, blank=True)
    cancel_reason = models.CharField(_("why it was cancelled"), max_length=200, blank=True)

    class Meta:
        ordering = ["-given_at", "-id"]
        verbose_name = _("penalty")
        verbose_name_plural = _("penalties")

    def __str__(self) -> str:
        return f"{self.player} {self.points}: {self.reason}"

    @property
    def cancelled(self) -> bool:
        return self.cancelled_at is not None

    @property
    def carried(self) -> bool:
        return self.kind == self.Kind.CARRY


class EntryQuerySet(models.QuerySet["Entry"]):
    def update(self, **kwargs: Any) -> int:
        raise PermissionError("ledger entries are append-only: record a correction instead")

    def delete(self) -> tuple[int, dict[str, int]]:
        raise PermissionError("ledger entries are append-only: record a correction instead")


class Entry(models.Model):
    """One immutable journal line: the points one seat got from one accepted result."""

    class Kind(models.TextChoices):
        CREDIT = "credit", _("Result")
        REVERSAL = "reversal", _("Reversal")
        PENALTY = "penalty", _("Penalty")
        CANCEL = "cancel", _("Penalty cancelled")
        CARRY = "carry", _("Carried over")

    # Lines that change points only: no game played, no win, draw or loss.
    POINTS_ONLY = frozenset({"penalty", "cancel", "carry"})

    # Every write adds several lines, so an index costs on every result: the club, the
    # competition, the result and the player are each the first column of one of the
    # indexes below, which serves their look-ups as well as an index of their own would.
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="entries", db_index=False)
    competition = models.ForeignKey(
        Competition, on_delete=models.PROTECT, related_name="entries", db_index=False
    )
    # A result's line names the result and its table; a penalty's names the penalty.
    result = models.ForeignKey(
        Result, null=True, on_delete=models.PROTECT, related_name="entries", db_index=False
    )
    table = models.ForeignKey(Table, null=True, on_delete=models.PROTECT, related_name="entries")
    penalty = models.ForeignKey(
        Penalty, null=True, on_delete=models.PROTECT, related_name="entries", db_index=False
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="entries", db_index=False
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    points = models.DecimalField(_("points"), max_digits=12, decimal_places=2)
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.CREDIT)
    source = models.CharField(max_length=16, choices=Result.Source.choices)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    sequence = models.PositiveBigIntegerField()
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)
    # HMAC of what the line says under a key only the service holds (clubs/storage/signing.py):
    # a line slipped in through the database has none. Empty on lines written before seals.
    seal = models.CharField(max_length=64, blank=True, default="", db_default="")
    # The line's identity, which its seal binds: ``<write>.<place>.<count>`` (the write's
    # random number, this line's place in it, its number of lines). A copied line repeats
    # one. Empty on lines written before identities (their seal is of the first version).
    origin = models.CharField(max_length=40, blank=True, default="", db_default="")
    # Which seal the line carries (clubs/storage/signing.py): 3 binds its place (club, number and
    # previous line's hash) too; 0 on lines written before, whose seal is of the first or
    # second version (without or with an identity).
    seal_version = models.PositiveSmallIntegerField(default=0, db_default=0)

    objects = EntryQuerySet.as_manager()

    class Meta:
        ordering = ["club", "sequence"]
        verbose_name = _("journal entry")
        verbose_name_plural = _("journal entries")
        constraints = [
            models.UniqueConstraint(fields=["club", "sequence"], name="journal_sequence_unique"),
            models.UniqueConstraint(
                fields=["result", "seat", "kind"], name="one_entry_per_seat_and_kind"
            ),
            models.UniqueConstraint(
                fields=["penalty", "kind"],
                name="one_entry_per_penalty_and_kind",
                condition=models.Q(penalty__isnull=False),
            ),
        ]
        indexes = [
            models.Index(fields=["player", "competition"]),
            models.Index(fields=["competition", "sequence"]),
        ]

    def __str__(self) -> str:
        return f"{self.club_id}#{self.sequence} {self.player} {self.points}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise PermissionError("ledger entries are append-only: record a correction instead")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise PermissionError("ledger entries are append-only: record a correction instead")

    @property
    def label(self) -> str:
        """The line's kind in words; a cancelled carried score is not called a penalty."""
        carried = self.penalty is not None and self.penalty.kind == Penalty.Kind.CARRY
        if self.kind == self.Kind.CANCEL and carried:
            return str(_("Carried score cancelled"))
        return str(self.get_kind_display())

    def compute_hash(self) -> str:
        return line_hash(self)


def line_hash(line: Any) -> str:
    """The hash of a journal line, from an Entry or any row with the same columns."""
    return entry_hash(
        prev_hash=line.prev_hash,
        club_id=line.club_id,
        competition_id=line.competition_id,
        sequence=line.sequence,
        result_id=line.result_id,
        seat=line.seat,
        player_id=line.player_id,
        points=Decimal(line.points),
        kind=line.kind,
    )


def entry_hash(
    *,
    prev_hash: str,
    club_id: int,
    competition_id: int,
    sequence: int,
    result_id: int | None,
    seat: int,
    player_id: int,
    points: Decimal,
    kind: str,
) -> str:
    payload = "|".join(
        [
            prev_hash,
            str(club_id),
            str(competition_id),
            str(sequence),
            str(result_id),
            str(seat),
            str(player_id),
            f"{Decimal(points):.2f}",
            kind,
        ]
    )
    return hashlib.sha256(payload.encode()).hexdigest()


class Checkpoint(models.Model):
    """A club's journal length and head at a moment, signed with the service's Ed25519 key
    (never stored in the database). Published on the standings pages, in webhooks and in
    the club's checkpoint feed, so that copies live outside the database: a journal that
    no longer extends a checkpoint was rewritten or cut (``verify_ledger --checkpoints``)."""

    class Reason(models.TextChoices):
        INTERVAL = "interval", _("Regular checkpoint")
        ROUND = "round", _("End of a round")
        MANUAL = "manual", _("Signed by hand")

    # Served by the unique (club, length) constraint's index.
    club = models.ForeignKey(
        Club, on_delete=models.PROTECT, related_name="checkpoints", db_index=False
    )
    length = models.PositiveBigIntegerField(_("journal lines"))
    head = models.CharField(_("journal head"), max_length=64)
    signed_at = models.DateTimeField(_("signed"))
    reason = models.CharField(max_length=10, choices=Reason.choices, default=Reason.INTERVAL)
    round = models.ForeignKey(
        "Round", null=True, blank=True, on_delete=models.SET_NULL, related_name="checkpoints"
    )
    key_id = models.CharField(max_length=16)
    signature = models.CharField(max_length=128)

    class Meta:
        ordering = ["club", "-length"]
        verbose_name = _("checkpoint")
        verbose_name_plural = _("checkpoints")
        constraints = [
            models.UniqueConstraint(fields=["club", "length"], name="one_checkpoint_per_length")
        ]

    def __str__(self) -> str:
        return f"{self.club_id}@{self.length}"

    def message(self) -> bytes:
        from ledger.clubs.storage.signing import checkpoint_message

        return checkpoint_message(self.club_id, self.length, self.head, self.signed_at_text)

    @property
    def signed_at_text(self) -> str:
        return self.signed_at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


class Standing(models.Model):
    """A projection of the journal: one row per player and competition, kept current in
    the same transaction as the entries that change it, so a standings read never scans
    the journal."""

    # Served by the unique (competition, player) constraint's index.
    competition = models.ForeignKey(
        Competition, on_delete=models.CASCADE, related_name="standings", db_index=False
    )
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="standings")
    points = models.DecimalField(max_digits=14, decimal_places=2, default=Decimal(0))
    played = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["competition", "-points", "player__name"]
        verbose_name = _("standing")
        verbose_name_plural = _("standings")
        constraints = [
            models.UniqueConstraint(fields=["competition", "player"], name="one_standing_row")
        ]
        indexes = [models.Index(fields=["competition", "-points"])]

    def __str__(self) -> str:
        return f"{self.player}: {self.points}"


class RoundTotal(models.Model):
    """A projection of the journal beside Standing: each player's totals from the lines of
    one round (the round of the result's table, or the round a penalty was given in; 0 for
    lines in no round), kept current in the same transaction as the entries, so the
    standings "as of round N" and the movement column sum a few rows per player rather
    than the journal. Keyed by the round's id, so renumbering rounds changes nothing here;
    moving a table to another round moves its lines' totals (see ledger/clubs/results/services.py).
    Rebuilt from the journal with the standings."""

    # The key of a score carried over from an earlier stage: it counts before round 1.
    BEFORE_ROUNDS = -1

    competition = models.ForeignKey(
        Competition, on_delete=models.CASCADE, related_name="round_totals", db_index=False
    )
    # The round's id; 0: in no round; BEFORE_ROUNDS: before the first (a carried score).
    round_key = models.BigIntegerField(default=0)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    points = models.DecimalField(max_digits=14, decimal_places=2, default=Decimal(0))
    played = models.IntegerField(default=0)
    wins = models.IntegerField(default=0)
    draws = models.IntegerField(default=0)
    losses = models.IntegerField(default=0)

    class Meta:
        verbose_name = _("round total")
        verbose_name_plural = _("round totals")
        constraints = [
            models.UniqueConstraint(
                fields=["competition", "round_key", "player"], name="one_round_total_row"
            )
        ]

    def __str__(self) -> str:
        return f"{self.player_id}@{self.round_key}: {self.points}"


class Rating(models.Model):
    """A player's skill at one game in one club (openskill's Plackett-Luce model).

    Derived data: kept current as results are accepted and recomputed from the journal
    when an old result is corrected. ``mu`` is the estimate, ``sigma`` its uncertainty.
    """

    # Served by the unique (club, game, player) constraint's index.
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="ratings", db_index=False)
    game = models.CharField(_("game"), max_length=16)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    mu = models.FloatField()
    sigma = models.FloatField()
    results = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["club", "game", "-mu"]
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.UniqueConstraint(fields=["club", "game", "player"], name="one_rating_row")
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.game}: {self.mu:.1f} ± {self.sigma:.1f}"

    @property
    def conservative(self) -> float:
        """The rating the player is very likely above: mu minus three sigma."""
        return self.mu - 3 * self.sigma


class RatingChange(models.Model):
    """The rating after one result, for the history chart. Derived, like Rating."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    game = models.CharField(max_length=16)
    # Served by the (player, game, at) index.
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="rating_changes", db_index=False
    )
    result = models.ForeignKey(Result, on_delete=models.CASCADE, related_name="rating_changes")
    mu = models.FloatField()
    sigma = models.FloatField()
    at = models.DateTimeField()

    class Meta:
        ordering = ["player", "game", "at", "id"]
        indexes = [models.Index(fields=["player", "game", "at"])]

    def __str__(self) -> str:
        return f"{self.player_id} {self.game} @{self.result_id}: {self.mu:.1f}"


class Dispute(models.Model):
    """Two versions of one result that disagree, waiting for a referee's ruling.

    Version A is the result as first entered; version B is what the confirmer typed (blind
    re-entry) or nothing when a player simply contests it. Rows are never deleted.
    """

    class Ruling(models.TextChoices):
        OPEN = "open", _("Open")
        FIRST = "first", _("First version stands")
        SECOND = "second", _("Second version stands")
        NEW = "new", _("Referee's own version")
        VOID = "void", _("Result voided")

    result = models.OneToOneField(Result, on_delete=models.PROTECT, related_name="dispute")
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    opened_at = models.DateTimeField(default=timezone.now)
    reason = models.TextField(_("reason"), blank=True)
    other_record = models.JSONField(null=True, blank=True)
    other_scores = models.JSONField(null=True, blank=True)
    other_source = models.CharField(max_length=16, blank=True)
    ruling = models.CharField(max_length=8, choices=Ruling.choices, default=Ruling.OPEN)
    ruled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    ruled_at = models.DateTimeField(null=True, blank=True)
    note = models.TextField(_("referee's note"), blank=True)

    class Meta:
        ordering = ["-opened_at"]
        verbose_name = _("dispute")
        verbose_name_plural = _("disputes")

    def __str__(self) -> str:
        return f"dispute on #{self.result_id} ({self.get_ruling_display()})"


class SealOpening(models.Model):
    """A referee opened a pending blind result before its second entry (ledger/clubs/
    visibility.py): who, when and why. Only the one who opened it reads it early, and they
    may no longer be its blind second entry. Rows are never changed or deleted."""

    result = models.ForeignKey(Result, on_delete=models.PROTECT, related_name="openings")
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    opened_at = models.DateTimeField(default=timezone.now)
    reason = models.TextField(_("reason"), blank=True)

    class Meta:
        ordering = ["opened_at"]
        verbose_name = _("opening of a sealed result")
        verbose_name_plural = _("openings of sealed results")

    def __str__(self) -> str:
        return f"#{self.result_id} opened by {self.opened_by_id}"


class ImportJob(models.Model):
    """A bulk import of results from a spreadsheet (CSV, .xlsx, .ods) or JSONL file, with what
    was read of it, its progress and bad rows."""

    class Status(models.TextChoices):
        PREVIEW = "preview", _("To confirm")
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="imports")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    filename = models.CharField(_("file"), max_length=200)
    format = models.CharField(_("format"), max_length=8)
    language = models.CharField(max_length=8, default="it")
    content = models.TextField(editable=False)
    # What was read of the file: its kind, separator, encoding, sheet, rows and columns.
    understood = models.JSONField(default=dict, blank=True, editable=False)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    total = models.PositiveIntegerField(default=0)
    processed = models.PositiveIntegerField(default=0)
    imported = models.PositiveIntegerField(default=0)
    replayed = models.PositiveIntegerField(default=0)
    errors = models.JSONField(default=list)
    created_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("import")
        verbose_name_plural = _("imports")

    def __str__(self) -> str:
        return f"{self.filename} ({self.get_status_display()})"

    @property
    def percent(self) -> int:
        return 100 if not self.total else int(100 * self.processed / self.total)

    @property
    def stopped(self) -> str:
        """Why the job stopped before the end of its file (over a budget), or ""."""
        return next((str(e["message"]) for e in self.errors if e.get("stopped")), "")

    @property
    def refused(self) -> list[dict[str, Any]]:
        """The rows refused, each with its line and reason."""
        return [e for e in self.errors if not e.get("stopped")]


class Webhook(models.Model):
    """Another program that wants to hear about a club's results. Each delivery is a POST
    of JSON signed with HMAC-SHA256 of the body under the webhook's secret."""

    EVENTS = ("result.accepted", "result.corrected", "result.ruled", "result.voided")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="webhooks")
    url = models.URLField(_("address"), max_length=400)
    secret = models.CharField(_("signing secret"), max_length=128)
    events = models.JSONField(_("events"), default=list, blank=True, help_text=_("Empty: all."))
    active = models.BooleanField(_("active"), default=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("webhook")
        verbose_name_plural = _("webhooks")

    def __str__(self) -> str:
        return self.url

    def wants(self, event: str) -> bool:
        return self.active and (not self.events or event in self.events)

    def clean(self) -> None:
        try:
            check_url(self.url)
        except Refused as exc:
            raise ValidationError({"url": str(exc)}) from exc


class WebhookDelivery(models.Model):
    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    event = models.CharField(max_length=40)
    payload = models.JSONField()
    attempts = models.PositiveSmallIntegerField(default=0)
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    delivered_at = models.DateTimeField(null=True, blank=True)
    # When the next attempt is due after a failed one (None: delivered, or given up).
    next_attempt_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("webhook delivery")
        verbose_name_plural = _("webhook deliveries")

    def __str__(self) -> str:
        return f"{self.event} → {self.webhook_id} ({self.status_code})"


def token_digest(key: str) -> str:
    """What is stored of an API token: its SHA-256. A token is 160 random bits, so a fast
    hash is enough (nothing to guess by brute force), and the stored value is useless to
    whoever reads the table."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


class ApiToken(models.Model):
    """A key that lets a program use the API as the person who made it, within one club and
    never above its scope. Only the key's digest is kept: the key is shown once, when it is
    made, and never again."""

    class Scope(models.TextChoices):
        # The role a token can use at most, named after what it is for.
        READ = Role.MEMBER.value, _("Read")
        SCORE = Role.SCOREKEEPER.value, _("Score entry")
        ORGANISER = Role.ORGANISER.value, _("Organiser")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("acts as"),
        on_delete=models.CASCADE,
        related_name="api_tokens",
    )
    # NULL only for the tokens made before tokens had a club (migration 0012): those act
    # with their login's roles in every club, as they always did.
    club = models.ForeignKey(
        Club, null=True, blank=True, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(_("name"), max_length=80)
    scope = models.CharField(_("scope"), max_length=16, choices=Scope.choices)
    prefix = models.CharField(_("key begins with"), max_length=8, editable=False)
    digest = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    expires_at = models.DateTimeField(_("expires"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @classmethod
    def mint(
        cls,
        *,
        user: Any,
        club: Club | None,
        scope: str,
        name: str,
        expires_at: Any = None,
    ) -> tuple[ApiToken, str]:
        """A new token and its key: the only moment the key exists outside the client."""
        import secrets

        key = secrets.token_hex(20)
        token = cls.objects.create(
            user=user,
            club=club,
            scope=scope,
            name=name,
            prefix=key[:8],
            digest=token_digest(key),
            expires_at=expires_at,
        )
        return token, key

    @property
    def active(self) -> bool:
        return self.revoked_at is None and (
            self.expires_at is None or self.expires_at > timezone.now()
        )


class TokenLimit:
    """What an API token lets its login do: its club (None: any) and the highest role.
    ``superuser``: the login is the site's; a club's token of theirs is an organiser of
    that club only (the user object the token gives is not a superuser)."""

    __slots__ = ("club_id", "scope", "superuser")

    def __init__(self, club_id: int | None, scope: str, superuser: bool = False) -> None:
        self.club_id, self.scope, self.superuser = club_id, scope, superuser

    def cap(self, club_id: int, held: str | None) -> str | None:
        if held is None or (self.club_id is not None and club_id != self.club_id):
            return None
        if ROLE_RANK[Role(held)] > ROLE_RANK[Role(self.scope)]:
            return self.scope
        return held


class Invitation(models.Model):
    """A link that lets a person log in for the first time, choosing a password: for a
    member who has no login yet, or for someone new, who becomes a member on accepting
    (a person already logged in joins with their own player: one person, several clubs).
    Only the link's digest is kept; the link is shown once, to the organiser who made it."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.CASCADE, related_name="invitations"
    )
    name = models.CharField(_("name"), max_length=120)
    role = models.CharField(_("role"), max_length=16, choices=Role.choices, default=Role.MEMBER)
    digest = models.CharField(max_length=64, unique=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    expires_at = models.DateTimeField(_("expires"))
    accepted_at = models.DateTimeField(_("accepted"), null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")

    def __str__(self) -> str:
        return f"{self.name} @ {self.club}"

    @property
    def open(self) -> bool:
        return self.accepted_at is None and self.expires_at > timezone.now()


class MergeQuerySet(models.QuerySet["Merge"]):
    def update(self, **kwargs: Any) -> int:
        raise PermissionError("merges are append-only: undo a merge with a line of its own")

    def delete(self) -> tuple[int, dict[str, int]]:
        raise PermissionError("merges are append-only: undo a merge with a line of its own")


class Merge(models.Model):
    """One line of the people's journal: two players found to be one person merged (the
    ``merged`` player now counts as ``into``), or such a merge undone (``undoes`` names it).
    Append-only like the results' journal: an undo is a line of its own, never an edit, and
    neither touches a journal line or the player it names (docs/ledger.md, "One person").
    Who a player now is: ``ledger/clubs/people.py``."""

    class Act(models.TextChoices):
        MERGE = "merge", _("Merged")
        UNDO = "undo", _("Merge undone")

    act = models.CharField(max_length=5, choices=Act.choices, default=Act.MERGE)
    # The player found to be a duplicate: from the merge on, their lines count as ``into``'s.
    merged = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    into = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+", db_index=False)
    undoes = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="undoing"
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now)
    # What the merge moved from ``merged`` to ``into``, for its undoing to put back exactly:
    # ``{"memberships": [{"id", "club", "role", "joined_at", "how": "moved"|"dropped"}],
    # "login": user id or null, "clubs": [club ids whose projections were rebuilt]}``.
    moved = models.JSONField(default=dict, blank=True)
    # In whose name it was done, in words (the federation the officer acted for).
    on_behalf_of = models.CharField(max_length=120, blank=True)

    objects = MergeQuerySet.as_manager()

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("merge of two people")
        verbose_name_plural = _("merges of two people")
        indexes = [models.Index(fields=["into"])]

    def __str__(self) -> str:
        return f"{self.act} {self.merged_id} -> {self.into_id}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise PermissionError("merges are append-only: undo a merge with a line of its own")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise PermissionError("merges are append-only: undo a merge with a line of its own")
