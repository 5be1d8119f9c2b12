from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "ledger.web"
    label = "web"
