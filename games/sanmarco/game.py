"""San Marco's declaration and factories: the board game (base 3-4 players, the three
two-player variants) and the two-player scoring round (see docs/rules/sanmarco.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from games.core import Choice, Game, GameInfo, RecordError, ScoreReport, Text, rng
from games.core.declare import Figure, Shape, SummaryForm, record_shape
from games.sanmarco.actions import Act, decode, encode
from games.sanmarco.board import parse_board
from games.sanmarco.bots import BoardBot
from games.sanmarco.flow import MODES
from games.sanmarco.flow import Termination as BoardTermination
from games.sanmarco.guide import GUIDE
from games.sanmarco.rules import BOOK, RULE_CLAIMED, RULE_GAME_OVER, RULE_IMPOSSIBLE, SLUG
from games.sanmarco.scoring import MAX_POINTS, outcome_of, score_summary
from games.sanmarco.state import (
    DEFAULT_COLOURS,
    SLOTS,
    BoardRuleset,
    Enter,
    SanMarcoRuleset,
    ScoringRound,
    Termination,
)
from games.sanmarco.table import BoardState, presets
from games.sanmarco.table import start_board as board_from_deal

JSON = Any


class HeuristicBot:
    """On the board: ``BoardBot``. In the scoring round: a plausible prestige total (a San
    Marco colour usually ends between 40 and 90)."""

    def __init__(self, seed: int) -> None:
        self._rng = rng(seed, "sanmarco-heuristic")
        self._board = BoardBot(seed)

    def choose(self, state: Any, seat: int) -> Any:
        if isinstance(state, BoardState):
            return self._board.choose(state, seat)
        actions = state.legal_actions(seat)
        if not actions:
            raise RuntimeError(f"seat {seat} has no legal action")
        points = min(self._rng.randint(40, 90), len(actions) - 1)
        return actions[points]

    def why(self, state: Any, seat: int, action: Any) -> Any:
        """On the board, ``BoardBot``'s reason for its move (none in the scoring round)."""
        return self._board.why(state, seat, action) if isinstance(state, BoardState) else None


class SanMarco(Game[SanMarcoRuleset | BoardRuleset, ScoringRound | BoardState, Enter | Act]):
    info: ClassVar[GameInfo] = GameInfo(
        slug=SLUG,
        name=Text("San Marco", "San Marco"),
        points=Text("Punteggio", "Score"),
        seat_counts=(2, 3, 4),
        max_actions=6000,
        hidden_information=True,
        chance=True,
        description=Text(
            "Il gioco da tavolo per 3-4 giocatori, le tre varianti a due e il turno di "
            "punteggio finale delle varianti.",
            "The board game for 3-4 players, the three two-player variants and the variants' "
            "final scoring round.",
        ),
    )
    rules = BOOK
    guide = GUIDE
    # The final scores rank first, games won next.
    standings_defaults: ClassVar[Mapping[str, Any] | None] = {
        "win": "1",
        "draw": "0.5",
        "loss": "0",
        "order": ["points", "wins"],
    }
    turn_rule: ClassVar[str | None] = "sanmarco.entry.turn"
    # A player's own figures (their statistics page): the prestige of their colours in the
    # scoring round.
    figures: ClassVar[tuple[Figure, ...]] = (
        Figure(
            "prestige",
            Text("Prestigio medio per colore", "Average prestige per colour"),
            kind="ratio",
            of="colours",
        ),
        Figure("colours", Text("Colori contati", "Colours counted")),
    )
    rulesets: ClassVar[Mapping[str, Any]] = {
        "variant3": SanMarcoRuleset("variant3", 2, variant=3),
        "variant1": SanMarcoRuleset("variant1", 2, variant=1),
        "variant2": SanMarcoRuleset("variant2", 2, variant=2),
        **presets(),
    }
    default_ruleset = "variant3"
    ruleset_labels: ClassVar[Mapping[str, Text]] = {
        "variant3": Text(
            "Variante 3 a due: si scrive solo il conto finale",
            "Two-player variant 3: the final count only",
        ),
        "variant1": Text(
            "Variante 1 a due: si scrive solo il conto finale",
            "Two-player variant 1: the final count only",
        ),
        "variant2": Text(
            "Variante 2 a due: si scrive solo il conto finale",
            "Two-player variant 2: the final count only",
        ),
        "base3": Text("Gioco base sul tabellone", "Base game on the board"),
        "base4": Text("Gioco base sul tabellone", "Base game on the board"),
        "variant1-board": Text(
            "Variante 1 a due, sul tabellone", "Two-player variant 1, on the board"
        ),
        "variant2-board": Text(
            "Variante 2 a due, sul tabellone", "Two-player variant 2, on the board"
        ),
        "variant3-board": Text(
            "Variante 3 a due, sul tabellone", "Two-player variant 3, on the board"
        ),
    }
    summary_examples = ({"variant": 3, "points": [[55, 66], [57, 61]]},)
    bots: ClassVar[Mapping[str, Any]] = {"heuristic": HeuristicBot}
    rule_game_over = RULE_GAME_OVER
    rule_impossible = RULE_IMPOSSIBLE
    rule_claimed_score = RULE_CLAIMED

    def to_play_on(self, record: Mapping[str, Any], seed: int) -> dict[str, Any]:
        """A board game typed from a table (its chance written, no seed): the chance past
        what is written drawn from ``seed`` (the deal's ``then_seed``)."""
        out = dict(record)
        deal = out.get("deal")
        if isinstance(deal, Mapping) and "chance" in deal and deal.get("seed") is None:
            out["deal"] = {**deal, "then_seed": seed}
        return out

    def chance_steps(
        self, record: Mapping[str, Any], lang: str, names: Sequence[str] | None = None
    ) -> list[dict[str, Any]]:
        """The board's dice, role draws and cards drawn (games/sanmarco/tabledeal.py)."""
        from games.sanmarco import tabledeal

        return tabledeal.chance_steps(record, lang, names)

    def check_ruleset(self, ruleset: Any) -> None:
        if isinstance(ruleset, BoardRuleset):
            self._check_board_ruleset(ruleset)
            return
        if ruleset.variant not in SLOTS:
            raise RecordError("expected 1, 2 or 3", path="ruleset.variant")
        if ruleset.max_points < 0:
            raise RecordError("expected zero or more", path="ruleset.max_points")

    def _check_board_ruleset(self, rs: BoardRuleset) -> None:
        choices = {
            "mode": MODES,
            "three_player_deal": ("6+4", "5+3"),
            "passage_bonus": ("all_below", "lowest_only"),
            "free_banish_ties": ("all", "none"),
            "ghost_cubes": ("one_per_hand", "two_per_hand"),
        }
        for name, allowed in choices.items():
            if getattr(rs, name) not in allowed:
                raise RecordError(f"expected one of {', '.join(allowed)}", path=f"ruleset.{name}")
        seats = {"base": (3, 4), "variant1": (2,), "variant2": (2,), "variant3": (2,)}
        if rs.seats not in seats[rs.mode]:
            raise RecordError("this mode is for another number of seats", path="ruleset.mode")
        if not 0 <= rs.start_bridges <= 3:
            raise RecordError("expected 0 to 3", path="ruleset.start_bridges")
        if not 1 <= rs.limit <= 58:
            raise RecordError("expected 1 to 58", path="ruleset.limit")
        if not 1 <= rs.passages <= 9:
            raise RecordError("expected 1 to 9", path="ruleset.passages")
        if rs.board is not None:
            parse_board(rs.board, "ruleset.board")

    def new_game(self, ruleset: Any, seed: int) -> Any:
        if isinstance(ruleset, BoardRuleset):
            return BoardState(ruleset, seed)
        return ScoringRound(ruleset, DEFAULT_COLOURS[ruleset.variant])

    def start_record(self, record: Mapping[str, JSON]) -> Any:
        ruleset = self.ruleset(record.get("ruleset"))
        deal = record.get("deal")
        if isinstance(ruleset, BoardRuleset):
            return board_from_deal(ruleset, {"chance": {}} if deal is None else deal)
        if deal is None:
            return self.new_game(ruleset, 0)
        if not isinstance(deal, Mapping) or not isinstance(deal.get("colours"), list):
            raise RecordError('expected {"colours": [[...], [...]]}', path="deal")
        raw = deal["colours"]
        slots = SLOTS[ruleset.variant]
        if len(raw) != 2 or any(
            not isinstance(c, list) or len(c) != slots or not all(isinstance(x, str) for x in c)
            for c in raw
        ):
            raise RecordError(
                f"expected two seats, each a list of {slots} colour names", path="deal.colours"
            )
        return ScoringRound(ruleset, tuple(tuple(c) for c in raw))

    def encode_action(self, action: Any) -> dict[str, JSON]:
        if isinstance(action, Act):
            return encode(action)
        return {"colour": action.colour, "points": action.points}

    def decode_action(self, data: Any, path: str = "actions") -> Enter | Act:
        if isinstance(data, Mapping) and "do" in data:
            return decode(data, path)
        if not isinstance(data, Mapping):
            raise RecordError('expected {"colour": i, "points": n}', path=path)
        values = []
        for key in ("colour", "points"):
            v = data.get(key)
            if isinstance(v, bool) or not isinstance(v, int):
                raise RecordError(f"expected a whole number for {key!r}", path=f"{path}.{key}")
            values.append(v)
        return Enter(values[0], values[1])

    def choices(self, field: str, ruleset: Any = None) -> tuple[Choice, ...]:
        """``colour``: each seat's colours in a two-player variant's scoring round, in the
        order the summary writes their points."""
        if field != "colour" or ruleset is None:
            return super().choices(field, ruleset)
        if isinstance(ruleset, BoardRuleset):
            if ruleset.mode == "base":
                return ()
            variant = int(ruleset.mode.removeprefix("variant"))
        else:
            variant = ruleset.variant
        return tuple(
            Choice(colour, Text(colour, colour), seat=seat)
            for seat, colours in enumerate(DEFAULT_COLOURS[variant])
            for colour in colours
        )

    def player_figures(self, outcome: Mapping[str, JSON], seat: int) -> dict[str, float]:
        """The prestige points of the seat's colours in the scoring round, read from the
        Outcome."""
        detail = outcome.get("detail")
        players = detail.get("players") if isinstance(detail, Mapping) else None
        if not isinstance(players, list) or seat >= len(players):
            return {}
        mine = players[seat]
        colours = mine.get("colours") if isinstance(mine, Mapping) else None
        if not isinstance(colours, list) or not colours:
            return {}
        points = [c for c in colours if isinstance(c, int)]
        return {"prestige": float(sum(points)), "colours": float(len(points))}

    def describe(
        self, outcome: Mapping[str, JSON], lang: str, names: Sequence[str] | None = None
    ) -> list[str]:
        """The result's declared facts in words (games/sanmarco/words.py)."""
        from games.sanmarco.words import describe

        detail = outcome.get("detail")
        return describe(detail if isinstance(detail, Mapping) else None, lang, names)

    def summary_form(self, ruleset: Any) -> SummaryForm | None:
        """The points of each colour as the ruleset's variant writes them
        (games/sanmarco/form.py); none for the board game's base mode."""
        from games.sanmarco.form import summary_form

        if isinstance(ruleset, BoardRuleset):
            if not ruleset.mode.startswith("variant"):
                return None
            variant = int(ruleset.mode.removeprefix("variant"))
        else:
            variant = ruleset.variant
        return summary_form(variant, self.choices("colour", ruleset), ruleset.seats)

    def summary_shape(self) -> Shape:
        """The summary's JSON (games/sanmarco/form.py)."""
        from games.sanmarco.form import SHAPE

        return SHAPE

    def record_shape(self) -> Shape:
        """A whole game's record as JSON, the board game's or the scoring round's
        (games/sanmarco/notation.py)."""
        from games.sanmarco.notation import ACTIONS, DEAL

        return record_shape(SLUG, self.info.name, deal=DEAL, actions=ACTIONS)

    def ruleset_named_by(self, summary: Mapping[str, JSON]) -> str | None:
        variant, players = summary.get("variant"), summary.get("players")
        if isinstance(variant, bool) or isinstance(players, bool):
            return None
        name = f"variant{variant}" if variant is not None else f"base{players}"
        return name if name in self.rulesets else None

    def score_summary(self, summary: Mapping[str, JSON], ruleset: Any) -> ScoreReport:
        if isinstance(ruleset, BoardRuleset):
            mode = ruleset.mode
            variant = 0 if mode == "base" else int(mode.removeprefix("variant"))
            termination = BoardTermination.FINAL_SCORING.value
            cap = MAX_POINTS
        else:
            variant, termination = ruleset.variant, Termination.SCORED.value
            cap = ruleset.max_points
        result, found = score_summary(summary, variant, ruleset.seats, cap)
        outcome = None if found else outcome_of(result, termination)
        return ScoreReport(SLUG, result, tuple(found), outcome)
