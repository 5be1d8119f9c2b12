"""The exact FIDE Dutch pairing (C.04.3), fast enough for a club field of 200.

caissify-pairings' ``DutchEngine`` pairs a round the way bbpPairings does: one graph of
the whole field, processed bracket by bracket from the top score group down, where each
decision (which downfloaters join the bracket, who is exchanged between S1 and S2, whom
each player of S1 meets) is taken by raising or lowering a few edge weights and asking
again for a maximum-weight matching of the whole graph. The weights pack the Dutch
criteria (C.04.3 C1 to C21) into one integer of several hundred bits, most important
first, so the heaviest matching is the one the rules prefer.

That is many dozens of matchings a round. The library rebuilds a networkx graph and solves
each from nothing, and computes every weight through Python properties; at 200 players a
round took most of a minute. ``FastDutch`` takes the same decisions in the same order
with the same weights (the steps below follow the library's ``_pair_iterative_mwm`` one to
one, and a test checks that both give the same pairs on many generated tournaments), but

* keeps one ``Matcher`` (matching.py) for the whole round, which re-solves after a weight
  change from the previous matching and duals instead of from nothing;
* computes each weight from per-player facts worked out once (colour preference and its
  strength, colour difference, floats of the last two rounds, who may meet whom).

Only the bracket loop is replaced; everything around it (round 1, the bye rules, the
fallbacks when no complete pairing exists, the colours) is the library's.
"""

from __future__ import annotations

from typing import Any

# networkx is imported by the functions that match with it: importing it takes a third of a
# second, which every process that never pairs (a web worker, a command) would pay at start.
from caissify_pairings.engines.dutch import (
    ColorPref,
    DutchEngine,
    FloatDir,
)

from .matching import Matcher, NoPerfectMatching

WHITE, BLACK = 0, 1
UP, DOWN, LEVEL = 1, 2, 0


class _Facts:
    """What the weights read of each player, by index in score order."""

    def __init__(self, engine: DutchEngine, players: list[Any]) -> None:
        self.score = [p.score for p in players]
        self.ids = [p.id for p in players]
        self.pref: list[int | None] = []
        self.strength: list[int] = []
        self.diff: list[int] = []
        self.rep: list[str | None] = []
        self.fb1: list[int] = []
        self.fb2: list[int] = []
        self.played = [len(p.opponents) for p in players]
        no_white: list[bool] = []
        no_black: list[bool] = []
        code = {FloatDir.UP: UP, FloatDir.DOWN: DOWN}
        for p in players:
            cp = p.color_preference
            self.pref.append(
                WHITE if cp == ColorPref.WHITE else BLACK if cp == ColorPref.BLACK else None
            )
            self.strength.append(p.preference_strength)
            self.diff.append(p.color_diff)
            ch = p.color_hist
            self.rep.append(ch[-1] if len(ch) >= 2 and ch[-1] == ch[-2] else None)
            fh = p.float_hist
            self.fb1.append(code.get(fh[-1], LEVEL) if len(fh) >= 1 else LEVEL)
            self.fb2.append(code.get(fh[-2], LEVEL) if len(fh) >= 2 else LEVEL)
            no_white.append(p.would_violate_absolute_color("white"))
            no_black.append(p.would_violate_absolute_color("black"))
        n = len(players)
        last = engine._is_last_round
        top = (engine.round_number - 1) / 2.0
        index = {p.id: i for i, p in enumerate(players)}
        # compatible[i]: indices j that i may meet (C.04.3 B1, B5/B6 as the library reads them)
        self.compatible: list[set[int]] = []
        for i, p in enumerate(players):
            met = {index[o] for o in p.opponents if o in index}
            ok: set[int] = set()
            for j in range(n):
                if j == i or j in met:
                    continue
                legal = (not no_white[i] and not no_black[j]) or (
                    not no_black[i] and not no_white[j]
                )
                if legal or (last and (self.score[i] > top or self.score[j] > top)):
                    ok.add(j)
            self.compatible.append(ok)


def inside(stable: list[int], residents: set[int], gi: int) -> bool:
    """Whether gi is matched to a later player of the current score group."""
    partner = stable[gi]
    return partner != gi and partner > gi and partner in residents


class FastDutch(DutchEngine):  # type: ignore[misc]  # the library has no types: a subclass of Any
    """The library's Dutch engine with the bracket loop run on an incremental matcher."""

    previous_pairings: set[tuple[int, int]]  # the library's: the pairs already played

    def _build_players(self, raw: list[dict[str, Any]]) -> list[Any]:
        """The library's, with each player's opponents found in one pass over the pairs
        played (the library scans them all once per player)."""
        played = self.previous_pairings
        self.previous_pairings = set()
        try:
            players: list[Any] = super()._build_players(raw)
        finally:
            self.previous_pairings = played
        opponents: dict[int, set[int]] = {}
        for a, b in played:
            opponents.setdefault(a, set()).add(b)
            opponents.setdefault(b, set()).add(a)
        for p in players:
            p.opponents = set(opponents.get(p.id, ()))
        return players

    def _pair_iterative_mwm(
        self, all_players: list[Any], bye_candidates: set[int] | None = None
    ) -> tuple[list[tuple[Any, Any]], list[Any]]:
        import networkx as nx  # here, not above: see the note on imports

        sp = sorted(all_players, key=lambda p: (-p.score, p.pairing_number))
        n = len(sp)
        if n < 2:
            return [], list(sp)
        facts = _Facts(self, sp)
        score = facts.score
        compatible = facts.compatible
        fallback = [False]

        def run_mwm() -> list[int]:
            if not fallback[0]:
                try:
                    return matcher.solve()
                except NoPerfectMatching:
                    fallback[0] = True
            graph: nx.Graph[int] = nx.Graph()
            graph.add_nodes_from(range(n))
            for v in range(n):
                for u, w2 in matcher.adj[v].items():
                    if u < n and v < u:
                        graph.add_edge(v, u, weight=w2 // 2)
            result = list(range(n))
            for a, b in nx.max_weight_matching(graph, maxcardinality=True):
                result[a], result[b] = b, a
            return result

        def finalize(a: int, b: int) -> None:
            """The library's finalizePair: a and b keep only their own edge (weight 1)."""
            for x, other in ((a, b), (b, a)):
                for k in [k for k in matcher.adj[x] if k < n and k != other]:
                    set_w(x, k, 0)
            set_w(a, b, 1)

        # score groups: bounds, and the bits each takes in the score fields
        sg_bounds: list[tuple[int, int]] = []
        i = 0
        while i < n:
            j = i + 1
            while j < n and score[j] == score[i]:
                j += 1
            sg_bounds.append((i, j))
            i = j
        shifts: dict[float, int] = {}
        groups_shift = 0
        largest = 0
        for start, end in reversed(sg_bounds):
            size = end - start
            shifts[score[start]] = groups_shift
            largest = max(largest, size)
            groups_shift += max(1, size.bit_length())
        size_bits = max(1, largest.bit_length())
        sbits = [1 << shifts[s] for s in score]

        # odd field: a first, light matching tells at which score the bye falls (C.04.3 C9)
        bye_score: float | None = None
        single_down = False
        ranks: dict[int, int] | None = None
        if bye_candidates is not None and n % 2 == 1:
            top_score = score[0]
            pre = Matcher(n)
            for vi in range(n):
                for vj in compatible[vi]:
                    if vj <= vi:
                        continue
                    pw = (
                        1
                        + (facts.ids[vi] not in bye_candidates)
                        + (facts.ids[vj] not in bye_candidates)
                    )
                    pw <<= groups_shift
                    pw |= shifts.get(score[vi], 0) + shifts.get(score[vj], 0)
                    pw <<= size_bits
                    pw |= int(score[vj] >= top_score)
                    pre.set(vi, vj, pw)
            try:
                pre_mate = pre.solve()
            except NoPerfectMatching:
                graph: nx.Graph[int] = nx.Graph()
                graph.add_nodes_from(range(n))
                for v in range(n):
                    for u, w2 in pre.adj[v].items():
                        if u < n and v < u:
                            graph.add_edge(v, u, weight=w2 // 2)
                pre_mate = list(range(n))
                for a, b in nx.max_weight_matching(graph, maxcardinality=True):
                    pre_mate[a], pre_mate[b] = b, a
            bye_score = score[0]
            for vi in range(n):
                if pre_mate[vi] == vi:
                    bye_score = score[vi]
                    break
            bye_candidates = {p.id for p in sp if p.id in bye_candidates and p.score <= bye_score}
            if bye_score >= top_score:
                single_down = True
                for vi in range(n):
                    if score[vi] < top_score:
                        break
                    partner = pre_mate[vi]
                    if partner == vi:
                        continue
                    if score[partner] < top_score:
                        single_down = False
                        break
            played = sorted(
                (facts.played[i] for i in range(n) if score[i] == bye_score), reverse=True
            )
            ranks = {}
            for rank, games in enumerate(played):
                ranks[games] = rank

        big_b = max(8, n.bit_length() + 3)
        sb = groups_shift
        rounds_played = self.round_number - 1
        not_bye = [bye_candidates is None or facts.ids[i] not in bye_candidates for i in range(n)]
        # The heaviest matching leaves out a bye candidate whenever one can be left out (the
        # top bits count the pairs without one), so only they need the dummy's edges; if
        # none can, the matcher says so and networkx takes over.
        leftover = None if bye_candidates is None else {i for i in range(n) if not not_bye[i]}
        matcher = Matcher(n, leftover)
        set_w = matcher.set
        # Bit positions, from the bottom (as the library lays them out).
        pos = 3 * big_b + 1
        pos_c19 = pos_c18 = pos_c15 = pos_c14 = -1
        if rounds_played >= 2:
            pos_c19, pos_c18 = pos, pos + sb
            pos += 2 * sb
        pos_c17 = pos_c16 = pos_c13 = pos_c12 = -1
        if rounds_played >= 1:
            pos_c17, pos_c16 = pos, pos + sb
            pos += 2 * sb
        if rounds_played >= 2:
            pos_c15, pos_c14 = pos, pos + big_b
            pos += 2 * big_b
        if rounds_played >= 1:
            pos_c13, pos_c12 = pos, pos + big_b
            pos += 2 * big_b
        pos_strong = pos
        pos_compat = pos + big_b
        pos_absp = pos + 2 * big_b
        pos_imb = pos + 3 * big_b
        pos += 4 * big_b
        pos_c9 = pos
        pos += 2 * big_b
        pos_t3 = pos
        pos_t4 = pos + big_b
        pos += big_b + sb
        pos_t1 = pos
        pos_t2 = pos + big_b
        pos += big_b + sb
        pos_done = pos
        pref, strength, diff, rep = facts.pref, facts.strength, facts.diff, facts.rep
        fb1, fb2 = facts.fb1, facts.fb2

        def weight(a: int, b: int, current: bool, following: bool, single: bool) -> int:
            """The library's bracket edge weight for a (higher) against b (lower)."""
            if b not in compatible[a]:
                return 0
            w = (1 + not_bye[a] + not_bye[b]) << pos_done
            sa, sb_ = score[a], score[b]
            if single and ranks is not None and bye_score is not None:
                c9 = 0
                if sa == bye_score:
                    c9 |= ranks.get(facts.played[a], 0)
                if sb_ == bye_score:
                    c9 += ranks.get(facts.played[b], 0)
                w |= c9 << pos_c9
            if following:
                w |= (1 << pos_t3) | (sbits[a] << pos_t4)
            if not current:
                return w
            w |= (1 << pos_t1) | (sbits[a] << pos_t2)
            higher = sa > sb_
            if rounds_played >= 2:
                f2a, f2b = fb2[a], fb2[b]
                if not (f2b == UP and higher):
                    w |= sbits[a] << pos_c19
                    w |= 1 << pos_c15
                c18 = (sbits[b] if f2b == DOWN else 0) + (sbits[a] if f2a == DOWN else 0)
                w |= c18 << pos_c18
                c14 = (f2b == DOWN) + (f2a == DOWN and not higher)
                w |= c14 << pos_c14
            if rounds_played >= 1:
                f1a, f1b = fb1[a], fb1[b]
                if not (f1b == UP and higher):
                    w |= sbits[a] << pos_c17
                    w |= 1 << pos_c13
                c16 = (sbits[b] if f1b == DOWN else 0) + (sbits[a] if f1a == DOWN else 0)
                w |= c16 << pos_c16
                c12 = (f1b == DOWN) + (f1a == DOWN and not higher)
                w |= c12 << pos_c12
            pa, pb = pref[a], pref[b]
            ta, tb = strength[a], strength[b]
            same = pa is not None and pa == pb
            if not (same and ta >= 2 and tb >= 2 and not (ta == 3 and tb == 3)):
                w |= 1 << pos_strong
            if not same:
                w |= 1 << pos_compat
            absp = 1
            if ta == 3 and tb == 3 and pa == pb:
                ia, ib = abs(diff[a]), abs(diff[b])
                ra, rb = rep[a], rep[b]
                if ib == ia:
                    if not (rb is None or rb != ra):
                        absp = 0
                else:
                    lower_rep = ra if ib > ia else rb
                    inverse = "black" if pb == WHITE else "white"
                    if lower_rep is not None and lower_rep == inverse:
                        absp = 0
            if absp:
                w |= 1 << pos_absp
            if not (abs(diff[a]) >= 2 and abs(diff[b]) >= 2 and same):
                w |= 1 << pos_imb
            return w

        for a in range(n):
            for b in compatible[a]:
                if b > a:
                    set_w(a, b, weight(a, b, False, False, single_down))

        by_idx: list[int] = list(range(*sg_bounds[0]))
        matched = [False] * n
        all_pairs: list[tuple[Any, Any]] = []
        sg_iter = 1
        sg_begin = 0
        prev_players: list[int] = []

        while len(by_idx) > 1 or sg_iter < len(sg_bounds):
            next_begin = len(by_idx)
            loaded = False
            if sg_iter < len(sg_bounds):
                start, end = sg_bounds[sg_iter]
                bracket_score = score[start]
                by_idx.extend(range(start, end))
                sg_iter += 1
                loaded = True
            else:
                bracket_score = score[by_idx[-1]]
            num_local = len(by_idx)
            base_ew: list[list[int]] = [[] for _ in range(num_local)]
            for li in range(sg_begin, num_local):
                gi = by_idx[li]
                current = li < next_begin
                row = base_ew[li]
                for lj in range(li):
                    row.append(weight(by_idx[lj], gi, current, not current, single_down))
            for li in range(sg_begin, num_local):
                gi = by_idx[li]
                row = base_ew[li]
                for lj in range(li):
                    set_w(gi, by_idx[lj], row[lj])

            def bw(larger: int, smaller: int, base_ew: list[list[int]] = base_ew) -> int:
                row = base_ew[larger]
                return row[smaller] if smaller < len(row) else 0

            def exchange_weight(smaller: int, larger: int, sri: int, rpairs: int) -> int:
                w = bw(larger, smaller)
                if w:
                    addend = int(sri < rpairs)
                    addend <<= 2 * big_b
                    addend -= sri
                    addend <<= 1
                    w += addend
                return w

            stable = run_mwm()
            residents = set(by_idx[sg_begin:next_begin])

            # Phase 1: which downfloaters (MDPs) play in this bracket
            md_score: float | None = None
            md_left = 0
            md_matched = 0
            for li in range(sg_begin):
                gi = by_idx[li]
                if li == 0 or score[gi] < md_score:
                    md_score = score[gi]
                    md_left = 0
                    md_matched = 0
                    for mli in range(li, sg_begin):
                        mgi = by_idx[mli]
                        if score[mgi] < md_score:
                            break
                        md_left += 1
                        partner = stable[mgi]
                        if partner != mgi and partner in residents:
                            md_matched += 1
                if md_matched == 0:
                    continue
                if md_left <= md_matched:
                    matched[gi] = True
                    md_left -= 1
                    continue
                md_left -= 1
                partner = stable[gi]
                if not (partner != gi and partner in residents):
                    for rli in range(sg_begin, next_begin):
                        w = bw(rli, li)
                        if w:
                            set_w(gi, by_idx[rli], w | 1)
                    stable = run_mwm()
                partner = stable[gi]
                if partner != gi and partner in residents:
                    matched[gi] = True
                    md_matched -= 1
                    size = next_begin - sg_begin
                    for rli in range(sg_begin, next_begin):
                        w = bw(rli, li)
                        if w:
                            set_w(gi, by_idx[rli], (w | size) + 1)

            # Phase 2: each chosen MDP's opponent
            done_all: set[int] = set()
            for li in range(sg_begin):
                gi = by_idx[li]
                if not matched[gi] or gi in done_all:
                    continue
                addend = num_local
                for rli in range(next_begin - 1, sg_begin - 1, -1):
                    rgi = by_idx[rli]
                    if matched[rgi]:
                        continue
                    w = bw(rli, li)
                    if w:
                        set_w(gi, rgi, w + addend)
                        addend += 1
                stable = run_mwm()
                mg = stable[gi]
                if mg != gi:
                    matched[mg] = True
                    finalize(gi, mg)
                    done_all.add(gi)
                    done_all.add(mg)
                else:
                    matched[gi] = False

            # Phase 3: the rest of the bracket
            mdp_set = set(by_idx[:sg_begin])
            rem: list[int] = []
            rpairs = 0
            for li in range(sg_begin, next_begin):
                gi = by_idx[li]
                partner = stable[gi]
                if partner != gi and partner in mdp_set:
                    continue
                rem.append(li)
                if partner != gi and partner < gi:
                    rpairs += 1
            if rpairs > len(rem):
                rpairs = len(rem) // 2
            first_end = rpairs

            if len(rem) >= 2:
                # Phase 4: exchange weights
                for opp_li in rem:
                    opp_gi = by_idx[opp_li]
                    for pri, player_li in enumerate(rem):
                        if opp_li <= player_li:
                            break
                        set_w(
                            by_idx[player_li],
                            opp_gi,
                            exchange_weight(player_li, opp_li, pri, rpairs),
                        )
                stable = run_mwm()
                exchanges = 0
                for ri in range(first_end):
                    if not inside(stable, residents, by_idx[rem[ri]]):
                        exchanges += 1

                # Phase 5: the lowest of S1 that go to S2
                left = exchanges
                pri = rpairs
                for scan in range(first_end - 1, -1, -1):
                    if left == 0:
                        break
                    pri -= 1
                    li = rem[scan]
                    gi = by_idx[li]
                    if inside(stable, residents, gi):
                        for oi in range(scan + 1, len(rem)):
                            opp_li = rem[oi]
                            w = exchange_weight(li, opp_li, pri, rpairs)
                            if w:
                                set_w(gi, by_idx[opp_li], w - 1)
                        stable = run_mwm()
                    is_exchange = not inside(stable, residents, gi)
                    if is_exchange:
                        left -= 1
                    for oi in range(scan + 1, len(rem)):
                        opp_li = rem[oi]
                        if is_exchange:
                            row = base_ew[opp_li]
                            if opp_li < len(base_ew) and li < len(row):
                                row[li] = 0
                        set_w(gi, by_idx[opp_li], exchange_weight(li, opp_li, pri, rpairs))

                # Phase 6: the highest of S2 that go to S1
                left = exchanges
                ri = rpairs
                for scan in range(first_end, len(rem)):
                    if left <= 1:
                        break
                    li = rem[scan]
                    gi = by_idx[li]
                    already = inside(stable, residents, gi)
                    if not already:
                        for oi in range(scan + 1, len(rem)):
                            opp_li = rem[oi]
                            w = exchange_weight(li, opp_li, ri, rpairs)
                            if w:
                                set_w(gi, by_idx[opp_li], w + 1)
                        stable = run_mwm()
                    if inside(stable, residents, gi):
                        left -= 1
                        for oi in range(len(rem)):
                            opp_li = rem[oi]
                            if opp_li == li:
                                continue
                            if oi < scan:
                                if li < len(base_ew) and opp_li < len(base_ew[li]):
                                    base_ew[li][opp_li] = 0
                                elif opp_li < len(base_ew) and li < len(base_ew[opp_li]):
                                    base_ew[opp_li][li] = 0
                                set_w(gi, by_idx[opp_li], 0)
                        for nli in range(next_begin, num_local):
                            if li < len(base_ew[nli]):
                                base_ew[nli][li] = 0
                            set_w(gi, by_idx[nli], 0)
                    if not already:
                        for oi in range(scan + 1, len(rem)):
                            opp_li = rem[oi]
                            set_w(gi, by_idx[opp_li], exchange_weight(li, opp_li, ri, rpairs))
                    ri += 1

                # Phase 7: settle the exchanges
                for pi_idx, player_li in enumerate(rem):
                    player_gi = by_idx[player_li]
                    for oi in range(pi_idx + 1, len(rem)):
                        opp_li = rem[oi]
                        opp_gi = by_idx[opp_li]
                        p_internal = inside(stable, residents, player_gi)
                        o_internal = inside(stable, residents, opp_gi)
                        row = base_ew[opp_li]
                        if (not p_internal or o_internal) and player_li < len(row):
                            row[player_li] = 0
                        set_w(player_gi, opp_gi, row[player_li] if player_li < len(row) else 0)

            # Phase 8: each player of S1 meets the highest S2 player the rules allow
            for player_li in rem:
                player_gi = by_idx[player_li]
                if not inside(stable, residents, player_gi):
                    continue
                addend = 0
                for scan in reversed(range(len(rem))):
                    opp_li = rem[scan]
                    opp_gi = by_idx[opp_li]
                    if opp_li <= player_li or matched[opp_gi]:
                        continue
                    w = bw(opp_li, player_li)
                    if w:
                        set_w(player_gi, opp_gi, w + addend)
                    addend += 1
                stable = run_mwm()
                mg = stable[player_gi]
                if mg != player_gi:
                    matched[player_gi] = True
                    matched[mg] = True
                    finalize(player_gi, mg)

            # Phase 9: on to the next bracket
            single_down = bool(
                n % 2 == 1 and loaded and bye_score is not None and bye_score >= bracket_score
            )
            new_by_idx: list[int] = []
            new_begin = 0
            for li in range(num_local):
                gi = by_idx[li]
                if li < next_begin and matched[gi]:
                    partner = stable[gi]
                    if partner == gi:
                        new_by_idx.append(gi)
                        new_begin += 1
                        continue
                    p1, p2 = sp[gi], sp[partner]
                    all_pairs.append(
                        (p1, p2) if p1.pairing_number < p2.pairing_number else (p2, p1)
                    )
                else:
                    new_by_idx.append(gi)
                    if li < next_begin:
                        new_begin += 1
                    if single_down:
                        partner = stable[gi]
                        if partner != gi and score[partner] < bracket_score:
                            single_down = False
            seen: set[tuple[int, int]] = set()
            deduped: list[tuple[Any, Any]] = []
            for p1, p2 in all_pairs:
                k = (min(p1.id, p2.id), max(p1.id, p2.id))
                if k not in seen:
                    seen.add(k)
                    deduped.append((p1, p2))
            all_pairs = deduped
            by_idx = new_by_idx
            sg_begin = new_begin
            if sg_iter >= len(sg_bounds) and new_by_idx == prev_players:
                break
            prev_players = list(by_idx)

        for p1, p2 in all_pairs:
            if p1.score != p2.score:
                low = min(p1.score, p2.score)
                if p1.score > low:
                    p1.float_hist.append(FloatDir.DOWN)
                if p2.score > low:
                    p2.float_hist.append(FloatDir.DOWN)
                if p1.score < p2.score:
                    p1.float_hist.append(FloatDir.UP)
                elif p2.score < p1.score:
                    p2.float_hist.append(FloatDir.UP)
        paired_ids = {p.id for pair in all_pairs for p in pair}
        remainder = [p for p in sp if p.id not in paired_ids]
        if len(remainder) >= 2:
            extra = self._backtrack_match(remainder)
            if extra:
                all_pairs.extend(extra)
                paired_ids = {p.id for pair in all_pairs for p in pair}
                remainder = [p for p in sp if p.id not in paired_ids]
        all_pairs.sort(key=lambda pair: pair[0].pairing_number)
        return all_pairs, remainder
