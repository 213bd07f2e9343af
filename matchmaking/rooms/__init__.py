"""Friend rooms: made by a host, joined by invitation, code or link."""
