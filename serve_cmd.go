package main

import (
	"fmt"
	"io"
)

// cmdServe runs the REST daemon (G-10.6). Not built yet.
func cmdServe(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "gatehouse: serve is not built yet")
	return 1
}
