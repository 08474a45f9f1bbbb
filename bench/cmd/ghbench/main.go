// Command ghbench is the Go half of bench/compare.sh (G-14): it writes the
// benchmark tree for the host-side shells, runs the comparison lines in a
// gatehouse workspace built in-process (interleaved with GNU bash and
// just-bash, so every ratio comes from one run), and measures a thousand
// concurrent sessions in one process.
//
//	ghbench tree     -n N -root DIR         write the tree under DIR
//	ghbench compare  -n N -root DIR ...     run the lines, print the table
//	ghbench sessions -sessions 1000 ...     memory, throughput, lost answers
//	ghbench hostmount -root DIR -gatehouse BIN   host mounts, whole processes, against GNU
//	ghbench startup -gatehouse BIN          exec -- true against bash -c true: CPU, faults, peak RSS
//	go test -bench ... | ghbench micro      medians and G-14 verdicts
package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	args := os.Args[2:]
	var err error
	switch os.Args[1] {
	case "tree":
		err = treeCommand(args)
	case "compare":
		err = compareCommand(args)
	case "sessions":
		err = sessionsCommand(args)
	case "micro":
		err = microCommand(args)
	case "hostmount":
		err = hostmountCommand(args)
	case "startup":
		err = startupCommand(args)
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "ghbench:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, `usage: ghbench tree|compare|sessions|micro|hostmount|startup [flags]
  tree      write the benchmark tree on the host (for GNU bash and just-bash)
  compare   run the comparison lines in gatehouse, GNU bash and just-bash
  sessions  1,000 concurrent sessions: idle memory, lines/s, lost answers
  micro     read go test -bench output on stdin; print medians and budgets
  hostmount host mounts against GNU on the same tree, whole processes
  startup   gatehouse exec -- true against bash -c true: CPU, page faults, peak RSS
Run "ghbench SUBCOMMAND -h" for its flags.`)
	os.Exit(2)
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "ghbench: "+format+"\n", args...)
}
