from django.urls import path

from ledger.hub import views

urlpatterns = [
    path("hub/sync/<slug:club>/head/", views.head, name="hub-head"),
    path("hub/sync/<slug:club>/upload/", views.upload, name="hub-upload"),
    path("c/<slug:club>/office/hub/", views.venue, name="office-hub-sync"),
    path("c/<slug:club>/office/hub/runs/<int:pk>/", views.venue_run, name="office-hub-run"),
]
