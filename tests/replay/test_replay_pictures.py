"""The replay picture (every hand shown) and a review item's hand, from a finished game."""

from __future__ import annotations

import io

from PIL import Image

from bot.pictures.replay import mistake_hand_png, replay_png, replay_view
from engine.actions import Action
from engine.ai.review import Mistake
from engine.cards import format_cards, parse_cards
from engine.replay_steps import Replay
from render.table import HEIGHT, WIDTH, hands_height
from tests.replay.helpers import expert_record

NAMES = ["老王", "Alice", "济南够级王", "小李飞刀", "Bob", "青岛大虾"]


def test_the_view_shows_every_hand_with_its_suits_at_that_step() -> None:
    replay = Replay.from_record(expert_record(17))
    for step in (0, 40, replay.steps):
        game = replay.game_at(step)
        view = replay_view(replay, step, NAMES, bottom_seat=2)
        assert view.bottom_seat == 2
        for s in range(6):
            assert parse_cards(view.hands[s]) == game.cards[s]
            assert format_cards(view.hands[s]) == game.hand_text(s)
            assert view.seats[s].cards_left == sum(game.counts[s])
        assert f"{step}" in view.caption and f"{replay.steps}" in view.caption


def test_the_picture_is_the_table_with_the_hands_panel() -> None:
    replay = Replay.from_record(expert_record(17))
    png = replay_png(replay, 86, lang="en")
    with Image.open(io.BytesIO(png)) as image:
        assert image.size == (WIDTH, HEIGHT + hands_height())


def test_a_mistake_s_hand_lifts_the_cards_played() -> None:
    played = Mistake(
        step=11,
        action=Action.parse("3 play 3222BR"),
        suggested=Action.parse("3 play 3"),
        cost=3.1,
        margin=1.4,
        worlds=64,
        hand="344455666677789999TJQQKKKKK222BR",
        standing=None,
        standing_seat=None,
    )
    passed = Mistake(
        11, Action.parse("3 pass"), Action.parse("3 play 3"), 1.0, 0.5, 9, "34", "2", 0
    )
    for m in (played, passed):
        with Image.open(io.BytesIO(mistake_hand_png(m, "en"))) as image:
            assert image.width > 500
    assert mistake_hand_png(played) != mistake_hand_png(
        Mistake(
            11, Action.parse("3 play 3"), played.suggested, 3.1, 1.4, 64, played.hand, None, None
        )
    )
