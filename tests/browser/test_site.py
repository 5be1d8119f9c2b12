"""A new visitor's first minutes, in a real browser."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.conftest import log_in, screenshot


def test_the_home_page_is_in_italian_and_switches_to_english(page, server):
    page.goto(server + "/")
    assert page.locator("h1").inner_text() == "Circoli e competizioni"
    assert page.locator("text=Circolo dei Giochi Pisani").count() == 1
    page.select_option("#language", "en")
    expect(page.locator("h1")).to_have_text("Clubs and competitions")


def test_a_competition_page_shows_standings_and_results(page, server):
    page.goto(server + "/")
    page.click("text=Campionato sociale di Tarocco")
    assert page.locator("table.standings tbody tr").count() >= 4
    screenshot(page, "competition.png", full_page=True)


def test_the_demo_login_works_and_offers_score_entry(page, server):
    log_in(page, server)
    page.click("text=Campionato sociale di Tarocco")
    assert page.locator("#record-result").count() == 1


def test_on_a_phone_no_page_scrolls_sideways_and_the_standings_keep_every_column(browser, server):
    context = browser.new_context(
        locale="it-IT", viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    try:
        for path in ("/", "/c/circolo-pisano/ergio-2026/", "/c/circolo-pisano/tarocco-2026/"):
            page.goto(server + path)
            wide = page.evaluate(
                "document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            assert wide <= 0, f"{path} is {wide}px wider than the phone's screen"
        # Wins, draws and losses are all there (a wide table scrolls inside its card).
        headings = page.locator("table.standings thead th")
        expect(headings.filter(has_text="V")).to_have_count(1)
        expect(headings.filter(has_text="S")).not_to_have_count(0)
        assert page.locator("table.standings tbody tr td").nth(3).is_visible()
    finally:
        context.close()


def test_a_visit_asks_for_nothing_that_is_missing(page, server):
    # A missing stylesheet is refused before it has a response (a 404 page is not CSS), so
    # failed requests count too; not one the browser itself dropped when the next page was
    # asked for (the icon is fetched late, and a navigation aborts it).
    missing: list[str] = []
    page.on("response", lambda r: missing.append(r.url) if r.status >= 400 else None)
    page.on(
        "requestfailed",
        lambda r: None if "ERR_ABORTED" in (r.failure or "") else missing.append(r.url),
    )
    log_in(page, server)
    for path in ("/", "/c/circolo-pisano/tarocco-2026/", "/c/circolo-pisano/tarocco-2026/score/"):
        page.goto(server + path)
        page.wait_for_load_state("networkidle")
    assert missing == []


def test_the_pages_own_behaviour_runs_under_the_content_security_policy(page, server):
    """Printing, asking before a step and sending a form on a change are done by the site's
    own script (the policy refuses onclick=); the `page` fixture fails on any refusal."""
    page.add_init_script("window.printed = 0; window.print = () => { window.printed += 1; };")
    page.goto(server + "/c/circolo-pisano/tarocco-2026/")
    page.locator("a[data-print]").first.click()
    assert page.evaluate("window.printed") == 1
    # A step that asks first: "Cancel" stops it, "OK" lets it go.
    page.evaluate(
        """() => document.querySelector("main").insertAdjacentHTML("beforeend",
        '<form method="get" action="/"><button id="ask" data-confirm="Sure?">Go</button></form>')"""
    )
    asked: list[str] = []

    def dismiss(dialog):
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", dismiss)
    page.click("#ask")
    page.wait_for_timeout(300)
    assert asked == ["Sure?"]
    assert page.url.endswith("/tarocco-2026/")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#ask")
    page.wait_for_url(server + "/?")
    # The round picker sends its form as soon as a round is chosen.
    page.goto(server + "/c/circolo-pisano/tarocco-2026/")
    if page.locator("#round option").count() > 1:
        page.select_option("#round", index=1)
        page.wait_for_url("**round=*")


def test_the_api_documentation_renders_under_the_policy(page, server):
    page.goto(server + "/api/docs/")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Club ledger API")
