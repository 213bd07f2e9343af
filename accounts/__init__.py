"""Player accounts: username rules, profiles, presence and demo data."""
