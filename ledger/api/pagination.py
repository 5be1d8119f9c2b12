"""Pagination for every list of the API: ?limit= and ?offset=, 50 rows unless asked."""

from __future__ import annotations

from rest_framework.pagination import LimitOffsetPagination


class Pages(LimitOffsetPagination):
    # A larger ?limit= is cut to this (DRF's rule). Without a ceiling, a limit of 25 digits
    # reached the database, which SQLite refuses with an error instead of rows.
    max_limit = 1000
