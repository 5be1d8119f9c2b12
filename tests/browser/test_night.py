"""A tournament night at the demo club, in a real browser: players check in by the venue's QR
code on a phone and at the tablet, the draw takes only those checked in, the round clock
runs on the big screen with extra time for one table, a penalty shows on the player's page
and moves the standings until it is cancelled, a player is replaced mid-round and the
standings credit the hands as the setting says, and a mis-seated table is re-seated with
its hands. Screenshots go to $LEDGER_SHOTS when it is set."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from tests.browser.conftest import log_in, screenshot

COMP = "/c/circolo-pisano/cardchess-2026/"
ENTERED = 9  # the first nine members by name; the ninth never checks in
PHONE = {"width": 390, "height": 844}
WON = 3  # what the test's cardChess game gives its winner (three gold cards)
LAPTOP = {"width": 1366, "height": 768}


def _shot(page: Any, name: str) -> None:
    screenshot(page, f"night-{name}.png", full_page=True)


def _post(page: Any, selector: str) -> None:
    with page.expect_navigation():
        page.click(selector)


def _decode_qr(png: bytes) -> str:
    import io

    import zxingcpp
    from PIL import Image

    (found,) = zxingcpp.read_barcodes(Image.open(io.BytesIO(png)).convert("L"))
    return str(found.text)


def _standing(page: Any, server: str, name: str) -> str:
    """The points of a player on the competition's standings, as a plain number."""
    page.goto(server + COMP)
    rows = page.locator("#standings tbody tr", has_text=name)
    if rows.count() == 0:
        return "0"  # nothing credited yet: no row in the table
    row = rows.first
    value = row.locator("td.num[data-value]:not(.movement)").last.get_attribute("data-value")
    return f"{Decimal(value or 'NaN').normalize():f}"


def _hand(page: Any, server: str, table_id: int, sfide: list[list[int]]) -> None:
    page.goto(server + COMP + f"t/{table_id}/score/")
    for r, row in enumerate(sfide):
        for i, points in enumerate(row):
            page.fill(f'[name="sfida-{r}-p{i}"]', str(points))
    _post(page, "#record")
    assert page.locator(".messages").count() == 1


# Members that other browser tests add to the demo club (the back office's league night).
OTHER_TESTS_MEMBERS = (
    "Giocatore Serale",
    "Ornella Serafini",
    "Anna Lanfranchi",
    "Bruno Upezzinghi",
)
DEMO_LOGIN = "Lucia Gambacorti"


def test_a_tournament_night_at_the_club(browser: Any, server: str) -> None:
    context = browser.new_context(locale="it-IT", viewport=LAPTOP)
    page = context.new_page()
    page.set_default_timeout(15_000)
    log_in(page, server)
    # The night is one link away from the competition, in its navigation.
    page.goto(server + COMP)
    _post(page, "#night-link")
    assert page.locator("h1").inner_text() == "Serata di torneo"

    # The organiser sets tables of four, playing several games a round, and enters nine
    # members.
    page.goto(server + COMP + "rounds/manage/")
    page.fill("#s-seats", "4")
    page.fill("#s-hands", "8")
    _post(page, "#settings button[type=submit]")
    # The first nine of the demo club's own members that the list offers (other tests may
    # have added members of their own to the club).
    # The demo login (Lucia) is entered first: she checks in from her phone below.
    names: list[str] = []
    for _ in range(ENTERED):
        offered = page.locator("#enter-player option").all_inner_texts()
        name = (
            DEMO_LOGIN
            if not names
            else next(
                n for n in offered if not n.startswith(OTHER_TESTS_MEMBERS) and n not in names
            )
        )
        names.append(name)
        page.select_option("#enter-player", label=name)
        _post(page, "#enter-form button[type=submit]")
    missing = names[-1]
    assert "Lucia Gambacorti" in names

    # Lucia (the demo login) scans the venue's code on her phone and confirms.
    page.goto(server + COMP + "night/checkin/")
    assert page.locator("#missing-count").inner_text() == str(ENTERED)
    code = page.locator("#venue-qr").screenshot()
    venue = _decode_qr(code)
    assert "/night/checkin/1/" in venue
    phone = browser.new_context(locale="it-IT", viewport=PHONE, is_mobile=True)
    mobile = phone.new_page()
    mobile.goto(venue)
    assert "/login/" in mobile.url  # signed in first
    mobile.fill("#id_username", "demo")
    mobile.fill("#id_password", "pisa-demo-2026")
    _post(mobile, "button[type=submit]")
    assert mobile.locator(".who").inner_text() == "Lucia Gambacorti"
    _shot(mobile, "phone-checkin")
    _post(mobile, "#confirm-checkin")
    assert "Lucia Gambacorti" in mobile.locator("#checked-in").inner_text()

    # The others at the tablet: a tap opens the name large; only "Yes, I am" records it.
    tablet = browser.new_context(locale="it-IT", viewport={"width": 820, "height": 1180})
    door = tablet.new_page()
    log_in(door, server)
    door.goto(server + COMP + "night/tablet/")
    first = door.locator("#tablet-names a").first
    shown = first.inner_text()
    _post(door, "#tablet-names a >> nth=0")
    assert door.locator("#tablet-who").inner_text() == shown
    _post(door, "#tablet-no")  # not me: nothing recorded
    assert door.locator("#tablet-names a", has_text=shown).count() == 1
    for name in names[:-1]:
        if name == "Lucia Gambacorti":
            continue
        _post(door, f'#tablet-names a:text-is("{name}")')
        _shot(door, "tablet-confirm")
        _post(door, "#tablet-yes")
    assert door.locator("#tablet-names a").count() == 1
    _shot(door, "tablet")

    # The organiser's list: eight here, one missing; the draw takes the eight.
    page.goto(server + COMP + "night/checkin/")
    assert page.locator("#here-count").inner_text() == "8"
    assert page.locator("#missing-count").inner_text() == "1"
    assert missing in page.locator("#blockers").inner_text()
    _shot(page, "checkin")
    page.once("dialog", lambda dialog: dialog.accept())
    _post(page, "#draw-checked-in")
    draft = page.locator("#draft").inner_text()
    assert missing not in draft.split("\n\n")[0] or page.locator("#draft .table-card").count() == 2
    assert page.locator("#draft .table-card").count() == 2
    for name in names[:-1]:
        assert page.locator("#draft .table-card", has_text=name).count() == 1
    assert page.locator("#draft .table-card", has_text=missing).count() == 0
    confirm = page.locator("#publish-anyway, input[name=confirm]")
    if confirm.count():
        confirm.first.check()
    _post(page, "#publish")

    # The round clock: started, extra minutes for table 1, on the big screen.
    page.goto(server + COMP + "night/tables/")
    links = page.locator("#table-links a")
    ids = [
        int(re.search(r"/tables/(\d+)/", links.nth(i).get_attribute("href")).group(1))
        for i in range(2)
    ]  # type: ignore[union-attr]
    page.goto(server + COMP + "night/clock/")
    page.fill("#clock-minutes", "40")
    _post(page, "#clock-start")
    page.fill(f"#extra-{ids[0]}", "5")
    _post(page, f"#give-extra-{ids[0]}")
    screen = browser.new_context(locale="it-IT", viewport=LAPTOP).new_page()
    screen.goto(server + COMP + "night/screen/")
    big = screen.locator("#clock-big").inner_text()
    assert re.fullmatch(r"(39|40):\d\d", big), big
    assert "+5 minuti" in screen.locator(f"#screen-table-{ids[0]}").inner_text()
    assert "+5" not in screen.locator(f"#screen-table-{ids[1]}").inner_text()
    left_one = screen.locator(f"#table-left-{ids[0]}").inner_text()
    assert re.fullmatch(r"(44|45):\d\d", left_one), left_one
    screen.wait_for_timeout(2100)  # it counts down by itself
    assert screen.locator("#clock-big").inner_text() != big
    _shot(screen, "big-screen")
    _post(page, "#clock-pause")
    screen.reload()
    assert screen.locator("#clock-state").inner_text() == "In pausa"
    _post(page, "#clock-resume")

    # Hands at both tables; the clock shows at the score entry, with table 1's extra time.
    page.goto(server + COMP + f"t/{ids[0]}/score/")
    assert "5 minuti in più per questo tavolo" in page.locator("#clock-strip").inner_text()
    # Seat 1 wins all three sfide, so the three gold cards and the game: it scores 3.
    game = [[3, 1, 0, 0], [2, 0, 1, 0], [2, 0, 0, 1]]
    _hand(page, server, ids[0], game)
    _hand(page, server, ids[0], game)
    _hand(page, server, ids[1], game)
    page.goto(server + COMP + f"night/tables/{ids[0]}/")
    seated = [
        page.locator(f"#replace-seat option >> nth={i}").inner_text().split(". ", 1)[1]
        for i in range(4)
    ]
    page.goto(server + COMP + f"night/tables/{ids[1]}/")
    other = [
        page.locator(f"#replace-seat option >> nth={i}").inner_text().split(". ", 1)[1]
        for i in range(4)
    ]

    # A penalty: on the player's page with its reason, in the standings, then cancelled.
    fined = other[3]
    base = Decimal(_standing(page, server, fined))
    page.goto(server + COMP + "night/penalties/")
    page.select_option("#penalty-player", label=fined)
    page.fill("#penalty-points", "3")
    page.fill("#penalty-reason", "Telefono squillato al tavolo")
    _post(page, "#give-penalty")
    assert Decimal(_standing(page, server, fined)) == base - 3
    page.goto(server + COMP + "night/penalties/")
    player_page = page.locator("#penalty-list a", has_text=fined).first.get_attribute("href")
    mobile.goto(server + player_page)
    mine = mobile.locator("#penalties").inner_text()
    assert "Telefono squillato al tavolo" in mine and "-3" in mine
    _shot(mobile, "phone-player-penalty")
    page.goto(server + COMP + "night/penalties/")
    page.fill("input[name=cancel_reason]", "Era il telefono di un altro")
    page.once("dialog", lambda dialog: dialog.accept())
    _post(page, "#penalty-list button[type=submit]")
    assert Decimal(_standing(page, server, fined)) == base
    mobile.goto(server + player_page)
    assert "annullata: Era il telefono di un altro" in mobile.locator("#penalties").inner_text()

    # A replacement from hand 2 at table 1, the substitute's points to nobody.
    page.goto(server + COMP + "night/settings/")
    page.check('input[name=substitute_points][value="nobody"]')
    _post(page, "#save-night-settings")
    leaving = seated[0]
    before_leaving = Decimal(_standing(page, server, leaving))
    before_sub = Decimal(_standing(page, server, missing))
    page.goto(server + COMP + f"night/tables/{ids[0]}/")
    page.select_option("#replace-seat", index=0)
    page.select_option("#replace-substitute", label=missing)
    page.fill("#replace-from", "2")
    _post(page, "#replace-submit")
    hands = page.locator("#by-hand tbody tr")
    assert leaving in hands.nth(0).inner_text()
    assert missing in hands.nth(1).inner_text() and leaving not in hands.nth(1).inner_text()
    _shot(page, "table-replaced")
    # The leaving player keeps hand 1 only; the substitute's hands count for nobody.
    assert Decimal(_standing(page, server, leaving)) == before_leaving - WON
    assert Decimal(_standing(page, server, missing)) == before_sub
    _hand(page, server, ids[0], game)  # the next hand credits the substitute nothing too
    assert Decimal(_standing(page, server, missing)) == before_sub
    assert Decimal(_standing(page, server, leaving)) == before_leaving - WON

    # Table 2 sat in the wrong seats: its first two players swapped, the hand moves along.
    first_before = Decimal(_standing(page, server, other[0]))
    second_before = Decimal(_standing(page, server, other[1]))
    page.goto(server + COMP + f"night/tables/{ids[1]}/")
    page.select_option("#order-0", label=other[1])
    page.select_option("#order-1", label=other[0])
    _post(page, "#reseat-preview")
    assert page.locator("#reseat-result").is_visible()
    _shot(page, "reseat-preview")
    _post(page, "#reseat-apply")
    assert other[1] in page.locator("#by-hand tbody tr").first.inner_text().split("\t")[1]
    assert Decimal(_standing(page, server, other[1])) == second_before + WON
    assert Decimal(_standing(page, server, other[0])) == first_before - WON

    # The printed pairings' codes open the tables' score entry; the PDF downloads.
    page.goto(server + COMP + "night/print/pairings/")
    for table_id in ids:
        png = page.locator(f'[data-table="{table_id}"] img').screenshot()
        assert _decode_qr(png).endswith(COMP + f"t/{table_id}/score/")
    with page.expect_download() as download:
        page.click("#pdf-link")
    assert download.value.suggested_filename.endswith(".pdf")

    # English too, and the phone's view of the night's page.
    page.goto(server + COMP + "night/")
    with page.expect_navigation():
        page.select_option("#language", "en")
    assert page.locator("h1").inner_text() == "Tournament night"
    _shot(page, "hub-en")
    mobile.goto(server + COMP + "night/penalties/")
    assert mobile.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    _shot(mobile, "phone-penalties")
    for c in (context, phone, tablet):
        c.close()
