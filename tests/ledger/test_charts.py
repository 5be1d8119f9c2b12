"""The server-drawn charts label their axis with values a reader can tell apart."""

from __future__ import annotations

from ledger.web.charts import rating_band


def test_a_flat_line_gets_five_different_tick_labels() -> None:
    band = rating_band([(2.0, 0.0, "a")])
    assert band is not None
    assert [label for _, label in band.ticks] == ["0", "1", "2", "3", "4"]


def test_a_wide_line_keeps_its_own_range() -> None:
    band = rating_band([(25.0, 8.0, "a"), (27.0, 6.0, "b")])
    assert band is not None
    labels = [label for _, label in band.ticks]
    assert labels[0] == "17" and labels[-1] == "33"
