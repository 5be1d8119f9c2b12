"""A ruleset spec is read once and kept; what is kept never lets through a spec that reads
differently (a true for a 1, a wrong seat count, an unknown option)."""

from __future__ import annotations

import pytest

from games.core import RecordError, registry


@pytest.mark.parametrize("slug", registry.available())
def test_the_same_spec_reads_as_the_same_ruleset_and_a_bad_one_is_still_refused(
    slug: str,
) -> None:
    game = registry.get(slug)
    for name in game.rulesets:
        spec = game.ruleset(name).to_json()
        first, again = game.ruleset(dict(spec)), game.ruleset(dict(spec))
        assert first == again == game.ruleset(name)
        with pytest.raises(RecordError):
            game.ruleset({**spec, "no_such_option": 1})
        with pytest.raises(RecordError):
            game.ruleset({**spec, "seats": spec.get("seats", 0) + 7})
        whole = [k for k, v in spec.items() if type(v) is int and k != "seats"]
        for key in whole:
            with pytest.raises(RecordError):  # true is not a whole number, though True == 1
                game.ruleset({**spec, key: spec[key] == 1})


def test_a_kept_ruleset_shares_nothing_with_the_spec_it_was_read_from() -> None:
    game = registry.get("sanmarco")
    import json
    from pathlib import Path

    board = json.loads(Path("games/sanmarco/boards/house.json").read_text(encoding="utf-8"))
    board["name"] = "circolo"
    spec = {"name": "base4", "board": board}
    first = game.ruleset(spec)
    board["name"] = "changed afterwards"  # the caller edits its own dict
    again = game.ruleset({"name": "base4", "board": {**board, "name": "circolo"}})
    assert again is first and first.board["name"] == "circolo"
