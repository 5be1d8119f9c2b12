"""Er Giò in words, as players say them (Italian and English)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.core.words import join, pick, plain, seat_name
from games.ergio import cards as C

MAG_BY_CODE = {code: label for _slug, label, code in C.MAGISTRATURE}
MAG_BY_SLUG = {slug: label for slug, label, _code in C.MAGISTRATURE}
FIGURES = {
    "MAG": ("Magistrato", "Magistrato"),
    "CAP": ("Capitano", "Capitano"),
    "CSC": ("Caposchiera", "Caposchiera"),
}
GROUPS = {
    "CEL": ("Celatino", "Celatino"),
    "GCCC": ("Guardia al Campo con Corazza", "Camp Guard with Cuirass"),
    "GCSC": ("Guardia al Campo senza Corazza", "Camp Guard without Cuirass"),
    "GEN": ("Generale", "General"),
    "MDC": ("Maestro di Campo", "Maestro di Campo"),
    "TAM": ("Tamburino", "Drummer"),
    "TRO": ("Trombettiere", "Trumpeter"),
    "LAP": ("Luogotenente Alfiere di Parte", "Lieutenant Standard-bearer"),
    "LUO": ("Luogotenente Alfiere di Parte", "Lieutenant Standard-bearer"),
}
# Where a Celatino strikes (ergio.adv.celatino.target), and what a special takes back.
CELATINO_TARGETS = {
    "deck": ("la prima carta del mazzo avversario", "the top card of the opposing deck"),
    "field": ("il Corteo avversario", "the opposing Corteo"),
    "hand": ("una carta a caso della mano", "a random card of the hand"),
    "pile": ("il mucchio comune", "the common pile"),
}
TAKES = {
    "TRO": ("e prende dal proprio mazzo", "and takes from its own deck"),
    "TAM": ("e riprende dall'Arno", "and takes back from the Arno"),
    "LUO": ("e riprende dal Corteo", "and takes back from the Corteo"),
}
TAKES_SHORT = {
    "TRO": ("prendi dal mazzo", "take from the deck"),
    "TAM": ("riprendi dall'Arno", "take back from the Arno"),
    "LUO": ("riprendi dal Corteo", "take back from the Corteo"),
}


def _target(where: Any, lang: str) -> str:
    it, en = CELATINO_TARGETS.get(str(where), (str(where), str(where)))
    return pick(lang, it, en)


SIDES = {"T": ("Tramontana", "Tramontana"), "M": ("Mezzogiorno", "Mezzogiorno")}


def card(code: str, lang: str) -> str:
    head, _sep, tail = code.partition("-")
    if head in SIDES:
        it, en = GROUPS.get(tail, (tail, tail))
        side = SIDES[head][0]
        return pick(lang, f"{it} di {side}", f"{en} of {side}")
    mag = MAG_BY_CODE.get(head, head)
    if tail in FIGURES:
        it, en = FIGURES[tail]
        return pick(lang, f"{it} di {mag}", f"{en} of {mag}")
    if tail.isdigit():
        return pick(lang, f"combattente {tail} di {mag}", f"fighter {tail} of {mag}")
    return code


#: Where a face-down reinforcement goes, as players say it (Italian, English).
UNDER_WORDS = {
    "magistrato": (" sotto il magistrato", " under the magistrato"),
    "caposchiera": (" sotto il caposchiera", " under the caposchiera"),
    "spot": (" in una magistratura fatta sul momento", " into a magistratura made on the spot"),
}


def magistratura(slug: str) -> str:
    return MAG_BY_SLUG.get(slug, slug.replace("_", " ").title())


def action(act: dict[str, Any], lang: str, names: Sequence[str] | None = None) -> str:
    if "lay" in act:
        return pick(lang, "schiera ", "lays ") + ", ".join(card(c, lang) for c in act["lay"])
    if "add" in act:
        return pick(lang, "aggiunge ", "adds ") + card(act["add"], lang)
    if "swap" in act:
        return (
            pick(lang, "scambia ", "swaps ")
            + card(act["swap"], lang)
            + pick(lang, " con ", " for ")
            + card(act["for"], lang)
        )
    if "celatino" in act:
        where = act["celatino"]
        text = pick(lang, "gioca un Celatino contro ", "plays a Celatino against ")
        if where == "hand" and act.get("victim") is not None:
            victim = seat_name(act["victim"], lang, names)
            text += pick(lang, f"la mano di {victim}", f"{victim}'s hand") + pick(
                lang, " (una carta a caso)", " (a random card)"
            )
        else:
            text += _target(where, lang)
        if act.get("card"):
            text += ": " + card(act["card"], lang)
        if act.get("at") is not None:
            text += ": " + pile_place(act["at"], lang)
        return text
    if "special" in act:
        text = pick(lang, "gioca ", "plays ") + card(act["special"], lang)
        if act.get("card"):
            kind = str(act["special"]).partition("-")[2]
            it, en = TAKES.get(kind, ("su", "on"))
            text += " " + pick(lang, it, en) + " " + card(act["card"], lang)
        return text
    if "pass" in act:
        return pick(lang, "passa ", "passes ") + card(act["pass"], lang)
    if "draw" in act:
        return pick(lang, "pesca dal ", "draws from the ") + plain(act["draw"], lang)
    if "arno" in act:
        return pick(lang, "getta in Arno ", "throws into the Arno ") + card(act["arno"], lang)
    if "end" in act:
        return pick(lang, "finisce il turno", "ends the turn")
    if "sabotage" in act:
        return (
            pick(lang, "sabota", "sabotages")
            if act["sabotage"]
            else pick(lang, "non sabota", "does not sabotage")
        )
    if "send" in act:
        return pick(lang, "manda allo scontro ", "sends to the scontro ") + magistratura(
            act["send"]
        )
    if "reinforce" in act:
        under = act.get("under")
        text = pick(lang, "rinforza con ", "reinforces with ") + card(act["reinforce"], lang)
        if under:
            text += pick(lang, *UNDER_WORDS.get(under, (f" sotto {under}", f" under {under}")))
        return text
    if "ready" in act:
        return pick(lang, "pronto allo scontro", "ready for the scontro")
    return plain(act, lang)


def verb(act: dict[str, Any], lang: str) -> str:
    """A card's move in a word or two, written under the card it moves."""
    if "add" in act:
        return pick(lang, "al Corteo", "to the Corteo")
    if "arno" in act:
        return pick(lang, "in Arno", "into the Arno")
    if "pass" in act:
        return pick(lang, "passa", "pass")
    if "reinforce" in act:
        under = act.get("under")
        spots = {
            "magistrato": ("sotto il Magistrato", "under the Magistrato"),
            "caposchiera": ("sotto il Caposchiera", "under the Caposchiera"),
        }
        it, en = spots.get(str(under), ("rinforzo", "reinforce"))
        return pick(lang, it, en)
    if "swap" in act:
        return pick(lang, "scambia con ", "swap for ") + card(act["for"], lang)
    if "special" in act:
        if not act.get("card"):
            return pick(lang, "gioca", "play")
        kind = str(act["special"]).partition("-")[2]
        it, en = TAKES_SHORT.get(kind, ("gioca su", "play on"))
        return pick(lang, it, en) + ": " + card(act["card"], lang)
    if "celatino" in act:
        text = pick(lang, "Celatino contro ", "Celatino against ") + _target(act["celatino"], lang)
        if act.get("at") is not None:
            text += ": " + pile_place(act["at"], lang)
        return text
    return action(act, lang)


STATE_LABELS = {
    "phase": ("Fase", "Phase"),
    "side": ("La tua parte", "Your side"),
    "turn": ("Turno", "Turn"),
    "hand_sizes": ("Carte in mano", "Cards in hand"),
    "decks": ("Carte nei mazzi", "Cards in the decks"),
    "field": ("Cortei", "Cortei"),
    "specials": ("Speciali", "Specials"),
    "arno": ("Arno", "Arno"),
    "pile": ("Pila", "Pile"),
    "kept": ("Tenute", "Kept"),
    "corteo_winner": ("Vince il Corteo", "Corteo won by"),
    "battle": ("Scontro in corso", "Scontro in progress"),
    "ruleset": ("Regole", "Rules"),
    "to_act": ("Di turno", "To act"),
}


def _word(code: str, lang: str) -> str:
    if code in C.BY_CODE:
        return card(code, lang)
    if code in MAG_BY_SLUG:
        return magistratura(code)
    return code.replace("_", " ")


def state(
    view: dict[str, Any], lang: str, names: Sequence[str] | None = None
) -> list[tuple[str, str]]:
    out = []
    for key, v in view.items():
        if key in ("hand", "game", "seat", "result") or v in (None, [], {}):
            continue
        label = STATE_LABELS.get(key, (key.replace("_", " "), key.replace("_", " ")))
        if key == "field" and isinstance(v, list):
            for i, side in enumerate(v):
                groups = "; ".join(
                    f"{_word(k, lang)}: {plain(cards, lang, _word)}" for k, cards in side.items()
                )
                side = (SIDES["T"], SIDES["M"])[i % 2][0]
                out.append((pick(lang, f"Corteo di {side}", f"{side}'s Corteo"), groups or "—"))
            continue
        out.append((pick(lang, *label), plain(v, lang, _word)))
    return out


REASONS = {
    "force": ("per forza", "on force"),
    "figures": ("per le figure", "on figures"),
    "magistrato": ("per il Magistrato", "on the Magistrato"),
    "challenger": ("per chi ha sfidato", "to the challenger"),
}


def outcome_lines(detail: Any, lang: str) -> list[str]:
    """Each scontro of a finished match in words: the two magistrature, their forces and
    who won it and why; then the bella nazionale when it decided."""
    if not isinstance(detail, dict):
        return []
    out = []
    for n, s in enumerate(detail.get("scontri") or [], start=1):
        if not isinstance(s, dict):
            continue
        sides = []
        for key in ("tramontana", "mezzogiorno"):
            mine = s.get(key) or {}
            sides.append(
                pick(lang, "{side} ({mag}) forza {force}", "{side} ({mag}) force {force}").format(
                    side=SIDES[key[0].upper()][0],
                    mag=magistratura(str(mine.get("magistratura", ""))),
                    force=mine.get("force", "?"),
                )
            )
        winner = str(s.get("winner", ""))
        why = REASONS.get(str(s.get("reason", "")), (str(s.get("reason", "")),) * 2)
        won = SIDES.get(winner[:1].upper(), (winner, winner))[0] if winner else "—"
        out.append(
            pick(
                lang,
                "Scontro {n}: {a} contro {b} — vince {w} {why}",
                "Scontro {n}: {a} against {b} — {w} wins {why}",
            ).format(n=n, a=sides[0], b=sides[1], w=won, why=pick(lang, *why))
        )
    bella = detail.get("bella_nazionale")
    if isinstance(bella, dict) and bella.get("winner"):
        won = SIDES.get(str(bella["winner"])[:1].upper(), ("", ""))[0]
        out.append(pick(lang, f"Bella nazionale: vince {won}", f"Bella nazionale: {won} wins"))
    return out


def pile_place(at: int, lang: str) -> str:
    """A place in the common pile, where the cards lie face down: counted from the top."""
    if at == 0:
        return pick(lang, "la carta in cima", "the top card")
    return pick(lang, f"la {at + 1}ª carta dall'alto", f"card {at + 1} from the top")


def _figures(names: Any, lang: str) -> str:
    # the figures keep their Italian names in both languages, as the game's own terms
    laid = [str(f).capitalize() for f in names or () if f in C.FIGURE_NAMES]
    if not laid:
        return pick(lang, "senza figure", "with no figure")
    return pick(lang, "con ", "with ") + join(laid, lang)


def _side_players(side: int, names: Sequence[str] | None) -> str:
    """A side with the players at its seats (even seats Tramontana, odd Mezzogiorno)."""
    label = SIDES["TM"[side]][0]
    who = [str(n) for seat, n in enumerate(names or ()) if seat % 2 == side and n]
    return f"{label} ({', '.join(who)})" if who else label


WHY = {
    "force": ("con più forza", "with more force"),
    "figures": ("a parità di forza, per le figure", "on equal force, by the figures"),
    "challenger": ("a parità di tutto, perché ha sfidato", "all level, as the challenger"),
}


def describe(detail: Any, lang: str, names: Sequence[str] | None = None) -> list[str]:
    """What a match's result declares, in words (GAME.describe): the Corteo's winner, each
    scontro with both magistrature, their forces and laid figures and who won it and why,
    the score, the Bella Nazionale with its sums, and the winner."""
    if not isinstance(detail, dict):
        return []
    out: list[str] = []
    corteo = detail.get("corteo_winner")
    if isinstance(corteo, str) and corteo in C.SIDES:
        side = _side_players(C.SIDES.index(corteo), names)
        out.append(pick(lang, f"Corteo Storico vinto da {side}.", f"Corteo Storico won by {side}."))
    for s in detail.get("scontri") or []:
        if not isinstance(s, dict):
            continue
        sides = []
        for key in C.SIDES:
            mine = s.get(key) or {}
            sides.append(
                pick(
                    lang,
                    "{side}: {mag}, forza {force} {figs}",
                    "{side}: {mag}, force {force} {figs}",
                ).format(
                    side=SIDES[key[0].upper()][0],
                    mag=magistratura(str(mine.get("magistratura", ""))),
                    force=mine.get("force", "—"),
                    figs=_figures(mine.get("figures"), lang),
                )
            )
        winner = str(s.get("winner", ""))
        won = SIDES.get(winner[:1].upper(), (winner, winner))[0]
        why = pick(lang, *WHY.get(str(s.get("reason", "")), ("", "")))
        challenger = str(s.get("challenger", ""))
        by = SIDES.get(challenger[:1].upper(), (challenger, challenger))[0]
        out.append(
            pick(
                lang,
                "Scontro {n} (sfida {by}): {a}; {b}. Vince {w} {why}.",
                "Scontro {n} ({by} challenges): {a}; {b}. {w} wins {why}.",
            ).format(n=s.get("number", "—"), by=by, a=sides[0], b=sides[1], w=won, why=why)
        )
    points = detail.get("points")
    if isinstance(points, dict):
        t, m = _side_players(0, names), _side_players(1, names)
        out.append(f"{t} {points.get('tramontana', 0)} – {points.get('mezzogiorno', 0)} {m}.")
    bella = detail.get("bella_nazionale")
    if isinstance(bella, dict) and bella.get("winner"):
        won = SIDES.get(str(bella["winner"])[:1].upper(), ("", ""))[0]
        force, figs = bella.get("force") or {}, bella.get("figures") or {}
        sums = pick(
            lang,
            "forza delle magistrature conservate {a} a {b}, figure {c} a {d}",
            "force of the kept magistrature {a} to {b}, figures {c} to {d}",
        ).format(
            a=force.get("tramontana", 0),
            b=force.get("mezzogiorno", 0),
            c=figs.get("tramontana", 0),
            d=figs.get("mezzogiorno", 0),
        )
        said = {
            "force": ("per forza", "on force"),
            "figures": ("per le figure", "on figures"),
            "corteo": ("a chi ha vinto il Corteo", "to the Corteo's winner"),
        }.get(str(bella.get("reason")), ("", ""))
        out.append(
            pick(
                lang,
                f"Tre pari: Bella Nazionale a {won} {said[0]} ({sums}).",
                f"Three all: the Bella Nazionale goes to {won} {said[1]} ({sums}).",
            )
        )
    match_winner = detail.get("winner")
    if isinstance(match_winner, str) and match_winner in C.SIDES:
        side = _side_players(C.SIDES.index(match_winner), names)
        out.append(pick(lang, f"{side} vince la partita.", f"{side} wins the match."))
    elif detail.get("scontri") is not None:
        out.append(pick(lang, "La partita non è finita.", "The match is not over."))
    return out
