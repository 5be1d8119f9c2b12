"""A result's page says in words what was recorded, for every game the registry lists, so the
players who must confirm it can check it: the facts the game declares (``GAME.describe``)
for a summary a scorekeeper typed and for a full record alike, seats named by their players,
never JSON, a slug or a Python value."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest

from games.core import RandomBot, registry
from ledger.clubs.models import Competition, Result
from ledger.clubs.results.services import create_table, record_result

# Every game the registry lists whose results say more than each seat's points (a game
# whose summary is the points themselves declares nothing beyond them: the page's table of
# points already shows it).
GAMES = [slug for slug in registry.available() if not registry.get(slug).plain_scores]


def _table(club: Any, people: Any, slug: str) -> Any:
    engine = registry.get(slug)
    seats = engine.ruleset(None).seats
    competition = Competition.objects.create(
        club=club,
        name=slug,
        slug=f"{slug}-cup",
        game=slug,
        confirmation=Competition.Confirmation.SECOND_PERSON,
    )
    return create_table(
        user=people.users["organiser"],
        competition=competition,
        label="T1",
        players=people.extra[:seats],
    )


def _bot_record(slug: str, seed: int = 5) -> dict[str, Any]:
    engine = registry.get(slug)
    state: Any = engine.new_game(engine.ruleset(None), seed)
    bots = [RandomBot(seed * 11 + i) for i in range(8)]
    for _ in range(engine.info.max_actions):
        seat = state.to_act()
        if seat is None:
            break
        state.apply_unchecked(seat, bots[seat].choose(state, seat))
    assert state.is_over()
    record: dict[str, Any] = state.to_record()
    return record


def _declared_block(page: str) -> str:
    start = page.index('id="result-detail"')
    return page[start : page.index("</div>", page.index("</ul>", start))]


@pytest.mark.parametrize("source", ["summary", "full_record"])
@pytest.mark.parametrize("slug", GAMES)
@pytest.mark.parametrize("lang", ["it", "en"])
def test_a_recorded_results_page_says_what_was_declared_in_words(
    client, club, people, slug, source, lang
):
    engine = registry.get(slug)
    table = _table(club, people, slug)
    record = engine.summary_examples[0] if source == "summary" else _bot_record(slug)
    result, _created = record_result(
        user=people.users["scorekeeper"], table=table, source=source, record=record
    )
    assert result.status == Result.Status.PENDING  # the players who confirm it read it
    names = [s.player.name for s in sorted(table.seats.all(), key=lambda s: s.index)]
    lines = engine.describe(result.verdict["outcome"], lang, names)
    assert lines, f"{slug} declares nothing about a recorded {source}"

    client.force_login(people.users["referee"])
    page = client.get(
        f"/c/prova/{table.competition.slug}/r/{result.pk}/", HTTP_ACCEPT_LANGUAGE=lang
    ).content.decode()
    block = _declared_block(page)
    shown = [html.unescape(li) for li in re.findall(r"<li>(.*?)</li>", block, re.S)]
    assert shown == lines  # every declared fact, in order, as the game says it
    text = " ".join(shown)
    assert not re.search(r"[{}\[\]]|\bNone\b|\bTrue\b|\bFalse\b|\bnull\b", text), text
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), text  # no slug
    assert any(name in text for name in names), "seats are named by their players"
    assert not re.search(r"\b(seat|posto) \d", text), "no seat is left as a number"


def test_a_tarocco_hand_typed_as_a_summary_says_its_bidding_dealer_soloist_and_points(
    client, club, people
):
    table = _table(club, people, "tarocco")
    summary = {"outcome": "pairs", "dealer": 0, "pair": [1, 3], "card_points": 60}
    result, _ = record_result(
        user=people.users["scorekeeper"], table=table, source="summary", record=summary
    )
    client.force_login(people.users["referee"])
    page = client.get(
        f"/c/prova/tarocco-cup/r/{result.pk}/", HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    block = html.unescape(_declared_block(page))
    assert "Dealer: Giocatore 0." in block
    assert "In pairs: Giocatore 1 and Giocatore 3 60 card points" in block
    assert "Giocatore 0 and Giocatore 2 49" in block
    assert "Next to deal: Giocatore 1." in block
