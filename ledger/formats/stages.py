"""Stages of an event: a competition whose entrants come from the final standings of the
stages before it (each a group), or from a season's championship table, seeded by them.

Cases: league nights -> a final table of four (the season's top four); a qualifying Swiss
-> a knockout of eight (the Swiss's top eight, seeded 1-8 by the Swiss table); groups -> a
bracket (the top two of each group, the group winners seeded first).

Advancing is one write, once every earlier stage is over, and it enters exactly the players
the preview shows (both read ``candidates``): each with its seed (the entrant's number and
rating for seeding, so the draw seeds by it), its place and where it came from, and the
score it carries over when the stage carries scores.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ledger.clubs.errors import Conflict, Invalid
from ledger.clubs.models import Competition, Player, Result, Role, Season
from ledger.clubs.office.roles import require_role
from ledger.clubs.results.penalties import carry_score
from ledger.formats import seasons
from ledger.formats.models import Advanced, Entrant, Stage
from ledger.formats.selectors import progress, standings_for
from ledger.formats.services import enter_player

__all__ = [
    "Candidate",
    "Stage",
    "Tie",
    "advance",
    "blocked",
    "candidates",
    "check_choice",
    "describe",
    "make_stage",
    "stage_of",
    "ties",
]


# The formats whose standings are a points table, where a carried score counts.
CARRIES = frozenset({Competition.Format.LEAGUE, Competition.Format.ROUND_ROBIN})


@dataclass(frozen=True)
class Candidate:
    """One player who advances, as the preview shows them and the write enters them."""

    seed: int
    player_id: int
    name: str
    place: int
    came_from: str
    score: Decimal  # the score they had where they came from
    carried: Decimal  # the score they take with them (zero unless the stage carries it)


def carries(stage: Stage) -> bool:
    """The stage carries the score over and its standings add it up (a points table)."""
    return stage.carry_over and stage.competition.format in CARRIES


def stage_of(competition: Competition) -> Stage | None:
    return (
        Stage.objects.filter(competition=competition)
        .select_related("season", "competition")
        .prefetch_related("sources")
        .first()
    )


def _score(row: dict[str, Any]) -> Decimal:
    try:
        return Decimal(str(row.get("points", row.get("score", 0))))
    except InvalidOperation:
        return Decimal(0)


def _groups(stage: Stage) -> list[tuple[str, list[tuple[int, str, int, Decimal]]]]:
    """Each source's final standings as (player, name, place, score), best first: each
    earlier competition (a group), or the season's table (its ranked players)."""
    found: list[tuple[str, list[tuple[int, str, int, Decimal]]]] = []
    if stage.season_id is not None:
        season = stage.season
        assert season is not None
        table = seasons.season_table(season)
        found.append(
            (
                season.name,
                [(r.player_id, r.name, r.rank, r.total) for r in table.rows if r.rank is not None],
            )
        )
    for source in sorted(stage.sources.all(), key=lambda c: (c.created_at, c.pk)):
        found.append(
            (
                source.name,
                [
                    (int(r["player"]), str(r["name"]), int(r["place"]), _score(r))
                    for r in standings_for(source)
                    if r.get("played", 1)
                ],
            )
        )
    return found


@dataclass(frozen=True)
class Tie:
    """Players the earlier stage's tie-breaks cannot separate, sharing the place at the
    line: ``seats`` of them fit; the organiser chooses which, or lets them all advance."""

    came_from: str
    place: int
    seats: int
    players: tuple[tuple[int, str, Decimal], ...]  # (player, name, score), table order

    @property
    def ids(self) -> frozenset[int]:
        return frozenset(p for p, _n, _s in self.players)


_Row = tuple[int, str, int, Decimal, str]


def _cut(rows: list[_Row], n: int, key: Any) -> tuple[list[_Row], Tie | None]:
    """The first ``n`` rows (already in the earlier stage's order), or, when the rows at
    the line are equal by ``key`` (the earlier stage's place, after its tie-breaks), the
    rows above that tie and the tie itself."""
    if n <= 0 or len(rows) <= n or key(rows[n - 1]) != key(rows[n]):
        return rows[:n], None
    line = key(rows[n - 1])
    above = [r for r in rows[:n] if key(r) != line]
    tied = [r for r in rows if key(r) == line]
    sources = sorted({r[4] for r in tied})
    return above, Tie(
        ", ".join(sources), tied[0][2], n - len(above), tuple((r[0], r[1], r[3]) for r in tied)
    )


def _selection(stage: Stage) -> tuple[list[_Row], list[Tie]]:
    """Who advances by the stage's rule, best first, and the ties at a cut-off line the
    earlier stage's tie-breaks leave (their players not among the rows)."""
    groups = _groups(stage)
    picked: list[_Row] = []
    ties: list[Tie] = []
    if stage.rule == Stage.Rule.TOP_PER_GROUP:
        per = stage.count or 0
        for name, rows in groups:
            above, tie = _cut([(p, n, pl, sc, name) for p, n, pl, sc in rows], per, lambda r: r[2])
            picked.extend(above)
            if tie is not None:
                ties.append(tie)
        picked.sort(key=lambda c: (c[2], -c[3], c[1]))
    else:
        for name, rows in groups:
            picked.extend((p, n, place, score, name) for p, n, place, score in rows)
        if stage.rule == Stage.Rule.ABOVE:
            threshold = stage.threshold if stage.threshold is not None else Decimal(0)
            picked = [c for c in picked if c[3] >= threshold]
            picked.sort(key=lambda c: (-c[3], c[2], c[1]))
        else:
            if len(groups) > 1:
                # Across groups: by place, then score; equal on both is a tie.
                picked.sort(key=lambda c: (c[2], -c[3], c[1]))
                picked, tie = _cut(picked, stage.count or 0, lambda r: (r[2], r[3]))
            else:
                picked, tie = _cut(picked, stage.count or 0, lambda r: r[2])
            if tie is not None:
                ties.append(tie)
    return picked, ties


def ties(stage: Stage) -> list[Tie]:
    """The ties at the cut-off line the organiser must settle before advancing."""
    return _selection(stage)[1]


def candidates(stage: Stage, chosen: set[int] | frozenset[int] = frozenset()) -> list[Candidate]:
    """Who advances into the stage, in seed order, by its rule: the top N (of all the
    sources' rows, by place, then score), the top N of each group (the group winners
    seeded first, then the seconds, each rank by score), or everyone with at least the
    threshold's score (by score). Players tied at the line (``ties``) advance only when
    ``chosen`` names them, seeded after those above the line in the earlier table's order."""
    picked, found = _selection(stage)
    for tie in found:
        picked.extend(
            (p, n, tie.place, score, tie.came_from) for p, n, score in tie.players if p in chosen
        )
    seen: set[int] = set()
    out: list[Candidate] = []
    for player_id, name, place, score, source in picked:
        if player_id in seen:
            continue  # a player in two groups advances once, at their better seed
        seen.add(player_id)
        out.append(
            Candidate(
                len(out) + 1,
                player_id,
                name,
                place,
                source,
                score,
                score if carries(stage) else Decimal(0),
            )
        )
    return out


def check_choice(stage: Stage, chosen: set[int] | frozenset[int]) -> None:
    """Refuse a choice that does not settle every tie at the line: for each, exactly as
    many of its players as there are seats, or all of them."""
    for tie in ties(stage):
        mine = chosen & tie.ids
        if len(mine) != tie.seats and mine != tie.ids:
            names = ", ".join(n for _p, n, _s in tie.players)
            raise Invalid(
                _(
                    "%(names)s are tied at place %(place)d: choose %(seats)d of them, or "
                    "let them all advance."
                )
                % {"names": names, "place": tie.place, "seats": tie.seats},
                fields={"tied": [_("Choose %(seats)d, or all of them.") % {"seats": tie.seats}]},
            )


def describe(stage: Stage) -> str:
    """Who advances, in words: "The top 4", "The top 2 of each group", "Everyone with at
    least 12 points"."""
    if stage.rule == Stage.Rule.ABOVE:
        threshold = stage.threshold if stage.threshold is not None else Decimal(0)
        return _("Everyone with at least %(score)s") % {"score": f"{threshold.normalize():f}"}
    if stage.rule == Stage.Rule.TOP_PER_GROUP:
        return _("The top %(n)d of each group") % {"n": stage.count or 0}
    return _("The top %(n)d") % {"n": stage.count or 0}


def _over(competition: Competition) -> bool:
    """A competition whose final standings are known: it played its planned rounds to the
    end (a knockout: its final is won) or, open-ended (league nights), it has results and
    none awaits confirmation or a ruling."""
    found = progress(competition)
    if found.concluded:
        return True
    if found.planned is not None:
        return False
    results = Result.objects.filter(competition=competition)
    return (
        results.filter(status=Result.Status.ACCEPTED).exists()
        and not results.filter(status__in=(Result.Status.PENDING, Result.Status.DISPUTED)).exists()
    )


def waiting_for(stage: Stage) -> list[str]:
    """The earlier stages (or the season's nights) not over yet, by name: advancing waits
    for them."""
    sources = list(stage.sources.all())
    if stage.season is not None:
        sources += [n.competition for n in seasons.nights(stage.season)]
    return [c.name for c in sources if not _over(c)]


def blocked(stage: Stage) -> str:
    """Why the stage cannot advance now, in words ("" when it can)."""
    if stage.advanced_at is not None:
        return _("The players have advanced into this stage already.")
    if Entrant.objects.filter(competition=stage.competition).exists():
        return _("This stage has entrants already: advancing enters them all itself.")
    if not stage.season_id and not stage.sources.exists():
        return _("Choose the stage the players come from.")
    left = waiting_for(stage)
    if left:
        return _("Advancing waits until these are over: %(names)s.") % {"names": ", ".join(left)}
    return ""


@transaction.atomic
def advance(
    *, user: Any, competition: Competition, tied: set[int] | frozenset[int] = frozenset()
) -> list[Candidate]:
    """Enter the players who advance into the stage, seeded, exactly as the preview shows
    them with the organiser's choice among players tied at the line (``tied``: who of them
    advance); refused while an earlier stage is not over, a tie is unsettled, or once done."""
    require_role(user, competition.club, Role.ORGANISER)
    stage = Stage.objects.select_for_update().filter(competition=competition).first()
    if stage is None:
        raise Invalid(_("This competition is not a stage of an event."))
    reason = blocked(stage)
    if reason:
        raise Conflict(reason)
    check_choice(stage, tied)
    chosen = candidates(stage, tied)
    if len(chosen) < 2:
        raise Conflict(_("Fewer than two players advance: there is nothing to play."))
    players = Player.objects.in_bulk([c.player_id for c in chosen])
    for c in chosen:
        # The rating for seeding falls with the seed: every draw seeds by it.
        enter_player(
            user=user,
            competition=competition,
            player=players[c.player_id],
            rating=len(chosen) + 1 - c.seed,
        )
        Advanced.objects.create(
            stage=stage,
            player_id=c.player_id,
            seed=c.seed,
            place=c.place,
            came_from=c.came_from[:120],
            carried=c.carried,
        )
        # The carried score counts: one journal line adds it to the new standings.
        carry_score(
            user=user,
            competition=competition,
            player=players[c.player_id],
            points=c.carried,
            came_from=c.came_from,
        )
    stage.advanced_at = timezone.now()
    stage.save(update_fields=["advanced_at"])
    return chosen


@transaction.atomic
def make_stage(
    *,
    user: Any,
    competition: Competition,
    sources: list[Competition],
    season: Season | None,
    rule: str,
    count: int | None,
    threshold: Decimal | None,
    carry_over: bool,
) -> Stage:
    """Declare (or change, until the players advanced) where a stage's players come from."""
    require_role(user, competition.club, Role.ORGANISER)
    if rule not in Stage.Rule.values:
        raise Invalid(_("Choose who advances."), fields={"rule": [_("Choose one.")]})
    if not sources and season is None:
        raise Invalid(
            _("Choose the stage the players come from."),
            fields={"sources": [_("Choose at least one competition, or a season.")]},
        )
    if competition in sources:
        raise Invalid(
            _("A stage cannot take its players from itself."),
            fields={"sources": [_("Not this competition.")]},
        )
    if any(s.club_id != competition.club_id for s in sources) or (
        season is not None and season.club_id != competition.club_id
    ):
        raise Invalid(_("The earlier stage belongs to another club."), fields={"sources": ["?"]})
    if rule in (Stage.Rule.TOP, Stage.Rule.TOP_PER_GROUP) and not count:
        raise Invalid(
            _("Say how many players advance."), fields={"count": [_("A number, such as 4 or 8.")]}
        )
    if rule == Stage.Rule.ABOVE and threshold is None:
        raise Invalid(
            _("Say the score a player needs to advance."),
            fields={"threshold": [_("A number, such as 12.")]},
        )
    if carry_over and competition.format not in CARRIES:
        raise Invalid(
            _("%(format)s: the score cannot be carried over into this stage.")
            % {"format": competition.get_format_display()},
            fields={
                "carry_over": [
                    _(
                        "A knockout starts level, and a Swiss pairs its players by the points they"
                        " win in it: only a league's or a round robin's standings add up a score."
                    )
                ]
            },
        )
    stage = Stage.objects.select_for_update().filter(competition=competition).first()
    if stage is not None and stage.advanced_at is not None:
        raise Conflict(_("The players have advanced into this stage already."))
    if stage is None:
        stage = Stage(competition=competition)
    stage.season, stage.rule, stage.count = season, rule, count
    stage.threshold, stage.carry_over = threshold, carry_over
    stage.save()
    stage.sources.set(sources)
    return stage
