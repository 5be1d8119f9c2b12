from rest_framework.routers import DefaultRouter

from ledger.api import views

router = DefaultRouter()
# Results first: a path is matched against the patterns in order, and a result's POST is by
# far the most frequent call (before the clubs', players', competitions' and tables' routes,
# 20 patterns were tried for it; now 2).
router.register("results", views.ResultViewSet, basename="result")
router.register("clubs", views.ClubViewSet, basename="club")
router.register("players", views.PlayerViewSet, basename="player")
router.register("competitions", views.CompetitionViewSet, basename="competition")
router.register("tables", views.TableViewSet, basename="table")
router.register("ratings", views.RatingViewSet, basename="rating")
router.register("imports", views.ImportViewSet, basename="import")
router.register("entries", views.EntryViewSet, basename="entry")

urlpatterns = router.urls
