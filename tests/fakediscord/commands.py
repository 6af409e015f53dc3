"""The application commands the bot synced, and how a user's invocation becomes interaction data.

Discord's client only offers commands that exist, with the options they declare; this
module does the same checks, so a test cannot invoke what a real user could not.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from .model import ADMINISTRATOR, ALL_PERMISSIONS, FakeUser, Snowflakes

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = 3, 4, 5, 6, 7, 8, 9, 10
NAME_RE = re.compile(r"^[-_\w]{1,32}$")


class CommandUnavailable(ValueError):
    """The user tried an invocation Discord's client would not let them make."""


class InvalidCommandPayload(ValueError):
    """The bot tried to register a command Discord would refuse (400, code 50035)."""


def _check_option_list(options: list[dict[str, Any]], where: str) -> None:
    if len(options) > 25:
        raise InvalidCommandPayload(f"{where}: more than 25 options")
    seen_optional = False
    for opt in options:
        name = opt.get("name", "")
        if not NAME_RE.match(name) or name != name.lower():
            raise InvalidCommandPayload(f"{where}: bad option name {name!r}")
        if not 1 <= len(opt.get("description", "")) <= 100:
            raise InvalidCommandPayload(f"{where}.{name}: description must be 1-100 characters")
        if opt.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP):
            _check_option_list(opt.get("options", []), f"{where} {name}")
            continue
        if opt.get("required"):
            if seen_optional:
                raise InvalidCommandPayload(f"{where}: required option {name!r} after optional")
        else:
            seen_optional = True
        if len(opt.get("choices", []) or []) > 25:
            raise InvalidCommandPayload(f"{where}.{name}: more than 25 choices")
        if opt.get("choices") and opt.get("autocomplete"):
            raise InvalidCommandPayload(f"{where}.{name}: choices and autocomplete together")


def check_command(cmd: dict[str, Any]) -> None:
    """Raise InvalidCommandPayload if Discord would refuse to register ``cmd``."""
    name = cmd.get("name", "")
    if not NAME_RE.match(name) or (cmd.get("type", 1) == 1 and name != name.lower()):
        raise InvalidCommandPayload(f"bad command name {name!r}")
    if cmd.get("type", 1) == 1 and not 1 <= len(cmd.get("description", "")) <= 100:
        raise InvalidCommandPayload(f"/{name}: description must be 1-100 characters")
    _check_option_list(cmd.get("options", []), f"/{name}")


class CommandRegistry:
    """Synced commands per scope: ``None`` for global, a guild id for guild commands."""

    def __init__(self, ids: Snowflakes, application_id: int) -> None:
        self._ids = ids
        self.application_id = application_id
        self.scopes: dict[int | None, dict[str, dict[str, Any]]] = {}
        self.sync_count = 0

    def bulk_overwrite(
        self, guild_id: int | None, commands: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        """Replace a scope's commands (PUT); keep ids of commands whose name is unchanged."""
        if not isinstance(commands, list) or len(commands) > 100:
            raise InvalidCommandPayload("expected a list of at most 100 commands")
        for cmd in commands:
            check_command(cmd)
        names = [(c.get("type", 1), c["name"]) for c in commands]
        if len(set(names)) != len(names):
            raise InvalidCommandPayload("two commands share a name and type")
        old = self.scopes.get(guild_id, {})
        new: dict[str, dict[str, Any]] = {}
        for cmd in commands:
            prior = old.get(cmd["name"])
            stored = {
                "type": 1,
                "options": [],
                "default_member_permissions": None,
                "dm_permission": True,
                "nsfw": False,
                **cmd,
                "id": prior["id"] if prior else str(self._ids.next()),
                "application_id": str(self.application_id),
                "version": str(self._ids.next()),
            }
            if guild_id is not None:
                stored["guild_id"] = str(guild_id)
            new[cmd["name"]] = stored
        self.scopes[guild_id] = new
        self.sync_count += 1
        return list(new.values())

    def commands_in(self, guild_id: int | None) -> list[dict[str, Any]]:
        """The commands of one scope (GET)."""
        return list(self.scopes.get(guild_id, {}).values())

    def find(
        self, name: str, guild_id: int | None, permissions: int = ALL_PERMISSIONS
    ) -> dict[str, Any]:
        """The command a user in ``guild_id`` (None: a DM) with ``permissions`` sees as ``name``."""
        cmd = self.scopes.get(guild_id, {}).get(name) if guild_id is not None else None
        cmd = cmd or self.scopes.get(None, {}).get(name)
        in_dm = guild_id is None
        if cmd is None or (in_dm and not _allowed_in_dms(cmd)):
            known = sorted(set(self.scopes.get(None, {})) | set(self.scopes.get(guild_id, {})))
            raise CommandUnavailable(f"no command /{name} here; synced: {known or 'none'}")
        required = cmd.get("default_member_permissions")
        if not in_dm and required is not None and not permissions & ADMINISTRATOR:
            needed = int(required)
            if needed == 0 or permissions & needed != needed:
                raise CommandUnavailable(
                    f"/{name} needs permissions {needed:#x}; the user lacks them"
                )
        return cmd

    def invocation(
        self,
        path: tuple[str, ...],
        values: dict[str, Any],
        guild_id: int | None,
        resolve_user: Callable[[Any], FakeUser],
        focused: str | None = None,
        permissions: int = ALL_PERMISSIONS,
    ) -> dict[str, Any]:
        """Interaction ``data`` for ``/path... name:value`` (autocomplete if ``focused``)."""
        if not path:
            raise CommandUnavailable("give at least the command name")
        cmd = self.find(path[0], guild_id, permissions)
        leaf_options, nest = self._descend(cmd, path)
        resolved: dict[str, dict[str, Any]] = {}
        leaves = self._leaf_values(leaf_options, values, focused, resolve_user, resolved, path)
        options = nest(leaves)
        data: dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": 1, "options": options}
        if "guild_id" in cmd:
            data["guild_id"] = cmd["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return data

    @staticmethod
    def _descend(
        cmd: dict[str, Any], path: tuple[str, ...]
    ) -> tuple[list[dict[str, Any]], Callable[[list[dict[str, Any]]], list[dict[str, Any]]]]:
        options = cmd.get("options", [])
        chain: list[tuple[int, str]] = []
        for name in path[1:]:
            subs = {o["name"]: o for o in options if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)}
            if name not in subs:
                where = "/" + " ".join(path[: len(chain) + 1])
                raise CommandUnavailable(
                    f"{where} has no subcommand {name!r}; it has {sorted(subs)}"
                )
            chain.append((subs[name]["type"], name))
            options = subs[name].get("options", [])
        needed = [o["name"] for o in options if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)]
        if needed:
            raise CommandUnavailable(f"/{' '.join(path)} needs a subcommand: {sorted(needed)}")

        def nest(leaves: list[dict[str, Any]]) -> list[dict[str, Any]]:
            inner = leaves
            for type_, name in reversed(chain):
                inner = [{"type": type_, "name": name, "options": inner}]
            return inner

        return options, nest

    @staticmethod
    def _leaf_values(
        declared: list[dict[str, Any]],
        values: dict[str, Any],
        focused: str | None,
        resolve_user: Callable[[Any], FakeUser],
        resolved: dict[str, dict[str, Any]],
        path: tuple[str, ...],
    ) -> list[dict[str, Any]]:
        by_name = {o["name"]: o for o in declared}
        where = "/" + " ".join(path)
        unknown = sorted(set(values) - set(by_name))
        if unknown:
            raise CommandUnavailable(f"{where} has no option {unknown}; options: {sorted(by_name)}")
        if focused is not None:
            if focused not in by_name or not by_name[focused].get("autocomplete"):
                raise CommandUnavailable(f"{where} option {focused!r} has no autocomplete")
        else:
            missing = [o["name"] for o in declared if o.get("required") and o["name"] not in values]
            if missing:
                raise CommandUnavailable(f"{where} is missing required options {missing}")
        out = []
        for name, value in values.items():
            opt = by_name[name]
            if name == focused:
                out.append(
                    {"type": opt["type"], "name": name, "value": str(value), "focused": True}
                )
                continue
            wire = _wire_value(opt, value, resolve_user, resolved, where)
            out.append({"type": opt["type"], "name": name, "value": wire})
        return out


def _allowed_in_dms(cmd: dict[str, Any]) -> bool:
    contexts = cmd.get("contexts")
    if contexts is not None:
        return 1 in contexts
    return cmd.get("dm_permission") is not False


def _wire_value(
    opt: dict[str, Any],
    value: Any,
    resolve_user: Callable[[Any], FakeUser],
    resolved: dict[str, dict[str, Any]],
    where: str,
) -> Any:
    """Check ``value`` against the option's type, choices and bounds; return it as sent."""
    kind, name = opt["type"], opt["name"]
    if kind == STRING:
        ok = isinstance(value, str)
    elif kind == INTEGER:
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif kind == NUMBER:
        ok = isinstance(value, int | float) and not isinstance(value, bool)
    elif kind == BOOLEAN:
        ok = isinstance(value, bool)
    elif kind in (USER, MENTIONABLE):
        user = resolve_user(value)
        resolved.setdefault("users", {})[str(user.id)] = user.payload()
        return str(user.id)
    else:
        raise CommandUnavailable(f"{where} option {name!r}: type {kind} is not simulated")
    if not ok:
        raise CommandUnavailable(f"{where} option {name!r} does not take {value!r}")
    choices = opt.get("choices") or []
    if choices and value not in [c["value"] for c in choices]:
        raise CommandUnavailable(f"{where} option {name!r}: {value!r} is not one of its choices")
    if kind == STRING:
        if len(value) < opt.get("min_length", 0) or len(value) > opt.get("max_length", 6000):
            raise CommandUnavailable(f"{where} option {name!r}: length out of bounds")
    elif kind in (INTEGER, NUMBER):
        low, high = opt.get("min_value"), opt.get("max_value")
        if (low is not None and value < low) or (high is not None and value > high):
            raise CommandUnavailable(f"{where} option {name!r}: {value} is out of bounds")
    return value
