"""Game state → render models → PNG, and the worker pool that draws them off the event loop."""
