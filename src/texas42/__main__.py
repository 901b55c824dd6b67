"""``python -m texas42``: the same as the ``texas42`` command."""

from texas42.faces.cli import main

main()
