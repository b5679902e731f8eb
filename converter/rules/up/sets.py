"""Transformation sets: each form's listed UP checked against that form's own document.

Seed 000 (変形) prices a transformation from the totals of every form. Each form's document lists
the others with their UP (``transformation.forms``); when several forms of one set
(``transformation.group``) are checked together, every listed figure must be the other form's
own total, that is its computed total without its transformation line, and a typed
``changed_places`` (部分変形) must be the count of places the forms' documents change.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Sequence

from ...core.evaluation import Evaluation
from ...core.findings import Finding
from ...core.sets import Member, SetOutcome
from .transformation import changed_places

TRANSFORMATION = "/transformation"


def own_total(pricing: Evaluation) -> int:
    """A form's total without its transformation cost: the UP the other forms list for it."""
    return pricing.total - sum(line.cost for line in pricing.lines if line.pointer == TRANSFORMATION)


def check_transformation_sets(items: Sequence[tuple[Mapping[str, Any], Evaluation]]) -> list[tuple[int, Finding]]:
    """UP_TRANSFORM_SET_MISMATCH for every listed form whose UP differs from its own document.

    ``items`` are (document, its pricing) pairs; each finding comes with the index of the document
    it belongs to (the one listing the form). A form is matched by name among the documents of
    the same group; a form with no document in the set, whose documents disagree (e.g. its JSON
    and its sheet), or whose document could not be fully priced, is not compared.
    """
    groups: dict[str, list[int]] = {}
    for i, (doc, _) in enumerate(items):
        group = transformation_group(doc)
        if group is not None:
            groups.setdefault(group, []).append(i)
    found: list[tuple[int, Finding]] = []
    own: dict[int, int] = {}  # each document's own total, worked out once (a form is listed by many)
    for group, members in groups.items():
        by_name: dict[str, list[int]] = {}
        for i in members:  # a name that is not a text (a malformed document) names no form
            if isinstance(items[i][0].get("name"), str):
                by_name.setdefault(items[i][0]["name"], []).append(i)
        for i in members:
            forms = items[i][0]["transformation"].get("forms") or []
            for k, form in enumerate(forms if isinstance(forms, list) else []):
                if not isinstance(form, Mapping):
                    continue
                name = form.get("name")
                others = [j for j in by_name.get(name, []) if j != i] if isinstance(name, str) else []
                declared = form.get("up")
                if not others or not isinstance(declared, int) or isinstance(declared, bool):
                    continue
                if not all(items[j][1].complete for j in others):
                    continue
                # The same form may come twice (its JSON and its sheet): compare only if they agree.
                totals = {own[j] if j in own else own.setdefault(j, own_total(items[j][1])) for j in others}
                if len(totals) != 1:
                    continue
                computed = totals.pop()
                if declared != computed:
                    found.append((i, Finding("UP_TRANSFORM_SET_MISMATCH",
                                             f"{TRANSFORMATION}/forms/{k}/up",
                                             {"group": group, "form": name,
                                              "declared": declared, "computed": computed})))
        for i in members:
            places = _places_mismatch(items, i, by_name, group)
            if places is not None:
                found.append((i, places))
    return sorted(found, key=lambda item: item[0])


def _places_mismatch(items: Sequence[tuple[Mapping[str, Any], Evaluation]], i: int, by_name: dict[str, list[int]],
                     group: str) -> Finding | None:
    """UP_TRANSFORM_PLACES_MISMATCH when the form ``i`` types a number of changed places that is
    not the count from the documents of its listed forms.

    Removals count nothing, so going A→B and B→A may count differently: each pair of forms is
    counted both ways and the larger is the partial transformation's size. A form with several
    documents that count differently (its JSON and its sheet) is not compared.
    """
    tr = items[i][0]["transformation"]
    typed = tr.get("changed_places")
    if not isinstance(typed, int) or isinstance(typed, bool) or typed < 1:
        return None
    counts: set[int] = set()
    forms = tr.get("forms") or []
    for form in forms if isinstance(forms, list) else []:
        if not isinstance(form, Mapping) or not isinstance(form.get("name"), str):
            continue
        others = [j for j in by_name.get(form["name"], []) if j != i]
        mine = items[i][0]
        per_doc = {max(changed_places(mine, items[j][0]), changed_places(items[j][0], mine)) for j in others}
        if len(per_doc) == 1:
            counts |= per_doc
    if not counts or max(counts) == typed:
        return None
    return Finding("UP_TRANSFORM_PLACES_MISMATCH", f"{TRANSFORMATION}/changed_places",
                   {"group": group, "typed": typed, "counted": max(counts)})


def transformation_group(doc: Mapping[str, Any]) -> str | None:
    """The transformation set a form belongs to: forms are compared only within one."""
    tr = doc.get("transformation")
    if isinstance(tr, Mapping) and isinstance(tr.get("group"), str) and tr["group"]:
        return tr["group"]
    return None


def transformation_sets(members: Sequence[Member]) -> SetOutcome:
    """The set check up declares: every transformation set among the units checked together."""
    found = check_transformation_sets([(m.document, m.evaluation) for m in members])
    return SetOutcome("up.transformation", found)
