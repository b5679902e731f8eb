"""One conversion: lift the source into the common model, lower it into the target, account
for every field, carry the source, and let the target's own engine price and check the result."""
from __future__ import annotations

import copy
import json
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping as MappingType

from ..core.errors import InputError
from ..core.findings import Finding
from . import account as accounts
from . import carried, mailgear, pp, up
from .fold import IDENTITY_LISTS, fold
from .leaves import leaves
from .mapping import SYSTEMS, Mapping, Row, load_mapping
from .model import Sheet
from .units import Lowering, pips

LIFT: dict[str, Callable[[MappingType[str, Any]], Sheet]] = {"up": up.lift, "mailgear": mailgear.lift, "pp": pp.lift}
LOWER: dict[str, Callable[[Sheet, Lowering], dict[str, Any]]] = {"up": up.lower, "mailgear": mailgear.lower,
                                                                 "pp": pp.lower}
SAME = Row((), (), "exact", "同じシステム: そのまま", "the same system: as it is", "proposal")
RESTORED = Row((), (), "exact", "運ばれてきた元文書をそのまま戻す（変換後に編集なし）",
               "the carried source restored as it was (not edited since)", "proposal")
UNEDITED = Row((), (), "exact", "変換後に編集されていない: 運ばれてきた元文書の値",
               "not edited since the conversion: the carried source's value", "proposal")
CARRYING = accounts.CARRYING
#: fields every document has, which alone carry nothing
BOOKKEEPING = ("/system", "/format", "/notes")


@dataclass
class Conversion:
    """The converted document, its account, the conversion's findings, and the target engine's
    check of the result (its findings are decisions for the GM)."""

    document: dict[str, Any]
    account: accounts.Account
    findings: list[Finding] = field(default_factory=list)
    report: Any = None  # the target's FileReport

    @property
    def source_system(self) -> str:
        return self.account.source_system

    @property
    def target_system(self) -> str:
        return self.account.target_system

    @property
    def checked(self) -> list[Finding]:
        return list(self.report.findings) if self.report is not None else []

    @property
    def to_decide(self) -> list[Finding]:
        """The target engine's findings above info: the decisions it leaves to the GM."""
        return [f for f in self.checked if f.level.value != "info"]

    @property
    def total(self) -> int | None:
        return self.report.computed if self.report is not None else None

    def to_dict(self, lang: str = "ja") -> dict[str, Any]:
        return {"from": self.source_system, "to": self.target_system, "total": self.total,
                "valid": self.report.valid if self.report is not None else None,
                "findings": [f.to_dict(lang) for f in self.findings],
                "target_findings": [f.to_dict(lang) for f in self.checked],
                "account": self.account.to_dict(lang)}


def _system(value: Any, what: str) -> str:
    if value not in SYSTEMS:
        raise InputError(f"{what}: {value!r} is not one of {', '.join(SYSTEMS)}", "CONVERT_UNKNOWN_SYSTEM",
                         value=value, known=list(SYSTEMS))
    return value


def _mapping(mapping: Mapping | str | Path | None) -> Mapping:
    return mapping if isinstance(mapping, Mapping) else load_mapping(mapping)


def convert(document: MappingType[str, Any], to: str, mapping: Mapping | str | Path | None = None,
            catalog: Any = None, *, check: bool = True) -> Conversion:
    """``document`` (of any system) as a document of ``to``; ``mapping`` overrides the packaged
    anchors (a :class:`Mapping` or a TOML file), ``catalog`` is the group's mailgear catalog."""
    source_system = _system(document.get("system"), "the document's system")
    _system(to, "--to")
    mp = _mapping(mapping)
    findings: list[Finding] = []
    if "mailgear" in (source_system, to):
        found = mailgear.anchors_from_catalog(catalog) if catalog is not None else []
        if found:
            mp = mp.with_anchors(found)
        else:
            findings.append(Finding("CONVERT_EXAMPLE_CATALOG", "", {"given": catalog is not None}))
    source = carried.without_key(document)
    held = carried.carried(document)
    edits: tuple[dict[str, Any], list[str], dict[str, Any]] | None = None
    if held is not None and held.get("from") == to and to != source_system:
        if carried.unedited(document):
            target = copy.deepcopy(dict(held["source"]))
            findings.append(Finding("CONVERT_RESTORED", "/extra/" + carried.KEY, {"system": to}))
            return _finish(target, accounts.identity(to, leaves(carried.without_key(target)), RESTORED),
                           findings, document, catalog, check, attach=False)
        original = dict(held["source"])
        as_was = carried.without_key(convert(original, source_system, mp, catalog, check=False).document)
        again = leaves(as_was)
        now = leaves(source)
        fields = _changed(again.values, now.values)
        if _outside_lists(again.values, source_system) == _outside_lists(now.values, source_system):
            # values edited, no field added or removed but items of a list matched by identity: fold
            edits = (original, fields, as_was)
        else:
            findings.append(Finding("CONVERT_EDITED", "/extra/" + carried.KEY, {"fields": fields[:20], "count": len(fields)}))
    if source_system == to:
        target = leaves(source).rebuild()
        findings.append(Finding("CONVERT_SAME_SYSTEM", "", {"system": to}))
        return _finish(target, accounts.identity(to, leaves(source), SAME), findings, document, catalog, check,
                       attach=False)
    sheet = LIFT[source_system](source)
    if sheet.machine is None and to == "up":
        raise InputError(f"{source.get('name', '')}: a pp character with no machine has nothing to convert into an up unit",
                         "CONVERT_NO_MACHINE", name=source.get("name", ""))
    low = Lowering(mp, mailgear._raw(catalog), band=source_band(source, mp))
    target = LOWER[to](sheet, low)
    if edits is not None:
        return _fold_back(edits, target, mp, source_system, to, low, findings, document, catalog, check)
    findings.extend(low.findings)
    account = accounts.build(mp, source_system, to, leaves(source), leaves(target), sheet.said,
                             low.placed)
    if not any(e.kind in CARRYING and e.pointer not in BOOKKEEPING for e in account.source):
        raise InputError("nothing of the document would be carried", "CONVERT_NOTHING_CARRIED",
                         source=source_system, target=to)
    return _finish(target, account, findings, document, catalog, check, attach=True)


def _fold_back(edits: tuple[dict[str, Any], list[str], dict[str, Any]], fresh: dict[str, Any], mp: Mapping, source_system: str,
               to: str, low: Lowering, findings: list[Finding], document: MappingType[str, Any], catalog: Any,
               check: bool) -> Conversion:
    """The carried source with only the edited fields' counterparts taken from ``fresh`` (the
    edited document converted afresh), the edits named and those with no counterpart said; B as
    it was converted, converted back afresh, tells which counterparts the edits moved."""
    original, fields, as_was = edits
    lifted = LIFT[to](original).machine
    homes = [w.source for w in lifted.weapons] if lifted is not None else []
    unedited = LOWER[to](LIFT[source_system](as_was), Lowering(mp, low.catalog, band=source_band(as_was, mp)))
    back = LIFT[to](unedited).machine
    strength = [None if w.accuracy is None else pips(w.accuracy, mp) + (2 if w.guided else 0)
                for w in (back.weapons if back is not None else [])]
    got = fold(original, fresh, fields, mp.direction(source_system, to), source_system, to, homes, unedited,
               strength, identity(to))
    if to == "mailgear":
        _without_bonuses(got.document, original, got.changed)
    if to == "up":
        _accuracy_steps(got.document, original, got.changed)
    where = "/extra/" + carried.KEY
    findings.append(Finding("CONVERT_FOLDED", where, {"fields": fields[:20], "count": len(fields),
                                                      "changed": got.changed[:20], "system": to}))
    if got.lost:
        findings.append(Finding("CONVERT_EDIT_NOT_CARRIED", where, {"fields": got.lost[:20], "system": to}))
    findings.extend(f for f in low.findings if f.pointer in got.changed)
    account = accounts.folded(mp, source_system, to, leaves(carried.without_key(document)), leaves(got.document),
                              fields, got.changed, UNEDITED)
    return _finish(got.document, account, findings, document, catalog, check, attach=False)


def _outside_lists(values: MappingType[str, Any], system: str) -> set[str]:
    """The fields of a document but those inside its lists matched by identity (skills, feats)."""
    lists = IDENTITY_LISTS.get(system, ())
    return {p for p in values if not any(p == w or p.startswith(w + "/") for w in lists)}


def identity(system: str) -> Callable[[Any], str | None]:
    """What names a skill or feat of ``system`` whatever its place: mailgear a skill's id (or the
    id its name reads as), pp a name without 〈〉, its level (「タフガイ Lv3」) or width variants."""
    def key(item: Any) -> str | None:
        if not isinstance(item, dict):
            return None
        if system == "mailgear":
            from ..rules.mailgear.tables import tables as mailgear_tables

            t = mailgear_tables()
            sid = item.get("id") if item.get("id") in t.skills else t.skill_id(str(item.get("name", "")))
            return str(sid) if sid else None
        name = item.get("name")
        if not isinstance(name, str) or not name.strip():
            return None
        name = unicodedata.normalize("NFKC", name).strip().strip("〈〉<>")
        return re.sub(r"\s*Lv\s*\d+$", "", name).strip()
    return key


def source_band(doc: MappingType[str, Any], mapping: Mapping) -> dict[str, Any]:
    """The document's power band: up by its budget (else its total), mailgear by its pilot's
    level, pp by its budget (else its total PP)."""
    system = doc.get("system")
    if system == "mailgear":
        pilot = doc.get("pilot")
        return mapping.band(system, str(pilot.get("level", "")) if isinstance(pilot, dict) else "")
    budget = doc.get("budget")
    if isinstance(budget, bool) or not isinstance(budget, (int, float)):
        from ..rules import get_system

        budget = get_system(str(system)).evaluate_with(doc, None, None).total
    return mapping.band(str(system), budget)


def _without_bonuses(folded: dict[str, Any], original: MappingType[str, Any], changed: list[str]) -> None:
    """A gear stat folded back is the effective value (base + custom boosts + options' effects, what
    the lift read): its base is that less the original's bonuses, so none counts twice."""
    gear = folded.get("gear")
    stats = gear.get("stats") if isinstance(gear, dict) else None
    if not isinstance(stats, dict):
        return
    base = (original.get("gear") or {}).get("stats") or {}
    effective = mailgear.effective_stats(original)
    for ptr in changed:
        stat = ptr.removeprefix("/gear/stats/")
        if ptr.startswith("/gear/stats/") and isinstance(stats.get(stat), (int, float)) \
                and isinstance(base.get(stat), (int, float)) and stat in effective:
            stats[stat] = stats[stat] - int(effective[stat] - base[stat])


def _accuracy_steps(folded: dict[str, Any], original: MappingType[str, Any], changed: list[str]) -> None:
    """A weapon's accuracy a fold moved lands on one of up's steps."""
    for k, w in enumerate(folded.get("weapons") or []):
        was = (original.get("weapons") or [])[k] if k < len(original.get("weapons") or []) else {}
        if f"/weapons/{k}/accuracy" in changed and isinstance(w, dict) and isinstance(w.get("accuracy"), int):
            w["accuracy"] = up.accuracy_step(w["accuracy"], int(was.get("accuracy", 0)) if isinstance(was, dict) else 0)


def _changed(before: MappingType[str, Any], after: MappingType[str, Any]) -> list[str]:
    """The pointers whose value differs (or that one side lacks), in document order."""
    return [p for p in dict.fromkeys([*before, *after]) if p not in before or p not in after
            or json.dumps(before[p], sort_keys=True) != json.dumps(after[p], sort_keys=True)]


def _finish(target: dict[str, Any], account: accounts.Account, findings: list[Finding],
            source: MappingType[str, Any], catalog: Any, check: bool, *, attach: bool) -> Conversion:
    if attach:
        carried.attach(target, source, account.to_dict("ja"))
    report = _check(target, catalog) if check else None
    return Conversion(target, account, findings, report)


def _check(doc: MappingType[str, Any], catalog: Any):
    """The target's own check (schema and engine) of the converted document."""
    from ..check import check_document

    context = {}
    if catalog is not None and doc.get("system") == "mailgear":
        from ..rules.mailgear.catalog import as_catalog

        context["catalog"] = as_catalog(catalog)
    return check_document(dict(doc), None, "", context)
