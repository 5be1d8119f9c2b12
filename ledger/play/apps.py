from collections.abc import Sequence
from typing import Any

from django.apps import AppConfig
from django.core.checks import CheckMessage


class PlayConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ledger.play"

    def ready(self) -> None:
        from django.core import checks

        from ledger.clubs.transfer import transfer
        from ledger.play import sealing

        checks.register(live_layer_check)
        # A running game brought in from an export made before its secrets were sealed is
        # written sealed (ledger/play/sealing.py).
        transfer.before_writing("game_table", sealing.seal_imported_table)
        transfer.before_writing("move", sealing.seal_imported_move)
        # A table's takeback requests and their answers travel with the club's export.
        transfer.register(transfer.Kind("takeback", "play.Takeback", "table__club"))


def live_layer_check(
    app_configs: Sequence[AppConfig] | None = None,
    databases: Sequence[str] | None = None,
    **kwargs: Any,
) -> list[CheckMessage]:
    """A Celery worker plays the bots' moves when a broker is set: without a shared channel
    layer its notices would never reach the web process's sockets. Several web processes
    (a shared channel layer) count who has a table open in the site's cache: without a
    shared cache each would count its own sockets only, and the seats' presence would be
    wrong."""
    from django.conf import settings
    from django.core import checks

    found: list[CheckMessage] = []
    if getattr(settings, "CELERY_BROKER_URL", "") and not getattr(
        settings, "CHANNEL_REDIS_URL", ""
    ):
        found.append(
            checks.Warning(
                "CELERY_BROKER_URL is set but CHANNEL_REDIS_URL is not: the worker's bot moves "
                "will not reach the live tables until the next person's move.",
                hint="Set CHANNEL_REDIS_URL for the web processes and the worker "
                "(docs/operations.md).",
                id="play.W001",
            )
        )
    if getattr(settings, "CHANNEL_REDIS_URL", "") and not getattr(settings, "CACHE_URL", ""):
        found.append(
            checks.Warning(
                "CHANNEL_REDIS_URL is set but CACHE_URL is not: each web process counts only "
                "its own sockets, so a seat may show its person away (and be sent a "
                "notification) while their page is open through another process.",
                hint="Set CACHE_URL for every web process (docs/operations.md).",
                id="play.W002",
            )
        )
    return found
