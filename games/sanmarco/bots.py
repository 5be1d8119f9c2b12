"""A heuristic player for San Marco's board: it values a position by what the districts
would pay its colour now, and plays the card, the offer and the Doge's stop that raise it most.

It reads only what its seat may see: the board, the scores, the offers it is shown.
"""

from __future__ import annotations

from games.core import rng
from games.core.hints import Reason
from games.sanmarco.actions import Act
from games.sanmarco.board import DISTRICTS
from games.sanmarco.cards import BANISH, BRIDGE, DOGE, LIMIT_BASE, TRANSFER
from games.sanmarco.table import BoardState
from games.sanmarco.words import district


class BoardBot:
    def __init__(self, seed: int) -> None:
        self._rng = rng(seed, "sanmarco-board-heuristic")

    def choose(self, state: BoardState, seat: int) -> Act:
        actions = state.legal_actions(seat)
        if not actions:
            raise RuntimeError(f"seat {seat} has no legal action")
        if len(actions) == 1:
            return actions[0]
        colour = state.acting_colour()
        assert colour is not None
        do = actions[0].do
        if do == "pile":
            return self._divide(state, actions)
        if do == "choose":
            return max(actions, key=lambda a: (self._pile_value(state.piles[a.a]), -a.a))
        if do == "score":
            # variant 3: score the weaker colour, to keep the two close
            return min(actions, key=lambda a: (state.score[a.a], a.a))
        if do == "remove":
            # the strongest rival's aristocrats leave first
            return max(actions, key=lambda a: (state.score[a.a], -a.a))
        if do in ("doge", "stop") and self._doge_turn(state, actions):
            return self._doge(state, colour, actions)
        scored = [(self._value(state, colour, a), i) for i, a in enumerate(actions)]
        best = max(v for v, _ in scored)
        pick = [i for v, i in scored if v == best]
        return actions[pick[self._rng.randrange(len(pick))]]

    def why(self, state: BoardState, seat: int, action: Act) -> Reason | None:
        """The reason for ``action`` (this bot's choice) in words, for a player's hint."""
        colour = state.acting_colour()
        if colour is None:
            return None
        do = action.do
        if do == "pile":
            card = state.hand[len(state.assign)]
            if card >= LIMIT_BASE:
                return Reason(
                    "Una carta limite pesa su chi la prende: va all'offerta che finora vale "
                    "di più, così le offerte restano pari.",
                    "A limit card weighs on whoever takes it: it goes to the offer worth most "
                    "so far, so the offers stay even.",
                    "sanmarco.base.divide",
                )
            return Reason(
                "Una carta azione è un vantaggio: va all'offerta che finora vale di meno, così "
                "le offerte restano pari e a chi sceglie non conviene nessuna in particolare.",
                "An action card is an asset: it goes to the offer worth least so far, so the "
                "offers stay even and no offer tempts the chooser more than another.",
                "sanmarco.base.divide",
            )
        if do == "choose":
            pile = state.piles[action.a]
            acts = sum(1 for c in pile if c < LIMIT_BASE)
            limits = sum(c - LIMIT_BASE for c in pile if c >= LIMIT_BASE)
            return Reason(
                f"L'offerta {action.a + 1} è la migliore: {acts} carte azione contro "
                f"{limits} punti limite (ogni carta azione conta più di un punto limite).",
                f"Offer {action.a + 1} is the best: {acts} action cards against {limits} "
                "limit points (each action card counts for more than a limit point).",
                "sanmarco.base.choose",
            )
        if do == "score":
            return Reason(
                "Fai contare il tuo colore che ha meno punti: i due colori restano vicini, e "
                "conta il più debole.",
                "Have your colour with fewer points scored: the two stay close, and the weaker "
                "one is what counts.",
                "sanmarco.v3.doge_one_colour",
            )
        if do == "remove":
            return Reason(
                "Esce prima l'aristocratico del colore rivale con più punti.",
                "The aristocrat of the rival colour with most points leaves first.",
                "sanmarco.base.banish_order",
            )
        if do in ("doge", "stop") and self._doge_turn(state, state.legal_actions(seat)):
            here = state.district_points(state.doge, set())[colour]
            name = district(DISTRICTS[state.doge])
            if do == "stop":
                return Reason(
                    f"Il Doge si ferma a {name}, che ora dà al tuo colore {here} punti: "
                    "nessun quartiere oltre un ponte ne dà di più, pedaggi compresi.",
                    f"The Doge stops in {name}, which pays your colour {here} points now: no "
                    "district across a bridge pays more, tolls included.",
                    "sanmarco.base.doge_path",
                )
            site, owner = state.bridges[action.a]
            x, y = state.sites[site]
            there = y if x == state.doge else x
            points = state.district_points(there, set())[colour]
            toll = owner != colour
            to = district(DISTRICTS[there])
            return Reason(
                f"Il Doge passa a {to}, che ora dà al tuo colore {points} punti contro i {here} "
                f"di {name}" + (" (il ponte altrui costa 1 punto di pedaggio)." if toll else "."),
                f"The Doge crosses to {to}, which pays your colour {points} points against "
                f"{here} in {name}"
                + (" (another colour's bridge costs 1 point of toll)." if toll else "."),
                "sanmarco.base.doge_toll" if toll else "sanmarco.base.doge_path",
            )
        if do == "district":
            d = action.b
            before = self._standing(state, colour, d)
            state.cubes[d][colour] += 1
            after = self._standing(state, colour, d)
            state.cubes[d][colour] -= 1
            name = district(DISTRICTS[d])
            if after > before:
                return Reason(
                    f"Un aristocratico a {name} fa salire quanto il quartiere darebbe ora al tuo "
                    f"colore da {before} a {after} punti: nessun altro posto rende di più.",
                    f"An aristocrat in {name} raises what the district would pay your colour "
                    f"now from {before} to {after} points: no other place gains more.",
                    "sanmarco.base.score_ties",
                )
            return Reason(
                f"Nessun quartiere ti darebbe ora più punti con un aristocratico in più: quello "
                f"a {name} resta pronto per un punteggio più avanti.",
                f"No district would pay you more now with one more aristocrat: the one in "
                f"{name} stands ready for a later scoring.",
                "sanmarco.base.score_ties",
            )
        if do == "transfer":
            return Reason(
                f"Lo scambio a {district(DISTRICTS[action.a])} vale doppio: un aristocratico "
                "rivale torna alla sua riserva e uno tuo prende il suo posto.",
                f"The transfer in {district(DISTRICTS[action.a])} counts twice: a rival "
                "aristocrat goes back to its supply and one of yours takes its place.",
                "sanmarco.base.transfer",
            )
        if do == "banish":
            return Reason(
                f"L'esilio a {district(DISTRICTS[action.a])} colpisce dove gli altri colori "
                "hanno più aristocratici e tu ne hai pochi: escono prima i loro.",
                f"The banishment in {district(DISTRICTS[action.a])} strikes where the other "
                "colours have most aristocrats and you have few: theirs leave first.",
                "sanmarco.base.banish_order",
            )
        if do == "bridge":
            a, b = district(DISTRICTS[action.a]), district(DISTRICTS[action.b])
            n = state.cubes[action.a][colour] + state.cubes[action.b][colour]
            mine_it = "" if n == 0 else f", dove hai {n} aristocratic{'o' if n == 1 else 'i'}"
            mine_en = "" if n == 0 else f", where you have {n} aristocrat{'' if n == 1 else 's'}"
            return Reason(
                f"Un ponte tuo fra {a} e {b}{mine_it}: ogni volta che un altro colore ci fa "
                "passare il Doge, ti paga un punto.",
                f"A bridge of yours between {a} and {b}{mine_en}: each time another colour "
                "moves the Doge across it, it pays you a point.",
                "sanmarco.base.doge_toll",
            )
        if do == "skip":
            return Reason(
                "Nessuna carta dell'offerta presa ti fa guadagnare ora: lasciarla è il male "
                "minore.",
                "No card of the offer taken gains you anything now: leaving it is the lesser evil.",
                "sanmarco.base.decline",
            )
        return None

    # --- helpers --------------------------------------------------------------------------
    @staticmethod
    def _doge_turn(state: BoardState, actions: list[Act]) -> bool:
        """The Doge is walking, or its card is the only one left to carry out: each step is
        weighed against stopping where it stands."""
        return state.pending is not None or all(a.do in ("doge", "stop") for a in actions)

    @staticmethod
    def _pile_value(pile: list[int]) -> float:
        actions = sum(1 for c in pile if c < LIMIT_BASE)
        limits = sum(c - LIMIT_BASE for c in pile if c >= LIMIT_BASE)
        return actions * 2.0 - limits * 1.2

    def _divide(self, state: BoardState, actions: list[Act]) -> Act:
        # keep the offers even in value: the next card goes to the weakest offer so far
        card = state.hand[len(state.assign)]
        worth = -1.2 * (card - LIMIT_BASE) if card >= LIMIT_BASE else 2.0
        sums: dict[int, float] = {}
        for c, q in zip(state.hand, state.assign, strict=False):
            sums[q] = sums.get(q, 0.0) + (-1.2 * (c - LIMIT_BASE) if c >= LIMIT_BASE else 2.0)
        if worth >= 0:
            return min(actions, key=lambda a: (sums.get(a.a, 0.0), a.a))
        return max(actions, key=lambda a: (sums.get(a.a, 0.0), -a.a))

    @staticmethod
    def _standing(state: BoardState, colour: int, d: int) -> int:
        return state.district_points(d, set())[colour]

    def _value(self, state: BoardState, colour: int, act: Act) -> float:
        """How much the action raises what the districts would pay this colour."""
        cubes = state.cubes
        if act.do == "district":
            d = act.b
            before = self._standing(state, colour, d)
            cubes[d][colour] += 1
            after = self._standing(state, colour, d)
            cubes[d][colour] -= 1
            return after - before + self._rng.random() * 0.1
        if act.do == "transfer":
            d, v = act.a, act.b
            before = self._standing(state, colour, d) - self._standing(state, v, d)
            cubes[d][v] -= 1
            cubes[d][colour] += 1
            after = self._standing(state, colour, d) - self._standing(state, v, d)
            cubes[d][v] += 1
            cubes[d][colour] -= 1
            return after - before + 0.5
        if act.do == "banish":
            others = sum(n for c, n in enumerate(cubes[act.a]) if c != colour)
            return min(others, 3) - cubes[act.a][colour] * 0.5
        if act.do == "bridge":
            return 0.5 + (cubes[act.a][colour] + cubes[act.b][colour]) * 0.1
        if act.do in ("doge", "stop"):
            here = state.district_points(state.doge, set())[colour]
            return here * 0.5 - (0 if act.do == "stop" else 0.3)
        if act.do == "skip":
            return -5.0 if act.a in (BRIDGE, TRANSFER, BANISH, DOGE) else -6.0
        return 0.0

    def _doge(self, state: BoardState, colour: int, actions: list[Act]) -> Act:
        here = state.district_points(state.doge, set())[colour]
        best, best_act = float(here), next(a for a in actions if a.do == "stop")
        for a in actions:
            if a.do != "doge":
                continue
            site, owner = state.bridges[a.a]
            x, y = state.sites[site]
            there = y if x == state.doge else x
            value = state.district_points(there, set())[colour] - (0 if owner == colour else 1)
            if value > best:
                best, best_act = value, a
        return best_act
