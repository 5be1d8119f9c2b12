"""Pages of a tournament night (mounted at the site root by ledger/urls.py)."""

from django.urls import URLPattern, URLResolver, path

from ledger.night import views

C = "c/<slug:club>/<slug:slug>/night/"

urlpatterns: list[URLPattern | URLResolver] = [
    path(C, views.hub, name="night-hub"),
    path(C + "settings/", views.night_settings, name="night-settings"),
    path(C + "schedule/", views.schedule_page, name="night-schedule"),
    path(C + "penalties/", views.penalty_page, name="night-penalties"),
    path(C + "checkin/", views.checkin_list, name="night-checkin"),
    path(C + "checkin/code/", views.venue_code, name="night-venue-code"),
    path(C + "checkin/<int:number>/<str:token>/", views.checkin_self, name="night-checkin-self"),
    path(C + "tablet/", views.tablet, name="night-tablet"),
    path(C + "tablet/<int:player_id>/", views.tablet_confirm, name="night-tablet-confirm"),
    path(C + "clock/", views.clock_page, name="night-clock"),
    path(C + "screen/", views.screen, name="night-screen-latest"),
    path(C + "screen/<int:number>/", views.screen, name="night-screen"),
    path(C + "clock/<int:number>.json", views.clock_json, name="night-clock-json"),
    path(C + "tables/", views.tables_page, name="night-tables"),
    path(C + "tables/<int:table>/", views.table_page, name="night-table"),
    path(C + "print/pairings/", views.print_pairings, name="night-print-pairings-latest"),
    path(C + "print/pairings/<int:number>/", views.print_pairings, name="night-print-pairings"),
    path(C + "print/tents/", views.print_tents, name="night-print-tents-latest"),
    path(C + "print/tents/<int:number>/", views.print_tents, name="night-print-tents"),
    path(C + "print/sheets/", views.print_sheets, name="night-print-sheets-latest"),
    path(C + "print/sheets/<int:number>/", views.print_sheets, name="night-print-sheets"),
    path(C + "print/standings/", views.print_standings, name="night-print-standings"),
]
