"""What an engine cannot read (a summary or a record typed wrong) is said to a club member
in words, in Italian and in English: the place by the words the game declares, an action by
its number and its player, a seat's value by its player's name, and no field path, list,
seat counted from 0, slug or Python value (games/core/explain.py)."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

import pytest

from games.core import RandomBot, RecordError, play, registry
from tests.games.test_messages_in_words import faults

GAMES = registry.available()
NAMES = ["Anna Rizzo", "Bruno Greco", "Carla Conti", "Dario Neri", "Elena Gallo", "Fabio Villa"]


def _wrong(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Each value of a summary or a record replaced as a typist gets it wrong."""
    if isinstance(value, dict):
        for key, inner in value.items():
            for bad in ("x", [1], None, {"a": 1}, True):
                yield (*path, key), bad
            yield from _wrong(inner, (*path, key))
        yield (*path, "zzz"), 1
    elif isinstance(value, list):
        for i, inner in enumerate(value[:3]):
            for bad in ("x", -1, 99, {"seat": 0}):
                yield (*path, i), bad
            yield from _wrong(inner, (*path, i))
    elif type(value) is int:
        for bad in (-1, 99, 1.5, "3"):
            yield path, bad


def _put(value: Any, path: tuple[Any, ...], bad: Any) -> Any:
    out = copy.deepcopy(value)
    target = out
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = bad
    return out


def _read_errors(slug: str) -> Iterator[tuple[Any, bool, RecordError]]:
    """Every RecordError the game gives for its records and summaries typed wrong."""
    game = registry.get(slug)
    for name in game.rulesets:
        ruleset = game.ruleset(name)
        state = game.new_game(ruleset, 1)
        play(game, state, [RandomBot(i) for i in range(ruleset.seats)])
        record = json.loads(json.dumps(state.to_record()))
        record["actions"] = record["actions"][:6]
        for path, bad in _wrong(record):
            changed = _put(record, path, bad)
            try:
                game.validate(changed)
            except RecordError as exc:
                yield changed, True, exc
        try:
            summary = json.loads(json.dumps(state.summary()))
        except NotImplementedError:
            continue
        for path, bad in _wrong(summary):
            changed = _put(summary, path, bad)
            try:
                game.score(changed, name)
            except RecordError as exc:
                yield changed, False, exc


@pytest.mark.parametrize("slug", GAMES)
def test_every_read_error_of_a_game_reads_as_words_in_both_languages(slug):
    game = registry.get(slug)
    bad: dict[str, list[str]] = {}
    seen = 0
    for data, is_record, exc in _read_errors(slug):
        seen += 1
        said = game.read_error(exc, data, NAMES, record=is_record)
        found = faults(said.it, said.en)
        if found:
            bad.setdefault(f"{exc.path}: {exc.message}", found)
    assert seen > 20, "the net must catch errors to check"
    assert not bad, dict(list(bad.items())[:8])


def test_a_seat_counted_from_0_is_said_from_1_and_a_per_seat_value_by_its_player():
    tarocco = registry.get("tarocco")
    with pytest.raises(RecordError) as caught:
        tarocco.validate({"deal": {"dealer": 7, "deck": []}, "actions": []})
    said = tarocco.read_error(caught.value, None, NAMES, record=True)
    assert said.en == "The deal › The dealer: must be one of the table's seats, 1 to 4."
    assert said.it == (
        "La distribuzione › Il mazziere: dev'essere uno dei posti del tavolo, da 1 a 4."
    )
    written = {"outcome": "solo", "dealer": 3, "declarer": 1, "card_points": 61}
    with pytest.raises(RecordError) as caught:
        tarocco.score({**written, "claimed_scores": [1, "x", 3, 4]})
    said = tarocco.read_error(caught.value, written, NAMES)
    assert "Bruno Greco" in said.en and "Bruno Greco" in said.it
    assert "must be a whole number" in said.en and "dev'essere un numero intero" in said.it


def test_an_action_is_said_by_its_number_from_1_and_its_player():
    tarocco = registry.get("tarocco")
    state = tarocco.new_game(tarocco.ruleset(None), 2)
    record = json.loads(json.dumps(state.to_record()))
    record["actions"] = [{"seat": 0, "bid": "tengo"}, {"seat": 1, "bid": "forse"}]
    with pytest.raises(RecordError) as caught:
        tarocco.validate(record)
    said = tarocco.read_error(caught.value, record, NAMES, record=True)
    assert said.en.startswith("Action 2 (by Bruno Greco)"), said.en
    assert said.it.startswith("Azione 2 (di Bruno Greco)"), said.it


def test_an_unknown_ruleset_is_answered_with_the_rules_names_in_words():
    game = registry.get("tarocco")
    with pytest.raises(RecordError) as caught:
        game.ruleset("calatafimi-2")
    said = game.read_error(caught.value)
    for label in game.ruleset_labels.values():
        assert f"“{label.en}”" in said.en and f"“{label.it}”" in said.it
    assert "dummett-mcleod" not in said.en and "dummett-mcleod" not in said.it


@pytest.mark.parametrize("slug", GAMES)
def test_an_action_a_digital_table_cannot_read_is_said_in_words(slug):
    game = registry.get(slug)
    for action in ({"dance": True}, {"seat": 0}, {"play": 12, "resolve": "x", "bid": 3}):
        with pytest.raises(RecordError) as caught:
            game.decode_step({**action, "seat": 0}, "action")
        said = game.read_error(caught.value, action, NAMES, action=True)
        assert not faults(said.it, said.en), (action, said)
        assert said.en[:1].isupper() and said.it[:1].isupper()
