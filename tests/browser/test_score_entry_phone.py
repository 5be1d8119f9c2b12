"""Score entry as a scorekeeper does it on a phone (390x844) at a busy club night: a hand typed
while the hall's wifi is down is kept and sent once when it returns, also after a reload; a
refused hand is said once at its field, with the cursor there; a correction starts from the
result being corrected; an unfinished cardChess game is refused."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in

TAROCCO = "/c/circolo-pisano/tarocco-2026/"
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(
        locale="it-IT", viewport=PHONE, is_mobile=True, has_touch=True, service_workers="block"
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def _open_table(page: Any, server: str, competition: str, label: str) -> str:
    page.goto(server + competition + "score/")
    with page.expect_navigation():
        page.get_by_role("link", name=label, exact=True).click()
    return str(page.url)


def _results_of_table(page: Any) -> int:
    return int(page.locator("a[href*='/r/']").count())


def _type_solo(page: Any, declarer: str, card_points: str) -> None:
    page.select_option("#id_outcome", "solo")
    page.select_option("#id_declarer", declarer)
    page.fill("#id_card_points", card_points)


def test_a_hand_typed_offline_is_kept_and_sent_once_when_the_wifi_returns(
    phone: Any, server: str
) -> None:
    page = phone
    log_in(page, server)
    url = _open_table(page, server, TAROCCO, "Tavolo 2")
    before = _results_of_table(page)

    page.context.set_offline(True)
    _type_solo(page, "1", "61")
    page.click("#record")
    page.click("#record")  # a second tap, as on a phone that seems not to answer
    waiting = page.locator("#waiting")
    expect(waiting).to_be_visible()
    expect(page.locator("#waiting-list li")).to_have_count(1)
    expect(waiting).to_contain_text("in attesa di invio")
    expect(page.locator("#waiting-note")).to_contain_text("Nessuna connessione")

    page.context.set_offline(False)
    expect(page.locator("#waiting-sent")).to_contain_text("1")
    expect(waiting).to_be_hidden()
    page.goto(url)
    assert _results_of_table(page) == before + 1
    # Nothing is left to send: reloading sends nothing again.
    page.reload()
    expect(page.locator("#waiting")).to_be_hidden()
    assert _results_of_table(page) == before + 1


def test_a_hand_kept_offline_is_sent_once_after_a_reload(phone: Any, server: str) -> None:
    page = phone
    log_in(page, server)
    url = _open_table(page, server, TAROCCO, "Tavolo 3")
    before = _results_of_table(page)

    page.context.set_offline(True)
    _type_solo(page, "2", "58")
    page.click("#record")
    expect(page.locator("#waiting-list li")).to_have_count(1)

    # The phone is closed and opened again: the connection is back when the page reopens.
    page.close()
    page = phone.context.new_page()
    page.context.set_offline(False)
    page.goto(url)
    expect(page.locator("#waiting-sent")).to_be_visible()
    expect(page.locator("#waiting")).to_be_hidden()
    page.reload()
    assert _results_of_table(page) == before + 1
    again = page.context.new_page()  # a second page open on the same phone sends nothing
    again.goto(url)
    expect(again.locator("#waiting")).to_be_hidden()
    again.reload()
    assert _results_of_table(again) == before + 1


def test_a_correction_opens_with_the_hand_as_it_was_typed(phone: Any, server: str) -> None:
    page = phone
    log_in(page, server)
    _open_table(page, server, TAROCCO, "Tavolo 2")
    dealer = page.locator("#id_dealer").input_value()
    _type_solo(page, "2", "66")
    with page.expect_navigation():
        page.click("#record")
    with page.expect_navigation():
        page.locator("a[href*='/r/']").first.click()
    with page.expect_navigation():
        page.click("#correct")
    # The game's own form, filled in as it was typed: nothing to re-type from memory.
    expect(page.locator("#id_outcome")).to_have_value("solo")
    expect(page.locator("#id_dealer")).to_have_value(dealer)
    expect(page.locator("#id_declarer")).to_have_value("2")
    expect(page.locator("#id_card_points")).to_have_value("66")
    expect(page.locator("#id_offerer")).to_be_hidden()  # the outcome's fields only
    # Change one thing, say why, and the preview shows what the correction changes.
    page.fill("#id_card_points", "70")
    page.fill("#reason", "Punti contati male")
    with page.expect_navigation():
        page.click("#preview-correction")
    expect(page.locator("#id_card_points")).to_have_value("70")
    expect(page.locator("#apply-correction")).to_be_visible()


def test_a_recorded_hands_page_says_in_words_what_was_typed_on_a_phone(
    phone: Any, server: str
) -> None:
    page = phone
    log_in(page, server)
    _open_table(page, server, TAROCCO, "Tavolo 2")
    _type_solo(page, "1", "64")
    with page.expect_navigation():
        page.click("#record")
    with page.expect_navigation():
        page.locator("a[href*='/r/']").first.click()
    declared = page.locator("#result-detail li")
    expect(declared.first).to_contain_text("Mazziere:")
    expect(page.locator("#result-detail")).to_contain_text("64 punti carta su 109")
    expect(page.locator("#result-detail")).to_contain_text("Prossimo mazziere:")
    # The lines wrap on the phone's width: nothing to scroll sideways.
    width = page.evaluate("() => document.scrollingElement.scrollWidth")
    assert width <= PHONE["width"], width


def test_a_refused_hand_is_said_once_at_its_field_with_the_cursor_there(
    phone: Any, server: str
) -> None:
    page = phone
    log_in(page, server)
    _open_table(page, server, TAROCCO, "Tavolo 1")
    _type_solo(page, "0", "140")
    with page.expect_navigation():
        page.click("#record")
    message = "sommano sempre 109"
    expect(page.get_by_text(re.compile(message))).to_have_count(1)
    field = page.locator(".field-card_points")
    expect(field.locator(".field-error")).to_contain_text(message)
    expect(page.locator("#id_card_points")).to_be_focused()
    expect(page.locator("#id_card_points")).to_have_value("140")  # the input is kept
    expect(page.locator("#id_card_points")).to_be_in_viewport()
    # Nothing covers it: the element at its centre is the field itself.
    on_top = page.evaluate(
        """() => {
            const r = document.getElementById("id_card_points").getBoundingClientRect();
            return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2).id;
        }"""
    )
    assert on_top == "id_card_points"


def test_an_unfinished_cardchess_game_is_refused_with_the_reason(phone: Any, server: str) -> None:
    page = phone
    log_in(page, server)
    _open_table(page, server, "/c/circolo-pisano/cardchess-2026/", "Tavolo 2")
    before = _results_of_table(page)
    for n, (a, b) in enumerate([(20, 10), (5, 12)]):  # two sfide: the gold is not decided
        page.fill(f"#id_sfida-{n}-p0", str(a))
        page.fill(f"#id_sfida-{n}-p1", str(b))
    expect(page.locator("#preview-unfinished")).to_be_visible()
    with page.expect_navigation():
        page.click("#record")
    errors = page.locator("#form-errors")
    expect(errors).to_contain_text("non è ancora finita")
    expect(errors).to_be_focused()
    expect(page.locator("#id_sfida-1-p1")).to_have_value("12")
    assert _results_of_table(page) == before


def test_an_import_made_from_a_template_records_its_rows_and_names_the_bad_one(
    phone: Any, server: str, tmp_path: Any
) -> None:
    import csv
    import io
    import uuid

    page = phone
    log_in(page, server)
    page.goto(server + "/c/circolo-pisano/import/")
    expect(page.locator("#column-guide")).to_be_visible()
    page.locator("#guide-tarocco-2026 summary").click()
    expect(page.locator("#guide-tarocco-2026")).to_contain_text("card_points")
    with page.expect_download() as download:
        page.click("#template-tarocco-2026")
    rows = list(csv.reader(io.StringIO(download.value.path().read_text(encoding="utf-8"))))
    header, example = rows[0], rows[1]
    assert "record" not in header  # plain columns, no JSON to write

    # The scorekeeper overwrites the example with three hands; the third is impossible.
    column = {name: n for n, name in enumerate(header)}
    run = uuid.uuid4().hex[:8]
    hands = []
    for n, points in enumerate(["70", "52", "140"], start=1):
        row = list(example)
        row[column["outcome"]] = "solo"
        row[column["declarer"]] = "1"
        row[column["card_points"]] = points
        row[column["pair"]] = ""
        row[column["key"]] = f"{run}-{n}"
        hands.append(row)
    out = io.StringIO()
    csv.writer(out).writerows([header, *hands])
    path = tmp_path / "serata.csv"
    path.write_text(out.getvalue(), encoding="utf-8")

    page.set_input_files("#file", str(path))
    with page.expect_navigation():
        page.click("#start-import")
    # The page says what it read before anything is recorded.
    expect(page.locator("#understood-summary")).to_contain_text("separato da virgole")
    expect(page.locator("#understood-summary")).to_contain_text("3 righe")
    with page.expect_navigation():
        page.click("#confirm-import")
    progress = page.locator("#progress")
    expect(progress).to_contain_text("2 importati")
    errors = page.locator("#import-errors tbody tr")
    expect(errors).to_have_count(1)
    expect(errors.first.locator("td").first).to_have_text("4")  # the file's fourth line
    expect(errors.first).to_contain_text("109")
