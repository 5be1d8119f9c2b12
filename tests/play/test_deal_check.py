"""Deals anyone can check: the replay page's own script (run with node, or in Chromium when
node is missing), the single-file verifier and the engines deal alike over 1,000 numbers per
game; the finished game's page offers the check and the verifier, which runs with plain
Python on the downloaded record."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from games.core import registry, verify_deal
from ledger.play import dealcheck, services
from tests.play.conftest import dealt, play_out, seats_for

SCRIPT = (
    Path(__file__).resolve().parents[2] / "ledger" / "play" / "static" / "play" / "dealcheck.js"
)
SEEDS = 1000
RULESETS = {
    "tarocco": [None],
    "ergio": ["base", "advanced", "4p", "6p"],
    "ponte": ["2p-base", "3p-expert", "4p-advanced", "6p-incognito"],
    "cardchess": ["2p", "3p", "4p"],
}

NODE_RUNNER = """
const dc = require(process.argv[1]);
const input = JSON.parse(require("fs").readFileSync(0, "utf8"));
(async () => {
  const out = [];
  for (const c of input.cases) {
    const d = await dc.deal(c.game, c.seed, c.ruleset, input.packs, c.sfide, c.record);
    const seal = await dc.seal(c.seed, c.table);
    out.push({ deal: d, hands: dc.hands(c.game, d, c.ruleset), seal: seal });
  }
  process.stdout.write(JSON.stringify(out));
})();
"""


def _run_script(cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The page's script on every case: with node when it is installed, else in Chromium."""
    payload = {"packs": verify_deal.packs(), "cases": cases}
    node = shutil.which("node")
    if node is not None:
        done = subprocess.run(
            [node, "-e", NODE_RUNNER, str(SCRIPT)],
            input=json.dumps(payload),
            capture_output=True,
            text=True,
            check=True,
            timeout=600,
        )
        found: list[dict[str, Any]] = json.loads(done.stdout)
        return found
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=shutil.which("chromium") or None)
        page = browser.new_page()
        page.set_content("<!doctype html><title>deal</title>")
        page.add_script_tag(content=SCRIPT.read_text(encoding="utf-8"))
        found = page.evaluate(
            """async (input) => {
              const dc = window.DealCheck, out = [];
              for (const c of input.cases) {
                const d = await dc.deal(c.game, c.seed, c.ruleset, input.packs, c.sfide, c.record);
                out.push({deal: d, hands: dc.hands(c.game, d, c.ruleset),
                          seal: await dc.seal(c.seed, c.table)});
              }
              return out;
            }""",
            payload,
        )
        browser.close()
    return list(found)


def _engine_deal(game: str, name: str | None, seed: int) -> dict[str, Any]:
    engine = registry.get(game)
    record = engine.new_game(engine.ruleset(name), seed).to_record()
    plain: dict[str, Any] = json.loads(json.dumps(record))
    return plain


@pytest.mark.parametrize("game", sorted(RULESETS))
def test_the_pages_shuffle_the_verifier_and_the_engine_deal_alike_over_1000_numbers(
    game: str,
) -> None:
    cases = []
    engine_records = []
    for n in range(SEEDS):
        # small numbers, and numbers as large as a table draws (63 bits)
        seed = n if n % 2 else (n * 0x9E3779B97F4A7C15) % 2**63
        name = RULESETS[game][n % len(RULESETS[game])]
        record = _engine_deal(game, name, seed)
        engine_records.append(record)
        cases.append(
            {
                "game": game,
                "seed": str(seed),  # as the page gives it: exact beyond 2**53
                "ruleset": record.get("ruleset") or {},
                "sfide": len(record["deal"].get("sfide", [])) or 1,
                "table": n + 1,
            }
        )
    from_script = _run_script(cases)
    assert len(from_script) == SEEDS
    for case, record, script in zip(cases, engine_records, from_script, strict=True):
        seed = int(case["seed"])
        mine = verify_deal.deal(game, seed, case["ruleset"], case["sfide"])
        assert verify_deal.compared(game, mine, record["deal"]), (game, seed)
        assert script["deal"] == mine, (game, seed)
        assert script["hands"] == verify_deal.hands(game, mine, case["ruleset"]), (game, seed)
        assert script["seal"] == verify_deal.seal(seed, case["table"])


PLAYED = {
    "cardchess": ["2p"],
    "sanmarco": ["base3", "base4", "variant1-board", "variant2-board", "variant3-board"],
}


def _played(game: str, name: str, seed: int) -> dict[str, Any]:
    """A whole game played by random bots, its record as the download gives it."""
    from games.core import RandomBot
    from games.core.engine import play

    engine = registry.get(game)
    ruleset = engine.ruleset(name)
    state = play(
        engine, engine.new_game(ruleset, seed), [RandomBot(seed + i) for i in range(ruleset.seats)]
    )
    plain: dict[str, Any] = json.loads(json.dumps(state.to_record()))
    return dealcheck.checked_record(game, plain)


@pytest.mark.parametrize("game", sorted(PLAYED))
def test_every_reshuffle_and_san_marco_draw_agree_in_page_verifier_and_engine_over_1000_numbers(
    game: str,
) -> None:
    """Whole games: cardChess's reshuffles of the discards in the order the play laid them
    aside, San Marco's dice, cards and role draws along the order the play asked for them;
    each seat's items as both checkers give them equal to the replay's."""
    cases, records = [], []
    for n in range(SEEDS):
        seed = n if n % 2 else (n * 0x9E3779B97F4A7C15) % 2**63
        record = _played(game, PLAYED[game][n % len(PLAYED[game])], seed)
        records.append(record)
        cases.append(
            {
                "game": game,
                "seed": str(seed),
                "ruleset": record["ruleset"],
                "sfide": len(record["deal"].get("sfide", [])) or 1,
                "table": n + 1,
                "record": {
                    k: record[k] for k in ("deal", "actions", "chance_order") if k in record
                },
            }
        )
    from_script = _run_script(cases)
    fair = registry.module(game, "fairdeal")
    assert fair is not None
    reshuffles = 0
    for case, record, script in zip(cases, records, from_script, strict=True):
        seed = int(case["seed"])
        mine = verify_deal.deal(game, seed, case["ruleset"], case["sfide"], record)
        assert verify_deal.compared(game, mine, record["deal"]), (game, seed)
        assert script["deal"] == mine, (game, seed)
        hands = verify_deal.hands(game, mine, case["ruleset"])
        assert script["hands"] == hands, (game, seed)
        replay = fair.replay_items(record)
        for hand in hands:
            key = hand.get("key") or (
                f"{hand['sfida']}:{hand['place'] if hand['seat'] is None else hand['seat']}"
                + (":reshuffle" if hand.get("after") else "")
            )
            if "key" in hand or hand.get("after"):
                assert replay[key] == hand["cards"], (game, seed, key)
        if game == "cardchess":
            theirs = [s.get("reshuffle") for s in record["deal"]["sfide"]]
            assert [s.get("reshuffle") for s in mine["sfide"]] == theirs, seed
            reshuffles += sum(1 for s in theirs if s is not None)
        else:
            reshuffles += sum(1 for e in record["chance_order"] if e[0] == "reshuffle")
    assert reshuffles > SEEDS // 2  # the games reach their reshuffles, more than one a game


def test_a_planted_reshuffle_and_a_planted_die_are_told_apart() -> None:
    record = _played("cardchess", "2p", 77)
    count = len(record["deal"]["sfide"])
    mine = verify_deal.deal("cardchess", 77, record["ruleset"], count, record)
    planted = json.loads(json.dumps(record["deal"]))
    again = next(s for s in planted["sfide"] if s.get("reshuffle"))["reshuffle"]
    again[0], again[1] = again[1], again[0]
    assert verify_deal.compared("cardchess", mine, record["deal"])
    assert not verify_deal.compared("cardchess", mine, planted)
    board = _played("sanmarco", "base3", 5)
    mine = verify_deal.deal("sanmarco", 5, board["ruleset"], 1, board)
    loaded = json.loads(json.dumps(board["deal"]))
    loaded["chance"]["dice"][0] = loaded["chance"]["dice"][0] % 6 + 1
    assert verify_deal.compared("sanmarco", mine, board["deal"])
    assert not verify_deal.compared("sanmarco", mine, loaded)


def test_a_wrong_deal_is_told_apart() -> None:
    record = _engine_deal("tarocco", None, 41)
    mine = verify_deal.deal("tarocco", 41, record["ruleset"])
    swapped = json.loads(json.dumps(record["deal"]))
    swapped["deck"][0], swapped["deck"][1] = swapped["deck"][1], swapped["deck"][0]
    assert verify_deal.compared("tarocco", mine, record["deal"])
    assert not verify_deal.compared("tarocco", mine, swapped)


def test_a_cardchess_match_of_several_sfide_is_checked_sfida_by_sfida() -> None:
    engine = registry.get("cardchess")
    bots = [engine.bots["heuristic"](i) for i in range(2)]
    from games.core.engine import play

    record = json.loads(
        json.dumps(play(engine, engine.new_game(engine.ruleset("2p"), 77), bots).to_record())
    )
    count = len(record["deal"]["sfide"])
    assert count > 1
    mine = verify_deal.deal("cardchess", 77, record["ruleset"], count, record)
    assert all("reshuffle" in s for s in mine["sfide"])
    assert verify_deal.compared("cardchess", mine, json.loads(json.dumps(record["deal"])))
    script = _run_script(
        [
            {
                "game": "cardchess",
                "seed": "77",
                "ruleset": record["ruleset"],
                "sfide": count,
                "table": 1,
                "record": {"deal": record["deal"], "actions": record["actions"]},
            }
        ]
    )
    assert script[0]["deal"] == mine


@pytest.mark.django_db
def test_a_finished_games_page_offers_the_check_and_the_verifier_runs_on_its_record(
    people: Any, commit: Any, tmp_path: Path
) -> None:
    game = "tarocco"
    with dealt(123456789):
        table = commit(
            services.create_table,
            user=people.users["member"],
            club=people.club,
            game=game,
            seats=seats_for(game),
        )
    play_out(commit, people.users["member"], table)
    table.refresh_from_db()
    client = Client(HTTP_ACCEPT_LANGUAGE="it")
    client.force_login(people.users["member"])
    page = client.get(f"/play/{table.pk}/replay/").content.decode()
    assert 'id="deal-check"' in page and "Controlla questa distribuzione" in page
    assert "dealcheck.js" in page and 'id="deal-check-data"' in page
    verifier = client.get(f"/play/{table.pk}/verify_deal.py")
    assert verifier["Content-Disposition"] == 'attachment; filename="verify_deal.py"'
    record = client.get(f"/play/{table.pk}/record.json").content
    (tmp_path / "verify_deal.py").write_bytes(verifier.content)
    (tmp_path / "record.json").write_bytes(record)
    run = [
        sys.executable,
        "-I",
        "-S",
        str(tmp_path / "verify_deal.py"),
        str(tmp_path / "record.json"),
    ]
    ok = subprocess.run(
        [*run, "--table", str(table.pk), "--seed", str(table.seed), "--seal", table.commitment],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "The seal shown before the game matches." in ok.stdout
    assert "The record's deal is the one this number deals." in ok.stdout
    wrong = subprocess.run(
        [*run, "--table", str(table.pk), "--seed", str(table.seed + 1)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert wrong.returncode == 1 and "is NOT the one" in wrong.stdout


@pytest.mark.django_db
@pytest.mark.parametrize(("game", "ruleset"), [("sanmarco", "base3"), ("cardchess", "2p")])
def test_the_verifier_checks_san_marcos_chance_and_cardchess_reshuffles_from_the_downloaded_record(
    people: Any, commit: Any, tmp_path: Path, game: str, ruleset: str
) -> None:
    seats = ["me"] + ["heuristic"] * (registry.get(game).ruleset(ruleset).seats - 1)
    with dealt(987654321):
        table = commit(
            services.create_table,
            user=people.users["member"],
            club=people.club,
            game=game,
            seats=seats,
            ruleset=ruleset,
        )
    play_out(commit, people.users["member"], table)
    table.refresh_from_db()
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(people.users["member"])
    record = json.loads(client.get(f"/play/{table.pk}/record.json").content)
    assert ("chance_order" in record) == (game == "sanmarco")
    (tmp_path / "verify_deal.py").write_bytes(
        client.get(f"/play/{table.pk}/verify_deal.py").content
    )
    (tmp_path / "record.json").write_text(json.dumps(record))
    run = [
        sys.executable,
        "-I",
        "-S",
        str(tmp_path / "verify_deal.py"),
        str(tmp_path / "record.json"),
    ]
    ok = subprocess.run(
        [*run, "--table", str(table.pk), "--seed", str(table.seed), "--seal", table.commitment],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "The record's deal is the one this number deals." in ok.stdout
    if game == "sanmarco":
        assert "colour 1, set-up rolls:" in ok.stdout
        assert "colour 3, cards drawn as distributor:" in ok.stdout
    else:
        assert "after the reshuffle" in ok.stdout
    # a die or a reshuffled card changed in the record is told apart
    if game == "sanmarco":
        record["deal"]["chance"]["dice"][-1] = record["deal"]["chance"]["dice"][-1] % 6 + 1
    else:
        again = next(s for s in record["deal"]["sfide"] if s.get("reshuffle"))["reshuffle"]
        again[0], again[-1] = again[-1], again[0]
    (tmp_path / "record.json").write_text(json.dumps(record))
    wrong = subprocess.run(
        [*run, "--table", str(table.pk), "--seed", str(table.seed)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert wrong.returncode == 1 and "is NOT the one" in wrong.stdout
