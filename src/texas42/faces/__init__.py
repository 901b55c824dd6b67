"""Faces: what people use. The command line (`texas42.faces.cli`), the terminal tables
(`texas42.faces.terminal`) and the web table (`texas42.faces.server`). Faces parse input, call the
layers below and render what they answer; they hold no rule of the game.
"""
