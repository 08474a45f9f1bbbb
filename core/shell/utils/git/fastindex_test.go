package git

import (
	"bytes"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// TestDecodeIndexEntries: the one-pass reader gives exactly what go-git's
// decoder gives, for index versions 2, 3 (extended flags) and 4 (prefix-
// compressed names), and refuses what it cannot read rather than guess.
func TestDecodeIndexEntries(t *testing.T) {
	t.Parallel()
	for _, version := range []uint32{2, 3, 4} {
		t.Run(fmt.Sprint(version), func(t *testing.T) {
			t.Parallel()
			idx := &index.Index{Version: version}
			names := []string{"a.txt", "d/c.txt", "d/e/f.txt", "d/e/long-" + string(bytes.Repeat([]byte("x"), 100)), "z"}
			for i, n := range names {
				e := &index.Entry{
					Name: n, Hash: plumbing.ComputeHash(plumbing.BlobObject, []byte(n)), Mode: filemode.Regular,
					Size: uint32(10 * i), CreatedAt: time.Unix(1714564800, 123), ModifiedAt: time.Unix(1714564800+int64(i), 456),
					Dev: 7, Inode: uint32(100 + i), UID: 1, GID: 2,
				}
				if version == 3 && i == 1 {
					e.SkipWorktree, e.IntentToAdd = true, true
				}
				if i == 4 {
					e.Mode = filemode.Executable
				}
				idx.Entries = append(idx.Entries, e)
			}
			var buf bytes.Buffer
			if err := index.NewEncoder(&buf).Encode(idx); err != nil {
				t.Fatal(err)
			}
			want := &index.Index{}
			if err := index.NewDecoder(bytes.NewReader(buf.Bytes())).Decode(want); err != nil {
				t.Fatal(err)
			}
			got, ok := decodeIndexEntries(buf.Bytes())
			if !ok {
				t.Fatal("the one-pass reader refused an index go-git reads")
			}
			if !reflect.DeepEqual(got.Entries, want.Entries) {
				for i := range want.Entries {
					if !reflect.DeepEqual(got.Entries[i], want.Entries[i]) {
						t.Errorf("entry %d:\ngot  %+v\nwant %+v", i, got.Entries[i], want.Entries[i])
					}
				}
			}
			for _, cut := range []int{11, 40, len(buf.Bytes()) - 21} {
				if _, ok := decodeIndexEntries(buf.Bytes()[:cut]); ok {
					t.Errorf("a truncated index (%d bytes) was read", cut)
				}
			}
		})
	}
}
