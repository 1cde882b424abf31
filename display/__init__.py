"""The table screen: pygame screens drawn from plain view-models."""
