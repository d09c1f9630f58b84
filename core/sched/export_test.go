package sched

// Work is what a core's passes over its tables cost (Core.work), for the tests that hold it to
// a multiple of their sizes.
func Work(c *Core) int64 { return c.work }
