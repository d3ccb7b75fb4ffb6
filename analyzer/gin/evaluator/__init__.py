"""The hand evaluator: meld partitions, discards and layoffs over 52-bit masks."""
