from django.apps import AppConfig


class FormatsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ledger.formats"

    def ready(self) -> None:
        # A correction's, a ruling's and a void's preview read the standings as this
        # competition's format ranks them (the Swiss table, a knockout's rounds reached).
        from ledger.clubs.results import previews
        from ledger.formats import capacity
        from ledger.formats.selectors import standings_for

        previews.read_standings_with(standings_for)
        capacity.connect()  # tables take as many games as the settings say
        # A season's championship and its stages travel with the club's export and backup.
        from ledger.clubs.transfer.transfer import Kind, register

        register(
            Kind("championship", "formats.Championship", "season__club"),
            Kind("stage", "formats.Stage", "competition__club"),
            Kind("stage_source", "formats.Stage.sources", "stage__competition__club"),
            Kind("advanced", "formats.Advanced", "stage__competition__club"),
        )
