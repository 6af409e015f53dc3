"""The hint policy: what a commercial room's 提示 button does, plus sensible answers to every
other question the game asks. Fast (no search): it is the `/gouji hint` suggestion, the
'hint' AI player, and the rollout policy of the strong player.

- Lead: go out if the whole hand is one hand; otherwise the lowest set, whole, with no 2s
  or jokers (a burner adds one joker, a big one if held, so the lead cannot be beaten).
- Answer: never beat a teammate (unless it finishes us); beat an opponent with the cheapest
  hand (fewest jokers, then fewest 2s, then a whole set, then the lowest rank); spend 2s or
  jokers on an opponent's normal hand only while half the wildcards stay in reserve; as the
  opposite of a gouji hand, answer it; yield (让牌) rather than pass or spend wildcards.
- Burn: only an opponent's hand, and only when the burn cannot fail: the burning hand holds
  big jokers (unbeatable) and the big jokers left cover every set left but one.
- Declare with a strong hand; revolt with a hand of few aces and kings; 要头 (keep the
  head, option 够死级) with a strong hand.
- Table options: a burner's lead carries a joker whenever it can (with the seeds' burn
  check a lead without one would fail the burn); in the melee it needs none. A 够死级 hand
  reaches the policy only in a burn window: the engine offers nothing else.

>>> from engine.game import Game
>>> g = Game.from_position(["4455KK", "66", "77", "88", "99", "TT"], leader=0)
>>> str(suggest(g.observe(0)))
'0 play 44'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import compress

from ..actions import Action, Verb
from ..cards import ACE, BIG_JOKER, RANK_LETTERS, SMALL_JOKER, THREE, TWO
from ..game import burn_completable, sets_needed
from ..hands import NO_RANK, Play
from ..movegen import answer_plays
from ..observation import Observation
from ..options import Phase
from ..scoring import team_of
from .view import View, plays_of, view_of_observation

KING = 10
_new = tuple.__new__  # _new(Play, (rank, naturals, twos, small, big)): a Play without the
# namedtuple's Python-level __new__ (the hot paths below make one per decision)


@dataclass(frozen=True, slots=True)
class Style:
    """The knobs of the policy. :data:`HINT` is the 提示 button; :data:`EXPERT`, tuned by
    duplicate matches against it, is the strong player's default and rollout policy."""

    spend_div: int = 2  # spend w wildcards on a normal hand if w * spend_div <= wildcards held
    grab_big: bool = False  # take the lead with an unbeatable hand (big jokers) when it is cheap
    danger: int = 0  # an opponent with at most this many cards left: beat at any cost
    burn_mates: bool = False  # burn a teammate's gouji hand too
    any_burn: bool = False  # burn whenever the burning hand is unbeatable
    lead: str = "low"  # which set to lead: the lowest ("low") or the largest ("big")
    yield_first: bool = False  # yield even when a plain beat is at hand
    save_high: int = 99  # beat a hand of rank below 7 only with ranks below this
    lead_over: int = 0  # an opponent with at most this many cards: lead more cards than it has
    lead_feed: int = 0  # a teammate with at most this many cards: lead what it could beat
    gouji_div: int = 0  # answer a gouji hand only if w * gouji_div <= wildcards held (0: always)
    self_late: int = 0  # with at most this many cards left, beat opponents at any cost


HINT = Style()
# Tuned by duplicate matches against HINT (400 deals, team points per game, ± 0.2): danger=9
# +0.49, save_high=11 +0.34, both +0.62, with lead_over=2 +0.72; answering a gouji hand only
# while it spends at most half the wildcards (gouji_div=2) +1.39; spend_div=3 and
# danger=12 +1.61.
EXPERT = Style(danger=12, save_high=11, lead_over=2, gouji_div=2, spend_div=3)


def wildcards(counts: Sequence[int]) -> int:
    """2s and jokers held: the cards that win leads back."""
    return counts[TWO] + counts[SMALL_JOKER] + counts[BIG_JOKER]


def play_cost(play: Play, counts: Sequence[int]) -> tuple[int, int, int, int, int]:
    """Sort key, cheapest first: jokers, big jokers, 2s, a set broken, then the rank."""
    broken = 1 if play.naturals and play.naturals < counts[play.rank] else 0
    return (play.jokers, play.big, play.twos, broken, play.rank)


def cheapest_beat(
    counts: list[int], standing: Play, three_rule: bool, total: int = -1
) -> Play | None:
    """The cheapest hand from ``counts`` that beats ``standing`` by :func:`play_cost`
    (``min(answer_plays(...), key=play_cost)`` without listing them all), or None;
    ``total``, the cards held, when the caller knows it."""
    srank, snat, stwos, ssmall, sbig = standing
    if stwos or ssmall or sbig:
        if sbig and not ssmall:
            return None  # big jokers and no small joker: nothing beats it
        size = snat + stwos + ssmall + sbig
        need_big = ssmall + sbig if ssmall else 0  # mixed jokers all count as small
        floor = srank if snat else (TWO if stwos else NO_RANK)
        first = floor + 1
        if three_rule and first == THREE:
            first = THREE + 1
    else:  # a plain set, the commonest
        size, need_big, floor, first = snat, 0, srank, srank + 1
    if (total if total >= 0 else sum(counts)) < size:
        return None
    twos, small, big = counts[TWO], counts[SMALL_JOKER], counts[BIG_JOKER]
    row = counts[first : ACE + 1]  # the ranks that may take part (none above aces)
    top = max(row) if row else 0
    # jokers used (j), then big jokers among them (g): the cost's order; for each j the
    # fewest big jokers possible, and j only up to the jokers that can take part
    if need_big:  # small jokers would make the mix small: big jokers only, at least need_big
        j, last = need_big, min(size, big)
    else:
        j, last = 0, min(size, small + big)
    if j < size - top - twos:  # fewer jokers leave more cards than the ranks and 2s give
        j = size - top - twos
    while j <= last:
        g = j if need_big else (j - small if j > small else 0)
        s = j - g
        m = size - j
        j += 1
        if m == 0:
            return _new(Play, (NO_RANK, 0, 0, s, g))
        # the least (2s used, set broken, rank): a whole set of exactly m, else the
        # lowest larger set broken, else the largest smaller set (lowest rank) with 2s
        if top >= m:
            if m in row:
                return _new(Play, (first + row.index(m), m, 0, s, g))
            rank = first
            while counts[rank] <= m:
                rank += 1
            return _new(Play, (rank, m, 0, s, g))
        if top and top + twos >= m:
            return _new(Play, (first + row.index(top), top, m - top, s, g))
        if floor < TWO and twos >= m:  # 2s alone: only when no rank can take part
            return _new(Play, (NO_RANK, 0, m, s, g))
    return None


def whole_hand(counts: Sequence[int], three_rule: bool) -> Play | None:
    """The whole hand as one hand, if it is one (so it can go out in one play)."""
    row = counts[: ACE + 1]
    held = ACE + 1 - row.count(0)  # ranks held
    if held > 1:
        return None
    if not held:
        if not (counts[TWO] or counts[SMALL_JOKER] or counts[BIG_JOKER]):
            return None
        return _new(Play, (NO_RANK, 0, counts[TWO], counts[SMALL_JOKER], counts[BIG_JOKER]))
    rank = row.index(max(row))  # the one rank held
    extra = counts[TWO] + counts[SMALL_JOKER] + counts[BIG_JOKER]
    if three_rule and rank == THREE and extra:
        return None
    return _new(Play, (rank, counts[rank], counts[TWO], counts[SMALL_JOKER], counts[BIG_JOKER]))


def whole_beats(whole: Play, standing: Play, three_rule: bool) -> bool:
    """Whether ``whole``, a whole hand of ``standing``'s size, beats it: ``whole in
    answer_plays(counts, standing, three_rule)`` without listing the plays."""
    srank, snat, stwos, ssmall, sbig = standing
    if sbig and not ssmall:
        return False  # big jokers and no small joker: nothing beats it
    rank, naturals, twos, small, big = whole
    if ssmall and (small or big < ssmall + sbig):
        return False  # each small joker (mixed jokers count as small) meets a big joker
    floor = srank if snat else (TWO if stwos else NO_RANK)
    if naturals:
        return rank > floor and rank >= (THREE + 1 if three_rule else THREE)
    return not twos or floor < TWO


def _after(counts: Sequence[int], play: Play) -> list[int]:
    rest = list(counts)
    for r, n in play.rank_counts():
        rest[r] -= n
    return rest


def lead_candidates(v: View, style: Style = HINT, limit: int = 0) -> list[Play]:
    """A few sensible leads, best first (the hint's choice is the first); with ``limit``,
    at most that many of the plain sets, when there are any (the policy needs one)."""
    c = v.counts
    whole = whole_hand(c, v.three_rule)
    if whole is not None:
        return [whole]
    first = THREE + 1 if v.three_rule else THREE
    ranks = [r for r in range(first, ACE + 1) if c[r]]
    if v.burning and not v.melee:  # the melee lifts the burn rules (§4)
        return _burn_leads(v, [Play(r, c[r], 0, 0, 0) for r in ranks])
    order = _lead_order(ranks, v.seat, c, v.card_counts, style)
    if limit and order:
        order = order[:limit]
    out = [Play(r, c[r], 0, 0, 0) for r in order]
    if limit and out:
        return out
    if c[TWO]:  # the lowest set stretched by the 2s, and the 2s alone
        if ranks:
            out.append(Play(ranks[0], c[ranks[0]], c[TWO], 0, 0))
        out.append(Play(NO_RANK, 0, c[TWO], 0, 0))
    if not out:  # only 3s (bie-san, not last) and wildcards: wildcards first
        out.append(Play(NO_RANK, 0, c[TWO], c[SMALL_JOKER], c[BIG_JOKER]))
    return out


def lead_choice(
    seat: int, c: list[int], three_rule: bool, card_counts: Sequence[int], style: Style
) -> Play:
    """The policy's lead (``lead_candidates(v, style, limit=1)[0]``) for a seat that is not
    burning, on plain values: the rollout simulator calls it without building a view."""
    whole = whole_hand(c, three_rule)
    if whole is not None:
        return whole
    first = THREE + 1 if three_rule else THREE
    ranks = list(compress(range(first, ACE + 1), c[first : ACE + 1]))  # the ranks held
    if ranks:
        rank = _lead_order(ranks, seat, c, card_counts, style)[0]
        return _new(Play, (rank, c[rank], 0, 0, 0))
    if c[TWO]:  # the 2s alone
        return _new(Play, (NO_RANK, 0, c[TWO], 0, 0))
    return _new(Play, (NO_RANK, 0, 0, c[SMALL_JOKER], c[BIG_JOKER]))  # only 3s (bie-san) and jokers


def _lead_order(
    ranks: list[int], seat: int, c: Sequence[int], card_counts: Sequence[int], style: Style
) -> list[int]:
    """The ranks to lead (each as its whole set), best first (``ranks`` is not changed)."""
    order = ranks
    if style.lead == "big" and order:
        order = sorted(order, key=lambda r: (-c[r], r))
    if (style.lead_over or style.lead_feed) and order:
        order = _lead_for_table(seat, c, card_counts, style, order)
    return order


def _lead_for_table(
    seat: int, c: Sequence[int], cc: Sequence[int], style: Style, ranks: list[int]
) -> list[int]:
    """Reorder the ranks to lead (each as its whole set) for seats close to going out:
    feed a teammate, starve an opponent."""
    me = seat % 2
    if style.lead_feed:
        mates = [cc[s] for s in range(me, 6, 2) if s != seat and cc[s]]
        if mates and min(mates) <= style.lead_feed:
            fit = [r for r in ranks if c[r] <= min(mates)]
            if fit:
                return fit + [r for r in ranks if r not in fit]
    if style.lead_over:
        short = 0  # the most cards of an opponent with 1 to lead_over cards
        for s in range(1 - me, 6, 2):
            n = cc[s]
            if short < n <= style.lead_over:
                short = n
        if short:
            over = [r for r in ranks if c[r] > short]
            if over:
                return over + [r for r in ranks if r not in over]
    return ranks


def _burn_leads(v: View, sets: list[Play]) -> list[Play]:
    """Leads of a burner: each carries a joker and keeps the burn completable (§4); with
    the seeds' check, any lead with a joker before one without (which fails the burn)."""
    c = v.counts
    joker_options = [(0, 1), (1, 0), (0, 2), (1, 1), (2, 0)]
    out = []
    for s in sets:
        for small, big in joker_options:
            if small <= c[SMALL_JOKER] and big <= c[BIG_JOKER]:
                p = Play(s.rank, s.naturals, 0, small, big)
                if burn_completable(_after(c, p), v.bie_san):
                    out.append(p)
                    break
    if not out:
        out = plays_of(v.legal(), Verb.PLAY)
        out.sort(key=lambda p: (v.burn_seeds and not p.jokers, play_cost(p, c)))
    return out or sets  # no legal lead: only a guessed world can hold such a hand


def choose_answer(v: View, style: Style = HINT) -> Action:
    """Beat, pass or yield on the standing hand."""
    assert v.standing is not None and v.standing_seat is not None
    verb, play = answer_choice(
        v.seat,
        v.counts,
        v.total,
        v.standing,
        v.standing_seat,
        v.three_rule,
        v.restricted,
        v.melee,
        v.card_counts,
        v.can_yield,
        style,
    )
    return Action(v.seat, verb, play)


def answer_choice(
    seat: int,
    c: list[int],
    total: int,
    standing: Play,
    q: int,
    three_rule: bool,
    restricted: bool,
    melee: bool,
    card_counts: Sequence[int],
    can_yield: Callable[[], bool],
    style: Style,
) -> tuple[Verb, Play | None]:
    """:func:`choose_answer` on plain values, as (verb, play or None): the rollout
    simulator calls it without building a view."""
    srank, snat, stwos, ssmall, sbig = standing
    if total == snat + stwos + ssmall + sbig:  # going out beats everything
        whole = whole_hand(c, three_rule)
        if whole is not None and whole_beats(whole, standing, three_rule):
            return Verb.PLAY, whole
    if (q - seat) % 2 == 0:  # a teammate (never the opposite, so no yield either)
        return Verb.PASS, None
    best = cheapest_beat(c, standing, three_rule, total)
    if best is None:
        return (Verb.YIELD if can_yield() else Verb.PASS), None
    brank, _, btwos, bsmall, bbig = best
    used = btwos + bsmall + bbig
    if style.yield_first and can_yield():
        return Verb.YIELD, None
    if used == 0:
        number_rank = srank if snat else (TWO if stwos else NO_RANK)  # standing.number_rank
        if brank >= style.save_high and number_rank < 7 and not restricted:
            return (Verb.YIELD if can_yield() else Verb.PASS), None
        return Verb.PLAY, best
    if can_yield():
        return Verb.YIELD, None
    held = wildcards(c)
    if restricted and (not style.gouji_div or used * style.gouji_div <= held):
        return Verb.PLAY, best
    if used * style.spend_div <= held or melee and used <= held // 2 + 1:
        return Verb.PLAY, best
    if style.danger and card_counts[q] <= style.danger or total <= style.self_late:
        return Verb.PLAY, best
    if style.grab_big:
        plays = answer_plays(c, standing, three_rule)
        grab = [p for p in plays if p.effective_big and p.big == 1 and p.small == 0 and p.twos <= 1]
        if grab:
            return Verb.PLAY, min(grab, key=lambda p: play_cost(p, c))
    return Verb.PASS, None


def choose_burn(v: View, style: Style = HINT) -> Action:
    """Burn an opponent's gouji hand only when the burn cannot fail."""
    seat, c = v.seat, v.counts
    q = v.standing_seat
    if q is not None and (style.burn_mates or team_of(q) != team_of(seat)):
        safe = []
        for p in v.burn_plays():
            rest = _after(c, p)
            if p.effective_big and (
                style.any_burn or sets_needed(rest, v.bie_san) <= rest[BIG_JOKER] + 1
            ):
                safe.append(p)
        if safe:
            return Action(seat, Verb.BURN, min(safe, key=lambda p: play_cost(p, c)))
    return Action(seat, Verb.NOBURN)


def hand_power(counts: Sequence[int]) -> int:
    """A rough strength: big jokers 3, small jokers 2, 2s 1, aces ½."""
    return 3 * counts[BIG_JOKER] + 2 * counts[SMALL_JOKER] + counts[TWO] + counts[ACE] // 2


def choose_declare(seat: int, counts: Sequence[int]) -> Action:
    """宣点 with a strong hand (roughly the top sixth of deals)."""
    return Action(seat, Verb.DECLARE if hand_power(counts) >= 11 else Verb.NODECLARE)


def choose_keephead(seat: int, counts: Sequence[int]) -> Action:
    """要头 (够死级 on) with a strong hand: its first three gouji hands cannot be answered,
    only burned, so wildcards and high sets are worth more than being headless."""
    return Action(seat, Verb.KEEPHEAD if hand_power(counts) >= 6 else Verb.NOKEEPHEAD)


def choose_revolt(seat: int, counts: Sequence[int]) -> Action:
    """革命 with few aces and kings: such a hand would finish late anyway."""
    return Action(seat, Verb.REVOLT if counts[ACE] + counts[KING] <= 3 else Verb.NOREVOLT)


def decide(v: View, style: Style = HINT) -> Action:
    """The policy's action for the seat of ``v`` (which must be asked to act)."""
    if v.phase == Phase.DECLARE:
        return choose_declare(v.seat, v.counts)
    if v.phase == Phase.REVOLT:
        return choose_revolt(v.seat, v.counts)
    if v.phase == Phase.HEAD:
        return choose_keephead(v.seat, v.counts)
    if v.in_window:
        return choose_burn(v, style)
    if v.standing is None:
        return Action(v.seat, Verb.PLAY, lead_candidates(v, style, limit=1)[0])
    return choose_answer(v, style)


def suggest(obs: Observation, style: Style = HINT) -> Action:
    """The hint for ``obs``: always one of ``obs.legal_actions`` (which must not be empty)."""
    if not obs.legal_actions:
        raise ValueError(f"seat {obs.seat} has nothing to do now: it is not asked to act")
    action = decide(view_of_observation(obs), style)
    if action in obs.legal_actions:
        return action
    return obs.legal_actions[0]


def rank_plays(obs: Observation) -> list[Play]:
    """The plays (or burns) of ``obs.legal_actions``, most useful first: the hint's choice,
    then the sensible leads, then the rest cheapest first."""
    plays = plays_of(obs.legal_actions, Verb.PLAY, Verb.BURN)
    if not plays:
        return []
    v = view_of_observation(obs)
    top: list[Play] = []
    hint = suggest(obs)
    if isinstance(hint.cards, Play):
        top.append(hint.cards)
    if v.standing is None and not v.in_window:
        top += lead_candidates(v)
    legal = set(plays)
    head = [p for p in dict.fromkeys(top) if p in legal]
    rest = sorted(legal.difference(head), key=lambda p: play_cost(p, v.counts))
    return head + rest


def choose_return(returnable: Sequence[int], n: int) -> str:
    """还贡: which ``n`` cards to give back, in card notation, from ``returnable`` (the rank
    counts the seat may return, as ``Series.returnable`` gives them): lone cards first (a
    set given away saves a lead), then the lowest ranks; 2s and jokers only when nothing
    else is allowed.

    >>> choose_return([0, 3, 1, 0, 0, 0, 0, 0, 0, 2, 0, 0, 1, 0, 0], 2)
    '45'
    """
    ranks = [r for r in range(15) if returnable[r]]
    plain = [r for r in ranks if r <= ACE] or ranks
    order = sorted(plain, key=lambda r: (returnable[r] > 1, r))
    out: list[int] = []
    for r in order:
        take = min(returnable[r], n - len(out))
        out += [r] * take
        if len(out) == n:
            break
    if len(out) < n:  # wildcards too, lowest first
        for r in ranks:
            if r not in plain:
                out += [r] * min(returnable[r], n - len(out))
    return "".join(RANK_LETTERS[r] for r in sorted(out))
