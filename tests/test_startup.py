"""Start-up: checking one file imports only the system it checks."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_checking_one_up_unit_imports_no_other_system() -> None:
    """`check unit.json --rule damage_dice=every_die`: --rule is validated from the tables alone;
    neither the mailgear nor the pp engine is imported, nor numpy or pandas."""
    probe = ("import sys, json; from converter.cli import main; "
             "code = main(['check', 'samples/up/m-mobile-suit.json', '--rule', 'damage_dice=every_die']); "
             "print(json.dumps(sorted(m for m in sys.modules if m.startswith(('converter.rules.mailgear', "
             "'converter.rules.pp', 'numpy', 'pandas')))), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stderr.strip().splitlines()[-1]) == []
