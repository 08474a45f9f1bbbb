//go:build !linux

package policyrun

import "time"

// threadClock charges a call its wall time where no per-thread CPU clock is
// read (only Linux has one here).
type threadClock struct{}

func (c *threadClock) reset()                                   {}
func (c *threadClock) begin()                                   {}
func (c *threadClock) used(elapsed time.Duration) time.Duration { return elapsed }
