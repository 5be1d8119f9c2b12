from django.apps import AppConfig


class NightConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ledger.night"
    verbose_name = "Tournament night"

    def ready(self) -> None:
        from ledger.clubs.results.services import result_requested
        from ledger.formats import blockers
        from ledger.night.services import checkin_blockers, refuse_hands_after_time

        result_requested.connect(refuse_hands_after_time, dispatch_uid="night-time-up")
        # The formats' pages list the players not checked in among what holds a round back.
        blockers.add(checkin_blockers)
        # The club's venues and the rounds' schedule travel with its export and backup.
        from ledger.clubs.transfer.transfer import Kind, register

        register(
            Kind("venue", "night.Venue", "club"),
            Kind("scheduled_round", "night.ScheduledRound", "competition__club"),
        )
