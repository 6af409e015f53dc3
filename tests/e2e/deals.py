"""Deals for end-to-end tests: chosen hands for some seats, the rest of the shoe dealt round."""

from __future__ import annotations

from collections.abc import Callable

from engine.cards import Card, card_sort_key, new_shoe, parse_cards


def rigged(fixed: dict[int, str]) -> Callable[[int], list[list[Card]]]:
    """A deal: each seat of ``fixed`` gets those cards (3s of spades while there are: four of one
    suit make it the first leader), the rest of the shoe goes round the other seats."""

    def deal(seed: int) -> list[list[Card]]:
        shoe = sorted(new_shoe(), key=card_sort_key)
        hands: list[list[Card]] = [[] for _ in range(6)]
        for seat, cards in fixed.items():
            for card in parse_cards(cards):
                same = [c for c in shoe if c.rank == card.rank]
                pick = next((c for c in same if c.rank == 0 and c.suit == "s"), same[0])
                shoe.remove(pick)
                hands[seat].append(pick)
        seat = 0
        for card in shoe:
            while len(hands[seat]) >= 36:
                seat = (seat + 1) % 6
            hands[seat].append(card)
            seat = (seat + 1) % 6
        return [sorted(h, key=card_sort_key) for h in hands]

    return deal
