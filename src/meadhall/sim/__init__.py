"""The simulation lab: bots play a game many times and the lab reports what it measured.

:mod:`~meadhall.sim.runner` plays games (locally or on Ray), :mod:`~meadhall.sim.lab` plans
batches (bots, what-if sweeps, sequential stopping), :mod:`~meadhall.sim.summary` and
:mod:`~meadhall.sim.stats` measure, :mod:`~meadhall.sim.results` and
:mod:`~meadhall.sim.report` write rows and reports.
"""
