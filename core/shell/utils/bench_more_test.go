package utils

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"gatehouse/core/vfs"
)

// benchRun runs argv over a memory mount holding files (under /data, the
// cwd) b.N times and checks each run with check.
func benchRun(b *testing.B, files map[string]string, argv []string, stdin string, check func(out string) bool) {
	b.Helper()
	v, err := vfs.New([]vfs.MountSpec{{Prefix: "/data", Files: files}})
	if err != nil {
		b.Fatal(err)
	}
	defer v.Close()
	fsys := v.View(vfs.OpenDoor)
	var size int64
	for _, body := range files {
		size += int64(len(body))
	}
	b.SetBytes(size + int64(len(stdin)))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		var out bytes.Buffer
		e := testEnv(nil, utilCase{args: argv, dir: "/data"}, fsys, &out, io.Discard, nil)
		e.Stdin = strings.NewReader(stdin)
		e.NoStdin = stdin == ""
		if _, err := Lookup(argv[0]).Run(e); err != nil {
			b.Fatal(err)
		}
		if check != nil && !check(out.String()) {
			b.Fatalf("%v: unexpected output %.200q", argv, out.String())
		}
	}
}

// jqBenchInput is an array of 20,000 five-key objects (about 1.3 MB).
func jqBenchInput() string {
	var sb strings.Builder
	sb.WriteString("[")
	for i := range 20000 {
		if i > 0 {
			sb.WriteString(",\n")
		}
		sb.WriteString(`{"name":"item-` + strings.Repeat("x", i%7) + `","version":"1.2.3","private":false,"deps":{"b":1,"a":2},"id":` + itoa(i) + `}`)
	}
	sb.WriteString("]\n")
	return sb.String()
}

// BenchmarkJqIterate walks every object with .[] (the ordered iteration).
func BenchmarkJqIterate(b *testing.B) {
	files := map[string]string{"in.json": jqBenchInput()}
	benchRun(b, files, []string{"jq", "-c", ".[] | .deps[]", "in.json"}, "", func(out string) bool {
		return strings.HasPrefix(out, "1\n2\n")
	})
}

// BenchmarkJqDerived prints 20,000 objects the filter changed, whose key
// order comes from the objects they were derived from.
func BenchmarkJqDerived(b *testing.B) {
	files := map[string]string{"in.json": jqBenchInput()}
	benchRun(b, files, []string{"jq", "-c", "map(.id += 1 | del(.private))", "in.json"}, "", func(out string) bool {
		return strings.HasPrefix(out, `[{"name":"item-","version":"1.2.3","deps":{"b":1,"a":2},"id":1}`)
	})
}

// BenchmarkRgTree searches 20,000 five-line files (a .gitignore and a git
// root included), one in a hundred matching.
func BenchmarkRgTree(b *testing.B) {
	files := map[string]string{".git/HEAD": "ref: x\n", ".gitignore": "*.log\n"}
	for i := range 20000 {
		body := "line one\nline two\nline three\nline four\nline five\n"
		if i%100 == 0 {
			body = "line one\nline two\n// TODO fix\nline four\nline five\n"
		}
		files["d"+itoa(i/1000)+"/f"+itoa(i)+".go"] = body
	}
	benchRun(b, files, []string{"rg", "-l", "TODO"}, "", func(out string) bool {
		return strings.Count(out, "\n") == 200
	})
}

// dumpBenchInput is 4 MiB of varied bytes.
func dumpBenchInput() string {
	b := make([]byte, 4<<20)
	x := uint32(2463534242)
	for i := range b {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b[i] = byte(x)
	}
	return string(b)
}

// BenchmarkDumps runs od -c, xxd and hexdump -C over 4 MiB.
func BenchmarkDumps(b *testing.B) {
	files := map[string]string{"in.bin": dumpBenchInput()}
	for _, argv := range [][]string{{"od", "-c", "in.bin"}, {"od", "-tx1z", "in.bin"}, {"xxd", "in.bin"}, {"hexdump", "-C", "in.bin"}} {
		b.Run(argv[0]+strings.Join(argv[1:len(argv)-1], ""), func(b *testing.B) {
			benchRun(b, files, argv, "", func(out string) bool { return len(out) > 4<<20 })
		})
	}
}

// textBenchInput is 4 MiB of source-like lines with tabs.
func textBenchInput() string {
	var sb strings.Builder
	for i := 0; sb.Len() < 4<<20; i++ {
		sb.WriteString("\tfunc handler" + itoa(i) + "(w http.ResponseWriter, r *http.Request) {\treturn nil }\n")
	}
	return sb.String()
}

// BenchmarkTextTools runs the streaming text and checksum utilities over
// 4 MiB.
func BenchmarkTextTools(b *testing.B) {
	files := map[string]string{"in.txt": textBenchInput()}
	for _, argv := range [][]string{
		{"fold", "-w", "40", "in.txt"}, {"expand", "in.txt"}, {"unexpand", "-a", "in.txt"},
		{"strings", "in.txt"}, {"b2sum", "in.txt"}, {"sha512sum", "in.txt"}, {"cksum", "in.txt"},
		{"less", "in.txt"}, {"column", "-t", "in.txt"},
	} {
		b.Run(argv[0], func(b *testing.B) { benchRun(b, files, argv, "", nil) })
	}
}

// BenchmarkBc computes pi to 1,000 digits and a 10,000-step loop.
func BenchmarkBc(b *testing.B) {
	benchRun(b, nil, []string{"bc", "-l"}, "scale=1000; 4*a(1)\nfor (i=0; i<10000; i++) s+=i*i\ns\n", func(out string) bool {
		return strings.HasPrefix(out, "3.14159265358979")
	})
}

// BenchmarkGrepBacktrack runs patterns RE2 cannot take over 4 MiB:
// a lookbehind with -o, and a POSIX backreference.
func BenchmarkGrepBacktrack(b *testing.B) {
	files := map[string]string{"in.txt": textBenchInput()}
	b.Run("lookbehind", func(b *testing.B) {
		benchRun(b, files, []string{"grep", "-oP", `(?<=func )handler\d+`, "in.txt"}, "", nil)
	})
	b.Run("backreference", func(b *testing.B) {
		benchRun(b, files, []string{"grep", "-cE", `(r)\1`, "in.txt"}, "", nil)
	})
	b.Run("re2 for comparison", func(b *testing.B) {
		benchRun(b, files, []string{"grep", "-oP", `func handler\d+`, "in.txt"}, "", nil)
	})
}
