"""The generated part of docs/conversion.md: the anchors, the parameters, one table per direction
and the GM's decisions, all from ``mapping.toml`` (a test keeps the page equal to this text)."""
from __future__ import annotations

from typing import Any

from .mapping import SYSTEMS, Mapping, load_mapping, number_text

BEGIN = "<!-- generated from converter/convert/mapping.toml: begin -->"
END = "<!-- generated from converter/convert/mapping.toml: end -->"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _fields(patterns: tuple[str, ...]) -> str:
    return ", ".join(f"`{p}`" for p in patterns) or "—"


def generated(mapping: Mapping | None = None) -> str:
    """The Markdown between the page's markers."""
    m = mapping or load_mapping()
    out = [BEGIN, "", "### Anchors (floor / standard / peak)", "",
           "| quantity | system | field | floor | standard | peak | source |", "|---|---|---|---|---|---|---|"]
    for a in m.anchors:
        lo, mid, hi = (f"{v:g}" for v in a.values)
        out.append(f"| {a.quantity} | {a.system} | `{a.field}` | {lo} | {mid} | {hi} | {a.source} |")
    out += ["", "### Parameters", "", "| parameter | value | meaning | source |", "|---|---|---|---|"]
    for name, value in m.parameters.items():
        note = m.parameter_notes[name]
        out.append(f"| `{name}` | {number_text(value)} | {_cell(note['ja'])} / {_cell(note['en'])} | {note['source']} |")
    out += ["", "### Power bands", "", "| band | up from (UP) | mailgear levels | pp from (PP) | proposed: up budget | mailgear level | pp attributes | pp budget | source |",
            "|---|---|---|---|---|---|---|---|---|"]
    for b in m.bands:
        out.append(f"| {b['ja']} / {b['en']} | {b['up_from']} | {'・'.join(b['mailgear_levels'])} | {b['pp_from']} | "
                   f"{b['up_budget']} | {b['mailgear_level']} | {b['pp_attribute']} | {b['pp_budget']} | {_cell(b['source'])} |")
    out += ["", "### Skills between mailgear and pp", "", "| mailgear | pp | base | back | source |",
            "|---|---|---|---|---|"]
    for skill in m.skills:
        back = skill.get("back", "") + (f" ({skill['band']})" if skill.get("band") else "")
        out.append(f"| `{skill['mailgear']}` | 〈{skill['pp']}〉 | {skill['base']} | {back or '—'} | {skill['source']} |")
    for source in SYSTEMS:
        for target in SYSTEMS:
            if source == target:
                continue
            out += ["", f"### {source} → {target}", "", "| from | to | kind | how | source |", "|---|---|---|---|---|"]
            for row in m.direction(source, target):
                out.append(f"| {_fields(row.sources)} | {_fields(row.targets)} | {row.kind} | "
                           f"{_cell(row.ja)}<br>{_cell(row.en)} | {row.source} |")
            out += ["", "What the GM decides:", ""]
            out += [f"{k}. {d['ja']} / {d['en']}" for k, d in enumerate(m.decisions.get(f"{source}_{target}", []), 1)]
    out += ["", END]
    return "\n".join(out) + "\n"


GM_BEGIN = "<!-- generated from the samples' conversions: begin -->"
GM_END = "<!-- generated from the samples' conversions: end -->"


def what_a_gm_gets(samples: list[tuple[str, dict[str, Any]]], catalog: Any = None) -> str:
    """The "what a GM gets" table between its markers: each sample (name, document) in each other
    system, its band there and here, the target's total, and what the GM must decide (the
    conversion's findings above info and the target check's, by code)."""
    from collections import Counter

    from ..core.errors import InputError
    from .conversion import convert, source_band

    m = load_mapping()
    out = [GM_BEGIN, "", "| sample | band | to | band there | total | the GM decides |", "|---|---|---|---|---|---|"]
    for name, doc in samples:
        band = source_band(doc, m)["en"]
        for target in SYSTEMS:
            if target == doc["system"]:
                continue
            try:
                result = convert(doc, target, catalog=catalog)
            except InputError as exc:
                out.append(f"| {name} | {band} | {target} | — | — | refused: `{exc.code}` |")
                continue
            there = source_band(result.document, m)["en"]
            codes = Counter(f.code for f in [*result.findings, *result.to_decide] if f.level.value != "info")
            decides = ", ".join(f"`{c}`" + (f" ×{n}" if n > 1 else "") for c, n in sorted(codes.items())) or "—"
            total = "—" if result.total is None else str(result.total)
            out.append(f"| {name} | {band} | {target} | {there} | {total} | {decides} |")
    out += ["", GM_END]
    return "\n".join(out) + "\n"
