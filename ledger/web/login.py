"""The login page, with failed attempts limited per account and per address
(django-ratelimit, counted in the shared "limits" cache, so every web process sees the
same counts).

- An account that failed ``FAILURES_PER_MINUTE`` times in the window (from anywhere) waits:
  guessing one person's password is capped whatever the addresses.
- An address that failed that often stops being believed for accounts that have failed
  too; an account that has not failed at all may still log in from it with the right
  password. A whole club behind one router shares an address: the one person typing a
  wrong password again and again waits, the room does not. Someone guessing from a
  limited address gets one try per account it has not tried yet, after which that
  account is refused from there unchecked.
- Only failures count, so members logging in at the start of a league night are never
  slowed down. The address is the client's as ``ledger.web.addresses`` reads it:
  X-Forwarded-For only from the trusted proxies."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_protect
from django_ratelimit.core import get_usage

# Failed logins allowed per account, and per client address, per minute.
FAILURES_PER_MINUTE = 10
RATE = f"{FAILURES_PER_MINUTE}/m"


def _account(group: str, request: HttpRequest) -> str:
    return str(request.POST.get("username", "")).strip().lower()[:150]


GROUPS: tuple[tuple[str, str | Callable[[str, HttpRequest], str]], ...] = (
    ("login-failures", "ip"),
    ("login-failures-account", _account),
)


def _failures(request: HttpRequest, *, count: bool) -> tuple[int, int]:
    """This request's address's failures and its account's in the current window
    (counting this one when ``count``)."""
    found = []
    for group, key in GROUPS:
        usage = get_usage(request, group=group, key=key, rate=RATE, increment=count)
        found.append(int(usage["count"]) if usage else 0)
    return found[0], found[1]


def _before(request: HttpRequest) -> tuple[bool, bool]:
    """Whether this attempt waits without its password being checked (its account has
    failed too often, or its address has and its account failed at least once), and
    whether its address is over the limit (so a wrong password now also waits)."""
    address, account = _failures(request, count=False)
    limited = address >= FAILURES_PER_MINUTE
    return account >= FAILURES_PER_MINUTE or (limited and account > 0), limited


def _too_many() -> str:
    return _(
        "Too many failed logins from this address or for this account. Wait a minute, "
        "then try again (and check the username and password)."
    )


class LoginView(auth_views.LoginView):
    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        refused, limited = _before(request)
        if refused:
            return self._refusal()
        response = super().post(request, *args, **kwargs)
        if limited and response.status_code != 302:
            return self._refusal()  # counted by form_invalid; the account waits from here now
        return response

    def _refusal(self) -> HttpResponse:
        messages.error(self.request, _too_many())
        response = self.render_to_response(self.get_context_data(form=self.get_form()))
        response.status_code = 429
        return response

    def form_invalid(self, form: Any) -> HttpResponse:
        _failures(self.request, count=True)
        return super().form_invalid(form)


@csrf_protect
@never_cache
def admin_login(request: HttpRequest) -> HttpResponse:
    """The admin's own login page, under the same counts of failures as the site's."""
    from django.contrib import admin

    def too_many() -> HttpResponse:
        return HttpResponse(_too_many(), status=429, content_type="text/plain; charset=utf-8")

    if request.method != "POST":
        return admin.site.login(request)
    refused, limited = _before(request)
    if refused:
        return too_many()
    response = admin.site.login(request)
    if response.status_code == 200:
        _failures(request, count=True)  # the form came back: the password was wrong
        if limited:
            return too_many()
    return response
