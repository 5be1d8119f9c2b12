from rest_framework.routers import DefaultRouter

from ledger.api import views

router = DefaultRouter()
router.register("clubs", views.ClubViewSet, basename="club")
router.register("players", views.PlayerViewSet, basename="player")
router.register("competitions", views.CompetitionViewSet, basename="competition")
router.register("tables", views.TableViewSet, basename="table")
router.register("results", views.ResultViewSet, basename="result")
router.register("ratings", views.RatingViewSet, basename="rating")
router.register("imports", views.ImportViewSet, basename="import")
router.register("entries", views.EntryViewSet, basename="entry")

urlpatterns = router.urls
