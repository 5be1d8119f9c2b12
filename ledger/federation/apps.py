from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FederationConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ledger.federation"
    verbose_name = _("Federations")

    def ready(self) -> None:
        # A sanctioned competition's enrolment asks the federation for each player's card:
        # the formats learn of it through their hook, never by importing this app.
        from ledger.federation import cards
        from ledger.formats import services

        services.add_entry_check(cards.check_entry)
        # The federation's tables are its own, not one club's: the backup's database copy
        # carries them, a club's export does not (docs/export.md).
        from ledger.clubs.transfer.transfer import leave_out

        why = "the federation's, not one club's: carried by the backup's database copy"
        for model in self.get_models(include_auto_created=True):
            leave_out(model._meta.label, why)
        for label in (
            "RankedResult",
            "RankingRow",
            "RankingMonth",
            "RankingState",
            "PersonName",
            "NameWord",
        ):
            leave_out(f"federation.{label}", "rebuilt from the journal")
        # The rankings follow what happens in the member clubs (after each commit).
        from ledger.clubs import events
        from ledger.federation import listening

        events.happened.connect(listening.heard, dispatch_uid="federation-rankings")
        # The names' keys the "did you mean" asks the database for follow each player's save.
        from django.db.models.signals import post_save

        from ledger.clubs.models import Player
        from ledger.federation import name_index

        post_save.connect(
            name_index.on_player_saved, sender=Player, dispatch_uid="federation-name-index"
        )
