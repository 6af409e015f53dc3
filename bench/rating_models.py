"""Which rating model predicts the next game better: two teams ranked by the team result, or
the six players ranked by their places (engine/rating.py, ``TEAMS`` and ``PLACES``)?

    python -m bench.rating_models [--games 4000] [--players 16] [--seed 1] [--jobs 2]

The games are the AI against itself, so skill differences are real and known: a pool of
``--players`` players, each the hint (简单) or the expert (普通) policy that plays a random
legal action with a probability of its own (0 … 0.5: careless players); every game seats six
of them at random. Both models rate the same games in the same order; before each game,
each model's ratings predict it, and the figures are over the games after ``--warmup``:

- winner: how often the team with the larger summed ``mu`` won (decisive games; a tie of
  the sums counts a half), and the AUC of that difference;
- log loss and Brier score of openskill's two-team win probability
  ``Phi((mu_a - mu_b) / sqrt(2 beta^2 + sigma_a^2 + sigma_b^2))`` on decisive games, each with
  the paired difference between the models and its 95% interval (over games);
- places: the mean Spearman correlation between the order of ``mu`` and the places;
- and how well each model's final ``mu`` orders the players by their true strength (Spearman
  against each player's mean team points per game over the whole run).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from engine.actions import Action
from engine.ai import make_player, play_game
from engine.game import Game, Options, Phase
from engine.observation import Observation
from engine.rating import BETA, PLACES, TEAMS, Entry, Model, Rating, rate_game, team_ranks
from engine.scoring import PLACE_POINTS, team_of

CARELESSNESS = (0.0, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5)


@dataclass(frozen=True, slots=True)
class Profile:
    """A simulated player: an AI ``kind`` that plays a random action with probability ``eps``."""

    kind: str
    eps: float


def pool(players: int) -> list[Profile]:
    """``players`` profiles: the hint and the expert policy, each at every carelessness."""
    return [
        Profile(("hint", "expert")[i % 2], CARELESSNESS[(i // 2) % len(CARELESSNESS)])
        for i in range(players)
    ]


class CarelessPlayer:
    """The AI of ``profile.kind``, but a random legal action with probability ``eps``."""

    def __init__(self, profile: Profile, seed: int) -> None:
        self.player = make_player(profile.kind, seed)
        self.eps = profile.eps
        self.rng = random.Random(seed)

    def act(self, obs: Observation) -> Action:
        if self.eps and self.rng.random() < self.eps:
            return self.rng.choice(obs.legal_actions)
        return self.player.act(obs)

    def choose_return(self, returnable: Sequence[int], n: int) -> str:
        return self.player.choose_return(returnable, n)


def play(task: tuple[int, tuple[int, ...], tuple[Profile, ...]]) -> tuple[int, ...]:
    """One game of the players ``seated`` (pool indexes, seat 0 to 5): the six places."""
    seed, seated, profiles = task
    players = [CarelessPlayer(profiles[p], seed * 6 + s) for s, p in enumerate(seated)]
    for attempt in range(100):
        game = Game.from_deal(seed + 1_000_000 * attempt, Options())
        play_game(game, players)
        if game.phase == Phase.FINISHED:
            return tuple(p or 0 for p in game.places)
    raise RuntimeError(f"game {seed} was void 100 times")


def schedule(games: int, players: int, seed: int) -> list[tuple[int, ...]]:
    """Who sits where in each game: six players of the pool, in random seats."""
    rng = random.Random(seed)
    return [tuple(rng.sample(range(players), 6)) for _ in range(games)]


def play_all(
    games: int, players: int, seed: int, jobs: int
) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
    """Play the games of a run: who sat where, and the places."""
    profiles = tuple(pool(players))
    seating = schedule(games, players, seed)
    tasks = [(seed * 100_000 + n, seated, profiles) for n, seated in enumerate(seating)]
    if jobs > 1:
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(jobs) as workers:
            return seating, workers.map(play, tasks, chunksize=20)
    return seating, [play(task) for task in tasks]


def phi(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2))


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Spearman's rank correlation (average ranks for ties)."""

    def ranks(values: Sequence[float]) -> list[float]:
        order = sorted(range(len(values)), key=lambda i: values[i])
        out = [0.0] * len(values)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
                j += 1
            for k in range(i, j + 1):
                out[order[k]] = (i + j) / 2
            i = j + 1
        return out

    rx, ry = ranks(xs), ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    var = math.sqrt(sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry))
    return cov / var if var else 0.0


def auc(scores: Sequence[float], wins: Sequence[bool]) -> float:
    """The probability that a won game scored above a lost one (ties a half)."""
    pairs = sorted(zip(scores, wins, strict=True))
    pos = sum(wins)
    neg = len(wins) - pos
    rank_sum, i = 0.0, 0
    while i < len(pairs):
        j = i
        while j + 1 < len(pairs) and pairs[j + 1][0] == pairs[i][0]:
            j += 1
        average = (i + j) / 2 + 1
        rank_sum += average * sum(1 for k in range(i, j + 1) if pairs[k][1])
        i = j + 1
    return (rank_sum - pos * (pos + 1) / 2) / (pos * neg) if pos and neg else 0.5


@dataclass
class Scores:
    """A model's predictions of the games after the warm-up."""

    right: float = 0.0
    decisive: int = 0
    log_loss: list[float] | None = None
    brier: list[float] | None = None
    margins: list[float] | None = None
    wins: list[bool] | None = None
    place_rho: float = 0.0
    counted: int = 0

    def __post_init__(self) -> None:
        self.log_loss, self.brier, self.margins, self.wins = [], [], [], []


def evaluate(
    seating: Sequence[tuple[int, ...]], places: Sequence[tuple[int, ...]], mode: str, warmup: int
) -> tuple[Scores, dict[int, Rating]]:
    """Rate the games in order with ``mode``, predicting each one first."""
    model = Model(mode=mode)
    ratings: dict[str, Rating] = {}
    scores = Scores()
    for n, (seated, placed) in enumerate(zip(seating, places, strict=True)):
        lineup = [Entry(str(p), placed[s]) for s, p in enumerate(seated)]
        now = [ratings.get(str(p)) or model.initial() for p in seated]
        if n >= warmup:
            predict(scores, now, lineup)
        ratings.update(rate_game(ratings, lineup, model))
    return scores, {int(k): v for k, v in ratings.items()}


def predict(scores: Scores, now: Sequence[Rating], lineup: Sequence[Entry]) -> None:
    assert scores.log_loss is not None and scores.brier is not None
    assert scores.margins is not None and scores.wins is not None
    mu = [sum(now[s].mu for s in range(t, 6, 2)) for t in (0, 1)]
    var = [sum(now[s].sigma ** 2 for s in range(t, 6, 2)) for t in (0, 1)]
    scores.counted += 1
    scores.place_rho += spearman([-r.mu for r in now], [e.place for e in lineup])
    ranks = team_ranks(lineup)
    if ranks[0] == ranks[1]:
        return
    won = ranks[0] < ranks[1]
    p = phi((mu[0] - mu[1]) / math.sqrt(2 * BETA**2 + var[0] + var[1]))
    p = min(max(p, 1e-9), 1 - 1e-9)
    scores.decisive += 1
    scores.right += 0.5 if mu[0] == mu[1] else float((mu[0] > mu[1]) == won)
    scores.log_loss.append(-math.log(p if won else 1 - p))
    scores.brier.append((p - won) ** 2)
    scores.margins.append((mu[0] - mu[1]) / math.sqrt(2 * BETA**2 + var[0] + var[1]))
    scores.wins.append(won)


def losses_at(scale: float, margins: Sequence[float], wins: Sequence[bool]) -> list[float]:
    """Each game's log loss of ``Phi(scale * margin)``."""
    out = []
    for m, won in zip(margins, wins, strict=True):
        p = min(max(phi(scale * m), 1e-12), 1 - 1e-12)
        out.append(-math.log(p if won else 1 - p))
    return out


def best_scale(margins: Sequence[float], wins: Sequence[bool]) -> float:
    """The scale of the margins with the least log loss (golden-section search)."""
    lo, hi = 0.01, 4.0
    g = (math.sqrt(5) - 1) / 2
    for _ in range(60):
        a, b = hi - g * (hi - lo), lo + g * (hi - lo)
        if sum(losses_at(a, margins, wins)) < sum(losses_at(b, margins, wins)):
            hi = b
        else:
            lo = a
    return (lo + hi) / 2


def calibrated_losses(margins: Sequence[float], wins: Sequence[bool]) -> list[float]:
    """Each game's log loss once the model's margins are rescaled, cross-validated: the
    scale fitted on the odd games scores the even ones and the other way round."""
    out = [0.0] * len(margins)
    for k in (0, 1):
        scale = best_scale(margins[1 - k :: 2], wins[1 - k :: 2])
        out[k::2] = losses_at(scale, margins[k::2], wins[k::2])
    return out


def auc_difference(a: Scores, b: Scores, rounds: int, seed: int) -> tuple[float, float, float]:
    """AUC of ``a`` minus that of ``b`` and its 95% bootstrap interval (games resampled)."""
    assert a.margins and a.wins and b.margins and b.wins
    rng = random.Random(seed)
    n = len(a.margins)
    diffs = []
    for _ in range(rounds):
        pick = [rng.randrange(n) for _ in range(n)]
        wins = [a.wins[i] for i in pick]
        diffs.append(
            auc([a.margins[i] for i in pick], wins) - auc([b.margins[i] for i in pick], wins)
        )
    diffs.sort()
    point = auc(a.margins, a.wins) - auc(b.margins, b.wins)
    return point, diffs[int(0.025 * rounds)], diffs[int(0.975 * rounds) - 1]


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values)


def paired(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """Mean of a − b and the half-width of its 95% interval."""
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    mean = sum(diffs) / len(diffs)
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1))
    return mean, 1.96 * sd / math.sqrt(len(diffs))


def true_strength(
    seating: Sequence[tuple[int, ...]], places: Sequence[tuple[int, ...]], players: int
) -> list[float]:
    """Each player's mean team place points per game over the run."""
    total, count = [0.0] * players, [0] * players
    for seated, placed in zip(seating, places, strict=True):
        team = [0, 0]
        for s in range(6):
            team[team_of(s)] += PLACE_POINTS[placed[s]]
        for s, p in enumerate(seated):
            total[p] += team[team_of(s)]
            count[p] += 1
    return [t / c if c else 0.0 for t, c in zip(total, count, strict=True)]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--players", type=int, default=16)
    parser.add_argument("--warmup", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--bootstrap", type=int, default=200, help="resamples of the AUC")
    parser.add_argument("--save", default=None, help="write the games played to this JSON file")
    parser.add_argument("--load", default=None, help="rate the games of a --save file instead")
    args = parser.parse_args(argv)
    if args.players < 6 or args.games <= args.warmup + 1:
        parser.error("--players must be at least 6 and --games more than --warmup + 1")
    start = time.perf_counter()
    if args.load:
        with open(args.load, encoding="utf-8") as f:
            saved = json.load(f)
        seating = [tuple(s) for s in saved["seating"]]
        places = [tuple(p) for p in saved["places"]]
        args.games, args.players = len(seating), saved["players"]
    else:
        seating, places = play_all(args.games, args.players, args.seed, args.jobs)
    played = time.perf_counter() - start
    if args.save:
        with open(args.save, "w", encoding="utf-8") as f:
            json.dump({"players": args.players, "seating": seating, "places": places}, f)
    strength = true_strength(seating, places, args.players)
    print(
        f"{args.games} games of {args.players} simulated players (hint/expert, carelessness "
        f"0–0.5), seed {args.seed}, played in {played:.0f} s; predictions over games "
        f"{args.warmup + 1}–{args.games}"
    )
    results = {}
    for mode in (TEAMS, PLACES):
        results[mode] = evaluate(seating, places, mode, args.warmup)
    for mode, (s, final) in results.items():
        assert s.log_loss and s.brier and s.margins and s.wins
        order = spearman([final[p].mu for p in range(args.players)], strength)
        print(
            f"{mode:>6}: winner {100 * s.right / s.decisive:.1f}% of {s.decisive} decisive games, "
            f"AUC {auc(s.margins, s.wins):.3f}, log loss {sum(s.log_loss) / len(s.log_loss):.4f}, "
            f"Brier {sum(s.brier) / len(s.brier):.4f}, "
            f"calibrated log loss {mean(calibrated_losses(s.margins, s.wins)):.4f}, "
            f"places rho {s.place_rho / s.counted:.3f}, "
            f"final order vs strength rho {order:.3f}"
        )
    teams, places_ = results[TEAMS][0], results[PLACES][0]
    assert teams.log_loss and places_.log_loss and teams.brier and places_.brier
    assert teams.margins and teams.wins and places_.margins and places_.wins
    for name, a, b in (
        ("log loss", teams.log_loss, places_.log_loss),
        ("Brier", teams.brier, places_.brier),
        (
            "calibrated log loss",
            calibrated_losses(teams.margins, teams.wins),
            calibrated_losses(places_.margins, places_.wins),
        ),
    ):
        diff, half = paired(a, b)
        print(f"teams − places, {name}: {diff:+.4f} [{diff - half:+.4f}, {diff + half:+.4f}]")
    point, lo, hi = auc_difference(teams, places_, args.bootstrap, args.seed)
    print(f"teams − places, AUC: {point:+.4f} [{lo:+.4f}, {hi:+.4f}] ({args.bootstrap} resamples)")


if __name__ == "__main__":
    main()
