"""Colours and sizes shared by every picture (one place to restyle them)."""

from __future__ import annotations

RGB = tuple[int, int, int]

# The felt: a dark green table.
FELT: RGB = (20, 84, 56)
FELT_TEXT: RGB = (232, 244, 236)
FELT_MUTED: RGB = (160, 200, 178)

# Dark panels (scoreboard, profile, leaderboard, seat plates).
PANEL: RGB = (30, 35, 46)
PANEL_ALT: RGB = (38, 44, 58)
PANEL_LINE: RGB = (62, 70, 88)
PANEL_BG_BOTTOM: RGB = (12, 14, 20)
TEXT: RGB = (236, 239, 244)
MUTED: RGB = (150, 158, 176)

# Cards.
CARD_FACE: RGB = (253, 253, 250)
CARD_EDGE: RGB = (188, 192, 200)
CARD_RED: RGB = (214, 38, 48)
CARD_BLACK: RGB = (28, 32, 40)
CARD_JOKER_SMALL: RGB = (58, 64, 76)
CARD_BACK: RGB = (38, 70, 140)
CARD_BACK_LINE: RGB = (70, 108, 190)
HIGHLIGHT: RGB = (255, 196, 36)

# Teams: seats 0, 2, 4 and seats 1, 3, 5.
TEAM_COLOURS: tuple[RGB, RGB] = ((232, 92, 64), (58, 136, 238))
TEAM_DARK: tuple[RGB, RGB] = ((92, 38, 30), (24, 52, 98))

# Places 1..6 (头科 .. 大落).
PLACE_COLOURS: dict[int, RGB] = {
    1: (244, 190, 38),
    2: (196, 204, 216),
    3: (214, 142, 84),
    4: (120, 132, 150),
    5: (178, 96, 96),
    6: (206, 52, 52),
}

# Markers on a seat plate.
MARKER_COLOURS: dict[str, RGB] = {
    "declared": (150, 92, 220),
    "opened": (38, 166, 106),
    "headless": (120, 120, 120),
    "revolted": (214, 60, 60),
    "ai": (70, 130, 180),
}
BURN: RGB = (255, 112, 30)
TURN: RGB = (255, 214, 64)
OPPOSITE: RGB = (186, 150, 255)  # the 对家 tag on the seat across from the viewer
