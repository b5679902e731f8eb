"""The texts mechasheet prints besides findings (help, report words), in Japanese and English,
read from ``texts.toml``: one mechanism for every front end; the run's language, and argparse's
headings and errors said in it. Standard library only."""
from __future__ import annotations

import argparse
import sys
import tomllib
from functools import lru_cache
from importlib import resources
from typing import Any, Sequence

LANGS = ("ja", "en")


@lru_cache(maxsize=2)
def texts(lang: str) -> dict[str, str]:
    """Every text in ``lang`` (Japanese for a language it does not have), by key."""
    raw = tomllib.loads(resources.files(__package__).joinpath("texts.toml").read_text("utf-8"))
    lang = lang if lang in LANGS else "ja"
    return {key: entry.get(lang, entry["ja"]) for key, entry in raw.items()}


def default_lang() -> str:
    """English when the environment asks for it (LC_ALL, LC_MESSAGES, LANG: en_*), else Japanese."""
    import os

    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var)
        if value:
            return "en" if value.lower().startswith("en") else "ja"
    return "ja"


def argv_lang(args: Sequence[str]) -> str:
    """The language asked for on the command line (--lang X or --lang=X), else the environment's."""
    for i, arg in enumerate(args):
        if arg == "--lang" and i + 1 < len(args) and args[i + 1] in LANGS:
            return args[i + 1]
        if arg.startswith("--lang=") and arg[7:] in LANGS:
            return arg[7:]
    return default_lang()


def help_formatter(t: dict[str, str], raw: bool = False) -> Any:
    """An argparse help formatter whose usage line begins in the run's language."""
    base = argparse.RawDescriptionHelpFormatter if raw else argparse.HelpFormatter

    class Formatter(base):  # type: ignore[misc, valid-type]
        def add_usage(self, usage, actions, groups, prefix=None):
            return super().add_usage(usage, actions, groups, t["usage"] if prefix is None else prefix)

    return Formatter


def localized_parser(parser: argparse.ArgumentParser, t: dict[str, str]) -> argparse.ArgumentParser:
    """``parser`` with argparse's own headings, -h and errors in the run's language."""
    parser._positionals.title = t["positionals"]
    parser._optionals.title = t["optionals"]
    parser.add_argument("-h", "--help", action="help", help=t["help"])
    english_error = parser.error

    def error(message: str):  # argparse words its errors in English: say them again
        parser.print_usage(sys.stderr)
        parser.exit(2, f"{parser.prog}: {t['error_prefix']}: {argparse_error(message, t)}\n")
        return english_error(message)  # not reached

    parser.error = error  # type: ignore[method-assign]
    return parser


ARGPARSE_ERRORS = (
    (r"the following arguments are required: (.+)", "error_required"),
    (r"argument (\S+): invalid choice: '(.*)' \(choose from (.+)\)", "error_choice"),
    (r"unrecognized arguments: (.+)", "error_unrecognized"),
    (r"argument (\S+): invalid \S+ value: '(.*)'", "error_value"),
    (r"argument (\S+): expected one argument", "error_expected"),
    (r"argument (\S+): (.+)", "error_argument"),  # our own check's words, already translated
)


def argparse_error(message: str, t: dict[str, str]) -> str:
    """One of argparse's English errors in the run's language (as it is when not known)."""
    import re

    for pattern, key in ARGPARSE_ERRORS:
        m = re.fullmatch(pattern, message)
        if m:
            return t[key].format(*m.groups())
    return message
