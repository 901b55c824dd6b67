"""Terminal faces: the line game (`texas42.faces.terminal.line_game`, ``texas42 play``) that
works in any terminal, and the full-screen table (`texas42.faces.terminal.full_screen`,
``texas42 tui``, textual)."""
