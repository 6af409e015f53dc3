"""Burning (烧牌, docs/rules.en.md §4): the completable-burn condition, the burn window and its
priority, and the burner's lead restriction — a part of :class:`engine.game.Game`.

>>> burn_completable([0] * 5 + [2] + [0] * 6 + [0, 1, 0], bie_san=False)  # 88 and a B
True
"""

from __future__ import annotations

from collections.abc import Sequence

from .actions import Action, IllegalActionError, NotYourTurnError, Verb
from .cards import BIG_JOKER, SMALL_JOKER, THREE, TWO
from .hands import Play
from .movegen import answer_plays
from .scoring import team_of
from .state import BROKEN, FAILED, ONGOING, SUCCESS, Burn, GameState

__all__ = [
    "BROKEN",
    "FAILED",
    "ONGOING",
    "SUCCESS",
    "Burn",
    "Burning",
    "burn_completable",
    "burn_priority",
    "sets_needed",
]


def sets_needed(counts: Sequence[int], bie_san: bool) -> int:
    """Sets left for the burn condition (§4): distinct ranks other than 2s and jokers; in
    bie-san, 2s beside 3s and no other rank count as one more set."""
    sets = sum(1 for r in range(TWO) if counts[r])
    if bie_san and counts[TWO] and counts[THREE] and sets == 1:
        sets += 1
    return sets


def burn_completable(counts: Sequence[int], bie_san: bool) -> bool:
    """Can a hand still go out in leads that each carry a joker, but the last? (§4)."""
    return sets_needed(counts, bie_san) <= counts[SMALL_JOKER] + counts[BIG_JOKER] + 1


def seeds_count_allows(counts: Sequence[int]) -> bool:
    """The seeds' burn condition (option burn_check "seeds", §9), on the hand before the
    burning play, literally: "除2和大小王外的套牌数 − 大小王的总个数 ≤ 2" (001)."""
    sets = sum(1 for r in range(TWO) if counts[r])
    return sets - (counts[SMALL_JOKER] + counts[BIG_JOKER]) <= 2


def burn_priority(seat: int, burned: int) -> tuple[int, int]:
    """Sort key among seats burning ``burned``'s hand (§4): its own team first, then play
    order after it ("烧牌优先、联邦烧牌优先")."""
    return (0 if team_of(seat) == team_of(burned) else 1, (seat - burned) % 6)


class Burning(GameState):
    """The burn-window part of a game (mixed into :class:`engine.game.Game`)."""

    def burn_plays(self, seat: int) -> list[Play]:
        """The burning plays ``seat`` holds in the open burn window (§4)."""
        if self.window is None or seat not in self.window_seats:
            return []
        return self._burning_plays(seat)

    def _burning_plays(self, seat: int) -> list[Play]:
        counts = self.counts[seat]
        if self.options.burn_check == "seeds":
            if not seeds_count_allows(counts):
                return []
            return answer_plays(counts, self._standing(), self.three_rule[seat])
        out: list[Play] = []
        for p in answer_plays(counts, self._standing(), self.three_rule[seat]):
            after = list(counts)
            for r, n in p.rank_counts():
                after[r] -= n
            if burn_completable(after, self.options.bie_san):
                out.append(p)
        return out

    def _burning_lead(self, seat: int) -> bool:
        """Does ``seat`` lead now while its burn goes on, before the melee lifts the rules?"""
        burn = self.current_burn
        return burn is not None and burn.burner == seat and not self.melee

    def _burn_limits_leads(self, seat: int) -> bool:
        """Only completable burns (the default): the burner's leads are limited (§4)."""
        return self._burning_lead(seat) and self.options.burn_check == "completable"

    def _burn_lead_fails(self, seat: int, play: Play) -> bool:
        """With the seeds' count: a lead without a joker that is not the burner's last hand
        fails the burn (烧失败, 003)."""
        return (
            self.options.burn_check == "seeds"
            and self._burning_lead(seat)
            and not play.jokers
            and play.size != sum(self.counts[seat])
        )

    def _burn_lead_ok(self, seat: int, play: Play) -> bool:
        """During a burn, a lead carries a joker (but the last hand) and keeps it going."""
        if play.size == sum(self.counts[seat]):
            return True
        if not play.jokers:
            return False
        after = list(self.counts[seat])
        for r, n in play.rank_counts():
            after[r] -= n
        return burn_completable(after, self.options.bie_san)

    def _apply_window_answer(self, action: Action) -> None:
        seat, verb = action.seat, action.verb
        if seat not in self.to_act:
            if seat == self.standing_seat:
                raise NotYourTurnError(
                    "burn_deciding_yours", seats=", ".join(map(str, self.to_act))
                )
            if seat in self.window_seats:
                self._refuse_wrong_seat(seat)
            if self.standing_dead:
                raise NotYourTurnError("gou_si_ji", q=self.standing_seat)
            raise NotYourTurnError("burn_deciding", seats=", ".join(map(str, self.to_act)))
        window = self._open_window()
        if verb == Verb.NOBURN:
            window[seat] = None
        elif verb == Verb.BURN:
            play = action.play
            if play not in self._burning_plays(seat):
                raise self._why_not_burn(seat, play)
            window[seat] = play
        else:
            raise IllegalActionError("answer_burn", seat=self.standing_seat)

    def _open_window(self) -> dict[int, Play | None]:
        if self.window is None:
            raise RuntimeError("no burn window is open")
        return self.window

    def _why_not_burn(self, seat: int, play: Play) -> IllegalActionError:
        if not self._holds(seat, play):
            return IllegalActionError("not_held", cards=play)
        if play not in answer_plays(self.counts[seat], self._standing(), self.three_rule[seat]):
            return IllegalActionError("does_not_beat", cards=play, standing=self.standing)
        return IllegalActionError("burn_incomplete", cards=play)

    def _window_outcome(self) -> tuple[int, Play] | None:
        """Close the answered window: the burner who goes first and its play (§4), or None
        when nobody burns."""
        choices = self._open_window()
        self.window, self.window_seats = None, []
        burners = [s for s, p in choices.items() if p is not None]
        if not burners:
            return None
        q = self._standing_seat()
        burner = min(burners, key=lambda s: burn_priority(s, q))
        play = choices[burner]
        assert play is not None
        return burner, play
