"""Memory a burst of work takes is given back: the pictures sent leave no garbage cycle behind
(with the collector off, nothing but reference counts frees them), and a quiet bot gives back
what it and its drawing processes hold (``bot/memory.py``; the RSS figures are measured by
``benchmarks/bench_load.py --idle``, not here).
"""

from __future__ import annotations

import ast
import asyncio
import gc
import io
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from bot.features.play.ui.messages import Pictures
from bot.render import examples
from bot.render.drawing import ProcessDrawer, ThreadDrawer
from bot.render.renderer import Renderer
from bot.services.inflight import InFlight
from bot.services.memory import MemoryKeeper
from bot.text import t
from tests.discord.conftest import make_bot
from tests.discord_emulator import emulated_discord
from tests.discord_emulator.launch import process_env
from tests.e2e.test_e2e_crash import connected, deal_a_table, start_bot
from tests.e2e.test_load_budget import quiet


@contextmanager
def collector_off() -> Iterator[None]:
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def sent_buffers_in_cycles() -> int:
    """Buffers that hold their own ``close`` (what ``discord.File.close`` leaves behind)."""
    return sum(
        isinstance(o, io.BytesIO) and getattr(vars(o).get("close"), "__self__", None) is o
        for o in gc.get_objects()
    )


async def test_the_pictures_sent_leave_no_reference_cycle(tmp_path: Path) -> None:
    """A table opened and started through the real client (its table picture, the hands in the
    DMs and replies): every picture's buffer is freed when sent, not left for the collector."""
    async with emulated_discord() as emu:
        alice, bob, channel = emu.two_players()
        bot = make_bot(tmp_path / "rummy.db")
        with collector_off():
            async with emu.running(bot):
                await (await emu.slash(alice, channel, "rummy new", variant="r51")).followups(1)
                await (await emu.slash(bob, channel, "rummy join")).followups(1)
                await (await emu.slash(alice, channel, "rummy start")).followups(1)
                await (await emu.slash(alice, channel, "rummy draw", source="stock")).answer()
                await quiet(emu)
                assert any(m.attachments for m in emu.dm_messages(alice)), "pictures were sent"
                assert sent_buffers_in_cycles() == 0


async def test_the_memory_keeper_gives_back_once_per_quiet_spell() -> None:
    """Nothing to give back before any work, nor while work goes on (some began since the last
    look, or is in progress); once, at the first quiet look after it; again after new work."""
    gate, released = InFlight(), []

    async def release() -> None:
        released.append(gate.entered)

    keeper = MemoryKeeper(gate, release)
    assert not await keeper.look(), "no work yet"
    async with gate:
        pass
    assert not await keeper.look(), "work began since the last look"
    assert await keeper.look()
    assert not await keeper.look(), "given back already"
    async with gate:
        assert not await keeper.look(), "work in progress"
        assert not await keeper.look(), "still in progress"
    assert await keeper.look(), "none began since the last look"
    assert released == [1, 2]


async def test_the_memory_keeper_looks_only_after_work_until_it_gave_back() -> None:
    """No look is armed while nothing was done (an idle bot keeps no timer of its own); work
    arms one, which gives back once the work is a quiet spell old and then stops; new work
    arms it again."""
    released: list[int] = []
    gate = InFlight(on_enter=lambda: keeper.poke())

    async def release() -> None:
        released.append(gate.entered)

    keeper = MemoryKeeper(gate, release, quiet=0.02)
    keeper.start()
    assert not keeper.looking, "nothing done yet"
    for pieces in (1, 2):
        async with gate:
            assert keeper.looking
        await asyncio.wait_for(_until(lambda: not keeper.looking), 5)
        assert released == list(range(1, pieces + 1))
    await keeper.stop()
    async with gate:
        assert not keeper.looking, "stopped: work arms nothing"


async def _until(done: Callable[[], bool]) -> None:
    while not done():
        await asyncio.sleep(0.01)


async def test_a_drawing_process_gives_memory_back_and_draws_on() -> None:
    """The release request is answered in turn with the pictures around it, by the same
    process, which draws the same pictures after it."""
    renderer, drawer = Renderer(), ProcessDrawer(1)
    try:
        await drawer.release()  # no process yet: none is started for it
        assert drawer.pids == []
        first = await drawer.png(examples.hand_small())
        (worker,) = drawer.pids
        await drawer.release()
        assert (
            await drawer.png(examples.hand_small())
            == first
            == renderer.render(examples.hand_small())
        )
        assert drawer.pids == [worker]
    finally:
        await drawer.close()


def test_a_quiet_renderer_forgets_the_tables_it_drew_and_draws_them_the_same() -> None:
    """What is kept of the tables drawn lately (their bands, their big pieces) is dropped when
    memory is given back; the card pieces stay, and the same table is drawn byte for byte."""
    renderer = Renderer()
    table, hand = examples.table(5), examples.hand_15()
    drawn = renderer.render(table), renderer.render(hand)
    tiles = renderer._tiles
    assert renderer.bands_kept and tiles is not None and len(tiles._large)
    renderer.forget_tables()
    assert renderer.bands_kept == 0 and len(tiles._large) == 0 and tiles._kept
    assert (renderer.render(table), renderer.render(hand)) == drawn


async def test_quiet_pictures_are_forgotten_but_the_pinned_ones() -> None:
    """The bot's pictures drawn lately are forgotten when memory is given back, but a picture
    another message still waits for (pinned) is kept, and is not drawn again."""
    renderer = Renderer()
    pictures = Pictures(ThreadDrawer(renderer))
    drawings: list[str] = []

    async def paint(key: str) -> bytes:
        drawings.append(key)
        return renderer.render(examples.hand_small())

    await pictures.png("old", lambda: paint("old"))
    with pictures.pinned("awaited"):
        await pictures.png("awaited", lambda: paint("awaited"))
        pictures.forget()
        await pictures.png("awaited", lambda: paint("awaited"))
        await pictures.png("old", lambda: paint("old"))
    assert drawings == ["old", "awaited", "old"]
    await pictures.drawer.close()


def test_the_bots_own_process_loads_neither_pillow_nor_asyncpg() -> None:
    """Its pictures are drawn in its drawing processes: Pillow and the renderer there, not in
    the process that holds every table (about 5 MB of its memory; a season's standings, drawn
    once when it ends, load it then). On SQLite, asyncpg (4 MB) is never needed."""
    probe = (
        "import importlib, pkgutil, sys; import bot.cli, bot.app, cogs\n"
        "for m in pkgutil.iter_modules(cogs.__path__): importlib.import_module('cogs.' + m.name)\n"
        "from bot.storage import make_store; make_store('rummy.db')\n"
        "print(sorted(m for m in sys.modules\n"
        "             if m in ('PIL', 'asyncpg') or m.startswith(('PIL.', 'bot.render.'))))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    loaded = ast.literal_eval(done.stdout.strip())
    assert "PIL" not in loaded and "bot.render.renderer" not in loaded, loaded
    assert "asyncpg" not in loaded, loaded
    assert "bot.render.scene" in loaded, "the scenes are built in the bot's process"


def test_a_postgresql_url_makes_a_postgresql_store() -> None:
    """The store loaded on first use is the one a URL asks for, under the name it always had."""
    from bot.storage import PostgresStore, make_store

    assert isinstance(make_store("postgresql://rummy@127.0.0.1/rummy"), PostgresStore)


def mapped_files(pid: int) -> set[str]:
    """The files a process has mapped: a shared library loaded, or a font file read."""
    lines = Path(f"/proc/{pid}/maps").read_text().splitlines()
    return {line.split()[-1] for line in lines if len(line.split()) >= 6}


def children(pid: int) -> list[int]:
    tasks = Path(f"/proc/{pid}/task").iterdir()
    return [int(c) for t in tasks for c in (t / "children").read_text().split()]


async def test_a_running_bot_draws_only_in_its_drawing_process(tmp_path: Path) -> None:
    """The real ``rummy-bot run``, a table opened and dealt: its check of the drawing
    at start and every picture since were drawn in its drawing process, so neither Pillow nor
    the cards' font is loaded in the process that holds every table."""
    db = tmp_path / "rummy.db"
    async with emulated_discord() as emu:
        alice, bob, channel = emu.two_players()
        bot = start_bot(emu, db)
        try:
            await connected(emu, 1)
            await deal_a_table(emu, alice, bob, channel)
            assert any(m.attachments for m in emu.dm_messages(alice)), "pictures were sent"
            (drawing,) = children(bot.pid)
            pillow = [f for f in mapped_files(drawing) if "PIL/_imaging" in f or f.endswith(".ttf")]
            assert pillow, "the drawing process draws with Pillow and the package's font"
            assert mapped_files(bot.pid).isdisjoint(pillow)
        finally:
            bot.terminate()
            await asyncio.get_running_loop().run_in_executor(None, bot.wait, 20)


async def test_run_stops_in_one_sentence_when_its_drawing_process_cannot_draw(
    tmp_path: Path,
) -> None:
    """Pillow broken where the pictures are drawn: ``run`` says so in one sentence, before it
    opens the database or contacts Discord, and exits 1."""
    broken = tmp_path / "broken" / "PIL"
    broken.mkdir(parents=True)
    (broken / "__init__.py").write_text("raise ImportError('Pillow is broken on this machine')\n")
    db = tmp_path / "rummy.db"
    async with emulated_discord() as emu:
        env = process_env(emu.http_base, emu.gateway_url, emu.token, db)
        env["PYTHONPATH"] = f"{broken.parent}{os.pathsep}{env['PYTHONPATH']}"
        done = await asyncio.to_thread(
            subprocess.run,
            [sys.executable, "-m", "tests.discord_emulator.launch", "run"],
            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60,
        )
        assert not emu.identify_payloads, "Discord was not contacted"
    assert done.returncode == 1
    assert done.stderr.strip() == (
        "rummy-bot: the bot cannot start. "
        + t("doctor.drawing.failed", error="ImportError: Pillow is broken on this machine")
    ), done.stderr
    assert not db.exists(), "the database was not opened"
