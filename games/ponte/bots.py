"""A heuristic player: balanced power sheets, a sensible answer to each challenger, and fight
cards chosen by reading the circle against what the enemy can still play.

It looks only at what its seat may know: its own side, the enemy's revealed values (none in
Expert before a magistratura is challenged, none in Incognito) and the cards already played.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final

from games.core import RecordError, rng
from games.core.hints import Reason
from games.core.search import DEFAULT_BUDGET, DEFAULT_PLAYOUTS, SearchBot
from games.ponte import words
from games.ponte.model import (
    ATTACK,
    BEATS,
    DEFENSE,
    MAG_INDEX,
    MAGISTRATURE,
    PUSH,
    SIDES,
    Assign,
    Deploy,
    Equip,
    Fight,
    mag_label,
    side_mags,
    side_of,
)
from games.ponte.state import DEPLOY, FIGHT, POWER, RESPOND, STRATEGY, TYPES, Deal, PonteState


class HeuristicBot:
    def __init__(self, seed: int) -> None:
        self._rng = rng(seed, "ponte-heuristic")

    def choose(self, state: Any, seat: int) -> Any:
        actions = state.legal_actions(seat)
        if not actions:
            raise RuntimeError(f"seat {seat} has no legal action")
        if len(actions) == 1:
            return actions[0]
        assert isinstance(state, PonteState)
        first = actions[0]
        if isinstance(first, Assign):
            return self._assign(actions)
        if isinstance(first, Equip):
            return actions[self._rng.randrange(len(actions))]
        if isinstance(first, Deploy):
            return self._deploy(state, seat, actions)
        if state.phase is FIGHT:
            return self._fight(state, actions)
        return actions[self._rng.randrange(len(actions))]

    def why(self, state: Any, seat: int, action: Any) -> Reason | None:
        """The reason for ``action`` (this bot's choice) in words, for a player's hint."""
        assert isinstance(state, PonteState)
        if isinstance(action, Assign):
            amounts = sorted({a.power for a in state.legal_actions(seat) if isinstance(a, Assign)})
            it_kg, en_kg = words.kg(action.power, "it"), words.kg(action.power, "en")
            if len(amounts) <= 2:
                return Reason(
                    f"{it_kg} è il valore più alto che il foglio permette ancora: la forza va "
                    "dove serve prima che resti solo il minimo.",
                    f"{en_kg} is the highest value the sheet still allows: the power goes "
                    "where it is needed before only the least is left.",
                    "ponte.power.total",
                )
            return Reason(
                f"{it_kg} sta verso la metà di quanto il foglio permette ancora: la potenza si "
                "divide senza lasciare una magistratura troppo debole.",
                f"{en_kg} lies near the middle of what the sheet still allows: the power is "
                "shared out without leaving a magistratura too weak.",
                "ponte.power.total",
            )
        if isinstance(action, Equip):
            return Reason(
                "Per il bot euristico nessuna carta strategia vale di più su una magistratura "
                "che su un'altra: questa è tirata a sorte.",
                "To the heuristic bot no strategy card is worth more on one magistratura than "
                "on another: this one is drawn at random.",
                "ponte.strategy.assign",
            )
        if isinstance(action, Deploy):
            if state.in_tiebreak:
                return None
            return self._why_deploy(state, action, state.legal_actions(seat))
        if isinstance(action, Fight) and state.phase is FIGHT:
            return _why_fight(state, action)
        return None

    def _why_deploy(self, state: PonteState, action: Deploy, actions: list[Any]) -> Reason:
        def power(mag: int) -> int:
            return state.power[mag] or state.initial[mag] or 0

        name, own = mag_label(MAGISTRATURE[action.mag]), power(action.mag)
        it_own, en_own = words.kg(own, "it"), words.kg(own, "en")
        facing = state.fighter[state.challenger] if state.phase is RESPOND else None
        if facing is None:
            return Reason(
                f"Chi sfida per primo manda la magistratura più forte: {name}, con {it_own}.",
                f"Challenging first, send your strongest magistratura: {name}, with {en_own}.",
                "ponte.deploy.challenger",
            )
        if not state._shows_value(1 - state.challenger, facing):
            return Reason(
                f"La potenza di chi sfida non si vede: rispondi con una magistratura di forza "
                f"media, {name} ({it_own}), e tieni le altre per dopo.",
                f"The challenger's power is not shown: answer with a magistratura of middle "
                f"strength, {name} ({en_own}), and keep the others for later.",
                "ponte.deploy.once",
            )
        threat = state.fpower[state.challenger]
        it_t, en_t = words.kg(threat, "it"), words.kg(threat, "en")
        if own >= threat:
            stronger = any(power(a.mag) > own for a in actions if isinstance(a, Deploy))
            return Reason(
                f"Chi sfida ha {it_t}: {name}, con {it_own}, è la più debole delle tue che ci "
                "arriva"
                + (
                    ", e le più forti restano per le sfide dopo (ognuna combatte una volta sola)."
                    if stronger
                    else "."
                ),
                f"The challenger has {en_t}: {name}, with {en_own}, is the weakest of yours "
                "that matches it"
                + (
                    ", and the stronger ones stay for later challenges (each fights once only)."
                    if stronger
                    else "."
                ),
                "ponte.deploy.once",
            )
        return Reason(
            f"Nessuna delle tue arriva ai {it_t} di chi sfida: manda la più debole, {name} "
            f"({it_own}), e tieni le forti per sfide che puoi vincere.",
            f"None of yours reaches the challenger's {en_t}: send the weakest, {name} "
            f"({en_own}), and keep the strong ones for challenges you can win.",
            "ponte.deploy.once",
        )

    def _assign(self, actions: list[Any]) -> Any:
        # Spread the power: prefer amounts near the middle of what is allowed.
        amounts = sorted({a.power for a in actions})
        target = amounts[len(amounts) // 2] if len(amounts) > 2 else amounts[-1]
        near = [a for a in actions if abs(a.power - target) <= 10000]
        return near[self._rng.randrange(len(near))]

    def _deploy(self, state: PonteState, seat: int, actions: list[Any]) -> Any:
        own = {a.mag: state.power[a.mag] or state.initial[a.mag] or 0 for a in actions}
        if state.in_tiebreak:
            return actions[self._rng.randrange(len(actions))]
        facing = state.fighter[state.challenger] if state.phase is RESPOND else None
        if facing is None:
            # challenger: lead with the strongest magistratura
            best = max(own.values())
            pick = [a for a in actions if own[a.mag] == best]
            return pick[self._rng.randrange(len(pick))]
        # answering: match the challenger's power when this seat may know it
        known = state._shows_value(1 - state.challenger, facing)
        threat = state.fpower[state.challenger] if known else None
        if threat is None:
            ranked = sorted(own.values())
            mid = ranked[len(ranked) // 2]
            pick = [a for a in actions if own[a.mag] == mid]
        else:
            enough = [v for v in own.values() if v >= threat]
            target = min(enough) if enough else min(own.values())
            pick = [a for a in actions if own[a.mag] == target]
        return pick[self._rng.randrange(len(pick))]

    def _fight(self, state: PonteState, actions: list[Any]) -> Any:
        best: Any = None
        best_score = -1e18
        for a, score in zip(actions, fight_scores(state, actions), strict=True):
            score += self._rng.random() * 0.01
            if score > best_score:
                best_score, best = score, a
        return best


def enemy_cards(state: PonteState, enemy: int) -> tuple[dict[str, int], dict[str, int]]:
    """What the enemy can still play, by type: how many cards, and their Kg/Push in all (its
    hand, within its power when that is known)."""
    count = {ATTACK: 0, PUSH: 0, DEFENSE: 0}
    weight = {ATTACK: 0, PUSH: 0, DEFENSE: 0}
    if not state.out(enemy):
        pack = state.pack
        pay = state.can_pay if state.ruleset.mode != "incognito" else None
        for i in state.hand[enemy]:
            e = pack[i]
            if pay is not None and not pay(e, enemy):
                continue
            count[e.kind] += 1
            weight[e.kind] += e.value
    return count, weight


def fight_scores(state: PonteState, actions: Sequence[Any]) -> list[float]:
    """How good each fight choice looks to the heuristic (the higher the better): what the
    card gains on average against the cards the enemy can still play, weighed by how close
    the carrello is to an end, less a part of its cost; a strategy card is kept for a tight
    spot on the bridge or a nearly spent magistratura."""
    side = state.fight_side()
    enemy = 1 - side
    rs = state.ruleset
    sign = 1 if side == 0 else -1
    position = state.carrello * sign  # > 0: pushing towards the enemy end
    limit = rs.bridge_slots
    # what the enemy can still play: its hand, within its power when that is known; counted
    # by type (how many, and their Kg/Push in all), which is all a card's gain needs
    count, weight = enemy_cards(state, enemy)
    total = count[ATTACK] + count[PUSH] + count[DEFENSE]
    urgency = (
        1.0 + (2.0 if position <= -(limit - 2) else 0.0) + (1.0 if position >= limit - 2 else 0.0)
    )
    chip = rs.chip
    codes = rs.codes
    tight = 1.5 if abs(position) >= limit - 2 or state.fpower[side] <= 15000 else -1.0
    by_card: dict[str | None, float] = {None: 0.0}  # a card's score, the same for each strategy
    out: list[float] = []
    for a in actions:
        score = by_card.get(a.card)
        if score is None:
            card = codes[a.card]
            if not total:
                gain = card.value / chip
            else:
                # against each enemy card: the difference on the same type, the whole card
                # against the type it beats, the enemy's card against the type beating it
                kind = card.kind
                beaten = BEATS[kind]
                gain = (
                    count[kind] * card.value
                    - weight[kind]
                    + count[beaten] * card.value
                    - weight[BEATS[beaten]]
                ) / chip
                gain /= total
            score = by_card[a.card] = gain * urgency - card.value / chip * 0.35
        if a.strategy is not None:
            score += tight
        out.append(score)
    return out


def _why_fight(state: PonteState, action: Fight) -> Reason:
    """Why the heuristic plays this fight card (and strategy card): the circle read against
    the cards the enemy can still play."""
    side = state.fight_side()
    tail_it, tail_en = "", ""
    if action.strategy is not None:
        tail_it = (
            " La carta strategia si gioca ora: il carrello è vicino a un capo del ponte o la "
            "potenza è quasi finita."
        )
        tail_en = (
            " The strategy card goes now: the carrello is near an end of the bridge or the "
            "power is nearly spent."
        )
    if action.card is None:
        return Reason(
            "Nessuna carta lotta conviene ora." + tail_it,
            "No fight card is worth playing now." + tail_en,
            "ponte.fight.must_play",
        )
    card = state.ruleset.codes[action.card]
    it_card, en_card = words.card(action.card, "it"), words.card(action.card, "en")
    count, _weight = enemy_cards(state, 1 - side)
    total = sum(count.values())
    if not total:
        return Reason(
            f"L'avversario non ha carte che possa giocare: {it_card} sposta il carrello più "
            "di ogni altra tua carta." + tail_it,
            f"The enemy has no card it can play: {en_card} moves the carrello further than "
            "any other card of yours." + tail_en,
            "ponte.carrello.move",
        )
    beaten = BEATS[card.kind]
    beater = next(k for k, v in BEATS.items() if v == card.kind)

    def kind(k: str, lang: str) -> str:
        return words.TYPES[k][0 if lang == "it" else 1]

    return Reason(
        f"{it_card}: delle {total} carte che l'avversario può ancora giocare, "
        f"{count[beaten]} sono di tipo {kind(beaten, 'it')}, che batte, "
        f"{count[card.kind]} di tipo {kind(card.kind, 'it')}, dove vince la carta più alta, "
        f"e {count[beater]} di tipo {kind(beater, 'it')}, che la batte; pesato col suo costo "
        "in potenza, è la tua carta migliore ora." + tail_it,
        f"{en_card}: of the {total} cards the enemy can still play, {count[beaten]} are "
        f"{kind(beaten, 'en')} cards, which it beats, {count[card.kind]} {kind(card.kind, 'en')} "
        f"cards, where the larger card wins, and {count[beater]} {kind(beater, 'en')} cards, "
        "which beat it; weighed against its cost in power, it is your best card now." + tail_en,
        "ponte.carrello.move",
    )


# --- the strong bot: what the search needs to know of the Bridge's Game -----------------------

#: What a challenge's leftover power (it goes to the back-up box, the tie breaker's reserve)
#: is worth against a challenge won, per Kg/Push of a side's whole sheet.
LEFTOVER_WORTH: Final = 0.5
#: How many of the heuristic's best fight choices the search compares.
FIGHT_CANDIDATES: Final = 4
#: How many drawn sheets Incognito may try before keeping one the view cannot rule out
#: (there the enemy's power is never shown, only what it allowed: the cards paid, the pack
#: coming back, a magistratura left without power).
INCOGNITO_TRIES: Final = 12


def _sheet(
    known: Sequence[int | None],
    total: int,
    low: int,
    step: int,
    rand: random.Random,
    floors: Sequence[int] = (),
) -> list[int]:
    """Values for a power sheet written in rank order (each no more than the one before),
    the ``known`` ones kept, the others drawn at random among those that still let the sheet
    add up to ``total`` with every value a multiple of ``step`` and at least ``low`` (and at
    least its ``floors`` entry, when given)."""
    n = len(known)
    # each slot's least: its own floor, and no less than any slot ranked below it
    least = [0] * n
    below = low
    for j in range(n - 1, -1, -1):
        kv = known[j]
        own = kv if kv is not None else max(low, floors[j] if j < len(floors) else 0)
        below = max(below, own)
        least[j] = below
    out: list[int] = []
    left = total
    for i, value in enumerate(known):
        if value is not None:
            out.append(value)
            left -= value
            continue
        cap = out[-1] if out else total
        fits: list[int] = []
        v = least[i]
        while v <= min(cap, left):
            lo = hi = 0
            top = v
            for j in range(i + 1, n):
                kv = known[j]
                if kv is not None:
                    top = kv
                lo += least[j] if kv is None else kv
                hi += top
            if lo <= left - v <= hi:
                fits.append(v)
            v += step
        choice = rand.choice(fits) if fits else max(least[i], min(cap, left))
        out.append(choice)
        left -= choice
    return out


class PonteSearch:
    """The Bridge's Game for games.core.search.

    What a seat cannot see is the enemy's: which strategy card lies on each magistratura
    (until it is played), its power sheet while the sheets are being written (and in Expert
    the values not yet on the bridge; in Incognito all of them), and its secret fight choice
    of the move in progress. A drawn state keeps what the view shows and the public actions
    in their order, draws the enemy's cards and values at random within what the view allows,
    lets a heuristic player redo the enemy's choices the view does not show, and replays the
    match on that.

    A playout from a fight (or the tie breaker on types) goes to the end of that challenge
    (the next one starts afresh: a new pair of magistrature, the pack whole again); one from a
    deployment plays the match out. Writing the sheets and placing the strategy cards are left
    to the heuristic bot.
    """

    def sample(self, state: Any, seat: int, rand: Any) -> PonteState:
        assert isinstance(state, PonteState)
        view = state.view(seat)
        if state.ruleset.mode != "incognito":
            return self._draw(state, seat, view, rand)
        # Incognito: a draw that cannot have been (a card its power could not pay, a challenge
        # that would have ended otherwise) is drawn again; after a few tries the last draw that
        # could be played through is kept
        kept: PonteState | None = None
        for attempt in range(INCOGNITO_TRIES * 10):
            try:
                world = self._draw(state, seat, view, rand)
            except RecordError:
                continue
            if world.view(seat) == view:
                return world
            kept = world
            if attempt >= INCOGNITO_TRIES - 1:
                break
        if kept is None:
            raise RuntimeError("ponte sample: no enemy sheet fits what the seat saw")
        return kept

    @staticmethod
    def _spent(state: PonteState, view: dict[str, Any], enemy: int) -> dict[int, int]:
        """The Kg/Push each enemy magistratura is seen to have paid for its fight cards (less
        what recovery cards may have given back): its starting power was at least that."""
        rs = state.ruleset
        codes = rs.codes
        strategies = rs.strategies
        key = SIDES[enemy]
        spent: dict[int, int] = {}

        def count(mag: int, moves: list[dict[str, Any]]) -> None:
            for move in moves:
                code = move.get("cards", [None, None])[enemy]
                if code is not None:
                    spent[mag] = spent.get(mag, 0) + codes[code].value
                used = move.get("strategy", [None, None])[enemy]
                if used is not None and strategies[used].kind == "recover":
                    spent[mag] = spent.get(mag, 0) - strategies[used].amount

        for row in view["challenges"]:
            count(MAG_INDEX[row[key]], row["moves"])
        fighter = view["fighters"][enemy]
        if fighter is not None and len(view["challenges"]) < rs.challenges:
            count(MAG_INDEX[fighter["mag"]], view["moves"])
        return spent

    def _draw(
        self, state: PonteState, seat: int, view: dict[str, Any], rand: random.Random
    ) -> PonteState:
        rs = state.ruleset
        own = state.layout.side_of_seat(seat)
        enemy = 1 - own
        shown = view["magistrature"]
        enemy_mags = list(side_mags(enemy))
        # the enemy's strategy cards: those played are seen where they lay, the rest drawn
        card: dict[int, int] = {}
        for m in enemy_mags:
            c = shown[m]["strategy"]
            if c is not None:
                card[m] = int(c)
        rest = [c for c in range(6) if c not in card.values()]
        rand.shuffle(rest)
        for m in enemy_mags:
            if m not in card:
                card[m] = rest.pop()
        perms = [state.deal.strategy[0], state.deal.strategy[1]]  # the own side's is known
        perms[enemy] = tuple(card[m] for m in enemy_mags)
        deal = Deal(state.deal.first, (perms[0], perms[1]), state.deal.quarter)
        world = PonteState(rs, deal, None)
        # the enemy's sheets, once written and shown (in part, in Expert and Incognito)
        written = view["phase"] not in (POWER, STRATEGY)
        value: dict[int, int] = {}
        rank: dict[int, int] = {}
        if written:
            spent = self._spent(state, view, enemy) if rs.mode == "incognito" else {}
            for _seat, mags in state.pools():
                if side_of(mags[0]) != enemy:
                    continue
                order = list(mags)
                if rs.hidden_values:
                    order.sort(key=lambda m: (shown[m].get("rank") or 0, m))
                known = [shown[m]["power"] for m in order]
                floors = [spent.get(m, 0) for m in order]
                total = state.pool_total(mags)
                drawn = _sheet(known, total, rs.min_power, rs.chip, rand, floors)
                for r, (m, v) in enumerate(zip(order, drawn, strict=True)):
                    value[m] = v
                    rank[m] = r
        redo = HeuristicBot(rand.randrange(1 << 30))
        actions = list(state.actions)
        hidden_move = any(p == {"chosen": True} for p in view["pending"])
        if hidden_move:
            actions.pop()  # the enemy's secret fight choice: redone below
        skip = 0
        for s, action in actions:
            if isinstance(action, (Assign, Equip)) and side_of(action.mag) == enemy:
                if skip:
                    skip -= 1
                    continue
                if not written:
                    world.apply_unchecked(s, redo.choose(world, s))
                    continue
                # the whole sheet (or placement) at once, in the order the view allows
                sheet = sorted(
                    {a.mag for a in world.legal_actions(s) if isinstance(a, (Assign, Equip))},
                    key=lambda m: rank[m],
                )
                for m in sheet:
                    if isinstance(action, Assign):
                        world.apply_unchecked(s, Assign(m, value[m]))
                    else:
                        world.apply_unchecked(s, Equip(m, card[m]))
                skip = len(sheet) - 1
                continue
            world.apply_unchecked(s, action)
        if hidden_move:
            who = world.to_act()
            assert who is not None
            world.apply_unchecked(who, redo.choose(world, who))
        return world

    def policy(self, seed: int) -> HeuristicBot:
        return HeuristicBot(seed)

    def candidates(self, state: Any, seat: int, actions: Sequence[Any], seed: int) -> list[Any]:
        own = HeuristicBot(seed).choose(state, seat)
        if state.phase in (POWER, STRATEGY):
            return [own]  # the sheets and the cards' places: the heuristic's
        if state.phase == FIGHT and len(actions) > FIGHT_CANDIDATES:
            # the fight choices the heuristic rates best (a card and a strategy card to go
            # with it or not: a dozen or more, the weakest seldom worth a playout)
            worth = fight_scores(state, actions)
            ranked = sorted(range(len(actions)), key=lambda i: -worth[i])
            best = [actions[i] for i in ranked if actions[i] != own]
            return [own, *best[: FIGHT_CANDIDATES - 1]]
        return [own, *(a for a in actions if a != own)]

    def playout_over(self, state: Any, root: Any) -> bool:
        if state.is_over():
            return True
        if root.phase in (DEPLOY, RESPOND):
            return False
        return len(state.results) > len(root.results)

    def reward(self, state: Any, seat: int, root: Any) -> float:
        """The challenges the seat's side won since ``root`` less the enemy's; from a fight,
        the power each side kept for its back-up box counts a little too."""
        side = state.layout.side_of_seat(seat)
        gained = (state.wins[side] - root.wins[side]) - (state.wins[1 - side] - root.wins[1 - side])
        if root.phase in (FIGHT, TYPES) and len(state.results) > len(root.results):
            left = state.results[len(root.results)]["left"]
            gained += LEFTOVER_WORTH * (left[side] - left[1 - side]) / state.ruleset.side_total
        return float(gained)

    def clone(self, state: Any) -> PonteState:
        """A copy to play on: the match replayed from its deal."""
        new = PonteState(state.ruleset, state.deal, state.seed)
        for s, action in state.actions:
            new.apply_unchecked(s, action)
        return new


def strong_bot(
    seed: int, *, playouts: int = DEFAULT_PLAYOUTS, budget: float | None = DEFAULT_BUDGET
) -> SearchBot:
    """The strong Bridge's Game bot: determinized search with the heuristic bot in the
    playouts."""
    return SearchBot(PonteSearch(), seed, playouts=playouts, budget=budget)
