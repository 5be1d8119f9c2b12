from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.utils import translation


@pytest.fixture(autouse=True)
def _in_english() -> Iterator[None]:
    """The refusals are read in English here; the pages these tests read switch the
    thread's language, and the next test finds the one it started with."""
    language = translation.get_language()
    with translation.override("en"):
        yield
    translation.activate(language)
