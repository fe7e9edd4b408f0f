"""Slash commands, grouped by feature."""

from .community import CommunityCog
from .info import InfoCog
from .moves import MovesCog
from .play import PlayCog
from .settings import SettingsCog

COGS = (PlayCog, MovesCog, InfoCog, SettingsCog, CommunityCog)
