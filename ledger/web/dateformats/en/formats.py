"""English as the clubs read it: a date is day/month/year, as the forms ask for it
("dd/mm/yyyy") and as everywhere in Europe, never the American month first (12/31/2026),
whether shown or typed. The rest stays Django's English."""

from django.conf.locale.en.formats import *  # type: ignore[import-untyped]  # noqa: F403

SHORT_DATE_FORMAT = "d/m/Y"
SHORT_DATETIME_FORMAT = "d/m/Y H:i"
DATE_INPUT_FORMATS = ["%Y-%m-%d", "%d/%m/%Y", "%d/%m/%y"]
DATETIME_INPUT_FORMATS = [
    "%Y-%m-%d %H:%M:%S",
    "%Y-%m-%d %H:%M:%S.%f",
    "%Y-%m-%d %H:%M",
    "%d/%m/%Y %H:%M:%S",
    "%d/%m/%Y %H:%M",
    "%d/%m/%y %H:%M",
]
