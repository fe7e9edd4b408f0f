"""Text the bot builds from what users typed or chose as names: bounded and inert.

Discord refuses a message over 2,000 characters (the user then gets no answer at all),
and renders markdown and mentions inside names. These helpers do not import discord,
so the service can use them.
"""

from __future__ import annotations

import re

MESSAGE_LIMIT = 2000
_MARKDOWN = re.compile(r"([\\*_~`|>#\-\[\]()<:])")


def fit(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """``text`` cut to ``limit`` characters, with an ellipsis when cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def fit_words(text: str, limit: int) -> str:
    """``text`` cut at a word to at most ``limit`` characters, with an ellipsis when cut."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > limit // 2 else cut).rstrip(" ,;:—") + "…"


def quoted(text: str, limit: int = 80) -> str:
    """User input for a `code span`: one line, no backticks (they would end the span), bounded."""
    return fit(" ".join(text.split()).replace("`", "'"), limit) or " "


def escape(text: str) -> str:
    """A user-provided string (a display name) shown as plain text: no markdown, links or mentions."""
    return _MARKDOWN.sub(r"\\\1", text).replace("@", "@\u200b")
