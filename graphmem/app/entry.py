"""The ``graphmem`` command: the stdio front door opens first (standard library only, see
frontdoor.py), then the command line loads."""

import sys

from graphmem.app.frontdoor import open_front_door


def main() -> int:
    open_front_door(sys.argv[1:])
    from graphmem.app.cli import main as command_line

    return command_line()
