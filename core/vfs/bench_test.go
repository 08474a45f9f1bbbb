package vfs

import (
	"fmt"
	"io"
	"testing"
)

// G-14: a door-checked op on a memory mount must stay cheap (≤ 200 ns).
func BenchmarkViewStat(b *testing.B) {
	v := mustVFS(b, MountSpec{Prefix: "/repo", Files: map[string]string{"src/pkg/util/file.go": "package util\n"}})
	fsys := v.View(OpenDoor)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := fsys.Stat("/repo/src/pkg/util/file.go"); err != nil {
			b.Fatal(err)
		}
	}
}

// The same Stat through a link on the way, with the door judging the link.
func BenchmarkViewStatThroughLink(b *testing.B) {
	v := mustVFS(b, MountSpec{Prefix: "/repo", Files: map[string]string{"src/pkg/util/file.go": "package util\n"}})
	fsys := v.View(OpenDoor)
	fsys.Symlink("src/pkg", "/repo/pkg")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := fsys.Stat("/repo/pkg/util/file.go"); err != nil {
			b.Fatal(err)
		}
	}
}

func benchTree(b *testing.B, files int) *VFS {
	b.Helper()
	seed := make(map[string]string, files)
	for i := range files {
		seed[fmt.Sprintf("d%03d/f%06d.txt", i%100, i)] = "one\ntwo\nTODO three\nfour\nfive\n"
	}
	return mustVFS(b, MountSpec{Prefix: "/data", Files: seed})
}

// Listing a directory of 100,000 entries, door-filtered.
func BenchmarkReadDir100k(b *testing.B) {
	seed := make(map[string]string, 100_000)
	for i := range 100_000 {
		seed[fmt.Sprintf("f%06d", i)] = ""
	}
	fsys := mustVFS(b, MountSpec{Prefix: "/data", Files: seed}).View(OpenDoor)
	b.ReportAllocs()
	for b.Loop() {
		entries, err := fsys.ReadDir("/data")
		if err != nil || len(entries) != 100_000 {
			b.Fatal(len(entries), err)
		}
	}
}

// The VFS share of `find / -type f | xargs grep -l TODO` over 100,000
// files: walk every directory, then open and read every file.
func BenchmarkWalkAndRead100k(b *testing.B) {
	fsys := benchTree(b, 100_000).View(OpenDoor)
	buf := make([]byte, 32<<10)
	b.ReportAllocs()
	for b.Loop() {
		dirs, _ := fsys.ReadDir("/data")
		for _, d := range dirs {
			dir := "/data/" + d.Name()
			files, _ := fsys.ReadDir(dir)
			for _, f := range files {
				file, err := fsys.Open(dir + "/" + f.Name())
				if err != nil {
					b.Fatal(err)
				}
				for {
					if _, err := file.Read(buf); err == io.EOF {
						break
					}
				}
				file.Close()
			}
		}
	}
}
