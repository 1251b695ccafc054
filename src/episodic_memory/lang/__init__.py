"""Language resources: what the rules know of a language (today: English), kept in one place."""
