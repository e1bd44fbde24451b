"""The ``graphmem`` command: a front door opens first (standard library only: frontdoor.py
for stdio, http_front_door.py for HTTP), then the command line loads."""

import sys

from graphmem.app.frontdoor import open_front_door
from graphmem.app.http_front_door import open_http_front_door


def main() -> int:
    argv = sys.argv[1:]
    if not open_front_door(argv):
        open_http_front_door(argv)
    from graphmem.app.cli import main as command_line

    return command_line()
