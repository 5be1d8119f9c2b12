"""Tarocco Siciliano (Calatafimi)'s declaration and factories (see docs/rules/tarocco.md)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from games.core import Game, GameInfo, RecordError, ScoreReport, Text, read
from games.core.cards import shuffled
from games.core.declare import Figure, Shape, SummaryForm, record_shape
from games.tarocco import cards as C
from games.tarocco.bots import HeuristicBot, strong_bot
from games.tarocco.guide import GUIDE
from games.tarocco.rules import BOOK, RULE_CLAIMED, RULE_GAME_OVER, RULE_IMPOSSIBLE, SLUG
from games.tarocco.scoring import score_summary, summary_outcome
from games.tarocco.state import (
    BIDS,
    DISCARD_LIMITS,
    LAST_TRICK_FOOL,
    SEATS,
    Action,
    Bid,
    Call,
    Declare,
    Discard,
    Play,
    Quindici,
    TaroccoRuleset,
    TaroccoState,
    Venti,
    encode,
)

JSON = Any

DUMMETT = TaroccoRuleset("dummett-mcleod", SEATS)
DOSSENA = TaroccoRuleset(
    "dossena",
    SEATS,
    dealer_sees_bottom=False,  # V1
    abandon_same_dealer=True,  # V2
    dealer_may_solo=False,  # V3
    soloist_shows_monte=False,  # V3
    void_suit_callable=True,  # V4
    oro_breaks_ties=False,  # V5
    queen_skips_bare_king=False,  # V6
    discard_call_declared=True,  # V7: Dossena leaves it implicit; same behaviour
    soloist_leads=True,  # V8
    called_leads_suit=False,  # V9
    signal_both_together=False,  # V10
)
# The points the sources leave open, all set the strict way (a club that plays them so).
STRICT = TaroccoRuleset(
    "strict",
    SEATS,
    must_overtrump=True,
    fuggitivo_may_lead=True,
    fuggitivo_last_trick="kept",
    discard_forbidden="kings_trumps",
    max_offer=8,
    tengo_closes=False,
)


def shuffled_pack(seed: int) -> list[int]:
    """The pack a seed deals: ``rng(seed, "deck").shuffle`` of the cards in order (the core's
    seeded shuffle draws the same, so the deal a digital table's seed commits to never
    changes)."""
    return shuffled(range(C.PACK_SIZE), seed, "deck")


class Tarocco(Game[TaroccoRuleset, TaroccoState, Action]):
    info: ClassVar[GameInfo] = GameInfo(
        slug=SLUG,
        name=Text("Tarocco Siciliano (Calatafimi)", "Sicilian Tarocco (Calatafimi)"),
        short_name=Text("Tarocco Siciliano", "Tarocco Siciliano"),
        points=Text("Punti", "Points"),
        seat_counts=(SEATS,),
        max_actions=100,
        hidden_information=True,
        chance=True,
        sides=("solo", "pairs"),
        hand=Text("smazzata", "hand"),
        hands=Text("smazzate", "hands"),
        zero_sum=True,
        # All but the discard to the monte is made face up or said aloud at the table.
        public_moves=frozenset({"bid", "solo", "call", "play", "venti", "quindici"}),
        description=Text(
            "63 carte, licitazione, solo contro tre o coppie palesi o nascoste; 109 punti.",
            "63 cards, bargaining, solo against three or open or hidden pairs; 109 points.",
        ),
    )
    rules = BOOK
    guide = GUIDE
    # A smazzata is worth a few points either way; the points themselves rank first.
    standings_defaults: ClassVar[Mapping[str, Any] | None] = {
        "win": "1",
        "draw": "0",
        "loss": "0",
        "order": ["points", "wins"],
    }
    artificial_scores: ClassVar[tuple[str, str, str] | None] = ("6", "0", "-6")
    turn_rule: ClassVar[str | None] = "tarocco.turn.order"
    # A player's own figures (their statistics page): solos played, made, and the card
    # points they took as soloist.
    figures: ClassVar[tuple[Figure, ...]] = (
        Figure("solo_hands", Text("Mani da solista", "Hands as soloist")),
        Figure(
            "solo_made",
            Text("Soli riusciti", "Solos made"),
            kind="percent",
            of="solo_hands",
        ),
        Figure(
            "solo_card_points",
            Text("Punti carta medi da solista", "Average card points as soloist"),
            kind="ratio",
            of="solo_hands",
        ),
    )
    rulesets: ClassVar[Mapping[str, TaroccoRuleset]] = {
        DUMMETT.name: DUMMETT,
        DOSSENA.name: DOSSENA,
        STRICT.name: STRICT,
    }
    default_ruleset = DUMMETT.name
    ruleset_labels: ClassVar[Mapping[str, Text]] = {
        DUMMETT.name: Text(
            "Regole di Calatafimi (Dummett e McLeod)", "Calatafimi rules (Dummett and McLeod)"
        ),
        DOSSENA.name: Text(
            "Regole di Dossena (Enciclopedia dei Giochi)",
            "Dossena's rules (Enciclopedia dei Giochi)",
        ),
        STRICT.name: Text(
            "Lettura rigorosa (obbligo di superare a trionfo, offerte fino a 8)",
            "Strict reading (must overtrump, offers up to 8)",
        ),
    }
    summary_examples = (
        {"outcome": "solo", "dealer": 3, "declarer": 0, "card_points": 70},
        {"outcome": "pairs", "dealer": 0, "pair": [1, 3], "card_points": 60},
    )
    bots: ClassVar[Mapping[str, Any]] = {"heuristic": HeuristicBot, "strong": strong_bot}
    rule_game_over = RULE_GAME_OVER
    rule_impossible = RULE_IMPOSSIBLE
    rule_claimed_score = RULE_CLAIMED

    def check_ruleset(self, ruleset: TaroccoRuleset) -> None:
        if ruleset.discard_forbidden not in DISCARD_LIMITS:
            raise RecordError(
                f"expected one of {', '.join(DISCARD_LIMITS)}", path="ruleset.discard_forbidden"
            )
        if ruleset.fuggitivo_last_trick not in LAST_TRICK_FOOL:
            raise RecordError(
                f"expected one of {', '.join(LAST_TRICK_FOOL)}",
                path="ruleset.fuggitivo_last_trick",
            )
        if not 1 <= ruleset.max_offer <= 54:
            raise RecordError("expected 1..54", path="ruleset.max_offer")

    # --- states -------------------------------------------------------------------------
    def new_game(self, ruleset: TaroccoRuleset, seed: int) -> TaroccoState:
        """A shuffled pack; the dealer turns with the seed (seed % 4) so all seats deal."""
        return TaroccoState(ruleset, seed % SEATS, shuffled_pack(seed))

    def start_record(self, record: Mapping[str, JSON]) -> TaroccoState:
        ruleset = self.ruleset(record.get("ruleset"))
        deal = record.get("deal")
        if deal is None:
            seed = record.get("seed")
            if isinstance(seed, bool) or not isinstance(seed, int):
                raise RecordError(
                    'expected {"dealer": d, "deck": [63 card codes]} or a whole "seed"',
                    path="deal",
                )
            return self.new_game(ruleset, seed)
        deal = read.obj(deal, "deal", 'expected {"dealer": d, "deck": [63 card codes]}')
        dealer = deal.get("dealer", 3)
        if isinstance(dealer, bool) or dealer not in range(SEATS):
            raise RecordError("expected a seat 0..3", path="deal.dealer")
        wording = "expected the 63 card codes in dealing order"
        raw = read.list_of(deal.get("deck"), "deal.deck", wording)
        deck = [self._card(c, f"deal.deck[{i}]") for i, c in enumerate(raw)]
        if sorted(deck) != list(range(C.PACK_SIZE)):
            counts = Counter(deck)
            twice = [C.CODES[c] for c, k in counts.items() if k > 1]
            missing = [C.CODES[c] for c in range(C.PACK_SIZE) if c not in counts]
            raise RecordError(
                f"tarocco.pack.composition: not the 63-card pack (twice: {twice}, "
                f"missing: {missing})",
                path="deal.deck",
            )
        return TaroccoState(ruleset, dealer, deck)

    @staticmethod
    def _card(raw: Any, path: str) -> int:
        return C.DECK.read(raw, path)

    def encode_action(self, action: Any) -> dict[str, JSON]:
        return encode(action)

    def decode_action(self, data: Any, path: str = "actions") -> Any:
        if not isinstance(data, Mapping):
            raise RecordError("an action is a JSON object", path=path)
        if "bid" in data:
            kind = data["bid"]
            if kind not in BIDS:
                raise RecordError(f"expected one of {', '.join(BIDS)}", path=f"{path}.bid")
            if kind == "offro":
                return Bid(kind, points=self._int(data.get("points"), f"{path}.points"))
            if kind == "piglio":
                return Bid(kind, of=self._int(data.get("of"), f"{path}.of"))
            return Bid(kind)
        for key, cls in (("solo", Declare), ("venti", Venti), ("quindici", Quindici)):
            if key in data:
                return cls(read.flag(data[key], f"{path}.{key}"))
        if "discard" in data:
            wording = "expected a list of three card codes"
            raw = read.list_of(data["discard"], f"{path}.discard", wording)
            return Discard(tuple(self._card(c, f"{path}.discard[{i}]") for i, c in enumerate(raw)))
        if "call" in data:
            return Call(self._card(data["call"], f"{path}.call"))
        if "play" in data:
            card = self._card(data["play"], f"{path}.play")
            signal = data.get("signal")
            if signal is not None and not isinstance(signal, str):
                raise RecordError("expected knock, giove, palla or both", path=f"{path}.signal")
            return Play(card, signal)
        raise RecordError(
            "expected one of bid, solo, discard, venti, quindici, call, play", path=path
        )

    @staticmethod
    def _int(value: Any, path: str) -> int:
        return read.whole(value, path)

    # --- summaries ----------------------------------------------------------------------
    def chance_steps(
        self, record: Mapping[str, Any], lang: str, names: Sequence[str] | None = None
    ) -> list[dict[str, Any]]:
        """The deal, before the first step: the cards each seat was dealt (the monte taken
        later is a step of the play, not chance)."""
        return [s for s in super().chance_steps(record, lang, names) if s["after"] == 0]

    def step_groups(self, actions: Sequence[Mapping[str, JSON]], lang: str) -> list[str]:
        """The bidding, the calls and the monte, then each trick of four cards played."""
        out, plays = [], 0
        for raw in actions:
            if "play" in raw:
                plays += 1
                n = (plays - 1) // 4 + 1
                out.append(f"Presa {n}" if lang == "it" else f"Trick {n}")
            elif lang == "it":
                out.append("Dichiarazioni, chiamata e monte")
            else:
                out.append("Bidding, calls and the monte")
        return out

    def describe(
        self, outcome: Mapping[str, JSON], lang: str, names: Sequence[str] | None = None
    ) -> list[str]:
        """The result's declared facts in words (games/tarocco/words.py)."""
        from games.tarocco.words import describe

        detail = outcome.get("detail")
        return describe(detail if isinstance(detail, Mapping) else None, lang, names)

    def player_figures(self, outcome: Mapping[str, JSON], seat: int) -> dict[str, float]:
        """The smazzate ``seat`` played solo in this result: how many, how many made (more
        card points than the soloist's break-even, tarocco.score.solo) and their card
        points."""
        detail = outcome.get("detail")
        if not isinstance(detail, Mapping):
            return {}
        listed = detail.get("hands")
        hands = listed if isinstance(listed, list) else [detail]
        out = {"solo_hands": 0.0, "solo_made": 0.0, "solo_card_points": 0.0}
        for row in hands:
            hand = row.get("summary") if isinstance(row, Mapping) else None
            if not isinstance(hand, Mapping) or hand.get("outcome") != "solo":
                continue
            points = hand.get("card_points")
            if hand.get("declarer") != seat or not isinstance(points, int):
                continue
            out["solo_hands"] += 1
            out["solo_made"] += 1 if points > C.SOLO_TARGET else 0
            out["solo_card_points"] += points
        return out if out["solo_hands"] else {}

    def summary_form(self, ruleset: TaroccoRuleset) -> SummaryForm:
        """Outcome, dealer, then what the outcome needs (games/tarocco/form.py)."""
        from games.tarocco.form import FORM

        return FORM

    def summary_shape(self) -> Shape:
        """The summary's JSON (games/tarocco/form.py)."""
        from games.tarocco.form import SHAPE

        return SHAPE

    def record_shape(self) -> Shape:
        """A whole smazzata's record as JSON (games/tarocco/notation.py)."""
        from games.tarocco.notation import ACTIONS, DEAL

        return record_shape(SLUG, self.info.name, deal=DEAL, actions=ACTIONS)

    def score_summary(self, summary: Mapping[str, JSON], ruleset: TaroccoRuleset) -> ScoreReport:
        result, found = score_summary(summary, ruleset)
        return ScoreReport(SLUG, result, tuple(found), summary_outcome(result, found))
