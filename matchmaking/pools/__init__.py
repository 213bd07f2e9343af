"""Online pools: searches, waves and backfill, ratings, leavers, the lobby socket."""
