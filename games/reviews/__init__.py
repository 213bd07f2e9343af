"""The hand reviews of the product: storage, the worker's task, the pages.

The analysis itself is ``games.review`` (pure, no Django); this package finds a
hand's steps in a table's log (``steps``), decides who may read a review and
when (``access``, the replay's rule), queues and runs reviews (``services``) and
shows them (``views``, ``present``). docs/review.md tells the decisions.
"""
