# ruff: noqa: E501  (the signs are SVG paths, one per line)
"""Every card of every game drawn as SVG, from the face its game declares
(games/<slug>/faces.py, see games/core/faces.py): colour, corner index, a drawn sign
repeated as pips or a word written large, a band with the card's name. Nothing is fetched:
the markup is built here, once per card and language, and cached. The digital tables
(ledger/play) and the referee's desk (ledger/referee) both draw their cards with it.
"""

from __future__ import annotations

import functools
from html import escape
from typing import Any

from django.utils.safestring import SafeString, mark_safe

from games.core import faces as game_faces
from games.core.faces import Face
from games.core.text import Text

W, H = 64, 96


def _sign(kind: str, colour: str, x: float, y: float, size: float) -> str:
    """A sign drawn in a 20x20 box, placed with its centre at (x, y) and ``size`` wide."""
    s = size / 20
    body = SIGNS.get(kind.split(":", 1)[0])
    if body is None:
        return ""
    inner = body(kind, colour)
    return f'<g transform="translate({x - size / 2:.2f} {y - size / 2:.2f}) scale({s:.3f})">{inner}</g>'


def _spade(_k: str, c: str) -> str:
    return (
        f'<path d="M10 0.5 L12.2 12.5 L10 14 L7.8 12.5 Z" fill="{c}"/>'
        f'<rect x="4.5" y="13" width="11" height="2" rx="1" fill="{c}"/>'
        f'<rect x="9" y="15" width="2" height="3.2" fill="{c}"/>'
        f'<circle cx="10" cy="19" r="1.2" fill="{c}"/>'
    )


def _bastoni(_k: str, c: str) -> str:
    return (
        f'<path d="M7.5 1.5 Q10 0 12.5 1.5 L11.6 19 Q10 20 8.4 19 Z" fill="{c}"/>'
        f'<circle cx="6.8" cy="6" r="1.3" fill="{c}"/><circle cx="13.2" cy="10" r="1.3" fill="{c}"/>'
        f'<circle cx="7" cy="14" r="1.2" fill="{c}"/>'
    )


def _coppe(_k: str, c: str) -> str:
    return (
        f'<path d="M3.5 2 H16.5 Q16.5 11 10 12 Q3.5 11 3.5 2 Z" fill="{c}"/>'
        f'<rect x="9" y="11.5" width="2" height="4.5" fill="{c}"/>'
        f'<ellipse cx="10" cy="17.5" rx="5" ry="1.8" fill="{c}"/>'
    )


def _denari(_k: str, c: str) -> str:
    return (
        f'<circle cx="10" cy="10" r="9" fill="{c}"/><circle cx="10" cy="10" r="6" fill="#fff7d6"/>'
        f'<path d="M10 5.5 L11.3 8.7 L14.5 10 L11.3 11.3 L10 14.5 L8.7 11.3 L5.5 10 L8.7 8.7 Z" '
        f'fill="{c}"/>'
    )


def _star(_k: str, c: str) -> str:
    return (
        f'<path d="M10 1 L12.4 7.2 L19 7.6 L13.9 11.8 L15.6 18.4 L10 14.7 L4.4 18.4 L6.1 11.8 '
        f'L1 7.6 L7.6 7.2 Z" fill="{c}"/>'
    )


def _fool(_k: str, c: str) -> str:
    return (
        f'<path d="M2 16 Q4 6 10 9 Q16 6 18 16 Z" fill="{c}"/>'
        f'<path d="M10 9 Q9 3 4 2 M10 9 Q11 3 16 2" stroke="{c}" stroke-width="1.6" fill="none"/>'
        f'<circle cx="3.8" cy="2" r="1.6" fill="{c}"/><circle cx="16.2" cy="2" r="1.6" fill="{c}"/>'
        f'<rect x="2" y="16" width="16" height="2.5" rx="1" fill="{c}"/>'
    )


def _crown(_k: str, c: str) -> str:
    return (
        f'<path d="M2 16 L3 5 L7 10 L10 3 L13 10 L17 5 L18 16 Z" fill="{c}"/>'
        f'<rect x="2" y="16.5" width="16" height="2.5" rx="1" fill="{c}"/>'
    )


def _tiara(_k: str, c: str) -> str:
    return (
        f'<path d="M3 15 Q10 2 17 15 Z" fill="{c}"/><circle cx="10" cy="7.5" r="1.8" fill="#fff"/>'
        f'<rect x="3" y="15.5" width="14" height="2.5" rx="1" fill="{c}"/>'
    )


def _horse(_k: str, c: str) -> str:
    return (
        f'<path d="M5 19 L6 11 Q5 7 8 4 L9 1 L11 3.5 Q16 4 17 10 L15 11 L12 9 L12.5 19 Z" '
        f'fill="{c}"/><circle cx="11.5" cy="6" r="0.9" fill="#fff"/>'
    )


def _maid(_k: str, c: str) -> str:
    return (
        f'<circle cx="10" cy="5.5" r="3.8" fill="{c}"/>'
        f'<path d="M3 19 Q4 10 10 10 Q16 10 17 19 Z" fill="{c}"/>'
    )


def _shield(_k: str, c: str) -> str:
    return f'<path d="M3 2 H17 V9 Q17 16 10 19 Q3 16 3 9 Z" fill="{c}"/>'


def _pike(_k: str, c: str) -> str:
    return (
        f'<path d="M10 0.5 L12.5 5 L10.8 5 L10.8 19.5 L9.2 19.5 L9.2 5 L7.5 5 Z" fill="{c}"/>'
        f'<path d="M6 7 H14" stroke="{c}" stroke-width="1.4"/>'
    )


def _mask(_k: str, c: str) -> str:
    return (
        f'<path d="M1 7 Q10 3 19 7 Q18 14 13 14 Q10 11 7 14 Q2 14 1 7 Z" fill="{c}"/>'
        f'<ellipse cx="6" cy="9" rx="2" ry="1.4" fill="#fff"/>'
        f'<ellipse cx="14" cy="9" rx="2" ry="1.4" fill="#fff"/>'
    )


def _drum(_k: str, c: str) -> str:
    return (
        f'<ellipse cx="10" cy="6" rx="8" ry="3" fill="{c}"/>'
        f'<path d="M2 6 V14 Q10 19 18 14 V6 Q10 11 2 6 Z" fill="{c}" opacity=".8"/>'
        f'<path d="M4 2 L9 6 M16 2 L11 6" stroke="{c}" stroke-width="1.4"/>'
    )


def _flag(_k: str, c: str) -> str:
    return (
        f'<rect x="4" y="1" width="1.6" height="18.5" fill="{c}"/>'
        f'<path d="M5.6 2 H17 L14 6.5 L17 11 H5.6 Z" fill="{c}"/>'
    )


def _hash(_k: str, c: str) -> str:
    return (
        f'<path d="M7 2 L5.5 18 M14 2 L12.5 18 M2.5 7 H18 M2 13 H17.5" stroke="{c}" '
        f'stroke-width="2.4" stroke-linecap="round"/>'
    )


def _gold(_k: str, c: str) -> str:
    return (
        f'<circle cx="10" cy="10" r="9" fill="#eab308" stroke="{c}" stroke-width="1"/>'
        f'<circle cx="10" cy="10" r="6" fill="none" stroke="#a16207" stroke-width="1.2"/>'
    )


def _weight(_k: str, c: str) -> str:
    return (
        f'<circle cx="10" cy="4" r="2.5" fill="none" stroke="{c}" stroke-width="1.6"/>'
        f'<path d="M5 7 H15 L18 19 H2 Z" fill="{c}"/>'
    )


def _push(_k: str, c: str) -> str:
    return f'<path d="M1 8 H12 V3 L19 10 L12 17 V12 H1 Z" fill="{c}"/>'


def _scroll(_k: str, c: str) -> str:
    return (
        f'<rect x="4" y="2" width="12" height="16" rx="1.5" fill="{c}"/>'
        f'<path d="M7 6.5 H13 M7 10 H13 M7 13.5 H11" stroke="#fff" stroke-width="1.3"/>'
    )


# cardChess pieces, drawn as simple silhouettes
def _piece(kind: str, c: str) -> str:
    name = kind.split(":", 1)[1] if ":" in kind else ""
    base = f'<rect x="4" y="16.5" width="12" height="2.8" rx="1" fill="{c}"/>'
    shapes = {
        "pawn": f'<circle cx="10" cy="6" r="3.4" fill="{c}"/><path d="M6.5 16.5 Q7 10 10 9.5 Q13 10 13.5 16.5 Z" fill="{c}"/>',
        "rook": f'<path d="M5.5 3 H7.5 V5 H9 V3 H11 V5 H12.5 V3 H14.5 V7 L13 8.5 V16.5 H7 V8.5 L5.5 7 Z" fill="{c}"/>',
        "knight": f'<path d="M6 16.5 L7 11 Q5.5 8 8 5 L9 2 L10.5 4 Q15 4.5 15 10 L14 16.5 Z" fill="{c}"/><path d="M8 9 L5 11" stroke="{c}" stroke-width="1.6"/>',
        "bishop": f'<path d="M10 1.5 Q14 6 12.5 10 L13.5 16.5 H6.5 L7.5 10 Q6 6 10 1.5 Z" fill="{c}"/><path d="M10 5 L11.5 8" stroke="#fff" stroke-width="1"/>',
        "queen": f'<path d="M4 6 L7 13 L8 4 L10 12 L12 4 L13 13 L16 6 L15 16.5 H5 Z" fill="{c}"/>',
        "king": f'<path d="M9 0.5 H11 V3 H13.5 V5 H11 V7 Q15 8 14 12 L13.5 16.5 H6.5 L6 12 Q5 8 9 7 V5 H6.5 V3 H9 Z" fill="{c}"/>',
    }
    return shapes.get(name, shapes["pawn"]) + base


SIGNS: dict[str, Any] = {
    "spade": _spade,
    "bastoni": _bastoni,
    "coppe": _coppe,
    "denari": _denari,
    "trump": _star,
    "fool": _fool,
    "crown": _crown,
    "tiara": _tiara,
    "horse": _horse,
    "maid": _maid,
    "shield": _shield,
    "pike": _pike,
    "mask": _mask,
    "drum": _drum,
    "flag": _flag,
    "hash": _hash,
    "gold": _gold,
    "weight": _weight,
    "push": _push,
    "scroll": _scroll,
    "piece": _piece,
}
COURT_SIGNS = {"K": "crown", "Q": "tiara", "C": "horse", "D": "maid"}

# Where the pips of a numbered card go, in the card's middle (x, y), by their number.
_COL = (22, 42)
_PIPS: dict[int, list[tuple[float, float]]] = {
    1: [(32, 48)],
    2: [(32, 30), (32, 66)],
    3: [(32, 28), (32, 48), (32, 68)],
    4: [(22, 32), (42, 32), (22, 64), (42, 64)],
    5: [(22, 30), (42, 30), (32, 48), (22, 66), (42, 66)],
    6: [(22, 28), (42, 28), (22, 48), (42, 48), (22, 68), (42, 68)],
    7: [(22, 28), (42, 28), (32, 38), (22, 52), (42, 52), (22, 68), (42, 68)],
    8: [(22, 26), (42, 26), (22, 40), (42, 40), (22, 54), (42, 54), (22, 68), (42, 68)],
    9: [(22, 26), (42, 26), (22, 40), (42, 40), (32, 47), (22, 54), (42, 54), (22, 68), (42, 68)],
    10: [(x, y) for y in (25, 36, 47, 58, 69) for x in _COL],
}


def _text(x: float, y: float, text: str, size: float, colour: str, **attrs: str) -> str:
    extra = "".join(f' {k.replace("_", "-")}="{v}"' for k, v in attrs.items())
    return f'<text x="{x}" y="{y}" font-size="{size}" fill="{colour}"{extra}>{escape(text)}</text>'


def _fit(text: str, width: float, size: float) -> float:
    """A font size at which ``text`` fits ``width`` (about 0.56 em per character)."""
    return min(size, width / max(1.0, 0.56 * len(text)))


def _draw(face: Face, lang: str) -> str:
    c = face.colour
    parts = [
        f'<rect x="1" y="1" width="{W - 2}" height="{H - 2}" rx="5" fill="#fffdf7" '
        f'stroke="{c}" stroke-width="1.6"/>'
    ]
    if face.back:
        parts.append(
            f'<rect x="5" y="5" width="{W - 10}" height="{H - 10}" rx="3" fill="{c}" opacity=".85"/>'
            f'<path d="M5 20 L20 5 M5 40 L40 5 M5 60 L59 6 M5 80 L59 26 M12 91 L59 46 '
            f'M32 91 L59 66 M52 91 L59 86" stroke="#fff" stroke-width="1" opacity=".5"/>'
        )
        return "".join(parts)
    corner = face.corner.get(lang)
    parts.append(
        _text(
            5, 17, corner, _fit(corner, 26, 15), c, font_weight="700", font_family="Georgia, serif"
        )
    )
    if face.sign and face.sign != "fool" and not face.sign.startswith("piece"):
        parts.append(_sign(face.sign, c, 10.5, 25, 9))
    band = face.band.get(lang) if face.band else ""
    bottom = H - 16 if band else H - 6
    big = face.big if isinstance(face.big, str) else face.big.get(lang)
    if big.startswith("court:"):
        court = COURT_SIGNS.get(big.split(":", 1)[1], "crown")
        parts.append(_sign(court, c, 36, 36, 24))
        parts.append(_sign(face.sign, c, 36, 62, 16))
    elif big:
        size = _fit(big, 50, 26 if len(big) <= 3 else 22)
        if face.sign and face.sign not in ("trump",) and not face.sign.startswith("piece"):
            parts.append(_sign(face.sign, c, 32, 35, 20))
            parts.append(
                _text(
                    32,
                    65,
                    big,
                    size,
                    c,
                    text_anchor="middle",
                    font_weight="700",
                    font_family="Georgia, serif",
                )
            )
        elif face.sign.startswith("piece"):
            # The value is in the corner: the piece's silhouette fills the middle.
            parts.append(_sign(face.sign, c, 32, 44, 32))
        else:
            parts.append(_sign("trump", c, 32, 30, 14) if face.sign == "trump" else "")
            parts.append(
                _text(
                    32,
                    60,
                    big,
                    size,
                    c,
                    text_anchor="middle",
                    font_weight="700",
                    font_family="Georgia, serif",
                )
            )
    elif face.sign:
        pips = _PIPS.get(face.pips) if face.pips > 1 else None
        if pips:
            size = 14 if face.pips <= 6 else 11.5 if face.pips <= 8 else 10
            parts.extend(_sign(face.sign, c, x, y + 2, size) for x, y in pips)
        else:
            parts.append(_sign(face.sign, c, 32, 46, 30))
    for i, line in enumerate(face.lines):
        text = line.get(lang)
        parts.append(
            _text(
                32,
                bottom - 4 - 9 * (len(face.lines) - 1 - i),
                text,
                _fit(text, 56, 8.5),
                c,
                text_anchor="middle",
                font_weight="600",
            )
        )
    if band:
        parts.append(f'<rect x="1" y="{H - 15}" width="{W - 2}" height="14" rx="0" fill="{c}"/>')
        parts.append(
            _text(
                32,
                H - 4.5,
                band,
                _fit(band, 58, 10),
                "#fff",
                text_anchor="middle",
                font_weight="700",
            )
        )
    return "".join(parts)


@functools.cache
def _svg(slug: str, code: str, lang: str, back: bool = False) -> str:
    module = game_faces.for_game(slug)
    face: Face | None
    if back:
        colour = getattr(module, "BACK_COLOUR", "#334155") if module is not None else "#334155"
        face = Face(code, Text("", ""), Text("", ""), colour=colour, back=True)
    else:
        face = module.face(code) if module is not None else None
        if face is None:
            face = Face(code, Text(code, code), Text(code, code), big=code)
    return (
        f'<svg class="card-face" viewBox="0 0 {W} {H}" width="{W}" height="{H}" '
        f'aria-hidden="true" focusable="false">{_draw(face, lang)}</svg>'
    )


def svg(slug: str, code: str, lang: str) -> SafeString:
    return mark_safe(_svg(slug, code, lang))


def back(slug: str) -> SafeString:
    return mark_safe(_svg(slug, "", "it", back=True))


def name(slug: str, code: str, lang: str) -> str:
    module = game_faces.for_game(slug)
    if module is None:
        return code
    named: str = module.face(code).name.get(lang)
    return named
