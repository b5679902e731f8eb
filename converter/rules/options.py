"""Rule options: the readings a group picks (RULES-NOTES.md), declared in each system's tables."""
from __future__ import annotations

from typing import Iterable, Mapping

from ..errors import RuleOptionError
from ._tables import load_tables


def option_specs(system: str) -> dict[str, dict]:
    """Option name → {label, default, values} as the system's tables declare them."""
    return load_tables(system).get("options", {})


def resolve_options(system: str, chosen: Mapping[str, str] | None = None) -> dict[str, str]:
    """Every option of ``system`` with its value: the chosen one, else the default.

    Options another system declares are ignored, so one ``--rule`` list can serve a mixed folder;
    a name no system declares, or a value the option does not offer, is an error.
    """
    specs = option_specs(system)
    out = {name: spec["default"] for name, spec in specs.items()}
    for name, value in (chosen or {}).items():
        if name in specs:
            if value not in specs[name]["values"]:
                allowed = ", ".join(specs[name]["values"])
                raise RuleOptionError(f"--rule {name}={value}: value must be one of {allowed}")
            out[name] = value
    return out


def parse_rule_args(args: Iterable[str], systems: Iterable[str]) -> dict[str, str]:
    """``["damage_dice=every_die", ...]`` → dict, checked against every system's options."""
    known: dict[str, set[str]] = {}
    for system in systems:
        for name, spec in option_specs(system).items():
            known.setdefault(name, set()).update(spec["values"])
    out: dict[str, str] = {}
    for arg in args:
        name, sep, value = arg.partition("=")
        name, value = name.strip(), value.strip()
        if not sep or not name or not value:
            raise RuleOptionError(f"--rule {arg!r}: write NAME=VALUE")
        if name not in known:
            raise RuleOptionError(f"--rule {name}: unknown option (known: {', '.join(sorted(known))})")
        if value not in known[name]:
            raise RuleOptionError(f"--rule {name}={value}: value must be one of {', '.join(sorted(known[name]))}")
        out[name] = value
    return out
