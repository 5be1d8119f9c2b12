"""Cards drawn as cards and each game's table in its own terms: every card of every game
that declares faces is an SVG drawn here from its data; the board ties the legal moves to
the cards of the hand and says in words why a rule narrows the choice."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client

from games.core import faces as game_faces
from games.core import registry
from ledger.clubs import cards
from ledger.play import boards, services
from tests.play.conftest import dealt

FACED = [
    g
    for g in registry.available()
    if game_faces.for_game(g) is not None and game_faces.for_game(g).all_codes()
]


@pytest.mark.parametrize("game", FACED)
def test_every_card_of_the_game_is_an_svg_drawn_from_its_declared_face(game):
    module = game_faces.for_game(game)
    codes = module.all_codes()
    assert codes
    for lang in ("it", "en"):
        for code in codes:
            face = module.face(code)
            drawn = str(cards.svg(game, code, lang))
            assert drawn.startswith("<svg") and drawn.endswith("</svg>")
            # Nothing fetched: no link, image or script inside a card.
            assert not re.search(r"href|<image|<script|url\(", drawn)
            assert face.name.get(lang) and face.name.get(lang) != code
    assert len({str(cards.svg(game, c, "en")) for c in codes}) == len(set(codes))


def test_the_tarocco_pack_has_its_trumps_by_number_and_name_and_the_two_odd_cards():
    module = game_faces.for_game("tarocco")
    assert module.face("T20").band.it == "Giove" and module.face("T20").big == "XX"
    assert module.face("T14").band.it == "Vascello"
    assert module.face("M").band.it == "Miseria" and module.face("F").sign == "fool"
    assert module.face("CK").sign == "coppe" and module.face("CK").big == "court:K"
    assert module.face("O4").pips == 4


def test_er_gio_decks_are_blue_and_red_with_figure_or_force():
    module = game_faces.for_game("ergio")
    assert module.face("SMA-7").colour != module.face("SAN-7").colour
    assert module.face("SMA-7").big == "7" and module.face("SMA-MAG").sign == "scroll"
    assert module.face("T-CEL").sign == "mask"


def _following_state():
    """A Tarocco deal at the moment a seat must follow the suit led."""
    engine = registry.get("tarocco")
    state = engine.new_game(engine.ruleset(), 11)
    bots = [engine.bots["heuristic"](i) for i in range(4)]
    while not state.is_over():
        seat = state.to_act()
        view = state.view(seat)
        if view["phase"] == "play" and view["trick"]:
            legal = [engine.encode_action(a) for a in state.legal_actions(seat)]
            if len({a["play"] for a in legal}) < len(set(view["hand"])):
                return engine, state, seat, view, legal
        state.apply_unchecked(seat, bots[seat].choose(state, seat))
    raise AssertionError("no restricted choice in this deal")


def test_a_san_marco_action_card_is_written_in_the_readers_language():
    for code, it, en in (
        ("transfer", "Trasferimento", "Transfer"),
        ("banish", "Bando", "Banishment"),
    ):
        english, italian = (
            str(cards.svg("sanmarco", code, "en")),
            str(cards.svg("sanmarco", code, "it")),
        )
        assert en in english and it not in english
        assert it in italian and en not in italian


def test_a_restricted_tarocco_choice_says_why_and_only_legal_cards_are_buttons():
    _engine, _state, _seat, view, legal = _following_state()
    choice = boards.choices("tarocco", view, legal, "it")
    assert choice["why"].startswith(("Devi rispondere a", "Non hai"))
    playable = {a["play"] for a in legal}
    for card in choice["hand"]:
        assert (card["move"] is not None) == (card["code"] in playable)
    # A signal is an option of the card's move, not another button.
    assert all("signal" not in json.loads(c["move"]["json"]) for c in choice["hand"] if c["move"])
    english = boards.choices("tarocco", view, legal, "en")["why"]
    assert english.startswith(("You must", "You have no"))


def test_the_tarocco_board_seats_four_around_the_table_from_the_viewers_place():
    _engine, _state, seat, view, _legal = _following_state()
    names = ["Anna", "Bruno", "Carla", "Dario"]
    board = boards.board("tarocco", view, "it", names, viewer=seat, to_act=seat)
    places = {s["pos"]: s for s in board["seats"]}
    assert places["bottom"]["seat"] == seat and places["bottom"]["you"]
    assert places["right"]["seat"] == (seat + 1) % 4
    assert not places["bottom"]["backs"] and places["top"]["backs"]
    assert [c["card"] for c in view["trick"]] == [g["cards"][0]["code"] for g in board["centre"]]
    assert all(" " in g["label"] or g["label"] in names for g in board["centre"])


def test_a_signal_chosen_beside_the_hand_goes_with_the_card(people, commit):
    with dealt(11):
        table = commit(
            services.create_table,
            user=people.users["member"],
            club=people.club,
            game="tarocco",
            seats=["me", "heuristic", "heuristic", "heuristic"],
        )
    action = boards.merge_options("tarocco", {"play": "T20"}, {"opt_signal": "giove"})
    assert action == {"play": "T20", "signal": "giove"}
    assert boards.merge_options("tarocco", {"play": "T20"}, {"opt_signal": ""}) == {"play": "T20"}
    client = Client(HTTP_ACCEPT_LANGUAGE="it")
    client.force_login(people.users["member"])
    page = client.get(f"/play/{table.pk}/").content.decode()
    assert 'id="tableau"' in page and "<svg" in page
    # What a player reads (the text, not the attributes the page's forms send) holds no
    # notation: no JSON, no Python value.
    text = re.sub(r"<script.*?</script>|<style.*?</style>|<[^>]+>", " ", page, flags=re.S)
    assert "{" not in text and not re.search(r"\b(True|False|None)\b", text)


def test_a_cardchess_play_is_chosen_place_by_place_and_checked_by_the_engine(people, commit):
    with dealt(4):
        table = commit(
            services.create_table,
            user=people.users["member"],
            club=people.club,
            game="cardchess",
            seats=["me", "heuristic"],
        )
    engine = registry.get("cardchess")
    state = services.state_of(table)
    play = engine.encode_action(state.legal_actions(0)[0])["play"]
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(people.users["member"])
    url = f"/play/{table.pk}/act/"
    fields = {"slots": "play", "slot_count": "3", "move_id": "s1"}
    same = {**fields, **{f"slot_{i}": play[0] for i in range(3)}}
    if engine.encode_action(state.legal_actions(0)[0]) != {"play": [play[0]] * 3}:
        refused = commit(client.post, url, same, HTTP_HX_REQUEST="true").content.decode()
        assert 'id="move-error"' in refused
    table.refresh_from_db()
    assert table.moves_count == 0
    chosen = {**fields, "move_id": "s2", **{f"slot_{i}": c for i, c in enumerate(play)}}
    commit(client.post, url, chosen, HTTP_HX_REQUEST="true")
    table.refresh_from_db()
    assert table.moves_count >= 1


def test_a_san_marco_score_is_written_as_a_number_within_its_bounds(people, commit):
    with dealt(4):
        table = commit(
            services.create_table,
            user=people.users["member"],
            club=people.club,
            game="sanmarco",
            seats=["me", "heuristic"],
        )
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(people.users["member"])
    page = client.get(f"/play/{table.pk}/").content.decode()
    assert 'id="number-value"' in page and 'max="200"' in page and 'id="action"' not in page
    assert "Points of your colour" in page and "Score sheet" in page
    fixed = json.loads(
        re.search(r'name="fixed" value="([^"]+)"', page).group(1).replace("&quot;", '"')
    )
    commit(
        client.post,
        f"/play/{table.pk}/act/",
        {"number": "points", "fixed": json.dumps(fixed), "value": "37", "move_id": "n1"},
        HTTP_HX_REQUEST="true",
    )
    table.refresh_from_db()
    assert services.moves_of(table)[0][2] == {**fixed, "points": 37}


def test_a_bridges_game_strategy_option_is_sent_as_the_engine_writes_it():
    assert boards.merge_options(
        "ponte", {"fight": "A5000", "strategy": None}, {"opt_strategy": "0"}
    ) == {
        "fight": "A5000",
        "strategy": 0,
    }


def _bargained(*said: dict[str, Any]) -> dict[str, Any]:
    engine = registry.get("tarocco")
    state = engine.new_game(engine.ruleset(), 5)  # seat 2 speaks first
    for action in said:
        seat = state.to_act()
        state.apply(seat, engine.decode_action(action))
    assert state.is_over()
    return state.view(None)


def test_a_hand_thrown_in_after_offers_nobody_took_says_why_nobody_scores():
    # tarocco.bargain.abandon: offers that nobody takes, and no tengo, throw the hand in.
    view = _bargained(
        {"bid": "offro", "points": 9},
        {"bid": "offro", "points": 6},
        {"bid": "offro", "points": 6},
        {"bid": "vado"},
    )
    names = ["Anna", "Bruno", "Carla", "Dario"]
    board = boards.board("tarocco", view, "it", names)
    ending = next(p for p in board["panels"] if p["key"] == "ending")
    text = " ".join(g["text"] for g in ending["groups"])
    assert "nessuno ha preso un'offerta (Carla offro 9, Dario offro 6, Anna offro 6)" in text
    assert "nessuno segna punti" in text and "piglio" in text
    assert "Le prossime carte le dà Carla." in text
    english = boards.board("tarocco", view, "en", names)
    said = " ".join(
        g["text"] for p in english["panels"] if p["key"] == "ending" for g in p["groups"]
    )
    assert "Nobody said tengo and nobody took an offer" in said and "nobody scores" in said


def test_an_offer_taken_says_who_gains_and_who_loses():
    view = _bargained(
        {"bid": "offro", "points": 4}, {"bid": "piglio", "of": 2}, {"bid": "vado"}, {"bid": "vado"}
    )
    board = boards.board("tarocco", view, "it", ["Anna", "Bruno", "Carla", "Dario"])
    text = " ".join(g["text"] for p in board["panels"] if p["key"] == "ending" for g in p["groups"])
    assert (
        "Dario ha detto piglio all'offerta di Carla: Dario guadagna 4 punti, Carla ne perde 4."
        in text
    )


def test_the_bargaining_says_what_each_word_commits_to():
    engine = registry.get("tarocco")
    state = engine.new_game(engine.ruleset(), 5)
    seat = state.to_act()
    legal = [engine.encode_action(a) for a in state.legal_actions(seat)]
    why = boards.choices("tarocco", state.view(seat), legal, "it")["why"]
    assert "Tengo: si gioca" in why and "va a monte: nessuno segna punti" in why
    why = boards.choices("tarocco", state.view(seat), legal, "en")["why"]
    assert "Piglio: you take another player's offer" in why


NOTATION = re.compile(r"\b(True|False|None)\b|[{}\[\]]|\w+_\w+|\b[A-Z]{2,4}-(\w+)\b")


def _er_gio_choices(preset: str, seed: int) -> Any:
    """Every choice of a whole Er Giò match played by the heuristic bots, as the page gets
    it: the seat's view and its legal actions."""
    engine = registry.get("ergio")
    state = engine.new_game(engine.ruleset(preset), seed)
    bots = [engine.bots["heuristic"](i) for i in range(engine.ruleset(preset).seats)]
    while not state.is_over():
        seat = state.to_act()
        legal = [engine.encode_action(a) for a in state.legal_actions(seat)]
        yield state.view(seat), legal
        state.apply_unchecked(seat, bots[seat].choose(state, seat))


def _restricted(view: dict[str, Any], legal: list[dict[str, Any]]) -> bool:
    kinds = {next(iter(a)) for a in legal}
    if view["phase"] == "sabotage" or kinds in ({"lay"}, {"send"}, {"draw"}):
        return True
    return "reinforce" in kinds or ("arno" in kinds and "end" not in kinds)


@pytest.mark.parametrize("preset", ["base", "advanced", "4p"])
def test_every_restricted_er_gio_choice_says_why_in_words(preset):
    seen: set[str] = set()
    for view, legal in _er_gio_choices(preset, 3):
        if not _restricted(view, legal):
            continue
        for lang in ("it", "en"):
            why = boards.choices("ergio", view, legal, lang)["why"]
            assert why, (view["phase"], legal[:3])
            assert not NOTATION.search(why), why
        kinds = {next(iter(a)) for a in legal}
        seen.add(view["phase"] + ":" + ",".join(sorted(kinds)))
    # The match went through the rules that narrow a choice.
    assert any(k.endswith(":lay") for k in seen), seen
    assert "battle:send" in seen and any("reinforce" in k for k in seen), seen


def test_er_gio_says_which_tris_must_be_laid_and_what_a_sent_magistratura_may_be():
    said = {}
    for view, legal in _er_gio_choices("base", 3):
        kinds = {next(iter(a)) for a in legal}
        if kinds in ({"lay"}, {"send"}) and tuple(kinds) not in said:
            said[tuple(kinds)] = (view, legal, boards.choices("ergio", view, legal, "it")["why"])
    view, legal, why = said[("lay",)]
    assert why.startswith("Hai in mano un tris non ancora schierato (")
    assert "va calato prima di ogni altra mossa" in why
    from games.ergio import words

    named = words.card(legal[0]["lay"][0], "it").split(" di ", 1)[1]
    assert named in why  # the magistratura of the tris, by name
    view, legal, why = said[("send",)]
    assert f"({len(legal)} rimaste)" in why and "combatte una volta sola" in why


def test_er_gio_explains_the_hand_limit_and_what_may_be_added_to_the_corteo():
    for view, legal in _er_gio_choices("4p", 3):
        kinds = {next(iter(a)) for a in legal}
        if "arno" in kinds and "end" not in kinds:
            why = boards.choices("ergio", view, legal, "en")["why"]
            assert "more cards than the hand limit" in why
            assert "added only to a magistratura or group your side has shown" in why
            return
    raise AssertionError("no turn over the hand limit in this match")


@pytest.mark.parametrize(
    ("preset", "words"),
    [("2p-base", "le forze sono quelle fisse del foglio"), ("2p-expert", "dalla più forte")],
)
def test_the_bridges_game_power_sheet_says_what_may_be_written(preset, words):
    engine = registry.get("ponte")
    state = engine.new_game(engine.ruleset(preset), 3)
    seat = state.to_act()
    legal = [engine.encode_action(a) for a in state.legal_actions(seat)]
    assert state.view(seat)["phase"] == "power"
    assert words in boards.choices("ponte", state.view(seat), legal, "it")["why"]


def _tarocco_by_bots(seed: int) -> Any:
    engine = registry.get("tarocco")
    state = engine.new_game(engine.ruleset(), seed)
    bots = [engine.bots["heuristic"](i) for i in range(4)]
    while not state.is_over():
        seat = state.to_act()
        yield state, seat, [engine.encode_action(a) for a in state.legal_actions(seat)]
        state.apply_unchecked(seat, bots[seat].choose(state, seat))
    yield state, None, []


def test_every_tarocco_declaring_phase_says_what_its_words_commit_to():
    from games.tarocco import cards as C

    seen = set()
    for seed in (1, 2, 7):
        for state, seat, legal in _tarocco_by_bots(seed):
            if seat is None:
                continue
            view = state.view(seat)
            if view["phase"] == "play":
                continue
            for lang in ("it", "en"):
                why = boards.choices("tarocco", view, legal, lang)["why"]
                assert why and not NOTATION.search(why), (view["phase"], why)
            if view["phase"] in ("venti", "quindici"):
                held = C.honours([C.BY_CODE[c] for c in view["hand"]])
                assert (
                    f"Hai {held} punti in decine e cinquine"
                    in (boards.choices("tarocco", view, legal, "it")["why"])
                )
            seen.add(view["phase"])
    assert {"bargain", "solo", "discard", "venti", "quindici", "call"} <= seen, seen


@pytest.mark.parametrize("seed", [1, 7])
def test_a_played_tarocco_hand_shows_how_each_score_came_from_the_card_points(seed):
    *_, (state, _seat, _legal) = _tarocco_by_bots(seed)
    names = ["Anna", "Bruno", "Carla", "Dario"]
    board = boards.board("tarocco", state.view(None), "it", names)
    ending = next(p for p in board["panels"] if p["key"] == "ending")
    text = " ".join(g["text"] for g in ending["groups"])
    scores = state.outcome().scores
    summary = state.outcome().detail["summary"]
    if summary["outcome"] == "solo":
        d = summary["declarer"]
        assert f"Solista {names[d]}: {summary['card_points']} punti in carte" in text
        assert f"= {scores[d]};" in text
    else:
        pair = summary["pair"]
        assert f"segnano {scores[pair[0]]} a testa" in text
    other = next(s for s in range(4) if scores[s] != scores[max(range(4), key=scores.__getitem__)])
    assert str(scores[other]) in text


def test_the_er_gio_sheet_of_scontri_says_who_won_each_and_with_the_engines_force():
    engine = registry.get("ergio")
    state = engine.new_game(engine.ruleset("base"), 3)
    bots = [engine.bots["heuristic"](i) for i in range(2)]
    while not state.is_over():
        seat = state.to_act()
        state.apply_unchecked(seat, bots[seat].choose(state, seat))
    board = boards.board("ergio", state.view(None), "it", ["Anna", "Bruno"])
    sheet = next(p for p in board["panels"] if p["key"] == "fought")
    assert sheet["head"][-1] == "Vince"
    assert len(sheet["rows"]) == len(state.facts)
    for row, fact in zip(sheet["rows"], state.facts, strict=True):
        won = ("Tramontana", "Mezzogiorno")[fact.winner]
        assert row[-1].startswith(won + " ("), row
        for cell, side in zip(row[1:3], fact.sides, strict=True):
            assert cell.endswith(f"forza {side.force}"), (cell, side.force)
