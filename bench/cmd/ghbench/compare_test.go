package main

import (
	"errors"
	"testing"
	"time"
)

// G-14: overheads pair the runs of one round. A slow round slows both
// systems in it and leaves their ratio alone, where a ratio of the two
// medians would mix one round's calm with another's storm.
func TestPairedRatio(t *testing.T) {
	t.Parallel()
	ms := func(d ...int) []sample {
		var out []sample
		for _, v := range d {
			out = append(out, sample{wall: time.Duration(v) * time.Millisecond})
		}
		return out
	}
	res := results{
		"base":  {0: ms(100, 200, 100, 300, 100)},
		"gated": {0: ms(105, 210, 105, 315, 105)}, // always +5% in its own round
	}
	got, ok := res.pairedRatio(wallTime, "gated", "base", 0)
	if !ok || got < 1.0499 || got > 1.0501 {
		t.Errorf("paired ratio = %v, %v; want 1.05", got, ok)
	}
	// Rounds pair by position: runs out of their rounds give another answer.
	shifted := results{"base": {0: ms(100, 300)}, "gated": {0: ms(315, 105)}}
	if got, _ := shifted.pairedRatio(wallTime, "gated", "base", 0); got < 1.7499 || got > 1.7501 {
		t.Errorf("runs paired out of their rounds read %v, want 1.75, the mean of 3.15 and 0.35", got)
	}

	even := results{"a": {0: ms(1, 2, 3, 4)}, "b": {0: ms(1, 1, 1, 1)}}
	if got, _ := even.pairedRatio(wallTime, "a", "b", 0); got != 2.5 {
		t.Errorf("median of an even count = %v, want 2.5 (the mean of the middle two)", got)
	}

	failed := results{"a": {0: ms(1, 2)}, "b": {0: ms(1, 1)}}
	failed["a"][0][1].err = errors.New("exit 1")
	if _, ok := failed.pairedRatio(wallTime, "a", "b", 0); ok {
		t.Error("a failed run still gave a ratio")
	}
	uneven := results{"a": {0: ms(1, 2)}, "b": {0: ms(1)}}
	if _, ok := uneven.pairedRatio(wallTime, "a", "b", 0); ok {
		t.Error("runs that do not pair up still gave a ratio")
	}
}
