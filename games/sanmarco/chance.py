"""San Marco's chance: die rolls, card draws and role draws, from a seed or read back from
the record (``deal.chance``), so a replay meets the same chance as the table."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.core import (
    RecordError,
)
from games.core import rng as make_rng
from games.sanmarco.cards import (
    ACTION_DECK,
    CARD_NAMES,
)

# --- chance ---------------------------------------------------------------------------------
CHANCE_KINDS = ("dice", "action_cards", "limit_cards", "roles")


def below(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` for n > 0, drawn as CPython 3.11 draws it (the fewest random
    bits that cover n, drawn again while the value is n or more), without randrange's
    argument handling: chance is drawn this way a few hundred times a game, and every
    record with a seed is replayed through it. A test holds it equal to randrange."""
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


# n.bit_length() for the sizes a deck can have (read by ``Chance.cards``)
_BIT_LENGTH = tuple(n.bit_length() for n in range(len(ACTION_DECK) + 1))


class Chance:
    """Die rolls, card draws and role draws: from a seed, or read back from a record.

    Whatever is drawn is kept in ``used``, which is what a record writes. With both a seed
    and written chance (a digital table's record), the seed draws and what is written must
    agree as far as it goes.
    """

    def __init__(self, seed: int | None, given: Mapping[str, Any] | None) -> None:
        self.seed = seed
        self.rng = make_rng(seed, "sanmarco-chance") if seed is not None else None
        self.given = given or {}
        self.used: dict[str, list[Any]] = {k: [] for k in CHANCE_KINDS}
        # The order the play asked for chance, kept when the written chance carries a list
        # ``trace`` (``chance_order``): what a deal check needs to draw it again from the seed.
        self.trace: list[Any] | None = getattr(given, "trace", None)
        # What the next draw was asked for when the written chance ran out (the referee desk
        # asks for it): the kind, and for cards how many and from which deck, for roles the
        # draws the rules allow.
        self.wanted: list[Any] = []
        # Past the written chance, draw from this (``then_seed`` in a record's deal: the
        # referee desk's remedy plays a game on beyond what the table said); None: stop.
        self.then: random.Random | None = None

    def _beyond(self, kind: str) -> random.Random | None:
        """The generator for chance past what is written, when there is one and it is due."""
        then = self.then
        if then is not None and len(self.used[kind]) >= len(self.given.get(kind, [])):
            return then
        return None

    def _next(self, kind: str) -> Any:
        i = len(self.used[kind])
        pool = self.given.get(kind, [])
        if i >= len(pool):
            raise RecordError(f"the record's chance has no {kind} left", path=f"deal.chance.{kind}")
        return pool[i]

    def _agree(self, kind: str, value: Any) -> None:
        i = len(self.used[kind])
        pool = self.given.get(kind, [])
        if i < len(pool) and pool[i] != value:
            raise RecordError(
                f"{pool[i]!r} written, the seed gives {value!r}", path=f"deal.chance.{kind}[{i}]"
            )

    def die(self) -> int:
        rng = self.rng
        if rng is not None:
            r = rng.getrandbits(3)  # ``below(rng, 6)``, written out
            while r >= 6:
                r = rng.getrandbits(3)
            v = 1 + r  # randint(1, 6)
            if self.trace is not None:
                self.trace.append("dice")
            used, pool = self.used["dice"], self.given.get("dice")
            if pool and len(used) < len(pool) and pool[len(used)] != v:
                self._agree("dice", v)  # raises, saying what was written
            used.append(v)
            return v
        elif (then := self._beyond("dice")) is not None:
            v = 1 + below(then, 6)
        else:
            self.wanted = ["dice"]
            v = self._next("dice")
            if isinstance(v, bool) or v not in (1, 2, 3, 4, 5, 6):
                raise RecordError("a die shows 1 to 6", path="deal.chance.dice")
        self.used["dice"].append(v)
        return int(v)

    def card(self, kind: str, deck: list[int]) -> int:
        """Draw one card from ``deck`` (removed from it)."""
        if self.rng is not None:
            v = deck.pop(below(self.rng, len(deck)))
            if self.trace is not None:
                self.trace.append(kind)
            drawn = CARD_NAMES[v] if kind == "action_cards" else v
            used = self.used[kind]
            pool = self.given.get(kind)
            if pool and len(used) < len(pool) and pool[len(used)] != drawn:
                self._agree(kind, drawn)  # raises, saying what was written
            used.append(drawn)
            return v
        elif (then := self._beyond(kind)) is not None:
            v = deck.pop(below(then, len(deck)))
        else:
            raw = self._next(kind)
            if kind == "action_cards":
                v = CARD_NAMES.index(raw) if raw in CARD_NAMES else -1
            else:
                v = raw if raw in (1, 2, 3) and not isinstance(raw, bool) else -1
            if v not in deck:
                raise RecordError(f"{raw!r} is not in the deck now", path=f"deal.chance.{kind}")
            deck.remove(v)
        self.used[kind].append(CARD_NAMES[v] if kind == "action_cards" else v)
        return v

    def cards(self, kind: str, deck: list[int], discard: list[int], count: int) -> list[int]:
        """Draw up to ``count`` cards from ``deck``; when it runs out, the discard (in order)
        becomes the deck, and with both empty fewer cards are drawn."""
        out: list[int] = []
        rng = self.rng
        n = len(deck)
        if rng is not None and count <= n < len(_BIT_LENGTH) and self.trace is None:
            # the common case, the steps below written out: a seed, and the deck holds them
            getrandbits, pop, bits = rng.getrandbits, deck.pop, _BIT_LENGTH
            used = self.used[kind]
            first = len(used)
            card_names = CARD_NAMES if kind == "action_cards" else None
            for size in range(n, n - count, -1):
                k = bits[size]  # ``below(rng, size)``
                r = getrandbits(k)
                while r >= size:
                    r = getrandbits(k)
                c = pop(r)
                out.append(c)
                used.append(c if card_names is None else card_names[c])
            pool = self.given.get(kind)
            # as far as it is written: both slices end at the shorter list's end
            if pool and first < len(pool) and pool[first : len(used)] != used[first : len(pool)]:
                self._disagree(kind, pool, first)
            return out
        used = self.used[kind]
        first = len(used)
        names = kind == "action_cards"
        for _ in range(count):
            if not deck:
                # sanmarco.base.reshuffle: an empty deck is made again from its discards.
                deck.extend(sorted(discard))
                discard.clear()
                if self.trace is not None:
                    shown = [CARD_NAMES[c] if names else c for c in deck]
                    self.trace.append(["reshuffle", kind, shown])
                if not deck:
                    break
            if rng is None:
                self.wanted = [kind, count - len(out), list(deck)]
                out.append(self.card(kind, deck))
                continue
            if self.trace is not None:
                self.trace.append(kind)
            # ``card`` with a seed, written out: a deal draws eight cards at once
            n = len(deck)
            k = n.bit_length()  # ``below(rng, n)``, written out too
            r = rng.getrandbits(k)
            while r >= n:
                r = rng.getrandbits(k)
            out.append(deck.pop(r))
        if rng is None:
            return out  # ``card`` kept each one
        used.extend(map(CARD_NAMES.__getitem__, out) if names else out)
        pool = self.given.get(kind)
        if pool:  # what is written must be what the seed drew
            last = min(len(used), len(pool))
            if first < last and pool[first:last] != used[first:last]:
                self._disagree(kind, pool, first)
        return out

    def _disagree(self, kind: str, pool: list[Any], first: int) -> None:
        """Raise at the first of the draws from ``first`` on that is not the one written."""
        used = self.used[kind]
        i = next(i for i in range(first, min(len(used), len(pool))) if pool[i] != used[i])
        raise RecordError(
            f"{pool[i]!r} written, the seed gives {used[i]!r}", path=f"deal.chance.{kind}[{i}]"
        )

    def roles(self, candidates: Sequence[tuple[int, ...]]) -> list[int]:
        """One of the role draws the rules allow (each colour's role, in slot order)."""
        if self.rng is not None:
            pick = list(candidates[below(self.rng, len(candidates))])
            if self.trace is not None:
                self.trace.append(["roles", [list(c) for c in candidates]])
            self._agree("roles", pick)
        elif (then := self._beyond("roles")) is not None:
            pick = list(candidates[below(then, len(candidates))])
        else:
            self.wanted = ["roles", [list(c) for c in candidates]]
            raw = self._next("roles")
            if not isinstance(raw, list) or tuple(raw) not in candidates:
                raise RecordError(
                    f"{raw!r} is not a role draw the rules allow here", path="deal.chance.roles"
                )
            pick = list(raw)
        self.used["roles"].append(pick)
        return list(pick)
