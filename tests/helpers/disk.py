"""A real filesystem that misbehaves on demand, for the database's outage tests.

A small ext4 image mounted through a loop device (``errors=remount-ro``): :meth:`LoopDisk.fill`
takes every free block (writes then fail with ENOSPC), :meth:`LoopDisk.free` gives them back,
:meth:`LoopDisk.break_` makes the kernel remount it read-only as it does after a disk error
(ext4's ``trigger_fs_error``), and :meth:`LoopDisk.repair` does what an operator does then:
unmount, ``e2fsck``, mount again at the same place. Needs root (CI runs as root) and the
e2fsprogs and mount tools of a Debian machine.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def _sh(*command: str) -> str:
    done = subprocess.run(command, check=True, capture_output=True, text=True)
    return done.stdout.strip()


class LoopDisk:
    """An ext4 filesystem of ``size_mb`` MB in ``folder`` (``image`` beside ``mount``)."""

    def __init__(self, folder: Path, size_mb: int = 24) -> None:
        self.image = folder / "disk.img"
        self.mount = folder / "mnt"
        self.size_mb = size_mb
        self._filler = self.mount / "filler"

    def create(self) -> None:
        with self.image.open("wb") as handle:
            handle.truncate(self.size_mb * 10**6)
        _sh("mkfs.ext4", "-q", "-F", str(self.image))
        self.mount.mkdir()
        self._attach()
        self.mount.chmod(0o777)

    def _attach(self) -> None:
        # A loop device of its own each time: ``mount -o loop`` would reuse the one still held
        # by the files the bot had open, and with it the broken filesystem.
        device = _sh("losetup", "--find", "--show", str(self.image))
        _sh("mount", "-o", "errors=remount-ro", device, str(self.mount))
        _sh("losetup", "--detach", device)  # detached once unmounted (autoclear)

    @property
    def device(self) -> str:
        return _sh("findmnt", "-n", "-o", "SOURCE", str(self.mount))

    def fill(self) -> None:
        """Take every free block: the next write that needs one fails with ENOSPC."""
        with self._filler.open("wb") as handle:
            chunk = b"\0" * 2**16
            try:
                while True:
                    handle.write(chunk)
                    handle.flush()
            except OSError:
                pass
        # Blocks a writer reserved but never used come back at close: take those too.
        with self._filler.open("ab") as handle:
            try:
                while True:
                    handle.write(b"\0" * 4096)
                    handle.flush()
            except OSError:
                pass

    def free(self) -> None:
        self._filler.unlink(missing_ok=True)

    def break_(self) -> None:
        """What ext4 does after a disk error: the filesystem goes read-only under open files."""
        name = os.path.basename(self.device)
        Path(f"/sys/fs/ext4/{name}/trigger_fs_error").write_text("1")

    def repair(self) -> None:
        """Unmount (lazily: the bot still holds the old files), check, mount again."""
        _sh("umount", "-l", str(self.mount))
        subprocess.run(["e2fsck", "-f", "-y", str(self.image)], capture_output=True, check=False)
        self._attach()

    def destroy(self) -> None:
        subprocess.run(["umount", "-l", str(self.mount)], capture_output=True, check=False)
        self.image.unlink(missing_ok=True)


@contextmanager
def loop_disk(folder: Path, size_mb: int = 24) -> Iterator[LoopDisk]:
    disk = LoopDisk(folder, size_mb)
    disk.create()
    try:
        yield disk
    finally:
        disk.destroy()
