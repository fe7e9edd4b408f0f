"""The Activity's server: what a view and a tap cost, and Play against /move (issue 35, docs/activity.md).

A plain script, not a test::

    .venv/bin/python benchmarks/bench_activity_server.py [--views 40] [--turns 16]

1. CPU per answer (``time.process_time``; the machine is shared), for a mid-game position of each game, side by
   side with the baseline of the same run, the PNG picture the bot draws for that position: the match's view
   (scene + panel, as JSON), the same without the static layers (``?have=``), and the turn builder's answer (the
   legal next actions with their cells, and the position after them). Sizes raw and gzipped.
2. Play → the thread's board post, against /move → the same post, through the real bot and the emulator,
   turns interleaved (wall time: each pair of turns shares the machine's load); median and 95th percentile.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import aiohttp  # noqa: E402

import render  # noqa: E402
from bot.service.turn_builder import follow, next_actions  # noqa: E402
from games import get  # noqa: E402
from i18n import speaking, t  # noqa: E402
from render.scenes import view  # noqa: E402
from tests.activity_page import Page  # noqa: E402
from tests.botworld import BotWorld  # noqa: E402

GAMES: list[tuple[str, dict[str, object]]] = [("bide", {}), ("begird", {}), ("playbai", {}), ("bump", {})]


def mid_game(game_id: str, options: dict, seed: int = 7, turns: int = 24):
    rng = random.Random(seed)
    game = get(game_id).new(2, options)
    last: list = []
    for _ in range(turns):
        if game.is_over:
            break
        events: list = []
        while True:
            actions = game.legal_actions()
            if game.can_end_turn() and (not actions or rng.random() < 0.4):
                events += game.end_turn()
                break
            events += game.apply_action(rng.choice(actions))
        last = events
    return game, last


def cpu(fn, runs: int) -> tuple[float, float]:
    fn()  # warm: the caches a running bot has
    times = []
    for _ in range(runs):
        started = time.process_time()
        fn()
        times.append((time.process_time() - started) * 1000)
    times.sort()
    return statistics.mean(times), times[int(0.95 * (len(times) - 1))]


def costs(runs: int) -> None:
    print(f"CPU ms per answer, mean / p95 ({runs} runs each; baseline: the PNG of the same position)")
    print(
        f"{'game':9} {'PNG (baseline)':>15} {'view JSON':>12} {'view, no static':>16} {'turn builder':>13}"
        f" {'view KB raw/gzip':>17}"
    )
    names = ["alice", "bob"]
    for game_id, options in GAMES:
        game, last = mid_game(game_id, options)
        with speaking("en"):
            png = cpu(lambda g=game, e=last: render.render_png(g, player_names=names, last_events=e), runs)

            def full(g=game, e=last) -> bytes:
                scene, panel = view(g, player_names=names, last_events=e)
                return json.dumps({"scene": scene.to_json(), "panel": panel.to_json()}).encode()

            def light(g=game, e=last) -> bytes:
                scene, panel = view(g, player_names=names, last_events=e)
                return json.dumps({"scene": scene.to_json(static=False), "panel": panel.to_json()}).encode()

            def tapped(g=game) -> bytes:
                state = follow(g, [])
                legal = next_actions(state, t)
                scene, _ = view(state.game, player_names=names, last_events=state.events)
                return json.dumps([[a.notation, a.cells] for a in legal] + [scene.to_json(static=False)]).encode()

            whole, without, builder = cpu(full, runs), cpu(light, runs), cpu(tapped, max(5, runs // 4))
            body = full()
        print(
            f"{game_id:9} {png[0]:7.2f} / {png[1]:5.2f} {whole[0]:5.2f} / {whole[1]:5.2f} {without[0]:7.2f} / "
            f"{without[1]:5.2f} {builder[0]:5.2f} / {builder[1]:5.2f} {len(body) / 1024:8.1f} / "
            f"{len(gzip.compress(body)) / 1024:5.1f}"
        )


async def play_against_move(turns: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        # one picture worker, as `python -m bot` has: the picture is drawn off the event loop's process
        world = await BotWorld(Path(folder) / "bench.sqlite3", activity=True, render_processes=1).start()
        try:
            url = await world.activity_url()
            # Discord's per-channel limit (5 posts in 5 s) would time these quick turns, not the bot: off
            world.emu.rate_limits.enabled = False
            match_id, thread = await world.start_two_player("begird")
            async with aiohttp.ClientSession() as session:
                pages = {u.id: await Page.open(url, world.emu, u, session) for u in world.users[:2]}
                timed: dict[str, list[float]] = {"Play (Activity)": [], "/move (slash command)": []}
                for turn in range(turns):
                    mover = await world.user_to_move(match_id)
                    game = await world.game(match_id)
                    move = game.format_action(game.rank_actions(game.legal_actions())[0])
                    match = await world.service.get(match_id)
                    posted = asyncio.ensure_future(world.emu.wait_for_message(thread, lambda m: bool(m.attachments)))
                    started = time.perf_counter()
                    if turn % 2 == 0:  # the page has the board: its answer's view without the static layers
                        body = {"version": match.version, "actions": [move], "have": "begird:standard"}
                        status, _ = await pages[mover.id].post(f"/matches/{match_id}/play", body)
                        assert status == 200
                        kind = "Play (Activity)"
                    else:
                        await world.emu.invoke(mover, thread, "move", {"move": move})
                        kind = "/move (slash command)"
                    await posted
                    timed[kind].append((time.perf_counter() - started) * 1000)
            print(f"\nTurn → its board posted in the thread, wall ms ({turns // 2} turns each, interleaved)")
            for kind, times in timed.items():
                times.sort()
                p95 = times[int(0.95 * (len(times) - 1))]
                print(f"  {kind:24} median {statistics.median(times):6.1f}   p95 {p95:6.1f}")
        finally:
            await world.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--views", type=int, default=40)
    parser.add_argument("--turns", type=int, default=16)
    options = parser.parse_args()
    costs(options.views)
    asyncio.run(play_against_move(options.turns))


if __name__ == "__main__":
    main()
