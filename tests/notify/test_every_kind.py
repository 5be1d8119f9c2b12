"""Each kind of message reaches the people it concerns, once: a result waiting for their
confirmation, their result voided, corrected or contested, a referee called and a ruling,
a club's announcement, a digital table's turn (not while they watch it); several waiting at
once go as one digest; a message that failed is sent by the next attempt."""

from __future__ import annotations

import json
from typing import Any

from django.core import mail
from django.core.mail.backends.base import BaseEmailBackend
from django.test import Client
from django.urls import reverse

from games.core import registry
from ledger.clubs import events
from ledger.clubs.models import Competition, Result
from ledger.clubs.results import services as core
from ledger.notify import sending, tasks
from ledger.notify.models import Delivery, Preferences
from ledger.play import live
from ledger.play import services as play
from ledger.referee import services as referee


def with_addresses(people: Any) -> None:
    for name, user in people.users.items():
        user.email = f"{name}@example.org"
        user.save(update_fields=["email"])


def run(job: Any, capture: Any, *args: Any, **kwargs: Any) -> Any:
    with capture(execute=True):
        return job(*args, **kwargs)


def to(address: str) -> list[Any]:
    return [m for m in mail.outbox if address in m.to]


def test_a_waiting_result_asks_those_who_may_confirm_it(
    people: Any, manual_table: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with_addresses(people)
    competition = manual_table.competition
    competition.confirmation = Competition.Confirmation.SECOND_PERSON
    competition.save()
    result, _made = run(
        core.record_result,
        django_capture_on_commit_callbacks,
        user=people.users["scorekeeper"],
        table=manual_table,
        source="manual",
        scores=[3, 1],
    )
    assert result.status == Result.Status.PENDING
    # Who may confirm: the club's other scorekeeper, referee and organiser; never the one
    # who entered it.
    assert sorted(a for m in mail.outbox for a in m.to) == [
        "organiser@example.org",
        "referee@example.org",
        "scorekeeper2@example.org",
    ]
    (message,) = to("referee@example.org")
    assert "T1" in message.subject and "essere confermato" in message.body
    assert f"/r/{result.pk}/" in message.body


def test_a_voided_result_tells_its_players_why(
    people: Any, manual_table: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with_addresses(people)
    for p in people.extra[:2]:
        Preferences.objects.create(player=p, email=f"{p.name.replace(' ', '')}@example.org")
    result, _made = core.record_result(
        user=people.users["scorekeeper"], table=manual_table, source="manual", scores=[3, 1]
    )
    run(
        core.void_result,
        django_capture_on_commit_callbacks,
        user=people.users["organiser"],
        result=result,
        reason="Inserito due volte",
    )
    for p in people.extra[:2]:
        (message,) = to(f"{p.name.replace(' ', '')}@example.org")
        assert "annullato" in message.subject
        assert "Inserito due volte" in message.body
    assert Delivery.objects.filter(kind="changed").count() == 2


def test_a_referee_called_and_the_ruling_reach_the_players(
    people: Any, manual_table: Any, django_capture_on_commit_callbacks: Any
) -> None:
    p = people.extra[0]
    Preferences.objects.create(player=p, email="p@example.org", language="en")
    result, _made = core.record_result(
        user=people.users["scorekeeper"], table=manual_table, source="manual", scores=[3, 1]
    )
    run(
        referee.open_case,
        django_capture_on_commit_callbacks,
        user=people.users["referee"],
        competition=manual_table.competition,
        result=result,
    )
    (called,) = to("p@example.org")
    assert "a referee is called" in called.subject
    run(
        core.supersede_result,
        django_capture_on_commit_callbacks,
        user=people.users["referee"],
        result=result,
        source="manual",
        scores=[2, 2],
        reason="Conteggio rifatto",
    )
    corrected = to("p@example.org")[1]
    assert "was corrected" in corrected.subject and "Conteggio rifatto" in corrected.body


def test_a_kind_switched_off_for_referee_messages_keeps_them_away(
    people: Any, manual_table: Any, django_capture_on_commit_callbacks: Any
) -> None:
    p = people.extra[0]
    Preferences.objects.create(player=p, email="p@example.org", muted=["referee:email"])
    result, _made = core.record_result(
        user=people.users["scorekeeper"], table=manual_table, source="manual", scores=[3, 1]
    )
    run(
        referee.open_case,
        django_capture_on_commit_callbacks,
        user=people.users["referee"],
        competition=manual_table.competition,
        result=result,
    )
    assert to("p@example.org") == []


def test_an_announcement_reaches_every_member_once(
    people: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with_addresses(people)
    client = Client(HTTP_ACCEPT_LANGUAGE="it")
    client.force_login(people.users["organiser"])
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(
            reverse("notify-log", args=[people.club.slug]),
            {"title": "Cena sociale", "text": "Venerdì alle 20, dopo il torneo."},
        )
    assert answer.status_code == 302
    # The members with a login and an address: the five roles (the extras have none).
    assert len(mail.outbox) == 5
    assert all("Cena sociale" in m.subject for m in mail.outbox)
    page = client.get(reverse("notify-log", args=[people.club.slug])).content.decode()
    assert page.count('class="delivery"') == 5 and "Arrivato" in page


def test_an_empty_announcement_is_refused_at_its_field(people: Any) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(people.users["organiser"])
    page = client.post(
        reverse("notify-log", args=[people.club.slug]), {"title": "Cena", "text": ""}
    )
    assert page.status_code == 200
    body = page.content.decode()
    assert 'value="Cena"' in body and "This field is required." in body
    assert mail.outbox == []


def test_messages_waiting_together_go_as_one_digest_after_a_failure(
    people: Any, manual_table: Any, django_capture_on_commit_callbacks: Any, settings: Any
) -> None:
    p = people.extra[0]
    Preferences.objects.create(player=p, email="p@example.org", language="en")
    settings.EMAIL_BACKEND = "tests.notify.test_every_kind.BrokenBackend"
    first, _made = core.record_result(
        user=people.users["scorekeeper"], table=manual_table, source="manual", scores=[3, 1]
    )
    run(
        core.void_result,
        django_capture_on_commit_callbacks,
        user=people.users["organiser"],
        result=first,
        reason="Doppio",
    )
    waiting = Delivery.objects.get(player=p)
    assert waiting.status == Delivery.Status.PENDING and waiting.attempts == 1
    assert "refused" in waiting.error
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    second, _made = core.record_result(
        user=people.users["scorekeeper"], table=manual_table, source="manual", scores=[2, 2]
    )
    run(
        core.void_result,
        django_capture_on_commit_callbacks,
        user=people.users["organiser"],
        result=second,
        reason="Tavolo sbagliato",
    )
    (digest,) = to("p@example.org")
    assert digest.subject == "2 news from the club"
    assert "Doppio" in digest.body and "Tavolo sbagliato" in digest.body
    assert set(Delivery.objects.filter(player=p).values_list("status", "bundled")) == {("sent", 2)}
    # The sweep finds nothing more to send.
    assert sending.retry_due() == 0
    assert len(to("p@example.org")) == 1


class BrokenBackend(BaseEmailBackend):
    def send_messages(self, messages: Any) -> int:
        raise ConnectionRefusedError("the server refused the connection")


def test_a_turn_at_a_digital_table_is_told_only_to_a_player_not_watching(
    people: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with_addresses(people)
    game = "cardchess"
    n = registry.get(game).ruleset().seats
    table = run(
        play.create_table,
        django_capture_on_commit_callbacks,
        user=people.users["member"],
        club=people.club,
        game=game,
        seats=["me"] + ["open"] * (n - 1),
    )
    run(
        play.join,
        django_capture_on_commit_callbacks,
        user=people.users["organiser"],
        table=table,
        invite=table.invite,
    )
    table.refresh_from_db()
    state = play.state_of(table)
    mover = next(
        u
        for u in ("member", "organiser")
        if play.seat_of(table, people.users[u]).index == state.to_act()
    )
    waiting = "organiser" if mover == "member" else "member"
    action = registry.get(game).encode_action(state.legal_actions(state.to_act())[0])
    # The turn's notice waits (a countdown): nothing is sent at the move.
    run(
        play.act,
        django_capture_on_commit_callbacks,
        user=people.users[mover],
        table=table,
        action=action,
    )
    assert mail.outbox == []
    table.refresh_from_db()
    ids = json.dumps({"table": table.pk, "move": table.moves_count})
    # While the page is open, nothing; once it is closed, one message.
    live.seen(table.pk, people.users[waiting].pk, 1)
    tasks.deliver.apply(args=[events.TABLE_TURN, ids])
    assert mail.outbox == []
    live.seen(table.pk, people.users[waiting].pk, -1)
    tasks.deliver.apply(args=[events.TABLE_TURN, ids])
    tasks.deliver.apply(args=[events.TABLE_TURN, ids])
    (message,) = mail.outbox
    assert message.to == [f"{waiting}@example.org"]
    assert f"/play/{table.pk}/" in message.body


def test_the_sweep_sends_what_a_stopped_job_left_taken_and_leaves_a_running_ones(
    people: Any, manual_table: Any, django_capture_on_commit_callbacks: Any, settings: Any
) -> None:
    from datetime import timedelta

    from django.utils import timezone

    p = people.extra[0]
    Preferences.objects.create(player=p, email="p@example.org", language="en")
    settings.EMAIL_BACKEND = "tests.notify.test_every_kind.BrokenBackend"
    result, _made = core.record_result(
        user=people.users["scorekeeper"], table=manual_table, source="manual", scores=[3, 1]
    )
    run(
        core.void_result,
        django_capture_on_commit_callbacks,
        user=people.users["organiser"],
        result=result,
        reason="Doppio",
    )
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    # A job took it a moment ago and is sending it: the sweep leaves it alone.
    Delivery.objects.update(status="sending", claim="x", claimed_at=timezone.now())
    sending.retry_due()
    assert mail.outbox == []
    # A job took it twenty minutes ago and stopped: the sweep sends it, once.
    Delivery.objects.update(claimed_at=timezone.now() - timedelta(minutes=20))
    sending.retry_due()
    sending.retry_due()
    assert len(to("p@example.org")) == 1
    assert Delivery.objects.get().status == "sent"
