"""Pages of ledger.play (mounted at the site root by ledger/urls.py)."""

from django.urls import URLPattern, URLResolver, path

from ledger.play import views

urlpatterns: list[URLPattern | URLResolver] = [
    path("play/", views.lobby, name="play-home"),
    path("play/new/", views.create, name="play-create"),
    path("play/<int:pk>/", views.table_page, name="play-table"),
    path("play/<int:pk>/board/", views.board, name="play-board"),
    path("play/<int:pk>/act/", views.act, name="play-act"),
    path("play/<int:pk>/bots/", views.bots, name="play-bots"),
    path("play/<int:pk>/again/", views.again, name="play-again"),
    path("play/<int:pk>/takeback/", views.takeback, name="play-takeback"),
    path("play/<int:pk>/hint/", views.hint, name="play-hint"),
    path("play/<int:pk>/join/<str:invite>/", views.join, name="play-join"),
    path("play/<int:pk>/replay/", views.replay_page, name="play-replay"),
    path("play/<int:pk>/record.json", views.record, name="play-record"),
    path("play/<int:pk>/verify_deal.py", views.verify_deal, name="play-verify-deal"),
]
