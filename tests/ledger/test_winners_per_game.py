"""The standings record the engine's winners for every game, from a summary and from a
full record alike: the Outcome decides, never the highest score."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.core import RandomBot, play, registry
from ledger.clubs.errors import Invalid
from ledger.clubs.models import Competition, Standing, Table
from ledger.clubs.results import services

#: A ruleset whose games the random bots finish quickly, for a game whose default is slow;
#: every other installed game plays its default.
RULESETS = {
    "tarocco": "dummett-mcleod",
    "ergio": "base",
    "ponte": "2p-base",
    "sanmarco": "variant3",
    "cardchess": "4p",
}


def _table(people: Any, game: str, ruleset: Any, seats: int, label: str = "T1") -> Table:
    competition, _ = Competition.objects.get_or_create(
        club=people.club,
        slug=f"c-{game}-{json.dumps(ruleset, sort_keys=True)}"[:50].replace('"', ""),
        defaults={"name": f"Coppa {game}", "game": game, "format": "league", "ruleset": ruleset},
    )
    return services.create_table(
        user=people.users["organiser"],
        competition=competition,
        label=label,
        players=people.extra[:seats],
    )


def _records(people: Any, table: Table) -> list[tuple[int, int, int]]:
    """(wins, draws, losses) per seat, in seat order."""
    out = []
    for player in people.extra[: len(table.seats.all())]:
        row = Standing.objects.get(competition=table.competition, player=player)
        out.append((row.wins, row.draws, row.losses))
    return out


def _expected(winners: tuple[int, ...], seats: int) -> list[tuple[int, int, int]]:
    if not winners or len(winners) == seats:
        return [(0, 1, 0)] * seats
    return [(1, 0, 0) if s in winners else (0, 0, 1) for s in range(seats)]


def _finished(slug: str, seed: int) -> Any:
    game = registry.get(slug)
    ruleset = game.ruleset(RULESETS.get(slug))
    for attempt in range(seed, seed + 200):
        state = game.new_game(ruleset, attempt)
        play(game, state, [RandomBot(attempt + i) for i in range(ruleset.seats)])
        if state.outcome().winners:  # a game somebody won says more than a draw
            return state
    raise AssertionError(f"{slug}: no decided game")


@pytest.mark.parametrize("slug", registry.installed())
@pytest.mark.parametrize("source", ["summary", "full_record"])
def test_the_standings_record_the_engines_winners(people: Any, slug: str, source: str) -> None:
    state = _finished(slug, 7)
    outcome = state.outcome()
    seats = len(outcome.scores)
    name = RULESETS.get(slug, registry.get(slug).default_ruleset)
    table = _table(people, slug, {"name": name}, seats)
    body = state.summary() if source == "summary" else state.to_record()
    result, _ = services.record_result(
        user=people.users["scorekeeper"],
        table=table,
        source=source,
        record=json.loads(json.dumps(body)),
    )
    assert result.verdict["outcome"]["winners"] == list(outcome.winners)
    assert _records(people, table) == _expected(outcome.winners, seats)


def test_a_four_player_cardchess_game_won_on_the_deciding_sfida_is_a_win(people: Any) -> None:
    # Eight gold cards shared 2-2-2-2, then the deciding sfida goes to seat 2: gold stays
    # level, yet seat 2 has won the game (cardchess.game.end).
    sfide = [[10, 0, 0, 0], [0, 10, 0, 0], [0, 0, 10, 0], [0, 0, 0, 10]] * 2
    summary = {"players": 4, "sfide": [*sfide, [5, 5, 12, 0]]}
    table = _table(people, "cardchess", {"name": "4p"}, 4)
    result, _ = services.record_result(
        user=people.users["scorekeeper"], table=table, source="summary", record=summary
    )
    assert [str(s) for s in result.scores] == ["2", "2", "2", "2"]
    assert result.verdict["outcome"]["termination"] == "deciding_sfida"
    assert _records(people, table) == [(0, 0, 1), (0, 0, 1), (1, 0, 0), (0, 0, 1)]


def test_a_san_marco_variant_3_tie_break_is_a_win_for_the_stronger_weaker_colour(
    people: Any,
) -> None:
    # Finals 52 and 52; the second player's weaker colour (52) beats the first's (50).
    table = _table(people, "sanmarco", {"name": "variant3"}, 2)
    result, _ = services.record_result(
        user=people.users["scorekeeper"],
        table=table,
        source="summary",
        record={"variant": 3, "points": [[50, 54], [52, 52]]},
    )
    assert [str(s) for s in result.scores] == ["52", "52"]
    assert result.verdict["outcome"]["places"] == [2, 1]
    assert _records(people, table) == [(0, 0, 1), (1, 0, 0)]


def test_a_variant_3_competition_refuses_a_variant_1_summary(people: Any) -> None:
    table = _table(people, "sanmarco", {"name": "variant3"}, 2)
    with pytest.raises(Invalid) as caught:
        services.record_result(
            user=people.users["scorekeeper"],
            table=table,
            source="summary",
            record={"variant": 1, "points": [60, 50], "ghosts": [40, 30]},
        )
    assert "variant" in str(caught.value.fields).lower()


def test_a_summary_naming_another_ruleset_than_the_competitions_is_refused(people: Any) -> None:
    table = _table(people, "cardchess", {"name": "4p"}, 4)
    with pytest.raises(Invalid):
        services.record_result(
            user=people.users["scorekeeper"],
            table=table,
            source="summary",
            record={"ruleset": "2p", "players": 2, "sfide": [[10, 0]] * 4},
        )


def test_a_nonsense_ruleset_option_is_refused_for_every_game() -> None:
    from games.core import RecordError

    for slug in registry.available():
        game = registry.get(slug)
        with pytest.raises(RecordError):
            game.score({}, {"name": game.default_ruleset, "no_such_option": 1})


def test_results_written_before_the_outcome_get_it_and_their_wins_are_counted_again(
    people: Any,
) -> None:
    import importlib

    from django.apps import apps

    from ledger.clubs.models import Result

    migration = importlib.import_module(
        "ledger.clubs.migrations.0018_results_keep_the_engines_outcome"
    )
    sfide = [[10, 0, 0, 0], [0, 10, 0, 0], [0, 0, 10, 0], [0, 0, 0, 10]] * 2
    summary = {"players": 4, "sfide": [*sfide, [5, 5, 12, 0]]}
    table = _table(people, "cardchess", {"name": "4p"}, 4)
    result, _ = services.record_result(
        user=people.users["scorekeeper"], table=table, source="summary", record=summary
    )
    # As written before: the game's facts only, and the draw the highest score gave.
    old = {k: v for k, v in result.verdict.items() if k != "outcome"}
    Result.objects.filter(pk=result.pk).update(verdict=old)
    Standing.objects.filter(competition=table.competition).update(wins=0, draws=1, losses=0)
    migration.keep_outcomes(apps, None)
    result.refresh_from_db()
    assert result.verdict["outcome"]["winners"] == [2]
    assert _records(people, table) == [(0, 0, 1), (0, 0, 1), (1, 0, 0), (0, 0, 1)]
