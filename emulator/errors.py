"""Exceptions: one for test-side misuse, one for HTTP errors returned to the bot."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


class EmulatorError(Exception):
    """Raised to the *test* (not the bot): a timeout, or an action no Discord user could perform."""


class ApiError(Exception):
    """An error response the emulator sends to the bot, shaped like Discord's JSON error body.

    ``violation`` says whether the request broke a Discord rule (it is then listed in
    ``DiscordEmulator.violations``). 403s are situations a correct bot must handle
    (closed DMs, missing permissions), so they are not violations by default.
    """

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        errors: dict[str, Any] | None = None,
        *,
        violation: bool | None = None,
    ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors
        self.violation = status != 403 if violation is None else violation

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.errors:
            body["errors"] = self.errors
        return body

    def describe(self) -> str:
        details = "; ".join(f"{path}: {text}" for path, text in flatten_errors(self.errors or {}))
        return f"{self.status} {self.code} {self.message}" + (f" ({details})" if details else "")


def flatten_errors(tree: dict[str, Any], prefix: str = "") -> list[tuple[str, str]]:
    """``{"content": {"_errors": [{"message": m}]}}`` → ``[("content", m)]``."""
    flat: list[tuple[str, str]] = []
    for key, value in tree.items():
        if key == "_errors":
            flat.extend((prefix or "<root>", str(item.get("message"))) for item in value)
        elif isinstance(value, dict):
            flat.extend(flatten_errors(value, f"{prefix}.{key}" if prefix else str(key)))
    return flat


class FormErrors:
    """Collects field errors into Discord's nested ``errors`` tree (code 50035, Invalid Form Body)."""

    def __init__(self) -> None:
        self.tree: dict[str, Any] = {}

    def add(self, path: Sequence[str | int], code: str, message: str) -> None:
        node = self.tree
        for part in path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    def max_length(self, path: Sequence[str | int], value: Any, limit: int) -> None:
        if value is None or not self._sized(path, value):
            return
        if len(value) > limit:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")

    def length_between(self, path: Sequence[str | int], value: Any, low: int, high: int) -> None:
        if value is not None and not self._sized(path, value):
            return
        if value is None or not low <= len(value) <= high:
            self.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")

    def _sized(self, path: Sequence[str | int], value: Any) -> bool:
        """A string (or list) has a length; anything else is refused as Discord refuses a non-string."""
        if isinstance(value, (str, list)):
            return True
        self.add(path, "STRING_TYPE_CONVERT", f'Could not interpret "{value}" as string.')
        return False

    def boolean(self, path: Sequence[str | int], value: Any) -> None:
        if value is not None and not isinstance(value, bool):
            self.add(path, "BOOLEAN_TYPE_CONVERT", "Must be either true or false.")

    def mapping(self, path: Sequence[str | int], value: Any) -> bool:
        """True for a JSON object; otherwise records Discord's DICT_TYPE_CONVERT and returns False."""
        if isinstance(value, dict):
            return True
        self.add(path, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
        return False

    def number_between(self, path: Sequence[str | int], value: Any, low: float, high: float) -> None:
        if value is not None and not (isinstance(value, (int, float)) and low <= value <= high):
            self.add(path, "NUMBER_TYPE_MAX", f"Must be between {low} and {high}.")

    def required(self, path: Sequence[str | int]) -> None:
        self.add(path, "BASE_TYPE_REQUIRED", "This field is required")

    def raise_if_any(self) -> None:
        if self.tree:
            raise ApiError(400, 50035, "Invalid Form Body", self.tree)


def unknown_channel() -> ApiError:
    return ApiError(404, 10003, "Unknown Channel")


def unknown_message() -> ApiError:
    return ApiError(404, 10008, "Unknown Message")


def unknown_user() -> ApiError:
    return ApiError(404, 10013, "Unknown User")


def unknown_guild() -> ApiError:
    return ApiError(404, 10004, "Unknown Guild")


def unknown_interaction() -> ApiError:
    return ApiError(404, 10062, "Unknown interaction")


def missing_permissions() -> ApiError:
    return ApiError(403, 50013, "Missing Permissions")
