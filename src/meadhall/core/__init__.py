"""The game-agnostic kernel: randomness, decks, geometry, graphs, the Game protocol."""
