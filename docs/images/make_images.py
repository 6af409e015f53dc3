"""Make the README's pictures: ``python -m docs.images.make_images`` (from the repository root).

A real deal (seed 11) played by the hint AI for 40 actions, seen from seat 0.
"""

from __future__ import annotations

from pathlib import Path

from bot.pictures.views import table_view_of_game
from engine.ai import make_player
from engine.game import Game
from render import render_hand, render_table
from render.encode import to_png

HERE = Path(__file__).resolve().parent
NAMES = ["老王", "Alice", "济南够级王", "小李飞刀", "Bob", "青岛大虾"]


def main() -> None:
    game = Game.from_deal(11)
    players = [make_player("hint", seed) for seed in range(6)]
    for _ in range(40):
        seat = game.to_act[0]
        game.apply(players[seat].act(game.observe(seat)))
    view = table_view_of_game(game, NAMES, viewer=0, ai=[False, False, False, False, True, True])
    (HERE / "table.png").write_bytes(to_png(render_table(view, lang="zh")))
    (HERE / "hand.png").write_bytes(to_png(render_hand(game.cards[0], lang="zh")))


if __name__ == "__main__":
    main()
