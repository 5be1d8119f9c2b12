"""Background jobs of the digital tables. Without CELERY_BROKER_URL they run at once."""

from __future__ import annotations

from celery import shared_task


@shared_task
def play_bots(table_id: int) -> int:
    """Every bot move due at this table, until a human is to act or the game ends."""
    from ledger.play import services

    return services.play_bots(table_id)


@shared_task
def expire_tables() -> int:
    """Mark tables idle past PLAY_TABLE_TIMEOUT_MINUTES as abandoned (schedule it with beat)."""
    from ledger.play import services

    return services.expire_stale_tables()


@shared_task
def check_clocks() -> int:
    """Decide every table whose running turn is out of time (scheduled with beat)."""
    from ledger.play import services

    return services.enforce_clocks()
