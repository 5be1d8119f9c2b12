"""A club's export carries what the apps above the club's own keep: a season's championship
and stages, venues and the round schedule, sign-ups with the waiting list, fees, payments and a
refund, and each player's notification preferences. Made on SQLite, imported here (PostgreSQL
in the PostgreSQL run), exported again: every row the same, the journal intact, the
treasurer's report the same to the cent."""

from __future__ import annotations

import io
import json
import shutil
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from ledger.clubs.models import Club, Entry, Penalty, Season, Standing
from ledger.clubs.transfer import transfer
from ledger.night.models import ScheduledRound
from ledger.signup import treasury
from ledger.signup.models import Payment
from tests.ledger.test_export import manage, rows_of

SETUP = """
import datetime, json
from decimal import Decimal as D
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from ledger.clubs.models import Club, Competition, Player, Season
from ledger.formats.models import Advanced, Championship, Stage
from ledger.night.models import ScheduledRound, Venue
from ledger.notify.models import Preferences
from ledger.signup import services, treasury
from ledger.signup.models import Payment, Registration
user = get_user_model().objects.get(username="demo")
club = Club.objects.get(slug="circolo-pisano")
season = Season.objects.create(
    club=club, name="Stagione 2026", starts_on=datetime.date(2026, 1, 1),
    ends_on=datetime.date(2026, 12, 31),
)
first, second = Competition.objects.filter(club=club).order_by("pk")[:2]
first.season = season
first.save()
Championship.objects.create(season=season, game=first.game, place_points=[10, 6, 4], best_of=3)
stage = Stage.objects.create(competition=second, season=season, count=2)
stage.sources.add(first)
players = list(Player.objects.filter(memberships__club=club).order_by("pk")[:3])
Advanced.objects.create(stage=stage, player=players[0], seed=1, place=1, carried=D("12.50"))
from ledger.clubs.results.penalties import carry_score
carry_score(
    user=user, competition=second, player=players[0], points=D("12.50"), came_from=season.name
)
hall = Venue.objects.create(club=club, name="Sala Garibaldi")
ScheduledRound.objects.create(
    competition=first, number=1, venue=hall, day=datetime.date(2026, 5, 17)
)
services.save_registration(
    user=user, competition=first,
    data=services.Settings(
        who=Registration.Who.ANYONE, cap=2, fee=D("12.50"), fee_junior=D("5.25")
    ),
)
def sign(name, junior=False):
    return services.sign_up(
        user=AnonymousUser(), competition=first,
        person=services.Person(name=name, email="x@example.org", junior=junior),
    )
anna, bruno, carla = sign("Anna Nuova"), sign("Bruno Nuovo", junior=True), sign("Carla Nuova")
assert carla.status == "waiting", carla.status
services.pay(user=user, signup=anna, method=Payment.Method.CASH)
services.pay(user=user, signup=bruno, method=Payment.Method.CARD, amount=D("3.10"))
services.refund(user=user, signup=anna, method=Payment.Method.CASH, amount=D("2.40"))
Preferences.objects.create(player=players[1], language="it", muted=["round.published"])
report = treasury.season_report(season).total
print(json.dumps([str(report.due), str(report.paid), str(report.refunded), str(report.balance)]))
"""


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory, migrated_sqlite: Path) -> dict[str, Any]:
    where = tmp_path_factory.mktemp("every-app")
    db = where / "source.sqlite3"
    shutil.copy(migrated_sqlite, db)
    shutil.copy(migrated_sqlite, where / "empty.sqlite3")
    manage(db, "seed_demo")
    said = manage(db, "shell", "-c", SETUP)
    totals = json.loads(said.strip().splitlines()[-1])
    export = where / "club.jsonl"
    manage(db, "export_club", "circolo-pisano", str(export), "--with-secrets")
    return {"export": export, "totals": totals, "db": db, "empty": where / "empty.sqlite3"}


def _counts(rows: list[dict[str, Any]]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for row in rows:
        counts[row["t"]] = counts.get(row["t"], 0) + 1
    return counts


@pytest.mark.django_db
def test_the_club_arrives_with_its_championship_venues_sign_ups_payments_and_preferences(
    source: dict[str, Any],
) -> None:
    file_rows = rows_of(source["export"].read_bytes())
    counts = _counts(file_rows)
    for kind, n in {
        "championship": 1,
        "stage": 1,
        "stage_source": 1,
        "advanced": 1,
        "venue": 1,
        "scheduled_round": 1,
        "registration": 1,
        "signup": 3,
        "payment": 3,
        "notify_preferences": 1,
    }.items():
        assert counts.get(kind) == n, (kind, counts.get(kind))
    assert counts.get("signup_log", 0) >= 3

    call_command("import_club", str(source["export"]))
    call_command("verify_ledger")
    club = Club.objects.get(slug="circolo-pisano")
    out = io.BytesIO()
    transfer.write_export(club, out, secrets=True)
    assert rows_of(out.getvalue()) == file_rows

    season = Season.objects.get(club=club, name="Stagione 2026")
    total = treasury.season_report(season).total
    assert [str(total.due), str(total.paid), str(total.refunded), str(total.balance)] == source[
        "totals"
    ]
    assert total.refunded == Decimal("2.40")
    amounts = sorted(Payment.objects.values_list("amount", flat=True))
    assert all(isinstance(a, Decimal) for a in amounts)
    assert amounts == sorted(Decimal(r["amount"]) for r in file_rows if r["t"] == "payment")
    assert amounts == [Decimal("-2.40"), Decimal("3.10"), Decimal("12.50")]
    assert season.championship.place_points == [10, 6, 4]
    # The score carried over into the stage arrives as its journal line, counted.
    carried = Penalty.objects.get(club=club, kind=Penalty.Kind.CARRY)
    assert carried.points == Decimal("12.50")
    standing = Standing.objects.get(competition=carried.competition, player=carried.player)
    assert any(
        r["t"] == "standing"
        and r["player_id"] == carried.player_id
        and r["competition_id"] == carried.competition_id
        and Decimal(r["points"]) == standing.points
        for r in file_rows
    )
    lines = Entry.objects.filter(penalty=carried).values_list("kind", "points")
    assert list(lines) == [("carry", Decimal("12.50"))]
    scheduled = ScheduledRound.objects.get(venue__club=club)
    assert (scheduled.venue.name, scheduled.competition.season) == ("Sala Garibaldi", season)


def test_without_secrets_the_calendar_key_stays_behind_and_a_new_one_is_given(
    source: dict[str, Any], tmp_path: Path
) -> None:
    old = next(r for r in rows_of(source["export"].read_bytes()) if r["t"] == "notify_preferences")
    plain = tmp_path / "plain.jsonl"
    plain.write_bytes(manage(source["db"], "export_club", "circolo-pisano", "-").encode())
    rows = [r for r in rows_of(plain.read_bytes()) if r["t"] == "notify_preferences"]
    assert rows and all("calendar_key" not in r for r in rows)
    fresh = tmp_path / "fresh.sqlite3"
    shutil.copy(source["empty"], fresh)
    manage(fresh, "import_club", str(plain))
    said = manage(
        fresh,
        "shell",
        "-c",
        "from ledger.notify.models import Preferences; "
        "print(Preferences.objects.get().calendar_key)",
    )
    key = said.strip().splitlines()[-1]
    assert len(key) >= 20 and key != old["calendar_key"]


def test_a_backup_restored_from_its_exports_brings_back_every_app_s_rows(
    source: dict[str, Any], tmp_path: Path
) -> None:
    var, backups = tmp_path / "var", tmp_path / "backups"
    var.mkdir()
    db = var / "ledger.sqlite3"
    shutil.copy(source["db"], db)
    manage(db, "backup", "--dir", str(backups))
    shutil.rmtree(var)
    var.mkdir()
    said = manage(db, "restore", str(backups), "--from-exports")
    assert "circolo-pisano" in said
    again = manage(db, "export_club", "circolo-pisano", "-", "--with-secrets").encode()
    assert rows_of(again) == rows_of(source["export"].read_bytes())
    totals = manage(
        db,
        "shell",
        "-c",
        "import json; from ledger.clubs.models import Season; from ledger.signup import treasury;"
        " t = treasury.season_report(Season.objects.get(name='Stagione 2026')).total;"
        " print(json.dumps([str(t.due), str(t.paid), str(t.refunded), str(t.balance)]))",
    )
    assert json.loads(totals.strip().splitlines()[-1]) == source["totals"]
