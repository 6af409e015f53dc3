"""What a policy looks at: one seat's cards plus the public table, read cheaply either from
an :class:`~engine.observation.Observation` (a real decision) or straight from a
:class:`~engine.game.Game` for one seat (a rollout inside a search, where building a whole
observation for every step would cost more than the policy itself).

Both constructors read only what the seat may know: its own counts and public state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ..actions import Action, Verb
from ..game import Game
from ..hands import Play
from ..observation import Observation


@dataclass(slots=True)
class View:
    """The facts the hint policy decides on, for the seat ``seat``."""

    seat: int
    phase: str
    counts: list[int]  # own rank counts
    card_counts: Sequence[int]  # cards held by each seat
    standing: Play | None
    standing_seat: int | None
    restricted: bool  # the standing hand may be answered only by the opposite/headless
    melee: bool
    three_rule: bool  # own 3s may only go out last, all 3s (bie-san)
    bie_san: bool
    burning: bool  # this seat burns, before the melee (where a burner's leads are free)
    can_yield: Callable[[], bool]
    in_window: bool  # a burn window asks this seat
    burn_plays: Callable[[], list[Play]]
    legal: Callable[[], list[Action]]  # the full list, a fallback only (may be long)
    burn_seeds: bool = False  # option burn_check "seeds": a burner's lead without a joker fails

    @property
    def total(self) -> int:
        return sum(self.counts)


def plays_of(actions: Iterable[Action], *verbs: Verb) -> list[Play]:
    """The hands of the actions with one of ``verbs`` (play, burn), in order."""
    return [a.cards for a in actions if a.verb in verbs and isinstance(a.cards, Play)]


def view_of_observation(obs: Observation) -> View:
    """The view of a real decision."""
    legal = obs.legal_actions
    in_window = any(a.verb in (Verb.BURN, Verb.NOBURN) for a in legal)
    return View(
        seat=obs.seat,
        phase=obs.phase,
        counts=list(obs.counts),
        card_counts=obs.card_counts,
        standing=obs.standing,
        standing_seat=obs.standing_seat,
        restricted=obs.standing_restricted,
        melee=obs.melee,
        three_rule=obs.three_rule,
        bie_san=obs.options.bie_san,
        burning=obs.burner == obs.seat and not obs.melee,
        can_yield=lambda: any(a.verb == Verb.YIELD for a in legal),
        in_window=in_window,
        burn_plays=lambda: plays_of(legal, Verb.BURN),
        legal=lambda: list(legal),
        burn_seeds=obs.options.burn_check == "seeds",
    )


def view_of_game(game: Game, seat: int) -> View:
    """The view of ``seat`` in ``game`` (for rollouts): own cards and public state only."""
    burn = game.current_burn
    in_window = game.window is not None
    return View(
        seat=seat,
        phase=game.phase,
        counts=game.counts[seat],
        card_counts=[sum(c) for c in game.counts],
        standing=game.standing,
        standing_seat=game.standing_seat,
        restricted=game.standing_restricted,
        melee=game.melee,
        three_rule=game.three_rule[seat],
        bie_san=game.options.bie_san,
        burning=burn is not None and burn.burner == seat and not game.melee,
        can_yield=lambda: not in_window and game.may_yield(seat),
        in_window=in_window,
        burn_plays=lambda: game.burn_plays(seat),
        legal=lambda: game.legal_actions(seat),
        burn_seeds=game.options.burn_check == "seeds",
    )
