"""Playing San Marco's board games with the invariants checked after every action."""

from __future__ import annotations

import copyreg
import dataclasses
import json
from typing import Any

import pytest

from games.compiled import is_compiled
from games.core import RandomBot
from games.sanmarco import GAME, table
from games.sanmarco.cards import CUBES, NEUTRAL_CUBES
from games.sanmarco.chance import Chance
from games.sanmarco.flow import GHOST, NEUTRAL, Pair, Pending, Phase
from games.sanmarco.game import HeuristicBot
from games.sanmarco.table import BoardState

BOARD_RULESETS = ("base3", "base4", "variant1-board", "variant2-board", "variant3-board")


def fields(obj: Any) -> dict[str, Any]:
    """An object's attributes by name: its ``__dict__`` in plain Python; compiled by mypyc
    (games/compiled.py), the attributes its class declares."""
    names = getattr(type(obj), "__mypyc_attrs__", None)
    if names is None:
        return dict(vars(obj))
    return {n: getattr(obj, n) for n in names if n != "__dict__" and hasattr(obj, n)}


def _rebuild(cls: type, attrs: dict[str, Any]) -> Any:
    if dataclasses.is_dataclass(cls):
        return cls(**attrs)
    # a compiled class's ``__new__`` runs its ``__init__``, so each is made with what its
    # ``__init__`` needs
    if cls is Chance:
        obj: Any = Chance(None, None)
    elif cls is BoardState:  # a new game of the same rules, every attribute then replaced
        obj = BoardState(attrs["ruleset"], 0)
    else:
        obj = cls.__new__(cls)
    for name, value in attrs.items():
        setattr(obj, name, value)
    return obj


def _reduce(obj: Any) -> tuple[Any, tuple[type, dict[str, Any]]]:
    return _rebuild, (type(obj), fields(obj))


# Tests that replace a method of an instance (a die that rolls what an example says) run
# in the pure-Python pass of `make test`: a compiled class's methods cannot be replaced.
plain_python_only = pytest.mark.skipif(
    is_compiled(table),
    reason="replaces a method; run by `make test`'s pure-Python pass (ENGINES_PURE_PYTHON=1)",
)


def copy_compiled_states() -> None:
    """Let ``copy.deepcopy`` and ``pickle`` copy the board game's states when table.py is
    compiled: mypyc's classes have no ``__dict__`` for them to copy, so they are rebuilt from
    their declared attributes (plain Python needs nothing of this)."""
    for cls in (BoardState, Chance, Pair, Pending):
        if hasattr(cls, "__mypyc_attrs__"):
            copyreg.pickle(cls, _reduce)


def reference_points(cubes: list[int], values: tuple[int, int], excluded: list[int]) -> list[int]:
    """The district rule written out again, plainly: most takes the high value, second the
    low one; a tie for most takes the low value and nobody else scores; tied seconds score 0."""
    counts = {c: n for c, n in enumerate(cubes) if n > 0 and c not in excluded}
    out = [0] * len(cubes)
    if not counts:
        return out
    best = max(counts.values())
    firsts = [c for c, n in counts.items() if n == best]
    if len(firsts) >= 2:
        for c in firsts:
            out[c] = values[1]
        return out
    out[firsts[0]] = values[0]
    rest = {c: n for c, n in counts.items() if n < best}
    if rest:
        runner = max(rest.values())
        seconds = [c for c, n in rest.items() if n == runner]
        if len(seconds) == 1:
            out[seconds[0]] = values[1]
    return out


def check_invariants(state: BoardState) -> None:
    board = state.board
    for c, kind in enumerate(state.kinds):
        on_board = sum(state.cubes[d][c] for d in range(6))
        markers = sum(1 for _, owner in state.bridges if owner == c)
        total = NEUTRAL_CUBES if kind == NEUTRAL else CUBES
        assert state.supply[c] >= 0, ("supply", c)
        assert state.supply[c] + on_board + markers == total, ("aristocrats", c)
        assert kind != NEUTRAL or markers == 0
    assert len(state.bridges) <= 12
    for site in range(len(board.sites)):
        assert sum(1 for s, _ in state.bridges if s == site) <= board.per_site, ("bridges", site)
    if not state.ruleset.toll_below_zero:
        assert min(state.score) >= 0
    # every point on the track is explained by the score log
    for c in range(len(state.kinds)):
        assert sum(e["points"][c] for e in state.score_log) == state.score[c]


def check_score_log(state: BoardState) -> None:
    """Every scoring, toll and bonus is what the rules give."""
    rs = state.ruleset
    for e in state.score_log:
        if e["why"] in ("doge", "final"):
            values = state.board.values[e["district"]]
            assert e["points"] == reference_points(e["cubes"], values, e["excluded"]), e
            assert e["why"] == "doge" or not e["excluded"]
        elif e["why"] == "toll":
            mover, owner = e["mover"], e["owner"]
            assert e["points"][mover] in (-1, 0) and mover != owner
            gain = e["points"][owner]
            same_seat = state.controller[owner] == state.controller[mover] is not None
            if same_seat or (state.kinds[owner] == GHOST and not rs.ghost_tolls):
                assert gain == 0
            else:
                assert gain == -e["points"][mover]
    for p in state.passage_log:
        limits = [p["limits"][c] for c in state.role_colours]
        assert max(limits) >= rs.limit, "a passage ends only at the limit"
        due = [max(limits) - v if v < rs.limit else 0 for v in limits]
        assert [p["bonus"][c] for c in state.role_colours] == due
    assert len(state.passage_log) == rs.passages


def play_checked(name: str, seed: int, heuristic: bool = False, every: bool = True) -> BoardState:
    state = GAME.new_game(GAME.ruleset(name), seed)
    assert isinstance(state, BoardState)
    bot_kind: Any = HeuristicBot if heuristic else RandomBot
    bots = [bot_kind(seed * 31 + i) for i in range(state.ruleset.seats)]
    for _ in range(GAME.info.max_actions):
        seat = state.to_act()
        if seat is None:
            break
        state.apply_unchecked(seat, bots[seat].choose(state, seat))
        if every:
            check_invariants(state)
    assert state.is_over()
    check_invariants(state)
    check_score_log(state)
    return state


def replays_the_same(state: BoardState) -> None:
    """The record validates, gives the same outcome, and a checked replay writes it back."""
    record = json.loads(json.dumps(state.to_record()))
    verdict = GAME.validate(record)
    assert verdict.valid, verdict.to_json()["violations"][:3]
    assert verdict.complete and verdict.outcome == state.outcome()
    assert GAME.score(state.summary()).result == state.outcome().detail
    replayed = GAME.start(record)
    for raw in record["actions"]:
        seat, action = GAME.decode_step(raw, "actions")
        replayed.apply(seat, action)
    assert replayed.to_record() == record


def position(name: str, spec: dict[str, Any], seed: int = 0) -> BoardState:
    """A game of ruleset ``name`` set to a position written by hand.

    ``spec``: ``cubes`` {district: [per colour]}, ``bridges`` [[a, b, owner]...], ``doge``,
    ``score`` [per colour], and ``hand`` {"colour": c, "cards": [card names]}: that colour
    holds these action cards and is carrying them out. Supplies follow from the rest.
    """
    from games.sanmarco.board import DISTRICTS
    from games.sanmarco.cards import CARD_NAMES
    from games.sanmarco.flow import Pair

    state = GAME.new_game(GAME.ruleset(name), seed)
    assert isinstance(state, BoardState)
    n = len(state.kinds)
    if "cubes" in spec:
        state.cubes = [list(spec["cubes"].get(d, [0] * n)) for d in DISTRICTS]
    if "bridges" in spec:
        state.bridges = [
            [state.board.site_index(DISTRICTS.index(a), DISTRICTS.index(b)), o]
            for a, b, o in spec["bridges"]
        ]
    for c, kind in enumerate(state.kinds):
        total = NEUTRAL_CUBES if kind == NEUTRAL else CUBES
        used = sum(state.cubes[d][c] for d in range(6))
        state.supply[c] = total - used - sum(1 for _, o in state.bridges if o == c)
    if "supply" in spec:
        state.supply = list(spec["supply"])
    if "doge" in spec:
        state.doge = DISTRICTS.index(spec["doge"])
    if "score" in spec:
        state.score = list(spec["score"])
        state.score_log = [{"why": "position", "passage": 1, "points": list(spec["score"])}]
    if "limits" in spec:
        state.limits = [list(x) for x in spec["limits"]]
    hands = spec.get("hands", [spec["hand"]] if "hand" in spec else [])
    if hands:
        piles = [sorted(CARD_NAMES.index(x) for x in h["cards"]) for h in hands]
        colours = [h["colour"] for h in hands]
        state.phase = Phase.RESOLVE
        state.pending = None
        state.pairs = [Pair(colours[-1], colours[:-1], 0, 0)]
        state.piles = piles
        state.taken = colours
        state.holders = list(colours)
        state.holding = list(piles[0])
    return state
