"""Services: what runs bots and games for others. The arena (`texas42.services.arena`) measures
bots on duplicate deals, the engine protocol (`texas42.services.protocol`) plays outside programs
and serves ours, and the learning environments (`texas42.services.env`) wrap a hand for RL.
"""
