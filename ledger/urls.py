from typing import Any

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.plumbing import get_relative_url, set_query_parameters
from drf_spectacular.views import SpectacularSwaggerSplitView
from rest_framework.reverse import reverse

from ledger.api.schema import SchemaView
from ledger.web import (
    export_views,
    import_views,
    login,
    office_views,
    ranking_views,
    result_views,
    scoring_views,
    season_views,
    stats_views,
    token_views,
    views,
    webhook_views,
)


class EnglishSwaggerView(SpectacularSwaggerSplitView):
    """The API's docs page: Swagger's own words are English, so the schema it shows is asked
    for in English too (``?lang=it`` on the page asks for the Italian descriptions), never
    English buttons around Italian field descriptions."""

    def _get_schema_url(self, request: Any) -> str:
        schema_url = self.url or get_relative_url(reverse(self.url_name, request=request))
        return str(
            set_query_parameters(
                url=schema_url,
                lang=request.GET.get("lang") or "en",
                version=request.GET.get("version"),
            )
        )


urlpatterns = [
    # The API first: programs call it far more often than people open pages, and a path is
    # matched against the patterns in order (no pattern of the pages starts with api/).
    path("api/v1/", include("ledger.api.urls")),
    path("api/v1/", include("ledger.referee.api_urls")),
    path("api/v1/", include("ledger.play.api_urls")),
    path("api/v1/", include("ledger.formats.api_urls")),
    path("", views.home, name="home"),
    path("rules/<slug:game>/", views.game_rules, name="game-rules"),
    path("c/<slug:club>/checkpoints.json", views.checkpoint_feed, name="checkpoint-feed"),
    path("c/<slug:club>/webhooks/", webhook_views.webhook_log, name="webhook-log"),
    path("c/<slug:club>/import/", import_views.upload, name="import"),
    path("c/<slug:club>/import/<int:pk>/", import_views.job, name="import-job"),
    path(
        "c/<slug:club>/import/template/<slug:slug>.csv",
        import_views.template,
        name="import-template",
    ),
    path(
        "c/<slug:club>/import/template/<slug:slug>.xlsx",
        import_views.template,
        {"kind": "xlsx"},
        name="import-template-xlsx",
    ),
    path(
        "c/<slug:club>/import/template/<slug:slug>.ods",
        import_views.template,
        {"kind": "ods"},
        name="import-template-ods",
    ),
    path("c/<slug:club>/tokens/", token_views.tokens, name="club-tokens"),
    path("c/<slug:club>/export/", export_views.club_export, name="club-export"),
    path("c/<slug:club>/export/club.jsonl", export_views.club_export_file, name="club-export-file"),
    path(
        "c/<slug:club>/export/results.csv", export_views.club_results_csv, name="club-results-csv"
    ),
    path(
        "c/<slug:club>/tokens/<int:pk>/revoke/",
        token_views.revoke,
        name="club-tokens-revoke",
    ),
    path("c/<slug:club>/", views.club, name="club"),
    path("c/<slug:club>/seasons/<int:pk>/", season_views.season_page, name="season"),
    path("c/<slug:club>/seasons/<int:pk>/table.csv", season_views.season_file, name="season-csv"),
    *[
        path(
            f"c/<slug:club>/seasons/<int:pk>/table.{kind}",
            season_views.season_file,
            {"kind": kind},
            name=f"season-{kind}",
        )
        for kind in ("xlsx", "ods", "pdf")
    ],
    path("c/<slug:club>/seasons/new/", season_views.season_office, name="office-season-new"),
    path("c/<slug:club>/seasons/<int:pk>/rules/", season_views.season_office, name="office-season"),
    path("c/<slug:club>/office/", office_views.hub, name="office"),
    path("c/<slug:club>/members/", office_views.members, name="office-members"),
    path(
        "c/<slug:club>/competitions/new/",
        office_views.competition_new,
        name="office-competition-new",
    ),
    path("invite/<str:key>/", office_views.invitation, name="invitation"),
    path("c/<slug:club>/<slug:slug>/", views.competition, name="competition"),
    path(
        "c/<slug:club>/<slug:slug>/edit/",
        office_views.competition_edit,
        name="office-competition-edit",
    ),
    path("c/<slug:club>/<slug:slug>/enrol/", office_views.enrol, name="office-enrol"),
    path("c/<slug:club>/<slug:slug>/standings.csv", views.standings_csv, name="standings-csv"),
    path("c/<slug:club>/<slug:slug>/journal.csv", views.journal_csv, name="journal-csv"),
    path(
        "c/<slug:club>/<slug:slug>/standings.xlsx",
        views.standings_csv,
        {"kind": "xlsx"},
        name="standings-xlsx",
    ),
    path(
        "c/<slug:club>/<slug:slug>/standings.ods",
        views.standings_csv,
        {"kind": "ods"},
        name="standings-ods",
    ),
    path(
        "c/<slug:club>/<slug:slug>/journal.xlsx",
        views.journal_csv,
        {"kind": "xlsx"},
        name="journal-xlsx",
    ),
    path(
        "c/<slug:club>/<slug:slug>/journal.ods",
        views.journal_csv,
        {"kind": "ods"},
        name="journal-ods",
    ),
    path(
        "c/<slug:club>/<slug:slug>/standings/settings/",
        views.standings_settings,
        name="standings-settings",
    ),
    path(
        "c/<slug:club>/<slug:slug>/ratings/",
        views.competition_ratings,
        name="competition-ratings",
    ),
    path("c/<slug:club>/p/<int:player_id>/", views.player, name="player"),
    path(
        "c/<slug:club>/p/<int:player_id>/stats/<slug:game>/",
        stats_views.player_stats,
        name="player-stats",
    ),
    path("c/<slug:club>/<slug:slug>/score/", scoring_views.choose_table, name="choose-table"),
    path(
        "c/<slug:club>/<slug:slug>/t/<int:table>/score/",
        scoring_views.score_entry,
        name="score-entry",
    ),
    path(
        "c/<slug:club>/<slug:slug>/t/<int:table>/preview/",
        scoring_views.score_preview,
        name="score-preview",
    ),
    path("c/<slug:club>/<slug:slug>/r/<int:pk>/", result_views.result_page, name="result"),
    path(
        "c/<slug:club>/<slug:slug>/to-confirm/",
        result_views.pending_results,
        name="pending-results",
    ),
    path("c/<slug:club>/<slug:slug>/r/<int:pk>/confirm/", result_views.confirm, name="confirm"),
    path("c/<slug:club>/<slug:slug>/r/<int:pk>/reenter/", result_views.reenter, name="reenter"),
    path("c/<slug:club>/<slug:slug>/r/<int:pk>/pin/", result_views.sign_with_pin, name="sign-pin"),
    path("c/<slug:club>/p/<int:player_id>/pin/", result_views.set_pin, name="set-pin"),
    path("c/<slug:club>/<slug:slug>/r/<int:pk>/dispute/", result_views.contest, name="dispute"),
    path("c/<slug:club>/<slug:slug>/r/<int:pk>/rule/", result_views.rule, name="rule"),
    path("c/<slug:club>/<slug:slug>/r/<int:pk>/correct/", result_views.correct, name="correct"),
    path("c/<slug:club>/<slug:slug>/r/<int:pk>/void/", result_views.void, name="void"),
    path("healthz", views.healthz, name="healthz"),
    path("score-sw.js", scoring_views.service_worker, name="score-sw"),
    path("login/", login.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/login/", login.admin_login),  # failed logins are counted
    path("admin/", admin.site.urls),
    path("", include("ledger.referee.urls")),
    path("", include("ledger.play.urls")),
    path("", include("ledger.formats.urls")),
    path("", include("ledger.night.urls")),
    path("", include("ledger.notify.urls")),
    path("", include("ledger.signup.urls")),
    # The federation's rankings: public pages over the workers' rows (ledger/federation).
    path(
        "federations/<slug:slug>/rankings/",
        ranking_views.ranking_index,
        name="federation-rankings",
    ),
    path(
        "federations/<slug:slug>/rankings/<slug:game>/<slug:kind>/",
        ranking_views.ranking_page,
        name="federation-ranking",
    ),
    *[
        path(
            f"federations/<slug:slug>/rankings/<slug:game>/<slug:kind>.{ext}",
            ranking_views.ranking_file,
            {"ext": ext},
            name=f"federation-ranking-{ext}",
        )
        for ext in ("csv", "xlsx", "ods", "pdf")
    ],
    path("", include("ledger.federation.urls")),
    path("", include("ledger.hub.urls")),
    path("api/schema/", SchemaView.as_view(), name="schema"),
    path("api/docs/", EnglishSwaggerView.as_view(url_name="schema"), name="api-docs"),
]

admin.site.site_header = "Club ledger"
# Unknown addresses under /api/ answer JSON in the API's error shape.
handler404 = "ledger.handlers.not_found"
# A database lost outside a view (the session, the login) is a 503, not Django's 500 (or
# the 400 Django answers when a session cannot be saved).
handler400 = "ledger.handlers.bad_request"
handler500 = "ledger.handlers.server_error"
