"""A round published reaches each drawn player by e-mail through a real SMTP server, once,
in their language, with their table and seat; a second run of the job sends nothing more,
and a kind switched off sends nothing."""

from __future__ import annotations

import json
from typing import Any

from ledger.clubs import events
from ledger.notify import tasks
from ledger.notify.models import Delivery, Preferences
from tests.notify.conftest import Inbox, publish_round, text_of


def test_each_drawn_player_gets_one_message_with_table_and_seat(
    inbox: Inbox, drawn: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    draw = publish_round(drawn, django_capture_on_commit_callbacks)
    assert len(inbox.messages) == 8
    for t in draw.tables:
        for index, player_id in enumerate(t["players"]):
            i = [p.pk for p in drawn["players"]].index(player_id)
            (message,) = inbox.to(f"p{i}@example.org")
            body = text_of(message)
            html = text_of(message, "html")
            if i % 2:
                assert f"table {t['label']}, seat {index + 1}" in body
                assert "Round 1 of Coppa d'autunno is drawn." in body
                assert message["Content-Language"] == "en"
            else:
                assert f"tavolo {t['label']}, posto {index + 1}" in body
                assert "Il turno 1 di Coppa d'autunno è sorteggiato." in body
                assert message["Content-Language"] == "it"
            assert f"{t['label']}" in message["Subject"]
            opponent = next(p for p in t["players"] if p != player_id)
            opponent_name = f"Giocatore {[p.pk for p in drawn['players']].index(opponent)}"
            assert opponent_name in body and opponent_name in html
            assert "https://ledger.example/unsubscribe/" in body
            assert (
                message["List-Unsubscribe"]
                .strip()
                .startswith("<https://ledger.example/unsubscribe/")
            )
    assert Delivery.objects.filter(status=Delivery.Status.SENT).count() == 8


def test_the_same_job_run_again_sends_nothing_more(
    inbox: Inbox, drawn: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    draw = publish_round(drawn, django_capture_on_commit_callbacks)
    assert len(inbox.messages) == 8
    tasks.deliver.apply(args=[events.ROUND_PUBLISHED, json.dumps({"draw": draw.pk})])
    tasks.deliver.apply(args=[events.ROUND_PUBLISHED, json.dumps({"draw": draw.pk})])
    assert len(inbox.messages) == 8
    assert Delivery.objects.count() == 8


def test_a_kind_switched_off_sends_nothing(
    inbox: Inbox, drawn: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    quiet = drawn["players"][0]
    Preferences.objects.create(player=quiet, muted=["seat:email"])
    publish_round(drawn, django_capture_on_commit_callbacks)
    assert inbox.to("p0@example.org") == []
    assert len(inbox.messages) == 7


def test_nothing_is_sent_before_the_commit(
    inbox: Inbox, drawn: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    from ledger.formats import services as formats

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        draw = formats.generate_round(user=drawn["organiser"], competition=drawn["competition"])
        formats.publish_draw(user=drawn["organiser"], draw=draw)
    assert inbox.messages == []
    assert callbacks  # the job waits for the commit
