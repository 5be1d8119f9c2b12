from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SignupConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ledger.signup"
    verbose_name = _("Sign-up and fees")
