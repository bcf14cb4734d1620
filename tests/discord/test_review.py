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
    save("review-en.txt", text)

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
    save("review-fr.txt", french)
