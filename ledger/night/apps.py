from django.apps import AppConfig


class NightConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ledger.night"
    verbose_name = "Tournament night"
