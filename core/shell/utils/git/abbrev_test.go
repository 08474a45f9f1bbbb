package git_test

import (
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
	"testing"

	"gatehouse/core/gate"
	"gatehouse/core/vfs"
)

// fakePack is a version 2 pack index naming n made-up objects, and an
// empty pack beside it: enough for git's object count, which reads only
// the index's fan-out table, while no lookup ever finds these names.
func fakePack(n int) (idx, name string) {
	names := make([][]byte, n)
	for i := range names {
		s := sha1.Sum([]byte{byte(i), byte(i >> 8), byte(i >> 16), 'x'})
		names[i] = s[:]
	}
	sort.Slice(names, func(a, b int) bool { return string(names[a]) < string(names[b]) })
	var b []byte
	b = append(b, 0xff, 't', 'O', 'c', 0, 0, 0, 2)
	var fan [256]uint32
	for _, h := range names {
		for j := int(h[0]); j < 256; j++ {
			fan[j]++
		}
	}
	for _, f := range fan {
		b = binary.BigEndian.AppendUint32(b, f)
	}
	for _, h := range names {
		b = append(b, h...)
	}
	b = append(b, make([]byte, 8*n+40)...) // CRCs, offsets, checksums
	sum := sha1.Sum(b)
	return string(b), hex.EncodeToString(sum[:])
}

// TestAbbrevGrowsWithTheRepository: git's default abbreviation is 7 hex
// digits in a small repository and grows with the packed objects' count
// (8 from 16384 objects, 9 from 65536), as in any clone of a project with
// a long history; core.abbrev sets it outright (G-12.1).
func TestAbbrevGrowsWithTheRepository(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		objects int
		config  string
		want    int
		noPack  bool // the index alone, which git leaves out
	}{
		{0, "", 7, false},
		{16383, "", 7, false},
		{16384, "", 8, false},
		{70000, "", 9, false},
		{70000, "12", 12, false},
		{0, "auto", 7, false},
		{70000, "", 7, true},
	} {
		t.Run(fmt.Sprintf("%d objects %s %v", tc.objects, tc.config, tc.noPack), func(t *testing.T) {
			t.Parallel()
			files := map[string]string{}
			for k, v := range seedConfig {
				files[k] = v
			}
			files["a.txt"] = "one\n"
			if tc.objects > 0 {
				idx, name := fakePack(tc.objects)
				files[".git/objects/pack/pack-"+name+".idx"] = idx
				if !tc.noPack {
					files[".git/objects/pack/pack-"+name+".pack"] = ""
				}
			}
			w := newWorld(t, []vfs.MountSpec{{Prefix: "/w", Files: files}}, gate.ProfileSpec{})
			w.must("git init -q && git add a.txt && git commit -q -m one")
			if tc.config != "" {
				w.must("git config core.abbrev " + tc.config)
			}
			full := strings.TrimSpace(w.must("git rev-parse HEAD"))
			id := full[:tc.want]
			for line, want := range map[string]string{
				"git log --oneline":               id + " one\n",
				"git log -1 --format=%h":          id + "\n",
				"git rev-parse --short HEAD":      id + "\n",
				"git blame a.txt | cut -d' ' -f1": "^" + id + "\n",
			} {
				if got := w.must(line); got != want {
					t.Errorf("%s: got %q, want %q", line, got, want)
				}
			}
			blob := strings.TrimSpace(w.must("git rev-parse HEAD:a.txt"))
			w.must("echo two >> a.txt")
			if got := w.must("git diff | sed -n 2p"); !strings.HasPrefix(got, "index "+blob[:tc.want]+"..") {
				t.Errorf("git diff index line %q, want the blob abbreviated to %d", got, tc.want)
			}
		})
	}
}
