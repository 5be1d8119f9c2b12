"""The arithmetic of a scontro and of the Bella Nazionale, shared by play and summaries.

A side's force on the bridge is the force of the combattenti laid in its magistratura, plus 5
for a laid Capitano, plus its valid face-down reinforcements: under a laid Magistrato up to two
combattenti of *other* magistrature, under a laid Caposchiera one combattente of *the same*
magistratura. Anything else placed face down counts zero (a bluff). A magistratura with no
laid card is made on the spot from at most two face-down cards: only its own combattenti count.

With ``effects`` (advanced game for two), each Celatino under the Magistrato removes the
weakest opposing combattente, and each Guardia (GCCC or GCSC) under the Magistrato cancels one
opposing Celatino.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from games.core.cards import cards_in, mask_of
from games.ergio import cards as C

TIE_ORDERS = ("magistrato_first", "caposchiera_first", "count_first")
BELLA_SUMS = ("scontro", "laid")
_ORDER: dict[str, tuple[int, ...]] = {
    # the stated hierarchy of importance: Magistrato, then Capitano, then Caposchiera
    "magistrato_first": (C.MAGISTRATO, C.CAPITANO, C.CAPOSCHIERA),
    # the worked procedure of the rule text: Caposchiera, then Capitano, then Magistrato
    "caposchiera_first": (C.CAPOSCHIERA, C.CAPITANO, C.MAGISTRATO),
    # more figures first, then the hierarchy
    "count_first": (C.MAGISTRATO, C.CAPITANO, C.CAPOSCHIERA),
}
MAX_FORCE = 32  # Magistrato, Capitano, 7 and 6 laid (18) + two 7s of other magistrature (14)


class Sent(NamedTuple):
    """One side's magistratura on the bridge: laid cards and face-down reinforcements (a
    named tuple: one is made for each side of every scontro)."""

    mag: int
    laid: tuple[int, ...] = ()
    under_magistrato: tuple[int, ...] = ()
    under_caposchiera: tuple[int, ...] = ()
    spot: tuple[int, ...] = ()


class Assessed(NamedTuple):
    fighters: tuple[int, ...]  # force of each counted combattente, laid and reinforcing
    bonus: int  # the Capitano's 5
    mask: int  # laid figures: bit 1 Magistrato, 2 Capitano, 4 Caposchiera
    celatini: int
    guards: int


def assess(sent: Sent, effects: bool) -> Assessed:
    """What one side brings before the opposing Celatini act."""
    if not sent.laid:
        own = sorted(
            (C.FORCE_OF[c] for c in sent.spot[:2] if C.IS_FIGHTER[c] and C.MAG_OF[c] == sent.mag),
            reverse=True,
        )
        return Assessed(tuple(own), 0, 0, 0, 0)
    fighters = [C.FORCE_OF[c] for c in sent.laid if C.IS_FIGHTER[c]]
    mask = C.figures_mask(sent.laid)
    # ergio.battle.capitano: a laid Capitano adds its 5 to the side's force.
    bonus = C.CAPITANO_BONUS if mask & 2 else 0
    celatini = guards = 0
    if mask & 1:
        for c in sent.under_magistrato[:2]:
            # ergio.battle.reinforce.magistrato: under the Magistrato only combattenti of the side's
            # other magistrature count; ergio.battle.reinforce.bluff: anything else counts zero.
            if C.IS_FIGHTER[c] and C.MAG_OF[c] != sent.mag:
                fighters.append(C.FORCE_OF[c])
            # ergio.adv.battle.celatino: each Celatino under the Magistrato (advanced game for two)
            # takes away the opponent's weakest combattente (clash() applies the hits).
            elif effects and C.LOCAL[c] == C.CELATINO:
                celatini += 1
            # ergio.adv.battle.guard: each Guardia under the Magistrato cancels one opposing
            # Celatino.
            elif effects and C.LOCAL[c] in (C.GCCC, C.GCSC):
                guards += 1
    if mask & 4:
        for c in sent.under_caposchiera[:1]:
            # ergio.battle.reinforce.caposchiera: under the Caposchiera only a combattente of the
            # same magistratura counts; anything else is a bluff at zero.
            if C.IS_FIGHTER[c] and C.MAG_OF[c] == sent.mag:
                fighters.append(C.FORCE_OF[c])
    return Assessed(tuple(fighters), bonus, mask, celatini, guards)


class Clash(NamedTuple):
    forces: tuple[int, int]
    masks: tuple[int, int]
    removed: tuple[tuple[int, ...], tuple[int, ...]]  # combattenti lost to Celatini
    winner: int
    reason: str


def clash(sides: Sequence[Sent], challenger: int, *, effects: bool, tie_order: str) -> Clash:
    """Resolve one scontro between side 0 (Tramontana) and side 1 (Mezzogiorno)."""
    a = [assess(s, effects) for s in sides]
    forces: list[int] = []
    removed: list[tuple[int, ...]] = []
    for i in (0, 1):
        other = a[1 - i]
        # ergio.adv.battle.celatino / ergio.adv.battle.guard: the Celatini not cancelled by Guardie
        # remove that many of the weakest combattenti.
        hits = max(0, other.celatini - a[i].guards)
        ordered = sorted(a[i].fighters)
        lost = tuple(ordered[:hits])
        removed.append(lost)
        forces.append(sum(ordered[hits:]) + a[i].bonus)
    masks = (a[0].mask, a[1].mask)
    winner, reason = decide(forces, masks, challenger, tie_order)
    return Clash((forces[0], forces[1]), masks, (removed[0], removed[1]), winner, reason)


_FORCE_OF = C.FORCE_OF
CAPITANO_BONUS = C.CAPITANO_BONUS
_MAG_OF = C.MAG_OF
#: bit 1 Magistrato, 2 Capitano, 4 Caposchiera (as figures_mask) for each card
_FIGURE_BIT: tuple[int, ...] = tuple(1 << r if 0 <= r < 3 else 0 for r in C.RANK_OF)


def plain_force(sent: Sent) -> tuple[int, int, int]:
    """Force, laid figures and laid force of one side without Celatini or Guardie acting (what
    ``assess`` counts when ``effects`` is off, summed; ``force_of_laid`` of its laid cards).
    A combattente has a force above zero and nothing else has, so the sums need no test."""
    mag = sent.mag
    laid = sent.laid
    if not laid:
        spot = sent.spot[:2]
        force = 0
        for c in spot:
            if _MAG_OF[c] == mag:
                force += _FORCE_OF[c]
        return force, 0, 0
    force = mask = 0
    for c in laid:
        force += _FORCE_OF[c]
        mask |= _FIGURE_BIT[c]
    if mask & 2:
        force += CAPITANO_BONUS
    laid_force = force
    if mask & 1:
        for c in sent.under_magistrato[:2]:
            if _MAG_OF[c] != mag:
                force += _FORCE_OF[c]
    if mask & 4:
        for c in sent.under_caposchiera[:1]:
            if _MAG_OF[c] == mag:
                force += _FORCE_OF[c]
    return force, mask, laid_force


_NO_LOSS: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())


def plain_clash(
    t: tuple[int, int, int], m: tuple[int, int, int], challenger: int, tie_order: str
) -> Clash:
    """``clash`` with ``effects`` off, from each side's ``plain_force``."""
    forces = (t[0], m[0])
    masks = (t[1], m[1])
    winner, reason = decide(forces, masks, challenger, tie_order)
    return Clash(forces, masks, _NO_LOSS, winner, reason)


def figures_beat(a: int, b: int, order: str) -> int:
    """Compare two figure masks for a tie: 1 if a wins, -1 if b wins, 0 if level."""
    if order == "count_first":
        ca, cb = a.bit_count(), b.bit_count()
        if ca != cb:
            return 1 if ca > cb else -1
    for rank in _ORDER[order]:
        bit = 1 << rank
        if (a & bit) != (b & bit):
            return 1 if a & bit else -1
    return 0


def decide(
    forces: Sequence[int], masks: Sequence[int], challenger: int, order: str
) -> tuple[int, str]:
    """The winning side of a scontro and why: ``force``, ``figures`` or ``challenger``."""
    if forces[0] != forces[1]:
        return (0 if forces[0] > forces[1] else 1), "force"
    # ergio.battle.tie.figures: equal force goes to the laid figures, in the ruleset's tie_order.
    by_figures = figures_beat(masks[0], masks[1], order)
    if by_figures:
        return (0 if by_figures > 0 else 1), "figures"
    # ergio.battle.tie.challenger: level on force and figures, the challenger wins.
    return challenger, "challenger"


def bella(totals: Sequence[int], figures: Sequence[int], corteo_winner: int) -> tuple[int, str]:
    """The Bella Nazionale after 3-3: force of the kept magistrature, figures, the Corteo."""
    # ergio.bella.force: at 3-3 the greater force of the kept magistrature takes the Bella.
    if totals[0] != totals[1]:
        return (0 if totals[0] > totals[1] else 1), "force"
    # ergio.bella.figures: on equal force, the side with more kept figures.
    if figures[0] != figures[1]:
        return (0 if figures[0] > figures[1] else 1), "figures"
    # ergio.bella.corteo: level on both, the Corteo's winner takes the Bella.
    return corteo_winner, "corteo"


def mask_names(mask: int) -> list[str]:
    return [C.FIGURE_NAMES[r] for r in cards_in(mask)]


def names_mask(names: Sequence[str]) -> int:
    return mask_of(C.FIGURE_NAMES.index(n) for n in names)
