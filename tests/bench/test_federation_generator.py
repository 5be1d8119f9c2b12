"""The bench's federation generator (bench/federation_bench.py) writes what the service
would: a tiny federation of it verifies (every chain link and seal), its standings are the
journal's, and every result is sanctioned for the rankings. Seconds, on either database."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from bench import federation_bench
from ledger.clubs.models import Club, Entry, Membership, Result, Standing
from ledger.clubs.projections.totals import journal_totals
from ledger.federation.models import MemberClub, Sanction


@pytest.mark.django_db
def test_a_generated_federation_verifies_and_its_standings_are_the_journals(capsys):
    made = federation_bench.generate(clubs=3, people=30, lines=240, seed=5)
    assert (made["clubs"], made["people"], made["lines"], made["results"]) == (3, 30, 240, 120)
    call_command("verify_ledger")
    assert "Journal intact: 240 entries checked" in capsys.readouterr().out
    assert MemberClub.objects.filter(status=MemberClub.Status.APPROVED).count() == 3
    # Ten people a club, and a tenth of each club's members guests in the next.
    assert Membership.objects.count() == 30 + 3
    assert Result.objects.filter(competition__sanction__isnull=True).count() == 0
    assert Sanction.objects.count() == 3 * federation_bench.MONTHS
    for club in Club.objects.all():
        assert club.journal_length == Entry.objects.filter(club=club).count() == 80
    for standing in Standing.objects.select_related("competition"):
        counted = journal_totals(standing.competition)[standing.player_id]
        assert (standing.points, standing.played, standing.wins) == (
            counted.points,
            counted.played,
            counted.wins,
        )
