"""The bot's configuration, from the environment.

``DISCORD_TOKEN`` (required to run), ``GOUJI_DB`` (the SQLite file, default ``gouji.db``),
``GOUJI_DATABASE_URL`` (``sqlite:///PATH`` or ``postgresql://…``; wins over ``GOUJI_DB``),
``GOUJI_SHARD_COUNT`` and ``GOUJI_SHARDS`` (run shards ``0-3`` of that many: the process
serves only the servers on those shards), ``GOUJI_CLAIM_LEASE`` (seconds a process's claim
on its tables lasts unless renewed, default 30: how long the tables of a process that died
wait for the next process), ``GOUJI_INSTANCE`` (the process's stable name: a restarted process
of the same name takes its tables back at once; default: what it serves and the host name),
``GOUJI_GUILD`` (sync the commands to this one server at once, for testing), and the tuning
knobs ``GOUJI_AI_DELAY`` (seconds an AI seat waits before it plays, so people can follow),
``GOUJI_IDLE_MINUTES`` (an untouched table ends by itself), ``GOUJI_REFRESH`` (least seconds
between two redraws of a table message, default 2: each player follows their own hand
controller), ``GOUJI_WARN`` (seconds before a timeout to warn), ``GOUJI_RULES_URL`` (the full
rules' address under ``/gouji rules``; none by default) and
``GOUJI_DRAW_PROCESSES`` (processes that draw the pictures, default 1; 0: threads of the bot's
own process, which slows its answers when many tables play), ``GOUJI_GLOBAL_LIMIT`` (the
requests a second Discord allows the bot's token: 50, unless Discord raised it for a large
bot; the bot keeps a tenth below it). The browser table (docs/web.md):
``GOUJI_WEB_URL`` (the address people reach it at; set, the bot serves it and offers each
player a personal link), ``GOUJI_WEB_HOST``/``GOUJI_WEB_PORT`` (where it listens, default
127.0.0.1:8080) and ``GOUJI_WEB_SECRET`` (signs the links; without it they die with the
process). The table as a Discord Activity (docs/hosting.md): ``GOUJI_ACTIVITY=1`` with
``DISCORD_CLIENT_ID`` (the application's id) and ``DISCORD_CLIENT_SECRET`` (its OAuth2
secret) and ``GOUJI_WEB_URL``; ``GOUJI_DISCORD_API`` (Discord's REST base, the one
``bot.discord_bot.endpoints`` points discord.py at) is where the sign-in asks Discord too.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from data import DEFAULT_LEASE, DEFAULT_PATH, InvalidInputError
from data.claims import Shards
from engine.ai.review import DEFAULT_BUDGET

DISCORD_API = "https://discord.com/api/v10"
DISCORD_GLOBAL_LIMIT = 50  # requests a second over the bot token's routes, Discord's default
PICTURE_WAIT = 0.15  # GOUJI_PICTURE_WAIT's default: seconds a DM waits for its hand picture
DRAW_PROCESSES = 1  # GOUJI_DRAW_PROCESSES's default: the processes that draw the pictures

TOKEN_HELP = (
    "No DISCORD_TOKEN set. Get one in the Discord Developer Portal "
    "(https://discord.com/developers/applications → your application → Bot → Reset Token), "
    "invite the bot with the 'bot' and 'applications.commands' scopes, then run:\n"
    "    DISCORD_TOKEN=… gouji bot"
)


@dataclass(frozen=True, slots=True)
class BotConfig:
    """Everything the bot reads at start-up."""

    token: str | None = None
    db_path: str = "gouji.db"
    guild_id: int | None = None
    ai_delay: float = 0.8
    idle_seconds: float = 3600.0
    refresh_interval: float = 2.0
    warn_before: float = 10.0
    # the processes that draw the pictures (0: threads), threads in a config built in code
    # (tests); a running bot's is GOUJI_DRAW_PROCESSES's (DRAW_PROCESSES unless set)
    draw_processes: int = 0
    # seconds a DM controller waits for its hand picture before it goes without it (the
    # picture is edited in once drawn); None: it waits until drawn (tests count exactly)
    picture_wait: float | None = None
    database_url: str | None = None
    shards: Shards | None = None  # None: every shard
    lease: float = DEFAULT_LEASE  # seconds a claim lasts unless renewed
    instance: str | None = None  # GOUJI_INSTANCE (None: what it serves @ the host name)
    review_budget: int = DEFAULT_BUDGET  # rollouts per /gouji replay review (复盘)
    global_limit: int = DISCORD_GLOBAL_LIMIT  # bot-token requests a second Discord allows

    @property
    def database(self) -> str:
        """What the store opens: the URL if given, else the SQLite file."""
        return self.database_url or self.db_path

    rules_url: str | None = None  # where /gouji rules links to the full rules (none: no link)
    # the browser table (bot/web): served when web_url says where people reach it
    web_url: str | None = None  # GOUJI_WEB_URL, e.g. https://gouji.example.com
    web_host: str = "127.0.0.1"  # GOUJI_WEB_HOST: the address the web server listens on
    web_port: int = 8080  # GOUJI_WEB_PORT
    web_secret: str | None = None  # GOUJI_WEB_SECRET: signs the links (random: per process)
    # the table as a Discord Activity (bot/web/activity.py): GOUJI_ACTIVITY=1 and the keys
    activity: bool = False  # GOUJI_ACTIVITY: the launch buttons and the Activity's sign-in
    client_id: int | None = None  # DISCORD_CLIENT_ID: the application's id (OAuth2 client)
    client_secret: str | None = None  # DISCORD_CLIENT_SECRET: its OAuth2 client secret
    discord_api: str = DISCORD_API  # GOUJI_DISCORD_API: Discord's REST API base

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> BotConfig:
        """Read the configuration; raises ``ValueError`` naming a malformed variable."""
        env = os.environ if env is None else env

        def number(name: str, default: float) -> float:
            raw = env.get(name)
            if raw is None or raw == "":
                return default
            try:
                value = float(raw)
            except ValueError:
                raise ValueError(
                    f"{name} must be a number of seconds/minutes, not {raw!r}"
                ) from None
            if value < 0:
                raise ValueError(f"{name} cannot be negative")
            return value

        guild = env.get("GOUJI_GUILD") or None
        if guild is not None and not guild.isdigit():
            raise ValueError(f"GOUJI_GUILD must be a server id (digits), not {guild!r}")
        count, spec = env.get("GOUJI_SHARD_COUNT") or "", env.get("GOUJI_SHARDS") or ""
        if spec and not count:
            raise ValueError("GOUJI_SHARDS needs GOUJI_SHARD_COUNT (how many shards in all)")
        try:
            shards = Shards.parse(count, spec) if count else None
        except InvalidInputError as exc:
            raise ValueError(f"GOUJI_SHARD_COUNT/GOUJI_SHARDS: {exc}") from None
        activity = (env.get("GOUJI_ACTIVITY") or "0").strip().lower() in ("1", "true", "yes")
        client = (env.get("DISCORD_CLIENT_ID") or "").strip()
        if client and not client.isdigit():
            raise ValueError(
                f"DISCORD_CLIENT_ID must be the application id (digits), not {client!r}"
            )
        if activity:
            missing = [
                name
                for name in ("DISCORD_CLIENT_ID", "DISCORD_CLIENT_SECRET", "GOUJI_WEB_URL")
                if not env.get(name)
            ]
            if missing:
                raise ValueError(f"GOUJI_ACTIVITY=1 needs {', '.join(missing)} (docs/hosting.md)")
        lease = number("GOUJI_CLAIM_LEASE", DEFAULT_LEASE)
        if lease < 1:
            raise ValueError("GOUJI_CLAIM_LEASE must be at least 1 second")
        global_limit = number("GOUJI_GLOBAL_LIMIT", DISCORD_GLOBAL_LIMIT)
        if global_limit < 1 or global_limit != int(global_limit):
            raise ValueError("GOUJI_GLOBAL_LIMIT must be a whole number of requests, 1 or more")
        return cls(
            database_url=env.get("GOUJI_DATABASE_URL") or None,
            shards=shards,
            lease=lease,
            instance=(env.get("GOUJI_INSTANCE") or "").strip() or None,
            token=env.get("DISCORD_TOKEN") or None,
            db_path=str(env.get("GOUJI_DB") or DEFAULT_PATH),
            guild_id=int(guild) if guild else None,
            ai_delay=number("GOUJI_AI_DELAY", 0.8),
            idle_seconds=number("GOUJI_IDLE_MINUTES", 60.0) * 60,
            refresh_interval=number("GOUJI_REFRESH", 2.0),
            warn_before=number("GOUJI_WARN", 10.0),
            draw_processes=int(number("GOUJI_DRAW_PROCESSES", DRAW_PROCESSES)),
            picture_wait=number("GOUJI_PICTURE_WAIT", PICTURE_WAIT),
            review_budget=max(1, int(number("GOUJI_REVIEW_BUDGET", DEFAULT_BUDGET))),
            global_limit=int(global_limit),
            rules_url=env.get("GOUJI_RULES_URL") or None,
            web_url=env.get("GOUJI_WEB_URL") or None,
            web_host=env.get("GOUJI_WEB_HOST") or "127.0.0.1",
            web_port=int(number("GOUJI_WEB_PORT", 8080)),
            web_secret=env.get("GOUJI_WEB_SECRET") or None,
            activity=activity,
            client_id=int(client) if client else None,
            client_secret=env.get("DISCORD_CLIENT_SECRET") or None,
            discord_api=env.get("GOUJI_DISCORD_API") or DISCORD_API,
        )
