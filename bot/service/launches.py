"""Which match an Activity instance was opened for: noted by the Open board button (LAUNCH_ACTIVITY answers
with the instance's id), read when the page asks what to show first.

Per process and bounded (the oldest forgotten first): it is a hint. A page whose instance was opened by another
process, or before a restart, is shown the match of the thread it was opened in, or the player's list.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass


@dataclass(frozen=True)
class Launch:
    match_id: int | None  # None: opened on the player's list (the Entry Point command)
    channel_id: int


class Launches:
    def __init__(self, capacity: int = 10_000) -> None:
        self.capacity = capacity
        self._by_instance: OrderedDict[str, Launch] = OrderedDict()

    def note(self, instance_id: str | None, match_id: int | None, channel_id: int) -> None:
        if not instance_id:
            return
        self._by_instance[instance_id] = Launch(match_id, channel_id)
        self._by_instance.move_to_end(instance_id)
        while len(self._by_instance) > self.capacity:
            self._by_instance.popitem(last=False)

    def of(self, instance_id: str | None) -> Launch | None:
        return self._by_instance.get(instance_id) if instance_id else None
