package core

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// G-12.1: a background job or a pipeline stage starts with a copy of the
// shell's variables; the shell then goes on changing its arrays and
// strings in place (element writes, appends), and the copy must neither
// see those writes nor race with them (run under -race in CI).
func TestBackgroundCopiesKeepTheirValues(t *testing.T) {
	t.Parallel()
	s := memoryWorkspace(t, 64<<20)
	line := `a=(0); declare -A m=([n]=0); s=x; { for i in $(seq 40); do
	  { sleep 0.05; echo "$i ${#a[@]} ${m[n]} ${#s} ${a[-1]} ${a[0]}"; } &
	  { sleep 0.01; echo "$i ${#a[@]} ${m[n]} ${#s} ${a[-1]} ${a[0]}"; } | cat
	  a+=($i); a[i*2]=$i; a[0]=$i; m[n]=$i; ((m[c]++)); s+=x
	done; wait; } > /tmp/out; sort -n /tmp/out | uniq -c | awk '$1 != 2 { print "odd:", $0 }'; wc -l < /tmp/out`
	res := s.Execute(context.Background(), line)
	if res.ExitCode != 0 || res.Stdout != "80\n" {
		t.Fatalf("%+v", res)
	}
	want := make([]string, 0, 40)
	for i := 1; i <= 40; i++ {
		// Before step i: 0…i-1 appended, and i-1 more at 2, 4, …, 2(i-1).
		want = append(want, fmt.Sprintf("%d %d %d %d %d %d", i, 2*i-1, i-1, i, i-1, i-1))
	}
	got := s.Execute(context.Background(), `sort -n /tmp/out | uniq`)
	if strings.TrimSpace(got.Stdout) != strings.Join(want, "\n") {
		t.Errorf("the copies saw:\n%s\nwant:\n%s", got.Stdout, strings.Join(want, "\n"))
	}
}
