"""San Marco's board drawn as SVG from the view a seat is given: the districts with each
colour's aristocrats, the bridges, the Doge, the points and the offers, and never a card
the view hides."""

from __future__ import annotations

import random
import re
from dataclasses import replace

from games.sanmarco.table import BoardState, presets
from ledger.play import drawings

NAMES = ["Anna", "Bruno", "Carla", "Dario"]


def _played(preset: str, moves: int, seed: int = 7, until: str | None = None) -> BoardState:
    state = BoardState(presets()[preset], seed)
    chooser = random.Random(seed)
    for _ in range(moves):
        if until is not None and state.phase == until:
            break
        seat = state.to_act()
        state.apply_unchecked(seat, chooser.choice(state.legal_actions(seat)))
    return state


def _svg(view: dict, lang: str = "en") -> str:
    drawn = drawings.drawing("sanmarco", view, lang, NAMES)
    assert drawn is not None
    return str(drawn["svg"])


def _words(svg: str) -> str:
    """What a reader sees in the drawing: its text, not its attributes."""
    return " ".join(re.findall(r">([^<>]+)<", svg))


def test_the_drawn_board_shows_the_cubes_bridges_doge_and_points_of_the_view():
    state = _played("base4", 80)
    view = state.view(0)
    svg = _svg(view)
    for district, counts in view["cubes"].items():
        box = svg.split(f'data-key="{district}"')[1].split('class="district"')[0]
        drawn = re.findall(r'data-colour="c(\d)" data-count="(\d+)"', box)
        assert {int(c): int(n) for c, n in drawn} == {c: n for c, n in enumerate(counts) if n}
    assert sum(map(sum, view["cubes"].values())) > 0
    bridges = re.findall(r'<g class="bridge" data-owner="c(\d)" data-between="(\w+) (\w+)">', svg)
    assert len(bridges) == len(view["bridges"]) > 0
    assert sorted((int(o), frozenset((a, b))) for o, a, b in bridges) == sorted(
        (b["owner"], frozenset(b["between"])) for b in view["bridges"]
    )
    # The Doge's marker stands in the district the view names, and nowhere else.
    assert svg.count('<g class="marker">') == 1
    doge_box = svg.split(f'data-key="{view["doge"]}"')[1].split('class="district"')[0]
    assert "Doge" in doge_box
    points = re.findall(r'<circle class="score" data-colour="c(\d)" data-points="(\d+)"', svg)
    assert [int(p) for _c, p in points] == [c["score"] for c in view["colours"]]


def test_a_hand_being_divided_is_drawn_only_for_its_distributor():
    state = _played("base4", 400, until="divide")
    assert state.phase == "divide"
    distributor = state.to_act()
    other = next(s for s in range(4) if s != distributor)
    mine, theirs = state.view(distributor), state.view(other)
    assert "hand" in mine and "hand" not in theirs
    hidden = _svg(theirs)
    assert 'class="offer-card"' not in hidden
    assert hidden.count('class="back"') == len(mine["hand"])
    shown = _svg(mine)
    assert shown.count('class="offer-card"') == len(mine["hand"])
    spectator = _svg(state.view(None))
    assert 'class="offer-card"' not in spectator


def test_offers_kept_private_stay_face_down_on_the_drawing():
    ruleset = presets()["base4"]
    state = BoardState(replace(ruleset, offers_public=False), 7)
    chooser = random.Random(7)
    for _ in range(400):
        if state.phase == "choose":
            break
        seat = state.to_act()
        state.apply_unchecked(seat, chooser.choice(state.legal_actions(seat)))
    assert state.phase == "choose"
    pair = {state.pairs[0].distributor, *state.pairs[0].choosers}
    outsider = next(s for s in range(4) if s not in pair)
    view = state.view(outsider)
    svg = _svg(view)
    assert 'class="offer-card"' not in svg
    assert svg.count('class="back"') == sum(o["cards"] for o in view["offers"])


def test_the_drawing_speaks_italian_and_english_without_engine_codes():
    state = _played("variant3-board", 120)
    for lang, word in (("it", "Punti di prestigio"), ("en", "Prestige points")):
        drawn = drawings.drawing("sanmarco", state.view(0), lang, NAMES)
        assert drawn is not None
        text = _words(str(drawn["svg"])) + " ".join(drawn["status"] + drawn["summary"])
        assert word in text
        assert not re.search(r"san_marco|santa_croce|None|\{|\[|'|\bc\d\b", text)


def test_the_scoring_round_draws_no_map():
    assert (
        drawings.drawing("sanmarco", {"colours": [["rosso"]], "entries": [[None]]}, "en", [])
        is None
    )


def test_the_table_page_and_the_replay_draw_the_board_instead_of_a_list(people, commit):
    from django.test import Client

    from ledger.clubs.models import Competition
    from ledger.play import services
    from tests.play.conftest import dealt, play_out

    league = Competition.objects.create(
        club=people.club,
        name="San Marco",
        slug="san-marco",
        game="sanmarco",
        ruleset={"name": "base3", "passages": 1},
        bot_tables_count=True,
    )
    with dealt(3):
        table = commit(
            services.create_table,
            user=people.users["scorekeeper"],
            club=people.club,
            game="sanmarco",
            seats=["me", "heuristic", "heuristic"],
            competition=league,
        )
    client = Client(HTTP_ACCEPT_LANGUAGE="it")
    client.force_login(people.users["scorekeeper"])
    page = client.get(f"/play/{table.pk}/").content.decode()
    assert 'class="drawn-board"' in page and "La plancia di San Marco" in page
    assert "posa un ponte iniziale" in page  # whose turn and what is being decided
    assert '<dl class="view">' not in page  # no longer a list of the view's keys
    # Someone of the club who does not sit there sees the same board, drawn from the public view.
    watcher = Client(HTTP_ACCEPT_LANGUAGE="en")
    watcher.force_login(people.users["member"])
    watched = watcher.get(f"/play/{table.pk}/").content.decode()
    assert 'id="spectator"' in watched and "The San Marco board" in watched
    play_out(commit, people.users["scorekeeper"], table)
    replay = client.get(f"/play/{table.pk}/replay/?step=20").content.decode()
    assert 'class="drawn-board"' in replay and '<dl class="view">' not in replay
