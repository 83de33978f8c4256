"""The CLI in the user's language: `vaultrag --help` (the parser's help texts and argparse's own words) and the
errors it reports (every Problem's words), looked up in the window's Portuguese (resources/translations/
vaultrag_pt.ts, contexts "Cli" and "Problem"); every other line the CLI prints stays English, as the core writes
it."""

from __future__ import annotations

import argparse
import os
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

from vaultrag.errors import PROBLEM_CONTEXT, UserFacingError, problem_words

CONTEXT = "Cli"
TS = Path(__file__).resolve().parents[2] / "resources" / "translations" / "vaultrag_pt.ts"
# argparse's own words (it asks gettext for them): the headings, the help option's line, its commonest errors
ARGPARSE_WORDS = ("usage: ", "positional arguments", "options", "show this help message and exit",
                  "show program's version number and exit", "%(prog)s: error: %(message)s\n",
                  "the following arguments are required: %s", "unrecognized arguments: %s",
                  "expected one argument")


def language() -> str:
    """"pt" when the environment asks for Portuguese (LANGUAGE, LC_ALL, LC_MESSAGES, LANG, as gettext reads them),
    else "" (English)."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name, "")
        if value:
            return "pt" if value.lower().startswith("pt") else ""
    return ""


@lru_cache(maxsize=4)
def portuguese(context: str = CONTEXT) -> dict[str, str]:
    """A context of the window's Portuguese ("Cli": the help): English → Portuguese ({} when the file is not
    there)."""
    try:
        root = ET.parse(TS).getroot()
    except (OSError, ET.ParseError):
        return {}
    out: dict[str, str] = {}
    for part in root.iter("context"):
        if part.findtext("name") != context:
            continue
        for message in part.iter("message"):
            tr = message.find("translation")
            if tr is not None and tr.text and tr.get("type") not in ("unfinished", "obsolete", "vanished"):
                out[message.findtext("source") or ""] = tr.text
    return out


def texts(parser: argparse.ArgumentParser) -> Iterator[str]:
    """Every help text of `parser` and its sub-commands (what update.py gives the translators)."""
    if parser.description:
        yield parser.description
    for action in parser._actions:  # argparse keeps them there, and has no public view of them
        if action.help and action.help != argparse.SUPPRESS:
            yield action.help
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                if choice.help:
                    yield choice.help
            for sub in dict.fromkeys(action.choices.values()):
                yield from texts(sub)


def translate(parser: argparse.ArgumentParser, words: dict[str, str]) -> None:
    """Put `words` into `parser` and its sub-commands, and argparse's own words with them."""
    if parser.description:
        parser.description = words.get(parser.description, parser.description)
    for group in parser._action_groups:  # their titles were asked of gettext when the parser was made
        if group.title:
            group.title = words.get(group.title, group.title)
    for action in parser._actions:
        if action.help and action.help != argparse.SUPPRESS:
            action.help = words.get(action.help, action.help)
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                if choice.help:
                    choice.help = words.get(choice.help, choice.help)
            for sub in dict.fromkeys(action.choices.values()):
                translate(sub, words)


def localize(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """`parser` in the environment's language (Portuguese or English); argparse's own words ("usage: ", its
    errors) only while it parses, so nothing else in the process is changed."""
    if language() != "pt" or not (words := portuguese()):
        return parser
    translate(parser, words)
    parse = parser.parse_args

    def parse_in_words(*args: Any, **kwargs: Any) -> Any:
        gettext = argparse._  # type: ignore[attr-defined]
        argparse._ = lambda text: words.get(text, gettext(text))  # type: ignore[attr-defined]
        try:
            return parse(*args, **kwargs)
        finally:
            argparse._ = gettext  # type: ignore[attr-defined]

    parser.parse_args = parse_in_words  # type: ignore[method-assign]
    return parser


def error_text(error: UserFacingError) -> str:
    """What the CLI says of `error`: its Problem's words in the environment's language (the window's words), or
    its English message when it has no code or the language is English."""
    if error.problem is None or language() != "pt":
        return str(error)
    words = portuguese(PROBLEM_CONTEXT)
    return problem_words(error.problem, error.details, lambda text: words.get(text, text))
