"""Every REST request checked against Discord's own OpenAPI description of its HTTP API.

``spec/openapi.json`` is discord/discord-api-spec's ``specs/openapi.json`` (MIT; the commit
in ``spec/source.json``, ``spec/update.py`` vendors it anew). :class:`SpecValidator` finds
the spec's operation of a request (its path template matched segment by segment, a literal
segment such as ``@original`` or ``@me`` before a parameter), checks the path parameters, the
query (strings read as the parameter's type) and the body (JSON, ``payload_json`` of a
multipart body, or a form) with a JSON Schema 2020-12 validator (``jsonschema-rs``: some
0.1 ms a request, where the pure-Python ``jsonschema`` took 5 ms for a controller message)
compiled on first use per operation and shared by every fake of the process, and words
what it refuses as Discord does::

    400 {"code": 50035, "message": "Invalid Form Body",
         "errors": {"data": {"components": {"0": {"components": {"0": {"label": {
             "_errors": [{"code": "BASE_TYPE_MAX_LENGTH",
                          "message": "Must be 45 or fewer in length."}]}}}}}}}}

A union's error (``oneOf``/``anyOf`` of objects told apart by their ``type``: components,
callbacks) is told the way Discord tells it: as the errors of the member whose ``type`` the
value has, so they name the field inside it, not the union.

Where the spec and Discord's real behaviour differ, :data:`DIFFERENCES` lists each
difference once with its reason, as a change to the spec and an example of a request the
bot legitimately sends that the spec alone refuses (``tests/fakediscord/test_openapi.py``
checks each is still needed, so an entry goes once the spec is corrected).
"""

from __future__ import annotations

import copy
import functools
import json
import re
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonschema_rs
from aiohttp import web

from .messages import read_body

SPEC_DIR = Path(__file__).resolve().parent / "spec"
SPEC_FILE = SPEC_DIR / "openapi.json"
DRAFT = "https://json-schema.org/draft/2020-12/schema"  # OpenAPI 3.1's schemas
METHODS = ("get", "put", "post", "patch", "delete")
JSON, MULTIPART, FORM = (
    "application/json",
    "multipart/form-data",
    "application/x-www-form-urlencoded",
)
INTEGER = re.compile(r"^-?\d+$")

Errors = dict[str, Any]  # Discord's nested errors object: {"field": {"0": {"_errors": [...]}}}


class SpecRefusal(Exception):
    """What Discord answers a request its spec refuses: status, JSON code, message, errors."""

    def __init__(self, status: int, code: int, message: str, errors: Errors | None = None):
        super().__init__(f"{status} {code}: {message} {json.dumps(errors or {})}")
        self.status, self.code, self.message, self.errors = status, code, message, errors


@dataclass(frozen=True)
class Example:
    """A request as the fake receives it (the path without ``/api/v10``)."""

    method: str
    path: str
    query: Mapping[str, str] = field(default_factory=dict)
    body: Any = None
    content_type: str = JSON


@dataclass(frozen=True)
class Difference:
    """Where Discord's spec and Discord differ: ``patch`` changes (a copy of) the spec so
    that it says what Discord accepts; ``example`` is a request the bot sends that Discord
    accepts and the spec alone refuses; ``reason`` says how we know."""

    name: str
    reason: str
    patch: Callable[[dict[str, Any]], None]
    example: Example


# ----- the known differences --------------------------------------------------------------------
def _each_schema(node: Any) -> Iterable[dict[str, Any]]:
    """Every object of a JSON document, depth first."""
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _each_schema(value)
    elif isinstance(node, list):
        for value in node:
            yield from _each_schema(value)


def _integer_snowflakes(spec: dict[str, Any]) -> None:
    spec["components"]["schemas"]["SnowflakeType"] = {
        "anyOf": [
            {"type": "string", "pattern": "^(0|[1-9][0-9]*)$", "format": "snowflake"},
            {"type": "integer", "minimum": 0},
        ],
        "format": "snowflake",
    }


def _numeric_query_booleans(spec: dict[str, Any]) -> None:
    for item in spec["paths"].values():
        for operation in (item.get(m) for m in METHODS):
            for param in (operation or {}).get("parameters", []):
                if param.get("in") == "query" and param.get("schema") == {"type": "boolean"}:
                    param["schema"] = {"anyOf": [{"type": "boolean"}, {"enum": ["0", "1"]}]}


def _oauth2_token_route(spec: dict[str, Any]) -> None:
    form = {
        "type": "object",
        "properties": {
            name: {"type": "string"}
            for name in (
                "grant_type",
                "code",
                "client_id",
                "client_secret",
                "redirect_uri",
                "refresh_token",
            )
        },
    }  # what is wrong in it (a grant type, a client) OAuth2's own errors answer, not 50035
    spec["paths"]["/oauth2/token"] = {
        "post": {
            "operationId": "exchange_oauth2_token (added: Discord's OAuth2 page)",
            "requestBody": {"content": {FORM: {"schema": form}}, "required": True},
        }
    }


DIFFERENCES: tuple[Difference, ...] = (
    Difference(
        "integer snowflakes",
        "Discord reads a snowflake given as a JSON integer as well as a string (its docs: "
        "'snowflakes are strings in the API, ... the API accepts either'); discord.py sends "
        "integers, e.g. the recipient of a DM channel and the ids of new attachments (their "
        "index in the upload).",
        _integer_snowflakes,
        Example("POST", "/users/@me/channels", body={"recipient_id": 80351110224678912}),
    ),
    Difference(
        "1/0 booleans in queries",
        "Discord reads '1' and '0' in a query as true and false; discord.py sends its "
        "interaction webhooks' and callbacks' flags so (wait=1, with_components=1, "
        "with_response=1) and Discord answers them as asked.",
        _numeric_query_booleans,
        Example(
            "POST",
            "/webhooks/1/t0ken",
            query={"wait": "1", "with_components": "1"},
            body={"content": "hi"},
        ),
    ),
    Difference(
        "POST /oauth2/token",
        "The OAuth2 token exchange (Discord's 'OAuth2' page; the Embedded App SDK's sign-in "
        "calls it) is not in the OpenAPI description; the fake serves it for the Activity.",
        _oauth2_token_route,
        Example(
            "POST",
            "/oauth2/token",
            body={"grant_type": "authorization_code", "code": "c", "client_id": "1"},
            content_type=FORM,
        ),
    ),
)


@functools.cache
def raw_spec() -> dict[str, Any]:
    """The vendored spec as published (a shared object: never change it)."""
    spec: dict[str, Any] = json.loads(SPEC_FILE.read_text())
    return spec


def patched_spec(differences: Iterable[Difference] = DIFFERENCES) -> dict[str, Any]:
    """A copy of the spec with the ``differences`` applied."""
    spec = copy.deepcopy(raw_spec())
    for difference in differences:
        difference.patch(spec)
    return spec


@functools.cache
def default_validator() -> SpecValidator:
    """The validator every fake uses: the spec with :data:`DIFFERENCES`, one per process
    (its compiled operations are shared by every test)."""
    return SpecValidator(patched_spec())


@functools.cache
def raw_validator() -> SpecValidator:
    """The validator of the spec alone (for the tests of :data:`DIFFERENCES`)."""
    return SpecValidator(raw_spec())


# ----- the validator ----------------------------------------------------------------------------
@dataclass
class Operation:
    """One method of one spec path: its parameters (one object: name -> value, checked at
    once) and its bodies by content type, their validators compiled on first use."""

    spec: dict[str, Any] = field(repr=False)
    method: str
    path: str
    params: dict[str, tuple[str, set[str]]]  # name: (in, the JSON types its schema allows)
    params_schema: dict[str, Any] = field(repr=False)
    bodies: dict[str, Any] = field(repr=False)  # content type: schema
    body_required: bool
    _compiled: dict[str, jsonschema_rs.Validator] = field(default_factory=dict, repr=False)

    def validator(self, part: str) -> jsonschema_rs.Validator | None:
        """The compiled validator of ``"params"`` or a body's content type (None: none)."""
        if part not in self._compiled:
            schema = self.params_schema if part == "params" else self.bodies.get(part)
            if schema is None:
                return None
            root = {"$schema": DRAFT, **schema, "components": self.spec["components"]}
            self._compiled[part] = jsonschema_rs.validator_for(
                root, validate_formats=False, offline=True
            )
        return self._compiled[part]


class SpecValidator:
    """Finds a request's operation in ``spec`` and checks the request against it."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        self._by_length: dict[int, list[tuple[list[str], str]]] = {}
        for path in spec["paths"]:
            segments = path.strip("/").split("/")
            self._by_length.setdefault(len(segments), []).append((segments, path))
        self._operations: dict[tuple[str, str], Operation | None] = {}

    def _types(self, schema: Any) -> set[str]:
        """The JSON types a parameter's schema allows ($refs and unions followed)."""
        schema = _resolve(self.spec, schema)
        declared = schema.get("type", [])
        types = {declared} if isinstance(declared, str) else set(declared)
        for key in ("anyOf", "oneOf", "allOf"):
            for branch in schema.get(key, []):
                types |= self._types(branch)
        return types

    def find(self, path: str) -> tuple[str, dict[str, str]] | None:
        """The spec path of a concrete path and its parameters' values (None: not in the
        spec). Literal segments win over parameters, the leftmost first."""
        segments = path.strip("/").split("/")
        best: tuple[tuple[bool, ...], str, dict[str, str]] | None = None
        for template, spec_path in self._by_length.get(len(segments), []):
            values: dict[str, str] = {}
            literal: list[bool] = []
            for have, want in zip(segments, template, strict=True):
                if want.startswith("{") and want.endswith("}"):
                    values[want[1:-1]] = have
                    literal.append(False)
                elif have == want:
                    literal.append(True)
                else:
                    break
            else:
                if best is None or tuple(literal) > best[0]:
                    best = (tuple(literal), spec_path, values)
        return None if best is None else (best[1], best[2])

    def operation(self, method: str, spec_path: str) -> Operation | None:
        """The operation (None: the spec path has no such method)."""
        key = (method.lower(), spec_path)
        if key not in self._operations:
            self._operations[key] = self._operation(*key)
        return self._operations[key]

    def _operation(self, method: str, spec_path: str) -> Operation | None:
        item = self.spec["paths"][spec_path]
        operation = item.get(method)
        if operation is None:
            return None
        params: dict[str, tuple[str, set[str]]] = {}
        schemas: dict[str, Any] = {}
        required: list[str] = []
        for param in [*item.get("parameters", []), *operation.get("parameters", [])]:
            name = param["name"]
            params[name] = (param["in"], self._types(param["schema"]))
            schemas[name] = param["schema"]
            if param.get("required") and name not in required:
                required.append(name)
        params_schema = {"type": "object", "properties": schemas, "required": required}
        body = operation.get("requestBody", {})
        bodies = {kind: content["schema"] for kind, content in body.get("content", {}).items()}
        return Operation(
            self.spec,
            method,
            spec_path,
            params,
            params_schema,
            bodies,
            bool(body.get("required")),
        )

    def check(
        self,
        method: str,
        path: str,
        query: Mapping[str, str],
        body: Any = None,
        content_type: str = JSON,
    ) -> None:
        """Raise :class:`SpecRefusal` as Discord would answer this request (``body`` None:
        the request has none)."""
        found = self.find(path)
        if found is None:
            raise SpecRefusal(404, 0, "404: Not Found")
        spec_path, values = found
        operation = self.operation(method, spec_path)
        if operation is None:
            raise SpecRefusal(405, 0, "405: Method Not Allowed")
        errors: Errors = {}
        given: dict[str, Any] = dict(values)
        for name, (where, types) in operation.params.items():
            if where == "query" and name in query:
                given[name] = _read_query(query[name], types)
        params = operation.validator("params")
        assert params is not None
        for error in params.iter_errors(given):
            _describe(errors, error)
        if body is None and operation.body_required:
            body = {}  # Discord reads a missing body as an empty one
        if body is not None:
            validator = operation.validator(content_type) or operation.validator(JSON)
            if validator is None:
                no_body = {"code": "BASE_TYPE_INVALID", "message": "This route takes no body."}
                raise SpecRefusal(400, 50035, "Invalid Form Body", {"_errors": [no_body]})
            for error in validator.iter_errors(body):
                _describe(errors, error)
        if errors:
            raise SpecRefusal(400, 50035, "Invalid Form Body", errors)


def _resolve(spec: dict[str, Any], schema: Any) -> Any:
    """``schema`` with its ``$ref`` chain followed."""
    while isinstance(schema, dict) and "$ref" in schema:
        target: Any = spec
        for part in schema["$ref"].removeprefix("#/").split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        schema = target
    return schema


def _read_query(value: str, types: set[str]) -> Any:
    """A query string as the parameter's type reads it (else left a string, for the
    validator to refuse)."""
    if "boolean" in types and value in ("true", "false", "True", "False"):
        return value.lower() == "true"
    if types & {"integer", "number"} and INTEGER.match(value):
        return int(value)
    if "number" in types:
        try:
            return float(value)
        except ValueError:
            return value
    return value


# ----- Discord's errors object ------------------------------------------------------------------
Kind = jsonschema_rs.ValidationErrorKind
SNOWFLAKE = "^(0|[1-9][0-9]*)$"


def _add(errors: Errors, path: list[Any], code: str, message: str) -> None:
    node = errors
    for part in path:
        node = node.setdefault(str(part), {})
    entry = {"code": code, "message": message}
    if entry not in node.setdefault("_errors", []):
        node["_errors"].append(entry)


def _wrong_kind(union: list[Any], member: list[jsonschema_rs.ValidationError]) -> bool:
    """Whether a union member's errors say the value at ``union`` is not of that member's
    kind: not its JSON type, or another ``type`` field (the discriminator of Discord's
    unions: components, callbacks)."""
    for error in member:
        here = list(error.instance_path)
        if here == union and isinstance(error.kind, Kind.Type):
            return True
        if here == [*union, "type"] and isinstance(
            error.kind, Kind.Enum | Kind.Constant | Kind.OneOfNotValid | Kind.AnyOf
        ):
            return True
    return False


def _describe(errors: Errors, error: jsonschema_rs.ValidationError) -> None:
    """Add ``error`` to ``errors``, a union's error as the errors of the member meant."""
    path, kind, value = list(error.instance_path), error.kind, error.instance
    if isinstance(kind, Kind.OneOfNotValid | Kind.AnyOf):
        meant = [m for m in kind.context if not _wrong_kind(path, m)]
        if meant:
            for sub in min(meant, key=len):
                _describe(errors, sub)
            return
        kinds = sorted(
            {
                option
                for member in kind.context
                for sub in member
                if list(sub.instance_path) == [*path, "type"] and isinstance(sub.kind, Kind.Enum)
                for option in sub.kind.options
            },
            key=lambda k: (isinstance(k, str), k),
        )
        if isinstance(value, dict) and "type" in value and kinds:
            named = ", ".join(json.dumps(k) for k in kinds)
            message = f'Value of field "type" must be one of ({named}).'
            _add(errors, [*path, "type"], "UNION_TYPE_CHOICES", message)
        else:  # of no member's JSON type: say it as the first member that is not null
            members = [m for m in kind.context if not _only_null(m)] or kind.context
            for sub in members[0]:
                _describe(errors, sub)
        return
    if isinstance(kind, Kind.Required):
        _add(errors, [*path, kind.property], "BASE_TYPE_REQUIRED", "This field is required")
        return
    code, message = _wording(kind, value)
    _add(errors, path, code, message)


def _only_null(member: list[jsonschema_rs.ValidationError]) -> bool:
    return (
        len(member) == 1
        and isinstance(member[0].kind, Kind.Type)
        and member[0].kind.types == ["null"]
    )


def _wording(kind: jsonschema_rs.ValidationErrorKind, value: Any) -> tuple[str, str]:
    """Discord's code and message for one failed keyword."""
    match kind:
        case Kind.MaxLength(n) | Kind.MaxItems(n) | Kind.MaxProperties(n):
            return "BASE_TYPE_MAX_LENGTH", f"Must be {n} or fewer in length."
        case Kind.MinLength(n) | Kind.MinItems(n) | Kind.MinProperties(n):
            return "BASE_TYPE_MIN_LENGTH", f"Must be {n} or more in length."
        case Kind.Maximum(n) | Kind.ExclusiveMaximum(n):
            return "NUMBER_TYPE_MAX", f"int value should be less than or equal to {n}."
        case Kind.Minimum(n) | Kind.ExclusiveMinimum(n):
            return "NUMBER_TYPE_MIN", f"int value should be greater than or equal to {n}."
        case Kind.Enum(options):
            allowed = ", ".join(json.dumps(o) for o in options)
            return "BASE_TYPE_CHOICES", f"Value must be one of {{{allowed}}}."
        case Kind.Constant(expected):
            return "BASE_TYPE_CHOICES", f"Value must be one of {{{json.dumps(expected)}}}."
        case Kind.Pattern(pattern) if pattern == SNOWFLAKE:
            return "NUMBER_TYPE_COERCE", f'Value "{value}" is not snowflake.'
        case Kind.Pattern(pattern):
            return "STRING_TYPE_REGEX", f'String value did not match validation regex "{pattern}".'
        case Kind.UniqueItems():
            return "ARRAY_TYPE_DUPLICATE", "Values must be unique."
        case Kind.Type(types) if {"integer", "number"} & set(types):
            return "NUMBER_TYPE_COERCE", f'Value "{value}" is not int.'
        case Kind.Type(types) if "boolean" in types:
            return "BOOLEAN_TYPE_CONVERT", "Must be either true or false."
        case Kind.Type(types) if "array" in types:
            return "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType."
        case Kind.Type(types) if "object" in types:
            return "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType."
        case Kind.Type(types) if "string" in types:
            return "STRING_TYPE_CONVERT", f'Could not interpret "{value}" as string.'
    return "BASE_TYPE_INVALID", f"Invalid value ({kind.name})."


# ----- the fake's side --------------------------------------------------------------------------
@dataclass
class SpecCheck:
    """A fake's use of the validator: on or off, and what it cost."""

    enabled: bool = True
    validator: SpecValidator | None = None
    checked: int = 0  # requests validated
    refused: int = 0
    seconds: float = 0.0  # time spent validating (perf_counter)

    async def check_request(self, request: web.Request, path: str) -> None:
        """Validate a request to ``path`` (without ``/api/v10``) as it reaches the fake."""
        if self.enabled:
            body, content_type = await request_body(request)
            self.check(request.method, path, request.query, body, content_type)

    def check(
        self, method: str, path: str, query: Mapping[str, str], body: Any, content_type: str
    ) -> None:
        """Validate one request (counted and timed); raise :class:`SpecRefusal`."""
        if not self.enabled:
            return
        validator = self.validator or default_validator()
        start = time.perf_counter()
        try:
            validator.check(method, path, query, body, content_type)
        except SpecRefusal:
            self.refused += 1
            raise
        finally:
            self.checked += 1
            self.seconds += time.perf_counter() - start


async def request_body(request: web.Request) -> tuple[Any, str]:
    """A request's body as the spec describes it (None: it has none) and its content type:
    JSON, a form, or a multipart body's ``payload_json`` (read once, kept for the route)."""
    content_type = request.content_type
    if content_type == MULTIPART:
        payload, _files = await read_body(request)
        return payload, MULTIPART
    if not request.body_exists:
        return None, content_type
    if content_type == FORM:
        return dict(await request.post()), FORM
    raw = await request.read()  # aiohttp keeps it: the route reads it again
    if not raw:
        return None, content_type
    try:
        return json.loads(raw), JSON
    except ValueError as exc:
        raise SpecRefusal(400, 50109, "The request body contains invalid JSON.") from exc
