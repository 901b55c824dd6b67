"""The core: the rules of 42 as plain values, pure Python with no I/O.

A tile is an int 0..27 and a set of tiles a 28-bit mask (`texas42.core.tiles`); `Rules` holds
every house rule, `Layout` the shape of the table they describe; `auction`, `contracts` and
`progress` hold the rules of bidding, following and moving a hand on, `deal` the shake and draw;
`Hand` plays one deal and `Game` a match to the target. `View` is what one seat may know;
`notation` and `record` write and read positions and game records; `words` holds every sentence
a player reads about the game; `svg` draws tiles and tables as strings, with no I/O, so that
notebooks and every face draw them one way. Nothing here imports a layer above it (search,
players, services, faces).
"""
