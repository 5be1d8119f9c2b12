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
