"""API routes of ledger.play (mounted under /api/v1/ by ledger/urls.py)."""

from django.urls import URLPattern, URLResolver, path

from ledger.play import api

urlpatterns: list[URLPattern | URLResolver] = [
    path("play/tables/", api.TablesView.as_view(), name="play-api-tables"),
    path("play/tables/<int:pk>/", api.TableView.as_view(), name="play-api-table"),
    path("play/tables/<int:pk>/join/", api.JoinView.as_view(), name="play-api-join"),
    path("play/tables/<int:pk>/bots/", api.BotsView.as_view(), name="play-api-bots"),
    path("play/tables/<int:pk>/view/", api.SeatView.as_view(), name="play-api-view"),
    path("play/tables/<int:pk>/act/", api.ActView.as_view(), name="play-api-act"),
    path("play/tables/<int:pk>/record/", api.RecordView.as_view(), name="play-api-record"),
]
