from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class HubConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ledger.hub"
    verbose_name = _("Syncing to a hub")

    def ready(self) -> None:
        from ledger.clubs.transfer.transfer import leave_out

        hub = "the hub's record of a venue's uploads: carried by the hub's database copy"
        venue = "the venue's own way to its hub (its token sealed with this installation's key)"
        for label in ("hub.ClubToken", "hub.VenueKey", "hub.Upload"):
            leave_out(label, hub)
        for label in ("hub.HubLink", "hub.SyncRun"):
            leave_out(label, venue)
