"""The engine: the kernels that move a hand from deal to score."""
