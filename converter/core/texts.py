"""The texts mechasheet prints besides findings (help, report words), in Japanese and English,
read from ``texts.toml``: one mechanism for every front end; the run's language, and argparse's
headings and errors said in it. Standard library only."""
from __future__ import annotations

import argparse
import os
import sys
import tomllib
from functools import lru_cache
from importlib import resources
from typing import Any, Callable, Sequence

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
        if arg == "--lang" and i + 1 < len(args) and args[i + 1].lower() in LANGS:
            return args[i + 1].lower()
        if arg.startswith("--lang=") and arg[7:].lower() in LANGS:
            return arg[7:].lower()
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
    known = parser.parse_known_args

    def error(message: str):  # argparse words its errors in English: say them again
        parser.print_usage(sys.stderr)
        parser.exit(2, f"{parser.prog}: {t['error_prefix']}: {argparse_error(message, t)}"
                       f"{did_you_mean(message, parser, t)}\n")
        return english_error(message)  # not reached

    def parse_known_args(args: Any = None, namespace: Any = None) -> tuple[argparse.Namespace, list[str]]:
        """As argparse's, but an argument this parser does not know is its own error: a
        command's misspelt flag gets the command's usage, not the top level's."""
        parsed, extras = known(args, namespace)
        if extras:
            error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed, extras

    parser.error = error  # type: ignore[method-assign]
    parser.parse_known_args = parse_known_args  # type: ignore[method-assign, assignment]
    return parser


def at_least_one(t: dict[str, str]) -> Callable[[str], int]:
    """An argparse type: a whole number of at least 1 (``--jobs N``), refused in t's language."""
    def number(text: str) -> int:
        value = int(text)
        if value < 1:
            raise argparse.ArgumentTypeError(t["jobs_at_least_one"])
        return value
    return number


def existing_path(t: dict[str, str]) -> Callable[[str], str]:
    """An argparse type: a file or folder that is there (an audit or import of nothing is
    refused, not reported); ``-`` is standard input."""
    def path(text: str) -> str:
        if text != "-" and not os.path.exists(text):
            raise argparse.ArgumentTypeError(t["path_missing"].format(path=text))
        return text
    return path


def did_you_mean(message: str, parser: argparse.ArgumentParser, t: dict[str, str]) -> str:
    """The close spellings (difflib) of what argparse refused: an unknown flag among the parser's
    flags, a value among an argument's choices (a command, a system); empty when none is close."""
    import difflib
    import re

    choice = re.fullmatch(r"argument \S+: invalid choice: '(.*)' \(choose from (.+)\)", message)
    if choice:
        words, known = [choice.group(1)], re.findall(r"'([^']*)'", choice.group(2))
    elif message.startswith("unrecognized arguments: "):
        words = [w.split("=")[0] for w in message.split(": ", 1)[1].split() if w.startswith("-")]
        known = [flag for action in parser._actions for flag in action.option_strings]
    else:
        return ""
    close = [m for w in words for m in difflib.get_close_matches(w.lower(), known, n=1, cutoff=0.6)]
    return t["error_did_you_mean"].format(", ".join(dict.fromkeys(close))) if close else ""


ARGPARSE_ERRORS = (
    (r"the following arguments are required: (.+)", "error_required"),
    (r"argument (\S+): invalid choice: '(.*)' \(choose from (.+)\)", "error_choice"),
    (r"unrecognized arguments: (.+)", "error_unrecognized"),
    (r"argument (\S+): invalid \S+ value: '(.*)'", "error_value"),
    (r"argument (\S+): expected (?:at least )?one argument", "error_expected"),
    (r"ambiguous option: (\S+) could match (.+)", "error_ambiguous"),
    (r"argument (\S+): ignored explicit argument '(.*)'", "error_ignored"),
    (r"argument (\S+): not allowed with argument (\S+)", "error_not_allowed"),
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
