"""Sign-up and fees, written: a registration opened, changed and closed; people registered
(or put on the waiting list above the cap), withdrawn, moved up in order; fees paid and
refunded. Each write is one transaction holding the registration's row, so two people
signing up at once cannot both take the last place; each change writes a log line. The
pages only call these."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max, Sum
from django.dispatch import Signal
from django.utils import timezone
from django.utils.translation import gettext as _

from ledger.clubs.errors import Conflict, Invalid, NotAllowed
from ledger.clubs.models import Competition, Membership, Player, Role
from ledger.clubs.office.office import new_member
from ledger.clubs.office.roles import require_role
from ledger.formats import office
from ledger.formats.names import close_matches, find_same, name_key
from ledger.signup.models import LogLine, Payment, Registration, SignUp

CENT = Decimal("0.01")
MAX_FEE = Decimal("9999.99")

#: Sent after the commit when someone moves up from the waiting list (``signup``): whoever
#: tells people what happened (notifications) listens; nothing is sent from here.
moved_up = Signal()
#: Sent after the commit when someone signs up (``signup``).
signed_up = Signal()


class DidYouMean(Invalid):
    """The name is close to people already known: ask before making someone new."""

    def __init__(self, message: str, names: list[str]) -> None:
        super().__init__(message, fields={"name": [message]})
        self.names = names


def money(value: Any, field: str, *, blank: bool = False) -> Decimal | None:
    """An amount in euros, exact to the cent: "12", "12.5", "12,50"; refused at ``field``."""
    text = str(value if value is not None else "").strip().replace("€", "").strip()
    if not text:
        if blank:
            return None
        raise Invalid(_("Give an amount."), fields={field: [_("Required.")]})
    if "," in text and "." not in text:
        text = text.replace(",", ".")
    try:
        amount = Decimal(text)
    except InvalidOperation:
        message = _("Write an amount in euros, like 12.50.")
        raise Invalid(message, fields={field: [message]}) from None
    if not amount.is_finite() or amount < 0 or amount > MAX_FEE:
        message = _("Write an amount between 0 and %(max)s euros.") % {"max": MAX_FEE}
        raise Invalid(message, fields={field: [message]})
    if amount != amount.quantize(CENT):
        message = _("Euros have two decimals at most.")
        raise Invalid(message, fields={field: [message]})
    return amount.quantize(CENT)


def _log(
    registration: Registration,
    what: str,
    user: Any = None,
    signup: SignUp | None = None,
    detail: str = "",
) -> None:
    LogLine.objects.create(
        registration=registration,
        signup=signup,
        what=what,
        detail=detail[:300],
        by=user if getattr(user, "is_authenticated", False) else None,
    )


# --- the registration ----------------------------------------------------------------


@dataclass
class Settings:
    """What the organiser's form gives, in plain values."""

    who: str = Registration.Who.MEMBERS
    cap: int | None = None
    opens_at: datetime | None = None
    closes_at: datetime | None = None
    card_required: bool = False
    fee: Decimal = Decimal(0)
    fee_member: Decimal | None = None
    fee_junior: Decimal | None = None


def _check(data: Settings) -> None:
    errors: dict[str, list[str]] = {}
    if data.who not in Registration.Who.values:
        errors["who"] = [_("Choose who may register.")]
    if data.cap is not None and data.cap < 1:
        errors["cap"] = [_("At least one place, or leave it empty for no limit.")]
    if data.opens_at and data.closes_at and data.closes_at <= data.opens_at:
        errors["closes_at"] = [_("Registration closes after it opens.")]
    for name in ("fee", "fee_member", "fee_junior"):
        value = getattr(data, name)
        if value is not None and (value < 0 or value != value.quantize(CENT)):
            errors[name] = [_("Write an amount in euros, like 12.50.")]
    if errors:
        raise Invalid(next(iter(errors.values()))[0], fields=errors)


@transaction.atomic
def save_registration(*, user: Any, competition: Competition, data: Settings) -> Registration:
    """Open the event's registration, or change it while it is open. A larger cap moves the
    first people waiting up into the new places."""
    require_role(user, competition.club, Role.ORGANISER)
    _check(data)
    registration = Registration.objects.select_for_update().filter(competition=competition).first()
    fields = {
        "who": data.who,
        "cap": data.cap,
        "opens_at": data.opens_at or timezone.now(),
        "closes_at": data.closes_at,
        "card_required": data.card_required,
        "fee": data.fee,
        "fee_member": data.fee_member,
        "fee_junior": data.fee_junior,
    }
    if registration is None:
        registration = Registration.objects.create(competition=competition, **fields)
        _log(registration, LogLine.What.OPENED, user)
        return registration
    if registration.closed_at is not None:
        raise Conflict(_("Registration is closed."))
    for name, value in fields.items():
        setattr(registration, name, value)
    registration.save()
    _log(registration, LogLine.What.CHANGED, user, detail=_describe(registration))
    _fill_places(registration, user)
    return registration


def _describe(registration: Registration) -> str:
    cap = registration.cap if registration.cap is not None else "-"
    return f"cap {cap}, fee {registration.fee}, {registration.who}"


def _locked(competition: Competition) -> Registration:
    registration = Registration.objects.select_for_update().filter(competition=competition).first()
    if registration is None:
        raise Conflict(_("Registration for this event is not open."))
    return registration


def registered(registration: Registration) -> Any:
    return registration.signups.filter(status=SignUp.Status.REGISTERED)


def waiting(registration: Registration) -> Any:
    return registration.signups.filter(status=SignUp.Status.WAITING).order_by("number")


def places_left(registration: Registration) -> int | None:
    if registration.cap is None:
        return None
    taken: int = registered(registration).count()
    return max(registration.cap - taken, 0)


def _fill_places(registration: Registration, user: Any) -> list[SignUp]:
    """Move the first people waiting up into the free places, in the order they came."""
    moved: list[SignUp] = []
    free = places_left(registration)
    if registration.closed_at is not None:
        return moved
    for signup in waiting(registration)[: free if free is not None else None]:
        signup.status = SignUp.Status.REGISTERED
        signup.save(update_fields=["status"])
        _log(registration, LogLine.What.MOVED_UP, user, signup)
        moved.append(signup)
    for signup in moved:
        _tell_moved_up(signup)
    return moved


def _tell_moved_up(signup: SignUp) -> None:
    transaction.on_commit(lambda: moved_up.send(sender=SignUp, signup=signup))


# --- signing up ------------------------------------------------------------------------


@dataclass
class Person:
    """Who signs up, as the form gives it."""

    name: str = ""
    email: str = ""
    card: str = ""
    junior: bool = False
    # The person said "no, I am someone else" to a "did you mean".
    not_them: bool = False


def _fee(registration: Registration, member: bool, junior: bool) -> tuple[str, Decimal]:
    """The lowest fee the person is entitled to, and which it is."""
    best = (SignUp.Rate.FULL.value, registration.fee)
    if member and registration.fee_member is not None and registration.fee_member < best[1]:
        best = (SignUp.Rate.MEMBER.value, registration.fee_member)
    if junior and registration.fee_junior is not None and registration.fee_junior < best[1]:
        best = (SignUp.Rate.JUNIOR.value, registration.fee_junior)
    return best


def _who(registration: Registration, user: Any, person: Person) -> tuple[str, Player | None]:
    """The name and the player signing up, checked against who may register."""
    club = registration.competition.club
    logged_in = getattr(user, "is_authenticated", False)
    player: Player | None = getattr(user, "player", None) if logged_in else None
    is_member = player is not None and club.memberships.filter(player=player).exists()
    if registration.who == Registration.Who.MEMBERS and not is_member:
        raise NotAllowed(_("Only the club's members may register for this event: sign in."))
    if registration.who == Registration.Who.LOGIN and not logged_in:
        raise NotAllowed(_("Sign in to register for this event."))
    name = player.name if player is not None else " ".join(person.name.split())[:120]
    errors: dict[str, list[str]] = {}
    if not name_key(name):
        errors["name"] = [_("Give your first name and surname.")]
    if player is None and not logged_in and not person.email.strip():
        errors["email"] = [_("Give an e-mail address, so the organiser can reach you.")]
    if registration.card_required and not person.card.strip():
        errors["card"] = [_("This event asks for your membership card's number.")]
    if errors:
        raise Invalid(next(iter(errors.values()))[0], fields=errors)
    return name, player


def _members(competition: Competition) -> list[Player]:
    return list(
        Player.objects.filter(memberships__club=competition.club, automated=False).order_by("id")
    )


@transaction.atomic
def sign_up(
    *, user: Any, competition: Competition, person: Person, by_organiser: bool = False
) -> SignUp:
    """Sign someone up: registered while places are left, else on the waiting list. One
    person signs up once (their name matched as ledger/formats/names.py does); a name only
    close to someone known asks "did you mean" first. ``by_organiser``: the organiser adds
    them from the list, whoever the registration is for and whether it is open or not."""
    registration = _locked(competition)
    if by_organiser:
        require_role(user, competition.club, Role.ORGANISER)
        name = " ".join(person.name.split())[:120]
        if not name_key(name):
            raise Invalid(
                _("Give the person's first name and surname."),
                fields={"name": [_("Required.")]},
            )
        player = None
        if registration.closed_at is not None:
            raise Conflict(_("Registration is closed."))
    else:
        if not registration.is_open():
            raise Conflict(_("Registration for this event is not open."))
        name, player = _who(registration, user, person)
    key = name_key(name)
    active = list(registration.signups.exclude(status=SignUp.Status.WITHDRAWN))
    same = find_same(name, [(s.name, s) for s in active])
    if same is None and player is not None:
        same = next((s for s in active if s.player_id == player.pk), None)
    if same is not None:
        message = _("%(name)s is already signed up (%(status)s).") % {
            "name": same.name,
            "status": same.get_status_display().lower(),
        }
        raise Conflict(message, fields={"name": [message]})
    members = _members(competition)
    if player is None:
        player = find_same(name, [(m.name, m) for m in members])
    if player is None and not person.not_them:
        known = [(s.name, s.name) for s in active] + [(m.name, m.name) for m in members]
        near = sorted(set(close_matches(name, known)))
        if near:
            raise DidYouMean(
                _("Did you mean %(names)s? If not, confirm that you are someone else.")
                % {"names": ", ".join(near)},
                near,
            )
    is_member = player is not None and any(m.pk == player.pk for m in members)
    rate, fee = _fee(registration, is_member, person.junior)
    full = registration.cap is not None and registered(registration).count() >= registration.cap
    number = (registration.signups.aggregate(n=Max("number"))["n"] or 0) + 1
    own_login = getattr(user, "is_authenticated", False) and not by_organiser
    try:
        with transaction.atomic():
            signup = SignUp.objects.create(
                registration=registration,
                number=number,
                name=player.name if player is not None else name,
                key=key,
                email=person.email.strip()[:254],
                card=person.card.strip()[:40],
                junior=person.junior,
                user=user if own_login else None,
                player=player,
                status=SignUp.Status.WAITING if full else SignUp.Status.REGISTERED,
                rate=rate,
                fee=fee,
            )
    except IntegrityError:
        raise Conflict(_("%(name)s is already signed up.") % {"name": name}) from None
    _log(
        registration,
        LogLine.What.WAITING if full else LogLine.What.REGISTERED,
        user,
        signup,
        detail=_("added by the organiser") if by_organiser else "",
    )
    transaction.on_commit(lambda: signed_up.send(sender=SignUp, signup=signup))
    return signup


def _mine(user: Any, signup: SignUp) -> bool:
    return bool(getattr(user, "is_authenticated", False) and signup.user_id == user.pk)


@transaction.atomic
def withdraw(*, user: Any, signup: SignUp) -> list[SignUp]:
    """Take someone off the list (themselves, or the organiser); a place freed goes to the
    first person waiting. Returns those who moved up."""
    registration = _locked(signup.registration.competition)
    signup = SignUp.objects.select_for_update().get(pk=signup.pk)
    if not _mine(user, signup):
        require_role(user, registration.competition.club, Role.ORGANISER)
    if registration.closed_at is not None:
        raise Conflict(
            _("Registration is closed: the organiser withdraws entrants from the competition.")
        )
    if signup.status == SignUp.Status.WITHDRAWN:
        return []
    signup.status = SignUp.Status.WITHDRAWN
    signup.withdrawn_at = timezone.now()
    signup.save(update_fields=["status", "withdrawn_at"])
    _log(registration, LogLine.What.WITHDRAWN, user, signup)
    return _fill_places(registration, user)


@transaction.atomic
def move_up(*, user: Any, signup: SignUp) -> SignUp:
    """The organiser gives a place to someone waiting, ahead of the order or above the cap."""
    registration = _locked(signup.registration.competition)
    require_role(user, registration.competition.club, Role.ORGANISER)
    signup = SignUp.objects.select_for_update().get(pk=signup.pk)
    if signup.status != SignUp.Status.WAITING:
        raise Conflict(_("%(name)s is not waiting.") % {"name": signup.name})
    signup.status = SignUp.Status.REGISTERED
    signup.save(update_fields=["status"])
    _log(registration, LogLine.What.MOVED_UP, user, signup, detail=_("by the organiser"))
    _tell_moved_up(signup)
    return signup


@transaction.atomic
def close_registration(*, user: Any, competition: Competition) -> list[Player]:
    """Close registration: the registered become the competition's entrants, through the
    competitions' enrolment (ledger/formats/office.py), in the order they signed up. Someone
    not yet a member becomes one (matched by name first); those waiting stay waiting."""
    registration = _locked(competition)
    require_role(user, competition.club, Role.ORGANISER)
    if registration.closed_at is not None:
        raise Conflict(_("Registration is closed."))
    club = competition.club
    members = _members(competition)
    players: list[Player] = []
    for signup in registered(registration).order_by("number").select_for_update():
        player = signup.player or find_same(signup.name, [(m.name, m) for m in members])
        if player is None:
            player = new_member(club, signup.name)
            members.append(player)
        elif not Membership.objects.filter(club=club, player=player).exists():
            Membership.objects.create(club=club, player=player, role=Role.MEMBER)
        if signup.player_id != player.pk:
            signup.player = player
            signup.save(update_fields=["player"])
        players.append(player)
    office.enrol(user=user, competition=competition, players=players)
    registration.closed_at = timezone.now()
    registration.save(update_fields=["closed_at"])
    _log(registration, LogLine.What.CLOSED, user, detail=str(len(players)))
    return players


# --- fees ------------------------------------------------------------------------------


def paid(signup: SignUp) -> Decimal:
    total = signup.payments.aggregate(t=Sum("amount"))["t"]
    return Decimal(total or 0).quantize(CENT)


def due(signup: SignUp) -> Decimal:
    """What the person owes in all: their fee while they hold a place, nothing otherwise."""
    return signup.fee if signup.status == SignUp.Status.REGISTERED else Decimal("0.00")


def balance(signup: SignUp) -> Decimal:
    """Still to pay (positive) or to give back (negative)."""
    return (due(signup) - paid(signup)).quantize(CENT)


def _locked_signup(user: Any, signup: SignUp) -> SignUp:
    _locked(signup.registration.competition)
    require_role(user, signup.registration.competition.club, Role.ORGANISER)
    return SignUp.objects.select_for_update().select_related("registration").get(pk=signup.pk)


def _method(method: str) -> str:
    if method not in Payment.Method.values:
        message = _("Choose cash, card or transfer.")
        raise Invalid(message, fields={"method": [message]})
    return method


@transaction.atomic
def pay(*, user: Any, signup: SignUp, method: str, amount: Decimal | None = None) -> Payment:
    """Money received: by default what is still to pay."""
    signup = _locked_signup(user, signup)
    _method(method)
    owed = balance(signup)
    if amount is None:
        amount = owed
    if amount <= 0:
        message = (
            _("%(name)s has nothing left to pay.") % {"name": signup.name}
            if owed <= 0
            else _("Write an amount above zero.")
        )
        raise Invalid(message, fields={"amount": [message]})
    payment = Payment.objects.create(signup=signup, amount=amount, method=method, by=user)
    _log(
        signup.registration,
        LogLine.What.PAID,
        user,
        signup,
        detail=f"{amount} {Payment.Method(method).label}",
    )
    return payment


@transaction.atomic
def refund(*, user: Any, signup: SignUp, method: str, amount: Decimal | None = None) -> Payment:
    """Money given back: by default all that was paid beyond what is owed (all of it, to
    someone who withdrew)."""
    signup = _locked_signup(user, signup)
    _method(method)
    in_hand = paid(signup)
    if amount is None:
        amount = -balance(signup)
    if amount <= 0 or amount > in_hand:
        message = _("Refund between 0.01 and %(paid)s euros: what %(name)s paid.") % {
            "paid": in_hand,
            "name": signup.name,
        }
        raise Invalid(message, fields={"amount": [message]})
    payment = Payment.objects.create(signup=signup, amount=-amount, method=method, by=user)
    _log(
        signup.registration,
        LogLine.What.REFUNDED,
        user,
        signup,
        detail=f"{amount} {Payment.Method(method).label}",
    )
    return payment


@transaction.atomic
def set_fee(*, user: Any, signup: SignUp, fee: Decimal) -> SignUp:
    """The organiser changes what one person owes (a discount, a guest)."""
    signup = _locked_signup(user, signup)
    old = signup.fee
    signup.fee = fee
    signup.save(update_fields=["fee"])
    _log(signup.registration, LogLine.What.FEE, user, signup, detail=f"{old} -> {fee}")
    return signup


# --- reads -----------------------------------------------------------------------------


def signup_of(competition: Competition, player: Player) -> SignUp | None:
    """The player's sign-up for the event (not withdrawn), if there is one."""
    return (
        SignUp.objects.filter(registration__competition=competition, player=player)
        .exclude(status=SignUp.Status.WITHDRAWN)
        .first()
    )


def _with_fees(signups: Any) -> list[SignUp]:
    """The sign-ups, each with what it paid (``paid_sum``) and still owes (``owed``), in
    one query."""
    out = list(signups.annotate(paid_sum=Sum("payments__amount")).order_by("number"))
    for s in out:
        s.paid_sum = Decimal(s.paid_sum or 0).quantize(CENT)
        s.owed = (due(s) - s.paid_sum).quantize(CENT)
    return out


def fees_of_all(registration: Registration) -> list[SignUp]:
    return _with_fees(registration.signups.all())


def fees_of(competition: Competition) -> dict[int, SignUp]:
    """Each player's sign-up with its fee state (``owed``), for the check-in pages."""
    signups = SignUp.objects.filter(
        registration__competition=competition, player__isnull=False
    ).exclude(status=SignUp.Status.WITHDRAWN)
    return {s.player_id: s for s in _with_fees(signups) if s.player_id is not None}
