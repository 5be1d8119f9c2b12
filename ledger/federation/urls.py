from django.urls import path

from ledger.federation import people_views, views

urlpatterns = [
    path("federations/", views.federations, name="federations"),
    path("federations/<slug:slug>/", views.federation, name="federation"),
    path("federations/<slug:slug>/cards/<int:pk>/", views.season, name="federation-season"),
    path("federations/<slug:slug>/people/", people_views.people_page, name="federation-people"),
    path(
        "federations/<slug:slug>/people/<int:player_id>/",
        people_views.person_page,
        name="federation-person",
    ),
]
