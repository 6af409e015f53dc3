"""``--option name=value`` (repeatable): the house rules (docs/rules.en.md §9) of ``gouji play``,
``gouji demo`` and ``gouji arena``.

>>> parse_option("gou_si_ji=true")
('gou_si_ji', True)
>>> parse_option("open_rule=wide")
('open_rule', 'wide')
>>> parse_option("gou_si_ji=maybe")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: option 'gou_si_ji' is on or off (true/false), not 'maybe'
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the engine loads when an option is read (``gouji --help`` stays fast)
    from engine.options import Options

_BOOLS = {"true": True, "on": True, "yes": True, "1": True}
_BOOLS |= {"false": False, "off": False, "no": False, "0": False}


def parse_option(text: str) -> tuple[str, Any]:
    """``name=value`` → (name, value); an unknown name or a bad value names itself."""
    from engine.options import CHOICES, Options

    name, sep, value = text.partition("=")
    name, value = name.strip(), value.strip()
    known = Options().to_json()
    if not sep or name not in known:
        listed = ", ".join(known)
        raise argparse.ArgumentTypeError(f"unknown option {name!r} (known: {listed})")
    if isinstance(known[name], bool):
        if value.lower() not in _BOOLS:
            raise argparse.ArgumentTypeError(
                f"option {name!r} is on or off (true/false), not {value!r}"
            )
        return name, _BOOLS[value.lower()]
    if value not in CHOICES[name]:
        listed = ", ".join(CHOICES[name])
        raise argparse.ArgumentTypeError(f"option {name!r} is one of {listed}, not {value!r}")
    return name, value


def add_option_argument(parser: argparse.ArgumentParser) -> None:
    """The repeatable ``--option name=value``."""
    parser.add_argument(
        "--option",
        action="append",
        type=parse_option,
        default=[],
        metavar="NAME=VALUE",
        help="a house rule (repeatable), e.g. gou_si_ji=true, open_rule=wide; the names and "
        "values are in docs/table-options.md",
    )


def options_from_args(args: argparse.Namespace) -> Options:
    """The engine options of the command line: ``--bie-san`` and every ``--option``."""
    from engine.options import Options

    chosen: dict[str, Any] = {"bie_san": bool(getattr(args, "bie_san", False))}
    chosen.update(dict(args.option))
    return Options.from_json(chosen)
