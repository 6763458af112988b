"""Bots that play any game through the Game protocol."""
