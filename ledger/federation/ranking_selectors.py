"""The rankings' reads for the pages and the files: the rows the workers wrote, never a
computation (ledger/federation/rankings.py makes them). A few queries a page, however many
rows the table has: the rows of one page, their people and clubs joined in."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Max, Min, QuerySet

from ledger.federation.models import (
    Federation,
    MemberClub,
    RankingRow,
    RankingRules,
    RankingState,
)
from ledger.federation.rankings import month_end, periods, rules_of

PER_PAGE = 100


@dataclass
class Ranking:
    federation: Federation
    game: str
    kind: str
    period: datetime.date | None  # the month shown (its last day); None: no table yet
    periods: list[datetime.date]  # every month the table has, the latest first
    rows: list[RankingRow]
    count: int  # rows matching the filters
    page: int
    pages: int
    province: str
    club: int | None
    provinces: list[str]
    clubs: list[tuple[int, str]]
    rules: RankingRules
    updated_at: datetime.datetime | None
    current: bool = False  # the month under way
    provinces_of: dict[int, str] = field(default_factory=dict)  # club id -> province


def _months(federation: Federation, game: str, kind: str) -> list[datetime.date]:
    found = RankingRow.objects.filter(federation=federation, game=game, kind=kind).aggregate(
        first=Min("period"), last=Max("period")
    )
    if found["first"] is None:
        return []
    return list(reversed(periods(found["first"], found["last"])))


def ranking(
    federation: Federation,
    game: str,
    kind: str,
    *,
    period: datetime.date | None = None,
    province: str = "",
    club: int | None = None,
    page: int = 1,
    per_page: int | None = PER_PAGE,
) -> Ranking:
    """One month's table (the latest when ``period`` is None; a day picks its month), its
    rows filtered by the province and the club of each person's latest result."""
    months = _months(federation, game, kind)
    chosen = None
    if months:
        wanted = month_end(period) if period is not None else months[0]
        # A month before the first result: no table; after the latest: the latest.
        chosen = None if wanted < months[-1] else min(wanted, months[0])
    members = list(
        MemberClub.objects.filter(
            federation=federation, status=MemberClub.Status.APPROVED
        ).values_list("club_id", "club__name", "province")
    )
    rows: QuerySet[RankingRow] = RankingRow.objects.none()
    if chosen is not None:
        rows = RankingRow.objects.filter(federation=federation, game=game, kind=kind, period=chosen)
    if province:
        rows = rows.filter(club_id__in=[c for c, _n, p in members if p == province])
    if club is not None:
        rows = rows.filter(club_id=club)
    count = rows.count()
    size = per_page or max(count, 1)
    pages = max(1, -(-count // size))
    page = min(max(1, page), pages)
    shown = list(
        rows.select_related("person", "club").order_by("rank", "person_id")[
            (page - 1) * size : page * size
        ]
    )
    state = RankingState.objects.filter(federation=federation, game=game).first()
    today = month_end(datetime.date.today())
    return Ranking(
        federation=federation,
        game=game,
        kind=kind,
        period=chosen,
        periods=months,
        rows=shown,
        count=count,
        page=page,
        pages=pages,
        province=province,
        club=club,
        provinces=sorted({p for _c, _n, p in members if p}),
        clubs=sorted(((c, n) for c, n, _p in members), key=lambda c: c[1]),
        rules=rules_of(federation.pk),
        updated_at=state.updated_at if state else None,
        current=chosen == today,
        provinces_of={c: p for c, _n, p in members},
    )


def games(federation: Federation) -> list[str]:
    """The games the federation has rankings of."""
    return sorted(
        set(RankingState.objects.filter(federation=federation).values_list("game", flat=True))
    )


def person_link(federation: Federation, row: Any) -> str:
    """Where a person's name leads: their federation page where there is one, else their
    page in the club of their latest result."""
    from django.urls import NoReverseMatch, reverse

    try:
        return reverse("federation-person", args=[federation.slug, row.person_id])
    except NoReverseMatch:
        return reverse("player", args=[row.club.slug, row.person_id])
