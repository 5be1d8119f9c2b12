"""Digital game tables: who sits where, and the append-only log of what each seat did.

The log (``Move``) is the truth. The state of a game is never stored: it is derived by
replaying the deal written when the table was made and every move since (see
ledger/play/replay.py). Moves are never updated or deleted, like the ledger's journal.

While a game runs its seed, deal and moves are stored sealed (ledger/play/sealing.py): the
clear columns are empty and ``sealed`` holds them encrypted. When the game is over they are
written back in clear (``services.reveal``). Besides that, a move's only write after its
append is a key's rotation (``services.reseal_running``): both keep the same action.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledger.clubs.games import label as game_label
from ledger.clubs.games import validate_game


def _token() -> str:
    return secrets.token_urlsafe(16)


class GameTable(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting for players")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        ABANDONED = "abandoned", _("Abandoned (timed out)")

    club = models.ForeignKey("clubs.Club", on_delete=models.PROTECT, related_name="game_tables")
    # An installed game's slug, checked against the games found (no choices: a game
    # installed later needs no migration).
    game = models.CharField(_("game"), max_length=16, validators=[validate_game])
    ruleset = models.JSONField(_("ruleset"), default=dict)
    # Chosen by the server from ``secrets`` (a practice table may replay a named deal) and
    # kept secret until the game is over; ``commitment`` (games.core.fair) is shown from
    # the start, so anyone can check afterwards that the deal was fixed before play.
    # Empty while the game runs: the seed and the deal are then in ``sealed``.
    seed = models.BigIntegerField(null=True, blank=True, editable=False)
    commitment = models.CharField(max_length=64, blank=True, editable=False)
    # A practice game counts nowhere: a table with bots (unless its competition lets such
    # games count) or one replaying a named deal. Kept and replayable like any other.
    practice = models.BooleanField(_("practice"), default=False)
    named_deal = models.BooleanField(_("named deal"), default=False)
    # The record before the first move (ruleset and deal), as the engine wrote it.
    deal = models.JSONField(null=True, blank=True, editable=False)
    # While the game runs: {"seed", "deal"} sealed under the environment's key; "" after.
    sealed = models.TextField(blank=True, editable=False)
    competition = models.ForeignKey(
        "clubs.Competition",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="game_tables",
        verbose_name=_("competition"),
    )
    # The ledger's table: a scheduled one the game was made for (its players keep their
    # seats), or one made once every seat is taken. A sitting may play several games.
    ledger_table = models.ForeignKey(
        "clubs.Table", null=True, blank=True, on_delete=models.PROTECT, related_name="game_tables"
    )
    result = models.OneToOneField(
        "clubs.Result", null=True, blank=True, on_delete=models.PROTECT, related_name="game_table"
    )
    label = models.CharField(_("label"), max_length=40, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    invite = models.CharField(max_length=40, default=_token, unique=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="game_tables"
    )
    created_at = models.DateTimeField(default=timezone.now)
    last_move_at = models.DateTimeField(default=timezone.now)
    moves_count = models.PositiveIntegerField(default=0)
    ended_at = models.DateTimeField(null=True, blank=True)
    # An optional clock, chosen when the table is made (ledger/play/clocks.py): "move",
    # ``clock_seconds`` for each turn; "game", a bank of ``clock_seconds`` for each seat, plus
    # ``clock_increment`` after each of its moves. The server keeps the running turn's
    # deadline and decides when it has passed; a page only draws it.
    clock_kind = models.CharField(
        _("clock"),
        max_length=4,
        blank=True,
        choices=[("move", _("per move")), ("game", _("per game"))],
    )
    clock_seconds = models.PositiveIntegerField(default=0)
    clock_increment = models.PositiveIntegerField(default=0)
    # Seconds left in each seat's bank (per game), by seat.
    clock_banks = models.JSONField(default=list, blank=True)
    clock_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    clock_deadline = models.DateTimeField(null=True, blank=True)
    # The seat whose time ran out last (the board says so; at "abandon" games, why it ended).
    clock_flagged = models.PositiveSmallIntegerField(null=True, blank=True)
    # Takebacks agreed at this practice table: each one voids a run of the log's steps
    # (``Takeback``); the count makes every state the board shows a new version.
    takebacks = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("digital table")
        verbose_name_plural = _("digital tables")
        indexes = [models.Index(fields=["status", "last_move_at"])]

    def __str__(self) -> str:
        return f"{self.game} #{self.pk}"

    def get_game_display(self) -> str:
        """The game's name as it declares it, in the reader's language."""
        return game_label(self.game)

    @property
    def over(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.ABANDONED)


class PlaySeat(models.Model):
    class Kind(models.TextChoices):
        OPEN = "open", _("Open seat")
        HUMAN = "human", _("Player")
        RANDOM = "random", _("Random bot")
        HEURISTIC = "heuristic", _("Heuristic bot")
        STRONG = "strong", _("Strong bot")

    table = models.ForeignKey(GameTable, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.OPEN)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    player = models.ForeignKey(
        "clubs.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["table", "index"]
        constraints = [
            models.UniqueConstraint(fields=["table", "index"], name="play_seat_unique"),
            models.UniqueConstraint(
                fields=["table", "user"],
                name="play_one_seat_per_user",
                condition=models.Q(user__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table_id}:{self.index} {self.kind}"

    @property
    def is_bot(self) -> bool:
        return self.kind in (self.Kind.RANDOM, self.Kind.HEURISTIC, self.Kind.STRONG)


class MoveQuerySet(models.QuerySet["Move"]):
    def update(self, **kwargs: Any) -> int:
        raise PermissionError("the move log is append-only")

    def reveal(self, actions: dict[int, Any]) -> int:
        """Write sealed moves' actions in clear, by move id, once their game is over: the
        same actions, never others (the caller opened them from ``sealed``)."""
        rows = [Move(pk=pk, action=action, sealed="") for pk, action in actions.items()]
        # A plain queryset: this is the one update the log allows.
        plain: models.QuerySet[Move] = models.QuerySet(model=Move, using=self.db)
        return plain.filter(sealed__gt="").bulk_update(rows, ["action", "sealed"], batch_size=500)

    def reseal(self, sealed: dict[int, str]) -> int:
        """Replace sealed moves' sealed values, by move id, with the same actions sealed under
        the current key (a key's rotation): the actions stay what they were."""
        rows = [Move(pk=pk, sealed=value) for pk, value in sealed.items()]
        plain: models.QuerySet[Move] = models.QuerySet(model=Move, using=self.db)
        return plain.filter(sealed__gt="").bulk_update(rows, ["sealed"], batch_size=500)

    def delete(self) -> tuple[int, dict[str, int]]:
        raise PermissionError("the move log is append-only")


class Move(models.Model):
    """One action of one seat, in the engine's notation. Append-only."""

    table = models.ForeignKey(GameTable, on_delete=models.PROTECT, related_name="moves")
    step = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    # Empty while the game runs: the action is then in ``sealed`` (ledger/play/sealing.py).
    action = models.JSONField(null=True, blank=True)
    sealed = models.TextField(blank=True, editable=False)
    # The client's own id for the move: a retry or a double click carries the same one.
    client_move_id = models.CharField(max_length=64, null=True, blank=True)  # noqa: DJ001
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    bot = models.CharField(max_length=10, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    objects = MoveQuerySet.as_manager()

    class Meta:
        ordering = ["table", "step"]
        constraints = [
            models.UniqueConstraint(fields=["table", "step"], name="play_move_step_unique"),
            models.UniqueConstraint(
                fields=["table", "client_move_id"],
                name="play_move_client_id_unique",
                condition=models.Q(client_move_id__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table_id}#{self.step} seat {self.seat}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise PermissionError("the move log is append-only")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise PermissionError("the move log is append-only")


class Takeback(models.Model):
    """A request, at a practice table, to take back the asker's last move (and whatever
    followed it). Agreed by every other person (bots agree at once), it voids the log's
    steps ``from_step`` to ``to_step`` (excluded): the moves stay in the append-only log, the
    state is replayed without them."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Asked")
        ACCEPTED = "accepted", _("Agreed")
        REFUSED = "refused", _("Refused")

    table = models.ForeignKey(GameTable, on_delete=models.CASCADE, related_name="takeback_requests")
    seat = models.PositiveSmallIntegerField()
    # The table's version (moves and takebacks) when asked: a move since lapses the request.
    version = models.PositiveIntegerField()
    from_step = models.PositiveIntegerField()
    to_step = models.PositiveIntegerField(null=True, blank=True)
    # Seat (as a string) -> True/False, for the people who answered.
    answers = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(default=timezone.now)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["table", "created_at"]

    def __str__(self) -> str:
        return f"{self.table_id} takeback by {self.seat} ({self.status})"
