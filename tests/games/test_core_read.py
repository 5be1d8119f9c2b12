"""games.core.read: the readers every game's records and summaries go through."""

from __future__ import annotations

from typing import Any

import pytest

from games.core import read
from games.core.errors import RecordError


def _refused(fn: Any, *args: Any, **kwargs: Any) -> RecordError:
    with pytest.raises(RecordError) as caught:
        fn(*args, **kwargs)
    return caught.value


def test_whole_numbers() -> None:
    assert read.whole(7, "p") == 7 and read.whole(-2, "p") == -2
    for raw in (True, 1.0, "7", None, [7]):
        error = _refused(read.whole, raw, "points[1]")
        assert error.path == "points[1]" and str(error) == "points[1]: expected a whole number"
    assert read.whole(" 12", "p", text_too=True) == 12
    assert read.whole("-3", "p", text_too=True) == -3
    assert _refused(read.whole, "12a", "p", text_too=True).path == "p"
    assert read.whole_in(3, 1, 3, "p") == 3
    for raw in (0, 4, True, "2"):
        assert "from 1 to 3" in str(_refused(read.whole_in, raw, 1, 3, "die"))


def test_lists_of_whole_numbers_name_the_bad_item() -> None:
    assert read.wholes([1, 2], 2, "p") == [1, 2]
    assert str(_refused(read.wholes, [1], 2, "p")) == "p: expected a list of 2 whole numbers"
    assert _refused(read.wholes, (1, 2), 2, "p").path == "p"
    assert _refused(read.wholes, [1, False], 2, "points").path == "points[1]"


def test_words_flags_and_sides() -> None:
    assert read.flag(False, "p") is False
    assert str(_refused(read.flag, 0, "dry")) == "dry: expected true or false"
    assert read.one_of("b", ("a", "b"), "p") == "b"
    assert str(_refused(read.one_of, "c", ("a", "b"), "mode")) == "mode: expected one of a, b"
    assert str(_refused(read.one_of, ["a"], ("a",), "q", "expected a")) == "q: expected a"
    assert read.index_in("b", ("a", "b"), "p") == 1
    assert read.side("tramontana", "p") == 0 and read.side("mezzogiorno", "p") == 1
    error = _refused(read.side, "Tramontana", "deal.first")
    assert error.path == "deal.first" and "tramontana" in str(error)


def test_seeds_objects_lists_and_required_fields() -> None:
    assert read.seed({}) is None and read.seed({"seed": None}) is None
    assert read.seed({"seed": 4}) == 4
    assert _refused(read.seed, {"seed": "4"}).path == "seed"
    assert _refused(read.seed, {"seed": True}, "deal.seed").path == "deal.seed"
    assert read.obj({"a": 1}, "p") == {"a": 1}
    assert str(_refused(read.obj, [], "deal", 'expected {"x": 1}')) == 'deal: expected {"x": 1}'
    assert read.list_of([1], "p") == [1]
    assert _refused(read.list_of, {}, "actions").path == "actions"
    assert read.required({"k": 0}, "k") == 0
    assert _refused(read.required, {"k": None}, "k").path == "k"
    assert _refused(read.required, {}, "k", "deal").path == "deal.k"
