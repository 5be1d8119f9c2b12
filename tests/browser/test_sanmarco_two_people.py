"""Two people play San Marco's variant 3 (two colours each) against each other at a digital
table of a competition, each in their own browser, from the scheduled table to the game's
end; the result is in the ledger (its page, the competition's standings) with the scores
the board gave. The pages are found by what a player reads (roles and their names), so the
test holds however the board is drawn or refreshed.

The competition plays one passage instead of three (a ruleset option the organiser sets),
which keeps every rule of variant 3 and the game to about a hundred moves."""

from __future__ import annotations

import random
import re
from typing import Any

from tests.browser.conftest import manage, screenshot

CLUB = "/c/circolo-pisano/"
PASSWORD = "ponte-di-mezzo-2026"

# A competition of variant 3 on the board, its two players with their logins, and the
# table they were drawn at (made by the demo organiser, as the back office would).
SETUP = f"""
from django.contrib.auth import get_user_model
from ledger.clubs.models import Club, Competition, Membership, Player
from ledger.clubs.results.services import create_table
club = Club.objects.get(slug="circolo-pisano")
competition, _ = Competition.objects.get_or_create(
    club=club, slug="variante-3-a-due", defaults={{
        "name": "Variante 3 a due", "game": "sanmarco", "format": "league",
        "ruleset": {{"name": "variant3-board", "passages": 1}}}},
)
players = []
for username, name in (("anna.v3", "Anna Gualandi"), ("bruno.v3", "Bruno Sismondi")):
    user = get_user_model().objects.create_user(username, password="{PASSWORD}")
    player = Player.objects.create(name=name, user=user)
    Membership.objects.create(club=club, player=player)
    players.append(player)
organiser = get_user_model().objects.get(username="demo")
create_table(user=organiser, competition=competition, label="Tavolo 1", players=players)
"""


def _log_in(page: Any, server: str, username: str) -> None:
    page.goto(server + "/login/")
    page.get_by_label("Nome utente").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    with page.expect_navigation():
        page.get_by_role("button", name="Accedi").click()


def _moves(page: Any) -> str:
    return str(page.locator("#board").get_attribute("data-moves"))


def _play_one(page: Any, chooser: random.Random) -> None:
    """Play one of the moves offered (the player's choice, here a seeded one)."""
    before = _moves(page)
    listed = page.get_by_role("combobox", name=re.compile("azion[ei] lecit[ae]"))
    if listed.count():
        options = listed.locator("option").all()
        pick = options[chooser.randrange(len(options))].get_attribute("value")
        listed.select_option(pick)
        page.get_by_role("button", name="Gioca").click()
    else:
        buttons = page.get_by_role("group", name="Azioni lecite").get_by_role("button")
        buttons.nth(chooser.randrange(buttons.count())).click()
    page.wait_for_function(
        "m => { const b = document.querySelector('#board'); return b && b.dataset.moves !== m; }",
        arg=before,
    )
    assert page.get_by_role("alert").count() == 0, page.get_by_role("alert").inner_text()


def test_two_people_play_a_variant_3_game_to_its_end_and_the_result_is_in_the_ledger(
    browser: Any, server: str, server_env: dict[str, str]
) -> None:
    manage(server_env, "shell", "-c", SETUP)
    people = []
    for username in ("anna.v3", "bruno.v3"):
        context = browser.new_context(locale="it-IT", viewport={"width": 1280, "height": 800})
        # Forced moves are played by hand here, so that the page never moves by itself
        # while the test reads it (the page's own "let me play forced moves" setting).
        context.add_init_script("localStorage.setItem('play-no-autoplay', '1')")
        page = context.new_page()
        page.set_default_timeout(10_000)
        _log_in(page, server, username)
        people.append(page)
    anna, bruno = people

    # Anna opens the table they were drawn at and sends Bruno the invitation.
    anna.goto(server + "/play/")
    anna.get_by_label("Tavolo", exact=True).select_option(label="Variante 3 a due · Tavolo 1")
    with anna.expect_navigation():
        anna.get_by_role("button", name="Aprilo per una partita digitale").click()
    invite = anna.get_by_label("Link di invito: mandalo ai giocatori che vuoi").input_value()
    bruno.goto(invite)
    with bruno.expect_navigation():
        bruno.get_by_role("button", name="Siediti").click()
    table_url = bruno.url
    anna.goto(table_url)
    for page in people:
        assert "Variante 3 a due" in page.locator("#board").inner_text()

    chooser = random.Random(26)
    over = anna.get_by_role("heading", name="Partita finita")
    moves, last = 0, anna
    for _ in range(600):
        if over.count():
            break
        mover = next(
            (p for p in (last, *people) if p.get_by_role("heading", name="Tocca a te").count()),
            None,
        )
        if mover is None:
            # The other player's page shows the move just made once it is reloaded (or
            # refreshed by itself, a moment later).
            waiting = bruno if last is anna else anna
            waiting.reload()
            last = waiting
            continue
        _play_one(mover, chooser)
        moves, last = moves + 1, mover
    else:
        raise AssertionError("the game did not end")
    bruno.reload()
    assert bruno.get_by_role("heading", name="Partita finita").count() == 1
    assert moves > 20
    screenshot(anna, "play-sanmarco-v3-two-people-over.png", full_page=True)

    # Each seat's final score, as the table shows it ("Posto 1: Anna Gualandi — 17").
    seats = anna.get_by_role("list", name="Posti").get_by_role("listitem").all_inner_texts()
    scores = {}
    for row in seats:
        name, _sep, points = row.partition(" — ")
        scores[name.split(": ", 1)[1].replace(" (tu)", "")] = int(points)
    assert set(scores) == {"Anna Gualandi", "Bruno Sismondi"}

    # The result is in the ledger, with the same scores, and the standings count it.
    with anna.expect_navigation():
        anna.get_by_role("link", name="Vedi il risultato nel registro").click()
    page_text = anna.locator("main").inner_text()
    for name, points in scores.items():
        assert name in page_text
        assert str(points) in page_text
    anna.goto(server + CLUB + "variante-3-a-due/")
    standings = anna.locator("table.standings").inner_text()
    assert "Anna Gualandi" in standings and "Bruno Sismondi" in standings
    for page in people:
        page.context.close()
