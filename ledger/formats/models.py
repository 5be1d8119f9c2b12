"""What a competition's format needs beyond the ledger core: settings, who is entered,
who sits out, forbidden pairings, byes, draft draws, teams and knockout matches.

Rounds, tables and seats stay the core's (ledger.clubs); a draw is drafted here, edited by
the organiser, and on publishing becomes the core's tables through clubs.results.services.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledger.clubs.games import validate_game
from ledger.clubs.models import Competition, Player, Round, Season, Table


class FormatSettings(models.Model):
    competition = models.OneToOneField(
        Competition, on_delete=models.CASCADE, related_name="format_settings"
    )
    seats_per_table = models.PositiveSmallIntegerField(
        _("seats per table"), default=0, help_text=_("0: the game's usual table size.")
    )
    hands_per_table = models.PositiveSmallIntegerField(
        _("hands per table"),
        default=1,
        help_text=_("How many hands (smazzate at Tarocco) each table plays in a round."),
    )
    rounds = models.PositiveSmallIntegerField(
        _("rounds"), default=0, help_text=_("Rounds planned (Swiss); 0 when open-ended.")
    )
    cycles = models.PositiveSmallIntegerField(
        _("cycles"), default=1, help_text=_("Round robin: 1 single, 2 double.")
    )
    bye_points = models.DecimalField(
        _("points for a bye"),
        max_digits=4,
        decimal_places=2,
        null=True,
        blank=True,
        default=None,
        help_text=_("On the standings' points scale; empty: a bye is worth a win."),
    )
    best_of = models.PositiveSmallIntegerField(
        _("best of"), default=1, help_text=_("Knockout: games per match (odd).")
    )
    third_place = models.BooleanField(
        _("match for third place"),
        default=False,
        help_text=_("Knockout: the semi-finals' losers play for third place beside the final."),
    )
    exact_limit = models.PositiveSmallIntegerField(
        _("exact FIDE Dutch up to"),
        default=200,
        help_text=_("Swiss fields up to this size use the exact FIDE Dutch engine."),
    )
    initial_side = models.PositiveSmallIntegerField(
        _("top seed's side in round 1"),
        choices=[(0, _("Tramontana")), (1, _("Mezzogiorno"))],
        default=0,
        help_text=_(
            "Swiss: the side of the first seed in round 1; the boards below alternate, and"
            " later rounds use it when two players have no preference."
        ),
    )

    class Meta:
        verbose_name = _("format settings")
        verbose_name_plural = _("format settings")

    def __str__(self) -> str:
        return f"{self.competition} settings"


class Entrant(models.Model):
    """A player entered in a competition. Late entries join at a round; withdrawals leave
    after one. The number is the league number (the movement's order, the Swiss seed)."""

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="entrants")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries_in")
    number = models.PositiveIntegerField(_("number"))
    rating = models.IntegerField(_("rating for seeding"), default=0)
    joined_round = models.PositiveIntegerField(_("plays from round"), default=1)
    withdrawn_after = models.PositiveIntegerField(_("withdrew after round"), null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["competition", "number"]
        verbose_name = _("entrant")
        verbose_name_plural = _("entrants")
        constraints = [
            models.UniqueConstraint(fields=["competition", "player"], name="one_entry_per_player"),
            models.UniqueConstraint(fields=["competition", "number"], name="entrant_number_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.number}. {self.player}"

    def plays_in(self, round_number: int) -> bool:
        if round_number < self.joined_round:
            return False
        return self.withdrawn_after is None or round_number <= self.withdrawn_after


class Absence(models.Model):
    """A player who will not play one round (a no-show or an announced absence)."""

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="absences")
    round_number = models.PositiveIntegerField(_("round"))
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["competition", "round_number", "player"], name="one_absence_per_round"
            )
        ]

    def __str__(self) -> str:
        return f"{self.player} absent in round {self.round_number}"


class ForbiddenPair(models.Model):
    """Two players who should not (soft) or must not (hard) be paired or seated together."""

    competition = models.ForeignKey(
        Competition, on_delete=models.CASCADE, related_name="forbidden_pairs"
    )
    first = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    second = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    hard = models.BooleanField(_("never"), default=False)
    reason = models.CharField(_("reason"), max_length=120, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["competition", "first", "second"], name="forbidden_pair_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.first} / {self.second}"


class Draw(models.Model):
    """The pairings or seatings of one round: a draft until published, then frozen; the
    published draw's tables are the core's Table rows."""

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        PUBLISHED = "published", _("Published")

    round = models.OneToOneField(Round, on_delete=models.CASCADE, related_name="draw")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    # [{"label": "1", "players": [ids in seat order], "match": id or null}]
    tables = models.JSONField(default=list)
    byes = models.JSONField(default=list)  # player ids given a bye (points in Bye)
    sitting_out = models.JSONField(default=list)  # ids who do not play (absent, no table)
    engine = models.CharField(max_length=20, blank=True)
    generated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    generated_at = models.DateTimeField(default=timezone.now)
    published_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("draw")
        verbose_name_plural = _("draws")

    def __str__(self) -> str:
        return f"{self.round} ({self.get_status_display()})"


class Bye(models.Model):
    """A bye given in a published round, with the points it is worth."""

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="byes")
    round_number = models.PositiveIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    points = models.DecimalField(max_digits=4, decimal_places=2)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["competition", "round_number", "player"], name="one_bye_per_round"
            )
        ]

    def __str__(self) -> str:
        return f"bye {self.player} r{self.round_number}"


class Team(models.Model):
    """A side in a team event (Er Giò 2v2/3v3, the Bridge's Game for 4 or 6): teams are
    paired; each member keeps individual stats through the seats they take."""

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(_("name"), max_length=80)
    members = models.ManyToManyField(Player, related_name="teams")
    number = models.PositiveIntegerField(_("number"))

    class Meta:
        ordering = ["competition", "number"]
        constraints = [
            models.UniqueConstraint(fields=["competition", "name"], name="team_name_unique")
        ]

    def __str__(self) -> str:
        return self.name


class KnockoutMatch(models.Model):
    """One match of a single-elimination bracket: best of N games at its tables."""

    competition = models.ForeignKey(
        Competition, on_delete=models.CASCADE, related_name="knockout_matches"
    )
    stage = models.PositiveSmallIntegerField()  # 1 = first round
    slot = models.PositiveSmallIntegerField()  # position in the stage, 0-based
    first = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    second = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    winner = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # Why the referee named the winner (a play-off off the books, a match left level);
    # empty when the games or a forfeit decided it.
    reason = models.CharField(_("reason"), max_length=500, blank=True, default="")
    tables = models.ManyToManyField(Table, blank=True, related_name="knockout_matches")

    class Meta:
        ordering = ["competition", "stage", "slot"]
        constraints = [
            models.UniqueConstraint(
                fields=["competition", "stage", "slot"], name="knockout_slot_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.competition} {self.stage}.{self.slot}"


class Championship(models.Model):
    """A season's championship table, as its organiser declares it: the nights are the
    season's competitions of its game, each scored by the player's place (or the night's own
    points), the best ``best_of`` counted, ranked once ``min_nights`` are played, ties broken
    by ``tiebreaks`` in order, the top ``qualifiers`` going to a final (seasons.py)."""

    class Scoring(models.TextChoices):
        PLACES = "places", _("Points for each place in a night")
        POINTS = "points", _("The night's own points")

    class Tiebreak(models.TextChoices):
        PLACES = "places", _("More first places, then more second places, and so on")
        BEST = "best", _("The better best night, then the next best")
        NIGHTS = "nights", _("More nights played")
        TOTAL = "total", _("More points over every night, the dropped ones too")
        LAST = "last", _("The better score in the latest night")

    season = models.OneToOneField(Season, on_delete=models.CASCADE, related_name="championship")
    game = models.CharField(_("game"), max_length=16, validators=[validate_game])
    scoring = models.CharField(
        _("a night scores"), max_length=8, choices=Scoring.choices, default=Scoring.PLACES
    )
    # Points for 1st, 2nd, ... place, as text of decimals ("10", "8", ...); a place beyond
    # the list scores nothing.
    place_points = models.JSONField(_("points per place"), default=list, blank=True)
    best_of = models.PositiveSmallIntegerField(_("best nights counted"), null=True, blank=True)
    min_nights = models.PositiveSmallIntegerField(_("nights to be ranked"), default=1)
    tiebreaks = models.JSONField(_("tie-breaks"), default=list, blank=True)
    qualifiers = models.PositiveSmallIntegerField(_("qualify for the final"), null=True, blank=True)

    class Meta:
        verbose_name = _("championship")
        verbose_name_plural = _("championships")

    def __str__(self) -> str:
        return str(self.season)


class Stage(models.Model):
    """A competition that is a stage of an event: its entrants come from the final
    standings of earlier stages (``sources``, each a group) or of a season's table, seeded
    by them (stages.py)."""

    class Rule(models.TextChoices):
        TOP = "top", _("The top N")
        TOP_PER_GROUP = "top_per_group", _("The top N of each group")
        ABOVE = "above", _("Everyone with at least a score")

    competition = models.OneToOneField(Competition, on_delete=models.CASCADE, related_name="stage")
    sources = models.ManyToManyField(Competition, blank=True, related_name="next_stages")
    season = models.ForeignKey(
        Season, null=True, blank=True, on_delete=models.CASCADE, related_name="stages"
    )
    rule = models.CharField(
        _("who advances"), max_length=16, choices=Rule.choices, default=Rule.TOP
    )
    count = models.PositiveSmallIntegerField(_("how many"), null=True, blank=True)
    threshold = models.DecimalField(
        _("score at least"), max_digits=12, decimal_places=2, null=True, blank=True
    )
    carry_over = models.BooleanField(_("carry the score over"), default=False)
    advanced_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        verbose_name = _("stage")
        verbose_name_plural = _("stages")

    def __str__(self) -> str:
        return str(self.competition)


class Advanced(models.Model):
    """One player advanced into a stage: from where, at which place, with which seed and the
    score carried over (zero unless the stage carries it)."""

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="advanced")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    seed = models.PositiveSmallIntegerField()
    place = models.PositiveSmallIntegerField()
    came_from = models.CharField(max_length=120)
    carried = models.DecimalField(max_digits=12, decimal_places=2, default=0)

    class Meta:
        ordering = ["stage", "seed"]
        constraints = [
            models.UniqueConstraint(fields=["stage", "player"], name="advanced_once_per_stage")
        ]

    def __str__(self) -> str:
        return f"{self.stage} {self.seed}: {self.player}"
