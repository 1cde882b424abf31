"""The club: many tables publishing their journals to one MQTT broker, and a club service that
stores every event once in PostgreSQL, derives results with the engine's replay and serves the
room's live page (see docs/club.md)."""
