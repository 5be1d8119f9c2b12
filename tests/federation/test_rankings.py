"""The federation's two rankings of a game (docs/federation.md, "Rankings"), kept by the
workers as results arrive, with values worked out by hand here.

A federation of two clubs (Pisa, province PI; Lucca, LU), two tiers (provincial, weight 1;
regional, weight 2), rules: the best 2 results of the last 3 months count, places score
10-6-3. Four players, the same four people in both clubs; four sanctioned competitions of
Punti, one table each, one a month (M is this month):

    C1 Pisa,  provincial, M-4: A 40 B 30 C 20 D 10 -> A 10, B 6, C 3, D 0
    C2 Lucca, regional,   M-2: B 40 A 30 D 20 C 10 -> B 20, A 12, D 6, C 0 (weight 2)
    C3 Pisa,  provincial, M-1: C 40 A 30 B 20 D 10 -> C 10, A 6, B 3, D 0
    C4 Lucca, regional,   M:   A 40 C 30 B 20 D 10 -> A 20, C 12, B 6, D 0 (weight 2)

This month (C2..C4 inside the window, best two): A 20+12=32, B 20+6=26, C 12+10=22, D 6+0=6.
Last month (C1 has left: C2, C3): B 20+3=23, A 12+6=18, C 10+0=10, D 6+0=6.
M-2 (C1, C2): B 6+20=26, A 10+12=22, D 0+6=6, C 3+0=3.
Movement this month: A +1 (2nd to 1st), B -1, C and D stay.
"""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

import pytest

from ledger.clubs.models import Club, Competition, Membership, Player, Result, Round
from ledger.clubs.results import services as results
from ledger.federation import rankings, services
from ledger.federation.models import MemberClub, RankingRow, Tier

pytestmark = pytest.mark.django_db


def _month(back: int) -> datetime.date:
    """The 10th of the month ``back`` months before this one."""
    return rankings.months_back(rankings.month_end(datetime.date.today()), back).replace(day=10)


def _period(back: int) -> datetime.date:
    return rankings.month_end(_month(back))


class World:
    def __init__(self, people: Any, other: Club, capture: Any) -> None:
        self.people, self.capture = people, capture
        self.officer = people.users["organiser"]
        self.federation = services.found(user=self.officer, name="Federazione Toscana")
        for club in (people.club, other):
            Membership.objects.get_or_create(
                club=club, player=people.players["organiser"], defaults={"role": "organiser"}
            )
            made = services.apply(user=self.officer, federation=self.federation, club=club)
            services.decide(user=self.officer, membership=made, approve=True)
            services.set_province(
                user=self.officer, membership=made, province="PI" if club == people.club else "LU"
            )
        self.provincial = services.add_tier(
            user=self.officer,
            federation=self.federation,
            name="Provinciale",
            weight="1",
            missing_card=Tier.MissingCard.WARN,
        )
        self.regional = services.add_tier(
            user=self.officer,
            federation=self.federation,
            name="Regionale",
            weight="2",
            missing_card=Tier.MissingCard.WARN,
        )
        services.set_ranking_rules(
            user=self.officer,
            federation=self.federation,
            best="2",
            months="3",
            place_points="10-6-3",
        )
        self.players = {n: Player.objects.create(name=n) for n in "ABCD"}
        for p in self.players.values():
            for club in (people.club, other):
                Membership.objects.create(club=club, player=p)
        self.clubs = {"Pisa": people.club, "Lucca": other}

    def competition(
        self, name: str, club: str, tier: Tier | None, day: datetime.date
    ) -> Competition:
        made = Competition.objects.create(
            club=self.clubs[club], name=name, slug=name.lower(), game="punti", format="league"
        )
        Round.objects.create(competition=made, number=1, played_on=day)
        if tier is not None:
            with self.capture(execute=True):
                services.sanction(user=self.officer, tier=tier, competition=made)
        return made

    def play(self, competition: Competition, scores: dict[str, int]) -> Result:
        table = results.create_table(
            user=self.officer,
            competition=competition,
            label=f"T{competition.tables.count() + 1}",
            players=[self.players[n] for n in scores],
            round=competition.rounds.first(),
        )
        with self.capture(execute=True):
            made, _created = results.record_result(
                user=self.officer, table=table, source="manual", scores=list(scores.values())
            )
        return made

    def table(self, kind: str, back: int = 0) -> list[tuple[str, int, Decimal]]:
        rows = RankingRow.objects.filter(
            federation=self.federation, game="punti", kind=kind, period=_period(back)
        ).select_related("person")
        return sorted((r.person.name, r.rank, r.value) for r in rows)


@pytest.fixture
def world(people: Any, other_club: Club, points_game: str, django_capture_on_commit_callbacks):
    return World(people, other_club, django_capture_on_commit_callbacks)


@pytest.fixture
def four(world: World) -> dict[str, Result]:
    c1 = world.competition("C1", "Pisa", world.provincial, _month(4))
    c2 = world.competition("C2", "Lucca", world.regional, _month(2))
    c3 = world.competition("C3", "Pisa", world.provincial, _month(1))
    c4 = world.competition("C4", "Lucca", world.regional, _month(0))
    return {
        "C1": world.play(c1, {"A": 40, "B": 30, "C": 20, "D": 10}),
        "C2": world.play(c2, {"B": 40, "A": 30, "D": 20, "C": 10}),
        "C3": world.play(c3, {"C": 40, "A": 30, "B": 20, "D": 10}),
        "C4": world.play(c4, {"A": 40, "C": 30, "B": 20, "D": 10}),
    }


def D(text: str) -> Decimal:
    return Decimal(text)


def test_the_points_ranking_counts_the_best_results_of_the_window_weighted_by_tier(
    world: World, four: Any
) -> None:
    assert world.table("points") == [
        ("A", 1, D("32")),
        ("B", 2, D("26")),
        ("C", 3, D("22")),
        ("D", 4, D("6")),
    ]


def test_as_of_an_earlier_month_the_points_ranking_is_the_table_as_it_stood(
    world: World, four: Any
) -> None:
    assert world.table("points", back=1) == [
        ("A", 2, D("18")),
        ("B", 1, D("23")),
        ("C", 3, D("10")),
        ("D", 4, D("6")),
    ]
    assert world.table("points", back=2) == [
        ("A", 2, D("22")),
        ("B", 1, D("26")),
        ("C", 4, D("3")),
        ("D", 3, D("6")),
    ]
    moved = dict(
        RankingRow.objects.filter(kind="points", period=_period(0)).values_list(
            "person__name", "movement"
        )
    )
    assert moved == {"A": 1, "B": -1, "C": 0, "D": 0}


def test_a_correction_and_a_void_move_the_points_ranking(world: World, four: Any) -> None:
    # C4 corrected: D 40, C 30, B 20, A 10 -> D 20, C 12, B 6, A 0 (weight 2).
    # A 12+6=18, B 20+6=26, C 12+10=22, D 20+6=26: B and D share the first place.
    with world.capture(execute=True):
        results.supersede_result(
            user=world.officer,
            result=four["C4"],
            source="manual",
            scores=[10, 30, 20, 40],
            reason="Punti scritti al contrario",
        )
    assert world.table("points") == [
        ("A", 4, D("18")),
        ("B", 1, D("26")),
        ("C", 3, D("22")),
        ("D", 1, D("26")),
    ]
    # C3 voided: nobody played it. A 12+0=12, B 20+6=26, C 12+0=12, D 20+6=26.
    with world.capture(execute=True):
        results.void_result(user=world.officer, result=four["C3"], reason="Mai giocata")
    assert world.table("points") == [
        ("A", 3, D("12")),
        ("B", 1, D("26")),
        ("C", 3, D("12")),
        ("D", 1, D("26")),
    ]


def test_the_rating_reads_every_sanctioned_result_of_both_clubs_in_journal_order(
    world: World,
) -> None:
    r1 = world.competition("R1", "Pisa", world.provincial, _month(0))
    r2 = world.competition("R2", "Lucca", world.regional, _month(0))
    friendly = world.competition("Amichevole", "Pisa", None, _month(0))
    world.play(r1, {"A": 3, "B": 1})
    # openskill's Plackett-Luce from the prior (25, 25/3), one win of two players: the
    # winner 27.635 +- 8.0655, the loser 22.365 +- 8.0655 (openskill's own worked example);
    # shown as mu - 3 sigma: 3.44 and -1.83.
    assert world.table("rating") == [("A", 1, D("3.44")), ("B", 2, D("-1.83"))]
    world.play(friendly, {"A": 1, "B": 5})  # not sanctioned: counts for nothing
    assert world.table("rating") == [("A", 1, D("3.44")), ("B", 2, D("-1.83"))]
    second = world.play(r2, {"A": 2, "B": 0})  # at the other club: A leads again
    rows = {
        r.person.name: r
        for r in RankingRow.objects.filter(kind="rating", period=_period(0)).select_related(
            "person"
        )
    }
    assert (rows["A"].rank, rows["B"].rank) == (1, 2)
    assert (rows["A"].results, rows["B"].results) == (2, 2)
    assert rows["A"].value > D("3.44") > D("-1.83") > rows["B"].value
    # Corrected, the second game is B's: one win each, and the later win, the underdog's,
    # gains more than the first took: B ahead.
    with world.capture(execute=True):
        results.supersede_result(
            user=world.officer, result=second, source="manual", scores=[0, 2], reason="Invertiti"
        )
    order = dict(
        RankingRow.objects.filter(kind="rating", period=_period(0)).values_list(
            "person__name", "rank"
        )
    )
    assert order == {"A": 2, "B": 1}
    # Voided, it counts for nothing: the first game alone again.
    corrected = Result.objects.get(supersedes=second)
    with world.capture(execute=True):
        results.void_result(user=world.officer, result=corrected, reason="Mai giocata")
    assert world.table("rating") == [("A", 1, D("3.44")), ("B", 2, D("-1.83"))]


def test_a_full_rebuild_writes_the_same_rows_as_the_updates_did(world: World, four: Any) -> None:
    def everything() -> list[tuple[Any, ...]]:
        return sorted(
            RankingRow.objects.values_list(
                "kind", "period", "person_id", "club_id", "rank", "value", "results", "movement"
            )
        )

    before = everything()
    assert before
    rankings.rebuild_federation(world.federation.pk)
    assert everything() == before


# --- the pages -----------------------------------------------------------------------------


def _url(world: World, kind: str, ext: str = "") -> str:
    slug = world.federation.slug
    return f"/federations/{slug}/rankings/punti/{kind}" + (f".{ext}" if ext else "/")


def test_the_federation_page_links_to_both_rankings_of_each_game(
    client: Any, world: World, four: Any
) -> None:
    page = client.get(f"/federations/{world.federation.slug}/").content.decode()
    assert f"/federations/{world.federation.slug}/rankings/" in page
    index = client.get(f"/federations/{world.federation.slug}/rankings/").content.decode()
    assert _url(world, "rating") in index and _url(world, "points") in index


def test_the_points_page_is_public_and_filters_by_month_province_and_club(
    client: Any, world: World, four: Any
) -> None:
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    page = client.get(_url(world, "points"))
    assert page.status_code == 200
    text = page.content.decode()
    assert text.index(">A</a>") < text.index(">B</a>") < text.index(">C</a>") < text.index(">D</a>")
    assert "The best 2 results of the last 3 months count." in text
    # Each person links to their page of the federation.
    a = world.players["A"].pk
    assert f'href="/federations/{world.federation.slug}/people/{a}/"' in text
    assert "▲1" in text and "▼1" in text
    # As of a day of last month: that month's table, B first.
    day = _month(1).isoformat()
    earlier = client.get(_url(world, "points") + f"?as_of={day}").content.decode()
    assert earlier.index(">B</a>") < earlier.index(">A</a>")
    # Everyone's latest result is at Lucca (C4): the province of Pisa has nobody this month.
    assert (
        "Nobody in this table."
        in client.get(_url(world, "points") + "?province=PI").content.decode()
    )
    lucca = client.get(_url(world, "points") + "?province=LU").content.decode()
    assert ">D</a>" in lucca
    pisa = world.clubs["Pisa"].pk
    last_month = _month(1).strftime("%Y-%m")
    by_club = client.get(_url(world, "points") + f"?period={last_month}&club={pisa}")
    assert ">A</a>" in by_club.content.decode()  # last month, the latest result was C3, Pisa's


def test_the_ranking_downloads_as_csv_and_pdf(client: Any, world: World, four: Any) -> None:
    import csv
    import io

    text = client.get(_url(world, "points", "csv"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][:2] == ["Place", "Person"]
    assert [[*r[:2], r[4]] for r in rows[1:]] == [
        ["1", "A", "32"],
        ["2", "B", "26"],
        ["3", "C", "22"],
        ["4", "D", "6"],
    ]
    pdf = client.get(_url(world, "rating", "pdf"))
    assert pdf["Content-Type"] == "application/pdf" and pdf.content.startswith(b"%PDF")


def test_the_ranking_page_reads_the_same_few_queries_whatever_its_rows(
    client: Any, world: World, four: Any
) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def queries() -> int:
        with CaptureQueriesContext(connection) as seen:
            assert client.get(_url(world, "rating")).status_code == 200
        return len(seen)

    few = queries()
    more = world.competition("C5", "Pisa", world.provincial, _month(0))
    for n in range(12):
        extra = {f"E{n}{x}": Player.objects.create(name=f"E{n}{x}") for x in "ab"}
        for p in extra.values():
            Membership.objects.create(club=world.clubs["Pisa"], player=p)
        world.players.update(extra)
        world.play(more, {name: 10 - i for i, name in enumerate(extra)})
    assert RankingRow.objects.filter(kind="rating", period=_period(0)).count() == 28
    assert queries() == few


def test_a_merge_of_two_people_makes_one_line_of_both_results_and_its_undo_two_again(
    world: World, four: Any
) -> None:
    from ledger.clubs import events
    from ledger.clubs.models import Merge

    twin = Player.objects.create(name="A bis")
    Membership.objects.create(club=world.clubs["Lucca"], player=twin)
    world.players["A bis"] = twin
    c5 = world.competition("C5", "Lucca", world.regional, _month(0))
    world.play(c5, {"A bis": 40, "B": 30})  # A bis 10 x 2 = 20, B 6 x 2 = 12
    # B: 20 (C2) + 12 (C5) = 32 shares the first place with A's 32; A bis 20 is fourth.
    assert world.table("points") == [
        ("A", 1, D("32")),
        ("A bis", 4, D("20")),
        ("B", 1, D("32")),
        ("C", 3, D("22")),
        ("D", 5, D("6")),
    ]
    with world.capture(execute=True):
        merge = Merge.objects.create(merged=twin, into=world.players["A"], by=world.officer)
        events.after_commit(events.PEOPLE_MERGED, merge=merge.pk, undone=False)
    # One person: A's best two are now 20 (C4) and 20 (C5): 40.
    assert world.table("points") == [
        ("A", 1, D("40")),
        ("B", 2, D("32")),
        ("C", 3, D("22")),
        ("D", 4, D("6")),
    ]
    rating = dict(
        RankingRow.objects.filter(kind="rating", period=_period(0)).values_list(
            "person__name", "results"
        )
    )
    assert rating["A"] == 5 and "A bis" not in rating
    with world.capture(execute=True):
        undo = Merge.objects.create(
            act=Merge.Act.UNDO, merged=twin, into=world.players["A"], undoes=merge
        )
        events.after_commit(events.PEOPLE_MERGED, merge=undo.pk, undone=True)
    assert ("A bis", 4, D("20")) in world.table("points")


def test_an_officer_sets_the_rules_on_the_federation_page_and_the_table_follows(
    client: Any, world: World, four: Any
) -> None:
    client.force_login(world.officer)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    url = f"/federations/{world.federation.slug}/"
    refused = client.post(
        url, {"action": "rules", "best": "0", "months": "3", "place_points": "10-6-3"}
    )
    text = refused.content.decode()
    assert refused.status_code == 400
    assert 'id="rules-best-error"' in text and 'value="10-6-3"' in text
    with world.capture(execute=True):
        saved = client.post(
            url, {"action": "rules", "best": "1", "months": "3", "place_points": "10-6-3"}
        )
    assert saved.status_code == 302
    # The best one result of three months: A 20 (C4), B 20 (C2), C 12 (C4), D 6 (C2).
    assert world.table("points") == [
        ("A", 1, D("20")),
        ("B", 1, D("20")),
        ("C", 3, D("12")),
        ("D", 4, D("6")),
    ]


def test_the_rebuild_command_shows_its_progress_and_rebuilds_what_was_lost(
    world: World, four: Any
) -> None:
    import io

    from django.core.management import call_command

    before = world.table("points"), world.table("rating")
    RankingRow.objects.all().delete()
    out = io.StringIO()
    call_command("rebuild_federation_rankings", world.federation.slug, stdout=out)
    said = out.getvalue()
    assert "2 piece(s) to rebuild" in said
    assert "1/2 done" in said and "2/2 done" in said
    assert (world.table("points"), world.table("rating")) == before


def test_a_result_written_or_confirmed_is_told_once_after_the_commit(
    world: World, django_capture_on_commit_callbacks: Any
) -> None:
    from ledger.clubs import events

    heard: list[dict[str, Any]] = []

    def listen(sender: Any, kind: str, **ids: Any) -> None:
        if kind == events.RESULT_RECORDED:
            heard.append({k: v for k, v in ids.items() if k != "signal"})

    events.happened.connect(listen)
    try:
        c = world.competition("C9", "Pisa", None, _month(0))
        made = world.play(c, {"A": 2, "B": 1})
        assert heard == [{"result": made.pk, "club": c.club_id, "competition": c.pk}]
        # A competition whose results wait for a second person: told at the confirmation.
        Competition.objects.filter(pk=c.pk).update(confirmation="second_person")
        c.refresh_from_db()
        waiting = world.play(c, {"C": 2, "D": 1})
        assert len(heard) == 1
        with django_capture_on_commit_callbacks(execute=True):
            results.confirm_result(user=world.people.users["referee"], result=waiting)
        assert heard[-1]["result"] == waiting.pk and len(heard) == 2
    finally:
        events.happened.disconnect(listen)


def test_a_venues_upload_applied_at_the_hub_rebuilds_its_federations_rankings(
    world: World, four: Any
) -> None:
    from ledger.clubs import events

    before = world.table("points"), world.table("rating")
    RankingRow.objects.all().delete()  # as if the upload brought lines the tables lack
    with world.capture(execute=True):
        events.after_commit(events.JOURNAL_SYNCED, club=world.clubs["Lucca"].pk, lines=4)
    assert (world.table("points"), world.table("rating")) == before


@pytest.mark.parametrize(
    ("language", "best", "said"),
    [
        ("en", 1, "The best result of the last 12 months counts."),
        ("en", 3, "The best 3 results of the last 12 months count."),
        ("it", 1, "Conta il miglior risultato degli ultimi 12 mesi."),
        ("it", 3, "Contano i migliori 3 risultati degli ultimi 12 mesi."),
    ],
)
def test_the_points_rules_say_one_best_result_in_the_singular(
    language: str, best: int, said: str
) -> None:
    from types import SimpleNamespace

    from django.utils import translation

    from ledger.web import ranking_views

    table = SimpleNamespace(
        kind=RankingRow.Kind.POINTS,
        rules=SimpleNamespace(best=best, months=12, place_points=["10", "6", "3"]),
    )
    with translation.override(language):
        assert ranking_views._rules(table)[0] == said


def _months_kept() -> dict[tuple[str, datetime.date], int]:
    from ledger.federation.models import RankingMonth

    return {(m.kind, m.period): m.rows for m in RankingMonth.objects.all()}


def _months_counted() -> dict[tuple[str, datetime.date], int]:
    from django.db.models import Count

    return {
        (r["kind"], r["period"]): r["n"]
        for r in RankingRow.objects.values("kind", "period").annotate(n=Count("id")).order_by()
    }


def test_the_months_a_ranking_offers_and_their_counts_are_kept_beside_its_rows(
    world: World, four: Any
) -> None:
    kept = _months_kept()
    assert kept == _months_counted()
    assert kept[("points", _period(0))] == 4 and kept[("points", _period(4))] == 4
    assert kept[("rating", _period(0))] == 4
    rankings.rebuild(world.federation.pk, "punti")
    assert _months_kept() == kept


def test_the_ranking_page_shows_a_page_of_rows_and_the_files_the_whole_table(
    client: Any, world: World, four: Any, monkeypatch: Any
) -> None:
    import csv
    import io

    from ledger.federation import ranking_selectors

    monkeypatch.setattr(ranking_selectors, "PER_PAGE", 3)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    first = client.get(_url(world, "points")).content.decode()
    assert ">A</a>" in first and ">C</a>" in first and ">D</a>" not in first
    assert "page 1 of 2" in first and 'rel="next"' in first
    second = client.get(_url(world, "points") + "?page=2").content.decode()
    assert ">D</a>" in second and ">A</a>" not in second and "page 2 of 2" in second
    text = client.get(_url(world, "points", "csv")).content.decode()
    assert [r[1] for r in list(csv.reader(io.StringIO(text)))[1:]] == ["A", "B", "C", "D"]


def test_a_person_finds_their_line_by_name_with_its_place_in_the_whole_table(
    client: Any, world: World, four: Any
) -> None:
    world.players["C"].name = "Chiara Dell'Orto"
    world.players["C"].save()
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "it"
    found = client.get(_url(world, "points") + "?q=dell'orto").content.decode()
    row = found.split('id="ranking-rows"', 1)[1]
    assert "Chiara Dell&#x27;Orto</a>" in row and ">A</a>" not in row
    assert '<td class="num rank">3</td>' in row  # the place of the whole table, not 1
    assert 'value="dell&#x27;orto"' in found  # what was typed, kept
    nobody = client.get(_url(world, "points") + "?q=Zeno").content.decode()
    assert "Nessuno di nome “Zeno” in questa classifica." in nobody


def test_the_page_cached_follows_each_new_result_and_a_clubs_new_province(
    client: Any, world: World, four: Any
) -> None:
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    before = client.get(_url(world, "points")).content.decode()
    assert before.index(">A</a>") < before.index(">B</a>")
    # A fifth competition this month at Lucca: B 20 more, ahead of A (B 40+20, A 32).
    c5 = world.competition("C5", "Lucca", world.regional, _month(0))
    world.play(c5, {"B": 40, "C": 30, "A": 20, "D": 10})
    after = client.get(_url(world, "points")).content.decode()
    assert after.index(">B</a>") < after.index(">A</a>")
    assert ">D</a>" in client.get(_url(world, "points") + "?province=LU").content.decode()
    lucca = MemberClub.objects.get(federation=world.federation, club=world.clubs["Lucca"])
    services.set_province(user=world.officer, membership=lucca, province="GR")
    moved = client.get(_url(world, "points") + "?province=LU").content.decode()
    assert "Nobody in this table." in moved
