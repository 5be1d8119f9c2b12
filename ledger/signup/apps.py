from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SignupConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ledger.signup"
    verbose_name = _("Sign-up and fees")

    def ready(self) -> None:
        # Sign-ups, the waiting list, fees and payments travel with the club's export and
        # backup, amounts exact to the cent.
        from ledger.clubs.transfer.transfer import Kind, register

        register(
            Kind("registration", "signup.Registration", "competition__club"),
            Kind("signup", "signup.SignUp", "registration__competition__club"),
            Kind("payment", "signup.Payment", "signup__registration__competition__club"),
            Kind("signup_log", "signup.LogLine", "registration__competition__club"),
        )
