"""The rankings' reads for the pages and the files: the rows the workers wrote, never a
computation (ledger/federation/rankings.py makes them). A few queries a page, however many
rows the table has: the rows of one page, their people and clubs joined in."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal

from django.core.cache import cache
from django.db.models import QuerySet
from django.urls import reverse

from ledger.federation.models import (
    Federation,
    MemberClub,
    RankingMonth,
    RankingRow,
    RankingRules,
    RankingState,
)
from ledger.federation.rankings import month_end, rules_of

PER_PAGE = 50


@dataclass(frozen=True)
class Line:
    """A row of the table as the page and the files show it."""

    rank: int
    person_id: int
    name: str
    club_id: int
    club_name: str
    value: Decimal
    results: int
    movement: int | None


_LINE_FIELDS = (
    "rank",
    "person_id",
    "person__name",
    "club_id",
    "club__name",
    "value",
    "results",
    "movement",
)


@dataclass
class Ranking:
    federation: Federation
    game: str
    kind: str
    period: datetime.date | None  # the month shown (its last day); None: no table yet
    periods: list[datetime.date]  # every month the table has, the latest first
    rows: list[Line]
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
    search: str = ""  # the name looked for, as typed
    version: int = 0  # the projection's (RankingState.version): the cache's key
    in_month: int = 0  # how many the month's table ranks, unfiltered


def find(slug: str, game: str) -> tuple[Federation | None, RankingState | None]:
    """The federation of this address and where its rankings of the game stand (None when
    it has none), in one query when it has them."""
    state = (
        RankingState.objects.filter(federation__slug=slug, game=game)
        .select_related("federation")
        .first()
    )
    if state is not None:
        return state.federation, state
    return Federation.objects.filter(slug=slug).first(), None


#: How long what a page shows around its rows is kept at most (keyed on the rankings'
#: version, which moves whenever the workers write, a club is approved or its province set).
SHELL_CACHE_SECONDS = 600


def _shell(
    federation: Federation, game: str, kind: str, state: RankingState
) -> tuple[dict[datetime.date, int], list[tuple[int, str, str]], RankingRules]:
    """Every month the table has, the latest first, with how many it ranks (the workers
    keep them beside the rows: no pass over the rows here); the member clubs (id, name,
    province); the rules. Cached under the rankings' version."""
    key = f"federation-ranking-shell:{federation.pk}:{game}:{kind}:{state.version}:" + (
        state.updated_at.isoformat() if state.updated_at else ""
    )
    hit = cache.get(key)
    if hit is not None:
        found: tuple[dict[datetime.date, int], list[tuple[int, str, str]], RankingRules] = hit
        return found
    counted = dict(
        RankingMonth.objects.filter(federation=federation, game=game, kind=kind)
        .order_by("-period")
        .values_list("period", "rows")
    )
    members = list(
        MemberClub.objects.filter(federation=federation, status=MemberClub.Status.APPROVED)
        .order_by("club__name", "club_id")
        .values_list("club_id", "club__name", "province")
    )
    # The rating has no rules to tell (the points ranking's are the federation's).
    rules = (
        rules_of(federation.pk)
        if kind == RankingRow.Kind.POINTS
        else RankingRules(federation=federation)
    )
    made = (counted, members, rules)
    cache.set(key, made, SHELL_CACHE_SECONDS)
    return made


def _matching(rows: QuerySet[RankingRow], search: str) -> QuerySet[RankingRow]:
    """The rows of the people whose name holds every word typed (letter case aside)."""
    for word in search.split():
        rows = rows.filter(person__name__icontains=word)
    return rows


def ranking(
    federation: Federation,
    game: str,
    kind: str,
    *,
    state: RankingState | None = None,
    period: datetime.date | None = None,
    province: str = "",
    club: int | None = None,
    search: str = "",
    page: int = 1,
    per_page: int | None = PER_PAGE,
    rows: bool = True,
) -> Ranking:
    """One month's table (the latest when ``period`` is None; a day picks its month), its
    rows filtered by the province and the club of each person's latest result and by the
    name looked for. Without ``rows``, all but the rows and their count (``fill`` reads
    them). ``state``: the game's RankingState, when the caller has it."""
    if state is None:
        state = RankingState.objects.filter(federation=federation, game=game).first()
    if state is None:
        state = RankingState(federation=federation, game=game)
    counted, members, rules = _shell(federation, game, kind, state)
    months = list(counted)
    chosen = None
    if months:
        wanted = month_end(period) if period is not None else months[0]
        # A month before the first result: no table; after the latest: the latest.
        if wanted >= months[-1]:
            latest = min(wanted, months[0])
            # A month the table skipped: the one before it.
            chosen = next((m for m in months if m <= latest), None)
    table = Ranking(  # the rows read by fill()
        federation=federation,
        game=game,
        kind=kind,
        period=chosen,
        periods=months,
        rows=[],
        count=0,
        page=max(1, page),
        pages=1,
        province=province,
        club=club,
        provinces=sorted({p for _c, _n, p in members if p}),
        clubs=[(c, n) for c, n, _p in members],
        rules=rules,
        updated_at=state.updated_at,
        current=chosen == month_end(datetime.date.today()),
        provinces_of={c: p for c, _n, p in members},
        search=search,
        version=state.version,
        in_month=counted.get(chosen, 0) if chosen else 0,
    )
    if rows:
        fill(table, page, per_page)
    return table


def fill(table: Ranking, page: int = 1, per_page: int | None = PER_PAGE) -> None:
    """Read the table's rows of the page asked (every row with ``per_page`` None), in one
    query, with how many match (kept beside the rows by the workers when unfiltered)."""
    if table.period is None:
        return
    found = RankingRow.objects.filter(
        federation=table.federation, game=table.game, kind=table.kind, period=table.period
    )
    filtered = bool(table.province or table.club is not None or table.search.split())
    if table.province:
        found = found.filter(
            club_id__in=[c for c, p in table.provinces_of.items() if p == table.province]
        )
    if table.club is not None:
        found = found.filter(club_id=table.club)
    found = _matching(found, table.search)
    count = found.count() if filtered else table.in_month
    size = per_page or max(count, 1)
    table.count, table.pages = count, max(1, -(-count // size))
    table.page = min(max(1, page), table.pages)
    ordered = found.order_by("rank", "person_id").values_list(*_LINE_FIELDS)
    if per_page:
        ordered = ordered[(table.page - 1) * size : table.page * size]
    table.rows = [Line(*r) for r in ordered]


def games(federation: Federation) -> list[str]:
    """The games the federation has rankings of."""
    return sorted(
        set(RankingState.objects.filter(federation=federation).values_list("game", flat=True))
    )


def person_links(federation: Federation) -> Callable[[int], str]:
    """Where a person's name leads (their federation page), as a function of their id:
    the address is worked out once for a whole table, not once a row."""
    marker = 987654321
    shape = reverse("federation-person", args=[federation.slug, marker])
    head, tail = shape.split(str(marker), 1)
    return lambda person_id: f"{head}{person_id}{tail}"
