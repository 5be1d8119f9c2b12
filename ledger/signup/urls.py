"""Pages of an event's sign-up and fees (mounted at the site root by ledger/urls.py)."""

from django.urls import URLPattern, URLResolver, path

from ledger.signup import views

C = "c/<slug:club>/<slug:slug>/signup/"

urlpatterns: list[URLPattern | URLResolver] = [
    path(C, views.signup_page, name="signup"),
    path(C + "manage/", views.manage, name="signup-manage"),
    path(C + "<int:pk>/payment/", views.payment, name="signup-payment"),
    path(C + "fees/", views.report, name="signup-report"),
    path(C + "fees.<str:kind>", views.report, name="signup-report-file"),
    path("c/<slug:club>/season/<int:season>/fees/", views.season_report, name="season-fees"),
    path(
        "c/<slug:club>/season/<int:season>/fees.<str:kind>",
        views.season_report,
        name="season-fees-file",
    ),
]
