"""Rule options: the readings a group picks (docs/rules-up.md, docs/rules-pp.md, docs/rules-mailgear.md), declared in each system's tables.

An option may also set how much a finding matters (``severity``: finding code → option value →
error, warning, info or off). Engines yield every finding at its catalog severity; the policy is
applied here, in one place, by :func:`evaluates`, which every engine's entry point wears.
"""
from __future__ import annotations

import functools
from dataclasses import replace
from collections.abc import Mapping
from typing import Any, Callable, Iterable

from ..core.errors import RuleOptionError
from ..core.evaluation import Evaluation
from ..core.findings import Finding, Severity
from .tables_file import load_tables

OFF = "off"


def option_declarations(system: str) -> dict[str, dict]:
    """Option name → {label, default, values, severity?} as the system's tables declare them."""
    return load_tables(system).get("options", {})


def resolve_options(system: str, chosen: Mapping[str, str] | None = None) -> dict[str, str]:
    """Every option of ``system`` with its value: the chosen one, else the default.

    Options another system declares are ignored, so one ``--rule`` list can serve a mixed folder;
    a value the option does not offer is an error.
    """
    declared = option_declarations(system)
    out = {name: spec["default"] for name, spec in declared.items()}
    for name, value in (chosen or {}).items():
        if name in declared:
            if value not in declared[name]["values"]:
                allowed = ", ".join(declared[name]["values"])
                raise RuleOptionError(f"--rule {name}={value}: value must be one of {allowed}", "RULE_VALUE",
                                      name=name, value=value, allowed=list(declared[name]["values"]))
            out[name] = value
    return out


def reading_value(decl: Mapping[str, Any], raw: Any) -> str | None:
    """A reading as a cell holds it, its name or its label (a dropdown shows labels), as the
    option's value name; None for one the option does not offer."""
    value = str(raw).strip()
    if value in decl["values"]:
        return value
    return {label: v for v, label in decl["values"].items()}.get(value)


def readings_from_rows(system: str, rows: Iterable[Iterable[Any]]) -> dict[str, str]:
    """Rules readings from rows of cells: (option, value) pairs, the option by its name or its
    label as the ルール sheet's ルール選択 block shows them; or one value a row, the options in
    their declared order. Blank rows and values are the defaults; a row naming no option, or a
    value the option does not offer, is a RuleOptionError naming it."""
    declared = option_declarations(system)
    by_label = {spec["label"]: name for name, spec in declared.items()}
    order = list(declared)
    out: dict[str, str] = {}
    for i, row in enumerate(rows):
        cells = [c for c in row]
        if not cells or all(c is None or str(c).strip() == "" for c in cells):
            continue
        if len(cells) == 1:
            if i >= len(order):
                raise RuleOptionError(f"rules row {i + 1}: {system} has {len(order)} options", "RULE_UNKNOWN",
                                      name=str(cells[0]), known=order)
            name, raw = order[i], cells[0]
        else:
            key = str(cells[0]).strip()
            found = key if key in declared else by_label.get(key)
            if found is None:
                raise RuleOptionError(f"rules: unknown option {key!r}", "RULE_UNKNOWN", name=key, known=order)
            name, raw = found, cells[1]
        if raw is None or str(raw).strip() == "":
            continue
        value = reading_value(declared[name], raw)
        if value is None:
            raise RuleOptionError(f"rules: {name}={raw!r} is not offered", "RULE_VALUE", name=name, value=str(raw),
                                  allowed=sorted(declared[name]["values"]))
        out[name] = value
    return out


def document_readings(doc: Mapping[str, Any]) -> dict[str, str]:
    """The rules readings a document states it was made under (its ``rules`` object), those its
    system offers; anything else there is the schema's to report, and is not used."""
    from . import system_ids

    system, rules = doc.get("system"), doc.get("rules")
    if not isinstance(rules, Mapping) or system not in system_ids():
        return {}
    declared = option_declarations(system)
    return {k: v for k, v in rules.items()
            if k in declared and isinstance(v, str) and v in declared[k]["values"]}


def with_readings(doc: Mapping[str, Any], readings: Mapping[str, str]) -> dict[str, Any]:
    """``doc`` stating ``readings`` in its ``rules`` (those that differ from the default), so
    that writing it again gives a sheet with the same ルール cells."""
    out = dict(doc)
    declared = option_declarations(str(doc.get("system")))
    chosen = {k: v for k, v in readings.items() if k in declared and v != declared[k]["default"]}
    if chosen:
        out["rules"] = chosen
    else:
        out.pop("rules", None)
    return out


def severity_policy(system: str, options: Mapping[str, str]) -> dict[str, str]:
    """Finding code → severity (or ``off``) under ``options``, from the tables' declarations."""
    out: dict[str, str] = {}
    for name, spec in option_declarations(system).items():
        for code, by_value in spec.get("severity", {}).items():
            value = options.get(name, spec["default"])
            if value in by_value:
                out[code] = by_value[value]
    return out


def apply_policy(system: str, options: Mapping[str, str], findings: Iterable[Finding]) -> list[Finding]:
    """``findings`` with the options' severities: a finding set ``off`` is dropped."""
    policy = severity_policy(system, options)
    out = []
    for f in findings:
        level = policy.get(f.code)
        if level == OFF:
            continue
        out.append(f if level is None else replace(f, severity=Severity(level)))
    return out


def evaluates(system: str) -> Callable[[Callable[..., Evaluation]], Callable[..., Evaluation]]:
    """Decorate an engine's entry point ``fn(doc, options, **context)``: options are resolved
    (defaults filled in, values checked) before it runs, the severity policy applied after."""
    def wrap(fn: Callable[..., Evaluation]) -> Callable[..., Evaluation]:
        @functools.wraps(fn)
        def run(doc: Mapping[str, Any], options: Mapping[str, str] | None = None,
                **context: Any) -> Evaluation:
            opts = resolve_options(system, options)
            ev = fn(doc, opts, **context)
            ev.findings = apply_policy(system, opts, ev.findings)
            return ev
        return run
    return wrap


def parse_rule_args(args: Iterable[str], systems: Iterable[str] | None = None) -> dict[str, str]:
    """``["damage_dice=every_die", ...]`` → dict, checked against the options of ``systems``
    (every system's by default)."""
    from . import system_ids

    known: dict[str, set[str]] = {}
    for system in system_ids() if systems is None else systems:
        for name, spec in option_declarations(system).items():
            known.setdefault(name, set()).update(spec["values"])
    out: dict[str, str] = {}
    for arg in args:
        name, sep, value = arg.partition("=")
        name, value = name.strip(), value.strip()
        if not sep or not name or not value:
            raise RuleOptionError(f"--rule {arg!r}: write NAME=VALUE", "RULE_SYNTAX", arg=arg)
        if name not in known:
            raise RuleOptionError(f"--rule {name}: unknown option (known: {', '.join(sorted(known))})",
                                  "RULE_UNKNOWN", name=name, known=sorted(known))
        if value not in known[name]:
            raise RuleOptionError(f"--rule {name}={value}: value must be one of {', '.join(sorted(known[name]))}",
                                  "RULE_VALUE", name=name, value=value, allowed=sorted(known[name]))
        out[name] = value
    return out


def options_text(lang: str = "ja") -> str:
    """`mechasheet rules`: every system's --rule options, their values and defaults, in ``lang``."""
    from ..core.texts import texts
    from . import system_ids

    en, lines = lang == "en", []
    for system in system_ids():
        for name, decl in option_declarations(system).items():
            label = decl.get("label_en", decl["label"]) if en else decl["label"]
            values = decl.get("values_en", decl["values"]) if en else decl["values"]
            default = texts(lang)["rules_default"]
            lines.append(f"{system}: --rule {name}=VALUE  ({label}; {default} {decl['default']})\n")
            lines.extend(f"    {value}: {label}\n" for value, label in values.items())
    return "".join(lines)
