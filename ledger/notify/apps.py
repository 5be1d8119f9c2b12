import json
from typing import Any

from django.apps import AppConfig
from django.conf import settings


class NotifyConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ledger.notify"
    verbose_name = "Notifications and calendars"

    def ready(self) -> None:
        from ledger.clubs import events
        from ledger.signup import services as signup

        events.happened.connect(heard, dispatch_uid="notify-heard")
        signup.moved_up.connect(moved_up, dispatch_uid="notify-moved-up")
        # What each player asked to hear, the club's notices and announcements travel with
        # its export; calendar keys, push addresses and the deliveries' log only with its
        # secrets (the backup's exports).
        from ledger.clubs.transfer.transfer import Kind, register

        register(
            Kind(
                "notify_preferences",
                "notify.Preferences",
                "(players)player",
                secret_fields=("calendar_key",),
            ),
            Kind("push_subscription", "notify.PushSubscription", "(players)player", secret=True),
            Kind("notice", "notify.Notice", "club"),
            Kind("delivery", "notify.Delivery", "notice__club", secret=True),
            Kind("announcement", "notify.Announcement", "club"),
        )


DELIVER = "ledger.notify.tasks.deliver"
#: Someone moved up from a sign-up's waiting list (ledger/signup sends ``moved_up``).
MOVED_UP = "signup.moved_up"


def heard(sender: Any, kind: str, **ids: Any) -> None:
    """An event, after its commit: the job sends what it owes, in the background."""
    from ledger.clubs import jobs
    from ledger.notify.hearing import READERS

    if kind not in READERS:  # nothing to tell anyone (a result recorded, a sync): no job
        return
    ids.pop("signal", None)
    # A digital table's turn is told only after a while, if nobody has moved meanwhile.
    later = settings.LEDGER_TURN_NOTICE_SECONDS if kind == "table.turn" else None
    # The ids as one JSON text: a job's arguments are plain and hashable (jobs.enqueue).
    jobs.enqueue(DELIVER, kind, json.dumps(ids, sort_keys=True), countdown=later)


def moved_up(sender: Any, signup: Any, **_kw: Any) -> None:
    """Someone has a place after waiting, after the commit: the job tells them."""
    from ledger.clubs import jobs

    jobs.enqueue(DELIVER, MOVED_UP, json.dumps({"signup": signup.pk}))
