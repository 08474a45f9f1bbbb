package git_test

import (
	"flag"
	"fmt"
	"testing"

	"gatehouse/core/gate"
)

var tryLine = flag.String("try", "", "run this line in a fresh world and print what it gives")

func TestTry(t *testing.T) {
	if *tryLine == "" {
		t.Skip("no -try line")
	}
	w := newWorld(t, nil, gate.ProfileSpec{})
	out, errOut, code := w.run(*tryLine)
	fmt.Printf("--- stdout\n%s--- stderr\n%s--- exit %d\n", out, errOut, code)
}
