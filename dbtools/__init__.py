"""Database plumbing shared by the apps (imports nothing of ours, like ``realtime``)."""
