package awk

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand"
	"strings"
	"testing"

	"gatehouse/core/shell/utils"
)

// benchInput is ~8 MB of log-like lines, made once.
var benchInput = func() []byte {
	r := rand.New(rand.NewSource(42))
	words := strings.Fields("alpha bravo charlie delta echo foxtrot golf hotel india juliet")
	var b bytes.Buffer
	for i := 0; b.Len() < 8<<20; i++ {
		fmt.Fprintf(&b, "k%03d %s %d %.3f,%s,%d user%d@example.com\n", r.Intn(500), words[r.Intn(10)], r.Intn(100000), r.Float64()*1000, words[r.Intn(10)], i, r.Intn(5000))
	}
	return b.Bytes()
}()

// BenchmarkPrograms runs the programs of bench/awk.sh over standard input,
// without the shell, to profile the interpreter alone.
func BenchmarkPrograms(b *testing.B) {
	progs := map[string][]string{
		"sum":       {`{s+=$3} END{print s}`},
		"csvfield":  {"-F,", `{print $2}`},
		"countkey":  {`{c[$1]++} END{for(k in c) n++; print n}`},
		"gsub":      {`{gsub(/a/, "A")} END{print NR}`},
		"gsubprint": {`{gsub(/a/, "A"); print}`},
		"regex":     {`/charlie/{n++} END{print n}`},
		"swap":      {`{print $2, $1}`},
		"length":    {`length > 60 {n++} END{print n+0}`},
		"print":     {`{print}`},
	}
	for name, args := range progs {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(benchInput)))
			for i := 0; i < b.N; i++ {
				e := &utils.Env{Ctx: context.Background(), Args: append([]string{"awk"}, args...),
					Stdin: bytes.NewReader(benchInput), Stdout: io.Discard, Stderr: io.Discard, Dir: "/"}
				if code, err := Run(e); code != 0 || err != nil {
					b.Fatalf("exit %d, %v", code, err)
				}
			}
		})
	}
}
