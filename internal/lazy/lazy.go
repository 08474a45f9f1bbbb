// Package lazy holds package-level values that are made the first time they
// are used instead of at program start. Go runs every linked package's
// initialisers whatever the command, so a table, map or compiled
// expression built by an initialiser costs every start of gatehouse,
// `exec -- true` included; a Value costs nothing until Get.
//
// A Value is declared as a composite literal whose New is a function
// literal that captures nothing, which the compiler lays out as static
// data: no code runs and nothing is allocated at start-up.
//
//	var units = lazy.Value[map[string]int64]{New: func() map[string]int64 {
//		return map[string]int64{"k": 1 << 10, "M": 1 << 20}
//	}}
//
// sync.OnceValue would do the same work at first use, but calling it in an
// initialiser allocates its state at start-up.
package lazy

import "sync"

// Value is a value of type T made by New on the first Get. It must not be
// copied after first use.
type Value[T any] struct {
	// New makes the value; it runs once, on the first Get.
	New  func() T
	once sync.Once
	v    T
}

// Get returns the value, making it on the first call. Concurrent first
// calls wait for the one that makes it.
func (l *Value[T]) Get() T {
	l.once.Do(l.make)
	return l.v
}

func (l *Value[T]) make() { l.v = l.New() }
