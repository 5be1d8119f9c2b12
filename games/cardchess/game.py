"""3D cardChess's declaration and factories (see docs/rules/cardchess.md)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from games.cardchess import cards as C
from games.cardchess.bots import HeuristicBot, strong_bot
from games.cardchess.guide import GUIDE
from games.cardchess.rules import BOOK, RULE_CLAIMED, RULE_GAME_OVER, RULE_IMPOSSIBLE, SLUG
from games.cardchess.ruleset import CardChessRuleset
from games.cardchess.scoring import score_summary, summary_outcome
from games.cardchess.state import (
    NONE,
    CardChessState,
    Play,
    Resolve,
    SfidaDeal,
    encode,
)
from games.core import Choice, Game, GameInfo, RecordError, ScoreReport, Text, read
from games.core.declare import Figure, Shape, SummaryForm, record_shape

JSON = Any


class CardChess(Game[CardChessRuleset, CardChessState, Play | Resolve]):
    info: ClassVar[GameInfo] = GameInfo(
        slug=SLUG,
        name=Text("3D cardChess", "3D cardChess"),
        points=Text("Carte d'oro", "Gold cards"),
        # A sfida waits on both seats' face-down plays: a seat out of time loses its game,
        # as a chess clock's flag does; a bot finishing it would decide the gold for it.
        on_flag="abandon",
        seat_counts=(2, 3, 4),
        max_actions=20_000,
        hidden_information=True,
        chance=True,
        description=Text(
            "Sfide di giocate coperte e catture per colore, casella e valore; vince l'oro.",
            "Sfide of face-down plays and captures by colour, square and value; gold wins.",
        ),
    )
    rules = BOOK
    guide = GUIDE
    # Gold cards rank first, games won next.
    standings_defaults: ClassVar[Mapping[str, Any] | None] = {
        "win": "1",
        "draw": "0.5",
        "loss": "0",
        "order": ["points", "wins"],
    }
    turn_rule: ClassVar[str | None] = "cardchess.turn.order"
    # A player's own figures (their statistics page): gold cards taken, and the sfide won.
    figures: ClassVar[tuple[Figure, ...]] = (
        Figure("gold", Text("Carte d'oro prese", "Gold cards taken")),
        Figure("sfide_won", Text("Sfide vinte", "Sfide won")),
        Figure(
            "sfide_won_share",
            Text("Sfide vinte sul totale", "Share of sfide won"),
            kind="percent",
            of="sfide",
        ),
        Figure("sfide", Text("Sfide giocate", "Sfide played")),
        # Only a full record of the cards knows them: a summary of points has none.
        Figure("reami", Text("Reami formati", "Reami formed")),
    )
    rulesets: ClassVar[Mapping[str, CardChessRuleset]] = {
        "2p": CardChessRuleset("2p", 2),
        "3p": CardChessRuleset("3p", 3),
        "4p": CardChessRuleset("4p", 4),
    }
    default_ruleset = "2p"
    ruleset_labels: ClassVar[Mapping[str, Text]] = {
        "2p": Text("Partita a 2 giocatori", "Game for 2 players"),
        "3p": Text("Partita a 3 giocatori (due mazzi)", "Game for 3 players (two decks)"),
        "4p": Text("Partita a 4 giocatori (due mazzi)", "Game for 4 players (two decks)"),
    }
    summary_examples = ({"players": 2, "sfide": [[20, 10], [5, 5], [12, 14], [30, 2], [9, 1]]},)
    bots: ClassVar[Mapping[str, Any]] = {"heuristic": HeuristicBot, "strong": strong_bot}
    rule_game_over = RULE_GAME_OVER
    rule_impossible = RULE_IMPOSSIBLE
    rule_claimed_score = RULE_CLAIMED

    def check_ruleset(self, ruleset: CardChessRuleset) -> None:
        if len(ruleset.rook_values) != 2 or not all(1 <= v <= 9 for v in ruleset.rook_values):
            raise RecordError("expected [blue, green], each 1..9", path="ruleset.rook_values")
        if ruleset.counted not in ("all", "table"):
            raise RecordError('expected "all" or "table"', path="ruleset.counted")
        if ruleset.removed_pawn not in ("bP1l", "bP1d", "gP1l", "gP1d"):
            raise RecordError(
                "expected a value-1 pawn: bP1l, bP1d, gP1l or gP1d", path="ruleset.removed_pawn"
            )

    def to_play_on(self, record: Mapping[str, Any], seed: int) -> dict[str, Any]:
        """A typed record gives its deals as they came: the ones still to come are drawn
        from ``seed`` (a record's ``seed`` draws any deal it does not give)."""
        out = dict(record)
        if out.get("seed") is None:
            out["seed"] = seed
        return out

    def chance_steps(
        self, record: Mapping[str, Any], lang: str, names: Sequence[str] | None = None
    ) -> list[dict[str, Any]]:
        """Each deal as it came (one per sfida): the cards each seat got, and the table's
        cards; between deals, the cards drawn."""
        from games.core.engine import hands_dealt

        return hands_dealt(self, record, lang, names, table="table", deal="sfida")

    def new_game(self, ruleset: CardChessRuleset, seed: int) -> CardChessState:
        return CardChessState(ruleset, [], seed)

    def start_record(self, record: Mapping[str, JSON]) -> CardChessState:
        ruleset = self.ruleset(record.get("ruleset"))
        seed = read.seed(record)
        deal = record.get("deal", {"sfide": []})
        if not isinstance(deal, Mapping) or not isinstance(deal.get("sfide"), list):
            raise RecordError('expected {"sfide": [{"deck": [...]}, ...]}', path="deal")
        in_order = sorted(ruleset.deck())
        deals: list[SfidaDeal] = []
        for k, raw in enumerate(deal["sfide"]):
            path = f"deal.sfide[{k}]"
            if not isinstance(raw, Mapping):
                raise RecordError('expected {"deck": [...], "reshuffle": [...]}', path=path)
            deck = self._cards(raw.get("deck"), f"{path}.deck")
            if sorted(deck) != in_order:  # the same cards: the same sorted lists
                expected = Counter(in_order)
                diff = (Counter(deck) - expected) + (expected - Counter(deck))
                names = ", ".join(sorted({C.CODES[t] for t in diff}))
                raise RecordError(
                    f"not the deck of this ruleset ({len(expected)} cards); check {names}",
                    path=f"{path}.deck",
                )
            reshuffle = raw.get("reshuffle")
            deals.append(
                SfidaDeal(
                    deck,
                    None if reshuffle is None else self._cards(reshuffle, f"{path}.reshuffle"),
                )
            )
        return CardChessState(ruleset, deals, seed)

    @staticmethod
    def _cards(raw: Any, path: str) -> list[int]:
        return C.DECK.read_list(raw, path)

    def encode_action(self, action: Any) -> dict[str, JSON]:
        return encode(action)

    def decode_action(self, data: Any, path: str = "actions") -> Play | Resolve:
        if type(data) is not dict and not isinstance(data, Mapping):
            raise RecordError('expected {"play": [...]} or {"resolve": i, "taker": s}', path=path)
        if "play" in data:
            raw = data["play"]
            if not isinstance(raw, list):
                raise RecordError("expected a list of card codes or null", path=f"{path}.play")
            by_code = C.BY_CODE
            try:  # the usual case, every code known (a None, an unknown code: read below)
                return Play(tuple([NONE if code is None else by_code[code] for code in raw]))
            except (KeyError, TypeError):
                pass
            cards = []
            for i, code in enumerate(raw):
                if code is None:
                    cards.append(NONE)
                elif isinstance(code, str) and code in C.BY_CODE:
                    cards.append(C.BY_CODE[code])
                else:
                    raise C.DECK.unknown(code, f"{path}.play[{i}]")
            return Play(tuple(cards))
        if "resolve" in data:
            at = data["resolve"]
            taker = data.get("taker")
            if isinstance(at, bool) or not isinstance(at, int):
                raise RecordError("expected a table position", path=f"{path}.resolve")
            if taker is not None and (isinstance(taker, bool) or not isinstance(taker, int)):
                raise RecordError("expected a seat or null", path=f"{path}.taker")
            return Resolve(at, taker)
        raise RecordError('expected "play" or "resolve"', path=path)

    def choices(self, field: str, ruleset: CardChessRuleset | None = None) -> tuple[Choice, ...]:
        """``card``: every card code a sfida's summary may name (docs/notation/cardchess.md)."""
        if field != "card":
            return super().choices(field, ruleset)
        return tuple(Choice(code, Text(code, code)) for code in C.CODES)

    def player_figures(self, outcome: Mapping[str, JSON], seat: int) -> dict[str, float]:
        """The gold cards the seat took, the sfide it won (each sfida's gold went to it) and,
        from a full record, the reami it formed, read from the Outcome."""
        detail = outcome.get("detail")
        if not isinstance(detail, Mapping):
            return {}
        gold = detail.get("gold")
        sfide = [s for s in detail.get("sfide") or [] if isinstance(s, Mapping)]
        won = float(sum(1 for s in sfide if s.get("gold") == seat))
        out = {"sfide": float(len(sfide)), "sfide_won": won, "sfide_won_share": won}
        reami = [s.get("reami") for s in sfide]
        if reami and all(isinstance(r, list) and seat < len(r) for r in reami):
            out["reami"] = float(sum(int(r[seat]) for r in reami if isinstance(r, list)))
        if isinstance(gold, list) and seat < len(gold) and isinstance(gold[seat], int):
            out["gold"] = float(gold[seat])
        return out

    def describe(
        self, outcome: Mapping[str, JSON], lang: str, names: Sequence[str] | None = None
    ) -> list[str]:
        """The result's declared facts in words (games/cardchess/words.py)."""
        from games.cardchess.words import describe

        detail = outcome.get("detail")
        if not isinstance(detail, Mapping):
            return []
        facts = dict(detail)
        if "winner" not in facts and outcome.get("termination") != "unfinished":
            # a record's detail leaves the winner to the Outcome
            winners = outcome.get("winners") or []
            facts["winner"] = winners[0] if len(winners) == 1 else None
            facts.setdefault("complete", True)
        return describe(facts, lang, names)

    def summary_form(self, ruleset: CardChessRuleset) -> SummaryForm:
        """The points of each sfida, or the cards captured in one (games/cardchess/form.py)."""
        from games.cardchess.form import summary_form

        return summary_form(ruleset.seats, self.choices("card"))

    def summary_shape(self) -> Shape:
        """The summary's JSON (games/cardchess/form.py)."""
        from games.cardchess.form import summary_shape

        return summary_shape(self.choices("card"))

    def record_shape(self) -> Shape:
        """A whole game's record as JSON (games/cardchess/notation.py)."""
        from games.cardchess.notation import ACTIONS, DEAL

        return record_shape(SLUG, self.info.name, deal=DEAL, actions=ACTIONS)

    def ruleset_named_by(self, summary: Mapping[str, JSON]) -> str | None:
        players = summary.get("players")
        name = f"{players}p"
        return name if not isinstance(players, bool) and name in self.rulesets else None

    def score_summary(self, summary: Mapping[str, JSON], ruleset: CardChessRuleset) -> ScoreReport:
        result, found = score_summary(summary, ruleset.seats)
        outcome = None if found else summary_outcome(result)
        return ScoreReport(SLUG, result, tuple(found), outcome)
