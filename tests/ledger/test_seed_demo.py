from __future__ import annotations

from django.core.management import call_command

from ledger.clubs.games import GAME_CHOICES
from ledger.clubs.models import Club, Competition, Entry, Membership, Result


def test_seed_demo_loads_a_pisan_club_once(db, capsys):
    call_command("seed_demo")
    club = Club.objects.get()
    assert club.city == "Pisa"
    assert Membership.objects.filter(club=club).count() >= 12
    assert club.seasons.count() == 1
    assert sorted(Competition.objects.values_list("game", flat=True)) == sorted(
        slug for slug, _ in GAME_CHOICES
    )
    assert all(c.results.filter(status="accepted").exists() for c in Competition.objects.all())
    counts = (Result.objects.count(), Entry.objects.count(), Membership.objects.count())
    capsys.readouterr()
    call_command("seed_demo")
    assert "nothing changed" in capsys.readouterr().out
    assert (Result.objects.count(), Entry.objects.count(), Membership.objects.count()) == counts
    call_command("verify_ledger")
