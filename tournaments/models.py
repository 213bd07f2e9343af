"""Every model of the tournaments app, for Django and the migrations: each lives in
the subpackage that owns it (arenas, sitgo)."""

__all__: list[str] = []
