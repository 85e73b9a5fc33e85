"""Training code for the learned ball detector (needs the ``train`` extra: torch)."""
