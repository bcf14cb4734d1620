"""A coached practice game through the loopback emulator and a real ``rummy-bot`` process: alice
opens a Basic rummy table, seats a computer and turns the lobby's ``coaching`` setting on with
the lobby's own buttons and menus, starts, and plays every turn to the end of the game with
typed moves (the host presses Next round between rounds).

She plays as a learner: in the first round she keeps her melds in hand and throws the computer
cards it can lay off; later, the engine's strategy; and the first time she can go out, she
types a discard that throws the go-out away. Then:

* the go-out guard ("You can go out this turn — discard … anyway?") is asked once in the game,
  before that discard, in her private answer, and nothing is played until she presses
  "Discard … anyway";
* each of her turns ends with exactly the note the coach has for it (the review's findings and
  the open discard, computed here again from the moves the database logged: one "Coach:" line
  when there is something to tell, none otherwise), in the private answer to the move that
  ended the turn and nowhere else; the note costs no call of its own: the only calls that carry
  it are that interaction's answer, and no bot-token call of the game carries a note;
* every message alice and bob received is read: no public message shows a card hidden at the
  time, no one is pinged by a message about their own move, nothing failed or stayed thinking,
  and alice's hand DM shows her hand whenever her turn starts.

The notes' wording for known positions, and an uncoached table, are tested through SimCord:
tests/discord/test_coaching.py.
"""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

from bot.features.play.coaching import note_text, turn_note
from rummy_engine import Action, Discard, Draw, Face, Game, Lay, Phase, player_view
from rummy_engine.actions import Source, action_from_json
from rummy_engine.ai.review import Step, go_out_now
from rummy_engine.ai.tips import open_discard
from rummy_engine.replay import replay
from rummy_engine.strategy import choose_action
from tests.discord.conftest import CARD_TOKEN, command_for
from tests.discord_emulator import emulated_discord
from tests.discord_emulator.models import EmuUser, StoredMessage
from tests.discord_emulator.server import DiscordEmulator, InteractionHandle
from tests.e2e.reading import ANSWER_SECONDS, BotProcess, check, click, components, labels, select

#: The tables' seed: the deal and the computer's play are the same at every run (alice's own
#: choices come from her strategy's generator, seeded alike).
SEED = 2
NAMES = {0: "alice", 1: "Computer 1"}
GUARD = "You can go out this turn — discard {card} anyway?"


@dataclass
class Acted:
    """One of alice's interactions that played a move: its handle, and its answer's message."""

    handle: InteractionHandle
    answer: StoredMessage
    first_request: int


def stored(db: Path) -> tuple[int, Game]:
    with sqlite3.connect(db) as conn:
        table_id, snapshot = conn.execute("SELECT id, snapshot FROM tables").fetchone()
    return table_id, Game.from_json(json.loads(snapshot))


def logged_moves(db: Path) -> list[tuple[int, int | None, dict[str, Any], datetime]]:
    """(seq, actor, action, when) of every move, in order."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT seq, actor_id, action, created_at FROM moves ORDER BY seq").fetchall()
    return [(seq, actor, json.loads(action), datetime.fromisoformat(when)) for seq, actor, action, when in rows]


def learner(game: Game, rng: random.Random) -> Action:
    """alice's move: the engine's strategy, but in the first round she keeps her melds in hand
    (she draws from the stock and lays nothing unless it takes her out) and discards a card
    that the computer can lay off on the table whenever she holds one."""
    action = choose_action(game, rng)
    view = player_view(game, 0)
    if game.round_no > 1 or go_out_now(view) is not None:
        return action
    if game.phase is Phase.DRAW:
        return Draw(0, Source.STOCK)
    if not isinstance(action, Discard | Lay):
        return action
    faces = sorted({c.face for c in view.hand if c.face.text != "JK"}, key=lambda f: f.text)
    for face in faces:
        trial = game.copy()
        trial.apply(Discard(0, face))
        if open_discard(Step(view, Discard(0, face)), player_view(trial, 0), 0) is not None:
            return Discard(0, face)
    return action if isinstance(action, Discard) else Discard(0, faces[-1])


def expected_notes(db: Path, alice: int) -> list[tuple[int, str | None]]:
    """(seq, note) of each of alice's moves that ended her turn: the coach's note for the turn,
    from the views she had before each of its moves (as the coach keeps them), replayed from
    the database's log."""
    moves = logged_moves(db)
    game = replay(moves[0][2]["genesis"], ())
    steps: list[Step] = []
    told: dict[int, set[tuple[Face, int]]] = {}
    found = []
    for seq, actor, data, _ in moves[1:]:
        action = action_from_json(data)
        mover = getattr(action, "seat", None)
        before = player_view(game, 0) if mover == 0 else None
        turn = (game.round_no, game.turn)
        game.apply(action)
        if before is None:
            continue
        assert actor == alice
        steps.append(Step(before, action))
        if (game.round_no, game.turn) != turn or game.phase not in (Phase.DRAW, Phase.PLAY):
            note = turn_note(steps, player_view(game, 0), 0, told.setdefault(turn[0], set()))
            found.append((seq, None if note is None else note_text(note, NAMES, "en")))
            steps = []
    return found


def coach_lines(text: str) -> list[str]:
    return [line for line in text.split("\n") if line.startswith("Coach:")]


def versions(message: StoredMessage) -> Iterator[str]:
    for _, text in message.shown:
        yield text


async def test_a_coached_practice_game_notes_every_turn_and_guards_a_go_out_once(
    tmp_path: Path,
) -> None:
    db = tmp_path / "rummy.db"
    async with emulated_discord() as emu:
        emu.keep_payloads = True
        alice, bob, channel = emu.two_players()
        names = {alice.id: "alice", bob.id: "bob"}
        bot = BotProcess(emu, db, env={"EMULATOR_SEED": str(SEED), "RUMMY_COMPUTER_DELAY_SECONDS": "0"})
        hidden = HiddenCards(emu, db)
        try:
            await bot.start()
            table_id = await open_coached_table(emu, alice, channel, db)
            acted, guarded = await play_the_game(emu, alice, channel, db, table_id, hidden)
            await bot.finish()
        finally:
            await bot.close()
        assert guarded, "the game gave alice a go-out to throw away"
        _, game = stored(db)
        assert game.phase is Phase.GAME_OVER

        # Every note where the coach has one, once, in the answer to the move that ended the turn.
        moves = logged_moves(db)
        mine = [seq for seq, actor, data, _ in moves if actor == alice.id and data.get("seat") == 0]
        assert len(mine) == len(acted), (len(mine), len(acted))
        answer_of = dict(zip(mine, acted, strict=True))
        expected = expected_notes(db, alice.id)
        noted = [seq for seq, note in expected if note is not None]
        assert len(noted) >= 3, f"the learner's game gave the coach something to say: {expected}"
        ending = {seq for seq, _ in expected}
        for seq, note in expected:
            said = coach_lines(answer_of[seq].answer.content)
            assert said == ([note] if note else []), (seq, note, answer_of[seq].answer.content)
        for seq in set(mine) - ending:
            assert not coach_lines(answer_of[seq].answer.content), "a note only at a turn's end"
        told = [text for m in every_message(emu) for text in versions(m) if coach_lines(text)]
        assert len(told) == len(noted), "each note shown once, and never anywhere else"
        # It costs no call: only the turn's own answer carries it, never a bot-token call.
        for seq in noted:
            one = answer_of[seq].handle.record
            carrying = [r for r in emu.requests if "Coach:" in json.dumps(r.json, ensure_ascii=False)]
            mine_only = [r for r in carrying if str(one.id) in r.path or one.token in r.path]
            assert mine_only, seq
        carrying = [r for r in emu.requests if "Coach:" in json.dumps(r.json, ensure_ascii=False)]
        assert len(carrying) == len(noted), [f"{r.method} {r.path}" for r in carrying]
        assert all(r.path.startswith(("/interactions/", "/webhooks/")) for r in carrying)
        # The turns that carried a note made the bot-token calls of any other turn.
        allowed = any_turns_calls(emu, alice, channel)
        for seq in noted:
            window = bot_token_calls(emu, answer_of[seq], acted)
            extra = [c for c in window if not any(fnmatch(c, a) for a in allowed)]
            assert not extra, (seq, extra)

        # The guard: asked once in the whole game, to alice alone.
        asked = [m for m in every_message(emu) if any("You can go out this turn" in v for v in versions(m))]
        assert len(asked) == 1 and asked[0].ephemeral and asked[0].interaction_user_id == alice.id

        check(emu, names)
        assert hidden.checked > 10 and not hidden.found, hidden.found
        assert not pinged_by_own_move(emu, db)
        assert not [m for m in emu.public_messages() if coach_lines(m.content)]
        assert not [m for m in emu.dm_messages(alice) if "Coach" in m.content]


async def open_coached_table(emu: DiscordEmulator, alice: EmuUser, channel: Any, db: Path) -> int:
    """/rummy new (Basic), Add computer (normal), Settings → Coaching → on, Start."""
    opened = await emu.slash(alice, channel, "rummy new", variant="basic")
    await opened.answer(ANSWER_SECONDS)
    await emu.wait_until(lambda: any(m.components for m in emu.public_messages()), what="the lobby")
    lobby = next(m for m in emu.public_messages() if m.components)
    table_id = int(components(lobby)[0]["custom_id"].split(":")[1])
    strength = await click(emu, alice, lobby, "Add computer")
    added = await select(emu, alice, strength, f"rummy:{table_id}:0:addbotas", ["normal"])
    assert added.content == "Computer 1 sits down (normal).", added.content
    settings = await click(emu, alice, lobby, "Settings")
    assert settings.ephemeral
    options = await select(emu, alice, settings, f"rummy:{table_id}:0:setopt", ["coaching"])
    values = [o["value"] for c in components(options) for o in c.get("options", [])]
    assert values == ["on", "off"], values
    chosen = await select(emu, alice, options, f"rummy:{table_id}:0:setval:coaching", ["on"])
    assert chosen.content == "Coaching (unrated practice) is now on.", chosen.content
    started = await click(emu, alice, lobby, "Start")
    assert started.content.startswith("The game has started"), started.content
    return table_id


async def play_the_game(
    emu: DiscordEmulator, alice: EmuUser, channel: Any, db: Path, table_id: int, hidden: HiddenCards
) -> tuple[list[Acted], bool]:
    """alice's moves to the end of the game; what each answered, and whether the guard was
    met (asked, then the discard played with Discard … anyway)."""
    rng = random.Random(SEED)
    acted: list[Acted] = []
    guarded = False
    for _ in range(2000):
        game = await alices_turn(emu, db)
        hidden.look()
        if game.phase is Phase.GAME_OVER:
            return acted, guarded
        if game.phase is Phase.ROUND_OVER:
            button = f"rummy:{table_id}:{game.turn}:next"
            shown = await next_round_button(emu, button)
            await (await emu.click(alice, shown, button)).response(ANSWER_SECONDS)
            await emu.wait_until(lambda: stored(db)[1].phase is not Phase.ROUND_OVER, what="the deal")
            continue
        view = player_view(game, 0)
        if game.phase is Phase.DRAW:
            await hand_dm_shows(emu, alice, view.hand)
        if not guarded and game.phase is Phase.PLAY and len(view.hand) > 1 and go_out_now(view):
            acted.append(await throw_a_go_out(emu, alice, channel, db, game))
            guarded = True
            continue
        name, options = command_for(learner(game, rng))
        first = len(emu.requests)
        handle = await emu.slash(alice, channel, name, **options)
        answer = await handle.answer(ANSWER_SECONDS)
        assert answer.ephemeral and "You can go out" not in answer.content, answer.content
        acted.append(Acted(handle, answer, first))
    raise AssertionError("the game did not end")


async def hand_dm_shows(emu: DiscordEmulator, alice: EmuUser, hand: Any) -> None:
    """alice's hand DM (this round's) shows her hand when her turn starts (it is edited once
    her turn's answer is sent: a moment after the move is stored)."""
    held = sorted(c.face.pretty for c in hand)

    def shown() -> list[str]:
        dms = [m for m in emu.dm_messages(alice) if m.content.startswith("**Your hand**")]
        return sorted(CARD_TOKEN.findall(dms[-1].content)) if dms else []

    try:
        await emu.wait_until(lambda: shown() == held, what="her hand in her DM", timeout=5)
    except AssertionError:
        raise AssertionError(f"her DM shows {shown()}, she holds {held}") from None


async def next_round_button(emu: DiscordEmulator, button: str) -> StoredMessage:
    await emu.wait_until(
        lambda: any(button in m.custom_ids() for m in emu.public_messages()), what="Next round"
    )
    return next(m for m in emu.public_messages() if button in m.custom_ids())


async def alices_turn(emu: DiscordEmulator, db: Path) -> Game:
    """The game once alice is to act, or the round or the game is over."""
    found: list[Game] = []

    def ready() -> bool:
        game = stored(db)[1]
        found[:] = [game]
        return game.phase in (Phase.ROUND_OVER, Phase.GAME_OVER) or game.current == 0

    await emu.wait_until(ready, what="alice's turn", timeout=20)
    return found[0]


async def throw_a_go_out(
    emu: DiscordEmulator, alice: EmuUser, channel: Any, db: Path, game: Game
) -> Acted:
    """alice could go out; she types a discard instead: asked first (nothing played), then
    played with the question's own button, her answer carrying the coach's note."""
    view = player_view(game, 0)
    card = next(c.face for c in view.hand if c.face.text != "JK" and c != game.taken)
    before = len(logged_moves(db))
    handle = await emu.slash(alice, channel, "rummy discard", card=card.text)
    question = await handle.answer(ANSWER_SECONDS)
    assert GUARD.format(card=card.pretty) in question.content, question.content
    assert question.ephemeral and question.interaction_user_id == alice.id
    assert len(logged_moves(db)) == before, "nothing is played before the answer"
    anyway = f"Discard {card.pretty} anyway"
    assert anyway in labels(question) and "Back to my hand" in labels(question), labels(question)
    press_at = len(emu.requests)
    played = await click(emu, alice, question, anyway)
    assert played.id == question.id, "the answer is the same panel, edited"
    await emu.wait_until(lambda: len(logged_moves(db)) > before, what="the discard played")
    assert action_from_json(logged_moves(db)[before][2]) == Discard(0, card)
    assert "Coach: you could have gone out this turn" in played.content, played.content
    assert GUARD.format(card=card.pretty) not in played.content
    press = next(r for r in emu.interactions.values() if r.source_message_id == question.id)
    return Acted(InteractionHandle(emu, press), played, press_at)


def every_message(emu: DiscordEmulator) -> list[StoredMessage]:
    return [m for messages in emu.messages.values() for m in messages]


def bot_token_calls(emu: DiscordEmulator, one: Acted, acted: list[Acted]) -> list[str]:
    """The bot-token calls (not an interaction's answer or its follow-ups) made from the move's
    interaction until alice's next one."""
    later = [a.first_request for a in acted if a.first_request > one.first_request]
    end = min(later, default=len(emu.requests))
    return [
        f"{r.method} {r.path}"
        for r in emu.requests[one.first_request : end]
        if not r.path.startswith(("/interactions/", "/webhooks/"))
    ]


def any_turns_calls(emu: DiscordEmulator, alice: EmuUser, channel: Any) -> list[str]:
    """What any of alice's turns may call with the bot token (as patterns): her hand DM edited,
    or posted at a new round's deal, and a round's summary posted in the channel."""
    dm = emu.dm_channels[alice.id]
    return [
        f"PATCH /channels/{dm}/messages/*",
        f"POST /channels/{dm}/messages",
        f"POST /channels/{channel.id}/messages",
    ]


class HiddenCards:
    """No public message shows a card that was never in the open this round: at each look, the
    posts and edits made since the last one are read for the faces that sit in a hand or the
    stock and have not been in the discard pile or on the table at any move of the round so far
    (replayed from the database's log), a joker aside. A round's end shows the hands: a look
    across one does not read them."""

    def __init__(self, emu: DiscordEmulator, db: Path) -> None:
        self.emu, self.db = emu, db
        self.seen: dict[int, int] = {}
        self.game: Game | None = None
        self.replayed = 1  # the moves applied to ``game``, the game's start included
        self.opened: set[str] = set()  # faces in the open at some move of the round
        self.checked = 0
        self.found: list[str] = []

    @staticmethod
    def faces(cards: Any) -> set[str]:
        return {c.face.pretty for c in cards}

    def _catch_up(self) -> bool:
        """Apply the moves logged since the last look; whether a round ended among them."""
        moves = logged_moves(self.db)
        if self.game is None:
            self.game = replay(moves[0][2]["genesis"], ())
        game, crossed = self.game, False
        for _, _, data, _ in moves[self.replayed :]:
            round_no = game.round_no
            game.apply(action_from_json(data))
            if game.round_no != round_no or game.phase not in (Phase.DRAW, Phase.PLAY):
                crossed, self.opened = True, set()
            self.opened |= self.faces(game.discard)
            self.opened |= {c.face.pretty for meld in game.table for c in meld.meld.cards}
        self.replayed = len(moves)
        return crossed

    def look(self) -> None:
        crossed = self._catch_up()
        fresh: list[tuple[StoredMessage, str]] = []
        for message in every_message(self.emu):
            channel = self.emu.channels.get(message.channel_id)
            if message.ephemeral or channel is None or channel.is_dm:
                continue
            start = self.seen.get(message.id, 0)
            self.seen[message.id] = len(message.shown)
            texts = [text for _, text in message.shown[start:]]
            if texts:
                texts += [a.description or "" for a in message.attachments]
            fresh += [(message, text) for text in texts]
        if crossed:
            return
        assert self.game is not None
        held = set().union(*(self.faces(hand) for hand in self.game.hands), self.faces(self.game.stock))
        secret = {face for face in held - self.opened if face != "JK"}
        for message, text in fresh:
            self.checked += 1
            for face in set(CARD_TOKEN.findall(text)) & secret:
                at = text.index(face)
                self.found.append(
                    f"{face} hidden, shown in message {message.id}: …{text[max(0, at - 160) : at + 60]!r}"
                )


def pinged_by_own_move(emu: DiscordEmulator, db: Path) -> list[str]:
    """Messages that notified a player about their own move: the last move logged before the
    message was posted was theirs (a turn notice pings the one to act after someone else)."""
    moves = logged_moves(db)
    found = []
    for message in every_message(emu):
        if not message.pinged:
            continue
        posted = datetime.fromisoformat(message.timestamp)
        before = [actor for _, actor, _, when in moves if when <= posted]
        if before and before[-1] in message.pinged:
            found.append(f"{message.content[:80]!r} pings the player who just moved")
    return found
