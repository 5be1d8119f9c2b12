"""Pages of the notifications and calendars (mounted at the site root by ledger/urls.py)."""

from django.urls import URLPattern, URLResolver, path

from ledger.notify import calendars, views

urlpatterns: list[URLPattern | URLResolver] = [
    path("me/notifications/", views.preferences, name="notify-settings"),
    path("me/notifications/push/", views.push_subscription, name="notify-push"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="notify-unsubscribe"),
    path("c/<slug:club>/office/notifications/", views.club_log, name="notify-log"),
    path("cal/me/<str:key>.ics", calendars.person_feed, name="calendar-person"),
    path("c/<slug:club>/calendar.ics", calendars.club_feed, name="calendar-club"),
    path(
        "c/<slug:club>/<slug:slug>/calendar.ics",
        calendars.competition_feed,
        name="calendar-competition",
    ),
    path("c/<slug:club>/<slug:slug>/calendar/", calendars.competition_page, name="calendar-page"),
    path(
        "c/<slug:club>/<slug:slug>/calendar/<int:number>.ics",
        calendars.round_file,
        name="calendar-round",
    ),
]
