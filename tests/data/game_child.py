"""The child process of the game-level crash test: six hint AIs play a five-game tribute
series into a store, and a restarted child carries on exactly where the store says.

    python -m tests.data.game_child DB SEED [LINGER]

It prints ``ready`` once the store is open, then ``ack GAME_ID INDEX ACTION`` (the
:mod:`tests.data.crashkit` protocol) after each action the store committed, and ``done``
once the series is finished and recorded; then it waits ``LINGER`` seconds before exiting
(so that a parent may kill it after its very last write, too).

Everything is a function of the series seed and of what the store holds: the deals come from
:func:`deal_seed`, the AIs' choices from :func:`ai_seed` (series seed, deal, action index).
A restart rebuilds the live series the way the bot does (``load_active_tables`` →
``export_series_record`` → ``series_from_record``), settles what the killed child could not
(a deal's result, a void deal, the series totals), and plays on.
"""

from __future__ import annotations

import asyncio
import random
import sys
from collections.abc import Callable, Sequence

from data import ProfileUpdate, Store
from data.models import ActiveTable
from engine.actions import Action, Verb
from engine.ai import make_player
from engine.cards import ACE, BIG_JOKER, SMALL_JOKER, TWO, Card, card_sort_key, deal
from engine.record import series_from_record, state_json
from engine.scoring import team_scores
from engine.series import Series, SeriesGame

from .crash_child import print_ack

GUILD, CHANNEL, CREATOR = 1, 77, 1
USERS = tuple(1001 + seat for seat in range(6))  # six users, each with a hint AI standing in
AI_KIND = "hint"
KING = 10
#: The deal dealt rigged (see :func:`rig_void`): two seats without 2s, jokers, aces or
#: kings, who both revolt (the hint AI revolts with at most three aces and kings), so the
#: deal is void and the same game is dealt again.
VOID_DEAL = 2
_HIGH = frozenset({KING, ACE, TWO, SMALL_JOKER, BIG_JOKER})

Ack = Callable[[int, int, str], None]


def deal_seed(series_seed: int, deal_index: int) -> int:
    """The seed of the series' ``deal_index``-th deal (void deals count)."""
    return series_seed * 100 + deal_index


def ai_seed(series_seed: int, deal_index: int, index: int) -> int:
    """The seed of the AI that takes action ``index`` of deal ``deal_index``."""
    return (series_seed * 100 + deal_index) * 10_000 + index


def rig_void(hands: Sequence[Sequence[Card]], avoid: set[int]) -> list[list[Card]]:
    """The hands with the 2s, jokers, aces and kings of two seats not in ``avoid`` (seats
    that receive tribute) swapped for low cards of the other seats: both may revolt."""
    out = [list(hand) for hand in hands]
    rebels = [seat for seat in range(6) if seat not in avoid][:2]
    others = [seat for seat in range(6) if seat not in rebels]
    for rebel in rebels:
        for i, card in enumerate(out[rebel]):
            if card.rank not in _HIGH:
                continue
            other, j = next(
                (o, j) for o in others for j, c in enumerate(out[o]) if c.rank not in _HIGH
            )
            out[rebel][i], out[other][j] = out[other][j], card
    return [sorted(hand, key=card_sort_key) for hand in out]


def next_hands(series_seed: int, series: Series) -> list[list[Card]]:
    """The next deal's hands as dealt, with suits."""
    index = len(series.deals)
    hands = deal(deal_seed(series_seed, index))
    if index == VOID_DEAL:
        hands = rig_void(hands, {owed.receiver for owed in series.owed_next()})
    return hands


def hands_text(hands: Sequence[Sequence[Card]]) -> list[str]:
    """Hands in card notation with suits, as the store keeps them."""
    return [" ".join(str(card) for card in hand) for hand in hands]


def next_position(series: Series) -> tuple[int, int]:
    """Where the next action goes: (deal index, index in that deal's log — returns made
    plus game actions taken)."""
    cur = series.current
    assert cur is not None
    made = sum(due.cards is not None for due in cur.returns)
    return len(series.deals) - 1, made + (len(cur.game.actions) if cur.game else 0)


def next_action(series: Series, series_seed: int) -> Action:
    """What the AIs do next: a tribute return, or one waiting seat's action (which seat,
    in a burn window, is chosen by the same seed)."""
    deal_index, index = next_position(series)
    seed = ai_seed(series_seed, deal_index, index)
    player = make_player(AI_KIND, seed)
    current = series.current
    assert current is not None
    due = current.pending_return
    if due is not None:
        n, allowed = series.returnable(due.giver)
        return Action(due.giver, Verb.RETURN, player.choose_return(allowed, n))
    seat = random.Random(seed).choice(series.to_act)
    assert current.game is not None
    return player.act(current.game.observe(seat))


def deal_over(deal: SeriesGame | None) -> bool:
    """Whether the deal is finished or void (or there is none yet)."""
    return deal is None or deal.finished or deal.void


def game_result(deal: SeriesGame) -> dict:
    """The result the store keeps for a finished deal."""
    assert deal.game is not None
    out = state_json(deal.game)
    out["paid"] = [p.to_json() for p in deal.paid]
    out["returned"] = [r.to_json() for r in deal.returns]
    out["score"] = deal.score()
    return out


def profile_updates(deal: SeriesGame) -> list[ProfileUpdate]:
    """Each user's profile change for a finished deal: team seat points + own penalties."""
    game = deal.game
    assert game is not None
    scores = team_scores(deal.score())
    penalties = deal.penalties()
    return [
        ProfileUpdate(
            user_id=USERS[seat],
            score_delta=scores[seat] + penalties[seat],
            place=game.places[seat],
            opens=int(game.opened[seat]),
            burns=sum(b.burner == seat and b.result == "success" for b in game.burns),
            stifles=sum(by == seat for _, by in game.stifled),
            leaves=int(seat in game.left),
        )
        for seat in range(6)
    ]


async def settle(store: Store, game_id: int, deal: SeriesGame) -> None:
    """Record a deal that just ended: its result (profiles) or that it is void."""
    if deal.void:
        await store.void_game(game_id)
    else:
        await store.record_game_result(GUILD, game_id, profile_updates(deal), game_result(deal))


async def open_table(store: Store) -> ActiveTable:
    """The test's table as :meth:`Store.load_active_tables` gives it, seated and with a
    series (its current one, playing or finished) — made on first use."""
    while True:
        report = await store.load_active_tables()
        assert report.broken == [], report.broken
        mine = [
            a for a in report.tables if (a.table.guild_id, a.table.channel_id) == (GUILD, CHANNEL)
        ]
        if not mine:
            await store.create_table(GUILD, CHANNEL, CREATOR, {"bie_san": False})
            continue
        (active,) = mine
        table_id = active.table.id
        if any(seat.user_id is None for seat in active.seats):
            for seat in range(6):
                await store.set_seat(
                    table_id, seat, user_id=USERS[seat], ai_kind=AI_KIND, standin=True
                )
        if active.table.status == "lobby":
            await store.set_table_status(table_id, "playing")
        if active.series is None:
            await store.start_series(table_id)
            continue
        return active


async def restore(store: Store, active: ActiveTable) -> Series:
    """The live series, rebuilt from the store's record of it."""
    assert active.series is not None
    return series_from_record(await store.export_series_record(active.series.id))


async def play_series(store: Store, series_seed: int, ack: Ack) -> int:
    """Play (or carry on playing) the series to its end; returns the series id."""
    active = await open_table(store)
    assert active.series is not None
    series_id = active.series.id
    if active.series.status == "finished":
        return series_id
    series = await restore(store, active)
    logs = active.games
    assert len(logs) == len(series.deals), "the store and the record disagree on the deals"
    for log, dealt in zip(logs, series.deals, strict=True):
        if log.game.status == "playing" and deal_over(dealt):
            await settle(store, log.game.id, dealt)  # the killed child had no time to
    game_id = logs[-1].game.id if logs else None
    while True:
        if deal_over(series.current):
            if series.finished:
                await store.finish_series(series_id, series.totals())
                return series_id
            hands = next_hands(series_seed, series)
            seed = deal_seed(series_seed, len(series.deals))
            game_id = (await store.start_game(series_id, seed, hands_text(hands))).id
            series.start_game(hands, seed)
        _, index = next_position(series)
        action = next_action(series, series_seed)
        series.apply(action)
        text = str(action)
        assert game_id is not None  # a deal is under way: started above or by the killed child
        ack(game_id, await store.append_action(game_id, text, expected_index=index), text)
        if deal_over(series.current):
            assert series.current is not None
            await settle(store, game_id, series.current)


class LogReplay:
    """The series the deals' action logs give when replayed through the engine alone (no
    store, no record): the independent check of a restored series. For logs that only
    grow (a store's, read again after every kill): each :meth:`extend` applies only the
    entries that are new since the last one."""

    def __init__(self, series_seed: int) -> None:
        self.series_seed = series_seed
        self.series = Series()
        self.logs: list[list[str]] = []  # what has been applied, deal by deal

    def extend(self, logs: Sequence[Sequence[str]]) -> Series:
        """The series ``logs`` give; they must extend the logs of the last call."""
        for index, log in enumerate(logs):
            if index == len(self.logs):
                seed = deal_seed(self.series_seed, index)
                self.series.start_game(next_hands(self.series_seed, self.series), seed)
                self.logs.append([])
            done = self.logs[index]
            assert list(log[: len(done)]) == done, f"deal {index}: the log changed"
            for text in log[len(done) :]:
                self.series.apply(Action.parse(text))
                done.append(text)
        assert len(logs) == len(self.logs), "a deal disappeared from the logs"
        return self.series


def snapshot(series: Series) -> dict:
    """Everything observable about a series, as plain data, to compare two of them."""
    deals = []
    for d in series.deals:
        deals.append(
            {
                "number": d.number,
                "dealt": hands_text(d.dealt),
                "hands": hands_text(d.hands),
                "paid": [p.to_json() for p in d.paid],
                "returns": [(r.giver, r.taker, r.count, r.to_json()["cards"]) for r in d.returns],
                "game": None if d.game is None else state_json(d.game),
                "history": None if d.game is None else [str(a) for a in d.game.actions],
                "score": d.score(),
            }
        )
    return {
        "deals": deals,
        "to_act": series.to_act,
        "finished": series.finished,
        "totals": series.totals(),
        "player_scores": series.player_scores(),
    }


async def main(path: str, series_seed: int, linger: float) -> None:
    async with await Store.open(path) as store:
        print("ready", flush=True)
        await play_series(store, series_seed, print_ack)
        print("done", flush=True)
        await asyncio.sleep(linger)


if __name__ == "__main__":
    db, seed_text, *rest = sys.argv[1:]
    asyncio.run(main(db, int(seed_text), float(rest[0]) if rest else 0.0))
