"""Learning to play: lessons on fixed deals, bidding practice, play puzzles found by the solver,
coaching from a game's review, and the hand laboratory. Everything a learner is told here comes
from the engine's own computation (the rules, the solver, the sampler and the bots' estimates).
"""
