from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "ledger.api"
    label = "api"
