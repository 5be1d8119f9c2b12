"""Every engine's validate and score entry points, fed arbitrary JSON: the answer is always a
verdict (or a score report) or the engine's RecordError that says what to fix, never another
exception. Inputs are both free-form JSON and real records/summaries with one part replaced by
junk, since junk deep inside a well-formed record reaches the code that a free-form object
never gets past."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.core import RandomBot, play, registry
from games.core.errors import RecordError
from games.core.verdict import ScoreReport, Verdict

GAMES = registry.available()

# Free-form JSON: scalars that engines meet in real records (small ints, card-like strings)
# as well as the awkward ones (floats, huge numbers, empty strings, nesting).
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-3, max_value=70)
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(["", "a", "0", "-1", "1.5", "tramontana", "mezzogiorno", "solo", "base"])
    | st.text(max_size=8)
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=20,
)


def _summaries() -> dict[str, list[dict[str, Any]]]:
    from tests.games.ergio import test_score_summaries as ergio
    from tests.games.ponte import test_score_summaries as ponte

    return {
        "tarocco": [
            {"outcome": "solo", "dealer": 3, "declarer": 1, "card_points": 61},
            {
                "outcome": "offer",
                "dealer": 3,
                "offers": [{"offerer": 2, "taker": 0, "points": 6}],
            },
        ],
        "ergio": [ergio.summary([(20, 10), (20, 10), (20, 10), (20, 10), (10, 20), (10, 20)])],
        "ponte": [ponte.summary("2p-base", "tttmmt")],
        "sanmarco": [
            {"variant": 3, "points": [[55, 66], [57, 61]]},
            {"variant": 2, "points": [50, 60], "passages": [{"limits": [12, 7], "bonus": [0, 5]}]},
            {"variant": 1, "points": [70, 64], "ghosts": [72, 40]},
        ],
        "cardchess": [{"sfide": [[20, 10], [5, 5], [12, 14], [30, 2], [9, 1]], "gold": [3, 1]}],
    }


def _records(slug: str) -> list[dict[str, Any]]:
    game = registry.get(slug)
    out = []
    for seed, name in enumerate(sorted(game.rulesets)[:2]):
        ruleset = game.ruleset(name)
        state = game.new_game(ruleset, seed)
        play(game, state, [RandomBot(seed * 7 + i) for i in range(ruleset.seats)])
        out.append(json.loads(json.dumps(state.to_record())))
    return out


def _paths(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(doc, dict):
        for k, v in doc.items():
            found.extend(_paths(v, (*prefix, k)))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            found.extend(_paths(v, (*prefix, i)))
    return found


def _replace(doc: Any, path: tuple[Any, ...], value: Any, delete: bool) -> Any:
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(doc, dict):
        copy = dict(doc)
        if delete and not rest:
            copy.pop(head, None)
        else:
            copy[head] = _replace(doc[head], rest, value, delete)
        return copy
    copy_list = list(doc)
    if delete and not rest:
        del copy_list[head]
    else:
        copy_list[head] = _replace(doc[head], rest, value, delete)
    return copy_list


@st.composite
def mutated(draw: st.DrawFn, seeds: list[Any]) -> Any:
    doc = draw(st.sampled_from(seeds))
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        paths = _paths(doc)
        # Bias to the leaves and to the actions at the end of long records.
        path = draw(st.sampled_from(paths[1:] or paths))
        doc = _replace(doc, path, draw(JSON_VALUES), draw(st.booleans()))
    return doc


# A fixed, CI-sized sample by default; FUZZ_EXAMPLES=5000 (random each run) digs deeper.
_EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "0"))
FUZZ = settings(
    max_examples=_EXAMPLES or 120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=not _EXAMPLES,
)


def _answer_or_record_error(call: Any, doc: Any, kind: type) -> None:
    try:
        answer = call(doc)
    except RecordError as exc:
        assert str(exc).strip(), "a RecordError must say what is wrong"
        return
    assert isinstance(answer, kind)
    json.dumps(answer.to_json())  # the answer itself must be serialisable for the API


@pytest.mark.parametrize("slug", GAMES)
@FUZZ
@given(doc=JSON_VALUES)
def test_validate_answers_free_form_json_with_a_verdict_or_a_record_error(
    slug: str, doc: Any
) -> None:
    _answer_or_record_error(registry.get(slug).validate, doc, Verdict)


@pytest.mark.parametrize("slug", GAMES)
@FUZZ
@given(doc=JSON_VALUES)
def test_score_answers_free_form_json_with_a_report_or_a_record_error(slug: str, doc: Any) -> None:
    _answer_or_record_error(registry.get(slug).score, doc, ScoreReport)


_RECORDS = {slug: _records(slug) for slug in GAMES}
_SUMMARIES = _summaries()


@pytest.mark.parametrize("slug", GAMES)
@FUZZ
@given(data=st.data())
def test_validate_survives_junk_inside_a_real_record(slug: str, data: st.DataObject) -> None:
    doc = data.draw(mutated(_RECORDS[slug]))
    _answer_or_record_error(registry.get(slug).validate, doc, Verdict)


@pytest.mark.parametrize("slug", GAMES)
@FUZZ
@given(data=st.data())
def test_score_survives_junk_inside_a_real_summary(slug: str, data: st.DataObject) -> None:
    doc = data.draw(mutated(_SUMMARIES[slug]))
    _answer_or_record_error(registry.get(slug).score, doc, ScoreReport)
