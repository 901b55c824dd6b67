"""The arena: bots measured against each other honestly, on duplicate deals.

Every deal is played twice with the bots' seats swapped (at four seats, the teams; at any table,
every seat's cards once by each bot), so the luck of the deal cancels and what is left is the
difference between the bots. `run_match` plays one such pair and is the only thing
an executor (this process, a process pool, a Ray cluster) ever runs; `play_match` and
`play_ladder` drive it and sum the results up with the statistics of `texas42.services.arena.stats`.
The tables (`texas42.services.arena.report`) and the chart (`texas42.services.arena.plot`, matplotlib) are
imported separately, by the faces that show them.
"""

from texas42.services.arena.match import (
    GameResult,
    MatchResult,
    MatchSpec,
    deal_seed,
    match_specs,
    run_match,
    sides_held,
)
from texas42.services.arena.run import (
    LadderSummary,
    MatchSummary,
    map_matches,
    play_ladder,
    play_match,
    summarize,
)
from texas42.services.arena.stats import (
    Estimate,
    Proportion,
    Ratings,
    Sprt,
    bradley_terry,
    mean_ci,
    wilson,
)

__all__ = [
    "Estimate",
    "GameResult",
    "LadderSummary",
    "MatchResult",
    "MatchSpec",
    "MatchSummary",
    "Proportion",
    "Ratings",
    "Sprt",
    "bradley_terry",
    "deal_seed",
    "map_matches",
    "match_specs",
    "mean_ci",
    "play_ladder",
    "play_match",
    "run_match",
    "sides_held",
    "summarize",
    "wilson",
]
