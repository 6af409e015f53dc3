"""``gouji play``: a game of Gouji in the terminal, you in seat 0 against five AI players.

    gouji play                       # one game, strong AI, language from the locale
    gouji play --lang en --seed 1    # the same cards every time
    gouji play --series              # a five-game tribute series, with returns (还贡)
    gouji play --auto                # the hint plays for you: watch a whole game
    gouji play --record game.json    # keep the record (gouji replay game.json)

Type plays in card notation (``KK``, ``22777``), ``pass``, ``yield``, ``burn KK``,
``noburn``, ``declare``/``no``; ``?`` for a hint (Enter then plays it), ``help``, ``quit``.
The engine refuses illegal input with a reason in your language and nothing changes.
End of input (Ctrl-D, or the end of a piped file) leaves the table cleanly. At the end of
the game (or series) ``y`` plays another with the next seed, ``n`` stops.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from bot.cli import AI_HELP, ai_kind_arg, lang_choices
from bot.cli.options import add_option_argument, options_from_args

if TYPE_CHECKING:  # the engine loads when a game starts (``gouji --help`` stays fast)
    from engine.actions import Action
    from engine.game import Game
    from engine.options import Options
    from engine.series import ReturnDue, SeriesGame

HUMAN = 0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``gouji play``."""
    parser.add_argument(
        "--lang", choices=lang_choices(), default=None, help="language (default: from the locale)"
    )
    parser.add_argument(
        "--seed", type=int, default=None, help="seed of the deal (default: random, printed)"
    )
    parser.add_argument("--bie-san", action="store_true", help="the bie-san (憋三) variant")
    add_option_argument(parser)
    parser.add_argument(
        "--ai",
        type=ai_kind_arg,
        default="strong",
        help=f"the AI players: {AI_HELP}; default hard",
    )
    parser.add_argument(
        "--series", action="store_true", help="a five-game tribute series instead of one game"
    )
    parser.add_argument(
        "--auto", action="store_true", help="let the hint play your seat too, printing everything"
    )
    parser.add_argument(
        "--record",
        metavar="FILE",
        help="when you stop, write the record of the last game (or series) to FILE, for gouji "
        "replay and bug reports",
    )


def run(args: argparse.Namespace) -> int:
    """Play until the game (or series) ends, the player quits or input ends."""
    from bot.text.terminal import default_lang

    lang = args.lang or default_lang()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 1_000_000)
    session = Session(
        lang=lang, seed=seed, options=options_from_args(args), ai=args.ai, games=5 if args.series else 1,
        auto=args.auto, read=_read_line, write=print,
    )  # fmt: skip
    try:
        return session.run()
    except KeyboardInterrupt:
        print()
        return 130
    except BrokenPipeError:  # e.g. `gouji play --auto | head`: stop quietly
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    finally:
        if args.record:
            _write_record(args.record, session, lang)


def _write_record(path: str, session: Session, lang: str) -> None:
    """Save the session's series record; a file that cannot be written is reported."""
    import json

    try:
        with open(path, "w", encoding="utf-8") as out:
            json.dump(session.record(), out, ensure_ascii=False, indent=1)
    except OSError as exc:
        print(f"gouji play: cannot write {path}: {exc.strerror}", file=sys.stderr)
        return
    from bot.text.langs import text

    print(text(lang, "term.record_note", path=path))


def _read_line(prompt: str) -> str | None:
    """A line from stdin, None at end of input."""
    try:
        return input(prompt)
    except EOFError:
        return None


@dataclass(frozen=True, slots=True)
class Command:
    """What a typed line asks for: ``kind`` is action, hint, help, table, quit, again
    (Enter after a hint) or error; ``text`` the action (``SEAT VERB [CARDS]`` without the
    seat) or the error message."""

    kind: str
    text: str = ""


#: the words typed for what is not a question's answer (and a question's answers' aliases
#: beyond those :func:`_aliases` takes from the questions)
_WORDS = {
    "quit": ("quit", "q", "exit", "退出"),
    "help": ("help", "h", "帮助"),
    "hint": ("?", "？", "hint", "提示"),
    "table": ("t", "table", "牌桌"),
    "pass": ("pass", "p", "过", "不要"),
    "yield": ("yield", "y", "让", "让牌"),
    "noburn": ("noburn", "不烧"),
    "yes": ("yes", "是", "要"),
    "no": ("no", "n", "不", "否"),
    "declare": ("宣",),
}


@cache
def _aliases() -> dict[str, str]:
    """Each typed word → what it means: :data:`_WORDS`, and each question's answers
    (engine.state.QUESTIONS) by their verb and by their buttons' texts that are one word
    (``nodeclare``, 不宣; ``Declare``)."""
    from bot.text.langs import LANGS, text
    from engine.state import QUESTION_ANSWERS

    words = {key: list(typed) for key, typed in _WORDS.items()}
    for verb in QUESTION_ANSWERS:
        said = [verb.value, *(text(lang, f"btn_{verb.value}").lower() for lang in LANGS)]
        words.setdefault(verb.value, []).extend(w for w in said if " " not in w)
    return {word: key for key, typed in words.items() for word in typed}


#: the answers to "play again? (y/n)"
AGAIN_YES = frozenset({"y", "yes", "是", "要", "再来", "好"})
AGAIN_NO = frozenset({"n", "no", "不", "否", "不要", "q", "quit", "退出"})


def parse_input(line: str, phase: str, window: bool, lang: str) -> Command:
    """Turn a typed line into a :class:`Command` for the player's situation: ``phase`` of
    the game (a :class:`Phase`, or ``Verb.RETURN`` while tribute is returned) and whether a
    burn window is open."""
    from bot.service.live import echo
    from bot.service.tables import LONGEST_CARDS
    from bot.text.cards import read_cards
    from bot.text.play import t
    from bot.text.refusals import refusal_text
    from engine.actions import Verb
    from engine.cards import CardError, parse_cards
    from engine.hands import HandError, classify
    from engine.options import Phase
    from engine.state import QUESTION_PHASES, QUESTIONS

    text = line.strip()
    if not text:
        return Command("again")
    if len(text) > LONGEST_CARDS:  # no play is that long (the bot's bound): not read, quoted cut
        return Command("error", t(lang, "unknown", text=echo(text)))
    word = _aliases().get(text.lower())
    if word in ("quit", "help", "hint", "table"):
        return Command(word)
    asked = QUESTIONS[Phase(phase)] if phase in QUESTION_PHASES else None
    if asked is not None:  # 宣点, 革命, 要头: yes or no (or the verb itself, aliased or not)
        answer = word or text.lower()
        if answer in (asked.yes, "yes"):
            return Command("action", asked.yes)
        if answer in (asked.no, "no"):
            return Command("action", asked.no)
    if word in ("pass", "yield", "declare", "nodeclare", "revolt", "norevolt"):
        return Command("action", word)
    if word == "noburn" or (window and word == "no"):
        return Command("action", "noburn")
    verb, rest = "play", text
    head, _, tail = text.partition(" ")
    if head.lower() in ("burn", "烧", "play", "出", "return", "还"):
        verb, rest = {"烧": "burn", "出": "play", "还": "return"}.get(head, head.lower()), tail
    elif text.startswith("烧"):
        verb, rest = "burn", text[1:]
    if phase == Verb.RETURN:
        verb = "return"
    elif window and verb == "play":
        verb = "burn"
    try:
        cards = parse_cards(read_cards(rest))  # the notation, or words ("一对6", "five 10s")
        if not cards:
            return Command("error", t(lang, "unknown", text=text))
        if verb == "return":
            from engine.cards import format_cards

            return Command("action", f"return {format_cards(cards)}")
        return Command("action", f"{verb} {classify(cards)}")
    except CardError as exc:
        if (
            word is None
            and not any(ch.isdigit() for ch in rest)
            and len(rest) > 2
            and rest.isascii()
        ):
            return Command("error", t(lang, "unknown", text=text))
        return Command("error", refusal_text(exc, lang))
    except HandError as exc:
        return Command("error", refusal_text(exc, lang))


class Session:
    """One player at the terminal against five AI players, for ``games`` games (1, or 5 with
    tribute). ``read(prompt)`` returns a line or None at end of input; ``write`` prints."""

    def __init__(
        self, *, lang: str, seed: int, options: Options, ai: str, games: int, auto: bool,
        read: Callable[[str], str | None], write: Callable[[str], None],
    ) -> None:  # fmt: skip
        from bot.cli.demo import DEMO_NAMES
        from bot.text.play import t
        from engine.ai import make_player
        from engine.series import Series

        self.lang, self.seed, self.auto = lang, seed, auto
        self.read, self.write = read, write
        self.ai = ai
        self.series = Series(options, games=games, tribute=games > 1)
        self.players = [make_player(ai, seed * 10 + s) for s in range(6)]
        self.names = [t(lang, "you"), *DEMO_NAMES[1:]]

    # ------------------------------------------------------------------ the loop
    def run(self) -> int:
        """Play everything, then offer another game (or series) with the next seed, until
        the player says no, quits or input ends; 0 then."""
        from bot.text.catalog import text
        from bot.text.options import house_rules
        from bot.text.play import t

        self.write(t(self.lang, "welcome"))
        rules = house_rules(self.lang, self.series.options.changed())
        if rules:
            self.write(text(self.lang, "house_rules", rules=rules))
        while True:
            self.write(t(self.lang, "seed", seed=self.seed))
            left = self._play_series()
            if left is not None:
                self.write(t(self.lang, left))
                return 0
            if self.auto or not self._again():
                return 0
            self._new_series(self.seed + 1)

    def _play_series(self) -> str | None:
        """Play the games of the series; the goodbye text key if the player left."""
        from bot.text.play import t
        from bot.text.terminal import describe_deal, describe_totals

        while not self.series.finished:
            outcome = self._play_deal()
            if outcome is not None:
                return outcome
            current = self._current()
            if current.void:
                self.write(t(self.lang, "void"))
                continue
            self.write("")
            self.write("\n".join(describe_deal(current, self.names, self.lang)))
        if self.series.games_total > 1:
            self.write("")
            self.write("\n".join(describe_totals(self.series, self.names, self.lang)))
        return None

    def _again(self) -> bool:
        """Ask whether to play again (y/n) until the answer is one; no at the end of input."""
        from bot.text.play import t

        key = "p_again_series" if self.series.games_total > 1 else "p_again"
        self.write("")
        while True:
            line = self.read(t(self.lang, key))
            if line is None:
                return False
            answer = line.strip().lower()
            if answer in AGAIN_YES:
                return True
            if answer in AGAIN_NO:
                return False
            self.write(t(self.lang, "again_yes_or_no"))

    def _new_series(self, seed: int) -> None:
        """A fresh series (or game) with the same options, AI players and names."""
        from engine.ai import make_player
        from engine.series import Series

        old = self.series
        self.seed = seed
        self.series = Series(old.options, games=old.games_total, tribute=old.tribute_on)
        self.players = [make_player(self.ai, seed * 10 + s) for s in range(6)]

    def _play_deal(self) -> str | None:
        """Deal, return tribute, play to the end; the goodbye text key if the player left."""
        from bot.text.cards import hand_text
        from bot.text.langs import text
        from bot.text.play import t
        from bot.text.terminal import say, seat_label, tribute_kind_name
        from engine.cards import deal
        from engine.events import tribute_paid
        from engine.game import Phase

        seed = self.seed * 1000 + len(self.series.deals)
        current = self.series.start_game(deal(seed), seed=seed)
        who = [seat_label(self.names, s) for s in range(6)]
        if current.paid:
            items = [say(self.lang, "paid_item", payer=who[p.payer], receiver=who[p.receiver],
                         cards=hand_text(p.cards, self.lang), kind=tribute_kind_name(self.lang, p.kind))
                     for p in tribute_paid(current)]  # fmt: skip
            self.write(t(self.lang, "n_paid", items=text(self.lang, "sep.comma").join(items)))
        while current.pending_return is not None:
            due = current.pending_return
            if due.giver == HUMAN:
                left = self._human_return()
                if left:
                    return left
            else:
                n, returnable = self.series.returnable(due.giver)
                self._apply_return(
                    due.giver, self.players[due.giver].choose_return(returnable, n) if n else ""
                )
        game = current.game
        if game is None:
            raise RuntimeError("the tribute is returned but there is no game")
        while game.phase not in (Phase.FINISHED, Phase.VOID):
            for seat in [s for s in game.to_act if s != HUMAN]:
                if seat in game.to_act:
                    self._apply(game, self.players[seat].act(game.observe(seat)))
            if HUMAN in game.to_act:
                left = self._human_turn(game)
                if left:
                    return left
        return None

    def record(self) -> dict[str, Any]:
        """Everything played so far as a ``gouji-series/1`` record (docs/record.md): per deal the
        hands as dealt with suits, the seed, the tribute returns and the actions."""
        from engine.cards import format_cards

        games = []
        for deal in self.series.deals:
            entry: dict[str, Any] = {
                "hands": [" ".join(map(str, hand)) for hand in deal.dealt],
                "seed": deal.seed,
            }
            returns = [f"{r.giver} return {format_cards(r.cards)}" for r in deal.returns if r.cards]
            if returns:
                entry["returns"] = returns
            entry["actions"] = [str(a) for a in deal.game.actions] if deal.game else []
            games.append(entry)
        return {
            "format": "gouji-series/1",
            "options": self.series.options.to_json(),
            "games_total": self.series.games_total,
            "tribute": self.series.tribute_on,
            "games": games,
        }

    # ------------------------------------------------------------------ applying
    def _current(self) -> SeriesGame:
        """The deal being played."""
        current = self.series.current
        if current is None:
            raise RuntimeError("no deal yet")
        return current

    def _due(self) -> ReturnDue:
        """The tribute return being asked for."""
        due = self._current().pending_return
        if due is None:
            raise RuntimeError("no return is due")
        return due

    def _apply(self, game: Game, action: Action) -> None:
        from bot.text.play import narrate
        from engine.events import changes, snapshot

        before = snapshot(game)
        game.apply(action)
        for line in narrate(changes(before, game, action), self.names, self.lang):
            self.write(line)

    def _apply_return(self, seat: int, cards: str) -> None:
        from bot.text.cards import hand_text
        from bot.text.play import t
        from bot.text.terminal import seat_label
        from engine.actions import Action, Verb

        due = self._due()
        self.series.apply(Action(seat, Verb.RETURN, cards))
        if cards:
            who, to = seat_label(self.names, seat), seat_label(self.names, due.taker)
            shown = hand_text(cards, self.lang)
            self.write(t(self.lang, "n_returned", who=who, cards=shown, to=to))

    # ------------------------------------------------------------------ the player
    def _next_move(
        self, prompt: str, phase: str, window: bool, hint: Callable[[], str], table: str | None
    ) -> str | Leave:
        """Read lines until the player asks for a move: the move as ``VERB [CARDS]``
        (``?`` then Enter gives the hint's move; ``--auto`` takes it at once), or
        :class:`Leave` at ``quit`` or the end of input. Help and the table are shown on
        request; input that is no move is explained."""
        from bot.text.play import hint_text, t

        pending = None
        while True:
            if self.auto:
                move = hint()
                self.write(hint_text(*move.partition(" ")[::2], self.lang))
                return move
            line = self.read(prompt)
            if line is None:
                return Leave("bye_eof")
            command = parse_input(line, phase, window, self.lang)
            if command.kind == "quit":
                return Leave("bye_quit")
            if command.kind == "help":
                self.write(t(self.lang, "help"))
            elif command.kind == "table" and table is not None:
                self.write(table)
            elif command.kind == "hint":
                pending = hint()
                self.write(hint_text(*pending.partition(" ")[::2], self.lang))
            elif command.kind == "again" and pending is not None:
                return pending
            elif command.kind == "error":
                self.write(command.text)
            elif command.kind == "action":
                return command.text

    def _human_turn(self, game: Game) -> str | None:
        """Ask until the player acts legally; the goodbye key if they leave."""
        from bot.text.play import prompt_text, table_text
        from bot.text.refusals import refusal_text
        from engine.actions import Action, IllegalActionError
        from engine.ai import suggest

        obs = game.observe(HUMAN)
        table = table_text(
            obs, self.names, self.lang, self._current().number, self.series.games_total
        )
        self.write("")
        self.write(table)
        prompt = prompt_text(obs, self.names, self.lang)
        while True:
            move = self._next_move(prompt, obs.phase, game.window is not None,
                                   lambda: str(suggest(obs)).split(" ", 1)[1], table)  # fmt: skip
            if isinstance(move, Leave):
                return move.key
            try:
                self._apply(game, Action.parse(f"{HUMAN} {move}"))
                return None
            except IllegalActionError as exc:
                self.write(refusal_text(exc, self.lang))

    def _human_return(self) -> str | None:
        """还贡 by the player: ask for the cards until they are legal."""
        from bot.text.play import hand_groups, t
        from bot.text.refusals import refusal_text
        from bot.text.terminal import seat_label
        from engine.actions import IllegalActionError, Verb
        from engine.ai import choose_return
        from engine.cards import counts_of

        due = self._due()
        n, returnable = self.series.returnable(HUMAN)
        if n == 0:
            self._apply_return(HUMAN, "")
            return None
        hand = self._current().hands[HUMAN]
        table = t(self.lang, "hand", n=len(hand), cards=hand_groups(counts_of(hand), self.lang))
        self.write("")
        self.write(table)
        taker = seat_label(self.names, due.taker)
        shown = hand_groups(returnable, self.lang)
        prompt = t(self.lang, "p_return", n=n, who=taker, cards=shown)
        while True:
            move = self._next_move(prompt, Verb.RETURN, False,
                                   lambda: f"return {choose_return(returnable, n)}", table)  # fmt: skip
            if isinstance(move, Leave):
                return move.key
            verb, _, cards = move.partition(" ")
            if verb != "return":
                self.write(t(self.lang, "unknown", text=move))
                continue
            try:
                self._apply_return(HUMAN, cards)
                return None
            except (IllegalActionError, ValueError) as exc:
                self.write(refusal_text(exc, self.lang))


@dataclass(frozen=True, slots=True)
class Leave:
    """The player left: ``key`` names the goodbye text (quit or end of input)."""

    key: str
