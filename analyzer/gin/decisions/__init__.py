"""The decision kernels of every policy: the fixed rules, the card-tracking expert, the MARJJ replica, inference."""
