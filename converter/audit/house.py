"""A group's house rules for an audit: one TOML file the GM keeps beside the sheets.

::

    name = "水曜卓 2026"                 # shown at the top of every report

    [rules]                             # rules readings, as --rule NAME=VALUE (--rule wins)
    natural_talent = "rolls"

    [budget]                            # points a member may spend (its computed total)
    per_character = 150                 # every member of every system
    pp = 120                            # or per system
    [budget.players]                    # or per player (the document's player), before the others
    "山田" = 160

    [party]
    characters_per_player = 1           # 0: any number
    balance_tolerance = 0.25            # a member this far from the party's median is named

    [[approved]]                        # a finding the GM accepts: it stays, as an info line
    file = "yamada*.xlsx"               # shell pattern on the file's name or path
    code = "UP_ACCURACY_STEP"           # and/or pointer = "/weapons/0" (it and what is under it)
    by = "GM 佐藤"
    note = "試作機なので特例"

Standard library only; a file that cannot be read or says what this version does not know is an
InputError (HOUSE_INVALID) naming the file and the key.
"""
from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from collections.abc import Mapping
from typing import Any, Iterable

from ..core.errors import InputError
from ..core.source import shown_name
from ..io.files import load_toml

#: the largest whole number a house rule may say: a budget past it is no budget, and a
#: spreadsheet (a double) cannot hold it exactly
SAFE_INTEGER = 2 ** 53

#: the party settings when the house rules say nothing
DEFAULT_CHARACTERS_PER_PLAYER = 1
DEFAULT_BALANCE_TOLERANCE = 0.25


@dataclass(frozen=True)
class Approval:
    """One exception the GM approved: which file (a pattern), which finding (code and/or pointer)."""

    file: str
    code: str | None
    pointer: str | None
    by: str
    note: str = ""
    origin: str = "house"  # house: the house rules file; sheet: the sheet's own GM承認 table

    def matches(self, path: str, code: str, pointer: str) -> bool:
        if self.code is not None and self.code != code:
            return False
        if self.pointer is not None and not (pointer == self.pointer
                                             or pointer.startswith(self.pointer.rstrip("/") + "/")):
            return False
        name = PurePath(path).name
        return fnmatch.fnmatchcase(name, self.file) or fnmatch.fnmatchcase(PurePath(path).as_posix(), self.file)

    def to_dict(self) -> dict[str, Any]:
        return {"file": self.file, "code": self.code, "pointer": self.pointer, "by": self.by, "note": self.note}


SHEET_APPROVER = "GM承認"  # who approved, when a sheet's GM承認 row does not say


def sheet_approvals(doc: Mapping[str, Any]) -> tuple[Approval, ...]:
    """The approvals a document carries (its sheet's GM承認 table): each row names a code, a
    pointer or both; rows naming neither are ignored."""
    rows = doc.get("approvals")
    out = []
    for row in rows if isinstance(rows, list) else []:
        if not isinstance(row, Mapping):
            continue
        code, ptr = row.get("code") or None, row.get("pointer") or None
        if code is None and ptr is None:
            continue
        out.append(Approval("*", str(code).strip() if code else None, str(ptr).strip() if ptr else None,
                            str(row.get("by") or SHEET_APPROVER), str(row.get("note") or ""), "sheet"))
    return tuple(out)


@dataclass(frozen=True)
class HouseRules:
    """What a group decided: rules readings, budgets, party limits, approved exceptions."""

    path: str | None = None
    name: str = ""
    rules: dict[str, str] = field(default_factory=dict)
    budget_all: int | None = None
    budget_systems: dict[str, int] = field(default_factory=dict)
    budget_players: dict[str, int] = field(default_factory=dict)
    characters_per_player: int = DEFAULT_CHARACTERS_PER_PLAYER
    balance_tolerance: float = DEFAULT_BALANCE_TOLERANCE
    approved: tuple[Approval, ...] = ()

    def budget_for(self, system: str | None, player: str | None) -> tuple[int, str] | None:
        """The house budget of a member and where it comes from (``players`` before the system's
        before every member's); None when the house rules set none."""
        if player and player in self.budget_players:
            return self.budget_players[player], f"budget.players.{player}"
        if system and system in self.budget_systems:
            return self.budget_systems[system], f"budget.{system}"
        if self.budget_all is not None:
            return self.budget_all, "budget.per_character"
        return None

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "name": self.name, "rules": dict(self.rules),
                "budget": {"per_character": self.budget_all, **self.budget_systems,
                           "players": dict(self.budget_players)},
                "party": {"characters_per_player": self.characters_per_player,
                          "balance_tolerance": self.balance_tolerance},
                "approved": [a.to_dict() for a in self.approved]}


_TOP = {"name", "rules", "budget", "party", "approved"}
_PARTY = {"characters_per_player", "balance_tolerance"}
_APPROVAL = {"file", "code", "pointer", "by", "note"}


def load_house(path: str | Path, systems: Iterable[str]) -> HouseRules:
    """The house rules at ``path``; InputError (HOUSE_INVALID) naming the file and the key."""
    p = Path(path)
    raw = load_toml(p, lambda key, why: _invalid(p, key, "house_toml", detail=why))  # capped, a regular file only
    systems = tuple(systems)
    _known(p, "", raw, _TOP)
    rules = _table(p, "rules", raw.get("rules", {}))
    if not all(isinstance(v, str) for v in rules.values()):
        raise _invalid(p, "rules", "house_reading_text")
    budget = _table(p, "budget", raw.get("budget", {}))
    _known(p, "budget", budget, {"per_character", "players", *systems})
    players = _table(p, "budget.players", budget.get("players", {}))
    party = _table(p, "party", raw.get("party", {}))
    _known(p, "party", party, _PARTY)
    approved = raw.get("approved", [])
    if not isinstance(approved, list):
        raise _invalid(p, "approved", "house_approved_tables")
    return HouseRules(
        path=str(p), name=_text(p, "name", raw.get("name", "")), rules=dict(rules),
        budget_all=_count(p, "budget.per_character", budget.get("per_character")),
        budget_systems={s: _whole(p, f"budget.{s}", budget[s]) for s in systems if s in budget},
        budget_players={str(k): _whole(p, f"budget.players.{k}", v) for k, v in players.items()},
        characters_per_player=_whole(p, "party.characters_per_player",
                                     party.get("characters_per_player", DEFAULT_CHARACTERS_PER_PLAYER)),
        balance_tolerance=_fraction(p, "party.balance_tolerance",
                                    party.get("balance_tolerance", DEFAULT_BALANCE_TOLERANCE)),
        approved=tuple(_approval(p, i, a) for i, a in enumerate(approved)))


def _approval(p: Path, i: int, raw: Any) -> Approval:
    key = f"approved[{i}]"
    table = _table(p, key, raw)
    _known(p, key, table, _APPROVAL)
    code, pointer = table.get("code"), table.get("pointer")
    if code is None and pointer is None:
        raise _invalid(p, key, "house_approval_names")
    if pointer is not None and not (isinstance(pointer, str) and (pointer == "" or pointer.startswith("/"))):
        raise _invalid(p, f"{key}.pointer", "house_pointer_slash")
    by = table.get("by")
    if not isinstance(by, str) or not by.strip():
        raise _invalid(p, f"{key}.by", "house_approval_by")
    return Approval(_text(p, f"{key}.file", table.get("file", "*")) or "*",
                    None if code is None else _text(p, f"{key}.code", code),
                    pointer, by.strip(), _text(p, f"{key}.note", table.get("note", "")))


def _table(p: Path, key: str, value: Any) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise _invalid(p, key, "house_table")
    return value


def _known(p: Path, key: str, table: Mapping[str, Any], known: set[str]) -> None:
    """No key but ``known`` in ``table``: an unknown one is named with the keys that may be
    written there and the closest of them (a misspelling: balance_tolerence)."""
    import difflib

    unknown = sorted(set(table) - known)
    if unknown:
        where = f"{key}.{unknown[0]}" if key else unknown[0]
        close = difflib.get_close_matches(str(unknown[0]), sorted(known), n=1, cutoff=0.6)
        raise _invalid(p, where, "house_unknown_key_close" if close else "house_unknown_key",
                       known="、".join(sorted(known)), known_en=", ".join(sorted(known)),
                       close=close[0] if close else "")


def _text(p: Path, key: str, value: Any) -> str:
    if not isinstance(value, str):
        raise _invalid(p, key, "house_text")
    return value


def _count(p: Path, key: str, value: Any) -> int | None:
    """An optional whole number (None: not given)."""
    return None if value is None else _whole(p, key, value)


def _whole(p: Path, key: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise _invalid(p, key, "house_whole")
    if value > SAFE_INTEGER:
        raise _invalid(p, key, "house_whole_safe", most=f"{SAFE_INTEGER:,}")
    return value


def _fraction(p: Path, key: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= 10:
        raise _invalid(p, key, "house_fraction")
    return float(value)


def _invalid(p: Path, key: str, why: str, **params: Any) -> InputError:
    """HOUSE_INVALID naming the file and the key; ``why`` a text's key in core/texts.toml (said
    in each language, with ``params``), or a reason as it is (a TOML parser's own words)."""
    from ..core.texts import texts

    ja, en = texts("ja"), texts("en")
    known = params.pop("known_en", None)
    said_ja = ja[why].format(**params) if why in ja else why
    said_en = en[why].format(**{**params, "known": known or params.get("known", "")}) if why in en else why
    name = shown_name(p)
    where = f"{name}: {key}: " if key else f"{name}: "
    return InputError(where + said_en, "HOUSE_INVALID", file=name, key=key or "-",
                      expected_ja=said_ja, expected_en=said_en)
