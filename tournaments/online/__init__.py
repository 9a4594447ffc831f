"""The game rooms' WebSocket door (docs/online.md): the consumer and its routes."""
