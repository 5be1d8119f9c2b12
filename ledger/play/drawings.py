"""A board drawn as a map (San Marco's districts) in SVG, from what its game declares
(games/<slug>/faces.py ``drawing``, see games/core/faces.py's ``Drawing``): boxes for the
places with their pieces, the links between them with the pieces on them, a marker, a
points track with each colour's name, and the offers on the table. Nothing is fetched; the
game says what is public (its view), this module only draws it.
"""

from __future__ import annotations

import math
from html import escape
from typing import Any

from django.utils.safestring import SafeString, mark_safe

from games.core import faces as game_faces
from games.core.faces import Drawing

BOX_W, BOX_H = 92, 74
INK, PAPER, WATER = "#1c1917", "#fef3c7", "#bfdbfe"


def _t(x: float, y: float, text: str, size: float = 10, **attrs: Any) -> str:
    fill = attrs.pop("fill", INK)
    extra = "".join(f' {k.replace("_", "-")}="{escape(str(v))}"' for k, v in attrs.items())
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" fill="{fill}"'
        f"{extra}>{escape(text)}</text>"
    )


def _width(text: str, size: float) -> float:
    return len(text) * size * 0.62


def _map(d: Drawing) -> list[str]:
    out = [f'<rect x="0" y="0" width="{d.width}" height="{d.height}" rx="14" fill="{WATER}"/>']
    at = {s.key: (s.x, s.y) for s in d.spots}
    cx, cy = d.width / 2, d.height / 2
    for link in d.links:
        if link.a not in at or link.b not in at:
            continue
        (ax, ay), (bx, by) = at[link.a], at[link.b]
        dash = "" if link.pieces else ' stroke-dasharray="4 4"'
        out.append(
            f'<line class="site" x1="{ax}" y1="{ay}" x2="{bx}" y2="{by}" stroke="#64748b"'
            f' stroke-width="{2 if link.pieces else 1.2}"{dash}/>'
        )
    for link in d.links:
        if not link.pieces or link.a not in at or link.b not in at:
            continue
        (ax, ay), (bx, by) = at[link.a], at[link.b]
        t = 0.5
        if math.hypot((ax + bx) / 2 - cx, (ay + by) / 2 - cy) < 20:
            t = 0.38  # two links crossing in the middle keep their bridges apart
        length = math.hypot(bx - ax, by - ay) or 1
        ux, uy = (bx - ax) / length, (by - ay) / length
        mx, my = ax + (bx - ax) * t, ay + (by - ay) * t
        k = len(link.pieces)
        for i, (colour, number) in enumerate(link.pieces):
            off = (i - (k - 1) / 2) * 19
            px, py = mx + ux * off, my + uy * off
            fill = d.colours.get(colour, ("#475569", ""))[0]
            name = d.colours.get(colour, ("", ""))[1]
            out.append(
                f'<g class="bridge" data-owner="{escape(colour)}" data-between="{escape(link.a)}'
                f' {escape(link.b)}"><title>{number}: {escape(name)}</title>'
                f'<rect x="{px - 8:.1f}" y="{py - 7:.1f}" width="16" height="14" rx="3"'
                f' fill="{fill}" stroke="#fff" stroke-width="1.5"/>'
                + _t(px, py + 3.5, str(number), 10, fill="#fff", text_anchor="middle",
                     font_weight="700")
                + "</g>"
            )  # fmt: skip
    for s in d.spots:
        x0, y0 = s.x - BOX_W / 2, s.y - BOX_H / 2
        stroke = "#b45309" if s.marker else "#92400e"
        out.append(
            f'<g class="district" data-key="{escape(s.key)}">'
            f'<rect x="{x0}" y="{y0}" width="{BOX_W}" height="{BOX_H}" rx="9" fill="{PAPER}"'
            f' stroke="{stroke}" stroke-width="{3 if s.marker else 1.5}"/>'
        )
        out.append(_t(s.x, y0 + 15, s.label, 11, text_anchor="middle", font_weight="700"))
        for i, line in enumerate(s.lines[:2]):
            out.append(_t(s.x, y0 + 29 + i * 12, line, 10, text_anchor="middle"))
        n = len(s.pieces)
        for i, (colour, count) in enumerate(s.pieces):
            px = s.x - n * 11 + i * 22
            fill = d.colours.get(colour, ("#475569", ""))[0]
            out.append(
                f'<g class="cubes" data-colour="{escape(colour)}" data-count="{count}">'
                f'<rect x="{px:.1f}" y="{y0 + 54}" width="10" height="10" rx="1.5" fill="{fill}"'
                f' stroke="{INK}" stroke-width=".6"/>'
                + _t(px + 12, y0 + 63, str(count), 10, font_weight="700")
                + "</g>"
            )
        if s.marker:
            out.append(
                f'<g class="marker"><rect x="{x0 + BOX_W - 40}" y="{y0 - 12}" width="40"'
                f' height="16" rx="8" fill="#b45309"/>'
                + _t(x0 + BOX_W - 20, y0, s.marker, 10, fill="#fff", text_anchor="middle",
                     font_weight="700")
                + "</g>"
            )  # fmt: skip
        out.append("</g>")
    return out


def _track(d: Drawing, y: float) -> tuple[list[str], float]:
    if not d.track:
        return [], y
    out = [_t(10, y + 12, d.track_title, 11, font_weight="700")]
    top = max([p for _c, p, _w in d.track] + [0])
    end = max(50, math.ceil((top + 1) / 10) * 10)
    x0, x1 = 18, d.width - 18
    lanes = len(d.track)
    ly = y + 22
    out.append(f'<rect x="{x0}" y="{ly}" width="{x1 - x0}" height="{lanes * 11 + 4}" rx="4"'
               ' fill="#f1f5f9" stroke="#94a3b8"/>')  # fmt: skip
    for v in range(0, end + 1, 10):
        x = x0 + (x1 - x0) * v / end
        out.append(f'<line x1="{x:.1f}" y1="{ly}" x2="{x:.1f}" y2="{ly + lanes * 11 + 4}"'
                   ' stroke="#cbd5e1"/>')  # fmt: skip
        out.append(_t(x, ly + lanes * 11 + 16, str(v), 9, text_anchor="middle", fill="#475569"))
    for i, (colour, points, _w) in enumerate(d.track):
        x = x0 + (x1 - x0) * min(points, end) / end
        fill = d.colours.get(colour, ("#475569", ""))[0]
        out.append(
            f'<circle class="score" data-colour="{escape(colour)}" data-points="{points}"'
            f' cx="{x:.1f}" cy="{ly + 7.5 + i * 11}" r="5" fill="{fill}" stroke="#fff"/>'
        )
    y = ly + lanes * 11 + 26
    for colour, points, words in d.track:
        fill, name = d.colours.get(colour, ("#475569", ""))
        out.append(f'<rect x="10" y="{y}" width="12" height="12" rx="2" fill="{fill}"/>')
        out.append(_t(28, y + 10, name, 11, font_weight="700"))
        out.append(_t(d.width - 10, y + 11, str(points), 13, text_anchor="end", font_weight="700"))
        out.append(_t(28, y + 23, words, 10, fill="#475569"))
        y += 32
    return out, y


def _offers(d: Drawing, y: float) -> tuple[list[str], float]:
    if not d.offers:
        return [], y
    out = [_t(10, y + 12, d.offers_title, 11, font_weight="700")]
    y += 20
    for offer in d.offers:
        head = offer.label + (f" · {offer.taken}" if offer.taken else "")
        out.append(_t(10, y + 11, head, 10, font_weight="700"))
        y += 16
        x = 10.0
        chips = [(c, False) for c in offer.cards] + [("", True)] * offer.hidden
        for word, back in chips:
            w = 16 if back else _width(word, 10) + 12
            if x + w > d.width - 10:
                x, y = 10.0, y + 24
            if back:
                out.append(f'<rect class="back" x="{x:.1f}" y="{y}" width="{w}" height="20" rx="3"'
                           ' fill="#475569" stroke="#1e293b"/>')  # fmt: skip
            else:
                out.append(f'<rect class="offer-card" x="{x:.1f}" y="{y}" width="{w:.1f}"'
                           ' height="20" rx="3" fill="#fff" stroke="#64748b"/>')  # fmt: skip
                out.append(_t(x + 6, y + 14, word, 10))
            x += w + 5
        y += 28
    return out, y


def svg(d: Drawing) -> SafeString:
    parts = _map(d)
    more, y = _track(d, d.height + 6)
    parts += more
    more, y = _offers(d, y + 4)
    parts += more
    height = max(y, d.height) + 6
    desc = escape("; ".join(d.summary))
    body = "".join(parts)
    return mark_safe(
        f'<svg class="drawn-board" xmlns="http://www.w3.org/2000/svg" role="img"'
        f' viewBox="0 0 {d.width} {height:.0f}" font-family="system-ui, sans-serif"'
        f' aria-labelledby="drawn-title drawn-desc"><title id="drawn-title">{escape(d.title)}'
        f'</title><desc id="drawn-desc">{desc}</desc>{body}</svg>'
    )


def drawing(slug: str, view: Any, lang: str, names: list[str]) -> dict[str, Any] | None:
    """The board as its game draws it from a view, ready for the page; None when the game
    (or this moment of it) draws no map."""
    module = game_faces.for_game(slug)
    draw = getattr(module, "drawing", None) if module is not None else None
    if draw is None or not isinstance(view, dict):
        return None
    d = draw(view, lang, names)
    if d is None:
        return None
    return {"title": d.title, "status": d.status, "summary": d.summary, "svg": svg(d)}
