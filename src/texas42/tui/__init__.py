"""Terminal faces: `texas42.tui.play` runs a game at the terminal against the bots."""
