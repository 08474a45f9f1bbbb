package awk

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"gatehouse/core/shell/utils"
	"gatehouse/core/vfs"
)

// FuzzAwk feeds arbitrary program text to the parser and runs what parses
// for a moment: no input may panic, hang past its context or take the
// process down (G-12.3).
func FuzzAwk(f *testing.F) {
	for _, seed := range []string{
		`{print $2}`, `BEGIN{FS=":"} {s+=$3} END{print s/NR}`, `/a/,/b/{n++}`,
		`function f(a,b){return a[b]} BEGIN{x[1]=2; print f(x,1)}`,
		`{gsub(/[0-9]+/, "<&>"); printf "%-5s|%5.2f\n", $1, $2}`,
		`BEGIN{while((getline l < "x") > 0) n++; split("a b", p); for(k in p) print k}`,
		`BEGIN { x = 1 +* 2 }`, `{print $1`, `/[[:alpha:]]{2,3}/`, `BEGIN{switch(1){case 1: print; default: break}}`,
		`BEGIN{"echo" | getline; print > "/dev/stderr"; print | "cat"}`, `a[$1]++{}`, `$0=$0`,
	} {
		f.Add(seed, "a b 1\nc d 2\n")
	}
	f.Fuzz(func(t *testing.T, prog, input string) {
		if len(prog) > 4096 || len(input) > 4096 {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		v, err := vfs.New([]vfs.MountSpec{{Prefix: "/w", Files: map[string]string{"x": input}}})
		if err != nil {
			t.Fatal(err)
		}
		defer v.Close()
		e := &utils.Env{Ctx: ctx, Args: []string{"awk", prog}, Stdin: strings.NewReader(input),
			Stdout: io.Discard, Stderr: io.Discard, Dir: "/w", FS: v.View(vfs.OpenDoor)}
		done := make(chan struct{})
		go func() {
			defer close(done)
			Run(e)
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("awk %q did not stop after its context ended", prog)
		}
	})
}
