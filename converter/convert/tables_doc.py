"""The generated part of docs/conversion.md: the anchors, the parameters, one table per direction
and the GM's decisions, all from ``mapping.toml`` (a test keeps the page equal to this text)."""
from __future__ import annotations

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
    out += ["", "### Power bands", "", "| band | up from (UP) | mailgear levels | pp from (PP) | proposed: mailgear level | pp attributes | pp budget | source |",
            "|---|---|---|---|---|---|---|---|"]
    for b in m.bands:
        out.append(f"| {b['ja']} / {b['en']} | {b['up_from']} | {'・'.join(b['mailgear_levels'])} | {b['pp_from']} | "
                   f"{b['mailgear_level']} | {b['pp_attribute']} | {b['pp_budget']} | {_cell(b['source'])} |")
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
