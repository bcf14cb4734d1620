"""Review my round (issue 26 item 2) through SimCord: the button on a round summary answers only
its presser, with their own turns; a stranger is refused in a sentence; after a restart the old
summary's button still answers, rebuilt from the stored move log. The reviews, as players read
them in English and French, are saved for the lead (``/work/team/out``) when that folder exists.
"""

from __future__ import annotations

from pathlib import Path

import discord
import pytest

from bot.text import t
from rummy_engine import Phase
from tests.discord.conftest import World, has_button, make_bot
from tests.discord.test_french import speak
from tests.discord.test_play_flow import scripted

OUT = Path("/work/team/out")
REVIEW = "Review my round"


async def round_alice_could_have_won(world: World) -> discord.Message:
    """Basic rummy: alice draws K♦ and could go out (2♣-5♣, 9♦ 9♥ 9♠, discard K♦), but only
    discards; bob draws 8♥ and goes out. Returns round 1's summary."""
    await scripted(
        world,
        "basic",
        "basic",
        ["2c 3c 4c 5c 9d 9h 9s", "5h 6h 7h Qs Qd Qc 2s"],
        stock_top="Kd 8h",
        dealer=1,
    )
    alice, bob = world.players[:2]
    await alice.slash(world.channel, "rummy draw")
    await alice.slash(world.channel, "rummy discard", card="Kd")
    await bob.slash(world.channel, "rummy draw")
    await bob.slash(world.channel, "rummy lay", melds="5h 6h 7h 8h | Qs Qd Qc")
    game = (await world.table()).require_game()
    if game.phase is Phase.PLAY:
        await bob.slash(world.channel, "rummy discard", card="2s")
    assert (await world.table()).require_game().phase in (Phase.ROUND_OVER, Phase.GAME_OVER)
    (summary,) = [m for m in world.public_messages() if has_button(m, REVIEW)]
    assert summary.attachments[0].filename.startswith("round-")
    return summary


async def round_of_chances(world: World) -> discord.Message:
    """Rummy 51: alice could open on her turn 1 (bob's opening set the bar at 59) and opens on
    her turn 2, leaves bob's joker on the table (she holds 6♣), throws A♠, which bob lays off on
    his 10♠-K♠ at once, and on her turn 3 could go out (2♦-6♦, discard 6♣) but discards 2♦;
    bob goes out. Returns round 1's summary."""
    await scripted(
        world,
        "r51",
        "1v1",
        ["Jh Qh Kh Ah 9d 9c 9s 6c As 2d 3d 4d", "10s Js Qs Ks 5c JK 7c 3h 4s 8h 8s 8d"],
        stock_top="Qd 2h 6d 5d Kc",
        dealer=1,
    )
    alice, bob = world.players[:2]
    steps = [
        (bob, "rummy lay", {"melds": "10s Js Qs Ks | 5c JK 7c"}),
        (bob, "rummy discard", {"card": "3h"}),
        (alice, "rummy draw", {}),
        (alice, "rummy discard", {"card": "Qd"}),
        (bob, "rummy draw", {}),
        (bob, "rummy discard", {"card": "2h"}),
        (alice, "rummy draw", {}),
        (alice, "rummy lay", {"melds": "Jh Qh Kh Ah | 9d 9c 9s"}),
        (alice, "rummy discard", {"card": "As"}),
        (bob, "rummy draw", {"source": "discard"}),
        (bob, "rummy add", {"meld": 1, "cards": "As"}),
        (bob, "rummy discard", {"card": "4s"}),
        (alice, "rummy draw", {}),
        (alice, "rummy discard", {"card": "2d"}),
        (bob, "rummy draw", {}),
        (bob, "rummy lay", {"melds": "8h 8s 8d"}),
        (bob, "rummy discard", {"card": "Kc"}),
    ]
    for player, command, options in steps:
        done = await player.slash(world.channel, command, **options)
        assert done.ephemeral, (command, options, done.response.content)
    assert (await world.table()).require_game().phase in (Phase.ROUND_OVER, Phase.GAME_OVER)
    (summary,) = [m for m in world.public_messages() if has_button(m, REVIEW)]
    return summary


def save(name: str, text: str) -> None:
    if OUT.is_dir():
        (OUT / name).write_text(text + "\n", encoding="utf-8")


async def test_review_answers_only_its_player_and_refuses_a_stranger(world: World) -> None:
    summary = await round_alice_could_have_won(world)
    alice, bob, carol = world.players[:3]
    public_before = [m.content for m in world.public_messages()]

    mine = await alice.click(summary, label=REVIEW)
    assert mine.ephemeral
    text = mine.response.content
    assert text.startswith("**Your round 1, reviewed**")
    assert "Your turn 1: you could have gone out: lay " in text and "then discard K♦" in text
    assert "2♣ 3♣ 4♣ 5♣" in text and "mistake" not in text.split("\n")[1]
    assert "5♥" not in text and "Q♠" not in text, "nothing of bob's hand before he laid it"
    assert [m.content for m in world.public_messages()] == public_before, "nothing public"

    theirs = await bob.click(summary, label=REVIEW)
    assert theirs.ephemeral and "you could have gone out" not in theirs.response.content
    assert t("review.clean") in theirs.response.content

    stranger = await carol.click(summary, label=REVIEW)
    assert stranger.ephemeral and stranger.response.content == t("review.not_player")


async def test_review_works_after_a_restart_and_in_french(
    world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    summary = await round_alice_could_have_won(world)
    alice = world.players[0]
    before = (await alice.click(summary, label=REVIEW)).response.content
    old = world.env.bot
    await world.env.restart_bot(make_bot(db_path))
    await old.close()
    again = await alice.click(summary, label=REVIEW)
    assert again.ephemeral and again.response.content == before

    speak(monkeypatch, world.env, {alice.user.id: "fr"}, {})
    french = (await alice.click(summary, label=REVIEW)).response.content
    assert french.startswith("**Votre manche 1 revue**")
    assert "vous auriez pu finir : poser " in french and "défausser K♦" in french



async def test_a_review_tells_each_kind_of_chance_in_turn_order(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    summary = await round_of_chances(world)
    alice = world.players[0]
    english = (await alice.click(summary, label=REVIEW)).response.content
    lines = english.split("\n")
    assert lines[0].startswith("**Your round 1, reviewed**") and "your 3 turns" in lines[0]
    assert lines[1] == (
        "• Your turn 1: you could have opened with 9♠ 9♣ 9♦ | J♥ Q♥ K♥ A♥ | 2♦ 3♦ 4♦ "
        "(77 points; you needed 59). You opened on your turn 2."
    )
    assert lines[2] == "• Your turn 2: you could have freed the joker of meld 2 with 6♣."
    assert lines[3].startswith("• Your turn 2: you discarded A♠, which meld 1 could already take; bob took it")
    assert lines[4] == "• Your turn 3: you could have gone out: lay 2♦ 3♦ 4♦ 5♦ 6♦, then discard 6♣."
    assert lines[5] == t("review.note")
    save("review-en.txt", english)
    speak(monkeypatch, world.env, {alice.user.id: "fr"}, {})
    french = (await alice.click(summary, label=REVIEW)).response.content
    assert french.split("\n")[4] == (
        "• Votre tour 3 : vous auriez pu finir : poser 2♦ 3♦ 4♦ 5♦ 6♦, puis défausser 6♣."
    )
    save("review-fr.txt", french)
