"""The web table: a FastAPI server where people play 42 with bots and friends (``docs/web.md``).

The server is a face on top of the core: it applies actions through `texas42.core.game.Game`, stores
each table as a log of `events` (`storage`), and sends each browser a state built from its own
seat's view (`payload`, as the classes of `outbound`), so nothing it sends can show a tile that
seat could not see. `schema` gives the protocol's JSON Schema, which ``docs/web.md`` follows.
"""

from texas42.faces.server.app import create_app
from texas42.faces.server.room import ServerSettings

__all__ = ["ServerSettings", "create_app"]
