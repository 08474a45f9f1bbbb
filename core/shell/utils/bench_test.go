package utils

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"gatehouse/core/vfs"
)

// BenchmarkFindXargsGrep is G-14's workload: find / -type f | xargs grep
// -l TODO over 100,000 five-line files in a memory mount.
func BenchmarkFindXargsGrep(b *testing.B) {
	files := make(map[string]string, 100000)
	for i := 0; i < 100000; i++ {
		body := "line one\nline two\nline three\nline four\nline five\n"
		if i%100 == 0 {
			body = "line one\nline two\n// TODO fix\nline four\nline five\n"
		}
		files[fmt.Sprintf("d%03d/f%05d.txt", i/1000, i)] = body
	}
	v, err := vfs.New([]vfs.MountSpec{{Prefix: "/data", Files: files}})
	if err != nil {
		b.Fatal(err)
	}
	defer v.Close()
	fsys := v.View(vfs.OpenDoor)
	run := func(argv []string, stdin io.Reader) string {
		var out bytes.Buffer
		e := testEnv(nil, utilCase{args: argv, dir: "/"}, fsys, &out, io.Discard, nil)
		e.Stdin = stdin
		if _, err := Lookup(argv[0]).Run(e); err != nil {
			b.Fatal(err)
		}
		return out.String()
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		list := run([]string{"find", "/data", "-type", "f"}, nil)
		found := run([]string{"xargs", "grep", "-l", "TODO"}, strings.NewReader(list))
		if n := strings.Count(found, "\n"); n != 1000 {
			b.Fatalf("grep found %d files, want 1000", n)
		}
	}
}
