"""The score-entry pages: pick or open a table, preview with the engine, record once."""

from __future__ import annotations

import json
import re
from decimal import Decimal

import pytest

from games.core import registry
from ledger.clubs.models import Competition, Entry, Result, Table


@pytest.fixture
def logged_in(client, people):
    client.force_login(people.users["scorekeeper"])
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


def test_members_cannot_reach_score_entry(client, people, manual_competition):
    client.force_login(people.users["member"])
    assert client.get("/c/prova/coppa/score/").status_code == 403


def test_visitors_are_sent_to_log_in(client, manual_competition):
    response = client.get("/c/prova/coppa/score/")
    assert response.status_code == 302
    assert "/login/" in response["Location"]


def test_a_scorekeeper_opens_a_table_from_the_page(logged_in, people, manual_competition):
    response = logged_in.post(
        "/c/prova/coppa/score/",
        {"label": "Tavolo 5", "seat_0": people.extra[0].pk, "seat_1": people.extra[1].pk},
    )
    table = Table.objects.get(label="Tavolo 5")
    assert response.status_code == 302
    assert response["Location"].endswith(f"/t/{table.pk}/score/")
    assert [s.player for s in table.seats.all()] == people.extra[:2]


def test_the_preview_shows_scores_and_saves_nothing(logged_in, manual_table):
    url = f"/c/prova/coppa/t/{manual_table.pk}/preview/"
    response = logged_in.post(url, {"seat_0": "4", "seat_1": "-4"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert 'id="preview-scores"' in response.content.decode()
    assert Result.objects.count() == 0


def test_recording_twice_with_the_same_form_records_once(logged_in, manual_table):
    url = f"/c/prova/coppa/t/{manual_table.pk}/score/"
    body = {"seat_0": "4", "seat_1": "-4", "form_token": "abc123"}
    assert logged_in.post(url, body).status_code == 302
    assert logged_in.post(url, body).status_code == 302
    assert Result.objects.count() == 1
    assert Entry.objects.count() == 2


tarocco = pytest.mark.skipif("tarocco" not in registry.available(), reason="no Tarocco engine")


@pytest.fixture
def tarocco_table(club, people):
    from ledger.clubs.results.services import create_table

    competition = Competition.objects.create(club=club, name="T", slug="tarocco", game="tarocco")
    return create_table(
        user=people.users["organiser"],
        competition=competition,
        label="T1",
        players=people.extra[:4],
    )


@tarocco
def test_the_tarocco_preview_gives_the_solo_score(logged_in, tarocco_table):
    url = f"/c/prova/tarocco/t/{tarocco_table.pk}/preview/"
    body = {"outcome": "solo", "dealer": "3", "declarer": "1", "card_points": "61"}
    text = logged_in.post(url, body).content.decode()
    # 3 x (61 - 55) for the soloist; (48 - 54) for each of the three others.
    assert "18" in text and "-6" in text


@tarocco
def test_the_tarocco_preview_names_an_impossible_summary(logged_in, tarocco_table):
    url = f"/c/prova/tarocco/t/{tarocco_table.pk}/preview/"
    body = {"outcome": "solo", "dealer": "3", "declarer": "1", "card_points": "140"}
    text = logged_in.post(url, body).content.decode()
    # In words, the rule id beside them as a small reference; said once.
    assert 'id="preview-violations"' in text and 'id="preview-problem"' not in text
    assert 'class="rule-ref">tarocco.count.total' in text
    assert text.count("always total 109") == 1
    assert Result.objects.count() == 0


@tarocco
def test_a_tarocco_hand_recorded_on_the_page_moves_the_standings(logged_in, tarocco_table, people):
    url = f"/c/prova/tarocco/t/{tarocco_table.pk}/score/"
    body = {
        "outcome": "solo",
        "dealer": "3",
        "declarer": "0",
        "card_points": "70",
        "form_token": "t1",
    }
    assert logged_in.post(url, body).status_code == 302
    standings = dict(tarocco_table.competition.standings.values_list("player_id", "points"))
    assert standings[people.extra[0].pk] == 45
    assert standings[people.extra[1].pk] == -15


# --- the summary forms of every game -------------------------------------------------------


def _table(club, people, game: str, players: int, ruleset: str = "") -> Table:
    from ledger.clubs.results.services import create_table

    competition = Competition.objects.create(
        club=club, name=game, slug=f"{game}-cup", game=game, ruleset=ruleset
    )
    return create_table(
        user=people.users["organiser"],
        competition=competition,
        label="T1",
        players=people.extra[:players],
    )


def _rows(prefix: str, rows: list[dict[str, object]], total: int) -> dict[str, object]:
    """A formset as the browser posts it: the management form, then each row's fields."""
    data: dict[str, object] = {f"{prefix}-TOTAL_FORMS": total, f"{prefix}-INITIAL_FORMS": 0}
    for i, row in enumerate(rows):
        data.update({f"{prefix}-{i}-{name}": value for name, value in row.items()})
    return data


def _engine_scores(table: Table, summary: dict[str, object]) -> list[Decimal]:
    competition = table.competition
    if competition.ruleset:
        summary = {**summary, "ruleset": competition.ruleset}
    report = registry.get(competition.game).score(summary)
    assert report.valid, report.violations
    assert report.result is not None
    return [Decimal(str(s)) for s in report.result["scores"]]


def _record(client, table: Table, body: dict[str, object]):
    url = f"/c/prova/{table.competition.slug}/t/{table.pk}/score/"
    return client.post(url, {**body, "form_token": "tok"})


def _recorded_points(table: Table) -> list[Decimal]:
    result = Result.objects.get(table=table)
    entries = Entry.objects.filter(result=result).order_by("seat")
    return [e.points for e in entries]


def _scontro(challenger, t_mag, t_force, m_mag, m_force, t_figs=(), m_figs=()):
    return {
        "challenger": challenger,
        "t_mag": t_mag,
        "t_force": t_force,
        "t_figures": list(t_figs),
        "m_mag": m_mag,
        "m_force": m_force,
        "m_figures": list(m_figs),
    }


ERGIO_SCONTRI = [
    _scontro("tramontana", "santa_maria", 21, "dragoni", 18, ["capitano"], ["magistrato"]),
    _scontro("tramontana", "calci", 14, "leoni", 14, ["caposchiera"], ["magistrato"]),
    _scontro("mezzogiorno", "satiri", 16, "delfini", 20, ["capitano"], ["magistrato"]),
    _scontro("mezzogiorno", "san_michele", 12, "san_marco", 12),
    _scontro("mezzogiorno", "mattaccini", 20, "san_martino", 9, ["magistrato"]),
    _scontro("tramontana", "san_francesco", 17, "sant_antonio", 16),
]


def _ergio_summary(scontri: list[dict[str, object]]) -> dict[str, object]:
    return {
        "corteo_winner": "tramontana",
        "scontri": [
            {
                "challenger": s["challenger"],
                "tramontana": {
                    "magistratura": s["t_mag"],
                    "force": s["t_force"],
                    "figures": s["t_figures"],
                },
                "mezzogiorno": {
                    "magistratura": s["m_mag"],
                    "force": s["m_force"],
                    "figures": s["m_figures"],
                },
            }
            for s in scontri
        ],
    }


def test_an_ergio_match_typed_in_the_form_records_the_engines_score(logged_in, club, people):
    table = _table(club, people, "ergio", 2)
    body = {"corteo_winner": "tramontana", **_rows("scontro", ERGIO_SCONTRI, 6)}
    response = _record(logged_in, table, body)
    assert response.status_code == 302, response.content.decode()[:2000]
    expected = _engine_scores(table, _ergio_summary(ERGIO_SCONTRI))
    assert _recorded_points(table) == expected
    assert expected == [3, 3]  # three all: the Bella Nazionale decides the winner


@pytest.mark.parametrize(("players", "ruleset"), [(4, "4p"), (6, "6p")])
def test_an_ergio_match_for_more_players_gives_every_seat_its_sides_points(
    logged_in, club, people, players, ruleset
):
    table = _table(club, people, "ergio", players, ruleset=ruleset)
    page = logged_in.get(f"/c/prova/ergio-cup/t/{table.pk}/score/").content.decode()
    assert "Tramontana: Giocatore 0, Giocatore 2" in page  # even seats, odd seats
    body = {"corteo_winner": "tramontana", **_rows("scontro", ERGIO_SCONTRI, 6)}
    assert _record(logged_in, table, body).status_code == 302
    assert _recorded_points(table) == _engine_scores(table, _ergio_summary(ERGIO_SCONTRI))
    assert _recorded_points(table) == [3, 3] * (players // 2)


def test_an_ergio_preview_names_each_scontros_winner(logged_in, club, people):
    table = _table(club, people, "ergio", 2)
    url = f"/c/prova/ergio-cup/t/{table.pk}/preview/"
    body = {"corteo_winner": "tramontana", **_rows("scontro", ERGIO_SCONTRI[:2], 6)}
    text = logged_in.post(url, body).content.decode()
    assert 'id="preview-scores"' in text
    assert "Tramontana wins" in text and "Mezzogiorno wins" in text
    assert Result.objects.count() == 0


def test_an_ergio_magistratura_sent_twice_shows_the_rule_and_saves_nothing(logged_in, club, people):
    table = _table(club, people, "ergio", 2)
    twice = [ERGIO_SCONTRI[0], {**ERGIO_SCONTRI[1], "t_mag": "santa_maria"}]
    body = {"corteo_winner": "tramontana", **_rows("scontro", twice, 6)}
    response = _record(logged_in, table, body)
    text = response.content.decode()
    assert response.status_code == 200
    assert "ergio.summary.magistratura_twice" in text
    assert "Scontro 2" in text
    assert Result.objects.count() == 0


def test_an_ergio_scontro_half_written_points_at_the_missing_field(logged_in, club, people):
    table = _table(club, people, "ergio", 2)
    half = {**ERGIO_SCONTRI[0], "m_force": ""}
    body = {"corteo_winner": "tramontana", **_rows("scontro", [half], 6)}
    text = _record(logged_in, table, body).content.decode()
    field = text[text.index('class="field field-m_force invalid') :]
    field = field[: field.index("</div>")]
    assert 'id="id_scontro-0-m_force_error"' in field and "autofocus" in field
    assert Result.objects.count() == 0


def _challenge(t, m, winner, left_t="", left_m=""):
    return {"tramontana": t, "mezzogiorno": m, "winner": winner, "left_t": left_t, "left_m": left_m}


PONTE_CHALLENGES = [
    _challenge("calci", "delfini", "tramontana", 15000, 0),
    _challenge("calcesana", "dragoni", "mezzogiorno", 0, 5000),
    _challenge("mattaccini", "leoni", "tramontana"),
    _challenge("san_michele", "san_marco", "mezzogiorno"),
    _challenge("santa_maria", "san_martino", "tramontana", 5000, 0),
    _challenge("satiri", "sant_antonio", "mezzogiorno"),
]


def _ponte_summary(challenges, tie_breaker=None):
    summary: dict[str, object] = {
        "challenges": [
            {
                "tramontana": c["tramontana"],
                "mezzogiorno": c["mezzogiorno"],
                "winner": c["winner"],
                "left": [c["left_t"] or 0, c["left_m"] or 0],
            }
            for c in challenges
        ]
    }
    if tie_breaker:
        summary["tie_breaker"] = tie_breaker
    return summary


def test_a_bridge_match_with_its_tie_breaker_records_the_engines_score(logged_in, club, people):
    table = _table(club, people, "ponte", 4, ruleset="4p-base")
    body = {
        **_rows("challenge", PONTE_CHALLENGES, 6),
        "tb_tramontana": "calci",
        "tb_mezzogiorno": "san_marco",  # seat 3, Mezzogiorno's player with more victories
        "tb_winner": "mezzogiorno",
    }
    response = _record(logged_in, table, body)
    assert response.status_code == 302, response.content.decode().split('id="preview"')[1][:1500]
    tie = {"tramontana": "calci", "mezzogiorno": "san_marco", "winner": "mezzogiorno"}
    expected = _engine_scores(table, _ponte_summary(PONTE_CHALLENGES, tie))
    assert _recorded_points(table) == expected == [2, 1, 1, 3]


def test_a_bridge_match_at_three_all_without_tie_breaker_is_refused(logged_in, club, people):
    table = _table(club, people, "ponte", 2)
    response = _record(logged_in, table, _rows("challenge", PONTE_CHALLENGES, 6))
    assert response.status_code == 200
    assert "ponte.match.tiebreak" in response.content.decode()
    assert Result.objects.count() == 0


def test_the_bridge_power_sheet_is_checked_by_the_rules(logged_in, club, people):
    table = _table(club, people, "ponte", 2)
    won = [{**c, "winner": "tramontana"} for c in PONTE_CHALLENGES]
    body = {**_rows("challenge", won, 6), "power_calci": 999}
    text = _record(logged_in, table, body).content.decode()
    assert "ponte.power.base_values" not in text  # a partial sheet is not checked
    assert "ponte.summary.left" in text  # but what was left cannot exceed what was given
    assert Result.objects.count() == 0


def test_a_san_marco_game_in_variant_3_records_the_engines_score(logged_in, club, people):
    table = _table(club, people, "sanmarco", 2)
    body = {"p0_0": 55, "p0_1": 66, "p1_0": 57, "p1_1": 61}
    assert _record(logged_in, table, body).status_code == 302
    expected = _engine_scores(table, {"variant": 3, "points": [[55, 66], [57, 61]]})
    assert _recorded_points(table) == expected == [58, 59]


def test_a_san_marco_game_in_variant_2_takes_the_neutral_colour_and_passages(
    logged_in, club, people
):
    table = _table(club, people, "sanmarco", 2, ruleset="variant2")
    passages = [{"limit_0": 12, "limit_1": 7, "bonus_0": 0, "bonus_1": 5}]
    body = {"p0": 50, "p1": 61, "neutral": 44, **_rows("passage", passages, 3)}
    assert _record(logged_in, table, body).status_code == 302
    summary = {
        "variant": 2,
        "points": [50, 61],
        "neutral": 44,
        "passages": [{"limits": [12, 7], "bonus": [0, 5]}],
    }
    assert _recorded_points(table) == _engine_scores(table, summary)


def test_a_san_marco_wrong_passage_bonus_shows_the_rule(logged_in, club, people):
    table = _table(club, people, "sanmarco", 2, ruleset="variant2")
    passages = [{"limit_0": 12, "limit_1": 7, "bonus_0": 0, "bonus_1": 3}]
    body = {"p0": 50, "p1": 61, **_rows("passage", passages, 3)}
    text = _record(logged_in, table, body).content.decode()
    assert "sanmarco.v2.bonus" in text
    assert Result.objects.count() == 0


def _field_html(text: str, name: str) -> str:
    """The page's block of the field whose input is ``name`` (its error beside it)."""
    start = text.rindex('<div class="field', 0, text.index(f'name="{name}"'))
    return text[start : text.index("</div>", text.index(f'name="{name}"'))]


def test_a_san_marco_colour_above_the_cap_is_refused_at_its_field_with_the_input_kept(
    logged_in, club, people
):
    table = _table(club, people, "sanmarco", 2)
    body = {"p0_0": 55, "p0_1": 300, "p1_0": 57, "p1_1": 61}
    response = _record(logged_in, table, body)
    text = response.content.decode()
    assert response.status_code == 200
    field = _field_html(text, "p0_1")
    assert "invalid" in field and 'value="300"' in field and "autofocus" in field
    assert "sanmarco.entry.range" in field and "at most 200" in field
    assert text.count("at most 200") == 1  # said once, at its field
    assert Result.objects.count() == 0


@pytest.mark.parametrize(
    ("force", "figures", "words"),
    [
        ("21", [], "force 21 with no figure; possible from 0 to 18"),
        ("1", ["capitano"], "force 1 with Capitano; possible from 10 to 23"),
    ],
)
def test_an_ergio_force_the_figures_cannot_reach_is_refused_at_that_force(
    logged_in, club, people, force, figures, words
):
    table = _table(club, people, "ergio", 2)
    first = _scontro("tramontana", "santa_maria", force, "dragoni", 12, figures)
    body = {"corteo_winner": "tramontana", **_rows("scontro", [first], 6)}
    response = _record(logged_in, table, body)
    text = response.content.decode()
    assert response.status_code == 200
    field = _field_html(text, "scontro-0-t_force")
    assert "invalid" in field and f'value="{force}"' in field and "autofocus" in field
    assert "ergio.summary.force_range" in field and words in field
    assert text.count(words) == 1
    assert Result.objects.count() == 0


def test_an_ergio_scontro_after_the_fourth_win_is_refused_at_its_row(logged_in, club, people):
    table = _table(club, people, "ergio", 2)
    pairs = [("santa_maria", "dragoni"), ("calci", "leoni"), ("satiri", "delfini")]
    pairs += [("san_michele", "san_marco"), ("mattaccini", "san_martino")]
    five_nil = [_scontro("tramontana", t, 18, m, 10) for t, m in pairs]
    body = {"corteo_winner": "tramontana", **_rows("scontro", five_nil, 6)}
    response = _record(logged_in, table, body)
    text = response.content.decode()
    assert response.status_code == 200
    field = _field_html(text, "scontro-4-challenger")
    assert "invalid" in field and "ergio.summary.match_end" in field and "autofocus" in field
    assert Result.objects.count() == 0


def test_a_cardchess_game_of_three_records_the_gold_cards(logged_in, club, people):
    table = _table(club, people, "cardchess", 3, ruleset="3p")
    sfide = [[20, 10, 5], [12, 30, 1], [25, 3, 2], [18, 4, 9]]
    rows = [{f"p{i}": v for i, v in enumerate(s)} for s in sfide]
    body = {"kind": "game", **_rows("sfida", rows, 5)}
    assert _record(logged_in, table, body).status_code == 302
    expected = _engine_scores(table, {"players": 3, "sfide": sfide})
    assert _recorded_points(table) == expected == [3, 1, 0]


def test_a_cardchess_table_of_four_in_a_competition_without_ruleset_is_scored_for_four(
    logged_in, club, people
):
    table = _table(club, people, "cardchess", 4)  # the competition names no ruleset
    page = logged_in.get(f"/c/prova/{table.competition.slug}/t/{table.pk}/score/")
    assert 'name="sfida-0-p3"' in page.content.decode()
    sfide = [[3, 1, 0, 0], [2, 0, 1, 0], [2, 0, 0, 1]]
    rows = [{f"p{i}": v for i, v in enumerate(s)} for s in sfide]
    body = {"kind": "game", **_rows("sfida", rows, 3)}
    assert _record(logged_in, table, body).status_code == 302
    expected = _engine_scores(table, {"players": 4, "sfide": sfide})
    assert _recorded_points(table) == expected


def test_a_cardchess_sfida_from_captured_cards_records_its_points(logged_in, club, people):
    table = _table(club, people, "cardchess", 2)
    body = {
        "kind": "sfida",
        "captured_0": "bK bQ bC gP1l",
        "captured_1": "gK, gNl",
        **_rows("sfida", [], 4),
    }
    assert _record(logged_in, table, body).status_code == 302
    summary = {"players": 2, "captured": [["bK", "bQ", "bC", "gP1l"], ["gK", "gNl"]]}
    assert _recorded_points(table) == _engine_scores(table, summary)


def test_a_cardchess_unknown_card_code_is_a_field_error(logged_in, club, people):
    table = _table(club, people, "cardchess", 2)
    body = {"kind": "sfida", "captured_0": "bK zz", "captured_1": "", **_rows("sfida", [], 4)}
    text = _record(logged_in, table, body).content.decode()
    assert "Unknown card code zz" in text
    assert Result.objects.count() == 0


def test_a_cardchess_sfida_after_the_end_shows_the_rule(logged_in, club, people):
    table = _table(club, people, "cardchess", 2)
    sfide = [[20, 10], [20, 10], [20, 10], [20, 10], [9, 1]]
    rows = [{"p0": a, "p1": b} for a, b in sfide]
    text = _record(logged_in, table, {"kind": "game", **_rows("sfida", rows, 5)}).content.decode()
    assert "cardchess.game.end" in text
    assert Result.objects.count() == 0


@tarocco
def test_a_tarocco_hand_breaking_a_rule_shows_it_in_italian(client, people, tarocco_table):
    client.force_login(people.users["scorekeeper"])
    url = f"/c/prova/tarocco/t/{tarocco_table.pk}/score/"
    body = {"outcome": "solo", "dealer": "3", "declarer": "1", "card_points": "140"}
    text = client.post(url, body, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "tarocco.count.total" in text
    assert "sommano sempre 109" in text  # the rule's message in the reader's language
    # ...beside the field that breaks it, too.
    field = text[text.index('class="field field-card_points') :]
    assert "tarocco.count.total" in field[: field.index("</div>")]
    assert Result.objects.count() == 0


def test_the_full_record_can_be_pasted_instead_of_a_summary(logged_in, club, people):
    from games.core import RandomBot, play

    table = _table(club, people, "sanmarco", 2)
    engine = registry.get("sanmarco")
    state = play(engine, engine.new_game(engine.ruleset(), 3), [RandomBot(1), RandomBot(2)])
    record = state.to_record()
    body = {"mode": "record", "record_text": json.dumps(record)}
    response = _record(logged_in, table, body)
    assert response.status_code == 302
    assert response["Location"].endswith("?mode=record")
    result = Result.objects.get(table=table)
    assert result.source == "full_record"
    assert _recorded_points(table) == [Decimal(str(s)) for s in state.outcome().scores]


def test_the_full_record_can_be_uploaded_as_a_file(logged_in, club, people):
    from django.core.files.uploadedfile import SimpleUploadedFile

    table = _table(club, people, "sanmarco", 2)
    record = {
        "game": "sanmarco",
        "version": 1,
        "ruleset": {"name": "variant3", "variant": 3, "max_points": 200},
        "actions": [
            {"seat": 0, "colour": 0, "points": 55},
            {"seat": 0, "colour": 1, "points": 66},
            {"seat": 1, "colour": 0, "points": 57},
            {"seat": 1, "colour": 1, "points": 61},
        ],
    }
    upload = SimpleUploadedFile("game.json", json.dumps(record).encode(), "application/json")
    body = {"mode": "record", "record_file": upload}
    assert _record(logged_in, table, body).status_code == 302
    assert _recorded_points(table) == [58, 59]


def test_a_record_that_is_not_json_says_where(logged_in, club, people):
    table = _table(club, people, "sanmarco", 2)
    text = _record(logged_in, table, {"mode": "record", "record_text": "{oops"}).content.decode()
    assert "Not valid JSON" in text and "line 1" in text
    assert Result.objects.count() == 0


def test_the_json_summary_stays_available_as_an_advanced_mode(logged_in, club, people):
    table = _table(club, people, "sanmarco", 2)
    summary = {"variant": 3, "points": [[55, 66], [57, 61]]}
    body = {"mode": "json", "summary_json": json.dumps(summary)}
    assert _record(logged_in, table, body).status_code == 302
    assert _recorded_points(table) == [58, 59]


@pytest.mark.parametrize(
    ("game", "players", "first"),
    [
        ("ergio", 2, "id_corteo_winner"),
        ("ponte", 2, "id_challenge-0-tramontana"),
        ("sanmarco", 2, "id_p0_0"),
        ("cardchess", 2, "id_sfida-0-p0"),
    ],
)
def test_each_games_form_opens_on_its_first_field_with_a_numeric_keypad(
    logged_in, club, people, game, players, first
):
    table = _table(club, people, game, players)
    text = logged_in.get(f"/c/prova/{game}-cup/t/{table.pk}/score/").content.decode()
    tag = text[text.index(f'id="{first}"') - 300 : text.index(f'id="{first}"') + 200]
    assert "autofocus" in tag
    assert 'inputmode="numeric"' in text
    assert text.count("autofocus") == 1


PREVIEWS = {
    "ergio": {"corteo_winner": "tramontana", **_rows("scontro", ERGIO_SCONTRI[:1], 6)},
    "ponte": {**_rows("challenge", [{**c, "winner": "tramontana"} for c in PONTE_CHALLENGES], 6)},
    "sanmarco": {"p0_0": 55, "p0_1": 66, "p1_0": 57, "p1_1": 61},
    "cardchess": {"kind": "game", **_rows("sfida", [{"p0": 20, "p1": 10}], 4)},
}


@pytest.mark.parametrize("game", sorted(PREVIEWS))
def test_each_games_preview_shows_the_score_and_saves_nothing(logged_in, club, people, game):
    table = _table(club, people, game, 2)
    url = f"/c/prova/{game}-cup/t/{table.pk}/preview/"
    text = logged_in.post(url, PREVIEWS[game], HTTP_HX_REQUEST="true").content.decode()
    assert 'id="preview-scores"' in text
    # A game typed only in part shows its score so far, and says it cannot be recorded yet.
    partial = game in ("ergio", "cardchess")
    assert ('id="preview-unfinished"' in text) == partial
    assert ('id="preview-ok"' in text) != partial
    assert "<form" not in text  # only the preview fragment is sent back
    assert Result.objects.count() == 0


def test_a_bridge_preview_places_a_broken_rule_at_its_challenge(logged_in, club, people):
    table = _table(club, people, "ponte", 2)
    again = [PONTE_CHALLENGES[0], {**PONTE_CHALLENGES[1], "tramontana": "calci"}]
    url = f"/c/prova/ponte-cup/t/{table.pk}/preview/"
    text = logged_in.post(url, _rows("challenge", again, 6)).content.decode()
    assert "<li><b>Challenge 2</b>: " in text and 'class="rule-ref">ponte.deploy.once' in text
    assert Result.objects.count() == 0


def test_the_preview_of_a_pasted_record_shows_its_score(logged_in, club, people):
    table = _table(club, people, "sanmarco", 2)
    record = {
        "game": "sanmarco",
        "version": 1,
        "ruleset": "variant3",
        "actions": [
            {"seat": 0, "colour": 0, "points": 55},
            {"seat": 0, "colour": 1, "points": 66},
            {"seat": 1, "colour": 0, "points": 57},
            {"seat": 1, "colour": 1, "points": 61},
        ],
    }
    url = f"/c/prova/sanmarco-cup/t/{table.pk}/preview/"
    body = {"mode": "record", "record_text": json.dumps(record)}
    text = logged_in.post(url, body).content.decode()
    assert 'id="preview-scores"' in text and ">59<" in text
    assert Result.objects.count() == 0


def test_the_result_pages_use_each_games_own_summary_form(club, people):
    from ledger.web.forms import summary_form_class
    from ledger.web.scoring_views import _forms

    for game in ("ergio", "tarocco", "sanmarco", "ponte", "cardchess"):
        table = _table(club, people, game, 4 if game == "tarocco" else 2)
        form, _seats = _forms(table.competition, table, None)
        assert type(form) is summary_form_class(game)
        assert "summary_json" not in form.fields


@tarocco
def test_two_tarocco_offers_taken_in_one_bargaining_are_both_scored(
    logged_in, tarocco_table, people
):
    body = {
        "outcome": "offer",
        "dealer": "3",
        "offerer": "2",
        "taker": "0",
        "points": "6",
        "offerer_2": "1",
        "taker_2": "3",
        "points_2": "2",
    }
    assert _record(logged_in, tarocco_table, body).status_code == 302
    summary = {
        "outcome": "offer",
        "dealer": 3,
        "offers": [
            {"offerer": 2, "taker": 0, "points": 6},
            {"offerer": 1, "taker": 3, "points": 2},
        ],
    }
    assert _recorded_points(tarocco_table) == _engine_scores(tarocco_table, summary)
    assert _recorded_points(tarocco_table) == [6, -2, -6, 2]


@tarocco
def test_a_half_written_second_offer_points_at_what_is_missing(logged_in, tarocco_table):
    body = {
        "outcome": "offer",
        "dealer": "3",
        "offerer": "2",
        "taker": "0",
        "points": "6",
        "offerer_2": "1",
    }
    text = _record(logged_in, tarocco_table, body).content.decode()
    assert "Second offer: who took it" in text and "Needed for the second offer." in text
    assert Result.objects.count() == 0


def test_with_four_bridge_players_each_magistratura_names_its_player(logged_in, club, people):
    table = _table(club, people, "ponte", 4, ruleset="4p-base")
    text = logged_in.get(f"/c/prova/ponte-cup/t/{table.pk}/score/").content.decode()
    assert ">Calci (Giocatore 0)</option>" in text
    assert ">Satiri (Giocatore 1)</option>" in text
    assert ">Sant&#x27;Antonio (Giocatore 3)</option>" in text


@pytest.mark.parametrize(("players", "ruleset"), [(3, "3p-advanced"), (6, "6p-base")])
def test_a_bridge_match_for_three_or_six_records_the_engines_score(
    logged_in, club, people, players, ruleset
):
    table = _table(club, people, "ponte", players, ruleset=ruleset)
    won = [{**c, "winner": "tramontana"} for c in PONTE_CHALLENGES[:4]]
    won += [{**c, "winner": "mezzogiorno"} for c in PONTE_CHALLENGES[4:]]
    assert _record(logged_in, table, _rows("challenge", won, 6)).status_code == 302
    assert _recorded_points(table) == _engine_scores(table, _ponte_summary(won))


def test_an_ergio_result_is_corrected_through_the_same_scontri_form(
    logged_in, client, club, people
):
    table = _table(club, people, "ergio", 2)
    body = {"corteo_winner": "tramontana", **_rows("scontro", ERGIO_SCONTRI, 6)}
    assert _record(logged_in, table, body).status_code == 302
    result = Result.objects.get(table=table)
    client.force_login(people.users["referee"])
    url = f"/c/prova/{table.competition.slug}/r/{result.pk}/correct/"
    page = client.get(url).content.decode()
    assert 'name="scontro-TOTAL_FORMS"' in page  # the game's own form, not a JSON box
    # The sixth scontro goes the other way: Mezzogiorno wins four to two.
    fixed = [*ERGIO_SCONTRI[:5], _scontro("tramontana", "san_francesco", 15, "sant_antonio", 18)]
    corrected = {"corteo_winner": "tramontana", **_rows("scontro", fixed, 6)}
    response = client.post(url, {**corrected, "reason": "sixth scontro misread", "apply": "1"})
    assert response.status_code == 302, response.content.decode()[:2000]
    new = Result.objects.get(supersedes=result)
    assert [Decimal(s) for s in new.scores] == _engine_scores(table, _ergio_summary(fixed))


@tarocco
def test_after_a_tarocco_hand_the_form_offers_the_next_dealer(logged_in, tarocco_table):
    url = f"/c/prova/tarocco/t/{tarocco_table.pk}/score/"
    # Before any hand the last seat deals; after one dealt by seat 3, seat 0 does.
    assert 'value="3" selected' in logged_in.get(url).content.decode()
    body = {"outcome": "solo", "dealer": "3", "declarer": "0", "card_points": "70"}
    assert logged_in.post(url, {**body, "form_token": "d1"}).status_code == 302
    page = logged_in.get(url).content.decode()
    assert 'value="0" selected' in page and 'value="3" selected' not in page
    assert logged_in.post(url, {**body, "dealer": "0", "form_token": "d2"}).status_code == 302
    assert 'value="1" selected' in logged_in.get(url).content.decode()


def test_an_unfinished_cardchess_game_is_refused_with_the_reason(logged_in, club, people):
    table = _table(club, people, "cardchess", 2)
    rows = [{"p0": 20, "p1": 10}, {"p0": 5, "p1": 12}]  # two sfide: gold still to be decided
    text = _record(logged_in, table, {"kind": "game", **_rows("sfida", rows, 4)}).content.decode()
    assert "This game is not over yet" in text
    assert Result.objects.count() == 0


def test_an_unfinished_summary_is_refused_through_the_api_too(club, people):
    from ledger.clubs.errors import Invalid
    from ledger.clubs.scoring import score_result

    with pytest.raises(Invalid, match="not over yet"):
        score_result(
            game="cardchess",
            ruleset="2p",
            seats=2,
            source="summary",
            record={"players": 2, "sfide": [[20, 10], [5, 12]]},
            explicit=None,
        )


PREFILL_CASES = {
    "tarocco": (
        4,
        "",
        {
            "outcome": "pairs",
            "dealer": "1",
            "partner_a": "0",
            "partner_b": "2",
            "card_points": "60",
        },
    ),
    "ergio": (2, "", {"corteo_winner": "tramontana", **_rows("scontro", ERGIO_SCONTRI, 6)}),
    "ponte": (
        4,
        "4p-base",
        {
            **_rows("challenge", PONTE_CHALLENGES, 6),
            "tb_tramontana": "calci",
            "tb_mezzogiorno": "san_marco",
            "tb_winner": "mezzogiorno",
        },
    ),
    "sanmarco": (
        2,
        "variant2",
        {
            "p0": 50,
            "p1": 61,
            "neutral": 44,
            **_rows("passage", [{"limit_0": 12, "limit_1": 7, "bonus_0": 0, "bonus_1": 5}], 3),
        },
    ),
    "cardchess": (
        2,
        "",
        {
            "kind": "game",
            "gold_0": 3,
            "gold_1": 1,
            **_rows(
                "sfida",
                [
                    {"p0": 20, "p1": 10},
                    {"p0": 5, "p1": 5},
                    {"p0": 12, "p1": 14},
                    {"p0": 30, "p1": 2},
                    {"p0": 9, "p1": 1},
                ],
                5,
            ),
        },
    ),
}


@pytest.mark.parametrize("game", sorted(PREFILL_CASES))
def test_a_correction_starts_from_the_result_typed_in_the_games_own_form(
    logged_in, client, club, people, game
):
    from ledger.web.scoring_views import prefilled

    players, ruleset, body = PREFILL_CASES[game]
    table = _table(club, people, game, players, ruleset=ruleset)
    response = _record(logged_in, table, body)
    assert response.status_code == 302, response.content.decode().split('id="preview"')[-1][:800]
    result = Result.objects.get(table=table)

    form, mode = prefilled(table.competition, table, result)
    assert mode == "form"  # the game's own form, not the JSON box
    assert form.is_valid() and form.record() == result.record

    client.force_login(people.users["referee"])
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    response = client.get(f"/c/prova/{table.competition.slug}/r/{result.pk}/correct/")
    shown = response.context["form"]
    assert shown.is_valid() and shown.record() == result.record
    assert 'name="mode" value="form"' in response.content.decode()


def test_a_summary_typed_as_json_is_corrected_in_the_games_own_form(
    logged_in, client, club, people
):
    table = _table(club, people, "sanmarco", 2)
    summary = {"variant": 3, "points": [[55, 66], [57, 61]]}
    body = {"mode": "json", "summary_json": json.dumps(summary)}
    assert _record(logged_in, table, body).status_code == 302
    result = Result.objects.get(table=table)
    from ledger.web.scoring_views import prefilled

    form, mode = prefilled(table.competition, table, result)
    assert mode == "form"
    assert form["p1_1"].value() == "61"


@tarocco
def test_a_refused_hand_says_it_once_at_its_field_and_puts_the_cursor_there(
    logged_in, tarocco_table
):
    url = f"/c/prova/tarocco/t/{tarocco_table.pk}/score/"
    body = {"outcome": "solo", "dealer": "3", "declarer": "1", "card_points": "140"}
    text = logged_in.post(url, body).content.decode()
    assert text.count("always total 109") == 1  # once, at the field
    field = text[text.index('class="field field-card_points') :]
    field = field[: field.index("</div>")]
    assert "always total 109" in field and 'class="rule-ref">tarocco.count.total' in field
    assert text.count("autofocus") == 1 and "autofocus" in field
    assert 'id="preview-refused"' in text
    assert Result.objects.count() == 0


def test_a_refusal_no_field_is_blamed_for_shows_once_at_the_top(logged_in, club, people):
    table = _table(club, people, "cardchess", 2)
    rows = [{"p0": 20, "p1": 10}, {"p0": 5, "p1": 12}]
    text = _record(logged_in, table, {"kind": "game", **_rows("sfida", rows, 4)}).content.decode()
    assert text.count("This game is not over yet") == 1
    top = text[text.index('id="form-errors"') :]
    assert "This game is not over yet" in top[: top.index("</div>")]


@tarocco
def test_a_hand_kept_on_a_phone_is_recorded_once_however_often_it_is_sent(logged_in, tarocco_table):
    url = f"/c/prova/tarocco/t/{tarocco_table.pk}/score/"
    body = {"outcome": "solo", "dealer": "3", "declarer": "0", "card_points": "70"}
    headers = {"HTTP_IDEMPOTENCY_KEY": "phone-key-1", "HTTP_ACCEPT": "application/json"}
    first = logged_in.post(url, {**body, "form_token": "other"}, **headers)
    again = logged_in.post(url, body, **headers)
    assert first.json()["status"] == "recorded" and again.json()["status"] == "already"
    assert first.json()["result"] == again.json()["result"]
    assert Result.objects.count() == 1

    refused = logged_in.post(
        url,
        {**body, "card_points": "140"},
        HTTP_IDEMPOTENCY_KEY="k2",
        HTTP_ACCEPT="application/json",
    )
    assert refused.status_code == 422
    assert any("109" in p for p in refused.json()["problems"])
    assert Result.objects.count() == 1


def test_the_entry_pages_service_worker_is_served_from_the_root(client):
    response = client.get("/score-sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert "caches.open" in response.content.decode()


@tarocco
def test_the_scorekeeper_is_told_when_a_result_waits_for_confirmation(logged_in, tarocco_table):
    competition = tarocco_table.competition
    competition.confirmation = Competition.Confirmation.SECOND_PERSON
    competition.save()
    url = f"/c/prova/tarocco/t/{tarocco_table.pk}/score/"
    body = {"outcome": "solo", "dealer": "3", "declarer": "0", "card_points": "70"}
    page = logged_in.post(url, {**body, "form_token": "w1"}, follow=True).content.decode()
    assert "it waits for another scorekeeper or a referee to confirm it" in page


@tarocco
def test_the_result_page_says_what_happened_and_whether_it_waits(logged_in, tarocco_table):
    competition = tarocco_table.competition
    competition.confirmation = Competition.Confirmation.SECOND_PERSON
    competition.save()
    url = f"/c/prova/tarocco/t/{tarocco_table.pk}/score/"
    body = {"outcome": "solo", "dealer": "3", "declarer": "0", "card_points": "70"}
    logged_in.post(url, {**body, "form_token": "d1"})
    result = Result.objects.get(table=tarocco_table)
    page = logged_in.get(f"/c/prova/tarocco/r/{result.pk}/").content.decode()
    assert 'id="result-detail"' in page and "Next to deal" in page
    assert 'id="waits"' in page and "another scorekeeper or a referee" in page
    seats = page[page.index('id="result-scores"') :]
    assert "<td>1</td>" in seats and "<td>0</td>" not in seats


@tarocco
def test_a_rule_broken_by_the_second_offer_is_shown_at_that_offers_field(logged_in, tarocco_table):
    # The engine names the summary's path (offers[1].taker); the form declares which of its
    # fields writes there.
    body = {
        "outcome": "offer",
        "dealer": "3",
        "offerer": "2",
        "taker": "0",
        "points": "6",
        "offerer_2": "1",
        "taker_2": "1",
        "points_2": "2",
    }
    text = _record(logged_in, tarocco_table, body).content.decode()
    field = text[text.index('class="field field-taker_2') :]
    field = field[: field.index("</div>")]
    assert "invalid" in field and 'class="rule-ref">tarocco.bargain.piglio' in field
    assert text.count("Nobody takes their own offer.") == 1
    assert Result.objects.count() == 0


@tarocco
def test_a_pair_of_one_seat_twice_is_shown_at_the_pairs_field(logged_in, tarocco_table):
    body = {
        "outcome": "pairs",
        "dealer": "3",
        "partner_a": "1",
        "partner_b": "1",
        "card_points": "60",
    }
    text = _record(logged_in, tarocco_table, body).content.decode()
    field = text[text.index('class="field field-partner_a') :]
    field = field[: field.index("</div>")]
    assert 'class="rule-ref">tarocco.summary.pair' in field
    assert Result.objects.count() == 0


def test_the_running_totals_count_the_win_the_bella_nazionale_gives_at_three_all(
    logged_in, club, people
):
    table = _table(club, people, "ergio", 2)
    body = {"corteo_winner": "tramontana", **_rows("scontro", ERGIO_SCONTRI, 6)}
    assert _record(logged_in, table, body).status_code == 302
    page = logged_in.get(f"/c/prova/{table.competition.slug}/t/{table.pk}/score/")
    totals = re.search(r'<ol class="totals">(.*?)</ol>', page.content.decode(), re.S)
    assert totals is not None
    rows = re.findall(r"<li>(.*?)</li>", totals.group(1), re.S)
    winners = [row for row in rows if 'class="won"' in row]
    assert len(rows) == 2 and len(winners) == 1, rows
    winner = Result.objects.get(table=table).verdict["outcome"]["winners"][0]
    assert table.seats.get(index=winner).player.name in winners[0]


def test_a_table_with_its_games_played_offers_its_results_not_another_form(logged_in, club, people):
    table = _table(club, people, "ergio", 2)
    table.capacity = 1
    table.save(update_fields=["capacity"])
    body = {"corteo_winner": "tramontana", **_rows("scontro", ERGIO_SCONTRI, 6)}
    assert _record(logged_in, table, body).status_code == 302
    html = logged_in.get(f"/c/prova/{table.competition.slug}/t/{table.pk}/score/").content.decode()
    result = Result.objects.get(table=table)
    assert 'id="table-full"' in html
    assert f"/r/{result.pk}/" in html
    assert 'id="record"' not in html and 'name="corteo_winner"' not in html
