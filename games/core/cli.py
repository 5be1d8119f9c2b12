"""``python -m games``: the same command line for every game, with no Django.

JSON goes to standard output. Exit codes: 0 valid, 1 a rule is broken, 2 the input is
malformed (with a message on standard error that says what to fix).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from typing import Any, TextIO

from games.core import registry
from games.core.bots import make_bot
from games.core.engine import Game, play
from games.core.errors import RecordError
from games.core.fair import commitment

EXIT_OK, EXIT_BROKEN, EXIT_MALFORMED = 0, 1, 2


def _dump(obj: Any, out: TextIO) -> None:
    out.write(json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n")


def read_documents(stream: TextIO) -> Iterator[tuple[int, Any]]:
    """One JSON document, or JSON lines; yields (line number, document)."""
    text = stream.read()
    stripped = text.strip()
    if not stripped:
        raise RecordError("the input is empty: give a JSON object or JSON lines")
    try:
        yield 1, json.loads(stripped)
        return
    except json.JSONDecodeError:
        pass
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            yield number, json.loads(line)
        except json.JSONDecodeError as exc:
            message = f"not valid JSON ({exc.msg}, column {exc.colno})"
            raise RecordError(message, path=f"line {number}") from exc


def _open(path: str) -> TextIO:
    if path == "-":
        return sys.stdin
    try:
        return open(path, encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"cannot open {path}: {exc.strerror}") from exc


def make_bots(game: Game[Any, Any], kind: str, seats: int, seed: int) -> list[Any]:
    return [make_bot(game, kind, seed * 31 + i) for i in range(seats)]


def cmd_selfplay(game: Game[Any, Any], args: argparse.Namespace, out: TextIO) -> int:
    ruleset = game.ruleset(args.ruleset)
    for n in range(args.games):
        seed = args.seed + n
        state = game.new_game(ruleset, seed)
        play(game, state, make_bots(game, args.bots, ruleset.seats, seed))
        _dump(state.to_record(), out)
    return EXIT_OK


def cmd_validate(game: Game[Any, Any], args: argparse.Namespace, out: TextIO) -> int:
    worst = EXIT_OK
    with _open(args.file) as stream:
        for _, record in read_documents(stream):
            verdict = game.validate(record)
            _dump(verdict.to_json(), out)
            if not verdict.valid:
                worst = EXIT_BROKEN
    return worst


def cmd_score(game: Game[Any, Any], args: argparse.Namespace, out: TextIO) -> int:
    worst = EXIT_OK
    with _open(args.file) as stream:
        for _, summary in read_documents(stream):
            if not isinstance(summary, dict):
                raise RecordError("a summary is a JSON object")
            report = game.score(summary)
            _dump(report.to_json(), out)
            if not report.valid:
                worst = EXIT_BROKEN
    return worst


def cmd_deal(game: Game[Any, Any], args: argparse.Namespace, out: TextIO) -> int:
    """The deal a seed gives (the record before the first action) and, with the table's
    id, the commitment a digital table showed before the game began."""
    ruleset = args.ruleset
    if ruleset is not None and ruleset.lstrip().startswith("{"):
        try:
            ruleset = json.loads(ruleset)
        except json.JSONDecodeError as exc:
            raise RecordError(f"the ruleset is not valid JSON ({exc.msg})", path="ruleset") from exc
    record = game.new_game(game.ruleset(ruleset), args.seed).to_record()
    found: dict[str, Any] = {"seed": args.seed}
    if args.table is not None:
        found["table"] = args.table
        found["commitment"] = commitment(args.seed, args.table)
    found["deal"] = record
    _dump(found, out)
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m games", description=__doc__)
    sub = parser.add_subparsers(dest="game", metavar="GAME|list")
    sub.add_parser("list", help="the games this installation knows")
    for slug in registry.available():
        g = sub.add_parser(slug, help=f"the {slug} engine")
        commands = g.add_subparsers(dest="command", required=True)
        commands.add_parser("rulesets", help="the ruleset names")
        sp = commands.add_parser("selfplay", help="bots play full games; one record per line")
        sp.add_argument("--ruleset", default=None)
        sp.add_argument("--games", type=int, default=1)
        sp.add_argument("--seed", type=int, default=0)
        sp.add_argument("--bots", default="random")
        dl = commands.add_parser(
            "deal", help="the deal a seed gives, and a digital table's commitment to it"
        )
        dl.add_argument("--seed", type=int, required=True)
        dl.add_argument("--table", type=int, default=None, help="the digital table's number")
        dl.add_argument("--ruleset", default=None, help="a ruleset name or its JSON")
        for name, text in (("validate", "replay full records"), ("score", "score summaries")):
            c = commands.add_parser(name, help=text)
            c.add_argument("file", help="a JSON file, JSON lines, or - for standard input")
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    args = build_parser().parse_args(argv)
    if args.game in (None, "list"):
        for slug in registry.available():
            game = registry.get(slug)
            _dump(
                {
                    "game": slug,
                    "name": game.info.name.as_dict(),
                    "seats": list(game.info.seat_counts),
                },
                out,
            )
        return EXIT_OK
    game = registry.get(args.game)
    try:
        if args.command == "rulesets":
            for name, ruleset in game.rulesets.items():
                _dump(
                    {"name": name, "seats": ruleset.seats, "default": name == game.default_ruleset},
                    out,
                )
            return EXIT_OK
        if args.command == "selfplay":
            if args.bots != "random" and args.bots not in game.bots:
                known = ", ".join(["random", *game.bots])
                raise RecordError(f"unknown bots {args.bots!r}; known: {known}")
            return cmd_selfplay(game, args, out)
        if args.command == "deal":
            return cmd_deal(game, args, out)
        if args.command == "validate":
            return cmd_validate(game, args, out)
        return cmd_score(game, args, out)
    except RecordError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_MALFORMED
