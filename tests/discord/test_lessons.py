"""Lessons you play (``/rummy-learn lessons``) through SimCord: the whole course with right and
wrong answers, a restart in the middle, French, old and foreign presses.

The answers below are written by hand, as a teacher knows them: the bot computes its own from
the engine, so a lesson whose computed answer drifted from the rules fails here.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
from simcord.actors import _component_interaction

from bot.app import RummyBot
from bot.storage import make_store
from bot.storage.base import LessonProgress
from tests.discord.conftest import World, make_bot
from tests.discord.test_french import speak


@pytest.fixture
def simcord_bot(store_url: str | Path) -> RummyBot:
    return make_bot(store_url)


@dataclass(frozen=True)
class Answer:
    """One exercise: how it is answered (pick, yesno, choose), the right and a wrong answer,
    what the engine says of the wrong one, and the right answer as the bot shows it."""

    kind: str
    right: Any
    wrong: Any
    why: str
    shown: str


COURSE: list[tuple[str, int, Answer]] = [
    ("Melds", 1, Answer("pick", ["4♣", "5♣", "6♣", "7♣"], ["4♣", "5♣", "6♠"],
                        "A run stays in one suit: 6♠ is not ♣.", "These cards make it: 4♣ 5♣ 6♣ 7♣.")),
    ("Melds", 2, Answer("pick", ["8♠", "8♥", "8♦"], ["8♠", "8♥", "8♥"],
                        "A set needs different suits, and 8♥ is there twice.",
                        "These cards make it: 8♠ 8♥ 8♦.")),
    ("Melds", 3, Answer("yesno", "No", "Yes", "the Ace is low (A-2-3) or high (Q-K-A), never both",
                        "K♥ A♥ 2♥ is not a run")),
    ("Melds", 4, Answer("yesno", "Yes", "No", "Yes: Q♠ K♠ A♠ is a run.", "Yes: Q♠ K♠ A♠ is a run.")),
    ("Melds", 5, Answer("yesno", "Yes", "No", "Yes: 7♣ JK 9♣ is a run.", "Yes: 7♣ JK 9♣ is a run.")),
    ("Melds", 6, Answer("yesno", "No", "Yes", "at least 2 cards that are not jokers",
                        "at least 2 cards that are not jokers")),
    ("The opening", 1, Answer("choose", "60", "50", "These melds are not worth 50.",
                              "10♥ J♥ Q♥ = 30; K♠ K♥ K♦ = 30: 60 in all.")),
    ("The opening", 2, Answer("choose", "37", "47", "These melds are not worth 47.",
                              "A♥ 2♥ 3♥ = 6; Q♠ K♠ A♠ = 31: 37 in all.")),
    ("The opening", 3, Answer("choose", "39", "49", "These melds are not worth 49.",
                              "5♥ JK 7♥ = 12; 9♠ 9♦ 9♣ = 27: 39 in all.")),
    ("The opening", 4, Answer("pick", ["2♠", "3♠", "4♠", "5♥", "6♥", "7♥", "J♦", "Q♦", "K♦"],
                              ["5♥", "6♥", "7♥"],
                              "An opening in Rummy 51 needs 51 points; these melds make 18.",
                              "One opening that works: 2♠ 3♠ 4♠ | 5♥ 6♥ 7♥ | J♦ Q♦ K♦ (57 points).")),
    ("The opening", 5, Answer("pick", ["9♠", "9♣", "9♦", "5♥", "6♥", "7♥", "8♥", "J♦", "Q♦", "K♦"],
                              ["5♥", "6♥", "7♥", "8♥", "J♦", "Q♦", "K♦"],
                              "Rummy 71 openings need a natural set (no joker); yours has none.",
                              "One opening that works: 9♠ 9♣ 9♦ | JK 5♥ 6♥ 7♥ 8♥ | J♦ Q♦ K♦ (83 points).")),
    ("The opening", 6, Answer("yesno", "No", "Yes",
                              "needs 61 points here: the other side opened with 60, so you need "
                              "one more. These melds make 57.", "the other side opened with 60")),
    ("The opening", 7, Answer("yesno", "Yes", "No", "Yes, that move is allowed now.",
                              "Yes, that move is allowed now.")),
    ("The opening", 8, Answer("choose", "67", "66", "The other side does not need 66 to open here.",
                              "The first opening sets the bar for the other side: 66 points, so "
                              "each of them needs 67 to open.")),
    ("A turn", 1, Answer("yesno", "No", "Yes", "You must draw first", "You must draw first")),
    ("A turn", 2, Answer("yesno", "Yes", "No", "Yes, that move is allowed now.",
                         "Yes, that move is allowed now.")),
    ("A turn", 3, Answer("yesno", "No", "Yes", "needs 51 points; these melds make 18.",
                         "needs 51 points; these melds make 18.")),
    ("A turn", 4, Answer("yesno", "No", "Yes",
                         "You cannot discard 7♠: you took it from the discard pile this turn.",
                         "You cannot discard 7♠")),
    ("A turn", 5, Answer("yesno", "No", "Yes", "lay it on the table this turn before you discard",
                         "lay it on the table this turn before you discard")),
    ("Adding to melds", 1, Answer("pick", ["4♥", "8♥", "9♥"], ["9♥"],
                                  "9♥ cannot extend that run: cards must continue it at either end.",
                                  "These cards make it: 4♥ 8♥ 9♥.")),
    ("Adding to melds", 2, Answer("pick", ["6♦"], ["9♠"],
                                  "9♠ does not free a joker there: give exactly the card the joker "
                                  "stands for.", "6♦ frees it: it is the card the joker stands for.")),
    ("Adding to melds", 3, Answer("yesno", "No", "Yes",
                                  "only the joker of a four-card set can be swapped",
                                  "only the joker of a four-card set can be swapped")),
    ("Adding to melds", 4, Answer("yesno", "Yes", "No", "Yes, that move is allowed now.",
                                  "Yes, that move is allowed now.")),
    ("Going out and the score", 1, Answer("choose", "41", "100", "These cards do not cost 100.",
                                          "In hand, A♥ K♠ JK cost 41 points.")),
    ("Going out and the score", 2, Answer("choose", "100", "41", "These cards do not cost 41.",
                                          "In hand, A♥ K♠ JK cost 100 points.")),
    ("Going out and the score", 3, Answer("choose", "114", "214", "The other side does not pay 214 here.",
                                          "Your partner pays nothing; the two opponents add theirs: "
                                          "14 + 100 = 114.")),
    ("Going out and the score", 4, Answer("choose", "200", "114", "The other side does not pay 114 here.",
                                          "Your partner pays nothing; the two opponents add theirs: "
                                          "100 + 100 = 200.")),
    ("Going out and the score", 5, Answer("choose", "451", "351", "351 is not the limit of this game.",
                                          "The game ends when a side reaches 451 points.")),
    ("Going out and the score", 6, Answer("choose", "300", "600", "600 is not the limit of this game.",
                                          "The game ends when a side reaches 300 points.")),
    ("Going out and the score", 7, Answer("yesno", "Yes", "No",
                                          "Yes: laying down all your cards but one goes out even below "
                                          "the opening's points.", "that is going rummy (rami sec): "
                                          "allowed, and it does not double what the others pay.")),
    ("Basic rummy", 1, Answer("yesno", "No", "Yes",
                              "the Ace is only low here (A-2-3), never after the King.",
                              "Q♥ K♥ A♥ is not a run")),
    ("Basic rummy", 2, Answer("yesno", "Yes", "No", "Yes: A♥ 2♥ 3♥ is a run.",
                              "Yes: A♥ 2♥ 3♥ is a run.")),
    ("Basic rummy", 3, Answer("choose", "18", "28", "These cards do not cost 28.",
                              "In hand, A♥ K♠ 7♦ cost 18 points.")),
    ("Basic rummy", 4, Answer("choose", "86", "43", "The winner does not score 43 here.",
                              "The others hold 43 points, doubled for a rummy: 86.")),
]  # fmt: skip
CHAPTER_SIZES = {
    "Melds": 6,
    "The opening": 8,
    "A turn": 5,
    "Adding to melds": 4,
    "Going out and the score": 7,
    "Basic rummy": 4,
}
KEYS = {
    "Melds": "melds",
    "The opening": "opening",
    "A turn": "turn",
    "Adding to melds": "add",
    "Going out and the score": "score",
    "Basic rummy": "basic",
}
#: The questions without cards (a game's limit): no picture.
NO_PICTURE = {("Going out and the score", 5), ("Going out and the score", 6)}


def components(message: Any) -> list[dict[str, Any]]:
    return [c for row in message.components for c in row["components"]]


def labels(message: Any) -> list[str]:
    return [c.get("label") or c.get("placeholder") or "" for c in components(message)]


def menu(message: Any, press: str) -> dict[str, Any]:
    (found,) = [c for c in components(message) if c["type"] == 3 and f":{press}" in c["custom_id"]]
    return found


async def answer(actor: Any, message: Any, kind: str, given: Any, *, check: str = "Check") -> None:
    """Answer with the game's controls: cards picked in the menu then Check, a button, or a
    value chosen in the menu."""
    if kind == "pick":
        options = menu(message, "pick")["options"]
        values: list[str] = []
        for face in given:
            value = next(
                o["value"]
                for o in options
                if o["label"].split(". ", 1)[1] == face and o["value"] not in values
            )
            values.append(value)
        picked = await actor.select(message, values, custom_id=menu(message, "pick")["custom_id"])
        assert picked.acknowledged
        pressed = await actor.click(message, label=check)
    elif kind == "choose":
        pressed = await actor.select(
            message, [given], custom_id=menu(message, "choose")["custom_id"]
        )
    else:
        pressed = await actor.click(message, label=given)
    assert pressed.acknowledged


async def progress_of(world: World, user_id: int) -> LessonProgress | None:
    return await world.bot.store.get_lesson_progress(user_id)


async def test_the_whole_course_with_right_and_wrong_answers_and_a_restart(
    world: World, store_url: str | Path
) -> None:
    alice = world.players[0]
    opened = await alice.slash(world.channel, "rummy-learn lessons")
    assert opened.ephemeral
    message = opened.response
    assert message.content.startswith("**Chapter 1 of 6: Melds**")
    (picture,) = message.attachments
    assert (await picture.read()).startswith(b"\x89PNG")
    assert picture.description == (  # the alt text names the picture's cards, meld by meld
        "Lesson picture, Melds: 5♥ 6♥ 7♥; 9♠ 9♦ 9♣; Q♥ K♥ A♥; 5♦ JK 7♦."
    )
    restarted = False
    chapter = ""
    for index, (title, number, expected) in enumerate(COURSE):
        if title != chapter:  # the chapter's page first
            chapter = title
            assert f": {title}**" in message.content, message.content
            await alice.click(message, label="Next")
        assert message.content.startswith(
            f"**{title}, exercise {number} of {CHAPTER_SIZES[title]}**"
        ), message.content
        if (title, number) in NO_PICTURE:
            assert message.attachments == []
        else:
            assert message.attachments[0].filename == f"lesson-{KEYS[title]}-{number}.png"
            described = message.attachments[0].description
            assert described.startswith(f"Lesson picture, Exercise {number}: "), described
            assert "your hand" not in described and "Melds found" not in described
        pattern = index % 3  # 0: right at once; 1: wrong, then right; 2: wrong twice
        if pattern == 0:
            await answer(alice, message, expected.kind, expected.right)
            assert "✅ Right!" in message.content and "❌" not in message.content
        else:
            await answer(alice, message, expected.kind, expected.wrong)
            assert "❌ Not quite:" in message.content and expected.why in message.content
            assert "Try again." in message.content and "The answer:" not in message.content
            if title == "The opening" and number == 2 and not restarted:
                message = await restart_and_resume(world, alice, store_url, message)
                restarted = True
            if pattern == 1:
                await answer(alice, message, expected.kind, expected.right)
                assert "✅ Right!" in message.content
            else:
                await answer(alice, message, expected.kind, expected.wrong)
                assert expected.why in message.content
                assert "The answer:" in message.content and expected.shown in message.content
                assert "Try again." not in message.content
        assert labels(message) == ["Next"], labels(message)  # answered: only Next
        if pattern != 2:
            assert expected.shown in message.content
        await alice.click(message, label="Next")
    assert restarted
    assert message.content.startswith("**Course complete.**")
    assert "You are ready for Rummy 51, Rummy 71, Simple, Basic rummy." in message.content
    assert "a coaching note after each of your turns: choose it below" in message.content
    assert labels(message) == ["A practice table…", "Start again"]
    offered = [o["label"] for o in menu(message, "practice")["options"]]
    assert offered[:2] == [
        "Rummy 51: you against a computer",
        "Rummy 51: 2 against 2, with a computer partner",
    ]
    assert offered[-1] == "Basic rummy: you against 2 computers" and len(offered) == 7
    done = await progress_of(world, alice.user.id)
    assert done is not None and done.chapter == "end"
    assert done.finished == tuple(KEYS.values())
    await alice.click(message, label="Start again")
    assert message.content.startswith("**Chapter 1 of 6: Melds**")


async def restart_and_resume(world: World, alice: Any, store_url: str | Path, before: Any) -> Any:
    """Restart the bot mid-exercise: the course resumes at the same exercise (its miss kept),
    and the message from before the restart, now older than the new one's answers, is refused."""
    stored = await progress_of(world, alice.user.id)
    old = world.env.bot
    await world.env.restart_bot(make_bot(store_url))
    await old.close()
    again = await alice.slash(world.channel, "rummy-learn lessons")
    message = again.response
    assert message.content.startswith("**The opening, exercise 2 of 8**"), message.content
    assert "Try again." in message.content  # the miss before the restart counts
    assert await progress_of(world, alice.user.id) == stored
    return message


async def test_an_old_lesson_message_and_someone_elses_press_are_refused(world: World) -> None:
    alice, bob = world.players[:2]
    first = (await alice.slash(world.channel, "rummy-learn lessons")).response
    second = (await alice.slash(world.channel, "rummy-learn lessons")).response  # the same page
    await alice.click(second, label="Next")  # the course moves on: exercise 1
    assert second.content.startswith("**Melds, exercise 1 of 6**")
    moved = await progress_of(world, alice.user.id)
    assert moved is not None and (moved.chapter, moved.item) == ("melds", 1)

    stale = await alice.click(first, label="Next")  # the chapter's page, drawn before
    (refused,) = stale.followups  # acknowledged as an update, then refused privately
    assert refused.ephemeral and refused.content == (
        "This lesson message is out of date and changed nothing: use the newest one, or "
        "/rummy-learn lessons to see where you are."
    )
    assert first.content.startswith("**Chapter 1 of 6: Melds**")  # left as it was
    assert await progress_of(world, alice.user.id) == moved

    third = (await alice.slash(world.channel, "rummy-learn lessons")).response
    await answer(alice, second, "pick", ["4♣", "5♣", "6♠"])  # a miss, on the second message
    stored = await progress_of(world, alice.user.id)
    assert stored is not None and stored.misses == 1
    picked = await alice.select(third, ["0", "1", "3"], custom_id=menu(third, "pick")["custom_id"])
    assert picked.followups[-1].content.startswith("This lesson message is out of date")
    assert await progress_of(world, alice.user.id) == stored

    # bob presses alice's Check (its custom_id reaching the bot from his client)
    await alice.select(second, ["0", "1", "4", "3"], custom_id=menu(second, "pick")["custom_id"])
    check = next(c["custom_id"] for c in components(second) if c.get("label") == "Check")
    foreign = await pressed_by(bob, second, check)
    assert foreign.ephemeral and foreign.response.content == (
        "This lesson belongs to someone else: /rummy-learn lessons opens your own."
    )
    assert await progress_of(world, alice.user.id) == stored
    assert await progress_of(world, bob.user.id) is None
    await alice.click(second, label="Check")  # alice's own press counts
    assert "✅ Right!" in second.content


async def pressed_by(actor: Any, message: Any, custom_id: str) -> Any:
    """A button press carrying ``custom_id`` from ``actor``, on ``message`` whatever it shows
    now (an old message's component, or someone else's private message)."""
    stored = actor._env.backend.get_message(message.channel_id, message.id)
    data = {"custom_id": custom_id, "component_type": 2}
    return await _component_interaction(actor, stored, data)


async def test_a_french_player_reads_the_course_in_french(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice = world.players[0]
    speak(monkeypatch, world.env, {alice.user.id: "fr"}, {})
    message = (await alice.slash(world.channel, "rummy-learn lessons")).response
    assert message.content.startswith("**Chapitre 1 sur 6 : Les combinaisons**")
    assert "Un Suivi se suit dans une couleur" in message.content
    assert labels(message) == ["Suivant"]
    assert "Les combinaisons" in message.attachments[0].description
    await alice.click(message, label="Suivant")
    assert message.content.startswith("**Les combinaisons, exercice 1 sur 6**")
    await answer(alice, message, "pick", ["4♣", "5♣", "6♠"], check="Vérifier")
    assert "❌ Pas tout à fait :" in message.content
    assert "Un Suivi reste dans une seule couleur : 6♠ n’est pas du ♣." in message.content
    assert "Essayez encore." in message.content
    await answer(alice, message, "pick", ["4♣", "5♣", "6♠"], check="Vérifier")
    assert "La réponse :" in message.content
    assert "Ces cartes conviennent : 4♣ 5♣ 6♣ 7♣." in message.content
    assert labels(message) == ["Suivant"]


async def test_lesson_progress_round_trips_on_the_store(store_url: str | Path) -> None:
    """Stored, read back, and changed only from the step it was read at."""
    async with make_store(store_url) as store:
        assert await store.get_lesson_progress(7) is None
        first = LessonProgress(7, "melds", step=1)
        assert await store.save_lesson_progress(first, 0)
        assert await store.get_lesson_progress(7) == first
        assert not await store.save_lesson_progress(replace(first, step=1), 0)  # not anew
        moved = LessonProgress(7, "opening", 3, 1, 2, ("melds",), 2)
        assert await store.save_lesson_progress(moved, 1)
        assert not await store.save_lesson_progress(replace(moved, item=4, step=2), 1)  # stale
        assert await store.get_lesson_progress(7) == moved
        assert await store.get_lesson_progress(8) is None


async def finished_course(world: World, player: Any) -> Any:
    """The end page of a player whose course is stored as finished."""
    done = LessonProgress(player.user.id, "end", finished=tuple(KEYS.values()), step=1)
    assert await world.bot.store.save_lesson_progress(done, 0)
    return (await player.slash(world.channel, "rummy-learn lessons")).response


@pytest.mark.parametrize(
    ("choice", "variant", "seats"),
    [("r51.1v1", "r51", 2), ("r71.2v2", "r71", 4), ("basic.basic", "basic", 3)],
)
async def test_the_course_end_deals_a_coached_practice_table_against_computers(
    world: World, choice: str, variant: str, seats: int
) -> None:
    alice = world.players[0]
    end = await finished_course(world, alice)
    assert end.content.startswith("**Course complete.**")
    chosen = await alice.select(end, [choice], custom_id=menu(end, "practice")["custom_id"])
    assert chosen.ephemeral and chosen.response.content.startswith(
        "Your practice table is dealt below, coaching on"
    )
    table = await world.bot.tables.here(world.guild.id, world.channel.id)
    assert table.variant.value == variant and table.settings.coaching
    assert not table.is_lobby and table.record.host_id == alice.user.id
    assert [s.is_computer for s in table.seats].count(True) == seats - 1
    assert table.seat_of(alice.user.id) is not None
    if variant == "r71":  # the partner, opposite, is a computer
        partner = (table.seat_of(alice.user.id) or 0) + 2
        assert table.is_computer(partner % 4)
    assert any(f"table #{table.id}" in m.content for m in world.public_messages()[-3:])
    assert end.content.startswith("**Course complete.**")  # the lesson message stays


async def test_a_practice_table_where_a_table_is_open_is_refused_and_changes_nothing(
    world: World,
) -> None:
    alice, bob = world.players[:2]
    await bob.slash(world.channel, "rummy new", variant="r51", mode="1v1")
    before = await world.bot.tables.here(world.guild.id, world.channel.id)
    end = await finished_course(world, alice)
    refused = await alice.select(end, ["r51.1v1"], custom_id=menu(end, "practice")["custom_id"])
    assert refused.ephemeral
    assert refused.response.content.startswith(f"This channel already has a table (#{before.id}")
    after = await world.bot.tables.here(world.guild.id, world.channel.id)
    assert after.id == before.id and after.seats == before.seats
