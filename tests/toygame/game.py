"""Carta alta's rules, state and declaration (see the package's docstring)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from games.core import (
    Game,
    GameInfo,
    Outcome,
    RecordError,
    RuleBook,
    Ruleset,
    ScoreReport,
    State,
    Text,
    Violation,
    places_by,
    rng,
    violation,
)
from games.core.declare import Field, FormProblem, SummaryForm, Values
from games.core.rng import shuffle
from games.core.verdict import JSON

SLUG = "cartaalta"
CARDS = tuple(str(n) for n in range(1, 13))
IN_HAND = 2
BOOK = RuleBook(
    SLUG,
    {
        "cartaalta.turn.order": ("Si gioca al proprio turno.", "One plays on one's own turn."),
        "cartaalta.card.held": (
            "Si gioca una carta che si ha in mano.",
            "One plays a card one holds.",
        ),
        "cartaalta.summary.cards": (
            "Ogni posto ha giocato una carta diversa, da 1 a 12.",
            "Each seat played a different card, from 1 to 12.",
        ),
        "cartaalta.game_over": ("La partita è finita.", "The game is over."),
        "cartaalta.impossible": ("Mossa impossibile.", "Impossible move."),
        "cartaalta.claimed": ("Punteggio scritto diverso.", "Another score written."),
    },
)


@dataclass(frozen=True)
class CartaAltaRuleset(Ruleset):
    pass


def _outcome(cards: Sequence[int]) -> Outcome:
    best = max(cards)
    winners = tuple(seat for seat, c in enumerate(cards) if c == best)
    return Outcome(tuple(cards), "played", winners, {"cards": list(cards)}, places_by(cards))


class CartaAltaState(State):
    def __init__(self, ruleset: CartaAltaRuleset, hands: list[list[str]]) -> None:
        self.ruleset = ruleset
        self.hands = hands
        self.dealt = [list(h) for h in hands]
        self.played: list[str | None] = [None] * ruleset.seats

    def to_act(self) -> int | None:
        return None if self.is_over() else self.played.index(None)

    def legal_actions(self, seat: int) -> Sequence[Any]:
        return tuple(self.hands[seat]) if seat == self.to_act() else ()

    def check(self, seat: int, action: Any) -> list[Violation]:
        found = []
        if seat != self.to_act():
            found.append(violation(BOOK, "cartaalta.turn.order", seat=seat))
        if not 0 <= seat < len(self.hands) or action not in self.hands[seat]:
            found.append(violation(BOOK, "cartaalta.card.held", seat=seat))
        return found

    def apply_unchecked(self, seat: int, action: Any) -> None:
        if self.is_over() or not 0 <= seat < len(self.hands) or action not in self.hands[seat]:
            raise RecordError(f"seat {seat} cannot play {action!r}")
        self.hands[seat].remove(action)
        self.played[seat] = action

    def is_over(self) -> bool:
        return None not in self.played

    def outcome(self) -> Outcome:
        if not self.is_over():
            raise ValueError("the game is not over")
        return _outcome([int(c) for c in self.played if c is not None])

    def view(self, seat: int | None) -> dict[str, JSON]:
        out: dict[str, JSON] = {
            "to_act": self.to_act(),
            "played": list(self.played),
            "hand_sizes": [len(h) for h in self.hands],
        }
        if seat is not None and 0 <= seat < len(self.hands):
            out["hand"] = list(self.hands[seat])
        return out

    def to_record(self) -> dict[str, JSON]:
        actions: list[JSON] = [
            {"seat": seat, "play": card}
            for seat, card in enumerate(self.played)
            if card is not None
        ]
        return {
            "game": SLUG,
            "ruleset": self.ruleset.to_json(),
            "deal": [list(h) for h in self.dealt],
            "actions": actions,
        }

    def summary(self) -> dict[str, JSON]:
        return {"cards": [int(c) for c in self.played if c is not None]}


class HighestBot:
    """Plays its highest card."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def choose(self, state: Any, seat: int) -> Any:
        return max(state.legal_actions(seat), key=int)


def _form(seats: int) -> SummaryForm:
    fields = tuple(
        Field(
            f"card{seat}",
            Text("Carta di {name}", "{name}'s card"),
            required=True,
            minimum=1,
            maximum=12,
            seat=seat,
            paths=(f"cards[{seat}]",),
        )
        for seat in range(seats)
    )

    def build(values: Values) -> dict[str, Any]:
        cards = [values.get(f"card{seat}") for seat in range(seats)]
        if any(c is None for c in cards):
            raise FormProblem(Text("Scrivi la carta di ogni posto.", "Write every seat's card."))
        return {"cards": cards}

    def read(summary: Mapping[str, Any]) -> dict[str, Any] | None:
        cards = summary.get("cards")
        if not isinstance(cards, list) or len(cards) != seats:
            return None
        return {f"card{seat}": c for seat, c in enumerate(cards)}

    return SummaryForm(fields, build, read)


class CartaAlta(Game[CartaAltaRuleset, CartaAltaState]):
    info: ClassVar[GameInfo] = GameInfo(
        slug=SLUG,
        name=Text("Carta alta (gioco di prova)", "Highest card wins (a toy game)"),
        short_name=Text("Carta alta", "Highest card"),
        points=Text("Valore giocato", "Card value"),
        seat_counts=(2, 3, 4),
        max_actions=4,
        hand=Text("mano", "hand"),
        hands=Text("mani", "hands"),
        description=Text("Vince la carta più alta.", "The highest card wins."),
    )
    rules = BOOK
    rulesets: ClassVar[Mapping[str, CartaAltaRuleset]] = {
        f"{n}p": CartaAltaRuleset(f"{n}p", n) for n in (2, 3, 4)
    }
    default_ruleset = "2p"
    ruleset_labels: ClassVar[Mapping[str, Text]] = {
        f"{n}p": Text(f"In {n} giocatori", f"{n} players") for n in (2, 3, 4)
    }
    bots: ClassVar[Mapping[str, Any]] = {"heuristic": HighestBot}
    summary_examples = ({"cards": [9, 4]}, {"cards": [2, 11]})
    standings_defaults: ClassVar[Mapping[str, Any] | None] = {
        "win": "3",
        "draw": "1",
        "loss": "0",
        "order": ["match_points", "points", "wins"],
    }
    artificial_scores: ClassVar[tuple[str, str, str] | None] = ("8", "6.5", "5")
    turn_rule: ClassVar[str | None] = "cartaalta.turn.order"
    rule_game_over = "cartaalta.game_over"
    rule_impossible = "cartaalta.impossible"
    rule_claimed_score = "cartaalta.claimed"

    def new_game(self, ruleset: CartaAltaRuleset, seed: int) -> CartaAltaState:
        deck = list(CARDS)
        shuffle(rng(seed, SLUG), deck)
        hands = [deck[IN_HAND * s : IN_HAND * (s + 1)] for s in range(ruleset.seats)]
        return CartaAltaState(ruleset, hands)

    def start_record(self, record: Mapping[str, JSON]) -> CartaAltaState:
        ruleset = self.ruleset(record.get("ruleset"))
        deal = record.get("deal")
        if (
            not isinstance(deal, list)
            or len(deal) != ruleset.seats
            or any(not isinstance(h, list) or len(h) != IN_HAND for h in deal)
        ):
            raise RecordError(f"expected {IN_HAND} cards for each seat", path="deal")
        cards = [c for h in deal for c in h]
        if any(c not in CARDS for c in cards) or len(set(cards)) != len(cards):
            raise RecordError("expected different cards from 1 to 12", path="deal")
        return CartaAltaState(ruleset, [list(h) for h in deal])

    def encode_action(self, action: Any) -> dict[str, JSON]:
        return {"play": str(action)}

    def decode_action(self, data: Any, path: str = "actions") -> Any:
        card = data.get("play") if isinstance(data, Mapping) else None
        if card not in CARDS:
            raise RecordError("expected a card from 1 to 12", path=path)
        return card

    def summary_form(self, ruleset: CartaAltaRuleset) -> SummaryForm | None:
        return _form(ruleset.seats)

    def ruleset_named_by(self, summary: Mapping[str, JSON]) -> str | None:
        cards = summary.get("cards")
        name = f"{len(cards)}p" if isinstance(cards, list) else None
        return name if name in self.rulesets else None

    def score_summary(self, summary: Mapping[str, JSON], ruleset: CartaAltaRuleset) -> ScoreReport:
        cards = summary.get("cards")
        if not isinstance(cards, list) or len(cards) != ruleset.seats:
            raise RecordError(f"expected {ruleset.seats} cards", path="cards")
        if any(
            isinstance(c, bool) or not isinstance(c, int) or not 1 <= c <= 12 for c in cards
        ) or len(set(cards)) != len(cards):
            found = violation(BOOK, "cartaalta.summary.cards", field="cards")
            return ScoreReport(SLUG, None, (found,))
        return ScoreReport(SLUG, {"cards": list(cards)}, (), _outcome(cards))

    def describe(
        self, outcome: Mapping[str, JSON], lang: str, names: Sequence[str] | None = None
    ) -> list[str]:
        detail = outcome.get("detail")
        cards = detail.get("cards") if isinstance(detail, Mapping) else None
        if not isinstance(cards, list):
            return []
        out = []
        for seat, card in enumerate(cards):
            who = names[seat] if names and seat < len(names) else str(seat + 1)
            out.append(f"{who} gioca il {card}" if lang == "it" else f"{who} played the {card}")
        return out

    def step_groups(self, actions: Sequence[Mapping[str, JSON]], lang: str) -> list[str]:
        return ["Giro di carte" if lang == "it" else "The round of cards" for _a in actions]


GAME = CartaAlta()
