package utils

import (
	"sort"
	"testing"
)

// TestBuiltinsTable: the builtins table is sorted by name (Lookup searches
// it by halves), names each utility once, and each maker makes the utility
// its row names.
func TestBuiltinsTable(t *testing.T) {
	t.Parallel()
	if !sort.SliceIsSorted(builtins[:], func(i, j int) bool { return builtins[i].Name < builtins[j].Name }) {
		t.Fatal("builtins is not sorted by name")
	}
	for i := range builtins {
		p := &builtins[i]
		if i > 0 && builtins[i-1].Name == p.Name {
			t.Errorf("%s is in builtins twice", p.Name)
		}
		if u := p.Make(p.Name); u == nil || u.Name != p.Name || u.Run == nil {
			t.Errorf("builtins' maker of %s makes %+v", p.Name, u)
		}
		if first, again := Lookup(p.Name), Lookup(p.Name); first != again {
			t.Errorf("Lookup(%q) makes a new utility each time", p.Name)
		}
	}
}

// TestProvideRefusesTakenNames: a second utility of a name already taken,
// built in or provided, panics rather than replacing the first.
func TestProvideRefusesTakenNames(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"cat", "["} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Register(%q) did not panic", name)
				}
			}()
			Register(&Utility{Name: name, Run: func(*Env) (int, error) { return 0, nil }})
		}()
	}
}
