package main

import (
	"fmt"
	"io"
)

// cmdConsole opens the console (G-13.1). Not built yet.
func cmdConsole(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "gatehouse: the console is not built yet; try `gatehouse demo permissions`")
	return 1
}
