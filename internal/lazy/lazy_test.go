package lazy

import (
	"sync"
	"sync/atomic"
	"testing"
)

var made atomic.Int32

var table = Value[map[string]int]{New: func() map[string]int {
	made.Add(1)
	return map[string]int{"one": 1}
}}

// TestValueMakesOnceOnFirstGet: nothing is made before the first Get, and
// concurrent Gets share the one value made.
func TestValueMakesOnceOnFirstGet(t *testing.T) {
	if n := made.Load(); n != 0 {
		t.Fatalf("made %d times before the first Get", n)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if table.Get()["one"] != 1 {
				t.Error("Get gave the wrong value")
			}
		}()
	}
	wg.Wait()
	if n := made.Load(); n != 1 {
		t.Fatalf("made %d times, want once", n)
	}
}

// TestGetAllocatesNothingOnceMade: after the first call Get is a load.
func TestGetAllocatesNothingOnceMade(t *testing.T) {
	table.Get()
	if n := testing.AllocsPerRun(100, func() { _ = table.Get() }); n != 0 {
		t.Fatalf("Get allocates %v times once made", n)
	}
}
