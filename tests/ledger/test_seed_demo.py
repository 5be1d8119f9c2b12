from __future__ import annotations

from django.core.management import call_command

from ledger.clubs.games import game_choices
from ledger.clubs.models import Club, Competition, Entry, Membership, Result


def test_seed_demo_loads_a_pisan_club_once(db, capsys):
    call_command("seed_demo")
    club = Club.objects.get()
    assert club.city == "Pisa"
    assert Membership.objects.filter(club=club).count() >= 12
    assert club.seasons.count() == 1
    assert sorted(Competition.objects.values_list("game", flat=True)) == sorted(
        slug for slug, _ in game_choices()
    )
    assert all(c.results.filter(status="accepted").exists() for c in Competition.objects.all())
    counts = (Result.objects.count(), Entry.objects.count(), Membership.objects.count())
    capsys.readouterr()
    call_command("seed_demo")
    assert "nothing changed" in capsys.readouterr().out
    assert (Result.objects.count(), Entry.objects.count(), Membership.objects.count()) == counts
    call_command("verify_ledger")


def test_the_demo_login_is_a_superuser_only_in_demo_mode_with_its_password_printed(db, capsys):
    from django.contrib.auth import authenticate, get_user_model

    call_command("seed_demo")
    out = capsys.readouterr().out
    user = get_user_model().objects.get(username="demo")
    assert not user.is_superuser and not user.is_staff
    password = out.split("demo / ", 1)[1].split()[0]
    assert len(password) >= 12 and authenticate(username="demo", password=password)
    assert "pisa-demo-2026" not in out
    call_command("seed_demo")
    assert "demo / " not in capsys.readouterr().out  # printed once, when made


def test_demo_mode_makes_the_superuser_with_the_password_given(db, capsys):
    from django.contrib.auth import authenticate

    call_command("seed_demo", "--demo", "--password", "pisa-demo-2026")
    assert "demo / pisa-demo-2026" in capsys.readouterr().out
    user = authenticate(username="demo", password="pisa-demo-2026")
    assert user is not None and user.is_superuser


def test_demo_mode_gives_a_restored_demo_login_its_rights_back_and_only_demo_mode(db, capsys):
    """After a restore from the exports the demo login has no site rights (they are not in a
    club's file); `make run` seeds in demo mode and gives them back, password unchanged."""
    from django.contrib.auth import authenticate, get_user_model

    call_command("seed_demo", "--demo", "--password", "pisa-demo-2026")
    get_user_model().objects.filter(username="demo").update(is_staff=False, is_superuser=False)
    call_command("seed_demo")
    assert not get_user_model().objects.get(username="demo").is_superuser
    capsys.readouterr()
    call_command("seed_demo", "--demo", "--password", "another")
    assert "superuser again" in capsys.readouterr().out
    user = authenticate(username="demo", password="pisa-demo-2026")
    assert user is not None and user.is_superuser and user.is_staff
