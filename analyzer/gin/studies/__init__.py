"""Studies built on the drivers: comparisons, sweeps, equity, exact counts, exploitation, equilibria."""
