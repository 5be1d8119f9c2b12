"""Er Giò's declaration and factories (see docs/rules/ergio.md and docs/notation/ergio.md)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from games.core import Choice, Game, GameInfo, RecordError, ScoreReport, Text, read, rng
from games.core.declare import Figure, Shape, SummaryForm, record_shape
from games.core.rng import shuffle
from games.ergio import actions as A
from games.ergio import cards as C
from games.ergio.battle import BELLA_SUMS, TIE_ORDERS
from games.ergio.bots import HeuristicBot, strong_bot
from games.ergio.guide import GUIDE
from games.ergio.rules import BOOK, RULE_CLAIMED, RULE_GAME_OVER, RULE_IMPOSSIBLE, SLUG
from games.ergio.ruleset import ErGioRuleset
from games.ergio.scoring import outcome_of, score_summary
from games.ergio.state import ErGioState

JSON = Any
#: each side's deck in its fixed order, without and with the specials
_DECKS: dict[bool, tuple[tuple[int, ...], tuple[int, ...]]] = {
    specials: (tuple(C.deck(0, specials)), tuple(C.deck(1, specials))) for specials in (False, True)
}


class ErGio(Game[ErGioRuleset, ErGioState, A.Action]):
    info: ClassVar[GameInfo] = GameInfo(
        slug=SLUG,
        name=Text("Er Giò", "Er Giò"),
        points=Text("Scontri vinti", "Scontri won"),
        seat_counts=(2, 4, 6),
        max_actions=20_000,
        hidden_information=True,
        chance=True,
        sides=C.SIDES,
        description=Text(
            "Il gioco di carte del Gioco del Ponte: Corteo Storico, poi sei scontri sul "
            "Ponte di Mezzo.",
            "The card game of Pisa's Gioco del Ponte: the Corteo Storico, then six scontri "
            "on the Ponte di Mezzo.",
        ),
    )
    rules = BOOK
    guide = GUIDE
    # Match points rank first, scontri won next; a level match is three scontri each.
    standings_defaults: ClassVar[Mapping[str, Any] | None] = {
        "win": "2",
        "draw": "1",
        "loss": "0",
        "order": ["match_points", "points", "wins"],
    }
    artificial_scores: ClassVar[tuple[str, str, str] | None] = ("3.60", "3", "2.40")
    turn_rule: ClassVar[str | None] = "ergio.turn.order"
    # A player's own figures (their statistics page): scontri won of those played, and the
    # games that went to the Bella Nazionale.
    figures: ClassVar[tuple[Figure, ...]] = (
        Figure("scontri_won", Text("Scontri vinti", "Scontri won")),
        Figure(
            "scontri_won_share",
            Text("Scontri vinti sul totale", "Share of scontri won"),
            kind="percent",
            of="scontri",
        ),
        Figure("scontri", Text("Scontri giocati", "Scontri played")),
        Figure("bella", Text("Partite alla Bella Nazionale", "Games to the Bella Nazionale")),
        Figure(
            "bella_won",
            Text("Belle Nazionali vinte", "Bella Nazionale won"),
            kind="percent",
            of="bella",
        ),
    )
    rulesets: ClassVar[Mapping[str, ErGioRuleset]] = {
        "base": ErGioRuleset("base", 2),
        "advanced": ErGioRuleset("advanced", 2, advanced=True),
        "ragazzi": ErGioRuleset("ragazzi", 2, turn_draw=3, hand_limit=0),
        "4p": ErGioRuleset("4p", 4, advanced=True, hand_size=9, hand_limit=9, battle_draw=1),
        "6p": ErGioRuleset("6p", 6, advanced=True, hand_size=7, hand_limit=7, battle_draw=1),
    }
    default_ruleset = "base"
    ruleset_labels: ClassVar[Mapping[str, Text]] = {
        "base": Text("Gioco base", "Base game"),
        "advanced": Text(
            "Gioco avanzato (con le carte speciali)", "Advanced game (with the special cards)"
        ),
        "ragazzi": Text(
            "Per ragazzi (3 carte a turno, nessun limite di mano)",
            "For youngsters (3 cards a turn, no hand limit)",
        ),
        "4p": Text("A squadre, 4 giocatori", "In teams, 4 players"),
        "6p": Text("A squadre, 6 giocatori", "In teams, 6 players"),
    }
    summary_examples = (
        {
            "corteo_winner": "tramontana",
            "scontri": [
                {
                    "challenger": side,
                    "tramontana": {"magistratura": t, "force": tf, "figures": list(tfig)},
                    "mezzogiorno": {"magistratura": m, "force": mf, "figures": list(mfig)},
                }
                for side, t, tf, tfig, m, mf, mfig in (
                    ("tramontana", "santa_maria", 21, ["capitano"], "dragoni", 18, ["magistrato"]),
                    ("tramontana", "calci", 14, ["caposchiera"], "leoni", 14, ["magistrato"]),
                    ("mezzogiorno", "satiri", 16, [], "delfini", 20, ["magistrato"]),
                    ("mezzogiorno", "san_michele", 12, [], "san_marco", 12, []),
                    ("mezzogiorno", "mattaccini", 20, ["magistrato"], "san_martino", 9, []),
                    ("tramontana", "san_francesco", 17, [], "sant_antonio", 16, []),
                )
            ],
        },
    )
    bots: ClassVar[Mapping[str, Any]] = {"heuristic": HeuristicBot, "strong": strong_bot}
    rule_game_over = RULE_GAME_OVER
    rule_impossible = RULE_IMPOSSIBLE
    rule_claimed_score = RULE_CLAIMED

    def check_ruleset(self, ruleset: ErGioRuleset) -> None:
        read.one_of(ruleset.tie_order, TIE_ORDERS, "ruleset.tie_order")
        read.one_of(ruleset.bella_sums, BELLA_SUMS, "ruleset.bella_sums")
        read.one_of(ruleset.dry_corteo, ("most_complete", "laid_force"), "ruleset.dry_corteo")
        read.side(ruleset.first_side, "ruleset.first_side")
        for name in ("turn_draw", "hand_size", "battle_draw", "max_turns"):
            if getattr(ruleset, name) < (1 if name == "max_turns" else 0):
                raise RecordError("expected a positive number", path=f"ruleset.{name}")
        deck = 77 if ruleset.advanced else 72
        if ruleset.hand_size * (ruleset.seats // 2) > deck:
            raise RecordError("the deck cannot deal that many cards", path="ruleset.hand_size")

    @staticmethod
    def deck_of(ruleset: ErGioRuleset, side: int) -> list[int]:
        return list(_DECKS[ruleset.advanced][side])

    def new_game(self, ruleset: ErGioRuleset, seed: int) -> ErGioState:
        decks = []
        for side in (0, 1):
            deck = self.deck_of(ruleset, side)
            shuffle(rng(seed, "deck", side), deck)
            decks.append(deck)
        return ErGioState(ruleset, (decks[0], decks[1]), seed)

    def start_record(self, record: Mapping[str, JSON]) -> ErGioState:
        ruleset = self.ruleset(record.get("ruleset"))
        seed = read.seed(record)
        deal = record.get("deal")
        if deal is None:
            if seed is None:
                raise RecordError(
                    "a record needs its deal (or the seed that dealt it)", path="deal"
                )
            return self.new_game(ruleset, seed)
        deal = read.obj(deal, "deal", 'expected {"tramontana": [...], "mezzogiorno": [...]}')
        if "battle" in deal:
            return ErGioState.at_battle(ruleset, self.position(ruleset, deal["battle"]), seed)
        decks: list[list[int]] = []
        for side, name in enumerate(C.SIDES):
            path = f"deal.{name}"
            wording = "expected the deck, top card first, as card codes"
            raw = read.list_of(deal.get(name), path, wording)
            deck = A.cards(raw, path)
            if sorted(deck) != self.deck_of(ruleset, side):  # the deck in order is sorted
                expected = Counter(self.deck_of(ruleset, side))
                diff = (Counter(deck) - expected) + (expected - Counter(deck))
                names = ", ".join(sorted({C.CODES[t] for t in diff}))
                raise RecordError(
                    f"not the {name} deck of this ruleset ({sum(expected.values())} cards); "
                    f"check {names}",
                    path=path,
                )
            decks.append(deck)
        return ErGioState(ruleset, (decks[0], decks[1]), seed)

    def position(self, ruleset: ErGioRuleset, raw: Any) -> dict[str, JSON]:
        """A match's position at the start of its battle, checked: the Corteo's winner and,
        per side, the cards laid in its Corteo, its hand, and the cards drawn after the
        scontri in the order drawn. Every card belongs to its side's deck and no card is
        counted more often than the deck holds it (the armed groups six times)."""
        path = "deal.battle"
        if not isinstance(raw, Mapping):
            raise RecordError(
                'expected {"corteo_winner": ..., "tramontana": {...}, "mezzogiorno": {...}}',
                path=path,
            )
        winner = C.SIDES[read.side(raw.get("corteo_winner"), f"{path}.corteo_winner")]
        out: dict[str, JSON] = {"corteo_winner": winner}
        for side, name in enumerate(C.SIDES):
            mine = raw.get(name)
            if not isinstance(mine, Mapping):
                raise RecordError(
                    'expected {"corteo": [...], "hand": [...], "drawn": [...]}',
                    path=f"{path}.{name}",
                )
            deck = Counter(self.deck_of(ruleset, side))
            seen: Counter[int] = Counter()
            places: dict[str, JSON] = {}
            for place in ("corteo", "hand", "drawn"):
                where = f"{path}.{name}.{place}"
                cards = mine.get(place, [])
                for i, card in enumerate(A.cards(cards, where)):
                    if card not in deck:
                        raise RecordError(
                            f"{C.CODES[card]} is not a card of the {name} deck of this ruleset",
                            path=f"{where}[{i}]",
                        )
                    seen[card] += 1
                    if seen[card] > deck[card]:
                        raise RecordError(
                            f"{C.CODES[card]} is counted more often than the deck holds it "
                            f"({deck[card]})",
                            path=f"{where}[{i}]",
                        )
                places[place] = [str(c) for c in cards]
            if read.flag(mine.get("dry", False), f"{path}.{name}.dry"):
                places["dry"] = True
            out[name] = places
        return out

    def encode_action(self, action: Any) -> dict[str, JSON]:
        return A.encode(action)

    def decode_action(self, data: Any, path: str = "actions") -> A.Action:
        return A.decode(data, path)

    def choices(self, field: str, ruleset: ErGioRuleset | None = None) -> tuple[Choice, ...]:
        """``magistratura``: the twelve, six a side (their names are the game's own words)."""
        if field != "magistratura":
            return super().choices(field, ruleset)
        from games.ergio.form import magistrature

        return magistrature(0) + magistrature(1)

    def chance_steps(
        self, record: Mapping[str, Any], lang: str, names: Sequence[str] | None = None
    ) -> list[dict[str, Any]]:
        """The hands dealt and the cards drawn; a card a special card lets its player pick
        (the Trombettiere's from the deck, the Tamburino's from the Arno, the Luogotenente's
        from the field) is said as taken, since no chance brought it."""
        from games.core.engine import hands_dealt

        def chosen(action: Any) -> list[str]:
            if isinstance(action, A.Special) and action.target != A.NO:
                return [C.CODES[action.target]]
            return []

        return hands_dealt(self, record, lang, names, chosen=chosen)

    def step_groups(self, actions: Sequence[Mapping[str, Any]], lang: str) -> list[str]:
        """The corteo, then each scontro (two sends each)."""
        out, sends = [], 0
        for raw in actions:
            if "send" in raw:
                sends += 1
            out.append("Corteo" if sends == 0 else f"Scontro {(sends - 1) // 2 + 1}")
        return out

    def player_figures(self, outcome: Mapping[str, JSON], seat: int) -> dict[str, float]:
        """The scontri the seat's side won and played, and a game gone to the Bella
        Nazionale (won or not), read from the Outcome."""
        detail, sides = outcome.get("detail"), outcome.get("sides")
        if not isinstance(detail, Mapping) or not isinstance(sides, list) or seat >= len(sides):
            return {}
        mine = C.SIDES[sides[seat]]
        scontri = [s for s in detail.get("scontri") or [] if isinstance(s, Mapping)]
        won = float(sum(1 for s in scontri if s.get("winner") == mine))
        out = {"scontri": float(len(scontri)), "scontri_won": won, "scontri_won_share": won}
        if outcome.get("termination") == "bella_nazionale":
            winners = outcome.get("winners")
            out["bella"] = 1.0
            out["bella_won"] = 1.0 if isinstance(winners, list) and seat in winners else 0.0
        return out

    def describe(
        self, outcome: Mapping[str, JSON], lang: str, names: Sequence[str] | None = None
    ) -> list[str]:
        """The result's declared facts in words (games/ergio/words.py)."""
        from games.ergio.words import describe

        detail = outcome.get("detail")
        return describe(detail if isinstance(detail, Mapping) else None, lang, names)

    def summary_form(self, ruleset: ErGioRuleset) -> SummaryForm:
        """The Corteo Storico, then a row per scontro (games/ergio/form.py)."""
        from games.ergio.form import summary_form

        return summary_form(ruleset)

    def summary_shape(self) -> Shape:
        """The summary's JSON (games/ergio/form.py)."""
        from games.ergio.form import SHAPE

        return SHAPE

    def record_shape(self) -> Shape:
        """A whole match's record as JSON (games/ergio/notation.py)."""
        from games.ergio.notation import ACTIONS, DEAL

        return record_shape(SLUG, self.info.name, deal=DEAL, actions=ACTIONS)

    def score_summary(self, summary: Mapping[str, JSON], ruleset: ErGioRuleset) -> ScoreReport:
        result, found = score_summary(
            summary,
            ruleset.tie_order,
            ruleset.bella_sums,
            ruleset.effects,
            ruleset.seats,
            specials=ruleset.advanced,
            all_six=ruleset.all_six,
        )
        outcome = outcome_of(result, ruleset.seats) if result is not None and not found else None
        return ScoreReport(SLUG, result, tuple(found), outcome)
