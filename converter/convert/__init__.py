"""Conversion between the three systems through one common model (pandoc's shape).

Each system lifts its document into the model (``up.py``, ``mailgear.py``, ``pp.py``) and lowers
the model into its own document; a conversion is a lift and a lower (``conversion.py``). The
anchors and tables are data (``mapping.toml``); every field is accounted for (``account.py``);
the source travels inside the result (``carried.py``). Imports core and rules; the target's check
and the CLI's file handling (``files.py``) import the front ends lazily.
"""
from __future__ import annotations

from .conversion import Conversion, convert

__all__ = ["Conversion", "convert"]
