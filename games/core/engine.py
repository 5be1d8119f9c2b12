"""The one interface every engine offers, so the ledger, the referee desk, the digital
tables, the CLI and the benchmarks treat all games alike.

A game is a ruleset, a deal and a list of actions; replaying the list is validating it.

* ``Ruleset``: a frozen dataclass of the variant and its options. Named presets live in
  ``Game.rulesets``; a record or a competition stores ``{"name": preset, **overrides}``.
* ``State``: one game in progress. ``to_act()`` says whose turn it is (simultaneous choices
  are taken one seat after the other, hidden from the others by ``view``);
  ``legal_actions(seat)``; ``check(seat, action)`` lists the violations an action would
  commit; ``apply`` is the checked path for people, ``apply_unchecked`` the fast path for bots
  and replay (``replay_run``, when a game offers it, takes a run of plain legal actions in one
  call, held equal to the long way by the game's tests); ``is_over()``, ``outcome()``,
  ``view(seat)`` and ``to_record()``.
* ``Game``: the declaration (seats, rulesets, rule book, maximum length) and the factories:
  ``new_game`` (a seeded deal), ``start`` (the deal written in a record: the core reads the
  header, which game and which notation version, and the game's ``start_record`` the rest), action
  encoding, ``validate`` (replay a record), ``score`` (a summary), and the bots.
"""

from __future__ import annotations

import dataclasses
import json
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from typing_extensions import TypeVar as DefaultTypeVar

from games.core.declare import Choice, Figure, Shape, SummaryForm
from games.core.errors import IllegalAction, RecordError
from games.core.guide import Section
from games.core.read import list_of
from games.core.rules import RuleBook
from games.core.text import Text, seat_no, written_and_due
from games.core.verdict import JSON, Outcome, ScoreReport, Verdict, Violation, violation

NOTATION_VERSION = 1


@dataclass(frozen=True)
class Ruleset:
    """Base of every game's ruleset. Subclasses add their options as typed fields."""

    name: str
    seats: int

    def to_json(self) -> dict[str, JSON]:
        plain: dict[str, JSON] = _plain(dataclasses.asdict(self))
        return plain


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _like(template: Any, value: Any, path: str) -> Any:
    """Coerce a JSON value to the shape of a preset's field, or say what is wrong."""
    if isinstance(template, bool):
        if not isinstance(value, bool):
            raise RecordError("expected true or false", path=path)
        return value
    if isinstance(template, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise RecordError("expected a whole number", path=path)
        return value
    if isinstance(template, float):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise RecordError("expected a number", path=path)
        return float(value)
    if isinstance(template, str):
        if not isinstance(value, str):
            raise RecordError("expected a string", path=path)
        return value
    if isinstance(template, tuple):
        if not isinstance(value, list | tuple):
            raise RecordError("expected a list", path=path)
        if template:
            return tuple(_like(template[0], v, f"{path}[{i}]") for i, v in enumerate(value))
        return tuple(_plain(value))
    if template is None:
        return value
    return value


R = TypeVar("R", bound=Ruleset)

#: Rulesets already read, by game and by the spec (see ``Game.ruleset``).
_READ_RULESETS: dict[tuple[int, int, Any], Any] = {}


def _spec_key(spec: Any) -> tuple[Any, Any]:
    """A hashable key that tells apart every two specs that could read differently (true,
    1 and 1.0 included), and the spec to read for it: a nested spec is read from its own
    copy, so that a kept ruleset never shares a list or an object with a caller who may
    change it later. Raises TypeError or ValueError for what cannot be keyed."""
    if spec is None or isinstance(spec, str):
        return spec, spec
    if type(spec) is dict:
        try:  # the usual flat object: its items (plain values) and their types
            key = (tuple(spec.items()), tuple(map(type, spec.values())))
            hash(key)
            return key, spec
        except TypeError:  # a list or an object inside
            pass
    text = json.dumps(spec, sort_keys=True)
    return text, json.loads(text)


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What a game declares about itself before any code (read by the ledger and pages)."""

    slug: str
    name: Text
    seat_counts: tuple[int, ...]
    max_actions: int
    hidden_information: bool = True
    chance: bool = True
    sides: tuple[str, ...] = ()
    description: Text = Text("", "")  # noqa: RUF009 - Text is frozen
    #: What one result of a table is called, one and several ("smazzata" at Tarocco): the
    #: score-entry, round and night pages say it.
    hand: Text = Text("partita", "game")  # noqa: RUF009 - Text is frozen
    hands: Text = Text("partite", "games")  # noqa: RUF009 - Text is frozen
    #: Each result's points sum to zero across the table (what one wins the others pay).
    zero_sum: bool = False
    #: The name a list of games says (a competition's game), when shorter than ``name``.
    short_name: Text | None = None
    #: What a seat's points are at this game (the standings' column: "Scontri vinti").
    points: Text = Text("Punti", "Points")  # noqa: RUF009 - Text is frozen
    #: What a table's clock does when a seat's time runs out (docs/play.md, Clocks): "bot",
    #: the heuristic bot plays that turn for the seat and the game goes on; "abandon", the
    #: game stops there, abandoned by the seat out of time.
    on_flag: str = "bot"
    #: The kinds of move every seat sees as it is made (a kind is a key of the action's
    #: notation: "bid", "play"): the move list says them to everyone while the game runs.
    #: A move of no kind named here (a discard, a face-down card, written points) is said
    #: only to its own seat until the game is over. tests/games/test_public_moves.py holds
    #: that what such a move says is in every other seat's view the moment it is made.
    public_moves: frozenset[str] = frozenset()

    def is_public(self, action: Mapping[str, Any]) -> bool:
        """Whether every seat sees this move (in the game's notation) as it is made."""
        return any(key in self.public_moves for key in action)


class ReplayFault(Exception):
    """Raised by ``State.replay_run`` when an action it read and found legal cannot be
    applied (``error``: the record's chance runs out, or disagrees with its seed); replay
    then says so at ``step``, as it does when ``apply_unchecked`` raises."""

    def __init__(self, step: int, seat: int, error: RecordError) -> None:
        super().__init__(str(error))
        self.step, self.seat, self.error = step, seat, error


#: A game's action type (Er Giò's ``Action`` union, San Marco's ``Act``...): a state
#: lists, checks and applies its own, and its game reads and writes them. Unnamed (a game
#: written as ``Game[R, S]``, a ``State`` without one), it is ``Any``.
A = DefaultTypeVar("A", default=Any)


class State(ABC, Generic[A]):
    """One game in progress, over its game's action type ``A``. Subclasses keep their own
    typed fields."""

    ruleset: Ruleset

    @abstractmethod
    def to_act(self) -> int | None:
        """The seat that must act now, or None when the game is over."""

    @abstractmethod
    def legal_actions(self, seat: int) -> Sequence[A]:
        """Every action the rules allow this seat now (empty when it is not its turn)."""

    @abstractmethod
    def check(self, seat: int, action: A) -> list[Violation]:
        """The violations this action would commit now; empty when it is legal. An engine
        may take any value here (typed ``Any``) and refuse what is not one of its actions
        as impossible, since a page or a record may hand it anything."""

    @abstractmethod
    def apply_unchecked(self, seat: int, action: A) -> None:
        """Apply without checking the rules (bots, benchmarks, replay of what was played).

        Raises RecordError when the action cannot physically happen (a card the seat does
        not hold), since nothing sensible can follow from it.
        """

    def replay_run(self, raw_actions: Sequence[Any], start: int) -> int:
        """Replay's short cut: read and apply ``raw_actions[start:]`` (as a record writes
        them) for as long as each one is plain and legal, and say how many were applied;
        replay reads the next one, if any, the long way (``decode_step``, ``check``,
        ``apply_unchecked``). An action is applied here only when the long way would find it
        legal and apply it the same; when applying it raises RecordError, the run raises
        ReplayFault with its step. A game that overrides this holds the two ways equal by a
        test. The default applies none (and replay does not call it)."""
        return 0

    def apply(self, seat: int, action: A) -> None:
        """The checked path: refuse an illegal action with every rule it breaks."""
        found = self.check(seat, action)
        if found:
            raise IllegalAction(found)
        self.apply_unchecked(seat, action)

    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def outcome(self) -> Outcome:
        """The result of a finished game (raise ValueError before it is over)."""

    @abstractmethod
    def view(self, seat: int | None) -> dict[str, JSON]:
        """What this seat may see (None: a spectator). Never another hand or a hidden card."""

    @abstractmethod
    def to_record(self) -> dict[str, JSON]:
        """The game's notation: ruleset, deal and actions so far (see docs/notation/)."""

    def summary(self) -> dict[str, JSON]:
        """What a scorekeeper writes down for this finished game (docs/notation/): scoring
        it gives this state's Outcome."""
        raise NotImplementedError


S = TypeVar("S", bound=State[Any])


class Bot(Protocol):
    def choose(self, state: Any, seat: int) -> Any: ...


class Game(ABC, Generic[R, S, A]):
    """A game's declaration and factories, over its ruleset ``R``, its state ``S`` and its
    action type ``A`` (a ``State[A]``; a game with two kinds of state, San Marco's, names
    their union). One instance per game, named ``GAME``."""

    info: ClassVar[GameInfo]
    rules: ClassVar[RuleBook]
    rulesets: ClassVar[Mapping[str, Any]]
    default_ruleset: ClassVar[str]
    bots: ClassVar[Mapping[str, Callable[[int], Bot]]]
    #: How the game goes, in a few sections of our own words (games.core.guide).
    guide: ClassVar[tuple[Section, ...]] = ()
    #: Summaries as the game's notation writes them, valid under the default ruleset: the
    #: example rows of an import template, and the shape of its plain columns.
    summary_examples: ClassVar[tuple[Mapping[str, Any], ...]] = ()
    #: True for a game whose summary is each seat's points and nothing else
    #: (``{"scores": [...]}``): the ledger then takes a result as plain per-seat scores and
    #: still scores it through ``score``, so the standings read the game's Outcome.
    plain_scores: ClassVar[bool] = False
    #: The standings' defaults a competition of this game starts from, before its organiser
    #: changes them (``{"win": "1", "draw": "0.5", "loss": "0", "order": ["points",
    #: "wins"]}``: what a win, a draw and a loss are worth and what ranks first); None for
    #: the ledger's own (a win 2, a draw 1, ranked by match points, then points, then wins).
    standings_defaults: ClassVar[Mapping[str, Any] | None] = None
    #: What average-plus, average and average-minus are worth by default at this game, in
    #: a seat's points, as decimal strings (a referee's artificial scores, Law 12); None
    #: for 1, 0 and -1.
    artificial_scores: ClassVar[tuple[str, str, str] | None] = None
    #: The rule a seat breaks by acting out of its turn (a digital table refuses such a
    #: move with it); None for the rule book's first rule.
    turn_rule: ClassVar[str | None] = None
    #: Each preset's name as players say it, in Italian and English (the lobby's choice of
    #: rules): every preset of ``rulesets`` has one (tests/games/test_ruleset_labels.py).
    ruleset_labels: ClassVar[Mapping[str, Text]] = {}
    #: The figures of a player's own this game reports on their statistics page, in order
    #: (Tarocco's hands as soloist...); each result's share is read by ``player_figures``.
    figures: ClassVar[tuple[Figure, ...]] = ()
    #: Whether replay takes a state's ``replay_run`` short cut when it has one; False replays
    #: every action the long way (a game's tests compare the two ways' verdicts).
    replay_short_cut: bool = True

    # --- rulesets -----------------------------------------------------------------
    def ruleset(self, spec: str | Mapping[str, JSON] | None = None) -> R:
        """A preset by name, or ``{"name": preset, option: value...}`` with overrides.

        Every record carries its ruleset written out in full, so what a spec reads as is
        kept (rulesets are frozen and their checks pure): the same spec, written the same
        way, is read and checked once. Only specs that read without error are kept.
        """
        try:
            own_key, own_spec = _spec_key(spec)
        except (TypeError, ValueError):  # not JSON (a tuple key, an object): read it anew
            return self._read_ruleset(spec)
        key = (id(self), id(self.rulesets), own_key)
        known = _READ_RULESETS.get(key)
        if known is None:
            known = self._read_ruleset(own_spec)
            if len(_READ_RULESETS) >= 512:
                _READ_RULESETS.clear()
            _READ_RULESETS[key] = known
        chosen: R = known
        return chosen

    def _read_ruleset(self, spec: str | Mapping[str, JSON] | None) -> R:
        if spec is None:
            spec = self.default_ruleset
        if isinstance(spec, str):
            spec = {"name": spec}
        if not isinstance(spec, Mapping):
            raise RecordError("a ruleset is a name or an object with a name", path="ruleset")
        name = spec.get("name", self.default_ruleset)
        if not isinstance(name, str) or name not in self.rulesets:
            known = ", ".join(sorted(self.rulesets))
            raise RecordError(f"unknown ruleset {name!r}; known: {known}", path="ruleset.name")
        preset = self.rulesets[name]
        fields = {f.name for f in dataclasses.fields(preset)}
        changes: dict[str, Any] = {}
        for key, value in spec.items():
            if key == "name":
                continue
            if key == "seats":
                # Written by to_json() for readers; the preset fixes it, so it must agree.
                if value != preset.seats:
                    raise RecordError(
                        f"ruleset {name!r} is for {preset.seats} seats, not {value!r}",
                        path="ruleset.seats",
                    )
                continue
            if key not in fields:
                raise RecordError(f"unknown ruleset option {key!r}", path=f"ruleset.{key}")
            changes[key] = _like(getattr(preset, key), value, f"ruleset.{key}")
        chosen: R = dataclasses.replace(preset, **changes) if changes else preset
        self.check_ruleset(chosen)
        return chosen

    def choices(self, field: str, ruleset: R | None = None) -> tuple[Choice, ...]:
        """The values a summary's ``field`` may take, with their words and whom each
        concerns (under ``ruleset``, the seat too). Games override it for their fields."""
        raise KeyError(f"{self.info.slug} declares no choices for {field!r}")

    def summary_form(self, ruleset: R) -> SummaryForm | None:
        """The form a scorekeeper types this game's summary in, under ``ruleset``
        (games/core/declare.py); None for a game whose summary is only typed as JSON."""
        return None

    def summary_shape(self) -> Shape | None:
        """The JSON of this game's summary, under any of its rulesets (games/core/declare.py):
        what the API's schema tells a program to send; None for a game that does not
        describe it (any JSON object is then taken, and the game's rules judge it)."""
        return None

    def record_shape(self) -> Shape | None:
        """The JSON of this game's full record (games/core/declare.py, ``record_shape``): what
        the API's schema tells a program to send with source full_record; None for a game
        that does not describe it (any JSON object is then taken, and the replay judges it)."""
        return None

    def read_error(
        self,
        exc: RecordError,
        data: Any = None,
        names: Sequence[str] | None = None,
        *,
        record: bool = False,
        action: bool = False,
    ) -> Text:
        """A summary (or, with ``record``, a full record; with ``action``, one action read at
        the path ``action``) this engine could not read, said to a club member in both
        languages (games/core/explain.py): the place by the words the game declares for it,
        each seat by its player's name from ``names`` where given."""
        from games.core.explain import in_words

        if action:
            shape = self.record_shape()
            keys = shape.keys if shape is not None else ()
            kinds = next((k.shape.items for k in keys if k.name == "actions"), None)
            inner = RecordError(exc.message, path=exc.path.removeprefix("action").lstrip("."))
            return in_words(
                inner, kinds, data=data, names=names, whole=Text("La mossa", "The move")
            )
        return in_words(
            exc,
            self.record_shape() if record else self.summary_shape(),
            data=data,
            names=names,
            rulesets=self.ruleset_labels,
            whole=Text("La registrazione", "The record")
            if record
            else Text("Il riepilogo", "The summary"),
        )

    def describe(
        self, outcome: Mapping[str, JSON], lang: str, names: Sequence[str] | None = None
    ) -> list[str]:
        """What a recorded result declared, in words, one line per fact, so the players who
        must confirm it can check it: read from its Outcome (``Outcome.to_json()``, whose
        ``detail`` a summary and a full record give alike), in ``lang`` ("it" or "en"),
        each seat said by its player's name from ``names`` (by seat). A game whose summary
        is the points themselves declares nothing beyond those points."""
        return []

    def player_figures(self, outcome: Mapping[str, JSON], seat: int) -> dict[str, float]:
        """What one recorded result adds to the figures of the player at ``seat`` (keys of
        ``figures``), read from its Outcome (``Outcome.to_json()``). A figure absent from
        the answer adds nothing. The default: no figures of the game's own."""
        return {}

    def to_play_on(self, record: Mapping[str, Any], seed: int) -> dict[str, Any]:
        """The record made ready to be played on beyond what it says (the referee desk's
        remedy plays a hand on by the rules from before a fault): chance the record does not
        give yet (a deal still to come, a die) drawn from ``seed``, what it gives kept. The
        default: the record as it is (its chance is all in its deal)."""
        return dict(record)

    def chance_steps(
        self, record: Mapping[str, Any], lang: str, names: Sequence[str] | None = None
    ) -> list[dict[str, Any]]:
        """The chance that fell while the record was played (dice rolled, cards dealt or
        drawn, a role draw), in the order it fell, each ``{"after": n, "label": words}``:
        ``n`` the record's actions applied when it fell (0: before the first), the words in
        ``lang`` with each seat said by its player's name from ``names``. The referee's desk
        shows them on its timeline among the steps. The default: the cards each seat's hand
        gained without playing them (``hands_dealt``), for a game whose views show a
        ``hand``; a game with other chance says it itself."""
        return hands_dealt(self, record, lang, names)

    def step_groups(self, actions: Sequence[Mapping[str, JSON]], lang: str) -> list[str]:
        """The heading of the part of the game each action belongs to, one per action, in
        ``lang`` ("it" or "en"): the referee's desk shows a record's steps under them
        (tricks, scontri...). Consecutive actions with the same heading form one group.
        The default groups ten moves at a time."""
        out = []
        for index, _action in enumerate(actions):
            first = index // 10 * 10 + 1
            out.append(f"{'Mosse' if lang == 'it' else 'Moves'} {first}–{first + 9}")
        return out

    def check_ruleset(self, ruleset: R) -> None:
        """Refuse inconsistent option combinations (RecordError). Override as needed."""

    # --- states -------------------------------------------------------------------
    @abstractmethod
    def new_game(self, ruleset: R, seed: int) -> S:
        """A fresh game dealt from the seed."""

    def start(self, record: Mapping[str, JSON]) -> S:
        """The state before the first action of a record: the header (which game, which
        notation version) is read here for every game, the ruleset and deal by
        ``start_record``."""
        self.read_header(record)
        return self.start_record(record)

    def start_record(self, record: Mapping[str, JSON]) -> S:
        """The state a record's ruleset and deal describe (its header already read).
        Every engine defines it; a game that overrides ``start`` itself need not."""
        raise NotImplementedError(f"{type(self).__name__} reads no records")

    def read_header(self, record: Mapping[str, JSON]) -> None:
        """Refuse a record that is not an object, is written for another game, or is in a
        notation version this engine does not read (absent: the current one)."""
        if not isinstance(record, Mapping):
            raise RecordError("a record is a JSON object")
        if record.get("game", self.info.slug) != self.info.slug:
            raise RecordError(f"this record is for {record.get('game')!r}", path="game")
        version = record.get("version", NOTATION_VERSION)
        if type(version) is not int or version != NOTATION_VERSION:
            raise RecordError(f"this engine reads version {NOTATION_VERSION}", path="version")

    @abstractmethod
    def encode_action(self, action: A) -> dict[str, JSON]: ...

    @abstractmethod
    def decode_action(self, data: Any, path: str = "actions") -> A:
        """Read one action, raising RecordError with a useful message when it cannot."""

    # --- referee ------------------------------------------------------------------
    def validate(self, record: Mapping[str, JSON], *, stop_at_first: bool = False) -> Verdict:
        """Replay a full record: every violation, where it happened, and the score.

        Violations do not stop the replay: the action is applied as it was really played
        (when it physically can be), so the referee sees the first fault and all the
        further ones. An action that cannot happen at all ends the replay there.
        """
        self.read_header(record)
        raw_actions = list_of(record.get("actions", []), "actions", "expected a list of actions")
        state = self.start(record)
        found: list[Violation] = []
        steps = 0
        # bound once: this loop runs for every action of every record the ledger checks
        decode, check, apply = self.decode_fast, state.check, state.apply_unchecked
        is_over = state.is_over
        short_cut = self.replay_short_cut and type(state).replay_run is not State.replay_run
        run = state.replay_run if short_cut else None
        step, end = 0, len(raw_actions)
        while step < end:
            if run is not None:  # plain legal actions, applied; the next one the long way
                try:
                    step = steps = step + run(raw_actions, step)
                except ReplayFault as fault:  # legal, but it cannot happen: as below
                    found.append(self._impossible(fault.error, fault.step, fault.seat))
                    steps = fault.step
                    break
                if step == end:
                    break
            raw = raw_actions[step]
            try:
                seat, action = decode(raw)
            except RecordError:  # read again with the step in the error's path
                seat, action = self.decode_step(raw, f"actions[{step}]")
            if is_over():
                found.append(violation(self.rules, self.rule_game_over, step=step, seat=seat))
                break
            problems = check(seat, action)
            if problems:
                found.extend(v.at(step) for v in problems)
                if stop_at_first:
                    break
            try:
                apply(seat, action)
            except RecordError as exc:
                found.append(self._impossible(exc, step, seat))
                break
            step += 1
            steps = step
        complete = state.is_over()
        outcome = state.outcome() if complete else None
        if outcome is not None:
            found.extend(self.check_claims(record, outcome))
        return Verdict(self.info.slug, tuple(found), steps, outcome, complete)

    def _impossible(self, exc: RecordError, step: int, seat: int) -> Violation:
        """An action that cannot happen at all (it ends the replay): the step and the seat
        counted from 1, and (in English, as the engine's reader words it) why; the reason
        with the place in the record it names is kept whole in ``where["reason"]`` for a
        program or a referee, never in the sentence."""
        why = str(exc)
        if exc.path and why.startswith(exc.path + ": "):
            why = why[len(exc.path) + 2 :]
        why = re.sub(r"'([^']*)'", r"“\1”", why)  # a value quoted as words, not as Python
        detail = Text(
            f"Azione {step + 1}, posto {seat_no(seat)}: non si può eseguire così come è scritta.",
            f"Action {step + 1}, seat {seat_no(seat)}: it cannot be carried out as written "
            f"({why}).",
        )
        return violation(
            self.rules, self.rule_impossible, detail, step=step, seat=seat, reason=str(exc)
        )

    rule_game_over: ClassVar[str]
    rule_impossible: ClassVar[str]
    rule_claimed_score: ClassVar[str]

    def decode_fast(self, raw: Any) -> tuple[int, A]:
        """``decode_step`` without a path: replay reads every action through it and, only
        when it raises, reads the action again through ``decode_step`` for the error's
        place. A game may override it with a quicker reader; it must accept and refuse
        exactly what ``decode_step`` does."""
        if type(raw) is dict:  # decode_step's own checks, for the plain case
            seat = raw.get("seat")
            if type(seat) is int:
                return seat, self.decode_action(raw, "actions")
        return self.decode_step(raw, "actions")

    def decode_step(self, raw: Any, path: str) -> tuple[int, A]:
        if type(raw) is not dict and not isinstance(raw, Mapping):  # the plain case first
            raise RecordError("an action is a JSON object with a seat", path=path)
        seat = raw.get("seat")
        if type(seat) is not int and (isinstance(seat, bool) or not isinstance(seat, int)):
            raise RecordError("every action names its seat (a whole number)", path=path)
        return seat, self.decode_action(raw, path)

    def check_claims(self, record: Mapping[str, JSON], outcome: Outcome) -> list[Violation]:
        """Compare the scores written on the record (``claimed_scores``) with the rules'."""
        claimed = record.get("claimed_scores")
        if claimed is None:
            return []
        if not isinstance(claimed, list) or len(claimed) != len(outcome.scores):
            raise RecordError(
                f"expected one score per seat ({len(outcome.scores)})", path="claimed_scores"
            )
        if [int(c) for c in claimed] == list(outcome.scores):
            return []
        detail = written_and_due([int(c) for c in claimed], list(outcome.scores))
        return [violation(self.rules, self.rule_claimed_score, detail)]

    def score(
        self, summary: Mapping[str, JSON], ruleset: str | Mapping[str, JSON] | None = None
    ) -> ScoreReport:
        """From the facts a scorekeeper types to the per-seat Outcome (see docs/notation/).

        ``ruleset`` is the competition's: it applies to the summary, and a summary that
        names another ruleset (or a nonsense option) is refused rather than scored by its
        own rules. Without it the summary's own ``ruleset`` (or the default) applies.
        """
        if not isinstance(summary, Mapping):
            raise RecordError("a summary is a JSON object")
        own = summary.get("ruleset")
        if own is None and ruleset is None:
            own = self.ruleset_named_by(summary)
        chosen = self.ruleset(ruleset if ruleset is not None else own)
        if ruleset is not None and own is not None and self.ruleset(own) != chosen:
            raise RecordError(
                f"this summary is for the ruleset {_name(own)!r}, the competition plays "
                f"{chosen.name!r}",
                path="ruleset",
            )
        return self.score_summary(summary, chosen)

    def ruleset_named_by(self, summary: Mapping[str, JSON]) -> str | None:
        """The preset a summary's own fields name when nothing else does (override)."""
        return None

    @abstractmethod
    def score_summary(self, summary: Mapping[str, JSON], ruleset: R) -> ScoreReport:
        """Score a summary under a ruleset already read: the Outcome and every violation."""


def _name(spec: Any) -> Any:
    return spec.get("name") if isinstance(spec, Mapping) else spec


def play(game: Game[Any, Any, Any], state: S, bots: Sequence[Bot]) -> S:
    """Play a game to its end with one bot per seat, on the fast path."""
    limit = game.info.max_actions
    for _ in range(limit):
        seat = state.to_act()
        if seat is None:
            return state
        state.apply_unchecked(seat, bots[seat].choose(state, seat))
    if not state.is_over():
        raise RuntimeError(f"{game.info.slug}: no end after {limit} actions")
    return state


def hands_dealt(
    game: Any,
    record: Mapping[str, Any],
    lang: str,
    names: Sequence[str] | None = None,
    table: str = "",
    deal: str = "",
    chosen: Callable[[Any], Sequence[Any]] | None = None,
) -> list[dict[str, Any]]:
    """``Game.chance_steps`` read from the views: the record replayed as played, and after
    the deal and each action, the cards each seat's hand (``view(seat)["hand"]``) gained
    that it did not hold before, said as dealt (before the first action) or drawn; with
    ``table``, the view's key of the cards dealt face up on the table too. ``deal`` is the
    view's key that counts a game's deals (cardChess's ``sfida``): when it changes, the
    cards that came are said as dealt, not drawn. ``chosen(action)`` gives the card codes
    an action took into its seat's hand by choice (a card picked from a deck or taken back
    from play): those are said as taken, since no chance fell. It stops where the record
    cannot be replayed."""
    from games.core import words as game_words

    said = game_words.for_game(game.info.slug)

    def card(code: Any) -> str:
        return str(said.card(code, lang)) if said is not None else str(code)

    def who(seat: int) -> str:
        return game_words.seat_name(seat, lang, names)

    out: list[dict[str, Any]] = []
    try:
        state = game.start(record)
        seats = int(
            getattr(state.ruleset, "seats", 0) or len(state.view(None).get("hand_sizes") or [])
        )
    except (RecordError, ValueError, KeyError, IndexError, TypeError, AttributeError):
        return out

    def held() -> tuple[list[list[Any]], list[Any]]:
        hands = []
        for seat in range(seats):
            hand = state.view(seat).get("hand")
            hands.append(list(hand) if isinstance(hand, list) else [])
        shown = state.view(None).get(table) if table else None
        return hands, [c for c in shown if c is not None] if isinstance(shown, list) else []

    def gained(before: list[Any], after: list[Any]) -> list[Any]:
        left = list(before)
        new = []
        for c in after:
            if c in left:
                left.remove(c)
            else:
                new.append(c)
        return new

    def listed(cards: list[Any]) -> str:
        return ", ".join(card(c) for c in cards)

    def said_as(verb: str, seat: int, cards: list[Any]) -> str:
        it = {"dealt": "riceve", "drawn": "pesca", "taken": "prende"}
        en = {"dealt": "is dealt", "drawn": "draws", "taken": "takes"}
        return f"{who(seat)} {(it if lang == 'it' else en)[verb]} {listed(cards)}"

    hands, shown = [[] for _ in range(seats)], []  # type: tuple[list[list[Any]], list[Any]]
    actions = record.get("actions") or []
    dealt_as: Any = None
    took: list[Any] = []  # the cards the last action chose
    for n in range(len(actions) + 1):
        try:
            now, laid = held()
            deal_now = state.view(None).get(deal) if deal else None
        except (RecordError, ValueError, KeyError, IndexError, TypeError, AttributeError):
            return out
        verb = "dealt" if n == 0 or deal_now != dealt_as else "drawn"
        dealt_as = deal_now
        parts = []
        for seat in range(seats):
            new = gained(hands[seat], now[seat])
            if took and verb == "drawn":
                taken = [c for c in new if c in took]
                new = gained(taken, new)
                if taken:
                    parts.append(said_as("taken", seat, taken))
            if new:
                parts.append(said_as(verb, seat, new))
        new_table = gained(shown, laid)
        if new_table:
            cards = listed(new_table)
            parts.append(f"in tavola {cards}" if lang == "it" else f"on the table {cards}")
        if parts:
            out.append({"after": n, "label": "; ".join(parts)})
        hands, shown = now, laid
        if n == len(actions):
            break
        try:
            raw = actions[n]
            seat, action = game.decode_step(raw, f"actions[{n}]")
            took = list(chosen(action)) if chosen is not None else []
            state.apply_unchecked(seat, action)
        except (RecordError, ValueError, KeyError, IndexError, TypeError, AttributeError):
            return out
    return out
