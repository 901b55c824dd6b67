"""Search: the exact double-dummy solver (`texas42.search.solver`, numba kernels) and the deal
sampler (`texas42.search.sampler`) that draws hidden tiles consistent with a seat's view.

Built on the core only; the players above use it to look ahead.
"""
