"""API routes of ledger.referee (mounted under /api/v1/ by ledger/urls.py)."""

from django.urls import URLPattern, URLResolver, path

from ledger.referee import api

urlpatterns: list[URLPattern | URLResolver] = [
    path("referee/check", api.CheckView.as_view(), name="referee-check"),
    path("referee/rulings", api.RulingView.as_view(), name="referee-rulings"),
]
