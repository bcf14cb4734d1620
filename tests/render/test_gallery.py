"""The pictures in docs/ are what ``python -m bot.gallery`` makes, byte for byte.

The command is run as a user runs it (its own process, another hash seed than the one that
wrote the committed files), into a temporary folder; every committed picture must be among
what it writes and equal to it. After a deliberate change of appearance:

    .venv/bin/python -m bot.gallery docs/images

then look at every picture before committing them.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

from PIL import Image

from bot import gallery
from bot.render.scene import ChartScene, ReplayScene, RoundEndScene, TableScene
from rummy_engine import Rules, Variant

ROOT = Path(__file__).resolve().parents[2]
DOCS_IMAGES = ROOT / "docs" / "images"
#: The pictures the README and docs/ show (their file names are referenced there).
EXPECTED = {
    "table.png",
    "hand.png",
    "round-end.png",
    "basic-6-seats.png",
    "rummy51-finished.png",
    "basic-round-end.png",
    "table-fr.png",
    "round-end-fr.png",
    "replay.gif",
    "replay-fr.gif",
    "score-chart.png",
    "score-chart-fr.png",
    "rating-chart.png",
    "rating-chart-fr.png",
}
#: A replay in the README loads on a phone's data too.
REPLAY_BYTES = 400_000


def pictures(folder: Path) -> list[Path]:
    return [*folder.glob("*.png"), *folder.glob("*.gif")]


def test_the_committed_pictures_are_what_the_command_makes(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONHASHSEED": "1234"}
    done = subprocess.run(
        [sys.executable, "-m", "bot.gallery", str(tmp_path)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    made = {path.name for path in pictures(tmp_path)}
    committed = {path.name for path in pictures(DOCS_IMAGES)}
    assert made >= EXPECTED
    assert committed == made, "docs/images holds pictures the command does not make"
    for name in sorted(made):
        fresh, kept = (tmp_path / name).read_bytes(), (DOCS_IMAGES / name).read_bytes()
        assert fresh == kept, (
            f"docs/images/{name} is not what `python -m bot.gallery docs/images` makes"
        )


def test_the_pictures_are_small() -> None:
    for path in DOCS_IMAGES.glob("*.png"):
        assert path.stat().st_size < 60_000, path
        assert Image.open(io.BytesIO(path.read_bytes())).mode == "P", path
    for path in DOCS_IMAGES.glob("*.gif"):
        assert path.stat().st_size < REPLAY_BYTES, path
        assert getattr(Image.open(io.BytesIO(path.read_bytes())), "n_frames", 1) > 10, path


def test_the_gallery_plays_real_rules() -> None:
    """Scores are against the variant's real limit, and the moments are the ones named."""
    by_file = gallery.scenes_by_file()
    table = by_file["table.png"]
    assert {side.limit for side in table.sides} == {Rules(Variant.R51, 4).limit} == {351}
    assert table.turn_name is not None and len(table.melds) >= 6
    finished = by_file["rummy51-finished.png"]
    assert finished.turn_name is None and not any(seat.is_turn for seat in finished.seats)
    assert {side.limit for side in finished.sides} == {251}
    assert max(side.score for side in finished.sides) >= 251
    basic = by_file["basic-6-seats.png"]
    assert len(basic.seats) == 6 and "6 players" in basic.title
    assert max(len(seat.name) for seat in basic.seats) == 32
    assert by_file["hand.png"].drawn is not None
    basic_end = by_file["basic-round-end.png"]
    assert basic_end.scoring == "gain" and any(p.went_out for p in basic_end.players)
    assert by_file["round-end.png"].scoring == "penalty"
    assert "Manche" in by_file["round-end-fr.png"].title


def test_the_replay_and_the_charts_are_the_bots_own() -> None:
    """The replay is a whole finished round, deal to end, its turns drawn as the table (no hand) and its end; the score
    chart is the finished game's against its limit; the rating chart has a line per variant and
    one for all variants, in the reader's language."""
    by_file = gallery.scenes_by_file()
    for name in ("replay.gif", "replay-fr.gif"):
        replay = by_file[name]
        assert isinstance(replay, ReplayScene) and not replay.still
        kinds = [type(frame.scene) for frame in replay.frames]
        assert kinds[-1] is RoundEndScene and set(kinds[:-1]) == {TableScene}
        assert ("Manche 2" if name.endswith("-fr.gif") else "Round 2") in replay.frames[0].caption
    scores = by_file["score-chart.png"]
    assert isinstance(scores, ChartScene) and scores.limit == 251
    assert max(max(line.values) for line in scores.series) >= 251
    for name, families in (
        ("rating-chart.png", ["Rummy 51", "Basic rummy", "All variants"]),
        ("rating-chart-fr.png", ["Rami 51", "Rami classique", "Toutes les variantes"]),
    ):
        rating = by_file[name]
        assert isinstance(rating, ChartScene) and rating.x_start == 1
        assert [line.name for line in rating.series] == families
        assert len(rating.series[-1].values) == gallery.RATED_GAMES
