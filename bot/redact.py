"""Keep interaction tokens (15-minute webhook credentials) out of the logs, DEBUG included."""

from __future__ import annotations

import logging
import re

# /interactions/<id>/<token>/callback, /webhooks/<app>/<token>[/...], and "token": "..." in gateway payloads
_PATTERNS = (
    (re.compile(r"(/(?:interactions|webhooks)/\d+/)[A-Za-z0-9_.\-]+"), r"\1<token>"),
    (re.compile(r"""(['"]token['"]\s*:\s*['"])[^'"]+(['"])"""), r"\1<token>\2"),
)


def redact(text: str) -> str:
    for pattern, replacement in _PATTERNS:
        text = pattern.sub(replacement, text)
    return text


class RedactTokens(logging.Filter):
    """A handler filter: the formatted message of every record with tokens replaced."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = redact(message)
        if cleaned != message:
            record.msg, record.args = cleaned, ()
        return True


def install(logger: logging.Logger | None = None) -> None:
    for handler in (logger or logging.getLogger()).handlers:
        handler.addFilter(RedactTokens())
