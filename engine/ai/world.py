"""Determinization: whole games consistent with what one seat observed, on the rollout
simulator (:class:`~engine.ai.sim.Sim`).

A search player sees its own cards, everyone's card count, the combined ``unseen`` cards of
the others and the public history. :func:`rebuild` turns that into a :class:`Sim`: the other
seats get a guess at their hands (their current cards drawn from ``unseen``, plus the cards
the history shows them playing), and the public play-phase history is replayed on it;
:func:`deal_worlds` then hands out fresh guesses of the current hands on copies of it.

Hidden cards steer the public flow in one place: which seats a burn window asks depends on
their hands. The history records the real windows (who answered, who burned), so the replay
imposes them (:attr:`Sim.replaying`) instead of the ones the guessed hands would give; burn
results, 开点 and stifles are then taken from the observation, as the engine has them.

Guesses respect what the position makes certain: a revolutionary holds no 2 and no joker, a
burner can complete its burn (§4; with the seeds' burn check any hand can burn on), a seat a
burn window asks now holds a burning play. Every table option is played (the simulator
knows them all); 要头 is public (its answer is in the history).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from operator import sub

from ..actions import Action, Verb
from ..burning import burn_completable, burn_priority
from ..cards import NUM_RANKS, THREE, TWO
from ..game import Phase
from ..hands import Play
from ..observation import Observation
from ..prelude import HEAD_HANDS
from .sim import Sim

PLAY_VERBS = (Verb.PLAY, Verb.PASS, Verb.YIELD, Verb.BURN, Verb.NOBURN)


class UnfitObservation(RuntimeError):
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
        if actions[i].verb in (Verb.BURN, Verb.NOBURN):
            j = i
            while j < len(actions) and actions[j].verb in (Verb.BURN, Verb.NOBURN):
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
            if burner is not None and isinstance(burner.cards, Play):
                _add(played[burner.seat], burner.cards)
                last = burner.seat
        elif a is not None and isinstance(a.cards, Play) and a.verb == Verb.PLAY:
            _add(played[a.seat], a.cards)
            last = a.seat
    return played


def _add(counts: list[int], play: Play) -> None:
    for r, n in play.rank_counts():
        counts[r] += n


def _window_winner(answers: Sequence[Action], q: int | None) -> Action | None:
    burns = [a for a in answers if a.verb == Verb.BURN]
    if not burns or q is None:
        return None
    return min(burns, key=lambda a: burn_priority(a.seat, q))


def sample_hands(
    obs: Observation, rng: random.Random, tries: int = 256, window: Sim | None = None
) -> list[list[int]]:
    """Current rank counts for every seat: ``obs.counts`` for the observer, a random split of
    ``obs.unseen`` by ``obs.card_counts`` for the others that respects what the position
    implies: a revolutionary holds no 2 and no joker, a burner in the middle of a burn holds
    a hand it can complete the burn with (§4, unless the seeds' check lets any burn go on
    until it fails), and (given the rebuilt ``window`` state) a seat a burn window asks now
    holds a burning play. Splits that break it are dealt again (``tries`` times);
    :class:`UnfitObservation` if none fits."""
    limited = obs.options.burn_check == "completable"
    burner = obs.burner if obs.burner != obs.seat and not obs.melee and limited else None
    asked = [s for s in obs.to_act if s != obs.seat] if window is not None and window.window else []
    for _ in range(tries):
        hands = _split(obs, rng)
        if burner is not None and not burn_completable(hands[burner], obs.options.bie_san):
            continue
        if asked and window is not None:
            saved = [window.counts[s] for s in asked]
            for s in asked:
                window.counts[s] = hands[s]
            ok = all(window.burning_plays(s) for s in asked)
            for s, c in zip(asked, saved, strict=True):
                window.counts[s] = c
            if not ok:
                continue
        return hands
    raise UnfitObservation("no guessed hands fit what the position implies")


def _split(obs: Observation, rng: random.Random) -> list[list[int]]:
    """A uniformly random split of ``obs.unseen`` (revolutionaries get plain cards)."""
    pool = [r for r in range(NUM_RANKS) for _ in range(obs.unseen[r])]
    draw = rng.random  # sorting by random keys: a uniform shuffle, faster than rng.shuffle
    pool = [r for _, r in sorted([(draw(), r) for r in pool])]
    hands = [[0] * NUM_RANKS for _ in range(6)]
    hands[obs.seat] = list(obs.counts)
    others = [s for s in range(6) if s != obs.seat]
    for s in sorted(others, key=lambda s: not obs.revolted[s]):  # revolutionaries first
        need = obs.card_counts[s]
        if obs.revolted[s]:
            plain = [r for r in pool if r < TWO]
            if len(plain) < need:
                raise UnfitObservation("not enough plain cards for the revolutionary")
            take = plain[:need]
            for r in take:
                pool.remove(r)
        else:
            take, pool = pool[:need], pool[need:]
        for r in take:
            hands[s][r] += 1
    if pool:
        raise UnfitObservation("unseen cards do not match the card counts")
    return hands


@dataclass(frozen=True, slots=True)
class Decision:
    """A public decision of another seat, with what the public table showed it then: the
    evidence a guessed hand can be checked against."""

    action: Action
    standing: Play | None
    standing_seat: int | None
    restricted: bool
    melee: bool
    burning: bool
    can_yield: bool
    totals: tuple[int, ...]
    played_before: tuple[int, ...]  # the seat's cards played before this decision
    played_since: tuple[int, ...] = ()  # and after it, up to now (set by the rebuild)


@dataclass(slots=True)
class Evidence:
    """The recent decisions of the other seats, and the cards each seat has played."""

    decisions: list[Decision]
    played: list[list[int]]


def head_keepers(obs: Observation) -> set[int]:
    """The seats that chose 要头 (够死级 on): the answer is public."""
    out = set()
    for text in obs.history:
        if Verb.KEEPHEAD in text:  # parsed only then: "3 keephead" or "3 nokeephead"
            action = Action.parse(text)
            if action.verb == Verb.KEEPHEAD:
                out.add(action.seat)
    return out


def rebuild(obs: Observation, rng: random.Random) -> Sim:
    """A simulator in the state ``obs`` shows, with guessed hands for the other seats;
    :class:`UnfitObservation` if the observation cannot be reproduced."""
    return rebuild_with_evidence(obs, rng)[0]


def rebuild_with_evidence(
    obs: Observation, rng: random.Random, recent: int = 24
) -> tuple[Sim, Evidence]:
    """:func:`rebuild`, and the other seats' last ``recent`` decisions (:class:`Evidence`)."""
    if obs.phase != Phase.PLAY or obs.leader is None:
        raise UnfitObservation("only play-phase observations can be rebuilt")
    actions = play_history(obs)
    now = sample_hands(obs, rng)
    played = cards_played(actions)
    initial = [[now[s][r] + played[s][r] for r in range(NUM_RANKS)] for s in range(6)]
    three_rule = [obs.options.bie_san] * 6
    three_rule[obs.seat] = obs.three_rule
    keepers = head_keepers(obs)
    kept = [HEAD_HANDS if s in keepers else 0 for s in range(6)]
    sim = Sim.start(
        initial,
        obs.leader,
        options=obs.options,
        declared=obs.declared,
        revolted=obs.revolted,
        three_rule=three_rule,
        head_kept=kept,
    )
    sim.replaying = True
    so_far = [[0] * NUM_RANKS for _ in range(6)]
    decisions: list[Decision] = []
    for answers, a in windows_and_actions(actions):
        if answers is not None:
            if sim.window is None:
                raise UnfitObservation("a burn window the replay did not open")
            winner = _window_winner(answers, sim.standing_seat)
            sim.window = [x.seat for x in answers]
            sim.choices = {
                x.seat: (x.cards if isinstance(x.cards, Play) else None) for x in answers
            }
            sim.close_window()
            if winner is not None and isinstance(winner.cards, Play):
                _add(so_far[winner.seat], winner.cards)
            continue
        assert a is not None
        if sim.window is not None:  # nobody could burn: no window in the real game
            sim.window = []
            sim.close_window()
        if sim.done or a.seat not in sim.to_act:
            raise UnfitObservation(f"cannot replay {a}")
        if a.seat != obs.seat:
            decisions.append(
                Decision(
                    a,
                    sim.standing,
                    sim.standing_seat,
                    sim.restricted,
                    sim.melee,
                    sim.burner == a.seat and not sim.melee,
                    sim.may_yield(a.seat),
                    tuple(sim.totals),
                    tuple(so_far[a.seat]),
                )
            )
        sim.apply(a)
        if isinstance(a.cards, Play):
            _add(so_far[a.seat], a.cards)
    if any(a.verb == Verb.NOBURN for a in obs.legal_actions):
        if sim.window is None:
            raise UnfitObservation("the observed burn window is not open in the replay")
        sim.window = list(obs.to_act)  # seats that answered already: not known, left out
        sim.choices = {}
    elif sim.window is not None:
        sim.window = []
        sim.close_window()
    sim.replaying = False
    _take_public_facts(sim, obs)
    _check(sim, obs)
    recorded = [
        replace(d, played_since=tuple(map(sub, played[d.action.seat], d.played_before)))
        for d in (decisions[-recent:] if recent else [])
    ]
    return sim, Evidence(recorded, played)


def _take_public_facts(sim: Sim, obs: Observation) -> None:
    """Burns, 开点 and stifles as the observation has them (the engine's word)."""
    sim.opened = list(obs.opened)
    sim.stifled = list(obs.stifled)
    sim.burns = [[b, d, r] for b, d, r in obs.burns]
    sim.burner = obs.burner


def _check(sim: Sim, obs: Observation) -> None:
    got = (sim.standing, sim.standing_seat, tuple(sim.places), sim.melee, sim.yielder)
    want = (obs.standing, obs.standing_seat, obs.places, obs.melee, obs.yielder)
    if (tuple(sim.head_kept), sim.dead) != (obs.gou_si_ji, obs.standing_dead):
        raise UnfitObservation("rebuilt 够死级 state differs from the observed one")
    if got != want or obs.seat not in sim.to_act:
        raise UnfitObservation(f"rebuilt state {got} differs from the observed {want}")
    if tuple(sim.totals) != obs.card_counts or tuple(sim.passed) != obs.passed:
        raise UnfitObservation("rebuilt card counts or passes differ from the observed ones")


def deal_worlds(base: Sim, obs: Observation, n: int, rng: random.Random) -> list[Sim]:
    """``n`` copies of ``base`` with fresh random guesses of the other seats' current hands
    (:func:`sample_hands`)."""
    return [
        with_hands(base.copy(), obs.seat, sample_hands(obs, rng, window=base)) for _ in range(n)
    ]


def with_hands(world: Sim, seat: int, hands: Sequence[list[int]]) -> Sim:
    """``world`` (a copy of the rebuilt state) with ``hands`` for every seat but ``seat``."""
    for s in range(6):
        if s != seat:
            world.counts[s] = hands[s]
    q = world.standing_seat
    world.stifle_watch = None  # as the guessed hand of the standing seat makes it
    if q is not None and world.bie_san and world.three_rule[q]:
        c = world.counts[q]
        if 0 < c[THREE] == sum(c):
            world.stifle_watch = q
    return world


__all__ = [
    "Decision",
    "Evidence",
    "UnfitObservation",
    "deal_worlds",
    "rebuild",
    "rebuild_with_evidence",
    "sample_hands",
    "with_hands",
]
