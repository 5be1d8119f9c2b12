"""A region's federation: its officers, its member clubs, its seasons of membership cards,
its event tiers, and the competitions it sanctions at a tier (docs/federation.md)."""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledger.clubs.models import Club, Competition, Player


class Federation(models.Model):
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("short name"), max_length=60, unique=True)
    region = models.CharField(_("region"), max_length=80, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name"]
        verbose_name = _("federation")
        verbose_name_plural = _("federations")

    def __str__(self) -> str:
        return self.name

    def is_officer(self, user: object) -> bool:
        pk = getattr(user, "pk", None)
        return pk is not None and self.officers.filter(user_id=pk).exists()


class Officer(models.Model):
    """A person who runs the federation: approves clubs, keeps the cards, sets the tiers
    and sanctions events."""

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="officers")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    since = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["federation", "user"], name="federation_one_officer_per_person"
            )
        ]

    def __str__(self) -> str:
        return str(self.user)


class MemberClub(models.Model):
    """A club's membership of the federation: it applies, an officer approves or refuses."""

    class Status(models.TextChoices):
        APPLIED = "applied", _("Applied")
        APPROVED = "approved", _("Member")
        REFUSED = "refused", _("Refused")

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="clubs")
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="federations")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.APPLIED)
    applied_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    applied_at = models.DateTimeField(default=timezone.now)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    # Where the club plays, as the federation groups its clubs (a filter of the rankings).
    province = models.CharField(_("province"), max_length=60, blank=True, default="")

    class Meta:
        ordering = ["club__name"]
        constraints = [
            models.UniqueConstraint(
                fields=["federation", "club"], name="federation_one_membership_per_club"
            )
        ]

    def __str__(self) -> str:
        return f"{self.club} ({self.get_status_display()})"


class Tier(models.Model):
    """An event tier (club, provincial, regional, national...) with its weight, and what a
    sanctioned competition's enrolment does with a player who holds no valid card."""

    class MissingCard(models.TextChoices):
        WARN = "warn", _("Enrol, with a warning")
        REFUSE = "refuse", _("Refuse the entry")

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="tiers")
    name = models.CharField(_("name"), max_length=60)
    weight = models.DecimalField(
        _("weight"), max_digits=6, decimal_places=2, default=Decimal("1.00")
    )
    missing_card = models.CharField(
        _("a player without a valid card"),
        max_length=8,
        choices=MissingCard.choices,
        default=MissingCard.REFUSE,
    )

    class Meta:
        ordering = ["weight", "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["federation", "name"], name="federation_one_tier_per_name"
            )
        ]

    def __str__(self) -> str:
        return self.name


class CardSeason(models.Model):
    """A season of membership cards, as the federation's list gives them."""

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=60)
    starts = models.DateField(_("valid from"))
    ends = models.DateField(_("valid until"))

    class Meta:
        ordering = ["-starts"]
        constraints = [
            models.UniqueConstraint(
                fields=["federation", "name"], name="federation_one_card_season_per_name"
            ),
            models.CheckConstraint(
                condition=models.Q(ends__gte=models.F("starts")),
                name="federation_card_season_in_order",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Card(models.Model):
    """A membership card (the tessera): its number, the person, its validity; the player
    it was matched to by name in a member club, when there is one."""

    season = models.ForeignKey(CardSeason, on_delete=models.CASCADE, related_name="cards")
    number = models.CharField(_("card number"), max_length=40)
    name = models.CharField(_("name"), max_length=120)
    valid_from = models.DateField(_("valid from"))
    valid_until = models.DateField(_("valid until"))
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="cards"
    )

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(
                fields=["season", "number"], name="federation_one_card_per_number"
            )
        ]

    def __str__(self) -> str:
        return f"{self.number} {self.name}"


class Sanction(models.Model):
    """A competition sanctioned by the federation at a tier."""

    competition = models.OneToOneField(
        Competition, on_delete=models.CASCADE, related_name="sanction"
    )
    tier = models.ForeignKey(Tier, on_delete=models.PROTECT, related_name="sanctions")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.competition} ({self.tier})"


# --- the rankings (docs/federation.md, "Rankings"): the officers' rules, and the tables the
# workers keep (ledger/federation/rankings.py), rebuilt from the journal whenever needed.

#: Points for each place of a sanctioned competition's final standing, before the tier's
#: weight: a place beyond the list scores nothing.
DEFAULT_PLACE_POINTS = [
    "25", "20", "16", "13", "11", "10", "9", "8", "7", "6", "5", "4", "3", "2", "1",
]  # fmt: skip


def default_place_points() -> list[str]:
    return list(DEFAULT_PLACE_POINTS)


class RankingRules(models.Model):
    """How the federation's points ranking is made: each person's best ``best`` results of
    the last ``months`` months, a result's points those of its place (``place_points``)
    times its tier's weight. A federation without a row ranks by the defaults."""

    federation = models.OneToOneField(
        Federation, on_delete=models.CASCADE, related_name="ranking_rules"
    )
    best = models.PositiveSmallIntegerField(_("best results counted"), default=10)
    months = models.PositiveSmallIntegerField(_("months counted"), default=12)
    place_points = models.JSONField(_("points for each place"), default=default_place_points)

    def __str__(self) -> str:
        return f"{self.federation}: best {self.best} in {self.months} months"


class RankedResult(models.Model):
    """A person's final standing in one sanctioned competition, with the points it gives
    in the federation's points ranking (the tier's weight applied). A projection."""

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="+")
    game = models.CharField(max_length=16)
    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="+")
    person = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    day = models.DateField()
    place = models.PositiveIntegerField()
    points = models.DecimalField(max_digits=12, decimal_places=2)

    class Meta:
        indexes = [models.Index(fields=["federation", "game", "day"])]
        constraints = [
            models.UniqueConstraint(
                fields=["competition", "person"], name="federation_one_ranked_result"
            )
        ]

    def __str__(self) -> str:
        return f"{self.person_id}@{self.competition_id}: {self.points}"


class RankingRow(models.Model):
    """A person's line in one of the federation's rankings of a game, as it stood at the end
    of a month (``period``: the month's last day; the month under way is kept up to date).
    A projection: written by the workers, read by the pages."""

    class Kind(models.TextChoices):
        RATING = "rating", _("Rating")
        POINTS = "points", _("Points")

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="+")
    game = models.CharField(max_length=16)
    kind = models.CharField(max_length=8, choices=Kind.choices)
    period = models.DateField()
    person = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    # The club of the person's latest result counted (the club and province filters).
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    rank = models.PositiveIntegerField()
    # The points ranking's total, or the rating shown (mu minus three sigma).
    value = models.DecimalField(max_digits=12, decimal_places=2)
    mu = models.FloatField(null=True)
    sigma = models.FloatField(null=True)
    results = models.PositiveIntegerField(default=0)
    # Places gained since the month before (None: not in that month's table).
    movement = models.IntegerField(null=True)

    class Meta:
        indexes = [
            # A page's rows in one index scan, the whole table's or one club's.
            models.Index(
                fields=["federation", "game", "kind", "period", "rank", "person"],
                name="federation_ranking_page",
            ),
            models.Index(
                fields=["federation", "game", "kind", "period", "club", "rank", "person"],
                name="federation_ranking_club_page",
            ),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["federation", "game", "kind", "period", "person"],
                name="federation_one_ranking_row",
            )
        ]

    def __str__(self) -> str:
        return f"{self.game} {self.kind} {self.period}: #{self.rank} {self.person_id}"


class RankingMonth(models.Model):
    """One month's table of a ranking, as its rows stand: how many people it ranks. Written
    with the rows by the workers, so that a page reads the months it offers and the count
    of its table without going through the rows."""

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="+")
    game = models.CharField(max_length=16)
    kind = models.CharField(max_length=8, choices=RankingRow.Kind.choices)
    period = models.DateField()
    rows = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["federation", "game", "kind", "period"], name="federation_one_month"
            )
        ]

    def __str__(self) -> str:
        return f"{self.game} {self.kind} {self.period}: {self.rows}"


class RankingState(models.Model):
    """Where a game's rankings of a federation stand: when they were rebuilt, and the last
    result the rating has folded in (its journal line's time, club and number), so that a
    later result is folded onto the table instead of replaying everything."""

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="+")
    game = models.CharField(max_length=16)
    rebuilt_at = models.DateTimeField(null=True)
    updated_at = models.DateTimeField(null=True)
    last_at = models.DateTimeField(null=True)
    last_club = models.BigIntegerField(default=0)
    last_sequence = models.BigIntegerField(default=0)
    rated = models.PositiveIntegerField(default=0)
    # Moves on each time the game's rankings are written: the pages' cache is keyed on it.
    version = models.PositiveBigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["federation", "game"], name="federation_one_state")
        ]

    def __str__(self) -> str:
        return f"{self.federation_id} {self.game}"


class PersonName(models.Model):
    """A player's name as the matcher reads it (ledger/formats/names.py: case, accents,
    apostrophes and word order aside), kept so that the federation's "did you mean", its
    search and its likely duplicates ask the database for the few people a name may mean
    instead of reading every member (ledger/federation/name_index.py keeps it)."""

    player = models.OneToOneField(
        Player, on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    name = models.CharField(max_length=120)  # the name the key was made from
    key = models.CharField(max_length=240, db_index=True)

    def __str__(self) -> str:
        return self.key


class NameWord(models.Model):
    """One word of a player's name key: the people whose name has a word, or a word
    beginning the same way, are the candidates a typed name is compared with."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    word = models.CharField(max_length=120, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "word"], name="federation_one_name_word")
        ]

    def __str__(self) -> str:
        return self.word
