"""The club's webhook page: what was delivered where, and a test delivery, for organisers."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ledger.clubs import webhooks
from ledger.clubs.errors import LedgerError
from ledger.clubs.models import Club, Role, Webhook, WebhookDelivery

EVENT_LABELS = {
    "result.accepted": gettext_lazy("Result accepted"),
    "result.corrected": gettext_lazy("Result corrected"),
    "result.ruled": gettext_lazy("Referee's ruling"),
    "ping": gettext_lazy("Test delivery"),
}
SHOWN = 50


def webhook_log(request: HttpRequest, club: str) -> HttpResponse:
    owner = get_object_or_404(Club, slug=club)
    if not owner.allows(request.user, Role.ORGANISER):
        messages.error(request, _("Only the club's organisers read its webhook deliveries."))
        return redirect("home")
    if request.method == "POST":
        hook = get_object_or_404(Webhook, pk=request.POST.get("webhook") or 0, club=owner)
        try:
            webhooks.send_test(user=request.user, webhook=hook)
        except LedgerError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(
                request,
                _("A test delivery to %(url)s is on its way: it appears below.")
                % {"url": hook.url},
            )
        return redirect("webhook-log", club)
    hooks = list(owner.webhooks.order_by("pk"))
    deliveries = list(
        WebhookDelivery.objects.filter(webhook__club=owner)
        .select_related("webhook")
        .order_by("-created_at", "-pk")[:SHOWN]
    )
    for d in deliveries:
        d.label = EVENT_LABELS.get(d.event, d.event)  # type: ignore[attr-defined]
    for h in hooks:
        h.event_labels = [str(EVENT_LABELS.get(e, e)) for e in h.events]  # type: ignore[attr-defined]
    return render(
        request,
        "web/webhooks.html",
        {"club": owner, "hooks": hooks, "deliveries": deliveries, "shown": SHOWN},
    )
