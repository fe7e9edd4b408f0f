"""The sandbox: a local Discord in the browser, for trying Hexplay without a Discord application.

``make run`` without ``DISCORD_TOKEN`` runs ``python -m sandbox``: the loopback emulator
(:mod:`emulator`), the real bot as its own ``python -m bot`` process pointed at it, and a web
page (:mod:`sandbox.web`) where made-up players use the bot as on Discord. Depends on emulator/
only; starts the bot as a process and never imports it (the clock file is its one extra knob).
"""
