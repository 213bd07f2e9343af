"""Embedding: the practice game in a frame on any site, for guests with no account."""
