"""Pictures drawn in a worker process (bot/service/pictures.py) are the pictures drawn on a thread, pixel for
pixel (size, palette and every palette index), and a dead or orphaned worker never costs a turn its board.

Pixels, not PNG bytes: ISA-L's deflate (render/png.py) does not always give the same bytes for the same rows.
Caught once: a Play Bai picture whose inflated rows were identical to the reference's while 7 bytes of one
32-row band's deflate differed (same length). That is what made the worker-vs-thread test fail about once in
a hundred whole-suite runs, never alone (issue 34): the PNGs were valid and the same picture."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from bot.service.pictures import Pictures
from games import GAMES, new_game
from i18n import speaking
from render import render_png
from render.begird import island_tiles
from tests.render_cases import generic_cases, same_picture

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
async def pool():
    pictures = Pictures(processes=1)
    await pictures.ready()
    yield pictures
    pictures.close()


def worker_pids(pictures: Pictures) -> list[int]:
    assert pictures._pool is not None
    return list(pictures._pool._processes)  # type: ignore[attr-defined]


def difference(expected: bytes, drawn: bytes) -> str:
    """What differs between two PNGs, for a failure to name its cause: where the pixels differ. Both pictures
    are kept in the temporary folder for a look."""
    first, second = Image.open(io.BytesIO(expected)), Image.open(io.BytesIO(drawn))
    kept = Path(tempfile.mkdtemp(prefix="hexplay-picture-difference-"))
    (kept / "thread.png").write_bytes(expected)
    (kept / "worker.png").write_bytes(drawn)
    if first.size != second.size:
        return f"other sizes {first.size} vs {second.size} (kept in {kept})"
    box = ImageChops.difference(first.convert("RGB"), second.convert("RGB")).getbbox()
    what = "same pixels, other bytes" if box is None else f"other pixels in {box}"
    return f"{what} ({len(expected)} vs {len(drawn)} bytes; kept in {kept})"


async def test_a_worker_draws_the_same_bytes_as_a_thread_for_every_game(pool):
    for game_id in GAMES:
        for label, game, events, names in generic_cases(game_id):
            expected = render_png(game, player_names=names, last_events=events, title=f"{label} #1")
            drawn = await pool.png(game, player_names=names, last_events=events, title=f"{label} #1")
            assert same_picture(drawn, expected), f"{label}: {difference(expected, drawn)}"
    assert pool._pool is not None, "the pool broke (a worker died): the pictures were drawn on a thread"
    assert worker_pids(pool), "the pictures were not drawn in a worker"


def count_worker_jobs(pictures: Pictures, monkeypatch) -> list[str]:
    jobs: list[str] = []
    real = pictures._boards.run

    async def counted(function, *args):
        jobs.append(function.__name__)
        return await real(function, *args)

    monkeypatch.setattr(pictures._boards, "run", counted)
    return jobs


def test_the_picture_check_sees_one_pixel_and_overlooks_only_the_deflate():
    png = render_png(new_game("bide", 2), player_names=["a", "b"])
    image = Image.open(io.BytesIO(png))
    deflated_otherwise, one_pixel_off = io.BytesIO(), io.BytesIO()
    image.save(deflated_otherwise, format="PNG", compress_level=9)
    assert deflated_otherwise.getvalue() != png and same_picture(deflated_otherwise.getvalue(), png)
    changed = image.copy()
    changed.putpixel((0, 0), (changed.getpixel((0, 0)) + 1) % 256)
    changed.save(one_pixel_off, format="PNG")
    assert not same_picture(one_pixel_off.getvalue(), png)


async def test_a_game_in_the_middle_of_a_turn_is_drawn_on_a_thread(pool, monkeypatch):
    game = new_game("playbai", 2)
    action = game.legal_actions()[0]
    game.apply_action(action)
    if not game.turn_in_progress():
        pytest.skip("Play Bai's first action ends the turn")
    jobs = count_worker_jobs(pool, monkeypatch)
    png = await pool.png(game, player_names=["a", "b"])
    assert same_picture(png, render_png(game, player_names=["a", "b"]))
    assert jobs == []  # the state document of a half turn cannot cross


async def test_boards_are_drawn_on_a_thread_until_a_worker_is_ready(monkeypatch):
    pictures = Pictures(processes=1)
    try:
        jobs = count_worker_jobs(pictures, monkeypatch)
        game = new_game("bide", 2)
        first = await pictures.png(game, player_names=["a", "b"])  # no wait for the worker to start
        assert jobs == [] and pictures._pool is not None  # drawn here; the worker is starting meanwhile
        await pictures.ready()
        assert same_picture(await pictures.png(game, player_names=["a", "b"]), first)
        assert jobs == ["draw_state"]
    finally:
        pictures.close()


def golden_islands_built() -> int:
    """In a worker: for how many Begird boards the golden islands of a won game are built."""
    return island_tiles.cache_info().currsize


async def test_a_worker_prepares_a_boards_winning_picture_after_its_first(pool, monkeypatch):
    """The first winning Begird picture built the board's golden islands (70-110 ms of CPU, half a second on a
    busy machine) while the winning turn's post waited: a worker builds them just after the board's first picture
    (the pool's one worker takes its jobs in order: the preparation is done before the next job starts)."""
    game = new_game("begird", 2, {"board": "small"})
    golden = golden_islands_built
    assert await pool._boards.run(golden) == 0
    first = await pool.png(game, player_names=["a", "b"])
    assert await pool._boards.run(golden) == 1
    jobs = count_worker_jobs(pool, monkeypatch)
    assert same_picture(await pool.png(game, player_names=["a", "b"]), first)
    assert jobs == ["draw_state"] and await pool._boards.run(golden) == 1  # prepared once per board


async def test_a_killed_worker_costs_one_picture_a_thread_and_the_pool_is_replaced(pool):
    game = new_game("bide", 2)
    first = await pool.png(game, player_names=["a", "b"])
    [pid] = worker_pids(pool)
    os.kill(pid, signal.SIGKILL)
    time.sleep(0.2)
    assert same_picture(await pool.png(game, player_names=["a", "b"]), first)  # drawn on a thread
    await pool.ready()  # a new pool started at once, in the background
    assert same_picture(await pool.png(game, player_names=["a", "b"]), first)  # and drawn by its worker
    assert worker_pids(pool) and pid not in worker_pids(pool)


def test_a_worker_leaves_when_the_bot_process_is_killed(tmp_path):
    """kill -9 of the bot cannot stop its pool: the worker notices within seconds and exits."""
    script = (
        "import asyncio, os, sys\n"
        "from bot.service.pictures import Pictures\n"
        "from games import new_game\n"
        "p = Pictures(1)\n"
        "asyncio.run(p.png(new_game('bide', 2), player_names=['a', 'b']))\n"
        "print(*p._pool._processes, flush=True)\n"
        "os.kill(os.getpid(), 9)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60)
    pids = [int(x) for x in done.stdout.split()]
    assert pids, done.stderr
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_alive(pid) for pid in pids):
        time.sleep(0.2)
    assert not any(_alive(pid) for pid in pids)


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has exited (its parent, init here, reaps it later)


async def test_the_bot_posts_boards_drawn_by_a_worker(world, monkeypatch):
    world.bot.chat.service.pictures = pool_ = Pictures(processes=1)
    try:
        await pool_.ready()
        jobs = count_worker_jobs(pool_, monkeypatch)
        match_id, thread = await world.start_two_player()
        alice = await world.user_to_move(match_id)
        result = await world.emu.invoke(alice, thread, "move", {"move": "e5"})
        assert not result.ephemeral and result.response.attachments, result.text
        assert jobs.count("draw_state") == 2  # the first board and the move's
    finally:
        pool_.close()


def test_render_processes_setting(monkeypatch):
    from bot.config import Settings

    monkeypatch.setenv("HEXPLAY_RENDER_PROCESSES", "2")
    assert Settings.from_env().render_processes == 2
    monkeypatch.delenv("HEXPLAY_RENDER_PROCESSES")
    assert Settings.from_env().render_processes == 1  # python -m bot draws on the second core by default
    assert Settings().render_processes == 0  # tests and embedders: a thread, unless asked
    for bad in ("-1", "x", "9"):
        monkeypatch.setenv("HEXPLAY_RENDER_PROCESSES", bad)
        with pytest.raises(SystemExit, match="HEXPLAY_RENDER_PROCESSES"):
            Settings.from_env()


async def test_a_replay_is_drawn_by_its_own_worker_with_the_same_bytes(pool):
    from render import render_gif

    game = new_game("bide", 2)
    frames = [(game.copy(), [])]
    for move in ("e5", "d4", "c3"):
        events = game.play_turn(move)
        frames.append((game.copy(), events))
    expected = render_gif(frames, player_names=["a", "b"], title="Bide #7")
    assert await pool.gif(frames, player_names=["a", "b"], title="Bide #7") == expected
    await pool.png(game, player_names=["a", "b"])
    replay_pids = list(pool._replays._pool._processes)  # type: ignore[union-attr]
    assert replay_pids and not set(replay_pids) & set(worker_pids(pool))  # boards never wait behind a replay


async def test_a_picture_asked_for_in_french_is_drawn_in_french_by_the_worker(pool):
    """A worker has no context of the asker's: the language crosses with the picture's data."""
    game = new_game("bide", 2)
    english = await pool.png(game, player_names=[])
    with speaking("fr"):
        french = await pool.png(game, player_names=[])
        direct = render_png(game, player_names=[])
        on_a_thread = await Pictures(processes=0).png(game, player_names=[])
    assert worker_pids(pool)
    assert french != english
    assert french == direct == on_a_thread
