"""Previews that tell the truth: what a correction, a ruling or a void would change is
found by running the very write that applies it (``supersede_result``, the referee's
``rule``, ``void_result``) inside a savepoint that is always rolled back, and reading the
standings before and after from the table people read for that competition's format (the
Swiss table for a Swiss or a team event, the bracket's ranking for a knockout, the league
table otherwise), so the preview cannot say what the write would not do.

A dry run leaves nothing behind: its rows, journal lines and the club's journal head are
rolled back with the savepoint (on PostgreSQL, ``ledger_append`` moved the head inside
it), the work a write leaves for after its commit (webhook deliveries, the ratings'
replay) is dropped with the savepoint by Django, and what is read inside is kept in no
cache (``standings.kept_nowhere``).
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from ledger.clubs import ratings as rating_module
from ledger.clubs.models import Competition, Rating, Result
from ledger.clubs.outcomes import key_label
from ledger.clubs.projections.standings import kept_nowhere, settings_of, standings

Rows = list[dict[str, Any]]

#: How the standings people read are ranked: the formats app registers its own reader when
#: it loads (``ledger.formats.selectors.standings_for``); the journal's standings before.
_readers: list[Callable[[Competition], Rows]] = []


def read_standings_with(reader: Callable[[Competition], Rows]) -> None:
    _readers[:] = [reader]


def standings_people_read(competition: Competition) -> Rows:
    """The competition's ranked rows, each with its ``place``, ``player`` and ``name``."""
    if _readers:
        return _readers[0](competition)
    return [{**row.as_json(), "place": row.rank} for row in standings(competition)]


def column(competition: Competition, rows: Rows) -> tuple[str, str]:
    """The key of the column a preview compares, and its words: the Swiss table's score, a
    knockout's round reached, else the first key the competition ranks by."""
    if any("score" in row for row in rows):
        return "score", _("Score")
    if any("reached" in row for row in rows):
        return "round", _("Round reached")
    first = settings_of(competition).order[0]
    words = key_label(first, competition.game)
    return first, words[:1].upper() + words[1:]


class _RolledBack(Exception):
    pass


def dry_run(apply: Callable[[], Any], read: Callable[[], Any]) -> tuple[Any, Any]:
    """``apply()`` then ``read()`` inside a savepoint that is always rolled back: what the
    write returned and what was read after it. An error of the write reaches the caller
    (nothing was written either way)."""
    kept: dict[str, Any] = {}
    try:
        with kept_nowhere(), transaction.atomic():
            kept["made"] = apply()
            kept["read"] = read()
            raise _RolledBack
    except _RolledBack:
        pass
    return kept["made"], kept["read"]


def _value(row: dict[str, Any] | None, key: str) -> Any:
    if row is None:
        return None
    value = row.get(key)
    if isinstance(value, str):
        try:
            return Decimal(value)
        except ArithmeticError:
            return value
    if isinstance(value, float):
        return Decimal(str(value))
    return value


def snapshot(competition: Competition) -> dict[str, Any]:
    """What a preview compares: each player's row of the standings people read, and each
    player's rating in the competition's game."""
    return {
        "rows": {row["player"]: row for row in standings_people_read(competition)},
        "ratings": {
            r.player_id: r.mu
            for r in Rating.objects.filter(club_id=competition.club_id, game=competition.game)
        },
    }


def preview(
    competition: Competition, apply: Callable[[], Any], *, since: Any = None
) -> dict[str, Any]:
    """What ``apply`` (a write) would change, found by running it and rolling it back:
    ``made`` (what it returned, rolled back), ``rows`` (the players whose place, the
    format's column or rating would change, best placed after first), ``before`` and
    ``after`` (each player's (place, value) in the standings people read), ``column`` (the
    value's words) and ``later_results`` (results entered after ``since``, re-rated)."""
    before = snapshot(competition)

    def after() -> dict[str, Any]:
        rating_module.recompute(competition.club_id, competition.game)
        return snapshot(competition)

    made, then = dry_run(apply, after)
    key, label = column(competition, [*before["rows"].values(), *then["rows"].values()])
    players = set(before["rows"]) | set(then["rows"])
    rows = []
    for player in players:
        b, a = before["rows"].get(player), then["rows"].get(player)
        rb, ra = before["ratings"].get(player), then["ratings"].get(player)
        row = {
            "player": player,
            "name": (a or b or {}).get("name", ""),
            "rank_before": b["place"] if b else None,
            "rank_after": a["place"] if a else None,
            "points_before": _value(b, key),
            "points_after": _value(a, key),
            "rating_before": rb,
            "rating_after": ra,
        }
        row["text"] = isinstance(row["points_before"] or row["points_after"], str)
        if (
            row["rank_before"] != row["rank_after"]
            or row["points_before"] != row["points_after"]
            or (rb is not None and ra is not None and abs(rb - ra) > 1e-9)
        ):
            rows.append(row)
    rows.sort(key=lambda r: (r["rank_after"] or 10**9, r["name"]))
    later = 0
    if since is not None:
        later = Result.objects.filter(competition=competition, entered_at__gt=since).count()
    return {
        "made": made,
        "rows": rows,
        "column": label,
        "before": {p: (r["place"], _value(r, key)) for p, r in before["rows"].items()},
        "after": {p: (r["place"], _value(r, key)) for p, r in then["rows"].items()},
        "later_results": later,
    }
