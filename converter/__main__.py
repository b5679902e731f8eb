"""``python -m converter`` runs the mechasheet command line."""
from .cli import main

raise SystemExit(main())
