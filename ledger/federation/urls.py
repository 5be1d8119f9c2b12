from django.urls import path

from ledger.federation import views

urlpatterns = [
    path("federations/", views.federations, name="federations"),
    path("federations/<slug:slug>/", views.federation, name="federation"),
    path("federations/<slug:slug>/cards/<int:pk>/", views.season, name="federation-season"),
]
