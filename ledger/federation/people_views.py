"""The federation's people pages: find a person, the officers' likely duplicates with each
merge's preview and the merges to undo, and a person's page across the clubs. Thin: the
reads and writes are in people.py."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from ledger.clubs.errors import LedgerError
from ledger.federation import name_index, people
from ledger.federation.models import Federation

# How many people a search lists.
FOUND_AT_MOST = 50


@never_cache
def people_page(request: HttpRequest, slug: str) -> HttpResponse:
    the = get_object_or_404(Federation, slug=slug)
    officer = request.user.is_authenticated and (
        request.user.is_superuser or the.is_officer(request.user)
    )
    problem = ""
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        action = request.POST.get("action", "")
        try:
            if action == "merge":
                line = people.merge_people(
                    user=request.user,
                    federation=the,
                    merged_id=int(request.POST.get("merged", "0") or 0),
                    into_id=int(request.POST.get("into", "0") or 0),
                )
                messages.success(
                    request,
                    _("%(a)s is merged into %(b)s: one person now.")
                    % {"a": line.merged.name, "b": line.into.name},
                )
            elif action == "undo":
                line = people.undo_merge(
                    user=request.user,
                    federation=the,
                    merge_id=int(request.POST.get("merge", "0") or 0),
                )
                messages.success(
                    request,
                    _("The merge is undone: %(a)s and %(b)s are two people again.")
                    % {"a": line.merged.name, "b": line.into.name},
                )
            else:
                raise LedgerError(_("Nothing to do."))
        except (LedgerError, ValueError) as error:
            problem = error.message if isinstance(error, LedgerError) else _("Nothing to do.")
        else:
            return redirect("federation-people", the.slug)
    query = request.GET.get("q", "").strip()
    found: list[people.Known] = []
    if query:
        # The database names the few people the words typed begin, or that the name may
        # mean; only they are read (a federation has thousands).
        clubs = people.member_club_ids(the)
        begins = name_index.search(query, clubs, FOUND_AT_MOST)
        maybe = people.people_of(clubs, [*begins, *name_index.candidates([query], clubs)])
        found = [maybe[pid] for pid in begins if pid in maybe]
        found += [k for k in people.suggestions_for(query, list(maybe.values())) if k not in found]
        found = found[:FOUND_AT_MOST]
    return render(
        request,
        "federation/people.html",
        {
            "federation": the,
            "officer": officer,
            "query": query,
            "found": found,
            "pairs": people.likely_duplicates(the) if officer else [],
            "merged": people.standing_merges(the) if officer else [],
            "problem": problem,
        },
        status=409 if problem else 200,
    )


@never_cache
def person_page(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    the = get_object_or_404(Federation, slug=slug)
    found = people.person(the, player_id)
    if found is None:
        raise Http404(_("Nobody of this federation."))
    if found.known.player.pk != player_id:
        # A merged player's page is their person's.
        return redirect("federation-person", the.slug, found.known.player.pk)
    return render(request, "federation/person.html", {"federation": the, "person": found})
