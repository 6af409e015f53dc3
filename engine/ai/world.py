"""Determinization: whole games consistent with what one seat observed.

A search player sees its own cards, everyone's card count, the combined ``unseen`` cards of
the others and the public history. :func:`rebuild` turns that into a :class:`Game`: the
other seats get a guess at their hands (their current cards drawn from ``unseen``, plus the
cards the history shows them playing), the public play-phase history is replayed on it, and
:func:`deal_worlds` then hands out fresh guesses of the current hands on copies of it.

Replaying needs care where hidden cards steer the public flow: which seats a burn window
asks depends on their hands. The history records the real window (who answered, who
burned), so the replay imposes it instead of the one the guessed hands would give, and a
burner's lead that the guessed hand could not complete is imposed too. These few places use
engine internals (``_close_window``, ``_play``); ``tests/ai`` pins them down.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from ..actions import BURN, NOBURN, PASS, PLAY, YIELD, Action, IllegalActionError
from ..burning import burn_completable, burn_priority
from ..cards import NUM_RANKS, TWO, Card
from ..game import PLAY_PHASE, Game
from ..hands import Play
from ..observation import Observation

PLAY_VERBS = (PLAY, PASS, YIELD, BURN, NOBURN)


class ReplayError(RuntimeError):
    """The observation could not be reproduced (a search player then plays the hint)."""


def play_history(obs: Observation) -> list[Action]:
    """The play-phase actions of the public history."""
    out = []
    for text in obs.history:
        a = Action.parse(text)
        if a.verb in PLAY_VERBS:
            out.append(a)
    return out


def windows_and_actions(
    actions: Sequence[Action],
) -> Iterator[tuple[list[Action] | None, Action | None]]:
    """The actions in order, each burn window's answers grouped: ``(answers, None)`` for a
    window, ``(None, action)`` for any other action."""
    i = 0
    while i < len(actions):
        if actions[i].verb in (BURN, NOBURN):
            j = i
            while j < len(actions) and actions[j].verb in (BURN, NOBURN):
                j += 1
            yield list(actions[i:j]), None
            i = j
        else:
            yield None, actions[i]
            i += 1


def cards_played(actions: Sequence[Action]) -> list[list[int]]:
    """Rank counts each seat has put on the table in ``actions`` (burns that lost to a burn
    of higher priority in the same window keep their cards)."""
    played = [[0] * NUM_RANKS for _ in range(6)]
    last = None  # seat of the hand standing when a window opens
    for answers, a in windows_and_actions(actions):
        if answers is not None:
            burner = _window_winner(answers, last)
            if burner is not None:
                _add(played[burner.seat], burner.cards)
                last = burner.seat
        elif a.verb == PLAY:
            _add(played[a.seat], a.cards)
            last = a.seat
    return played


def _add(counts: list[int], play: Play) -> None:
    for r, n in play.rank_counts():
        counts[r] += n


def _window_winner(answers: Sequence[Action], q: int | None) -> Action | None:
    burns = [a for a in answers if a.verb == BURN]
    if not burns or q is None:
        return None
    return min(burns, key=lambda a: burn_priority(a.seat, q))


def sample_hands(obs: Observation, rng: random.Random, tries: int = 64) -> list[list[int]]:
    """Current rank counts for every seat: ``obs.counts`` for the observer, a random split of
    ``obs.unseen`` by ``obs.card_counts`` for the others that respects what the position
    implies: a revolutionary holds no 2 and no joker, and a burner in the middle of a burn
    holds a hand it can complete the burn with (§4). Splits that break it are dealt again
    (``tries`` times); :class:`ReplayError` if none fits."""
    burner = obs.burner if obs.burner != obs.seat and not obs.melee else None
    for _ in range(tries):
        hands = _split(obs, rng)
        if burner is None or burn_completable(hands[burner], obs.options.bie_san):
            return hands
    raise ReplayError(f"no guessed hand lets seat {burner} complete its burn")


def _split(obs: Observation, rng: random.Random) -> list[list[int]]:
    """A uniformly random split of ``obs.unseen`` (revolutionaries get plain cards)."""
    pool = [r for r in range(NUM_RANKS) for _ in range(obs.unseen[r])]
    rng.shuffle(pool)
    hands = [[0] * NUM_RANKS for _ in range(6)]
    hands[obs.seat] = list(obs.counts)
    others = [s for s in range(6) if s != obs.seat]
    for s in sorted(others, key=lambda s: not obs.revolted[s]):  # revolutionaries first
        need = obs.card_counts[s]
        if obs.revolted[s]:
            plain = [r for r in pool if r < TWO]
            if len(plain) < need:
                raise ReplayError("not enough plain cards for the revolutionary")
            take = plain[:need]
            for r in take:
                pool.remove(r)
        else:
            take, pool = pool[:need], pool[need:]
        for r in take:
            hands[s][r] += 1
    if pool:
        raise ReplayError("unseen cards do not match the card counts")
    return hands


def set_hand(game: Game, seat: int, counts: Sequence[int]) -> None:
    """Give ``seat`` exactly the cards ``counts`` (without suits)."""
    game.counts[seat] = list(counts)
    game.cards[seat] = [Card(r) for r in range(NUM_RANKS) for _ in range(counts[r])]


def rebuild(obs: Observation, rng: random.Random) -> Game:
    """A game in the state ``obs`` shows, with guessed hands for the other seats."""
    if obs.phase != PLAY_PHASE or obs.leader is None:
        raise ReplayError("only play-phase observations can be rebuilt")
    actions = play_history(obs)
    now = sample_hands(obs, rng)
    played = cards_played(actions)
    initial = [[now[s][r] + played[s][r] for r in range(NUM_RANKS)] for s in range(6)]
    game = Game.from_position(
        [[Card(r) for r in range(NUM_RANKS) for _ in range(c[r])] for c in initial],
        obs.leader,
        declared=obs.declared,
        revolted=[s for s in range(6) if obs.revolted[s]],
        options=obs.options,
    )
    if obs.options.bie_san:
        game.three_rule = [True] * 6
        game.three_rule[obs.seat] = obs.three_rule
    _replay(game, actions)
    _finish_window(game, obs)
    _check(game, obs)
    return game


def _replay(game: Game, actions: Sequence[Action]) -> None:
    for answers, a in windows_and_actions(actions):
        if answers is not None:
            _impose_window(game, answers)
            continue
        if game.window is not None:  # the guessed hands opened a window the real ones did not
            _impose_window(game, [])
        try:
            game.apply(a)
        except IllegalActionError:
            if a.verb != PLAY or game.turn != a.seat:
                raise ReplayError(f"cannot replay {a}") from None
            game._play(a.seat, a.cards)  # a burner's lead the guessed hand could not complete
            game.actions.append(a)


def _impose_window(game: Game, answers: Sequence[Action]) -> None:
    """Open (or replace) the burn window with the recorded answers, and close it."""
    if game.window is None and not answers:
        return
    game.window = {a.seat: (a.cards if a.verb == BURN else None) for a in answers}
    game.window_seats = [a.seat for a in answers]
    game.turn = None
    game.actions.extend(answers)
    game._close_window()


def _finish_window(game: Game, obs: Observation) -> None:
    """A window asking the observer now must be open in the rebuilt game too."""
    asked = any(a.verb == NOBURN for a in obs.legal_actions)
    if not asked:
        if game.window is not None:
            _impose_window(game, [])
        return
    if game.window is None:
        game.window = {}
        game.window_seats = []
        game.turn = None
    if obs.seat not in game.window_seats:
        game.window_seats.append(obs.seat)
    game.window.pop(obs.seat, None)


def _check(game: Game, obs: Observation) -> None:
    got = (game.phase, game.standing, game.standing_seat, tuple(game.places))
    want = (obs.phase, obs.standing, obs.standing_seat, obs.places)
    if got != want or obs.seat not in game.to_act:
        raise ReplayError(f"rebuilt state {got} differs from the observed {want}")
    if tuple(sum(c) for c in game.counts) != obs.card_counts:
        raise ReplayError("rebuilt card counts differ from the observed ones")


def deal_worlds(base: Game, obs: Observation, n: int, rng: random.Random) -> list[Game]:
    """``n`` copies of ``base`` with fresh guesses of the other seats' current hands."""
    worlds = []
    for _ in range(n):
        g = base.copy()
        hands = sample_hands(obs, rng)
        for s in range(6):
            if s != obs.seat:
                set_hand(g, s, hands[s])
        worlds.append(g)
    return worlds


__all__ = [
    "ReplayError",
    "deal_worlds",
    "rebuild",
    "sample_hands",
    "set_hand",
]
