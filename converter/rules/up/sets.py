"""Transformation sets: each form's listed UP checked against that form's own document.

Seed 000 (変形) prices a transformation from the totals of every form. Each form's document lists
the others with their UP (``transformation.forms``); when several forms of one set
(``transformation.group``) are checked together, every listed figure must be the other form's
own total, that is its computed total without its transformation line.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...core.evaluation import Evaluation
from ...core.findings import Finding
from ...core.sets import Member, SetOutcome

TRANSFORMATION = "/transformation"


def own_total(pricing: Evaluation) -> int:
    """A form's total without its transformation cost: the UP the other forms list for it."""
    return pricing.total - sum(line.cost for line in pricing.lines if line.pointer == TRANSFORMATION)


def check_transformation_sets(items: list[tuple[dict, Evaluation]]) -> list[tuple[int, Finding]]:
    """UP_TRANSFORM_SET_MISMATCH for every listed form whose UP differs from its own document.

    ``items`` are (document, its pricing) pairs; each finding comes with the index of the document
    it belongs to (the one listing the form). A form is matched by name among the documents of
    the same group; a form with no document in the set, whose documents disagree (e.g. its JSON
    and its sheet), or whose document could not be fully priced, is not compared.
    """
    groups: dict[str, list[int]] = {}
    for i, (doc, _) in enumerate(items):
        group = _group(doc)
        if group is not None:
            groups.setdefault(group, []).append(i)
    found: list[tuple[int, Finding]] = []
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
                totals = {own_total(items[j][1]) for j in others}
                if len(totals) != 1:
                    continue
                computed = totals.pop()
                if declared != computed:
                    found.append((i, Finding("UP_TRANSFORM_SET_MISMATCH",
                                             f"{TRANSFORMATION}/forms/{k}/up",
                                             {"group": group, "form": name,
                                              "declared": declared, "computed": computed})))
    return sorted(found, key=lambda item: item[0])


def _group(doc: Mapping[str, Any]) -> str | None:
    tr = doc.get("transformation")
    if isinstance(tr, Mapping) and isinstance(tr.get("group"), str) and tr["group"]:
        return tr["group"]
    return None


def transformation_sets(members: Sequence[Member]) -> SetOutcome:
    """The set check up declares: every transformation set among the units checked together."""
    found = check_transformation_sets([(m.document, m.evaluation) for m in members])
    return SetOutcome("up.transformation", found)
