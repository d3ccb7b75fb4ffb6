"""Game-independent foundations: card notation, bit and lane kernels, random streams,
statistics, option parsing and the chunked (local or Dask) executor."""
