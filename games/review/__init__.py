"""Hand review: what each play was worth, face up and as the player saw it.

Pure Python like ``games.engine`` and ``games.bots``: no Django, no I/O, no
clock in what is computed. The pages, the worker's task and the storage of a
review live elsewhere and call this package.

Modules: ``solver`` (the double-dummy solver: a hand's result with perfect
play, every tile known), ``model`` (the positions it searches, and the
conventions of perfect play), ``state_game`` and ``line_game`` (the engine's
states, any variant; bit masks, the line layouts), ``single`` (a decision
judged by what its seat knew: sampled deals, each solved double dummy) and
``luck`` (the strength of a seat's deal). docs/review.md tells the decisions.
"""
