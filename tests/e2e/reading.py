"""What the learning tests share (``test_e2e_lessons.py``, ``test_e2e_coaching.py``,
``test_e2e_puzzles.py``): a real ``rummy-bot`` process under the loopback emulator, started,
killed and started again on the same database; a press on a private message, waited for until
it is answered; and the checks run on every message each player received, in order.

The checks, which any of these tests fails on:

* no interaction left unanswered (Discord would show "This interaction failed");
* no answer left "thinking…" (a deferred response never replaced);
* no call of the bot refused by Discord (a 4xx or a 5xx);
* no private message (an answer, a DM) that notifies anyone (pings);
* every private answer is to one of the players.

Who a public message may notify depends on the test (a turn notice pings the one to act after
someone else's move): each test checks its own.
"""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.discord_emulator.launch import process_env
from tests.discord_emulator.models import EmuUser, StoredMessage
from tests.discord_emulator.server import DiscordEmulator, InteractionHandle
from tests.e2e.test_e2e_transcript import readable, transcript
from tests.helpers.invariants import ProcessWatch

#: Seconds a press's answer may take (a lesson's picture is drawn in a drawing process, which
#: the first press of a process starts).
ANSWER_SECONDS = 15.0


@dataclass
class BotProcess:
    """``python -m tests.discord_emulator.launch run`` on ``db``, with ``env`` added to its
    environment; its standard error kept in a file beside the database, shown on failure."""

    emu: DiscordEmulator
    db: Path
    env: dict[str, str] = field(default_factory=dict)
    process: subprocess.Popen[bytes] | None = None
    watch: ProcessWatch | None = None
    starts: int = 0

    @property
    def log(self) -> Path:
        return self.db.with_suffix(".stderr")

    async def start(self) -> None:
        """Start the process and wait until it is connected and ready for interactions."""
        assert self.process is None or self.process.poll() is not None, "already running"
        env = process_env(self.emu.http_base, self.emu.gateway_url, self.emu.token, self.db)
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "tests.discord_emulator.launch", "run"],
                cwd=self.db.parent,
                env=env | self.env,
                stdout=subprocess.DEVNULL,
                stderr=log,
            )
        self.starts += 1
        identified = self.starts
        try:
            await self.emu.wait_until(
                lambda: len(self.emu.identify_payloads) >= identified,
                what="IDENTIFY",
                timeout=30,
            )
        except AssertionError:
            raise AssertionError(f"the bot did not connect:\n{self.stderr()}") from None
        await asyncio.sleep(2.5)  # discord.py waits 2 s for the servers before it is ready
        if self.watch is None:  # its start-up migrated the file: the stored table is readable
            self.watch = await ProcessWatch.install(self.emu, self.db)
        else:
            self.emu.step_check = self.watch

    async def kill(self) -> None:
        """SIGKILL: the process dies wherever it is, as in a crash or a machine lost."""
        await self._end(signal.SIGKILL)

    async def stop(self) -> None:
        """SIGTERM: the process shuts down as on a deploy."""
        await self._end(signal.SIGTERM)

    async def _end(self, how: signal.Signals) -> None:
        process = self.process
        assert process is not None and process.poll() is None, "not running"
        if self.watch is not None:
            await self.watch.check()  # what it left, before it goes
            self.emu.step_check = None
        process.send_signal(how)
        await asyncio.get_running_loop().run_in_executor(None, process.wait, 30)

    async def close(self) -> None:
        """End the process if it runs, and the watch (at the end of a test, passed or not)."""
        process = self.process
        if process is not None and process.poll() is None:
            process.terminate()
            await asyncio.get_running_loop().run_in_executor(None, process.wait, 30)
        if self.watch is not None:
            await self.watch.close()

    async def finish(self) -> None:
        """The last step's check, then the process ended (the test passed this far)."""
        assert self.watch is not None
        if self.process is not None and self.process.poll() is None:
            self.emu.step_check = self.watch
            await self.watch.check()
        assert self.watch.watch.checks > 1, "the process's steps were checked"
        await self.close()

    def stderr(self) -> str:
        return self.log.read_text(errors="replace")[-4000:] if self.log.exists() else ""


def components(message: StoredMessage) -> list[dict[str, Any]]:
    """The message's interactive components, in order (a row's children)."""
    return [c for row in message.components for c in row.get("components", [])]


def labels(message: StoredMessage) -> list[str]:
    return [str(c.get("label") or c.get("placeholder") or "") for c in components(message)]


def custom_id(message: StoredMessage, label: str) -> str:
    """The custom_id of the button labelled ``label``."""
    found = [c["custom_id"] for c in components(message) if c.get("label") == label]
    assert len(found) == 1, (label, labels(message))
    return str(found[0])


async def answered(emu: DiscordEmulator, handle: InteractionHandle, before: int) -> StoredMessage:
    """The answer to a press on a private message: that message edited (``before``: its edit
    count before the press), or an answer of the press's own (a new private message)."""
    record = handle.record
    await handle.response(ANSWER_SECONDS)
    kind, source = record.response_type, record.source_message_id
    if kind == 4:  # a message of its own, at once
        assert record.response_message_id is not None
        return emu.get_message(record.channel_id, record.response_message_id)
    if kind == 5:  # "thinking…", then the answer
        return (await handle.followups(1, ANSWER_SECONDS))[0]
    assert source is not None and kind in (6, 7), kind
    message = emu.get_message(record.channel_id, source)
    await emu.wait_until(
        lambda: message.edit_count > before or bool(record.followup_ids),
        what="the press's answer",
        timeout=ANSWER_SECONDS,
    )
    if record.followup_ids:
        return emu.get_message(record.channel_id, record.followup_ids[-1])
    return message


async def click(emu: DiscordEmulator, user: EmuUser, message: StoredMessage, label: str) -> StoredMessage:
    """Press the button ``label`` on ``message``; the answer (see :func:`answered`)."""
    before = message.edit_count
    handle = await emu.click(user, message, custom_id(message, label))
    return await answered(emu, handle, before)


async def select(
    emu: DiscordEmulator, user: EmuUser, message: StoredMessage, cid: str, values: list[str]
) -> StoredMessage:
    before = message.edit_count
    handle = await emu.select(user, message, cid, values)
    return await answered(emu, handle, before)


def problems(emu: DiscordEmulator, names: dict[int, str], *, ok_status: Iterable[int] = ()) -> list[str]:
    """Everything wrong in what the players received (see the module's docstring)."""
    found = []
    for record in emu.interactions.values():
        if not record.responded.is_set():
            found.append(f"interaction {record.id} of {names.get(record.user_id)} never answered: {record.data}")
    for channel_id, messages in emu.messages.items():
        dm = emu.channels[channel_id].is_dm if channel_id in emu.channels else False
        for message in messages:
            if message.loading and not message.deleted:
                found.append(f"message {message.id} left thinking")
            if message.ephemeral and message.interaction_user_id not in names:
                found.append(f"a private answer to no player: {message.content[:80]!r}")
            if (dm or message.ephemeral) and message.pinged:
                found.append(f"a private message that pings: {message.content[:80]!r}")
    allowed = set(ok_status)
    for request in emu.requests:
        if request.status >= 400 and request.status not in allowed:
            found.append(f"{request.method} {request.path} answered {request.status}")
    return found


def check(emu: DiscordEmulator, names: dict[int, str], **how: Any) -> None:
    """Fail with the transcript when :func:`problems` finds anything."""
    found = problems(emu, names, **how)
    if found:
        raise AssertionError("\n".join(found) + "\n\n" + readable(transcript(emu, names), names))


def read_by(emu: DiscordEmulator, names: dict[int, str], reader: str) -> list[tuple[str, str]]:
    """What ``reader`` read, in order: (what, text) of every post and edit they saw, their
    private answers and DMs and everything public."""
    return [
        (what, text)
        for _, who, what, _, text in transcript(emu, names)
        if who in (reader, "everyone")
    ]
