"""Pages of ledger.formats (mounted at the site root by ledger/urls.py)."""

from django.urls import URLPattern, URLResolver, path

from ledger.formats import views

C = "c/<slug:club>/<slug:slug>/"

urlpatterns: list[URLPattern | URLResolver] = [
    path(C + "rounds/manage/", views.manage, name="formats-manage"),
    path(C + "rounds/", views.round_page, name="formats-round-latest"),
    path(C + "rounds/<int:number>/", views.round_page, name="formats-round"),
    path(C + "tiebreaks/", views.tiebreaks_page, name="formats-tiebreaks"),
    path(C + "export.trf", views.trf_file, name="formats-trf"),
    path(C + "bracket/", views.bracket_page, name="formats-bracket"),
    path(C + "print/", views.printables_page, name="formats-printables"),
    path(C + "stage/", views.stage_page, name="formats-stage"),
    path(C + "t/<int:table>/decide/", views.decide_page, name="formats-decide"),
]
