"""A date on an English page reads day first, as the forms ask for it (dd/mm/yyyy)."""

import datetime

from django.utils import formats, translation


def test_an_english_short_date_puts_the_day_before_the_month() -> None:
    day = datetime.date(2026, 12, 31)
    moment = datetime.datetime(2026, 3, 5, 21, 5)
    with translation.override("en"):
        assert formats.date_format(day, "SHORT_DATE_FORMAT") == "31/12/2026"
        assert formats.date_format(moment, "SHORT_DATETIME_FORMAT") == "05/03/2026 21:05"
    with translation.override("it"):
        assert formats.date_format(day, "SHORT_DATE_FORMAT") == "31/12/2026"


def test_a_date_typed_on_an_english_page_is_read_day_first() -> None:
    from django import forms

    with translation.override("en"):
        assert forms.DateField().clean("05/03/2026") == datetime.date(2026, 3, 5)
        assert forms.DateField().clean("2026-03-05") == datetime.date(2026, 3, 5)
