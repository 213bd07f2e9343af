"""Tables, seats, the move log, the WebSocket consumer, turn clocks and pages."""
