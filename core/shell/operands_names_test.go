package shell

import (
	"sort"
	"testing"
)

// TestShellBuiltinNamesSorted: the names stay sorted, so that a name is
// found at a glance and never listed twice, and isShellBuiltin knows them.
func TestShellBuiltinNamesSorted(t *testing.T) {
	t.Parallel()
	if !sort.StringsAreSorted(shellBuiltinNames[:]) {
		t.Fatal("shellBuiltinNames is not sorted")
	}
	for i := 1; i < len(shellBuiltinNames); i++ {
		if shellBuiltinNames[i] == shellBuiltinNames[i-1] {
			t.Errorf("%s is listed twice", shellBuiltinNames[i])
		}
	}
	for _, name := range []string{"cd", "[", ":", ".", "echo", "ulimit"} {
		if !isShellBuiltin(name) {
			t.Errorf("isShellBuiltin(%q) = false", name)
		}
	}
	for _, name := range []string{"ls", "grep", "", "cdx"} {
		if isShellBuiltin(name) {
			t.Errorf("isShellBuiltin(%q) = true", name)
		}
	}
}
