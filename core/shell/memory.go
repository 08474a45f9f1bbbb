package shell

import (
	"bytes"
	"context"
	"errors"
	"strconv"
	"sync/atomic"

	"gatehouse/core/shell/utils"
)

// A line has a memory budget (Limits.Memory, G-12.3): at any moment, the
// session's variables plus everything the line holds on top — command
// substitutions, here-documents, expansions, pipes, what its utilities
// keep, what it adds to memory mounts — stay under it. Whoever is about to
// hold memory asks first (lineState.charge) and gives it back when done:
// the interpreter through its memory handler, utilities through
// utils.Env.Grow and the readers the shell wraps around their input,
// memory mounts through the line's door (vfs.MemoryCharger). Past the
// budget the line ends with exit 125 and a clear message; the session lives
// on. Each line's count starts from the size of the session's variables, so
// nothing a line forgot to give back outlives it.

// errMemory refuses an allocation: the line is ending.
var errMemory = errors.New("line exceeded its memory limit")

// charge takes n bytes (n < 0 gives them back). Past the budget it ends the
// line and refuses.
func (ls *lineState) charge(n int64) error {
	if n <= 0 {
		ls.mem.Add(n)
		accounted.Add(n)
		return nil
	}
	// n past the whole budget is refused before the sum, which could
	// overflow (a file truncated to 2^63-1 bytes passed as a negative sum).
	if n > ls.sh.limits.Memory {
		ls.overMemory()
		return errMemory
	}
	if ls.mem.Add(n) > ls.sh.limits.Memory {
		ls.mem.Add(-n)
		ls.overMemory()
		return errMemory
	}
	accounted.Add(n)
	return nil
}

// overMemory ends the line as over its memory budget.
func (ls *lineState) overMemory() {
	ls.cancel(&errHalt{code: 125, msg: "gatehouse: line exceeded the memory limit (" + byteText(ls.sh.limits.Memory) + ")"})
}

// memoryHandler is the interpreter's: a charge to the line running. A
// stopped line holds nothing more: the expander's long loops (splitting,
// building words, replacing) ask it now and then, so they end with the
// line.
func (s *Shell) memoryHandler(ctx context.Context, n int64) error {
	if ctx == nil {
		return nil
	}
	if n > 0 && ctx.Err() != nil {
		return context.Cause(ctx)
	}
	if ls := lineOf(ctx); ls != nil {
		return ls.charge(n)
	}
	return nil
}

// ChargeMemory makes the line pay for what its writes add to memory mounts.
func (d lineDoor) ChargeMemory(n int64) error { return d.ls.charge(n) }

// byteText writes a size the way the workspace document spells it.
func byteText(n int64) string {
	for _, u := range []struct {
		name string
		size int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.size && n%u.size == 0 {
			return strconv.FormatInt(n/u.size, 10) + u.name
		}
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// utilMemory is one utility run's share of the line's budget: what it
// holds through Env.Grow and its input readers, all given back when it
// returns.
type utilMemory struct {
	ls   *lineState
	held atomic.Int64
}

// grow is Env.Grow: n > 0 to hold more, n < 0 to give back.
func (m *utilMemory) grow(n int64) error {
	if m == nil || m.ls == nil {
		return nil
	}
	if err := m.ls.charge(n); err != nil {
		return err
	}
	m.held.Add(n)
	return nil
}

// release gives back everything the run still holds.
func (m *utilMemory) release() {
	if m == nil || m.ls == nil {
		return
	}
	if held := m.held.Swap(0); held != 0 {
		m.ls.charge(-held)
	}
}

// inputCharge is what a utility keeps of one input stream, charged as it is
// read: every byte for a utility that keeps its whole input (sort, tac,
// jq), the current line for one that keeps a line at a time (the default),
// nothing for one that streams (cat, wc, tr).
type inputCharge struct {
	mem   *utilMemory
	keeps utils.Keeps
	// run is the length of the line being read; charged is what this
	// input holds from the budget.
	run, charged int64
}

// newInputCharge is the accounting of one input of a utility, or nil when
// it keeps nothing.
func newInputCharge(mem *utilMemory, keeps utils.Keeps) *inputCharge {
	if mem == nil || keeps == utils.KeepsNothing {
		return nil
	}
	return &inputCharge{mem: mem, keeps: keeps}
}

// account charges what one read brought.
func (c *inputCharge) account(p []byte) error {
	switch c.keeps {
	case utils.KeepsAll:
		// Lines kept as slices cost a header each beside their bytes.
		return c.take(int64(len(p)) + 24*int64(bytes.Count(p, newline)))
	case utils.KeepsLine, utils.KeepsLines:
		if i := bytes.LastIndexByte(p, '\n'); i >= 0 {
			c.run = int64(len(p) - i - 1)
		} else {
			c.run += int64(len(p))
		}
		// A line grows in a buffer that doubles: it is held up to twice
		// while it is read.
		switch held := 2 * c.run; {
		case held > c.charged:
			// A long line is charged in large steps.
			return c.take(max(held-c.charged, 64<<10))
		case c.charged > 1<<20 && held < c.charged/2:
			c.mem.grow(held - c.charged)
			c.charged = held
		}
	}
	return nil
}

var newline = []byte{'\n'}

func (c *inputCharge) take(n int64) error {
	if err := c.mem.grow(n); err != nil {
		return err
	}
	c.charged += n
	return nil
}
