"""The emulator's chaos plan over real HTTP: what discord.py's own client meets when Discord
answers late, fails a call it carried out, hangs, or limits a route."""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

import aiohttp
import pytest

from tests.discord.conftest import make_bot
from tests.discord_emulator import emulated_discord
from tests.discord_emulator.chaos import Chaos, Fault, GatewayFault, Latency

#: The faults after which Discord lets the session resume (the others identify again).
RESUMABLE = {
    GatewayFault.CLOSE_1000,
    GatewayFault.CLOSE_1001,
    GatewayFault.CLOSE_4000,
    GatewayFault.DROP,
    GatewayFault.INVALID_RESUMABLE,
}


def test_latency_stays_within_its_jitter_and_never_below_zero() -> None:
    chaos = Chaos(seed=3, rest=Latency(0.08, 0.04))
    draws = [chaos.rest_delay() for _ in range(2000)]
    assert 0.04 <= min(draws) < 0.045 and 0.115 < max(draws) <= 0.12
    assert all(d >= 0 for d in (Chaos(rest=Latency(0.01, 0.05)).rest_delay() for _ in range(500)))


def test_a_share_strikes_about_that_fraction_and_a_schedule_exactly_its_count() -> None:
    chaos = Chaos(seed=5)
    chaos.add(Fault.E503, "GET", "/channels/*", share=0.25)
    chaos.add(Fault.E500, "POST", "/channels/*/messages", times=3)
    struck = sum(chaos.pick("GET", "/channels/1", bot_token=True) is not None for _ in range(4000))
    assert 900 < struck < 1100
    posts = [chaos.pick("POST", "/channels/1/messages", bot_token=True) for _ in range(10)]
    assert sum(p is not None for p in posts) == 3 and all(p is not None for p in posts[:3])
    assert chaos.injected["500"] == 3 and chaos.injected["503"] == struck


def test_faults_keep_to_the_calls_discord_gives_them() -> None:
    chaos = Chaos()
    chaos.add(Fault.GLOBAL_429, share=1.0)
    chaos.add(Fault.TOKEN_EXPIRED, share=1.0)
    assert chaos.pick("POST", "/webhooks/1/tok", bot_token=False).fault is Fault.TOKEN_EXPIRED
    assert chaos.pick("GET", "/channels/1", bot_token=True).fault is Fault.GLOBAL_429
    assert chaos.pick("POST", "/interactions/1/tok/callback", bot_token=False) is None


@pytest.mark.parametrize("carried_out", [False, True])
async def test_a_5xx_is_answered_after_the_call_was_carried_out_or_not(carried_out: bool) -> None:
    async with emulated_discord() as emu:
        alice, _, channel = emu.two_players()
        emu.chaos = Chaos(rest=Latency(0.05))
        emu.chaos.add(Fault.E502, "POST", "/channels/*/messages", times=1, carried_out=carried_out)
        url = f"{emu.http_base}/api/v10/channels/{channel.id}/messages"
        headers = {"Authorization": f"Bot {emu.token}"}
        async with aiohttp.ClientSession() as session:
            started = time.monotonic()
            async with session.post(url, json={"content": "hello"}, headers=headers) as answer:
                assert answer.status == 502
            assert time.monotonic() - started >= 0.05
        made = [m.content for m in emu.channel_messages(channel)]
        assert made == (["hello"] if carried_out else [])
        assert [r.fault for r in emu.requests] == [f"502{' carried out' if carried_out else ''}"]
        assert alice


async def test_a_timeout_hangs_then_drops_the_connection() -> None:
    async with emulated_discord() as emu:
        _, _, channel = emu.two_players()
        emu.chaos = Chaos()
        emu.chaos.add(Fault.TIMEOUT, "POST", "/channels/*/messages", times=1, hang=0.2)
        url = f"{emu.http_base}/api/v10/channels/{channel.id}/messages"
        headers = {"Authorization": f"Bot {emu.token}"}
        async with aiohttp.ClientSession() as session:
            # (aiohttp itself sends an idempotent call again on a dropped connection: a POST)
            with pytest.raises(aiohttp.ServerDisconnectedError):
                async with session.post(url, json={"content": "x"}, headers=headers):
                    pass
            async with session.post(url, json={"content": "y"}, headers=headers) as again:
                assert again.status == 200
        assert emu.chaos.injected == Counter({"timeout": 1})
        assert [m.content for m in emu.channel_messages(channel)] == ["y"]


@pytest.mark.parametrize("fault", list(GatewayFault))
async def test_the_bot_comes_back_after_each_gateway_fault_and_misses_nothing_resumable(
    tmp_path: Path, fault: GatewayFault
) -> None:
    """After each fault discord.py reconnects (resuming when Discord lets it); a command
    typed while the connection was down is delivered on resume, as Discord replays it."""
    async with emulated_discord() as emu:
        alice, _, channel = emu.two_players()
        emu.chaos = Chaos(gateway=Latency(0.02, 0.01))
        bot = make_bot(tmp_path / "rummy.db")
        async with emu.running(bot, reconnect=True):
            identified = len(emu.identify_payloads)
            assert await emu.gateway_fault(fault) == 1
            resumable = fault in RESUMABLE
            if resumable:
                await emu.wait_until(lambda: not emu._connections, what="the drop")
                handle = await emu.slash(alice, channel, "rummy-learn rules")
                await emu.wait_until(lambda: emu.resumes == 1, what="the resume", timeout=20)
            else:
                await emu.wait_until(
                    lambda: len(emu.identify_payloads) > identified, what="IDENTIFY", timeout=20
                )
                await emu.wait_until(lambda: bot.is_ready(), what="READY again")
                handle = await emu.slash(alice, channel, "rummy-learn rules")
            answer = await handle.answer(timeout=15)
            assert answer.ephemeral and "51" in answer.content
            assert emu.chaos.injected == Counter({f"gateway {fault.value}": 1})
            assert emu.resumes == (1 if resumable else 0)
