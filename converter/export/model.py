"""The export model: what a piece for online play holds, whatever the target.

A :class:`Piece` is built from a checked document's derived values (the engine's Evaluation) and
rendered by each target (CCFOLIA, Udonarium, a plain chat palette); no target reads the document
or the rules itself. Standard library and the findings' type only.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from ..core.evaluation import Roll
from ..core.findings import Finding

#: what BCDice palettes and Udonarium's `//name=value` lines cannot hold in a variable's name
_NOT_IN_NAME = re.compile(r"[\s=＝{}｛｝]+")
_REFERENCE = re.compile(r"[{｛]\s*([^{}｛｝]+?)\s*[}｝]")


@dataclass(frozen=True)
class Status:
    """A resource with a maximum (HP, EN, 耐久, エネルギー, ダメージゲージ): CCFOLIA's ``status``,
    Udonarium's ``numberResource``. ``pointer`` says where the number comes from."""

    label: str
    value: int
    max: int
    pointer: str = ""


@dataclass(frozen=True)
class Param:
    """A value shown on the piece and referable from the palette (``{label}``)."""

    label: str
    value: str
    pointer: str = ""


@dataclass(frozen=True)
class Variable:
    """A palette variable (``//name=value``): a number of the sheet the lines refer to as
    ``{name}``. ``pointer`` is the derived value it comes from ("" for one the player sets at the
    table, such as pp's 振り足し値)."""

    name: str
    value: str
    pointer: str = ""


@dataclass(frozen=True)
class Line:
    """A palette line: a BCDice ``command`` (with ``{variable}`` references) and its label, or a
    note (``command`` empty) that the dice bot does not judge for us. ``pointer`` is the derived
    roll the command rolls, so tests can hold the line to it."""

    command: str
    label: str
    pointer: str = ""

    @property
    def is_note(self) -> bool:
        return not self.command

    @property
    def text(self) -> str:
        return f"{self.command} {self.label}" if self.command else self.label


@dataclass
class Piece:
    """One character or unit ready for online play."""

    system: str
    name: str
    source: str  # the input file it was read from
    memo: str = ""
    initiative: int = 0
    status: list[Status] = field(default_factory=list)
    params: list[Param] = field(default_factory=list)
    variables: list[Variable] = field(default_factory=list)
    lines: list[Line] = field(default_factory=list)
    dicebot: str = "DiceBot"
    errors: int = 0  # the check's errors: the piece is exported, the CLI says so
    #: what the export itself has to tell the player (a roll that cannot work as written)
    findings: list[Finding] = field(default_factory=list)

    def add_variable(self, name: str, value: str, pointer: str = "") -> str:
        """A new variable under ``name`` made safe and unique (two weapons of one name get
        ``名前``, ``名前2``; ``Ｂライフル`` beside ``Bライフル`` gets ``Bライフル2``, as the clients
        fold widths); the name to refer to."""
        base = variable_name(name)
        taken = {folded(t) for t in [*(v.name for v in self.variables), *(p.label for p in self.params),
                                     *(s.label for s in self.status)]}
        unique, n = base, 1
        while folded(unique) in taken:
            n += 1
            unique = f"{base}{n}"
        self.variables.append(Variable(unique, value, pointer))
        return unique

    def palette_text(self) -> str:
        """The chat palette: variables first (``//name=value``), then one command per line."""
        out = [f"//{v.name}={v.value}" for v in self.variables]
        out += [line.text for line in self.lines]
        return "\n".join(out) + "\n"

    def expand(self, command: str) -> str:
        """``command`` with every ``{name}`` replaced as a palette replaces it: variables, then
        the piece's params and status (current values); unknown names stay (a test catches them)."""
        values = {v.name: v.value for v in self.variables}
        for p in self.params:
            values.setdefault(p.label, p.value)
        for s in self.status:
            values.setdefault(s.label, str(s.value))

        def one(m: re.Match[str]) -> str:
            return values.get(m.group(1), m.group(0))

        for _ in range(8):  # a variable may refer to another
            expanded = _REFERENCE.sub(one, command)
            if expanded == command:
                break
            command = expanded
        return command


def folded(name: str) -> str:
    """``name`` as the clients compare names: Udonarium folds full-width letters and digits to
    half-width (and CCFOLIA's users type either), so ``Ｂライフル`` and ``Bライフル`` are one name.
    NFKC and case folding are at least that wide: two names equal here never share a variable."""
    return unicodedata.normalize("NFKC", name).casefold()


def variable_name(text: str) -> str:
    """``text`` as a palette variable's name: no spaces, ``=`` or braces (Udonarium's reader
    stops a name at them)."""
    return _NOT_IN_NAME.sub("", text) or "_"


def signed(value: int) -> str:
    """A modifier as an addend: ``+3``, ``-2``, ``+0`` (a line writes ``2D6{x}``, valid for any sign)."""
    return f"{value:+d}"


def roll_addend(roll: Roll) -> str:
    """A derived bonus roll as an addend: ``+1D6+5``, ``+4``, ``-1``, ``+2D6``."""
    out = f"+{roll.dice}D{roll.sides}" if roll.dice else ""
    if roll.fixed or not out:
        out += signed(roll.fixed)
    return out


def roll_expression(roll: Roll) -> str:
    """A whole roll: ``2D6+3``, ``1D10+45``, ``3D10``."""
    head = f"{roll.dice}D{roll.sides}"
    return head + (signed(roll.fixed) if roll.fixed else "")
