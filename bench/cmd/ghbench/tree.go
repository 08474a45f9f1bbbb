package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// The benchmark tree has three parts, each a mount in gatehouse and a
// directory on the host:
//
//	tree/dNNNN/sNN/fNNNNNNN.txt  N five-line files, 100 per leaf directory,
//	                             10 leaves per top directory; every tenth
//	                             file holds a TODO line
//	logs/appNNN.log              100 logs of 1,000 lines; two thirds of
//	                             them have ERROR lines
//	data/big.log                 200,000 lines of 40 distinct words
//
// Everything is derived from the file's index, so each system gets the
// same bytes without sharing anything but this code.
const (
	filesPerLeaf  = 100
	leavesPerTop  = 10
	logFiles      = 100
	linesPerLog   = 1000
	bigLogLines   = 200_000
	todoEveryNth  = 10
	errorEveryNth = 50
)

// mountNames are the three parts in the order they are mounted.
var mountNames = []string{"tree", "logs", "data"}

// benchTree returns each part's files, keyed by path inside the part.
func benchTree(n int) map[string]map[string]string {
	parts := map[string]map[string]string{
		"tree": make(map[string]string, n),
		"logs": make(map[string]string, logFiles),
		"data": {"big.log": bigLog()},
	}
	for i := range n {
		parts["tree"][treeFileName(i)] = treeFileBody(i)
	}
	for i := range logFiles {
		parts["logs"][fmt.Sprintf("app%03d.log", i)] = logBody(i)
	}
	return parts
}

func treeFileName(i int) string {
	leaf := i / filesPerLeaf
	return fmt.Sprintf("d%04d/s%02d/f%07d.txt", leaf/leavesPerTop, leaf%leavesPerTop, i)
}

func treeFileBody(i int) string {
	third := fmt.Sprintf("func step%d() { return }", i)
	if i%todoEveryNth == 0 {
		third = fmt.Sprintf("// TODO: handle the error of step %d", i)
	}
	return fmt.Sprintf("package p%d\n\nimport \"fmt\"\n%s\nvar _ = fmt.Sprint\n", i%97, third)
}

func logBody(file int) string {
	var b strings.Builder
	levels := []string{"INFO", "DEBUG", "WARN", "INFO"}
	for line := range linesPerLog {
		level := levels[line%len(levels)]
		// A third of the logs are clean, so `sort -u` has work to drop.
		if file%3 != 0 && line%errorEveryNth == 7 {
			level = "ERROR"
		}
		fmt.Fprintf(&b, "2025-06-01T09:%02d:%02dZ %s service=api%d request=%d took=%dms\n",
			line/60%60, line%60, level, file%7, file*linesPerLog+line, (line*37)%500)
	}
	return b.String()
}

// bigLog is 200,000 lines of 40 words, skewed so that uniq -c has a head
// worth sorting: a linear congruential sequence squared picks low indexes
// more often.
func bigLog() string {
	words := strings.Fields(`alpha bravo charlie delta echo foxtrot golf hotel india juliet
		kilo lima mike november oscar papa quebec romeo sierra tango uniform victor whiskey
		xray yankee zulu amber bronze cobalt denim ember flint granite hazel indigo jade
		khaki lemon marble nickel`)
	var b strings.Builder
	b.Grow(bigLogLines * 8)
	state := uint32(12345)
	for range bigLogLines {
		state = state*1664525 + 1013904223
		r := float64(state>>8) / float64(1<<24)
		b.WriteString(words[int(r*r*float64(len(words)))])
		b.WriteByte('\n')
	}
	return b.String()
}

// treeCommand writes the tree under -root for GNU bash and just-bash.
func treeCommand(args []string) error {
	fs := flag.NewFlagSet("tree", flag.ExitOnError)
	n := fs.Int("n", 100_000, "number of files in tree/")
	root := fs.String("root", "", "directory to write into (emptied first)")
	fs.Parse(args)
	if *root == "" {
		return fmt.Errorf("tree: -root is required")
	}
	start := time.Now()
	if err := os.RemoveAll(*root); err != nil {
		return err
	}
	parts := benchTree(*n)
	made := map[string]bool{}
	for _, part := range mountNames {
		for name, body := range parts[part] {
			path := filepath.Join(*root, part, name)
			if dir := filepath.Dir(path); !made[dir] {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					return err
				}
				made[dir] = true
			}
			if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
				return err
			}
		}
	}
	fmt.Fprintf(os.Stderr, "ghbench: wrote %d files under %s in %.1fs\n",
		*n+logFiles+1, *root, time.Since(start).Seconds())
	return nil
}
