"""Hand review: what each play was worth, face up and as the player saw it.

Pure Python like ``games.engine`` and ``games.bots``: no Django, no I/O, no
clock in what is computed. The pages, the worker's task and the storage of a
review live elsewhere and call this package.

Modules: ``single`` (a decision judged by what its seat knew: sampled deals,
each solved double dummy by ``games.solver``), ``faceup`` (every step of a hand
valued face up), ``luck`` (the strength of a seat's deal), ``labels``, ``hand``
(a whole hand's review and its budgets) and ``export`` (a review as JSON).
docs/review.md tells the decisions.
"""
