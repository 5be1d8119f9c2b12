"""The club's webhook page, for organisers: add an address (its signing secret is shown
once, on the answer to the form), switch one off or on, send a test delivery, and read
what was delivered where."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache

from ledger.clubs import webhooks
from ledger.clubs.addresses import Refused
from ledger.clubs.errors import LedgerError
from ledger.clubs.models import Club, Role, Webhook, WebhookDelivery

EVENT_LABELS = {
    "result.accepted": gettext_lazy("Result accepted"),
    "result.corrected": gettext_lazy("Result corrected"),
    "result.ruled": gettext_lazy("Referee's ruling"),
    "result.voided": gettext_lazy("Result voided"),
    "ping": gettext_lazy("Test delivery"),
}
SHOWN = 50


class WebhookForm(forms.Form):
    url = forms.URLField(
        label=gettext_lazy("Address"),
        max_length=400,
        assume_scheme="https",
        help_text=gettext_lazy("The https:// address of the program that receives the results."),
    )
    events = forms.MultipleChoiceField(
        label=gettext_lazy("What it hears about"),
        choices=[(e, EVENT_LABELS[e]) for e in Webhook.EVENTS],
        widget=forms.CheckboxSelectMultiple,
        required=False,
        help_text=gettext_lazy("None ticked: every event."),
    )


@never_cache
def webhook_log(request: HttpRequest, club: str) -> HttpResponse:
    owner = get_object_or_404(Club, slug=club)
    if not owner.allows(request.user, Role.ORGANISER):
        messages.error(request, _("Only the club's organisers read its webhook deliveries."))
        return redirect("home")
    action = request.POST.get("action", "test") if request.method == "POST" else ""
    form = WebhookForm(request.POST if action == "add" else None)
    made: tuple[Webhook, str] | None = None
    if action == "add" and form.is_valid():
        try:
            made = webhooks.add_webhook(
                user=request.user,
                club=owner,
                url=form.cleaned_data["url"],
                events=form.cleaned_data["events"],
            )
        except Refused as exc:
            form.add_error("url", str(exc))
        except LedgerError as exc:
            messages.error(request, exc.message)
        else:
            form = WebhookForm()
    elif action in ("test", "off", "on"):
        hook = get_object_or_404(Webhook, pk=request.POST.get("webhook") or 0, club=owner)
        try:
            if action == "test":
                webhooks.send_test(user=request.user, webhook=hook)
            else:
                webhooks.switch_webhook(user=request.user, webhook=hook, active=action == "on")
        except LedgerError as exc:
            messages.error(request, exc.message)
        else:
            if action == "test":
                messages.success(
                    request,
                    _("A test delivery to %(url)s is on its way: it appears below.")
                    % {"url": hook.url},
                )
            elif action == "on":
                messages.success(
                    request, _("%(url)s hears from the club again.") % {"url": hook.url}
                )
            else:
                messages.success(
                    request,
                    _("%(url)s is switched off: nothing more is sent to it; its log stays.")
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
        # The page's words for each event, set on the rows the template reads.
        d.label = EVENT_LABELS.get(d.event, d.event)  # type: ignore[attr-defined]  # page only
    for h in hooks:
        h.event_labels = [  # type: ignore[attr-defined]  # page only
            str(EVENT_LABELS.get(e, e)) for e in h.events
        ]
    return render(
        request,
        "web/webhooks.html",
        {
            "club": owner,
            "hooks": hooks,
            "deliveries": deliveries,
            "shown": SHOWN,
            "form": form,
            "made": made[0] if made else None,
            # Only in this answer: no later page shows the secret.
            "secret": made[1] if made else "",
        },
        status=201 if made else (400 if action == "add" else 200),
    )
