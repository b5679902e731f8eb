"""The rule systems: tables, engines and schema generators. Standard library only (Pyodide).

Each system is a package ``converter.rules.<id>`` exposing ``LABEL``, ``FORMAT``, ``evaluate``
(the engine), ``build_schema``, ``CONTEXT`` (the extra inputs its engine takes, e.g. a catalog)
and ``SET_CHECKS``. Front ends reach a system only through :func:`get_system`.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Mapping

from ..core.errors import MechasheetError
from ..core.evaluation import CostLine, Evaluation
from ..core.sets import SetCheck


@dataclass(frozen=True)
class System:
    """One rule system as the front ends see it."""

    id: str
    label: str
    format: int
    evaluate: Callable[..., Evaluation]  # (doc, options, **context)
    build_schema: Callable[[], dict[str, Any]]
    context: tuple[str, ...] = ()  # the context entries its engine takes (catalog, skills)
    set_checks: tuple[SetCheck, ...] = ()
    set_fields: tuple[str, ...] = ()  # the top-level document fields its set checks read
    # Fields read only of some documents: (a field the document has, the fields it then needs).
    set_fields_if: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # The key its set checks partition documents by (documents compared only within one key;
    # None for a document no set check reads beyond its name); None when they read them all.
    set_partition: Callable[[Mapping[str, Any]], str | None] | None = None

    def fields_for(self, doc: Mapping[str, Any] | None) -> tuple[str, ...]:
        """The fields of ``doc`` the set checks read: a transforming unit is compared whole with
        its forms, any other only by name."""
        extra = tuple(f for key, fields in self.set_fields_if if doc and doc.get(key) for f in fields)
        return self.set_fields + extra

    def evaluate_with(self, doc: Mapping[str, Any], options: Mapping[str, str] | None = None,
                      context: Mapping[str, Any] | None = None) -> Evaluation:
        """Evaluate ``doc``, passing each context entry the engine takes."""
        kwargs = {k: v for k, v in (context or {}).items() if k in self.context and v is not None}
        return self.evaluate(doc, options, **kwargs)


# Registered lazily so that importing one system never imports another.
_MODULES = {"up": "converter.rules.up", "mailgear": "converter.rules.mailgear",
            "pp": "converter.rules.pp"}


def system_ids() -> list[str]:
    """The systems this installation has (a system's folder ships its ``tables.toml``)."""
    return list(_installed())


@lru_cache(maxsize=None)
def _installed() -> tuple[str, ...]:
    """Looked up once: every document checked asks, often several times (a folder of thousands)."""
    from importlib import resources

    here = resources.files(__package__)
    return tuple(s for s in _MODULES if here.joinpath(s, "tables.toml").is_file())


def get_system(system_id: str) -> System:
    """The system named ``system_id``; MechasheetError (exit 2) if there is none."""
    if system_id not in _installed():
        raise MechasheetError(f"unknown system {system_id!r} (known: {', '.join(_MODULES)})", "SYSTEM_UNKNOWN",
                              system=system_id, known=list(_MODULES))
    return _system(system_id)


@lru_cache(maxsize=None)
def _system(system_id: str) -> System:
    """Built once per system (the engine asks for its system many times per document)."""
    mod = importlib.import_module(_MODULES[system_id])
    return System(system_id, mod.LABEL, mod.FORMAT, mod.evaluate, mod.build_schema,
                  tuple(mod.CONTEXT), tuple(mod.SET_CHECKS), tuple(mod.SET_FIELDS),
                  tuple(getattr(mod, "SET_FIELDS_IF", ())), getattr(mod, "SET_PARTITION", None))


__all__ = ["CostLine", "Evaluation", "System", "get_system", "system_ids"]
