"""Previews tell the truth: a correction's and a void's preview run the write that applies
them and roll it back, so what they announce, read from the standings people read for the
competition's format, is what the write then does; and a dry run leaves nothing behind."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.core.cache import caches
from django.db import transaction
from django.test import TestCase
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.clubs import ratings
from ledger.clubs.models import Club, Entry, Rating, Result, Webhook, WebhookDelivery
from ledger.clubs.results import previews, services
from ledger.formats import services as formats
from tests.formats.conftest import enter, make_competition

pytestmark = pytest.mark.django_db

FORMATS = ["league", "round_robin", "swiss", "knockout", "team"]


class _Undo(Exception):
    pass


def _play(people: Any, competition: Any, rounds: int) -> None:
    for n in range(rounds):
        try:
            draw = formats.generate_round(user=people.users["organiser"], competition=competition)
        except Exception:  # the schedule is complete, or a knockout has its champion
            return
        formats.publish_draw(user=people.users["organiser"], draw=draw)
        for i, table in enumerate(draw.round.tables.order_by("pk")):
            scores = [3, 1] if (i + n) % 2 == 0 else [1, 4]
            services.record_result(
                user=people.users["scorekeeper"], table=table, source="manual", scores=scores
            )


def _competition(club: Any, people: Any, fmt: str) -> Any:
    competition = make_competition(club, fmt)
    players = enter(people, competition, 6 if fmt != "knockout" else 4)
    formats.update_settings(
        user=people.users["organiser"], competition=competition, seats_per_table=2
    )
    if fmt == "team":
        for i, p in enumerate(players):
            formats.create_team(
                user=people.users["organiser"], competition=competition, name=f"S{i}", members=[p]
            )
    _play(people, competition, 2)
    return competition


def _read(competition: Any) -> dict[int, tuple[Any, Any]]:
    rows = previews.standings_people_read(competition)
    key, _words = previews.column(competition, rows)
    return {r["player"]: (r["place"], previews._value(r, key)) for r in rows}


def _mu(competition: Any) -> dict[int, float]:
    return dict(
        Rating.objects.filter(club_id=competition.club_id, game=competition.game).values_list(
            "player_id", "mu"
        )
    )


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_corrections_preview_is_what_the_correction_then_does_in_every_format(
    club: Any, people: Any, points_game: str, fmt: str
) -> None:
    competition = _competition(club, people, fmt)
    counted = list(Result.objects.filter(competition=competition, status="accepted").order_by("pk"))
    assert counted, "the format played no table"
    referee = people.users["referee"]

    @settings(
        max_examples=8,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(which=st.integers(0, 50), first=st.integers(-4, 6), second=st.integers(-4, 6))
    def check(which: int, first: int, second: int) -> None:
        result = counted[which % len(counted)]
        scores = [first, second]
        try:
            with transaction.atomic():
                before = _read(competition)
                shown = services.preview_correction(
                    user=referee, result=result, source="manual", scores=scores, reason="x"
                )
                assert shown["before"] == before
                assert _read(competition) == before, "the preview left something behind"
                assert [Decimal(s) for s in shown["scores"]] == [Decimal(s) for s in scores]
                services.supersede_result(
                    user=referee, result=result, source="manual", scores=scores, reason="x"
                )
                assert _read(competition) == shown["after"]
                ratings.recompute(competition.club_id, competition.game)
                mu = _mu(competition)
                for row in shown["rows"]:
                    if row["rating_after"] is not None:
                        assert abs(mu[row["player"]] - row["rating_after"]) < 1e-9
                raise _Undo
        except _Undo:
            pass

    check()


@pytest.mark.parametrize("fmt", ["swiss", "league"])
def test_a_voids_preview_is_what_the_void_then_does(
    club: Any, people: Any, points_game: str, fmt: str
) -> None:
    competition = _competition(club, people, fmt)
    referee = people.users["referee"]
    for result in Result.objects.filter(competition=competition, status="accepted"):
        try:
            with transaction.atomic():
                shown = services.preview_void(user=referee, result=result, reason="twice")
                services.void_result(user=referee, result=result, reason="twice")
                assert _read(competition) == shown["after"]
                raise _Undo
        except _Undo:
            pass


def test_the_swiss_preview_reads_the_swiss_table_not_the_journals_points(
    club: Any, people: Any, points_game: str
) -> None:
    """A correction that changes a game's points but not who won it changes nothing in the
    Swiss table: the preview says so, and shows the Swiss table's score."""
    competition = _competition(club, people, "swiss")
    result = Result.objects.filter(competition=competition, status="accepted").first()
    with translation.override("en"):
        shown = services.preview_correction(
            user=people.users["referee"],
            result=result,
            source="manual",
            scores=[int(Decimal(s)) * 2 for s in result.scores],  # the same winner, more points
        )
    assert shown["column"] == "Score"
    assert all(r["points_before"] == r["points_after"] for r in shown["rows"])
    assert all(r["rank_before"] == r["rank_after"] for r in shown["rows"])
    assert shown["after"] == shown["before"]


def test_a_dry_run_leaves_no_line_head_delivery_task_or_cache_behind(
    club: Any, people: Any, points_game: str
) -> None:
    competition = _competition(club, people, "league")
    Webhook.objects.create(club=club, url="https://example.org/hook", secret="s3cret")
    result = Result.objects.filter(competition=competition, status="accepted").first()
    cache = caches["default"]
    cache.set("probe", 1)
    kept = dict(getattr(cache, "_cache", {}))

    def state() -> tuple[Any, ...]:
        head = Club.objects.filter(pk=club.pk).values_list("journal_length", "journal_head")
        return (
            list(head),
            Entry.objects.count(),
            Result.objects.count(),
            WebhookDelivery.objects.count(),
            list(Result.objects.filter(pk=result.pk).values_list("status", flat=True)),
        )

    before = state()
    with TestCase.captureOnCommitCallbacks() as later:
        services.preview_correction(
            user=people.users["referee"], result=result, source="manual", scores=[0, 9]
        )
        services.preview_void(user=people.users["referee"], result=result, reason="twice")
    assert later == [], "a dry run left work for after a commit"
    assert state() == before
    assert result.status == Result.Status.ACCEPTED
    if kept:
        assert dict(getattr(cache, "_cache", {})).keys() == kept.keys()
    # The same writes, applied, do leave their deliveries and their work for the commit.
    with TestCase.captureOnCommitCallbacks() as applied:
        services.supersede_result(
            user=people.users["referee"], result=result, source="manual", scores=[0, 9]
        )
    assert applied and WebhookDelivery.objects.count() > before[3]


@pytest.mark.parametrize("fmt", ["swiss", "knockout", "league"])
def test_a_rulings_preview_is_what_the_ruling_then_writes(
    club: Any, people: Any, points_game: str, fmt: str
) -> None:
    from ledger.referee import services as referee
    from ledger.referee.models import Case

    competition = _competition(club, people, fmt)
    result = Result.objects.filter(competition=competition, status="accepted").first()
    judge = people.users["referee"]

    @settings(
        max_examples=6,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(
        kind=st.sampled_from(["assigned", "void", "upheld"]),
        first=st.integers(-3, 5),
        second=st.integers(-3, 5),
    )
    def check(kind: str, first: int, second: int) -> None:
        params = {"scores": [str(first), str(second)]} if kind == "assigned" else {}
        try:
            with transaction.atomic():
                case = referee.open_case(user=judge, competition=competition, result=result)
                shown = referee.preview_rule(user=judge, case=case, kind=kind, params=params)
                case.refresh_from_db()
                assert case.status == Case.Status.OPEN, "the preview ruled"
                lines_before = Entry.objects.count()
                referee.rule(user=judge, case=case, kind=kind, params=params)
                assert _read(competition) == shown["after"]
                written = {
                    (e.seat, e.kind): e.points
                    for e in Entry.objects.order_by("sequence")[lines_before:]
                }
                for seat, line in enumerate(shown["lines"]):
                    assert written.get((seat, "reversal")) == line["reversal"]
                    assert written.get((seat, "credit")) == line["credit"]
                raise _Undo
        except _Undo:
            pass

    check()


def test_the_void_form_previews_what_voiding_changes_before_anything_is_written(
    client: Any, people: Any, manual_table: Any
) -> None:
    first, _ = services.record_result(
        user=people.users["scorekeeper"], table=manual_table, source="manual", scores=[5, 1]
    )
    client.force_login(people.users["referee"])
    lines = Entry.objects.count()
    page = client.post(
        f"/c/prova/coppa/r/{first.pk}/void/",
        {"reason": "Entered twice", "preview": "1"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    text = page.content.decode()
    assert page.status_code == 200 and 'id="void-preview-result"' in text
    assert "Entered twice" in text and "What voiding changes" in text
    first.refresh_from_db()
    assert first.status == Result.Status.ACCEPTED and Entry.objects.count() == lines
