"""WebSocket plumbing shared by every consumer: frame checks, rate limits."""
