"""A player's standing on a server — points, title, places, and the skill rating (技术分) —
as one plain value, for any front end: Discord's ``/gouji score`` draws it, a web profile
can send :meth:`Standing.to_json` as it is.

    standing = await standing_of(store, guild_id, user_id)
    standing.rating.figure if standing.rating else None   # mu − 3 sigma, None before a game
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from data import PlayerRating, RatingChange, Seat, Store, ai_player, user_player
from engine.rating import change_text, figure_text
from engine.scoring import title_for
from render.models import ProfileView, RatingView


@dataclass(frozen=True, slots=True)
class RatingStanding:
    """A skill rating as shown: the conservative ``figure`` (mu − 3 sigma), ``mu`` ± ``sigma``
    after ``games`` rated games, ``rank`` among the ``players`` rated on the server (people
    and AI levels), ``provisional`` while the games are few."""

    figure: float
    mu: float
    sigma: float
    games: int
    rank: int
    players: int
    provisional: bool

    @classmethod
    def of(cls, rated: PlayerRating) -> RatingStanding:
        r = rated.rating
        return cls(r.ordinal, r.mu, r.sigma, r.games, rated.rank, rated.players, r.provisional)


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's standing on one server. ``position``: their place on the points
    leaderboard (None before their first game); ``rating`` None before a rated game."""

    guild_id: int
    user_id: int
    score: int
    title: str
    games: int
    places: tuple[int, int, int, int, int, int]
    opens: int
    burns: int
    stifles: int
    leaves: int
    position: int | None
    rating: RatingStanding | None

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data (ids as strings: Discord ids exceed JavaScript's integers)."""
        out = asdict(self)
        out["guild_id"], out["user_id"] = str(self.guild_id), str(self.user_id)
        out["places"] = list(self.places)
        return out


async def standing_of(store: Store, guild_id: int, user_id: int) -> Standing:
    """The player's standing on the server, from the store."""
    profile = await store.get_profile(guild_id, user_id)
    position = await store.rank_of(guild_id, user_id)
    rated = await store.player_rating(guild_id, user_player(user_id))
    return Standing(
        guild_id=guild_id,
        user_id=user_id,
        score=profile.score,
        title=title_for(profile.score),
        games=profile.games,
        places=profile.places,
        opens=profile.opens,
        burns=profile.burns,
        stifles=profile.stifles,
        leaves=profile.leaves,
        position=position,
        rating=None if rated is None else RatingStanding.of(rated),
    )


def seat_player(seat: Seat) -> str | None:
    """Whose rating a seat plays for: its user, else its AI level (None: an empty seat)."""
    if seat.user_id is not None:
        return user_player(seat.user_id)
    return None if seat.ai_kind is None else ai_player(seat.ai_kind)


def seat_changes(
    seats: list[Seat], changes: dict[str, RatingChange]
) -> tuple[tuple[float, float] | None, ...]:
    """Per seat, what the series did to its player's rating (change, figure after it);
    None for a seat whose player it did not rate."""
    out = []
    for seat in seats:
        player = seat_player(seat)
        change = changes.get(player) if player is not None else None
        out.append(None if change is None else (change.change, change.after))
    return tuple(out)


def change_line(change: float, after: float) -> str:
    """A series' change of a rating as the channel reads it: ``+1.8 → 19.4``."""
    return f"{change_text(change)} → {figure_text(after)}"


def profile_view(standing: Standing, name: str, *, server: str = "") -> ProfileView:
    """A player's :class:`Standing` as a render
    :class:`~render.models.ProfileView` (the rating tile included)."""
    r = standing.rating
    return ProfileView(
        name=name,
        score=standing.score,
        games=standing.games,
        places=tuple(standing.places),
        opens=standing.opens,
        burns=standing.burns,
        server=server,
        position=standing.position,
        rating=None
        if r is None
        else RatingView(r.figure, r.mu, r.sigma, r.rank, r.players, r.provisional),
    )
