"""The login page, with failed attempts limited per address and per account
(django-ratelimit, counted in the shared "limits" cache).

A club's laptop may share one address with the whole room, so only failures count: members
logging in at the start of a league night are never slowed down, while someone guessing
passwords gets a 429 and a sentence telling them to wait."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_protect
from django_ratelimit.core import get_usage

# Failed logins allowed per client address per minute.
FAILURES_PER_MINUTE = 10
RATE = f"{FAILURES_PER_MINUTE}/m"


def _account(group: str, request: HttpRequest) -> str:
    return str(request.POST.get("username", "")).strip().lower()[:150]


def _failures(request: HttpRequest, *, count: bool) -> int:
    """The most failures this request's address or the account it names has had in the
    last minute (counting this one when ``count``): 10 from one address, or 10 against one
    account from anywhere, and the next attempt waits."""
    worst = 0
    for group, key in (("login-failures", "ip"), ("login-failures-account", _account)):
        usage = get_usage(request, group=group, key=key, rate=RATE, increment=count)
        worst = max(worst, int(usage["count"]) if usage else 0)
    return worst


def _too_many() -> str:
    return _(
        "Too many failed logins from this address or for this account. Wait a minute, "
        "then try again (and check the username and password)."
    )


class LoginView(auth_views.LoginView):
    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if _failures(request, count=False) >= FAILURES_PER_MINUTE:
            messages.error(request, _too_many())
            response = self.render_to_response(self.get_context_data(form=self.get_form()))
            response.status_code = 429
            return response
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form: Any) -> HttpResponse:
        _failures(self.request, count=True)
        return super().form_invalid(form)


@csrf_protect
@never_cache
def admin_login(request: HttpRequest) -> HttpResponse:
    """The admin's own login page, under the same count of failures as the site's."""
    from django.contrib import admin

    if request.method == "POST" and _failures(request, count=False) >= FAILURES_PER_MINUTE:
        return HttpResponse(_too_many(), status=429, content_type="text/plain; charset=utf-8")
    response = admin.site.login(request)
    if request.method == "POST" and response.status_code == 200:
        _failures(request, count=True)  # the form came back: the password was wrong
    return response
