"""`python -m games GAME deal --seed S --table N`: the deal a seed makes and the seal a
digital table showed for it, so anyone can check a revealed deal."""

from __future__ import annotations

import hashlib
import io
import json

import pytest

from games.core import cli, registry
from games.core.fair import commitment


def test_the_seal_is_the_sha256_of_seed_colon_table():
    assert commitment(123, 45) == hashlib.sha256(b"123:45").hexdigest()


@pytest.mark.parametrize("game", registry.available())
def test_the_deal_command_prints_the_seeds_deal_and_its_seal(game):
    out = io.StringIO()
    assert cli.main([game, "deal", "--seed", "9876543210", "--table", "7"], out) == 0
    printed = json.loads(out.getvalue())
    engine = registry.get(game)
    assert printed["deal"] == engine.new_game(engine.ruleset(None), 9876543210).to_record()
    assert printed["commitment"] == commitment(9876543210, 7)


def test_a_ruleset_given_by_name_or_as_json_deals_the_same():
    by_name, as_json = io.StringIO(), io.StringIO()
    cli.main(["tarocco", "deal", "--seed", "3", "--ruleset", "dummett-mcleod"], by_name)
    cli.main(["tarocco", "deal", "--seed", "3", "--ruleset", '{"name":"dummett-mcleod"}'], as_json)
    assert json.loads(by_name.getvalue()) == json.loads(as_json.getvalue())
    assert "commitment" not in json.loads(by_name.getvalue())
