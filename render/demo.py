"""Built-in example data, so the pictures can be looked at without a game (``gouji render
demo-table`` / ``demo-series``) and so the tests and the benchmark have fixed inputs."""

from __future__ import annotations

import dataclasses

from .models import (
    Burn,
    CardCounter,
    LastAction,
    LeaderboardRow,
    ProfileView,
    RatingRow,
    RatingView,
    SeatView,
    SeriesGame,
    SeriesView,
    TableView,
)

DEMO_NAMES = (
    "老王",
    "Alice",
    "济南够级王🔥",
    "小李飞刀",
    "Bob the Builder of Very Long Names",
    "青岛大虾",
)


def demo_table() -> TableView:
    """A game in full swing: seat 1 has finished 头科, seat 4 revolted, seat 2 burns seat 5."""
    seats = (
        SeatView(DEMO_NAMES[0], cards_left=14, declared=True, last_action=LastAction("pass")),
        SeatView(
            DEMO_NAMES[1], cards_left=0, place=1, opened=True, last_action=LastAction("play", "KK")
        ),
        SeatView(
            DEMO_NAMES[2], cards_left=9, opened=True, last_action=LastAction("burn", "RR2222AAA")
        ),
        SeatView(
            DEMO_NAMES[3], cards_left=21, headless=True, ai=True, last_action=LastAction("yield")
        ),
        SeatView(DEMO_NAMES[4], cards_left=36, revolted=True),
        SeatView(
            DEMO_NAMES[5], cards_left=11, declared=True, last_action=LastAction("play", "BQQQ2")
        ),
    )
    return TableView(
        seats=seats,
        standing="RR2222AAA",
        standing_seat=2,
        to_act=(0,),
        burn=Burn(burner=2, burned=5),
        counter=CardCounter(big_jokers=1, small_jokers=2, twos=7),
        caption="第 3 局 / 5 · 够级一桌",
    )


def demo_replay_table() -> TableView:
    """:func:`demo_table` in a replay (录像): every hand shown, seat 0's a full 36 cards."""
    hands = (
        "3s3h3d4c4s5h5d6c7s7h8d8c9s9hTdTcTsJhJdQcQsKhKdKcAsAhAd2c2s2hBBRRR3c",
        "",
        "4s4h5c6d9c9dJcJsKs",
        "3s3h4d5s5c6h6s7d8h8s9dTTJJQQQKA2",
        "",
        "5d6h7c8d9sTJQKA2",
    )
    seats = list(demo_table().seats)
    seats[0] = dataclasses.replace(seats[0], cards_left=36)
    seats[3] = dataclasses.replace(seats[3], cards_left=21)
    seats[4] = dataclasses.replace(seats[4], cards_left=0)
    seats[5] = dataclasses.replace(seats[5], cards_left=11)
    return dataclasses.replace(
        demo_table(), seats=tuple(seats), hands=hands, caption="录像 · 第 87 步 / 163"
    )


def colour_sample_tables() -> list[tuple[TableView, str]]:
    """(table, language) pairs that show between them every colour a table picture has: the
    demo and its replay in both languages; every place, bubble and card size with a viewer's
    tags, a clock and melee; every marker on every plate, both teams' turn, a burn. The
    table palette is chosen from them (:func:`render.table.table_palette`)."""
    bubbles = (
        "pass",
        "",
        "yield",
        "",
        "noburn",
        "",
        "play",
        "3h4d",
        "play",
        "5s6c",
        "burn",
        "7h7d",
    )
    finished = tuple(
        SeatView(
            f"P{s}", cards_left=0, place=s + 1, last_action=LastAction(*bubbles[2 * s : 2 * s + 2])
        )
        for s in range(6)
    )
    marked = tuple(
        SeatView(
            f"M{s}",
            cards_left=5 * s,
            declared=True,
            opened=True,
            headless=True,
            revolted=s == 5,
            ai=True,
        )
        for s in range(6)
    )
    return [
        (demo_table(), "zh"),
        (demo_table(), "en"),
        (demo_replay_table(), "zh"),
        (demo_replay_table(), "en"),
        (
            TableView(
                seats=finished,
                standing="8h8d8s8c",
                standing_seat=1,
                to_act=(1,),
                counter=CardCounter(big_jokers=1, small_jokers=2, twos=7),
                melee=True,
                clock=12,
                viewer=1,
                bottom_seat=1,
            ),
            "en",
        ),
        (
            TableView(seats=marked, to_act=(4,), viewer=4, bottom_seat=4, clock=3, burn=Burn(0, 3)),
            "zh",
        ),
    ]


def demo_series() -> SeriesView:
    """A five-game series, four games played and the fifth under way."""
    games = (
        SeriesGame(places=(1, 4, 2, 5, 3, 6), points=(4, 0, 2, -2, 0, -4)),
        SeriesGame(
            places=(5, 1, 6, 2, 4, 3), points=(0, 4, -3, 1, 0, -2), tribute=(2, 0, 1, -1, 0, -2)
        ),
        SeriesGame(
            places=(1, 5, 2, 6, 3, 4),
            points=(7, -2, 2, -7, 0, 0),
            tribute=(-1, 2, -2, 1, 0, 0),
            chuan_san_hu=True,
        ),
        SeriesGame(places=(2, 3, 1, 4, 6, 5), points=(2, 0, 4, 0, -4, -2)),
        SeriesGame(
            places=(None, 1, None, None, None, None),
            points=(1, 0, 2, 0, -2, -1),
            tribute=(1, 0, 2, 0, -2, -1),
            finished=False,
        ),
    )
    return SeriesView(
        names=DEMO_NAMES,
        games=games,
        penalties=(0, 0, 0, 0, -10, 0),
        caption="够级一桌 · 2026-11-29",
    )


def demo_profile() -> ProfileView:
    """A regular player."""
    return ProfileView(
        name="济南够级王🔥",
        score=1735,
        games=212,
        places=(48, 41, 37, 33, 29, 24),
        opens=96,
        burns=17,
        server="山东老乡会",
        position=3,
        rating=RatingView(figure=21.3, mu=27.8, sigma=2.2, rank=2, players=14),
    )


def demo_leaderboard() -> list[LeaderboardRow]:
    """A server's top ten."""
    rows = [
        ("牌神附体", 1_700_000, 9120),
        ("Alice", 13_400, 802),
        ("济南够级王🔥", 1735, 212),
        ("小李飞刀", 820, 96),
        ("Bob the Builder of Very Long Names", 415, 51),
        ("青岛大虾", 180, 30),
        ("老王", 40, 12),
        ("ملك الورق", 0, 3),
        ("Zalgo Z̷̢̛a̶l̵g̸o̷", -230, 40),
        ("菜鸟", -520, 77),
    ]
    return [LeaderboardRow(name, score, games=games) for name, score, games in rows]


def demo_rating_board() -> list[RatingRow]:
    """A server's board by skill rating: people and the three AI levels, two provisional."""
    rows = [
        ("Alice", 27.8, 2.1, 802, False, False),
        ("济南够级王🔥", 21.3, 2.2, 212, False, False),
        ("AI 困难", 19.9, 1.4, 1210, False, True),
        ("牌神附体", 18.2, 1.9, 9120, False, False),
        ("AI 普通", 16.0, 1.3, 2301, False, True),
        ("Bob the Builder of Very Long Names", 9.5, 4.4, 8, True, False),
        ("AI 简单", 8.7, 1.2, 3544, False, True),
        ("菜鸟", 2.4, 3.3, 77, False, False),
        ("ملك الورق", -3.6, 6.9, 3, True, False),
    ]
    return [
        RatingRow(name, figure, figure + 3 * sigma, sigma, games, i + 1, provisional, ai)
        for i, (name, figure, sigma, games, provisional, ai) in enumerate(rows)
    ]


def demo_series_over() -> SeriesView:
    """A five-game series once it is over, with each seat's rating change."""
    played = demo_series()
    last = SeriesGame(places=(3, 1, 4, 2, 6, 5), points=(0, 4, 0, 2, -4, -2))
    return dataclasses.replace(
        played,
        games=(*played.games[:4], last),
        ratings=((1.8, 19.4), (-0.6, 12.1), (0.04, 21.3), (-2.3, 4.2), None, (3.1, 6.0)),
    )
