"""``python -m emulator``: a standalone emulator with guild "Sandbox", channel #games and two users."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal

from .server import DiscordEmulator


async def serve(token: str, port: int) -> None:
    async with DiscordEmulator(bot_token=token, port=port) as emu:
        guild = emu.create_guild("Sandbox")
        games = emu.create_text_channel(guild, "games")
        users = [emu.create_user("alice"), emu.create_user("bob")]
        print(f"DISCORD_API_BASE_URL={emu.api_base_url}")
        print(f"DISCORD_GATEWAY_URL={emu.gateway_url}")
        print(f"DISCORD_TOKEN={token}")
        print(f"guild {guild.id}, #games {games.id}, users " + ", ".join(f"{u.name}={u.id}" for u in users))
        print("Ctrl-C to stop.", flush=True)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):  # Windows
                loop.add_signal_handler(signum, stop.set)
        await stop.wait()


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m emulator", description=__doc__)
    parser.add_argument("--token", default="test-token", help="bot token the emulator accepts")
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (default: a free one)")
    args = parser.parse_args()
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(args.token, args.port))


if __name__ == "__main__":
    main()
