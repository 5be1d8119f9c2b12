"""San Marco's cards: the action deck (a district card per district, bridges, transfers, the
Doge, banishments) and the limit deck, as small ints."""

from __future__ import annotations

from games.sanmarco.board import DISTRICTS

# --- cards --------------------------------------------------------------------------------
BRIDGE, TRANSFER, DOGE, BANISH = 6, 7, 8, 9
CARD_NAMES = (*DISTRICTS, "bridge", "transfer", "doge", "banish")
ACTION_DECK = tuple([d for d in range(6) for _ in range(5)] + [BRIDGE] * 6 + [TRANSFER] * 12
                    + [DOGE] * 10 + [BANISH] * 4)  # fmt: skip
LIMIT_DECK = tuple([1] * 8 + [2] * 10 + [3] * 10)
LIMIT_BASE = 10  # in a hand, limit card v is coded 10 + v so that one sorted list holds both
CUBES = 25
NEUTRAL_CUBES = 12
