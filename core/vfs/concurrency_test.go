package vfs

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
)

// Readers list, stat and read while writers create, append, rename and
// remove in the same directories; run under -race this checks the locking,
// and every read must see a whole line, never a torn one.
func TestConcurrentReadersAndWriters(t *testing.T) {
	t.Parallel()
	seed := map[string]string{}
	for i := range 50 {
		seed[fmt.Sprintf("d/f%02d", i)] = "line\n"
	}
	v := mustVFS(t, MountSpec{Prefix: "/m", Files: seed})
	fsys := v.View(&ruleDoor{hidden: []string{"/m/d/hidden"}})

	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for w := range 4 {
		wg.Go(func() {
			for i := range 100 {
				name := fmt.Sprintf("/m/d/w%d-%d", w, i)
				if err := writeAll(fsys, name, "line\n"); err != nil {
					errs <- err
					return
				}
				f, err := fsys.OpenFile("/m/d/f00", os.O_WRONLY|os.O_APPEND, 0)
				if err != nil {
					errs <- err
					return
				}
				io.WriteString(f, "line\n")
				f.Close()
				if i%2 == 0 {
					fsys.Rename(name, name+".old")
				} else {
					fsys.Remove(name)
				}
			}
		})
	}
	for range 4 {
		wg.Go(func() {
			for range 100 {
				entries, err := fsys.ReadDir("/m/d")
				if err != nil {
					errs <- err
					return
				}
				for _, e := range entries[:min(5, len(entries))] {
					fsys.Stat("/m/d/" + e.Name())
				}
				got, err := readAll(fsys, "/m/d/f00")
				if err != nil || len(got)%5 != 0 || strings.Count(got, "line\n") != len(got)/5 {
					errs <- fmt.Errorf("torn read %q, %v", got, err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if got, _ := readAll(fsys, "/m/d/f00"); strings.Count(got, "line\n") != 401 {
		t.Fatalf("appends lost: %d lines", strings.Count(got, "line\n"))
	}
}
