//go:build linux && (amd64 || arm64)

package faultaround

import (
	"debug/elf"
	"os"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

func TestParseMaps(t *testing.T) {
	t.Parallel()
	maps := `00400000-014a0000 r-xp 00000000 fe:00 10528915                           /usr/bin/gatehouse
014a0000-025ea000 r--p 010a0000 fe:00 10528915                           /usr/bin/gatehouse
025ea000-02854000 rw-p 021ea000 fe:00 10528915                           /usr/bin/gatehouse
02854000-04ac7000 rw-p 00000000 00:00 0
7f86a4b23000-7f86a4c79000 r-xp 00026000 fe:00 326269                     /usr/lib/x86_64-linux-gnu/libc.so.6
7f86a4c79000-7f86a4c7a000 ---p 0017c000 fe:00 326269                     /usr/lib/x86_64-linux-gnu/libc.so.6
7f86a4ce0000-7f86a4ce8000 rw-s 00000000 fe:00 10092550                   /root/.local/share/gatehouse/ledger.db-shm
7f86a4ce8000-7f86a4ce9000 r--p 00000000 fe:00 17                         /tmp/a name with spaces (deleted)
7ffe4698a000-7ffe469ab000 rw-p 00000000 00:00 0                          [stack]
7ffe469d0000-7ffe469d2000 r-xp 00000000 00:00 0                          [vdso]
zzzz-0400 r--p 00000000 fe:00 1 /bad/range`
	want := []span{
		{0x400000, 0x14a0000, 0, true},
		{0x14a0000, 0x25ea000, 0x10a0000, true},
		{0x7f86a4b23000, 0x7f86a4c79000, 0x26000, false},
		{0x7f86a4ce8000, 0x7f86a4ce9000, 0, false},
	}
	if got := parseMaps([]byte(maps), []byte("/usr/bin/gatehouse"), make([]span, 0, 8)); !reflect.DeepEqual(got, want) {
		t.Errorf("parseMaps = %+v, want %+v", got, want)
	}
}

// TestStoppedMappingsHoldOnlyTouchedPages maps a file the page cache holds,
// reads one byte in every 64 KiB, and checks that the process's file pages
// grew by about one page a read, not by sixteen.
func TestStoppedMappingsHoldOnlyTouchedPages(t *testing.T) {
	const size = 32 << 20
	m, _ := stoppedFile(t, size)
	before := residentFileKiB(t)
	var sum byte
	for i := 0; i < size; i += 64 << 10 {
		sum += m[i]
	}
	grew := residentFileKiB(t) - before
	touched := size / (64 << 10) * 4
	if grew > 2*touched {
		t.Errorf("file pages grew by %d KiB for %d reads of one page (%d KiB): fault-around still maps neighbours (sum %d)", grew, touched/4, touched, sum)
	}
}

// stoppedFile maps a file of size zero bytes that the page cache holds,
// with fault-around stopped for the mapping, which the test's end unmaps.
func stoppedFile(t *testing.T, size int) ([]byte, span) {
	t.Helper()
	path := t.TempDir() + "/data"
	if err := os.WriteFile(path, make([]byte, size), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close() // the mapping outlives the descriptor
	m, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_PRIVATE)
	if err != nil {
		t.Skip("mmap:", err)
	}
	t.Cleanup(func() { syscall.Munmap(m) })
	// A file written in one piece may sit in the page cache in 2 MiB
	// folios, which a read fault maps whole whatever userfaultfd says:
	// without huge mappings, what is measured is fault-around alone.
	if err := syscall.Madvise(m, syscall.MADV_NOHUGEPAGE); err != nil {
		t.Skip("madvise:", err)
	}
	s := span{uintptrOf(m), uintptrOf(m) + uintptr(size), 0, false}
	if ok, err := stop([]span{s}); !ok {
		t.Skipf("this kernel or sandbox does not allow it (%v); gatehouse runs on without", err)
	}
	return m, s
}

func residentFileKiB(t *testing.T) int {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "RssFile:"); ok {
			n, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Skip("no RssFile in /proc/self/status")
	return 0
}

func TestSpanWithin(t *testing.T) {
	t.Parallel()
	s := span{start: 0x10000, end: 0x20000, offset: 0x5000}
	for _, tc := range []struct {
		name       string
		from, to   uint64
		start, end uintptr
		ok         bool
	}{
		{"inside, whole pages", 0x7000, 0x9000, 0x12000, 0x14000, true},
		{"partial pages are kept", 0x7010, 0x9ff0, 0x13000, 0x14000, true},
		{"overhanging both ends", 0x0, 0x100000, 0x10000, 0x20000, true},
		{"before the mapping", 0x0, 0x5000, 0, 0, false},
		{"after the mapping", 0x15000, 0x16000, 0, 0, false},
		{"less than a page", 0x7010, 0x7ff0, 0, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			start, end, ok := s.within(tc.from, tc.to)
			if start != tc.start || end != tc.end || ok != tc.ok {
				t.Errorf("within(%#x, %#x) = %#x, %#x, %v; want %#x, %#x, %v", tc.from, tc.to, start, end, ok, tc.start, tc.end, tc.ok)
			}
		})
	}
}

// TestFindSectionAgreesWithDebugELF reads the test binary's function table
// both ways.
func TestFindSectionAgreesWithDebugELF(t *testing.T) {
	t.Parallel()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	f, err := elf.Open(exe)
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	want := f.Section(".gopclntab")
	if want == nil || f.Class != elf.ELFCLASS64 || f.Data != elf.ELFDATA2LSB {
		t.Skip("not a 64-bit little-endian binary with .gopclntab")
	}
	data, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	read := func(b []byte, off int64) bool {
		return off+int64(len(b)) <= int64(len(data)) && copy(b, data[off:]) == len(b)
	}
	from, to, ok := findSection(data[:64], ".gopclntab", read)
	if !ok || from != want.Offset || to != want.Offset+want.Size {
		t.Errorf("findSection = %#x, %#x, %v; want %#x, %#x", from, to, ok, want.Offset, want.Offset+want.Size)
	}
	if _, _, ok := findSection(data[:64], ".nosuchsection", read); ok {
		t.Error("found a section that is not there")
	}
	if _, _, ok := findSection([]byte("#!/bin/sh\n"), ".gopclntab", read); ok {
		t.Error("read a script as ELF")
	}
}

// TestResumeGivesFaultAroundBack stops fault-around for a mapping, gives it
// back to its first half, and reads one page in each 64 KiB: the first half
// maps whole windows again, the second one page a read.
func TestResumeGivesFaultAroundBack(t *testing.T) {
	const size = 32 << 20
	m, s := stoppedFile(t, size)
	resume(s.start, s.start+size/2)
	read := func(from, to int) int {
		before := residentFileKiB(t)
		for i := from; i < to; i += 64 << 10 {
			sink += m[i]
		}
		return residentFileKiB(t) - before
	}
	const reads = size / 2 / (64 << 10)
	if grew := read(0, size/2); grew < reads*32 {
		t.Errorf("resumed half: %d reads mapped %d KiB; fault-around should map about 64 KiB a read", reads, grew)
	}
	if grew := read(size/2, size); grew > reads*8 {
		t.Errorf("stopped half: %d reads mapped %d KiB; fault-around is back there too", reads, grew)
	}
}

// sink keeps the compiler from dropping the reads.
var sink byte
