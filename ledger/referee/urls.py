"""Pages of ledger.referee (mounted at the site root by ledger/urls.py)."""

from django.urls import URLPattern, URLResolver, path

from ledger.referee import views

app_name = "referee"

urlpatterns: list[URLPattern | URLResolver] = [
    path("referee/", views.desk, name="desk"),
    path("referee/open/", views.open_case, name="open"),
    path("referee/case/<int:pk>/", views.case_page, name="case"),
    path("referee/case/<int:pk>/record/", views.set_record, name="record"),
    path("referee/case/<int:pk>/deal/", views.deal, name="deal"),
    path("referee/case/<int:pk>/cards/", views.deal_cards, name="cards"),
    path("referee/case/<int:pk>/step/", views.step, name="step"),
    path("referee/case/<int:pk>/drawn/", views.drawn, name="drawn"),
    path("referee/case/<int:pk>/chance/", views.chance, name="chance"),
    path("referee/case/<int:pk>/undo/", views.undo, name="undo"),
    path("referee/case/<int:pk>/goto/", views.go_to, name="goto"),
    path("referee/case/<int:pk>/put-back/", views.put_back, name="put_back"),
    path("referee/case/<int:pk>/link/", views.link, name="link"),
    path("referee/case/<int:pk>/rule/", views.rule, name="rule"),
    path("referee/window/<int:club>/", views.contest_window, name="window"),
    path("referee/artificial/<int:competition>/", views.artificial, name="artificial"),
]
