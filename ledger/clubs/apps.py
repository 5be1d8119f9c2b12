from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubsConfig(AppConfig):
    name = "ledger.clubs"
    label = "clubs"
    verbose_name = _("Clubs and results")

    def ready(self) -> None:
        from ledger.clubs import signals  # noqa: F401  (connects the receivers)
