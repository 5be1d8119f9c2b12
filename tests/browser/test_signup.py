"""Sign-up with a cap, fees at the door and the treasurer's report, on a phone in Italian:
the organiser opens registration for a new event (8 places, a fee with reduced fees for
members and juniors); ten people register themselves from the event page, a member typing
their name without its accent is matched to the member, a second sign-up of one person is
refused and a name only close to another asks "did you mean" first; the last two wait, and
one moves up when a registered person withdraws. Closing makes the eight the competition's
entrants; at the check-in tablet six pay (cash, card, transfer), and the treasurer's report
and its .xlsx give the totals worked out by hand below."""

from __future__ import annotations

import io
from decimal import Decimal
from typing import Any

import openpyxl
from playwright.sync_api import expect

from tests.browser.conftest import log_in

PHONE = {"width": 390, "height": 844}
CLUB = "/c/circolo-pisano/"
EVENT = CLUB + "torneo-aperto-di-natale/"

# Who signs up, in order, and whether they tick "junior". The first is the demo club's
# member "Niccolò Della Gherardesca", typed without the accent.
PEOPLE = [
    ("Niccolo Della Gherardesca", False),
    ("Elena Buonamici", False),
    ("Marta Sbrana", True),
    ("Ugo Vecchi", False),
    ("Chiara Mastiani", False),
    ("Paolo Gaetani", False),
    ("Irene Roncalli", False),
    ("Nicolò Della Gherardesca", False),  # someone else: asked "did you mean" first
    ("Dario Lari", False),  # waiting, moves up when Ugo withdraws
    ("Sofia Pardi", False),  # waiting
]
MEMBER = "Niccolò Della Gherardesca"
# At the tablet: who pays, and how.
PAYS = [
    (MEMBER, "card"),  # 7.00, the members' fee
    ("Elena Buonamici", "cash"),  # 10.00
    ("Marta Sbrana", "cash"),  # 5.00, the juniors' fee
    ("Chiara Mastiani", "transfer"),  # 10.00
    ("Paolo Gaetani", "cash"),  # 10.00
    ("Dario Lari", "card"),  # 10.00
]
# Worked out by hand: eight registered owe 7 + 5 + 6 x 10 = 72.00; paid 52.00 of it:
# cash 10 + 5 + 10 = 25.00, card 7 + 10 = 17.00, transfer 10.00; Irene and Nicolò still
# owe 20.00.
DUE, PAID, CASH, CARD, TRANSFER, LEFT = "72,00", "52,00", "25,00", "17,00", "10,00", "20,00"


def _go(page: Any, selector: str) -> None:
    with page.expect_navigation():
        page.click(selector)


def test_ten_sign_up_for_eight_places_pay_at_the_door_and_the_report_adds_up(
    browser: Any, server: str
) -> None:
    context = browser.new_context(locale="it-IT", viewport=PHONE, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.on("dialog", lambda dialog: dialog.accept())
    log_in(page, server)

    # A new event, then its registration opened from the event's own pages.
    page.goto(server + CLUB + "competitions/new/")
    page.fill("#id_name", "Torneo aperto di Natale")
    page.select_option("#id_game", "tarocco")
    page.select_option("#id_format", "league")
    page.select_option("#id_seats_per_table", "4")
    _go(page, "#save-competition")
    page.goto(server + EVENT)
    _go(page, "nav.competition-nav a[data-nav='signup']")
    expect(page.locator("#signup-state")).to_have_text(
        "Le iscrizioni a questo evento non sono aperte."
    )
    _go(page, "#manage-link")
    page.select_option("#id_who", "anyone")
    page.fill("#id_cap", "8")
    page.fill("#id_fee", "10")
    page.fill("#id_fee_member", "7")
    page.fill("#id_fee_junior", "5")
    _go(page, "#save-registration")
    expect(page.locator("#registered-count")).to_have_text("0")

    # Ten people sign up from the event page on their own phones (no login).
    visitor = browser.new_context(locale="it-IT", viewport=PHONE, is_mobile=True).new_page()
    visitor.set_default_timeout(15_000)
    visitor.goto(server + EVENT)
    _go(visitor, "nav.competition-nav a[data-nav='signup']")
    for n, (name, junior) in enumerate(PEOPLE):
        visitor.fill("#id_name", name)
        visitor.fill("#id_email", f"persona{n}@example.org")
        if junior:
            visitor.check("#id_junior")
        if n == 7:
            # One person signing up twice, typed another way, is refused at the name.
            visitor.fill("#id_name", "della gherardesca NICCOLÒ")
            _go(visitor, "#signup-submit")
            expect(visitor.locator("#field-name .error")).to_contain_text("già iscritto")
            # A name close to someone known asks first, keeping what was typed.
            visitor.fill("#id_name", name)
            _go(visitor, "#signup-submit")
            expect(visitor.locator("#field-name .error")).to_contain_text(f"Intendevi {MEMBER}")
            expect(visitor.locator("#id_email")).to_have_value(f"persona{n}@example.org")
            visitor.check("#id_not_them")
        _go(visitor, "#signup-submit")
        expected = "lista d'attesa" if n >= 8 else "sei iscritto"
        expect(visitor.locator(".messages")).to_contain_text(expected)
    expect(visitor.locator("#registered-names li")).to_have_count(8)
    expect(visitor.locator("#waiting-names li")).to_have_text(["Dario Lari", "Sofia Pardi"])
    # The member typed without the accent is the member, at the members' fee.
    expect(visitor.locator("#registered-names li").first).to_have_text(MEMBER)

    # The organiser's list: 8 registered, 2 waiting; Ugo withdraws and Dario moves up.
    page.reload()
    expect(page.locator("#registered-count")).to_have_text("8")
    expect(page.locator("#waiting-count")).to_have_text("2")
    _go(page, "#registered tr[data-name='Ugo Vecchi'] button[id^='withdraw-']")
    expect(page.locator(".messages")).to_contain_text("Dario Lari passa dalla lista d'attesa")
    expect(page.locator("#registered-count")).to_have_text("8")
    expect(page.locator("#waiting li")).to_have_count(1)
    expect(page.locator("#waiting li")).to_contain_text("Sofia Pardi")

    # Closing: the eight are the competition's entrants.
    _go(page, "#close-registration")
    expect(page.locator(".messages")).to_contain_text("8 partecipanti")

    # At the check-in tablet: a tap on the name, the fee paid, then "Yes, I am".
    page.goto(server + EVENT + "night/tablet/")
    expect(page.locator("#tablet-names li")).to_have_count(8)
    for name, method in PAYS:
        _go(page, f"#tablet-names a:text-is('{name}')")
        expect(page.locator("#tablet-who")).to_have_text(name)
        _go(page, f"#tablet-fee button[value='{method}']")
        expect(page.locator("#tablet-fee-paid")).to_be_visible()
        _go(page, "#tablet-yes")
    expect(page.locator("#tablet-names li")).to_have_count(2)

    # The treasurer's report, from the check-in page's link.
    page.goto(server + EVENT + "night/checkin/")
    expect(page.locator("#fees-due tr")).to_have_count(2)
    _go(page, "#fees-due a")
    expect(page.locator("#total-due")).to_have_text(f"{DUE} €")
    expect(page.locator("#total-paid")).to_have_text(f"{PAID} €")
    expect(page.locator("#total-cash")).to_have_text(f"{CASH} €")
    expect(page.locator("#total-card")).to_have_text(f"{CARD} €")
    expect(page.locator("#total-transfer")).to_have_text(f"{TRANSFER} €")
    expect(page.locator("#total-balance")).to_have_text(f"{LEFT} €")

    # Its .xlsx: the same totals, numbers as numbers, the header frozen.
    with page.expect_download() as download:
        page.click("#report-xlsx")
    book = openpyxl.load_workbook(io.BytesIO(download.value.path().read_bytes()))
    sheet = book.active
    assert sheet.freeze_panes == "A2"
    header = [c.value for c in sheet[1]]
    total = [c.value for c in sheet[sheet.max_row]]
    assert all(isinstance(v, int | float) for v in total[3:])
    figures = dict(zip(header[3:], total[3:], strict=True))

    def euros(text: str) -> Decimal:
        return Decimal(text.replace(",", "."))

    assert Decimal(str(figures["Dovuto (€)"])) == euros(DUE)
    assert Decimal(str(figures["Pagato (€)"])) == euros(PAID)
    assert Decimal(str(figures["Contanti (€)"])) == euros(CASH)
    assert Decimal(str(figures["Carta (€)"])) == euros(CARD)
    assert Decimal(str(figures["Bonifico (€)"])) == euros(TRANSFER)
    assert Decimal(str(figures["Saldo (€)"])) == euros(LEFT)
    people = [row[1].value for row in sheet.iter_rows(min_row=2, max_row=sheet.max_row - 1)]
    assert MEMBER in people and "Nicolò Della Gherardesca" in people
    context.close()
