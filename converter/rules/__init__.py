"""The rule systems: tables, engines and schema generators. Standard library only (Pyodide)."""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from ..errors import MechasheetError
from .pricing import CostLine, Pricing


@dataclass(frozen=True)
class System:
    """One rule system as the front ends see it."""

    id: str
    label: str
    format: int
    price: Callable[..., Pricing]  # (doc, options, **context): see price_with
    build_schema: Callable[[], dict[str, Any]]

    def price_with(self, doc: Mapping[str, Any], options: Mapping[str, str] | None = None,
                   context: Mapping[str, Any] | None = None) -> Pricing:
        """Price ``doc``, passing each context entry (catalog, skills) the engine takes."""
        import inspect

        accepted = inspect.signature(self.price).parameters
        kwargs = {k: v for k, v in (context or {}).items() if k in accepted and v is not None}
        return self.price(doc, options, **kwargs)


# Registered lazily so that importing one system never imports another.
_MODULES = {"up": "converter.rules.up", "mailgear": "converter.rules.mailgear",
            "pp": "converter.rules.pp"}


def system_ids() -> list[str]:
    """The systems this installation has (a system's folder ships its ``tables.toml``)."""
    from importlib import resources

    here = resources.files(__package__)
    return [s for s in _MODULES if here.joinpath(s, "tables.toml").is_file()]


def get_system(system_id: str) -> System:
    """The system named ``system_id``; MechasheetError (exit 2) if there is none."""
    if system_id not in system_ids():
        raise MechasheetError(f"unknown system {system_id!r} (known: {', '.join(_MODULES)})")
    mod = importlib.import_module(_MODULES[system_id])
    return System(system_id, mod.LABEL, mod.FORMAT, mod.price, mod.build_schema)


__all__ = ["CostLine", "Pricing", "System", "get_system", "system_ids"]
