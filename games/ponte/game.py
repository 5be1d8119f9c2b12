"""The Bridge's Game's declaration and factories (see docs/rules/ponte.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from games.core import (
    Choice,
    Game,
    GameInfo,
    Outcome,
    RecordError,
    ScoreReport,
    Text,
    Violation,
    read,
    rng,
    rule_broken,
)
from games.core.declare import Figure, Shape, SummaryForm, record_shape
from games.core.rng import shuffle
from games.ponte.bots import HeuristicBot, strong_bot
from games.ponte.guide import GUIDE
from games.ponte.model import (
    DEFAULT_FIGHT_CARDS,
    MAGISTRATURE,
    MODES,
    QUARTERS,
    SIDES,
    Action,
    PonteRuleset,
    decode,
    encode,
    layout_for,
    mag_label,
    parse_fight,
    parse_strategy,
    quarter_of,
)
from games.ponte.rules import BOOK, RULE_CLAIMED, RULE_GAME_OVER, RULE_IMPOSSIBLE, SLUG
from games.ponte.scoring import match_outcome, score_summary
from games.ponte.state import Deal, PonteState

JSON = Any


# Rulesets already checked, each mapped to the first equal instance seen (bounded).
_KNOWN: dict[PonteRuleset, PonteRuleset] = {}
_KNOWN_MAX = 256


def _presets() -> dict[str, PonteRuleset]:
    out: dict[str, PonteRuleset] = {}
    for seats in (2, 3, 4, 6):
        for mode in MODES:
            name = f"{seats}p-{mode}"
            out[name] = PonteRuleset(name, seats, mode=mode)
    return out


MODE_WORDS = {
    "base": Text("Modo base", "Base mode"),
    "advanced": Text("Modo avanzato", "Advanced mode"),
    "expert": Text("Modo esperto", "Expert mode"),
    "incognito": Text("Modo esperto in incognito", "Expert mode, incognito"),
}


def _labels() -> dict[str, Text]:
    """Each preset (``<players>p-<mode>``) in words: its mode and its table size."""
    out = {}
    for name in _presets():
        players, _sep, mode = name.partition("-")
        n = players.rstrip("p")
        words = MODE_WORDS[mode]
        out[name] = Text(f"{words.it}, {n} giocatori", f"{words.en}, {n} players")
    return out


class Ponte(Game[PonteRuleset, PonteState, Action]):
    info: ClassVar[GameInfo] = GameInfo(
        slug=SLUG,
        name=Text("Il Gioco del Ponte (gioco da tavolo)", "The Bridge's Game (board game)"),
        short_name=Text("Il Gioco del Ponte", "The Bridge's Game"),
        points=Text("Sfide vinte", "Challenges won"),
        seat_counts=(2, 3, 4, 6),
        max_actions=5000,
        hidden_information=True,
        chance=True,
        sides=SIDES,
        description=Text(
            "Tramontana contro Mezzogiorno: sei sfide a spinta del carrello sul Ponte di Mezzo.",
            "Tramontana against Mezzogiorno: six challenges pushing the carrello on the bridge.",
        ),
    )
    rules = BOOK
    guide = GUIDE
    # Match points rank first, challenges won next.
    standings_defaults: ClassVar[Mapping[str, Any] | None] = {
        "win": "2",
        "draw": "1",
        "loss": "0",
        "order": ["match_points", "points", "wins"],
    }
    turn_rule: ClassVar[str | None] = "ponte.turn.order"
    # A player's own figures (their statistics page): the challenges their side won.
    figures: ClassVar[tuple[Figure, ...]] = (
        Figure("challenges_won", Text("Sfide vinte", "Challenges won")),
        Figure(
            "challenges_won_share",
            Text("Sfide vinte sul totale", "Share of challenges won"),
            kind="percent",
            of="challenges",
        ),
        Figure("challenges", Text("Sfide giocate", "Challenges played")),
    )
    rulesets: ClassVar[Mapping[str, PonteRuleset]] = _presets()
    default_ruleset = "2p-base"
    ruleset_labels: ClassVar[Mapping[str, Text]] = _labels()
    summary_examples = (
        {
            "challenges": [
                {"tramontana": t, "mezzogiorno": m, "winner": w, "left": [0, 0]}
                for t, m, w in (
                    ("calci", "delfini", "tramontana"),
                    ("calcesana", "dragoni", "mezzogiorno"),
                    ("mattaccini", "leoni", "tramontana"),
                    ("san_michele", "san_marco", "tramontana"),
                    ("santa_maria", "san_martino", "tramontana"),
                    ("satiri", "sant_antonio", "mezzogiorno"),
                )
            ]
        },
    )
    bots: ClassVar[Mapping[str, Any]] = {"heuristic": HeuristicBot, "strong": strong_bot}
    rule_game_over = RULE_GAME_OVER
    rule_impossible = RULE_IMPOSSIBLE
    rule_claimed_score = RULE_CLAIMED

    def ruleset(self, spec: str | Mapping[str, JSON] | None = None) -> PonteRuleset:
        """As ``Game.ruleset``; equal rulesets come back as one shared instance, so what a
        ruleset caches (its parsed pack, its ``Fight`` actions) is built once, not per record."""
        chosen = super().ruleset(spec)
        shared = _KNOWN.get(chosen)
        if shared is None:
            if len(_KNOWN) >= _KNOWN_MAX:
                _KNOWN.clear()
            _KNOWN[chosen] = shared = chosen
        return shared

    def check_ruleset(self, ruleset: PonteRuleset) -> None:
        if ruleset not in _KNOWN:  # those were checked on their way in
            self._check_ruleset(ruleset)

    def _check_ruleset(self, ruleset: PonteRuleset) -> None:
        read.one_of(ruleset.mode, MODES, "ruleset.mode")
        read.side(ruleset.lone_side, "ruleset.lone_side")
        if ruleset.chip <= 0:
            raise RecordError("expected a positive chip value", path="ruleset.chip")
        if not ruleset.fight_cards:
            raise RecordError("a pack needs fight cards", path="ruleset.fight_cards")
        for i, code in enumerate(ruleset.fight_cards):
            card = parse_fight(code, f"ruleset.fight_cards[{i}]")
            if card.value <= 0 or card.value % ruleset.chip:
                raise RecordError(
                    f"a card's Kg/Push is a positive multiple of {ruleset.chip}",
                    path=f"ruleset.fight_cards[{i}]",
                )
        if len(ruleset.strategy_cards) != 6:
            raise RecordError("expected six strategy cards", path="ruleset.strategy_cards")
        for i, code in enumerate(ruleset.strategy_cards):
            strategy = parse_strategy(code, f"ruleset.strategy_cards[{i}]")
            if strategy.kind in ("add", "subtract", "recover") and strategy.amount % ruleset.chip:
                raise RecordError(
                    f"the amount is a multiple of {ruleset.chip}",
                    path=f"ruleset.strategy_cards[{i}]",
                )
        if ruleset.bridge_slots < 1:
            raise RecordError("expected at least one slot", path="ruleset.bridge_slots")
        if not 1 <= ruleset.to_win <= ruleset.challenges <= 6:
            raise RecordError("expected 1 <= to_win <= challenges <= 6", path="ruleset.challenges")
        if ruleset.min_power < min(parse_fight(c).value for c in ruleset.fight_cards):
            raise RecordError(
                "the minimum power must pay the cheapest fight card", path="ruleset.min_power"
            )
        sheets = (
            (ruleset.base_side_powers, 6, ruleset.side_total, "base_side_powers"),
            (ruleset.base_quarter_powers, 3, ruleset.quarter_total, "base_quarter_powers"),
        )
        for values, count, _total, name in sheets:
            if len(values) != count or any(v <= 0 or v % ruleset.chip for v in values):
                raise RecordError(
                    f"expected {count} positive multiples of {ruleset.chip}", path=f"ruleset.{name}"
                )
        for total, count, name in (
            (ruleset.side_total, 6, "side_total"),
            (ruleset.quarter_total, 3, "quarter_total"),
        ):
            if total % ruleset.chip or total < ruleset.min_power * count:
                raise RecordError(
                    f"expected a multiple of {ruleset.chip} of at least {count} minimums",
                    path=f"ruleset.{name}",
                )

    def chance_steps(
        self, record: Mapping[str, Any], lang: str, names: Sequence[str] | None = None
    ) -> list[dict[str, Any]]:
        """The match's chance, before the first step: the draw of the side that challenges
        first, and each side's strategy cards in the order its magistrature hold them."""
        from games.core.words import pick
        from games.ponte import words as W

        try:
            deal = self.start(record).deal
        except (RecordError, ValueError, KeyError, TypeError):
            return []
        first = W.card(SIDES[deal.first], lang)
        said = pick(
            lang, f"Sorteggio: sfida per prima {first}", f"The draw: {first} challenges first"
        )
        if deal.quarter is not None:
            quarter = pick(lang, *W.QUARTERS[("east", "west")[deal.quarter]])
            said += f" ({quarter})"
        for side, order in zip(SIDES, deal.strategy, strict=False):
            cards = ", ".join(str(c + 1) for c in order)
            said += pick(lang, "; carte strategia di ", "; strategy cards of ")
            said += f"{W.card(side, lang)}: {cards}"
        return [{"after": 0, "label": said}]

    def new_game(self, ruleset: PonteRuleset, seed: int) -> PonteState:
        r = rng(seed, "ponte-deal")
        first = r.randrange(2)
        perms: list[tuple[int, ...]] = []
        for _ in (0, 1):
            p = list(range(6))
            shuffle(r, p)  # r.shuffle(p)'s order
            perms.append(tuple(p))
        # Drawn last, so the side and the strategy orders of a seed stay what they were.
        quarter = r.randrange(2)
        return PonteState(ruleset, Deal(first, (perms[0], perms[1]), quarter), seed)

    def start_record(self, record: Mapping[str, JSON]) -> PonteState:
        ruleset = self.ruleset(record.get("ruleset"))
        seed = read.seed(record)
        deal = record.get("deal")
        if deal is None:
            if seed is not None:
                return self.new_game(ruleset, seed)
            return PonteState(ruleset, Deal(0, (tuple(range(6)), tuple(range(6)))), None)
        wording = 'expected {"first": "tramontana", "strategy": [[...6], [...6]]}'
        deal = read.obj(deal, "deal", wording)
        first = SIDES[read.side(deal.get("first"), "deal.first")]
        raw = deal.get("strategy", [list(range(6)), list(range(6))])
        if (
            not isinstance(raw, list)
            or len(raw) != 2
            or any(
                not isinstance(p, list)
                or not all(type(x) is int for x in p)
                or sorted(p) != list(range(6))
                for p in raw
            )
        ):
            raise RecordError(
                "expected two orders of the strategy cards 0..5, one per side",
                path="deal.strategy",
            )
        perms = (tuple(int(x) for x in raw[0]), tuple(int(x) for x in raw[1]))
        quarter = deal.get("first_quarter")
        if quarter is not None and quarter not in QUARTERS:
            raise RecordError('expected "east" or "west"', path="deal.first_quarter")
        chosen = None if quarter is None else QUARTERS.index(quarter)
        return PonteState(ruleset, Deal(SIDES.index(first), perms, chosen), seed)

    def encode_action(self, action: Any) -> dict[str, JSON]:
        return encode(action)

    def decode_action(self, data: Any, path: str = "actions") -> Any:
        if not isinstance(data, dict) and isinstance(data, Mapping):
            data = dict(data)  # decode reads only the action's keys, never "seat"
        return decode(data, path)

    def check_claims(self, record: Mapping[str, JSON], outcome: Outcome) -> list[Violation]:
        """Besides ``claimed_scores``: ``claims`` written by a scorekeeper beside the moves."""
        found = super().check_claims(record, outcome)
        claims = record.get("claims")
        if claims is None:
            return found
        if not isinstance(claims, Mapping):
            raise RecordError('expected {"challenges": [...], "winner": side}', path="claims")
        done = list(outcome.detail["challenges"])
        if outcome.detail.get("tie_breaker") is not None:
            done.append(outcome.detail["tie_breaker"])
        rows = read.list_of(claims.get("challenges", []), "claims.challenges")
        for k, row in enumerate(rows):
            if not isinstance(row, Mapping) or k >= len(done):
                raise RecordError(
                    "expected one object per challenge played", path=f"claims.challenges[{k}]"
                )
            real = done[k]
            if "winner" in row and row["winner"] != real["winner"]:
                rule = {
                    "conquest": "ponte.challenge.conquest",
                    "middle": "ponte.challenge.middle",
                    "types": "ponte.challenge.types",
                }[real["by"]]
                found.append(
                    rule_broken(
                        BOOK,
                        rule,
                        f"Sfida {k + 1}: scritto {_side(row['winner']).it}, "
                        f"vince {_side(real['winner']).it}.",
                        f"Challenge {k + 1}: written {_side(row['winner']).en}, "
                        f"won by {_side(real['winner']).en}.",
                        challenge=k,
                    )
                )
            positions = row.get("carrello")
            if positions is not None:
                due = [m["carrello"] for m in real["moves"] if "carrello" in m]
                if not isinstance(positions, list):
                    positions = [positions]
                    due = due[-1:]
                if len(positions) > len(due):
                    found.append(
                        rule_broken(
                            BOOK,
                            "ponte.carrello.move",
                            f"Sfida {k + 1}: scritte {len(positions)} posizioni, giocate "
                            f"{len(due)} mosse.",
                            f"Challenge {k + 1}: {len(positions)} positions written, "
                            f"{len(due)} moves played.",
                            challenge=k,
                        )
                    )
                for i, (p, d) in enumerate(zip(positions, due, strict=False)):
                    if p != d:
                        found.append(
                            rule_broken(
                                BOOK,
                                "ponte.carrello.move",
                                f"Sfida {k + 1}, mossa {i + 1}: scritto {p}, dovuto {d}.",
                                f"Challenge {k + 1}, move {i + 1}: written {p}, due {d}.",
                                challenge=k,
                                move=i,
                            )
                        )
                        break
        if "winner" in claims and claims["winner"] != outcome.detail["winner"]:
            found.append(
                rule_broken(
                    BOOK,
                    "ponte.match.four",
                    f"Scritto {_side(claims['winner']).it}, "
                    f"vince {_side(outcome.detail['winner']).it}.",
                    f"Written {_side(claims['winner']).en}, "
                    f"won by {_side(outcome.detail['winner']).en}.",
                )
            )
        return found

    def choices(self, field: str, ruleset: PonteRuleset | None = None) -> tuple[Choice, ...]:
        """``magistratura``: the twelve, six a side; under a ruleset, each with the seat that
        commands its quarter."""
        if field != "magistratura":
            return super().choices(field, ruleset)
        owners = layout_for(ruleset).owners if ruleset is not None else None
        out = []
        for m, name in enumerate(MAGISTRATURE):
            label = mag_label(name)
            seat = owners[quarter_of(m)] if owners is not None else None
            out.append(Choice(name, Text(label, label), side=m // 6, seat=seat))
        return tuple(out)

    def player_figures(self, outcome: Mapping[str, JSON], seat: int) -> dict[str, float]:
        """The challenges the seat's side won and played, read from the Outcome."""
        detail, sides = outcome.get("detail"), outcome.get("sides")
        if not isinstance(detail, Mapping) or not isinstance(sides, list) or seat >= len(sides):
            return {}
        mine = SIDES[sides[seat]]
        fought = [c for c in detail.get("challenges") or [] if isinstance(c, Mapping)]
        won = float(sum(1 for c in fought if c.get("winner") == mine))
        return {
            "challenges": float(len(fought)),
            "challenges_won": won,
            "challenges_won_share": won,
        }

    def describe(
        self, outcome: Mapping[str, JSON], lang: str, names: Sequence[str] | None = None
    ) -> list[str]:
        """The result's declared facts in words (games/ponte/words.py)."""
        from games.ponte.words import describe

        detail = outcome.get("detail")
        return describe(detail if isinstance(detail, Mapping) else None, lang, names)

    def summary_form(self, ruleset: PonteRuleset) -> SummaryForm:
        """A row per challenge, the tie breaker, the power sheets (games/ponte/form.py)."""
        from games.ponte.form import summary_form

        return summary_form(ruleset, self.choices("magistratura", ruleset))

    def summary_shape(self) -> Shape:
        """The summary's JSON (games/ponte/form.py)."""
        from games.ponte.form import summary_shape

        return summary_shape(self.choices("magistratura"))

    def record_shape(self) -> Shape:
        """A whole match's record as JSON (games/ponte/notation.py)."""
        from games.ponte.notation import CLAIMS, DEAL, actions

        return record_shape(
            SLUG,
            self.info.name,
            deal=DEAL,
            actions=actions(self.choices("magistratura")),
            more=(CLAIMS,),
        )

    def score_summary(self, summary: Mapping[str, JSON], ruleset: PonteRuleset) -> ScoreReport:
        result, found = score_summary(ruleset, summary)
        outcome = None
        if not found and result.get("ranking"):
            outcome = match_outcome(
                ruleset,
                layout_for(ruleset),
                result,
                len(result["challenges"]),
                result["tie_breaker"] is not None,
                result,
            )
        return ScoreReport(SLUG, result, tuple(found), outcome)


__all__ = ["DEFAULT_FIGHT_CARDS", "Ponte"]


def _side(side: Any) -> Text:
    """A side as written on a sheet (``tramontana``), in words: Tramontana; none, nobody."""
    if side is None:
        return Text("nessuno", "nobody")
    return Text(mag_label(str(side)), mag_label(str(side)))
