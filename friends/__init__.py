"""Friends: requests, friendships and who of them is online or playing."""
