package gojq

// Patch 6 (gatehouse): a program charges what it builds as it builds it.

import "math/big"

// measureEvery is the least a program builds between two of its own
// measurements.
const measureEvery = 1 << 20

// grew notes n more bytes built (an array's new backing, an object, a
// builtin's result) and, once the program built enough since it last
// measured, measures what it holds: more than the input it started from,
// past what the host lets it hold, is the error "memory limit exceeded"
// (Reserve ends the host's line). So a program that builds ends near its
// budget as it goes, without waiting for the host to see its heap and
// ask. Enough is half the room the last measurement left (what it holds
// grew by at most what it built), a quarter of what it held (the walks
// read at most four times what the program built), and 1 MiB at least.
func (env *env) grew(n int64) error {
	if env.built += n; env.built < max(env.nextMeasure, measureEvery) {
		return nil
	}
	limit := env.measurer.Limit()
	if !env.baseKnown {
		w := &sizeWalk{limit: limit, seen: map[uintptr]struct{}{}, ctx: env.ctx}
		w.add(env.input)
		for _, v := range env.inputVars {
			w.add(v)
		}
		env.base, env.baseKnown = w.n, true
	}
	size := env.size(limit + env.base)
	if err := env.ctx.Err(); err != nil {
		return err // the walk stopped with the program
	}
	env.built, env.nextMeasure = 0, max(size/4, (limit-size)/2)
	if held := size - env.base; held > 0 && !env.measurer.Reserve(held) {
		return &memoryLimitError{held}
	}
	return nil
}

// builtSize is what a builtin's result took to make, as far as it can be
// told without walking it: its own bytes, not those of values it shares.
func builtSize(v any) int64 {
	switch v := v.(type) {
	case string:
		return int64(len(v)) + 16
	case []any:
		return int64(cap(v))*16 + 24
	case map[string]any:
		return int64(len(v))*48 + 48
	case *big.Int:
		return int64(cap(v.Bits()))*8 + 32
	}
	return 16
}
