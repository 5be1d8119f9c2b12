"""What keeps the suite's answers the same on a loaded machine: no wall-clock deadline on a
property test, and no server told a port that its test does not hold."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import HealthCheck, settings

TESTS = Path(__file__).resolve().parents[1]


def test_property_tests_have_no_wall_clock_deadline() -> None:
    assert settings.default.deadline is None
    assert HealthCheck.too_slow in settings.default.suppress_health_check


def test_no_test_picks_a_free_port_and_lets_it_go() -> None:
    """A port bound, read and closed, then named to a server, can be taken in between by
    another program (a test run beside this one): a server gets a socket its test holds
    (tests/listening.py)."""
    picked = re.compile(r"""bind\(\(\s*["']127\.0\.0\.1["'],\s*0\s*\)\)""")
    found = [
        str(path.relative_to(TESTS))
        for path in TESTS.rglob("*.py")
        if path.name != "listening.py" and picked.search(path.read_text())
    ]
    assert found == []
