package vfs

import (
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
)

// charger is a door that lets everything through and counts what it was
// charged, refusing past a limit.
type charger struct {
	mu    sync.Mutex
	held  int64
	limit int64
}

func (c *charger) CheckOp(Op) error { return nil }

func (c *charger) ChargeMemory(n int64) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if n > 0 && c.held+n > c.limit {
		return errors.New("over budget")
	}
	c.held += n
	return nil
}

func writeFile(t *testing.T, fsys FS, name string, size int, flag int) error {
	t.Helper()
	f, err := fsys.OpenFile(name, flag, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = f.Write([]byte(strings.Repeat("x", size)))
	return err
}

// G-12.3: a memory mount's size bounds its content and its entries; a
// write past it is ENOSPC; removal, truncation and replacement free space.
func TestMemoryMountSize(t *testing.T) {
	t.Parallel()
	v := mustVFS(t, MountSpec{Prefix: "/m", Size: 10 << 10, Files: map[string]string{"seed": strings.Repeat("s", 1000)}})
	fsys := v.View(nil)
	create := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if err := writeFile(t, fsys, "/m/a", 8000, create); err != nil {
		t.Fatalf("a write that fits: %v", err)
	}
	if err := writeFile(t, fsys, "/m/b", 2000, create); !errors.Is(err, ENOSPC) {
		t.Fatalf("a write past the size: %v, want ENOSPC", err)
	}
	if err := fsys.Remove("/m/a"); err != nil {
		t.Fatal(err)
	}
	if err := writeFile(t, fsys, "/m/b", 8000, create); err != nil {
		t.Fatalf("after removing a: %v", err)
	}
	if err := writeFile(t, fsys, "/m/b", 8000, create); err != nil {
		t.Fatalf("truncating and rewriting b: %v", err)
	}
	if err := writeFile(t, fsys, "/m/c", 100, create); err != nil {
		t.Fatal(err)
	}
	if err := fsys.Rename("/m/c", "/m/b"); err != nil {
		t.Fatal(err)
	}
	if err := writeFile(t, fsys, "/m/d", 8000, create); err != nil {
		t.Fatalf("after replacing b by a small file: %v", err)
	}
	var err error
	for i := 0; i < 1000 && err == nil; i++ {
		err = fsys.Mkdir("/m/dir"+strings.Repeat("x", i%5)+string(rune('a'+i%26))+string(rune('a'+i/26)), 0o755)
	}
	if !errors.Is(err, ENOSPC) {
		t.Errorf("creating entries without end: %v, want ENOSPC", err)
	}
	if _, err := New([]MountSpec{{Prefix: "/m", Size: 100, Files: map[string]string{"seed": strings.Repeat("s", 1000)}}}); err == nil {
		t.Error("seed files larger than the size were accepted")
	}
}

// G-12.3: a door that charges memory pays for what files opened through it
// add to a memory mount, and is credited for what its removals free.
func TestMemoryMountChargesTheOpener(t *testing.T) {
	t.Parallel()
	v := mustVFS(t, MountSpec{Prefix: "/m"})
	c := &charger{limit: 20000}
	fsys := v.View(c)
	create := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if err := writeFile(t, fsys, "/m/a", 15000, create); err != nil {
		t.Fatal(err)
	}
	if c.held < 15000 {
		t.Errorf("charged %d for 15000 bytes", c.held)
	}
	if err := writeFile(t, fsys, "/m/b", 15000, create); err == nil {
		t.Error("a write past the opener's budget went through")
	}
	if err := fsys.Remove("/m/a"); err != nil {
		t.Fatal(err)
	}
	if err := writeFile(t, fsys, "/m/b", 15000, create); err != nil {
		t.Errorf("after removing a, within the budget again: %v", err)
	}
}

// G-12.3: a host mount's write quota is spent by writes; past it EDQUOT.
func TestHostMountQuota(t *testing.T) {
	t.Parallel()
	v := mustVFS(t, MountSpec{Prefix: "/h", HostDir: t.TempDir(), Quota: 10000})
	fsys := v.View(nil)
	create := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if err := writeFile(t, fsys, "/h/a", 6000, create); err != nil {
		t.Fatal(err)
	}
	if err := writeFile(t, fsys, "/h/b", 6000, create); !errors.Is(err, EDQUOT) {
		t.Errorf("a write past the quota: %v, want EDQUOT", err)
	}
	if _, err := New([]MountSpec{{Prefix: "/h", HostDir: t.TempDir(), Size: 10}}); err == nil {
		t.Error("a size on a host mount was accepted")
	}
	if _, err := New([]MountSpec{{Prefix: "/m", Quota: 10}}); err == nil {
		t.Error("a quota on a memory mount was accepted")
	}
}
