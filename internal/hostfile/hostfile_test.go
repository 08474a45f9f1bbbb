package hostfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// leftovers fails the test when a temporary file is left in dir.
func leftovers(t *testing.T, dir string, want ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("directory holds %v, want %v", got, want)
	}
}

func readString(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestWriteCreatesAndReplaces(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "doc.yaml")
	if err := Write(path, []byte("one\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, []byte("two\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, path); got != "two\n" {
		t.Errorf("content %q, want two", got)
	}
	info, _ := os.Stat(path)
	if info.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", info.Mode().Perm())
	}
	leftovers(t, dir, "doc.yaml")
}

func TestReplaceKeepsModeAndLink(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	target := filepath.Join(dir, "real.yaml")
	link := filepath.Join(dir, "link.yaml")
	if err := os.WriteFile(target, []byte("old\n"), 0o604); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real.yaml", link); err != nil {
		t.Fatal(err)
	}
	if err := Replace(link, []byte("new\n")); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&fs.ModeSymlink == 0 {
		t.Error("the link was replaced by a file; its target should have been")
	}
	if got := readString(t, target); got != "new\n" {
		t.Errorf("target holds %q, want new", got)
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o604 {
		t.Errorf("mode %v, want 0604 kept", fi.Mode().Perm())
	}
	if err := Replace(filepath.Join(dir, "missing"), nil); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Replace of a missing file: %v, want ErrNotExist", err)
	}
	leftovers(t, dir, "link.yaml", "real.yaml")
}

func TestReplaceIfRefusesAChangedFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "doc.yaml")
	if err := os.WriteFile(path, []byte("seen\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := ReplaceIf(path, []byte("other\n"), []byte("mine\n")); !errors.Is(err, ErrChanged) {
		t.Errorf("ReplaceIf over changed content: %v, want ErrChanged", err)
	}
	if got := readString(t, path); got != "seen\n" {
		t.Errorf("a refused ReplaceIf wrote %q", got)
	}
	if err := ReplaceIf(path, []byte("seen\n"), []byte("mine\n")); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, path); got != "mine\n" {
		t.Errorf("content %q, want mine", got)
	}
	leftovers(t, dir, "doc.yaml")
}

// Of many writers that all read the same content, exactly one replaces it;
// the others are told it changed (two consoles amending one document).
func TestReplaceIfOneWinnerAmongMany(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "doc.yaml")
	if err := os.WriteFile(path, []byte("base\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const n = 16
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = ReplaceIf(path, []byte("base\n"), []byte(fmt.Sprintf("writer %d\n", i)))
		}()
	}
	wg.Wait()
	won := -1
	for i, err := range errs {
		switch {
		case err == nil && won >= 0:
			t.Errorf("writers %d and %d both replaced the file", won, i)
		case err == nil:
			won = i
		case !errors.Is(err, ErrChanged):
			t.Errorf("writer %d: %v", i, err)
		}
	}
	if won < 0 {
		t.Fatal("no writer replaced the file")
	}
	if got, want := readString(t, path), fmt.Sprintf("writer %d\n", won); got != want {
		t.Errorf("content %q, want the winner's %q", got, want)
	}
	leftovers(t, dir, "doc.yaml")
}

// Of many processes creating the same file, one creates it and the others
// find it whole.
func TestCreateOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "token")
	const n = 16
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = Create(path, []byte(fmt.Sprintf("token %02d\n", i)), 0o600)
		}()
	}
	wg.Wait()
	created := 0
	for i, err := range errs {
		switch {
		case err == nil:
			created++
		case !errors.Is(err, fs.ErrExist):
			t.Errorf("creator %d: %v", i, err)
		}
	}
	if created != 1 {
		t.Errorf("%d creators succeeded, want 1", created)
	}
	if got := readString(t, path); len(got) != len("token 00\n") {
		t.Errorf("content %q is not one whole token", got)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
	leftovers(t, dir, "token")
}
