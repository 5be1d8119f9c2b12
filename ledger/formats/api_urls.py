"""API routes of ledger.formats (mounted under /api/v1/ by ledger/urls.py)."""

from django.urls import URLPattern, URLResolver, path

from ledger.formats import api

C = "formats/competitions/<int:pk>/"

urlpatterns: list[URLPattern | URLResolver] = [
    path(C + "settings/", api.SettingsView.as_view(), name="formats-api-settings"),
    path(C + "entrants/", api.EntrantsView.as_view(), name="formats-api-entrants"),
    path(
        C + "entrants/<int:player>/withdraw/",
        api.WithdrawView.as_view(),
        name="formats-api-withdraw",
    ),
    path(C + "absences/", api.AbsenceView.as_view(), name="formats-api-absences"),
    path(C + "forbidden-pairs/", api.ForbiddenView.as_view(), name="formats-api-forbidden"),
    path(C + "teams/", api.TeamsView.as_view(), name="formats-api-teams"),
    path(C + "rounds/generate/", api.GenerateView.as_view(), name="formats-api-generate"),
    path(C + "rounds/<int:number>/", api.RoundView.as_view(), name="formats-api-round"),
    path(C + "rounds/<int:number>/publish/", api.PublishView.as_view(), name="formats-api-publish"),
    path(C + "rounds/extend/", api.ExtendView.as_view(), name="formats-api-extend"),
    path(C + "standings/", api.StandingsView.as_view(), name="formats-api-standings"),
    path(C + "tiebreaks/", api.TiebreaksView.as_view(), name="formats-api-tiebreaks"),
    path(C + "trf/", api.TrfView.as_view(), name="formats-api-trf"),
    path(C + "bracket/", api.BracketView.as_view(), name="formats-api-bracket"),
    path(
        C + "bracket/<int:match>/winner/",
        api.MatchWinnerView.as_view(),
        name="formats-api-match-winner",
    ),
    path(C + "tables/<int:table>/forfeit/", api.ForfeitView.as_view(), name="formats-api-forfeit"),
]
