"""Computer players: pure like the engine, seeing only what their seat may know."""
