"""`/gouji config`, `/gouji hand` and `/gouji again` as players read them: the server's
settings as a list in the caller's language (the burn time settable), the right words for
a hand asked for when there is none, and the number of the game a command deals."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from bot.discord_bot.cog import GoujiCog
from bot.service.live import TableOptions
from bot.text.catalog import text

from ..service.helpers import CHANNEL, GUILD, HUMANS, play_humans, seated_table, user_at
from .test_failures import _gouji, _interaction


def _callback(command: Any) -> Any:
    """A cog command's function, called with the cog (discord.py types ``callback`` without it)."""
    return command.callback


def _asking(gouji, locale: str, user: int = HUMANS[0], **permissions: bool) -> Any:
    interaction = _interaction(gouji)
    interaction.locale = locale
    interaction.user = SimpleNamespace(id=user, display_name=f"user{user}")
    interaction.permissions = SimpleNamespace(manage_guild=False, manage_channels=False)
    for name, value in permissions.items():
        setattr(interaction.permissions, name, value)
    return interaction


@pytest.mark.parametrize(
    ("locale", "saved", "line"),
    [
        ("en-US", "Saved: time to decide on a burn: 20 s", "- time to decide on a burn: 20 s *"),
        ("zh-CN", "已保存：决定烧牌的时间：20 秒", "- 决定烧牌的时间：20 秒 *"),
    ],
)
async def test_config_sets_the_burn_time_and_lists_the_settings_in_words(
    store, locale: str, saved: str, line: str
) -> None:
    gouji = _gouji(store)
    cog = GoujiCog(gouji)
    interaction = _asking(gouji, locale, manage_guild=True)
    await _callback(GoujiCog.config)(cog, interaction, burn_time=20)
    (shown,) = interaction.response.sent
    assert shown.startswith(saved) and line in shown.splitlines()
    assert "{" not in shown and "burn_time" not in shown  # no Python dict, no field names
    lines = [entry for entry in shown.splitlines() if entry.startswith("- ")]
    shown_settings = set(TableOptions().to_json()) - {"series_games"}  # gouji demo's only
    assert len(lines) == len(shown_settings)  # the table's settings and every house rule
    assert (await store.get_settings(GUILD)).table_defaults == {"burn_time": 20}
    live = await gouji.service.open_table(GUILD, CHANNEL, HUMANS[0], {})
    assert live.options.burn_time == 20
    await gouji.service.close()


async def test_config_refuses_a_burn_time_out_of_range_and_saves_nothing(store) -> None:
    gouji = _gouji(store)
    interaction = _asking(gouji, "en-US", manage_guild=True)
    await _callback(GoujiCog.config)(GoujiCog(gouji), interaction, burn_time=500)
    (shown,) = interaction.response.sent
    assert shown.startswith(text("en", "bad_option", what="burn_time 3–120 s, not 500")[:20])
    assert (await store.get_settings(GUILD)).table_defaults == {}
    await gouji.service.close()


async def _hand(gouji, locale: str = "en-US", user: int = HUMANS[1]) -> str:
    interaction = _asking(gouji, locale, user)
    await _callback(GoujiCog.hand)(GoujiCog(gouji), interaction)
    (shown,) = interaction.response.sent
    return shown


async def _again(gouji, locale: str = "en-US") -> str:
    interaction = _asking(gouji, locale, HUMANS[2])
    await _callback(GoujiCog.again)(GoujiCog(gouji), interaction)
    (shown,) = interaction.response.sent
    return shown


async def test_hand_before_the_start_says_who_starts_or_how_many_seats_are_empty(store) -> None:
    gouji = _gouji(store)
    live = await gouji.service.open_table(GUILD, CHANNEL, HUMANS[0], {})
    await gouji.service.join(gouji.service.tables.table_in(CHANNEL), HUMANS[1])
    shown = await _hand(gouji)
    assert shown == f"{text('en', 'need_six', missing=4)} {text('en', 'how_need_six')}"
    assert "/gouji join" in shown and "/gouji ai add" in shown
    await gouji.service.add_ai(gouji.service.tables.table_in(CHANNEL), HUMANS[0])
    shown = await _hand(gouji, "zh-CN")
    assert shown.startswith("六人已经坐满") and "/gouji start" in shown
    assert live.series is None
    await gouji.service.close()


@pytest.mark.parametrize(
    ("series", "over", "again"),
    [
        (False, "game_over", "started_again_single"),
        (True, "series_over", "started_again"),
    ],
)
async def test_after_the_last_game_hand_says_play_again_and_again_deals_a_new_series(
    store, series: bool, over: str, again: str
) -> None:
    """A series of two games (or a single game) played to its end: `/gouji hand` points
    to `/gouji again` (not to seats that are all taken), and `/gouji again` says that a new
    series begins, with game 1 of its games."""
    gouji = _gouji(store)
    live = await seated_table(gouji.service, {"series": series, "series_games": 2})
    await gouji.service.start(gouji.service.tables.table_in(CHANNEL), HUMANS[0])
    await play_humans(gouji.service, live)
    assert not live.playing
    for lang, locale in (("en", "en-US"), ("zh", "zh-CN")):
        shown = await _hand(gouji, locale)
        assert shown.startswith(text(lang, over)) and "/gouji again" in shown
    dealt = await _again(gouji)
    assert dealt == text("zh", again, number=1, total=2 if series else 1)  # the channel's
    assert live.playing and live.running.current.number == 1
    await gouji.service.close()


async def test_hand_of_a_player_who_went_out_says_the_others_finish(store) -> None:
    gouji = _gouji(store)
    live = await seated_table(gouji.service, {"series": False})
    await gouji.service.start(gouji.service.tables.table_in(CHANNEL), HUMANS[0])
    out = None
    while live.playing and out is None:
        await gouji.service.settle(live)
        out = next(
            (u for u in HUMANS if not gouji.service.views.hand_cards(live, HUMANS.index(u))), None
        )
        waiting = [s for s in live.running.to_act if not live.is_ai(s)]
        if out is None and waiting:
            await gouji.service.act_hint(live, user_at(live, waiting[0]))
    assert out is not None and live.playing  # a person went out before the game's end
    assert await _hand(gouji, "zh-CN", out) == text("zh", "hand_played_out")
    await gouji.service.close()
