"""A match's result from its scontri, for the digital table and for a scorekeeper's summary.

``result_of`` turns the facts of the scontri (who challenged, each side's magistratura, force
and laid figures) into points, the Bella Nazionale and the winner; the engine's outcome and
``GAME.score`` share it, so a record and its summary always score alike. The summary format
is in docs/notation/ergio.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from games.core import Outcome, RecordError, Text, Violation, read, rule_broken
from games.ergio import battle as B
from games.ergio import cards as C
from games.ergio import words as W
from games.ergio.rules import BOOK

JSON = Any
SCONTRI = 6
WINS = 4  # ergio.battle.six: four scontri won decide the match (three all goes to the Bella)

# What one magistratura may bring to the bridge (docs/rules/ergio.md, D7 and D8): a tris of
# three cards, a fourth later, never four combattenti; two reinforcements under a laid
# Magistrato, one under a laid Caposchiera; at most two cards for one made on the spot.
TRIS = 3
MOST_LAID = 4
UNDER_MAGISTRATO = 2
UNDER_CAPOSCHIERA = 1
ON_THE_SPOT = 2


def force_bounds(mask: int, thinned: bool, laid_only: bool = False) -> tuple[int, int]:
    """The least and the most force one side can bring to a scontro whose laid figures are
    exactly ``mask`` (ergio.summary.force_range), from the cards of the deck; with
    ``laid_only``, of its laid cards alone (a summary's ``laid_force``: no reinforcement,
    and nothing laid for one made on the spot).

    The most: the strongest combattenti of the magistratura fill its laid cards, the
    Capitano adds its bonus, a Caposchiera takes the strongest combattente left of its own
    magistratura and a Magistrato the two strongest of the side's others; with no figure, a
    magistratura made on the spot may bring its two strongest instead. The least: a tris
    holds the weakest combattenti beside its figures, reinforcements may be bluffs worth
    nothing, and one made on the spot may bring nothing; ``thinned`` (the packs hold the
    specials: patches fill a tris, Celatini thin a shown magistratura, and, for two, take
    combattenti in battle) leaves only the Capitano's bonus sure."""
    mag = 0  # every magistratura holds the same ranks
    own = sorted(C.FORCE_OF[c] for c in C.mag_cards(mag) if C.IS_FIGHTER[c])
    others = sorted(
        (C.FORCE_OF[c] for m in C.side_mags(0) if m != mag for c in C.mag_cards(m)),
        reverse=True,
    )
    figures = mask.bit_count()
    bonus = C.CAPITANO_BONUS if mask & 2 else 0
    strongest = own[::-1]
    laid = MOST_LAID - max(figures, 1)  # four combattenti are never laid
    most = sum(strongest[:laid]) + bonus
    if laid_only:
        return (bonus if thinned or not figures else sum(own[: TRIS - figures]) + bonus), most
    if mask & 4:
        most += sum(strongest[laid : laid + UNDER_CAPOSCHIERA])
    if mask & 1:
        most += sum(others[:UNDER_MAGISTRATO])
    if not figures:
        most = max(most, sum(strongest[:ON_THE_SPOT]))
    if thinned:
        least = bonus
    elif not figures:
        least = 0  # made on the spot from bluffs, or from no card at all
    else:
        least = sum(own[: max(0, TRIS - figures)]) + bonus
    return least, most


#: (least, most) force per laid-figure mask, for packs without and with the specials
FORCE_BOUNDS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple(force_bounds(mask, thinned) for mask in range(8)) for thinned in (False, True)
)
#: the same for the laid cards' force alone (``laid_force``)
LAID_BOUNDS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple(force_bounds(mask, thinned, True) for mask in range(8)) for thinned in (False, True)
)


# named tuples: one of each is made at every scontro played
class SideFacts(NamedTuple):
    mag: int
    force: int
    mask: int
    laid_force: int | None  # laid combattenti + Capitano, when the cards are known


class ScontroFacts(NamedTuple):
    challenger: int
    sides: tuple[SideFacts, SideFacts]
    winner: int
    reason: str


def _side_json(f: SideFacts) -> dict[str, JSON]:
    return {
        "magistratura": C.MAGISTRATURE[f.mag][0],
        "force": f.force,
        "figures": B.mask_names(f.mask),
    }


def result_of(
    facts: Sequence[ScontroFacts], corteo_winner: int, bella_sums: str, seats: int = 2
) -> dict[str, JSON]:
    """Points, Bella Nazionale and winner from the scontri fought (at most six).

    ``scores`` gives every seat its side's points (even seats Tramontana, odd Mezzogiorno):
    what the ledger writes per seat.
    """
    points = [0, 0]
    scontri = []
    for n, f in enumerate(facts):
        points[f.winner] += 1
        scontri.append(
            {
                "number": n + 1,
                "challenger": C.SIDES[f.challenger],
                "tramontana": _side_json(f.sides[0]),
                "mezzogiorno": _side_json(f.sides[1]),
                "winner": C.SIDES[f.winner],
                "reason": f.reason,
            }
        )
    bella_json: dict[str, JSON] | None = None
    winner: int | None = None
    if max(points) >= 4 or (len(facts) >= SCONTRI and points[0] != points[1]):
        winner = 0 if points[0] > points[1] else 1
    elif len(facts) >= SCONTRI:
        totals = [0, 0]
        figures = [0, 0]
        for f in facts:
            kept = f.sides[f.winner]
            if bella_sums == "laid":
                if kept.laid_force is None:
                    raise RecordError(
                        "bella_sums 'laid' needs the laid cards of the kept magistrature",
                        path="scontri",
                    )
                totals[f.winner] += kept.laid_force
            else:
                totals[f.winner] += kept.force
            figures[f.winner] += kept.mask.bit_count()
        winner, reason = B.bella(totals, figures, corteo_winner)
        bella_json = {
            "winner": C.SIDES[winner],
            "reason": reason,
            "force": dict(zip(C.SIDES, totals, strict=True)),
            "figures": dict(zip(C.SIDES, figures, strict=True)),
        }
    return {
        "corteo_winner": C.SIDES[corteo_winner] if corteo_winner >= 0 else None,
        "scontri": scontri,
        "points": dict(zip(C.SIDES, points, strict=True)),
        "scores": [points[seat % 2] for seat in range(seats)],
        "bella_nazionale": bella_json,
        "winner": C.SIDES[winner] if winner is not None else None,
        "complete": winner is not None,
    }


def outcome_of(result: Mapping[str, JSON], seats: int) -> Outcome:
    """The Outcome of a match from its result (a record's and a summary's alike): the
    seats of the winning side win; a match stopped before its end has no winner yet."""
    sides = [seat % 2 for seat in range(seats)]
    winner = C.SIDES.index(result["winner"]) if result["winner"] else None
    if winner is None:
        termination = "unfinished"
    elif result["bella_nazionale"]:
        termination = "bella_nazionale"
    else:
        termination = "scontri"
    return Outcome.of_sides(result["scores"], termination, sides, winner, result)


# --- summaries ----------------------------------------------------------------------------


def _side_name(raw: Any, path: str) -> int:
    return read.side(raw, path)


def _codes(raw: Any, path: str) -> tuple[int, ...]:
    return tuple(C.DECK.read_list(raw, path))


@dataclass
class _Read:
    mag: int
    force: int | None
    mask: int | None
    sent: B.Sent | None
    laid_force: int | None


def _read_side(raw: Any, path: str) -> _Read:
    if not isinstance(raw, Mapping):
        raise RecordError(
            'expected {"magistratura": ..., "force": n, "figures": [...]} or the cards '
            '{"magistratura": ..., "laid": [...], "magistrato": [...], "caposchiera": [...]}',
            path=path,
        )
    name = raw.get("magistratura")
    key = name.lower().replace("'", "_").replace(" ", "_") if isinstance(name, str) else None
    if key is None or key not in C.MAG_BY_NAME:
        known = ", ".join(s for s, _, _ in C.MAGISTRATURE)
        raise RecordError(
            f"unknown magistratura {name!r}; known: {known}", path=f"{path}.magistratura"
        )
    mag = C.MAG_BY_NAME[key]
    force = raw.get("force")
    if force is not None:
        force = read.whole(force, f"{path}.force")
    mask: int | None = None
    if raw.get("figures") is not None:
        figs = raw["figures"]
        if not isinstance(figs, list) or any(f not in C.FIGURE_NAMES for f in figs):
            raise RecordError(
                "expected a list of magistrato, capitano, caposchiera", path=f"{path}.figures"
            )
        if len(set(figs)) != len(figs):
            raise RecordError("a figure is listed twice", path=f"{path}.figures")
        mask = B.names_mask(figs)
    sent: B.Sent | None = None
    if any(k in raw for k in ("laid", "magistrato", "caposchiera", "spot")):
        sent = B.Sent(
            mag,
            _codes(raw.get("laid", []), f"{path}.laid"),
            _codes(raw.get("magistrato", []), f"{path}.magistrato"),
            _codes(raw.get("caposchiera", []), f"{path}.caposchiera"),
            _codes(raw.get("spot", []), f"{path}.spot"),
        )
    if force is None and sent is None:
        raise RecordError("give the force (and figures) or the cards", path=path)
    laid_force = raw.get("laid_force")
    if laid_force is not None:
        laid_force = read.whole(laid_force, f"{path}.laid_force")
    return _Read(mag, force, mask, sent, laid_force)


def _card_problems(r: _Read, side: int) -> list[Text]:
    """What a real game cannot produce in one side's cards of a scontro (ergio.summary.cards):
    the other side's cards, a card written twice, laid cards that are not the magistratura's
    own (or its patches), four laid combattenti, reinforcements without the figure that admits
    them or more than it admits, spot cards beside laid ones, and figures written beside the
    cards that are not among them. A face-down card the figure does not count (a combattente
    of the wrong magistratura) may be slipped as a bluff and counts nothing, as in play."""
    sent = r.sent
    assert sent is not None
    name = W.magistratura(C.SIDES[side])
    out: list[Text] = []

    def say(it: str, en: str) -> None:
        out.append(Text(f"{name}: {it}", f"{name}: {en}"))

    every = [*sent.laid, *sent.under_magistrato, *sent.under_caposchiera, *sent.spot]
    if any(C.SIDE_OF[c] != side for c in every):
        say("una carta è dell'altra parte.", "a card belongs to the other side.")
    unique = [c for c in every if C.MAG_OF[c] >= 0]
    if len(set(unique)) != len(unique):
        say("una carta è scritta due volte.", "a card is written twice.")
    if len(sent.laid) > 4:
        say("al più quattro carte in mostra.", "at most four cards are laid.")
    if any(C.MAG_OF[c] != sent.mag and C.LOCAL[c] not in C.PATCHES_MAG for c in sent.laid):
        say(
            "in mostra solo carte della magistratura (o le sue toppe).",
            "only the magistratura's own cards (or its patches) are laid.",
        )
    if len(sent.laid) == 4 and all(C.IS_FIGHTER[c] for c in sent.laid):
        say("non quattro combattenti in mostra.", "four combattenti are never laid.")
    mask = C.figures_mask(sent.laid)
    if sent.under_magistrato and not mask & 1:
        say(
            "rinforzi sotto il Magistrato senza Magistrato.", "reinforcements without a Magistrato."
        )
    if len(sent.under_magistrato) > 2:
        say("al più due carte sotto il Magistrato.", "at most two cards under the Magistrato.")
    if sent.under_caposchiera and not mask & 4:
        say(
            "rinforzo sotto il Caposchiera senza Caposchiera.",
            "a reinforcement without a Caposchiera.",
        )
    if len(sent.under_caposchiera) > 1:
        say("al più una carta sotto il Caposchiera.", "at most one card under the Caposchiera.")
    if sent.spot and (sent.laid or len(sent.spot) > 2):
        say(
            "al più due carte sul momento, solo senza carte in mostra.",
            "at most two cards on the spot, only with none laid.",
        )
    if r.mask is not None and r.mask != mask:
        say(
            "le figure scritte non sono quelle in mostra.",
            "the figures written are not those laid.",
        )
    return out


def _beyond_the_pack(
    sent: B.Sent, side: int, copies: Mapping[int, int], written: dict[int, int]
) -> list[Text]:
    """Cards of a scontro that, with those of the scontri before it, come to more copies than
    the side's pack holds (ergio.summary.cards): a card fights in one scontro only, since
    the cards on the bridge go to the winner's pile or the Arno, never back to a hand; a
    Generale or other special card is in the pack only in the advanced game."""
    out: list[Text] = []
    name = W.magistratura(C.SIDES[side])
    seen: set[int] = set()
    for c in (*sent.laid, *sent.under_magistrato, *sent.under_caposchiera, *sent.spot):
        if C.SIDE_OF[c] != side or (C.MAG_OF[c] >= 0 and c in seen):
            continue  # the other side's card, a card twice in one scontro: refused on their own
        seen.add(c)
        written[c] = written.get(c, 0) + 1
        if written[c] == copies.get(c, 0) + 1:
            held = copies.get(c, 0)
            out.append(
                Text(
                    f"{name}: {W.card(C.CODES[c], 'it')} scritta più volte di quante la parte "
                    f"ne abbia ({held}).",
                    f"{name}: {W.card(C.CODES[c], 'en')} is written more times than the side "
                    f"holds it ({held}).",
                )
            )
    return out


def score_summary(
    summary: Mapping[str, Any],
    tie_order: str,
    bella_sums: str,
    effects: bool,
    seats: int = 2,
    specials: bool | None = None,
    all_six: bool = True,
) -> tuple[dict[str, JSON] | None, list[Violation]]:
    """Read a summary, check it can be, and score it (docs/notation/ergio.md).

    ``specials``: whether the sides' packs hold the special cards (the advanced game;
    by default as ``effects`` says). ``all_six``: the ruleset's option (fight all six, or
    stop at a side's fourth win)."""
    with_specials = effects if specials is None else specials
    copies: list[dict[int, int]] = [{}, {}]
    for side in (0, 1):
        for c in C.deck(side, with_specials):
            copies[side][c] = copies[side].get(c, 0) + 1
    written: list[dict[int, int]] = [{}, {}]
    corteo = _side_name(summary.get("corteo_winner"), "corteo_winner")
    raw = summary.get("scontri")
    if not isinstance(raw, list):
        raise RecordError("expected a list of up to six scontri", path="scontri")
    found: list[Violation] = []
    if len(raw) > SCONTRI:
        found.append(
            rule_broken(
                BOOK,
                "ergio.summary.scontri_max",
                f"Ne sono scritti {len(raw)}.",
                f"{len(raw)} are written.",
            )
        )
        return None, found
    facts: list[ScontroFacts] = []
    used: list[set[int]] = [set(), set()]
    expected = corteo
    won = [0, 0]
    decided: int | None = None  # the scontro that gave a side its fourth win
    for n, s in enumerate(raw):
        path = f"scontri[{n}]"
        if not isinstance(s, Mapping):
            raise RecordError(
                "expected an object with challenger, tramontana, mezzogiorno", path=path
            )
        challenger = _side_name(s.get("challenger"), f"{path}.challenger")
        for name in C.SIDES:
            if name not in s:
                raise RecordError(f"the scontro has no {name} side", path=path)
        reads = [_read_side(s[name], f"{path}.{name}") for name in C.SIDES]
        where = {"scontro": n + 1}
        if challenger != expected:
            found.append(
                rule_broken(
                    BOOK,
                    "ergio.summary.challenger",
                    f"Doveva sfidare {W.magistratura(C.SIDES[expected])}.",
                    f"{W.magistratura(C.SIDES[expected])} was to challenge.",
                    **where,
                )
            )
        for side, r in enumerate(reads):
            label = C.MAGISTRATURE[r.mag][1]
            if r.mag // 6 != side:
                found.append(
                    rule_broken(
                        BOOK,
                        "ergio.summary.magistratura_side",
                        f"{label} non è di {W.magistratura(C.SIDES[side])}.",
                        f"{label} is not of {W.magistratura(C.SIDES[side])}.",
                        **where,
                    )
                )
            if r.mag in used[side]:
                found.append(
                    rule_broken(
                        BOOK,
                        "ergio.summary.magistratura_twice",
                        f"{label} ha già combattuto.",
                        f"{label} has already fought.",
                        **where,
                    )
                )
            used[side].add(r.mag)
        for side, r in enumerate(reads):
            if r.sent is not None:
                problems = _card_problems(r, side)
                problems += _beyond_the_pack(r.sent, side, copies[side], written[side])
                found.extend(
                    rule_broken(BOOK, "ergio.summary.cards", problem.it, problem.en, **where)
                    for problem in problems
                )
        computed: B.Clash | None = None
        if reads[0].sent is not None and reads[1].sent is not None:
            computed = B.clash(
                (reads[0].sent, reads[1].sent), challenger, effects=effects, tie_order=tie_order
            )
        sides: list[SideFacts] = []
        for side, r in enumerate(reads):
            if r.sent is not None:
                if computed is not None:
                    f_cards, m_cards = computed.forces[side], computed.masks[side]
                else:
                    a = B.assess(r.sent, False)
                    f_cards, m_cards = sum(a.fighters) + a.bonus, a.mask
                if r.force is not None and r.force != f_cards:
                    who = W.magistratura(C.SIDES[side])
                    found.append(
                        rule_broken(
                            BOOK,
                            "ergio.summary.force_mismatch",
                            f"{who}: scritto {r.force}, le carte danno {f_cards}.",
                            f"{who}: written {r.force}, the cards give {f_cards}.",
                            **where,
                        )
                    )
                force = f_cards
                # the figures that count are those among the laid cards (checked above)
                mask = m_cards
                laid: int | None = C.force_of_laid(r.sent.laid)
            else:
                assert r.force is not None
                force = r.force
                mask = r.mask or 0
                laid = r.laid_force
            if r.sent is None:  # cards written give their own force, checked above
                least, most = FORCE_BOUNDS[with_specials][mask]
                if not least <= force <= most:
                    found.append(_force_out_of_reach(side, force, mask, least, most, n))
                least, most = LAID_BOUNDS[with_specials][mask]
                if laid is not None and not least <= laid <= most:
                    found.append(_force_out_of_reach(side, laid, mask, least, most, n, True))
            sides.append(SideFacts(r.mag, force, mask, laid))
        winner, reason = B.decide(
            [sides[0].force, sides[1].force], [sides[0].mask, sides[1].mask], challenger, tie_order
        )
        facts.append(ScontroFacts(challenger, (sides[0], sides[1]), winner, reason))
        expected = winner
        won[winner] += 1
        if decided is None and won[winner] == WINS:
            decided = n
    if decided is not None and decided + 1 < len(facts):
        found += _after_the_fourth_win(facts, decided, all_six)
    return result_of(facts, corteo, bella_sums, seats), found


def _force_out_of_reach(
    side: int, force: int, mask: int, least: int, most: int, n: int, laid: bool = False
) -> Violation:
    """A force no team with these laid figures can bring (ergio.summary.force_range), or its
    laid cards (``laid``), placed at that field of the scontro's row."""
    names = ", ".join(n.capitalize() for n in B.mask_names(mask))
    with_it = f"con {names}" if names else "senza figure"
    with_en = f"with {names}" if names else "with no figure"
    name = C.SIDES[side].capitalize()
    what = ("forza delle carte calate", "force of the laid cards") if laid else ("forza", "force")
    return rule_broken(
        BOOK,
        "ergio.summary.force_range",
        f"{name}: {what[0]} {force} {with_it}; possibile da {least} a {most}.",
        f"{name}: {what[1]} {force} {with_en}; possible from {least} to {most}.",
        scontro=n + 1,
        field=f"{'tm'[side]}_{'laid_force' if laid else 'force'}",
    )


def _after_the_fourth_win(
    facts: Sequence[ScontroFacts], decided: int, all_six: bool
) -> list[Violation]:
    """Scontri written after a side's fourth win (ergio.summary.match_end): with ``all_six``
    off the battle stopped there; with it the summary either stops there or writes all six."""
    side = C.SIDES[facts[decided].winner].capitalize()
    if all_six and len(facts) == SCONTRI:
        return []
    if all_six:
        it = (
            f"{side} ha vinto il quarto scontro al {decided + 1}º: fermati lì o scrivi tutti "
            f"e sei gli scontri, non {len(facts)}."
        )
        en = (
            f"{side} won its fourth scontro at number {decided + 1}: stop there or write all "
            f"six scontri, not {len(facts)}."
        )
    else:
        it = f"La battaglia è finita al {decided + 1}º scontro, quando {side} ne ha vinti quattro."
        en = f"The battle ended at scontro {decided + 1}, when {side} had won four."
    return [rule_broken(BOOK, "ergio.summary.match_end", it, en, scontro=decided + 2)]
