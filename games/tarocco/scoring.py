"""Scores of a smazzata from what a scorekeeper writes (docs/notation/tarocco.md).

``score_hand`` is the arithmetic of the rules text; ``score_summary`` reads a summary,
names every impossible fact with a rule id, and scores it. A set of smazzate (``hands``)
is scored cumulatively.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.core import Outcome, RecordError, Violation, places_by, read, rule_broken
from games.core.text import seat_no, written_and_due
from games.tarocco import cards as C
from games.tarocco.rules import BOOK

JSON = Any
SEATS = 4
OUTCOMES = ("solo", "pairs", "offer", "abandoned", "all_zero")


def solo_scores(declarer: int, points: int) -> list[int]:
    """3 x (points - 55) for the soloist; each opponent (their points - 54).

    >>> solo_scores(1, 61)
    [-6, 18, -6, -6]
    """
    # tarocco.score.solo: three times the soloist's margin over 55; each defender the side's margin
    # over 54.
    others = C.TOTAL_POINTS - points - C.OTHER_TARGET
    return [3 * (points - C.SOLO_TARGET) if s == declarer else others for s in range(SEATS)]


def pairs_scores(dealer: int, pair: Sequence[int], points: int) -> list[int]:
    """The dealer's pair each (points - 55), the other pair each (points - 54).

    >>> pairs_scores(3, [0, 2], 50)
    [-4, 4, -4, 4]
    """
    # tarocco.score.pairs: the dealer's pair measures its points against 55, the other against 54.
    mine = set(pair)
    other = C.TOTAL_POINTS - points
    if dealer in mine:
        a, b = points - C.SOLO_TARGET, other - C.OTHER_TARGET
    else:
        a, b = points - C.OTHER_TARGET, other - C.SOLO_TARGET
    return [a if s in mine else b for s in range(SEATS)]


def offer_scores(offers: Sequence[tuple[int, int, int]]) -> list[int]:
    """Each taken offer: the offerer loses the points, the taker wins them."""
    # tarocco.score.offer: points move from the offerer to the seat that said piglio.
    scores = [0] * SEATS
    for offerer, taker, points in offers:
        scores[offerer] -= points
        scores[taker] += points
    return scores


def _offers(summary: Mapping[str, Any]) -> list[tuple[int, int, int]]:
    raw = summary.get("offers")
    if isinstance(raw, list) and raw:
        return [(int(o["offerer"]), int(o["taker"]), int(o["points"])) for o in raw]
    return [(int(summary["offerer"]), int(summary["taker"]), int(summary["points"]))]


def score_hand(summary: Mapping[str, Any]) -> list[int]:
    """Scores of a summary already checked (the engine's own summaries are)."""
    outcome = summary["outcome"]
    if outcome == "solo":
        return solo_scores(int(summary["declarer"]), int(summary["card_points"]))
    if outcome == "pairs":
        pair = [int(s) for s in summary["pair"]]
        return pairs_scores(int(summary["dealer"]), pair, int(summary["card_points"]))
    if outcome == "offer":
        return offer_scores(_offers(summary))
    # tarocco.score.abandoned: an abandoned hand (or everyone saying zero) gives nobody anything.
    return [0] * SEATS


# --- reading a summary ------------------------------------------------------------------------


def _int(value: Any, path: str) -> int:
    return read.whole(value, path, text_too=True)


def _seat(value: Any, path: str, found: list[Violation]) -> int:
    seat = _int(value, path)
    if not 0 <= seat < SEATS:
        it, en = f"I posti vanno da 1 a {SEATS}", f"Seats go from 1 to {SEATS}"
        if seat >= 0:
            it, en = f"{it}: non c'è il posto {seat + 1}", f"{en}: there is no seat {seat + 1}"
        found.append(rule_broken(BOOK, "tarocco.summary.seat", f"{it}.", f"{en}.", field=path))
    return seat


def _required(summary: Mapping[str, Any], key: str, outcome: str) -> Any:
    return read.required(summary, key, wording=f"a {outcome!r} summary needs {key!r}")


#: The fewest card points the side that took the monte can count: its three discarded
#: cards, the least that three cards of the pack can count (three cards of no value make
#: one point: tarocco.count.threes), which no exchange of the Fool takes below that.
MONTE_DISCARD = 3
MONTE_LEAST = C.count(sorted(range(C.PACK_SIZE), key=lambda c: C.VALUE[c])[:MONTE_DISCARD])


def _monte(points: int, takes_monte: bool, path: str, who: tuple[str, str]) -> list[Violation]:
    """tarocco.summary.monte: the side that took the monte (the soloist; with pairs the
    dealer's pair) counts its discard, so it has at least MONTE_LEAST card points and the
    other side at most the rest."""
    if takes_monte and points < MONTE_LEAST:
        it = f"{who[0]} ha preso il monte: almeno {MONTE_LEAST} punti carta, non {points}."
        en = f"{who[1]} took the monte: at least {MONTE_LEAST} card points, not {points}."
    elif not takes_monte and points > C.TOTAL_POINTS - MONTE_LEAST:
        most = C.TOTAL_POINTS - MONTE_LEAST
        it = f"Il monte è dell'altra coppia: al più {most} punti carta, non {points}."
        en = f"The monte is the other pair's: at most {most} card points, not {points}."
    else:
        return []
    return [rule_broken(BOOK, "tarocco.summary.monte", it, en, field=path)]


def _points(value: Any, path: str, found: list[Violation]) -> int:
    points = _int(value, path)
    if not 0 <= points <= C.TOTAL_POINTS:
        found.append(
            rule_broken(
                BOOK,
                "tarocco.count.total",
                f"Scritti {points}: devono stare fra 0 e {C.TOTAL_POINTS}.",
                f"Written {points}: they must be between 0 and {C.TOTAL_POINTS}.",
                field=path,
            )
        )
    return points


def read_hand(
    summary: Mapping[str, Any], ruleset: Any, prefix: str = ""
) -> tuple[dict[str, JSON], list[Violation]]:
    """Check one smazzata's summary; return it normalised, and what is impossible in it."""
    if not isinstance(summary, Mapping):
        raise RecordError("a summary is a JSON object", path=prefix or "summary")
    p = prefix
    outcome = read.one_of(summary.get("outcome"), OUTCOMES, f"{p}outcome")
    found: list[Violation] = []
    dealer = _seat(summary.get("dealer", 3), f"{p}dealer", found)
    out: dict[str, JSON] = {"outcome": outcome, "dealer": dealer}
    if outcome == "solo":
        declarer = _seat(_required(summary, "declarer", outcome), f"{p}declarer", found)
        points = _points(_required(summary, "card_points", outcome), f"{p}card_points", found)
        if declarer == dealer and not ruleset.dealer_may_solo:
            found.append(rule_broken(BOOK, "tarocco.solo.dealer", seat=declarer))
        if 0 <= points <= C.TOTAL_POINTS:
            found += _monte(points, True, f"{p}card_points", ("Il solista", "The soloist"))
        out.update(declarer=declarer, card_points=points)
    elif outcome == "pairs":
        raw = _required(summary, "pair", outcome)
        if not isinstance(raw, list) or len(raw) != 2:
            raise RecordError("expected the two seats of one side, e.g. [0, 2]", path=f"{p}pair")
        pair = [_seat(s, f"{p}pair[{i}]", found) for i, s in enumerate(raw)]
        if pair[0] == pair[1]:
            found.append(
                rule_broken(
                    BOOK,
                    "tarocco.summary.pair",
                    f"La coppia nomina due volte il posto {seat_no(pair[0])}.",
                    f"The pair names seat {seat_no(pair[0])} twice.",
                    field=f"{p}pair",
                )
            )
        points = _points(_required(summary, "card_points", outcome), f"{p}card_points", found)
        if 0 <= points <= C.TOTAL_POINTS and pair[0] != pair[1]:
            who = ("La coppia del mazziere", "The dealer's pair")
            found += _monte(points, dealer in pair, f"{p}card_points", who)
        out.update(pair=pair, card_points=points)
    elif outcome == "offer":
        raw_offers = summary.get("offers")
        items: list[Mapping[str, Any]]
        if raw_offers is None:
            items = [summary]
        elif isinstance(raw_offers, list) and raw_offers:
            items = list(raw_offers)
        else:
            raise RecordError("expected a list of offers", path=f"{p}offers")
        offers: list[dict[str, int]] = []
        for n, item in enumerate(items):
            q = f"{p}offers[{n}]." if raw_offers is not None else p
            if not isinstance(item, Mapping):
                raise RecordError("expected {offerer, taker, points}", path=f"{p}offers[{n}]")
            offerer = _seat(_required(item, "offerer", outcome), f"{q}offerer", found)
            taker = _seat(_required(item, "taker", outcome), f"{q}taker", found)
            points = _int(_required(item, "points", outcome), f"{q}points")
            if not 1 <= points <= ruleset.max_offer:
                found.append(
                    rule_broken(
                        BOOK,
                        "tarocco.bargain.offer_range",
                        f"Offerti {points}: ammessi da 1 a {ruleset.max_offer}.",
                        f"Offered {points}: from 1 to {ruleset.max_offer} allowed.",
                        field=f"{q}points",
                    )
                )
            if offerer == taker:
                found.append(
                    rule_broken(
                        BOOK,
                        "tarocco.bargain.piglio",
                        "Nessuno prende la propria offerta.",
                        "Nobody takes their own offer.",
                        field=f"{q}taker",
                    )
                )
            offers.append({"offerer": offerer, "taker": taker, "points": points})
        distinct = [o for o in offers if o["offerer"] != o["taker"]]
        seats = [o["offerer"] for o in distinct] + [o["taker"] for o in distinct]
        if len(set(seats)) != len(seats):
            found.append(
                rule_broken(
                    BOOK,
                    "tarocco.bargain.once",
                    "Ogni posto parla una volta: offre o prende una sola offerta.",
                    "Each seat speaks once: it offers or takes one offer only.",
                    field=f"{p}offers",
                )
            )
        out.update(offers[0])
        if len(offers) > 1:
            out["offers"] = offers
    return out, found


def score_summary(
    summary: Mapping[str, Any], ruleset: Any
) -> tuple[dict[str, JSON], list[Violation]]:
    """One smazzata, or a set of them under ``hands`` with cumulative scores."""
    found: list[Violation] = []
    if "hands" in summary:
        hands = summary["hands"]
        if not isinstance(hands, list) or not hands:
            raise RecordError("expected a list of smazzata summaries", path="hands")
        totals = [0] * SEATS
        rows: list[dict[str, JSON]] = []
        expected: int | None = None
        for n, raw in enumerate(hands):
            hand, problems = read_hand(raw, ruleset, f"hands[{n}].")
            found += [v.at(None, hand=n) for v in problems]
            if expected is not None and hand["dealer"] != expected:
                found.append(
                    rule_broken(
                        BOOK,
                        "tarocco.set.dealer",
                        f"Smazzata {n + 1}: mazziere il posto {seat_no(hand['dealer'])}, "
                        f"atteso il posto {seat_no(expected)}.",
                        f"Hand {n + 1}: the dealer is seat {seat_no(hand['dealer'])}, "
                        f"seat {seat_no(expected)} expected.",
                        hand=n,
                    )
                )
            scores = score_hand(hand) if not problems else [0] * SEATS
            totals = [t + s for t, s in zip(totals, scores, strict=True)]
            rows.append({"summary": hand, "scores": scores, "totals": list(totals)})
            played = hand["outcome"] in ("solo", "pairs")
            same = not played and ruleset.abandon_same_dealer
            expected = hand["dealer"] if same else (hand["dealer"] + 1) % SEATS
        result: dict[str, JSON] = {
            "scores": None if found else totals,
            "hands": rows,
            "next_dealer": expected,
        }
    else:
        hand, found = read_hand(summary, ruleset)
        single = None if found else score_hand(hand)
        played = hand["outcome"] in ("solo", "pairs")
        same = not played and ruleset.abandon_same_dealer
        result = {
            "scores": single,
            "summary": hand,
            "next_dealer": hand["dealer"] if same else (hand["dealer"] + 1) % SEATS,
        }
    claimed = summary.get("claimed_scores")
    if claimed is not None:
        if not isinstance(claimed, list) or len(claimed) != SEATS:
            raise RecordError("expected one score per seat (4)", path="claimed_scores")
        written = [_int(c, f"claimed_scores[{i}]") for i, c in enumerate(claimed)]
        if not found and written != result["scores"]:
            said = written_and_due(written, result["scores"])
            found.append(rule_broken(BOOK, "tarocco.record.claimed_score", said.it, said.en))
    return result, found


def hand_outcome(scores: Sequence[int], termination: str, detail: Mapping[str, JSON]) -> Outcome:
    """One smazzata: the seats that gained points won it; places follow the scores."""
    winners = tuple(s for s in range(SEATS) if scores[s] > 0)
    return Outcome(tuple(scores), termination, winners, detail, places_by(scores))


def summary_outcome(result: Mapping[str, JSON], found: Sequence[Violation]) -> Outcome | None:
    """The Outcome of a summary already scored: one smazzata as a record gives it, or a set
    of smazzate ranked by their totals, the highest total winning."""
    if found or result.get("scores") is None:
        return None
    scores = [int(s) for s in result["scores"]]
    facts = {k: v for k, v in result.items() if k != "scores"}
    if "hands" in result:
        return Outcome.ranked(scores, "hands", facts)
    hand = result["summary"]
    return hand_outcome(scores, str(hand["outcome"]), facts)
