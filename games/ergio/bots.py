"""A heuristic Er Giò player: strongest tris first, strength against weakness, sound reinforcing.

Corteo: lay the strongest tris, swap patches for real cards, add fourth cards and guards, play
a Generale or a Maestro di Campo at once, aim Celatini at the opponent's best shown card (or
hand, or deck), throw the least useful card into the Arno, then end the turn. Battle: the
challenger sends its strongest magistratura; the responder sends the weakest one that still
beats what it sees, or sacrifices its weakest; reinforcements go where they count.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.core import rng
from games.core.hints import Reason
from games.core.search import DEFAULT_BUDGET, DEFAULT_PLAYOUTS, SearchBot, redeal
from games.ergio import cards as C
from games.ergio import words
from games.ergio.actions import (
    NO,
    Add,
    Arno,
    Celatino,
    Draw,
    End,
    Lay,
    Pass,
    Ready,
    Reinforce,
    Sabotage,
    Send,
    Special,
    Swap,
)
from games.ergio.state import CORTEO, ErGioState, side_of


def card_worth(c: int) -> int:
    """How much a card helps a magistratura (force, or the figures' reinforcing power)."""
    r = C.RANK_OF[c]
    if r >= 3:
        return r - 1
    if r == C.CAPITANO:
        return 5
    if r == C.MAGISTRATO:
        return 6
    if r == C.CAPOSCHIERA:
        return 4
    return 1


def estimate(state: ErGioState, side: int, mag: int) -> int:
    """A magistratura's laid force (C.force_of_laid), and 4 more for a Magistrato or a
    Caposchiera laid (the reinforcements they take)."""
    force = 0
    mask = 0
    for c in state.laid_of(side, mag):
        force += _FORCE_OF[c]
        mask |= _FIGURE_BIT[c]
    if mask & 2:
        force += C.CAPITANO_BONUS
    return force + (4 if mask & 5 else 0)


_FORCE_OF = C.FORCE_OF
#: bit 1 Magistrato, 2 Capitano, 4 Caposchiera (as C.figures_mask) for each card
_FIGURE_BIT: tuple[int, ...] = tuple(1 << r if 0 <= r < 3 else 0 for r in C.RANK_OF)


class HeuristicBot:
    def __init__(self, seed: int) -> None:
        self._rng = rng(seed, "ergio-heuristic")

    def choose(self, state: Any, seat: int) -> Any:
        actions = state.legal_actions(seat)
        if not actions:
            raise RuntimeError(f"seat {seat} has no legal action")
        if len(actions) == 1:
            return actions[0]
        assert isinstance(state, ErGioState)
        first = actions[0]
        if isinstance(first, Sabotage):
            return Sabotage(True)
        if isinstance(first, Draw):
            return first  # the deck when it lasts: the pile holds a partner's gift otherwise
        if isinstance(first, (Send, Reinforce, Ready)):
            return self._battle(state, side_of(seat), actions)
        return self._corteo(state, seat, actions)

    def why(self, state: Any, seat: int, action: Any) -> Reason | None:
        """The reason for ``action`` (this bot's choice) in words, for a player's hint."""
        assert isinstance(state, ErGioState)
        side = side_of(seat)
        if isinstance(action, Sabotage):
            return Reason(
                "Con tre Celatini in mostra chi vince il Corteo getta le prime tre carte del "
                "mazzo avversario: sono tre carte in meno per la sua battaglia.",
                "With three Celatini shown the Corteo winner throws away the top three cards of "
                "the opposing deck: three cards fewer for its battle.",
                "ergio.adv.sabotage",
            )
        if isinstance(action, Draw):
            if action.source == "deck":
                return Reason(
                    "Pesca dal mazzo della tua parte finché dura: la pila comune resta ai "
                    "compagni che ci hanno passato una carta.",
                    "Draw from your side's deck while it lasts: the common pile stays for the "
                    "partners who passed a card through it.",
                    "ergio.multi.draw.source",
                )
            return None
        if isinstance(action, Send):
            return self._why_send(state, side, action, state.legal_actions(seat))
        if isinstance(action, Reinforce):
            return _why_reinforce(state, side, action)
        if isinstance(action, Ready):
            return Reason(
                "Nessuna carta della mano aggiunge forza dove conterebbe: sei pronto (una carta "
                "che non conta varrebbe solo come bluff).",
                "No card in hand adds force where it would count: you are ready (a card that "
                "counts nothing would only be a bluff).",
                "ergio.battle.reinforce.bluff",
            )
        if isinstance(action, Lay):
            named = [_card(c) for c in action.cards]
            several = sum(1 for a in state.legal_actions(seat) if isinstance(a, Lay)) > 1
            return Reason(
                f"Cala il tris ({', '.join(n[0] for n in named)}): un tris di una "
                "magistratura o di un gruppo non ancora in mostra va calato appena lo si ha"
                + ("; fra i tuoi è il più forte." if several else "."),
                f"Lay the tris ({', '.join(n[1] for n in named)}): a tris of a magistratura or "
                "group not yet shown is laid as soon as it is held"
                + ("; of yours it is the strongest." if several else "."),
                "ergio.corteo.tris.must_lay",
            )
        if isinstance(action, Swap):
            patch, real = _card(action.patch), _card(action.card)
            return Reason(
                f"Metti {real[0]} al posto di {patch[0]}: la carta vera entra in mostra e la "
                "speciale torna in mano, pronta per un altro uso.",
                f"Put {real[1]} in place of {patch[1]}: the real card is shown and the special "
                "comes back to your hand, ready for another use.",
                "ergio.adv.swap",
            )
        if isinstance(action, Add):
            it, en = _card(action.card)
            return Reason(
                f"Aggiungi {it} a ciò che hai già in mostra: fra le carte che puoi aggiungere "
                "è quella che rende più forte la magistratura o il gruppo.",
                f"Add {en} to what you already show: of the cards you can add it is the one "
                "that makes the magistratura or group strongest.",
                "ergio.corteo.add.shown_only",
            )
        if isinstance(action, Special) and C.LOCAL[action.card] == C.GENERALE:
            return Reason(
                "Il Generale giocato da solo ti dà un altro turno, con la sua pescata: "
                "conviene giocarlo subito.",
                "The Generale played alone gives you another turn, with its draw: play it at once.",
                "ergio.adv.special.generale",
            )
        if isinstance(action, Special) and C.LOCAL[action.card] == C.MAESTRO:
            return Reason(
                "Il Maestro di Campo giocato da solo ti dà una carta in più nel limite della "
                "mano finché resta in mostra: prima lo giochi, più a lungo vale.",
                "The Maestro di Campo played alone adds one card to your hand limit while it "
                "stays shown: the sooner it is played, the longer it counts.",
                "ergio.adv.special.maestro",
            )
        if isinstance(action, Celatino) and action.target == "field" and action.card != NO:
            it, en = _card(action.card)
            return Reason(
                f"Il Celatino getta in Arno {it}: fra le carte avversarie in mostra che può "
                "colpire è quella che vale di più.",
                f"The Celatino throws {en} into the Arno: of the opposing shown cards it can "
                "hit it is the one worth most.",
                "ergio.adv.celatino.target",
            )
        if isinstance(action, Arno):
            it, en = _card(action.card)
            return Reason(
                f"Hai più carte del limite della mano: getta in Arno {it}, quella che ti serve "
                "meno per le magistrature e i gruppi da mettere in mostra.",
                f"You hold more cards than the hand limit: throw {en} into the Arno, the one "
                "you need least for the magistrature and groups still to show.",
                "ergio.corteo.hand_limit",
            )
        if isinstance(action, End):
            return Reason(
                "Non resta nulla di sicuro da fare in questo turno: chiudilo.",
                "Nothing sure is left to do this turn: end it.",
                "ergio.turn.order",
            )
        return None

    def _why_send(
        self, state: ErGioState, side: int, action: Send, actions: list[Any]
    ) -> Reason | None:
        name = C.MAGISTRATURE[action.mag][1]
        force = estimate(state, side, action.mag)
        if side == state.challenger:
            return Reason(
                f"Chi sfida manda la magistratura più forte: {name}, con forza in mostra di "
                f"circa {force} (rinforzi del Magistrato e del Caposchiera stimati).",
                f"The challenger sends its strongest magistratura: {name}, with a shown force "
                f"of about {force} (the Magistrato's and Caposchiera's reinforcements guessed).",
                "ergio.battle.challenger",
            )
        theirs = state.sent[1 - side]
        if theirs == NO:
            return None
        other = C.MAGISTRATURE[theirs][1]
        target = estimate(state, 1 - side, theirs)
        if force > target:
            stronger = any(
                estimate(state, side, a.mag) > force for a in actions if isinstance(a, Send)
            )
            return Reason(
                f"{other} di chi sfida vale circa {target}: {name}, circa {force}, è la più "
                "debole delle tue che lo batte"
                + ("; le più forti restano per gli scontri dopo." if stronger else "."),
                f"The challenger's {other} is worth about {target}: {name}, about {force}, is "
                "the weakest of yours that beats it"
                + ("; the stronger ones stay for later scontri." if stronger else "."),
                "ergio.battle.force",
            )
        return Reason(
            f"Nessuna delle tue batte {other} di chi sfida (circa {target}): sacrifica la più "
            f"debole, {name}, che andrà in Arno, e tieni le forti per gli scontri dopo.",
            f"None of yours beats the challenger's {other} (about {target}): sacrifice the "
            f"weakest, {name}, which will go to the Arno, and keep the strong ones for later.",
            "ergio.battle.keep",
        )

    def _corteo(self, state: ErGioState, seat: int, actions: list[Any]) -> Any:
        side = side_of(seat)
        lays = [a for a in actions if isinstance(a, Lay)]
        if lays:
            return max(lays, key=lambda a: (sum(card_worth(c) for c in a.cards), a.cards))
        swaps = [a for a in actions if isinstance(a, Swap)]
        if swaps:
            return swaps[0]
        adds = [a for a in actions if isinstance(a, Add)]
        if adds:
            return max(adds, key=lambda a: (card_worth(a.card), a.card))
        for a in actions:
            if isinstance(a, Special) and C.LOCAL[a.card] in (C.GENERALE, C.MAESTRO):
                return a
        cels = [a for a in actions if isinstance(a, Celatino)]
        if cels:
            field = [a for a in cels if a.target == "field"]
            if field:
                return max(field, key=lambda a: (card_worth(a.card), a.card))
            return cels[0]
        arno = [a for a in actions if isinstance(a, Arno)]
        if arno:
            return min(arno, key=lambda a: (self._keep(state, side, a.card), a.card))
        specials = [a for a in actions if isinstance(a, Special)]
        if specials and self._rng.random() < 0.5:
            return specials[self._rng.randrange(len(specials))]
        passes = [a for a in actions if isinstance(a, Pass)]
        if passes and len(state.hands[seat]) > 2 and self._rng.random() < 0.1:
            return min(passes, key=lambda a: (self._keep(state, side, a.card), a.card))
        for a in actions:
            if isinstance(a, End):
                return a
        return actions[self._rng.randrange(len(actions))]

    @staticmethod
    def _keep(state: ErGioState, side: int, c: int) -> int:
        """How much a hand card is worth keeping (the least is thrown first)."""
        unit = C.UNIT_OF[c]
        if unit < 0:
            return 3
        if unit >= C.UNIT_CEL:
            return 1 if state.group_size(side, unit) >= 3 else 4
        return card_worth(c) + (0 if unit in state.shown[side] else 3)

    def _battle(self, state: ErGioState, side: int, actions: list[Any]) -> Any:
        # the battle lists either the magistrature to send or the reinforcements and Ready
        sends = [a for a in actions if isinstance(a, Send)] if isinstance(actions[0], Send) else []
        if sends:
            # weakest first (by estimate, then magistratura); each estimated once
            ranked = sorted((estimate(state, side, a.mag), a.mag, a) for a in sends)
            if side == state.challenger:
                return ranked[-1][2]
            theirs = state.sent[1 - side]
            target = estimate(state, 1 - side, theirs) if theirs != NO else 0
            for force, _mag, a in ranked:
                if force > target:
                    return a
            return ranked[0][2]
        mag = state.sent[side]
        best: Any = None
        best_gain = 0
        effects = state.ruleset.effects
        fighter, mag_of, group_of = C.IS_FIGHTER, C.MAG_OF, C.GROUP_OF
        for a in actions:
            if not isinstance(a, Reinforce):
                continue
            c = a.card
            if fighter[c]:
                # a combattente counts under the Magistrato if of another magistratura, under
                # the Caposchiera or on the spot if of the same one
                under = a.under
                if mag_of[c] != mag:
                    if under != "magistrato":
                        continue
                elif under != "caposchiera" and under != "spot":
                    continue
                gain = _FORCE_OF[c]
            elif effects and group_of[c] >= 0 and a.under == "magistrato":
                gain = 3 if C.LOCAL[c] == C.CELATINO else 1
            else:
                continue
            if gain > best_gain:
                best, best_gain = a, gain
        return best if best is not None else Ready()


def _card(c: int) -> tuple[str, str]:
    return words.card(C.CODES[c], "it"), words.card(C.CODES[c], "en")


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


#: Where a combattente sent as a reinforcement counts, and what it is there, in words
#: (Italian, then English), with the rule that says so: the three places share one sentence.
_COUNTS_WHERE: dict[str, tuple[str, str, str, str, str]] = {
    "magistrato": (
        "sotto il Magistrato conta",
        "è un combattente di un'altra magistratura della tua parte",
        "under the Magistrato counts",
        "a combattente of another magistratura of your side",
        "ergio.battle.reinforce.magistrato",
    ),
    "caposchiera": (
        "sotto il Caposchiera conta",
        "è un combattente della stessa magistratura",
        "under the Caposchiera counts",
        "a combattente of the same magistratura",
        "ergio.battle.reinforce.caposchiera",
    ),
    "spot": (
        "entra nella magistratura fatta sul momento e conta",
        "è un suo combattente",
        "goes into the magistratura made on the spot and counts",
        "one of its own combattenti",
        "ergio.battle.spot.max_two",
    ),
}


def _why_reinforce(state: ErGioState, side: int, action: Reinforce) -> Reason:
    it, en = _card(action.card)
    c = action.card
    if not C.IS_FIGHTER[c] and C.LOCAL[c] == C.CELATINO:
        return Reason(
            f"{_capitalised(it)} sotto il Magistrato toglie il combattente avversario "
            "più debole: nessun combattente che hai aggiunge di più qui.",
            f"{_capitalised(en)} under the Magistrato removes the weakest opposing "
            "combattente: no combattente you hold adds more here.",
            "ergio.adv.battle.celatino",
        )
    if not C.IS_FIGHTER[c]:
        return Reason(
            f"{_capitalised(it)} sotto il Magistrato annulla un Celatino avversario, e "
            "nessun combattente che hai qui aggiungerebbe forza.",
            f"{_capitalised(en)} under the Magistrato cancels one opposing Celatino, and "
            "no combattente you hold would add force here.",
            "ergio.adv.battle.guard",
        )
    force = C.FORCE_OF[c]
    where_it, what_it, where_en, what_en, rule = _COUNTS_WHERE.get(
        action.under, _COUNTS_WHERE["spot"]
    )
    return Reason(
        f"{_capitalised(it)} {where_it} {force} di forza: {what_it}, e nessuno dei tuoi conta "
        "di più.",
        f"{_capitalised(en)} {where_en} {force} of force: {what_en}, and none you hold counts "
        "more.",
        rule,
    )


# --- the strong bot: what the search needs to know of Er Giò ------------------------------


class ErGioSearch:
    """Er Giò for games.core.search: the cards a seat cannot see (the other side's hand and
    face-down bridge, both decks, the face-down pile) shuffled among their places, each
    card among the places of its own colour (the pile shows its colours), and the chance
    still to come drawn from a new seed."""

    def sample(self, state: Any, seat: int, rand: Any) -> ErGioState:
        assert isinstance(state, ErGioState)
        world = state.clone()
        mine = side_of(seat)
        places: list[list[tuple[Any, int]]] = [[], []]

        def hide(holder: list[int]) -> None:
            for i, c in enumerate(holder):
                places[C.SIDE_OF[c]].append((holder, i))

        pooled = world.ruleset.multi and world.phase != CORTEO
        pool: list[tuple[Any, int]] = []
        for s, hand in enumerate(world.hands):
            if side_of(s) != mine:
                hide(hand)
            elif pooled:
                # partners' hands show as one pool: which of them holds what is not seen
                pool += [(hand, i) for i in range(len(hand))]
            elif s != seat:
                hide(hand)
        for deck in world.decks:
            hide(deck)
        hide(world.pile)
        for laid in world.bridge[1 - mine].values():
            hide(laid)
        for group in (*places, pool):
            redeal(group, rand)
        world.seed = rand.randrange(1 << 30)
        world._cache = None
        return world

    def policy(self, seed: int) -> HeuristicBot:
        return HeuristicBot(seed)

    def candidates(self, state: Any, seat: int, actions: Sequence[Any], seed: int) -> list[Any]:
        own = HeuristicBot(seed).choose(state, seat)
        return [own, *(a for a in actions if a != own)]

    def playout_over(self, state: Any, root: Any) -> bool:
        return bool(state.is_over())

    def reward(self, state: Any, seat: int, root: Any) -> float:
        return float(state.outcome().scores[seat])

    def clone(self, state: Any) -> Any:
        return state.clone()


def strong_bot(
    seed: int, *, playouts: int = DEFAULT_PLAYOUTS, budget: float | None = DEFAULT_BUDGET
) -> SearchBot:
    """The strong Er Giò bot: determinized search with the heuristic bot in the playouts."""
    return SearchBot(ErGioSearch(), seed, playouts=playouts, budget=budget)
