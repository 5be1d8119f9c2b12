"""Maximum-weight perfect matching that keeps its work between calls.

The Dutch pairing (swiss.py) asks for a maximum-weight matching of the whole field dozens
of times a round, each time after changing the weights of a few edges, mostly those of one
or two players. Solving each from nothing (networkx's blossom algorithm, O(n^3) in pure
Python) is what made a round of 200 players take most of a minute. ``Matcher`` is the
same primal-dual blossom method (Edmonds; Galil's formulation, with the integer doubled
duals of van Rantwijk's well-known implementation) written for this use:

* a dense weight table of Python integers (the Dutch weights are several hundred bits
  wide, so no fixed-width native solver would do);
* the matching, the blossoms and the dual values stay from one ``solve`` to the next.
  Before solving again, only what a changed edge invalidates is undone: a blossom that
  holds both ends of a changed edge is dissolved (its dual handed to its vertices, which
  keeps every edge feasible), a matched edge that is no longer tight is unmatched, and a
  vertex whose new edge would be infeasible gets a fresh dual (the smallest that makes all
  its edges feasible) and is unmatched. Exposed vertices joined by a tight edge are then
  matched at once, and the primal-dual stages only have to repair the few left, usually a
  handful of augmentations. (A cold start lowers each dual in turn as far as its edges
  allow, so that many edges are tight from the start.)

It solves the perfect version: with an odd number of vertices one dummy vertex joined by
weight-0 edges to everyone (or to the ``leftover`` vertices the caller names) takes the
place of "one player left over", which gives the same optimum as networkx's
``max_weight_matching(..., maxcardinality=True)`` whenever a matching that leaves at most
one of them out exists. When none exists ``solve`` raises ``NoPerfectMatching`` and the
caller falls back to networkx. Where several matchings share the optimum weight, it may
return a different one of them than networkx.
"""

from __future__ import annotations

NONE = -1


class NoPerfectMatching(Exception):
    pass


class Matcher:
    def __init__(self, n: int, leftover: set[int] | None = None) -> None:
        """``leftover``: the only vertices that may be left out of an odd matching (None:
        any). A caller that knows the optimum leaves out one of them when it can passes
        them, which keeps the dummy vertex's edges few."""
        self.n = n
        odd = n % 2 == 1
        self.nv = n + 1 if odd else n  # the dummy vertex is index n when n is odd
        self.dummy = n if odd else NONE
        nv = self.nv
        # adj[v][u] = 2 * weight, only for present edges.
        self.adj: list[dict[int, int]] = [{} for _ in range(nv)]
        if odd:
            for v in range(n) if leftover is None else sorted(leftover):
                self.adj[v][n] = 0
                self.adj[n][v] = 0
        self.changed: dict[tuple[int, int], None] = {}
        self.cold = True
        # Vertices are 0..nv-1; blossoms nv..2nv-1.
        size = 2 * nv
        self.mate = [NONE] * nv
        self.inblossom = list(range(nv))
        self.parent = [NONE] * size
        self.childs: list[list[int]] = [[] for _ in range(size)]
        self.leafs: list[list[int]] = [[] for _ in range(size)]
        self.edges: list[list[tuple[int, int]]] = [[] for _ in range(size)]
        self.base = list(range(nv)) + [NONE] * nv
        self.dual = [0] * size
        self.unused = list(range(2 * nv - 1, nv - 1, -1))
        self.tops: set[int] = set()  # non-trivial top-level blossoms
        # per stage
        self.label = [0] * size
        self.labeledge: list[tuple[int, int] | None] = [None] * size
        self.bestedge: list[tuple[int, int] | None] = [None] * size
        self.bslack: list[int] = [0] * size  # slack of bestedge, valid while duals stand
        self.bestlist: list[list[tuple[int, int]] | None] = [None] * size
        self.queue: list[int] = []

    # --- weights ------------------------------------------------------------------------

    def set(self, u: int, v: int, weight: int) -> None:
        """Set the weight of edge u-v; 0 or less removes it (as the Dutch engine does)."""
        row = self.adj[u]
        old = row.get(v)
        new = 2 * weight if weight > 0 else None
        if old == new:
            return
        if new is None:
            del row[v]
            del self.adj[v][u]
        else:
            row[v] = new
            self.adj[v][u] = new
        self.changed[(u, v) if u < v else (v, u)] = None

    def weight(self, u: int, v: int) -> int:
        return self.adj[u].get(v, 0) // 2

    # --- solving ------------------------------------------------------------------------

    def solve(self) -> list[int]:
        """Partner of each of the n vertices (itself when left out)."""
        if self.cold:
            self._cold_start()
        else:
            self._warm_start()
        self.changed.clear()
        self._stages()
        out = list(range(self.n))
        for v in range(self.n):
            m = self.mate[v]
            if m != NONE and m != self.dummy:
                out[v] = m
        return out

    def _cold_start(self) -> None:
        nv = self.nv
        self.mate = [NONE] * nv
        self.inblossom = list(range(nv))
        size = 2 * nv
        self.parent = [NONE] * size
        self.childs = [[] for _ in range(size)]
        self.leafs = [[] for _ in range(size)]
        self.edges = [[] for _ in range(size)]
        self.base = list(range(nv)) + [NONE] * nv
        self.dual = [0] * size
        self.unused = list(range(2 * nv - 1, nv - 1, -1))
        self.tops = set()
        adj, dual = self.adj, self.dual
        for v in range(nv):
            row = adj[v]
            dual[v] = max(row.values()) // 2 if row else 0
        # Lower each dual in turn as far as its edges allow: many edges become tight.
        for v in range(nv):
            row = adj[v]
            if row:
                dual[v] = max(w2 - dual[u] for u, w2 in row.items())
        self._match_tight()
        self._even_roots()
        self.cold = False

    def _match_tight(self) -> None:
        """Augment along tight edges before the stages: an exposed vertex to an exposed
        neighbour, else through a matched pair of single vertices to another exposed
        vertex (paths of length one and three; the stages find the rest)."""
        adj, dual, mate, inblossom = self.adj, self.dual, self.mate, self.inblossom
        for v in range(self.nv):
            if mate[v] != NONE:
                continue
            dv, bv = dual[v], inblossom[v]
            through: list[int] = []
            for u, w2 in adj[v].items():
                if dv + dual[u] == w2 and inblossom[u] != bv:
                    if mate[u] == NONE:
                        mate[v], mate[u] = u, v
                        break
                    through.append(u)
            else:
                for u in through:
                    m = mate[u]
                    if inblossom[u] != u or inblossom[m] != m:
                        continue
                    dm = dual[m]
                    for y, w2 in adj[m].items():
                        if mate[y] == NONE and y != v and dm + dual[y] == w2 and inblossom[y] != bv:
                            mate[v], mate[u] = u, v
                            mate[m], mate[y] = y, m
                            break
                    if mate[v] != NONE:
                        break

    def _warm_start(self) -> None:
        adj, dual, mate, inblossom = self.adj, self.dual, self.mate, self.inblossom
        count: dict[int, int] = {}
        for u, v in self.changed:
            count[u] = count.get(u, 0) + 1
            count[v] = count.get(v, 0) + 1
        for u, v in self.changed:
            w2 = adj[u].get(v)
            if inblossom[u] == inblossom[v] and inblossom[u] >= self.nv:
                if self._still_fits(u, v, w2):
                    continue
                while inblossom[u] == inblossom[v] and inblossom[u] >= self.nv:
                    self._dissolve(inblossom[u])
            if mate[u] == v:
                if w2 is None or dual[u] + dual[v] != w2:
                    mate[u] = mate[v] = NONE
                    if w2 is not None and dual[u] + dual[v] < w2:
                        self._reset(u if count[u] >= count[v] else v)
            elif w2 is not None and dual[u] + dual[v] < w2:
                self._reset(u if count[u] >= count[v] else v)
        self._match_tight()
        self._even_roots()

    def _leaves(self, b: int) -> list[int]:
        """The vertices of b (kept with each blossom: its members never change)."""
        return self.leafs[b] if b >= self.nv else [b]

    def _still_fits(self, u: int, v: int, w2: int | None) -> bool:
        """Whether a changed edge inside a blossom leaves it valid: not matched, not one of
        the blossom's own cycle edges, and still feasible counting the blossoms' duals."""
        if self.mate[u] == v:
            return False
        parent = self.parent
        above: set[int] = set()
        t = u
        while t != NONE:
            above.add(t)
            t = parent[t]
        b = v
        while b not in above:
            b = parent[b]
        edges = self.edges[b]
        if (u, v) in edges or (v, u) in edges:
            return False
        if w2 is None:
            return True
        z = 0
        t = b
        while t != NONE:
            z += self.dual[t]
            t = parent[t]
        return self.dual[u] + self.dual[v] + 2 * z >= w2

    def _dissolve(self, b: int) -> None:
        """Undo top-level blossom b outside the stages, keeping every edge feasible."""
        dual, nv = self.dual, self.nv
        z = dual[b]
        leaves = self._leaves(b)
        if z:
            for v in leaves:
                dual[v] += z
            base = self.base[b]
            m = self.mate[base]
            if m != NONE:  # the base's edge out of b is no longer tight
                self.mate[base] = self.mate[m] = NONE
        for s in self.childs[b]:
            self.parent[s] = NONE
            if s < nv:
                self.inblossom[s] = s
            else:
                self.tops.add(s)
                for v in self._leaves(s):
                    self.inblossom[v] = s
        self._free_blossom(b)

    def _free_blossom(self, b: int) -> None:
        self.tops.discard(b)
        self.childs[b] = []
        self.leafs[b] = []
        self.edges[b] = []
        self.base[b] = NONE
        self.dual[b] = 0
        self.parent[b] = NONE
        self.label[b] = 0
        self.labeledge[b] = None
        self.bestedge[b] = None
        self.bestlist[b] = None
        self.unused.append(b)

    def _reset(self, x: int) -> None:
        """Make x a single exposed vertex with the smallest dual keeping its edges feasible."""
        while self.inblossom[x] != x:
            self._dissolve(self.inblossom[x])
        m = self.mate[x]
        if m != NONE:
            self.mate[x] = self.mate[m] = NONE
        dual = self.dual
        row = self.adj[x]
        dual[x] = max(w2 - dual[u] for u, w2 in row.items()) if row else 0

    def _even_roots(self) -> None:
        """Give every exposed vertex an even dual (the stages halve slacks between them)."""
        dual, inblossom, nv = self.dual, self.inblossom, self.nv
        for x in range(nv):
            if self.mate[x] != NONE or not dual[x] & 1:
                continue
            while True:
                b = inblossom[x]
                if b == x:
                    dual[x] += 1
                    break
                if dual[b] >= 1:  # shift one unit from the blossom to all its vertices
                    for v in self._leaves(b):
                        dual[v] += 1
                    dual[b] -= 1
                    break
                self._dissolve(b)

    # --- the primal-dual stages ------------------------------------------------------------

    def _slack(self, v: int, w: int) -> int:
        return self.dual[v] + self.dual[w] - self.adj[v][w]

    def _assign(self, w: int, t: int, v: int) -> None:
        label, labeledge, bestedge = self.label, self.labeledge, self.bestedge
        while True:
            b = self.inblossom[w]
            label[w] = label[b] = t
            edge = (v, w) if v != NONE else None
            labeledge[w] = labeledge[b] = edge
            bestedge[w] = bestedge[b] = None
            if t == 1:
                self.queue.extend(self._leaves(b))
                return
            base = self.base[b]
            # t == 2: its mate gets S
            w, t, v = self.mate[base], 1, base

    def _scan(self, v: int, w: int) -> int:
        label, labeledge, inblossom = self.label, self.labeledge, self.inblossom
        path: list[int] = []
        base = NONE
        while v != NONE:
            b = inblossom[v]
            if label[b] & 4:
                base = self.base[b]
                break
            path.append(b)
            label[b] = 5
            edge = labeledge[b]
            if edge is None:
                v = NONE
            else:
                v = edge[0]
                b = inblossom[v]
                v = labeledge[b][0]  # type: ignore[index]  # a labelled vertex has its edge set
            if w != NONE:
                v, w = w, v
        for b in path:
            label[b] = 1
        return base

    def _add_blossom(self, base: int, v: int, w: int) -> None:
        inblossom, labeledge, parent = self.inblossom, self.labeledge, self.parent
        bb, bv, bw = inblossom[base], inblossom[v], inblossom[w]
        b = self.unused.pop()
        self.base[b] = base
        parent[b] = NONE
        parent[bb] = b
        path: list[int] = []
        edges: list[tuple[int, int]] = [(v, w)]
        while bv != bb:
            parent[bv] = b
            path.append(bv)
            edge = labeledge[bv]
            edges.append(edge)  # type: ignore[arg-type]  # a labelled vertex has its edge set
            v = edge[0]  # type: ignore[index]  # a labelled vertex has its edge set
            bv = inblossom[v]
        path.append(bb)
        path.reverse()
        edges.reverse()
        while bw != bb:
            parent[bw] = b
            path.append(bw)
            edge = labeledge[bw]
            edges.append((edge[1], edge[0]))  # type: ignore[index]  # a labelled vertex has its edge set
            w = edge[0]  # type: ignore[index]  # a labelled vertex has its edge set
            bw = inblossom[w]
        self.childs[b] = path
        self.leafs[b] = [leaf for s in path for leaf in self._leaves(s)]
        self.edges[b] = edges
        self.label[b] = 1
        labeledge[b] = labeledge[bb]
        self.dual[b] = 0
        for s in path:
            self.tops.discard(s)
        self.tops.add(b)
        label = self.label
        for leaf in self._leaves(b):
            if label[inblossom[leaf]] == 2:
                self.queue.append(leaf)
            inblossom[leaf] = b
        adj, dual = self.adj, self.dual
        best: dict[int, tuple[int, int]] = {}
        bestslack: dict[int, int] = {}
        for s in path:
            lst = self.bestlist[s]
            if lst is None:  # every edge out of s's vertices
                for i in self._leaves(s):
                    di = dual[i]
                    for j, w2 in adj[i].items():
                        bj = inblossom[j]
                        if bj != b and label[bj] == 1:
                            sl = di + dual[j] - w2
                            if bj not in best or sl < bestslack[bj]:
                                best[bj] = (i, j)
                                bestslack[bj] = sl
                lst = []
            for i, j in lst:
                if inblossom[j] == b:
                    i, j = j, i
                bj = inblossom[j]
                if bj != b and label[bj] == 1:
                    sl = dual[i] + dual[j] - adj[i][j]
                    if bj not in best or sl < bestslack[bj]:
                        best[bj] = (i, j)
                        bestslack[bj] = sl
            self.bestlist[s] = None
            self.bestedge[s] = None
        self.bestlist[b] = list(best.values())
        mine = None
        mineslack = 0
        for bj, edge in best.items():
            if mine is None or bestslack[bj] < mineslack:
                mine, mineslack = edge, bestslack[bj]
        self.bestedge[b] = mine
        self.bslack[b] = mineslack

    def _expand(self, b: int, endstage: bool) -> None:
        nv = self.nv
        inblossom, parent, label, labeledge = (
            self.inblossom,
            self.parent,
            self.label,
            self.labeledge,
        )
        childs = self.childs[b]
        for s in childs:
            parent[s] = NONE
            if s < nv:
                inblossom[s] = s
            else:
                self.tops.add(s)
                if endstage and self.dual[s] == 0:
                    self._expand(s, endstage)
                else:
                    for leaf in self._leaves(s):
                        inblossom[leaf] = s
        if not endstage and label[b] == 2:
            edges = self.edges[b]
            entry = inblossom[labeledge[b][1]]  # type: ignore[index]  # a labelled vertex has its edge set
            j = childs.index(entry)
            if j & 1:
                j -= len(childs)
                jstep = 1
            else:
                jstep = -1
            v, w = labeledge[b]  # type: ignore[misc]  # a labelled vertex has its edge set
            while j != 0:
                q = edges[j][1] if jstep == 1 else edges[j - 1][0]
                label[w] = 0
                label[q] = 0
                self._assign(w, 2, v)
                j += jstep
                if jstep == 1:
                    v, w = edges[j]
                else:
                    w, v = edges[j - 1]
                j += jstep
            bw = childs[j]
            label[w] = label[bw] = 2
            labeledge[w] = labeledge[bw] = (v, w)
            self.bestedge[bw] = None
            j += jstep
            while childs[j] != entry:
                bv = childs[j]
                if label[bv] == 1:
                    j += jstep
                    continue
                found = NONE
                for x in self._leaves(bv):
                    if label[x]:
                        found = x
                        break
                if found != NONE:
                    label[found] = 0
                    label[self.mate[self.base[bv]]] = 0
                    self._assign(found, 2, labeledge[found][0])  # type: ignore[index]  # a labelled vertex has its edge set
                j += jstep
        self._free_blossom(b)

    def _augment_blossom(self, b: int, v: int) -> None:
        t = v
        parent = self.parent
        while parent[t] != b:
            t = parent[t]
        nv = self.nv
        if t >= nv:
            self._augment_blossom(t, v)
        childs, edges = self.childs[b], self.edges[b]
        i = j = childs.index(t)
        if i & 1:
            j -= len(childs)
            jstep = 1
        else:
            jstep = -1
        mate = self.mate
        while j != 0:
            j += jstep
            t = childs[j]
            if jstep == 1:
                w, x = edges[j]
            else:
                x, w = edges[j - 1]
            if t >= nv:
                self._augment_blossom(t, w)
            j += jstep
            t = childs[j]
            if t >= nv:
                self._augment_blossom(t, x)
            mate[w] = x
            mate[x] = w
        self.childs[b] = childs[i:] + childs[:i]
        self.edges[b] = edges[i:] + edges[:i]
        self.base[b] = self.base[self.childs[b][0]]

    def _augment(self, v: int, w: int) -> None:
        inblossom, labeledge, mate, nv = self.inblossom, self.labeledge, self.mate, self.nv
        for s, j in ((v, w), (w, v)):
            while True:
                bs = inblossom[s]
                if bs >= nv:
                    self._augment_blossom(bs, s)
                mate[s] = j
                edge = labeledge[bs]
                if edge is None:
                    break
                t = edge[0]
                bt = inblossom[t]
                s, j = labeledge[bt]  # type: ignore[misc]  # a labelled vertex has its edge set
                if bt >= nv:
                    self._augment_blossom(bt, j)
                mate[j] = s

    def _stages(self) -> None:
        nv = self.nv
        adj, dual, mate, inblossom = self.adj, self.dual, self.mate, self.inblossom
        label, bestedge, bslack = self.label, self.bestedge, self.bslack
        while True:
            exposed = [v for v in range(nv) if mate[v] == NONE]
            if not exposed:
                return
            size = 2 * nv
            self.label = label = [0] * size
            self.bestedge = bestedge = [None] * size
            self.labeledge = [None] * size
            self.bestlist = [None] * size
            self.queue = []
            for v in exposed:
                if label[inblossom[v]] == 0:
                    self._assign(v, 1, NONE)
            augmented = False
            while True:
                queue = self.queue
                while queue and not augmented:
                    v = queue.pop()
                    bv = inblossom[v]
                    dv = dual[v]
                    for w, w2 in adj[v].items():
                        bw = inblossom[w]
                        if bv == bw:
                            continue
                        kslack = dv + dual[w] - w2
                        if kslack <= 0:
                            lbw = label[bw]
                            if lbw == 0:
                                self._assign(w, 2, v)
                            elif lbw == 1:
                                base = self._scan(v, w)
                                if base != NONE:
                                    self._add_blossom(base, v, w)
                                    bv = inblossom[v]
                                else:
                                    self._augment(v, w)
                                    augmented = True
                                    break
                            elif label[w] == 0:
                                label[w] = 2
                                self.labeledge[w] = (v, w)
                        elif label[bw] == 1:
                            if bestedge[bv] is None or kslack < bslack[bv]:
                                bestedge[bv] = (v, w)
                                bslack[bv] = kslack
                        elif label[w] == 0 and (bestedge[w] is None or kslack < bslack[w]):
                            bestedge[w] = (v, w)
                            bslack[w] = kslack
                if augmented:
                    break
                deltatype = -1
                delta = 0
                deltaedge: tuple[int, int] | None = None
                deltablossom = NONE
                for v in range(nv):
                    if label[inblossom[v]] == 0:
                        be = bestedge[v]
                        if be is not None:
                            d = dual[be[0]] + dual[be[1]] - adj[be[0]][be[1]]
                            if deltatype == -1 or d < delta:
                                delta, deltatype, deltaedge = d, 2, be
                for b in list(range(nv)) + list(self.tops):
                    if self.parent[b] == NONE and label[b] == 1:
                        be = bestedge[b]
                        if be is not None:
                            kslack = dual[be[0]] + dual[be[1]] - adj[be[0]][be[1]]
                            if kslack & 1:
                                raise NoPerfectMatching("odd slack between S-blossoms")
                            d = kslack // 2
                            if deltatype == -1 or d < delta:
                                delta, deltatype, deltaedge = d, 3, be
                for b in self.tops:
                    if label[b] == 2 and (deltatype == -1 or dual[b] < delta):
                        delta, deltatype, deltablossom = dual[b], 4, b
                if deltatype == -1:
                    raise NoPerfectMatching("no augmenting path")
                for v in range(nv):
                    lb = label[inblossom[v]]
                    if lb == 1:
                        dual[v] -= delta
                    elif lb == 2:
                        dual[v] += delta
                for b in self.tops:
                    if label[b] == 1:
                        dual[b] += delta
                    elif label[b] == 2:
                        dual[b] -= delta
                for x, be in enumerate(bestedge):  # the slacks moved with the duals
                    if be is not None:
                        bslack[x] = dual[be[0]] + dual[be[1]] - adj[be[0]][be[1]]
                if deltatype == 2 or deltatype == 3:
                    v, w = deltaedge  # type: ignore[misc]  # delta types 2 and 3 come with an edge
                    if label[inblossom[v]] != 1:
                        v, w = w, v
                    self.queue.append(v)
                else:
                    self._expand(deltablossom, False)
            for b in list(self.tops):
                if b in self.tops and self.parent[b] == NONE and label[b] == 1 and dual[b] == 0:
                    self._expand(b, True)
