// Package faultaround keeps the kernel from mapping pages of gatehouse's own
// binary that the process never reads.
//
// When a process first touches a page of a file it has mapped, Linux maps
// that page and, when they are in the page cache, up to fifteen of its
// neighbours ("fault-around", 64 KiB by default). The neighbours cost no
// memory, they are shared page cache, but they count in the process's
// resident set. Go lays out a program's code by package, and a start of
// gatehouse runs initialisers and code of a few hundred packages scattered
// over 17 MB of text and 13 MB of function tables, so fault-around nearly
// doubles what `gatehouse exec -- true` is seen to hold at its peak: 21 MiB,
// where the pages it reads are 11 MiB.
//
// The kernel does no fault-around in a mapping registered with userfaultfd
// for write protection. Importing this package (for its side effect, from
// package main) registers the process's read-only file mappings that way, in
// the asynchronous mode, in which the kernel resolves a write fault itself
// and no thread ever waits on the descriptor. The mappings are read-only, so
// no write fault happens; only fault-around stops. The descriptor is kept
// open for the life of the process (closing it would end the registration)
// and is closed on exec.
//
// The runtime starts before any package, so the pages it touched are already
// mapped with their neighbours by then. Most of its function table
// (.gopclntab: names, line and stack tables of every function) is mapped
// that way and never read again; those pages are unmapped once (they stay in
// the page cache, and a later read maps each alone). The rest of the binary
// stays mapped: dropping it would only be paid back in faults.
//
// The price is more page faults, each mapping one page. Code that a command
// runs densely is given its fault-around back (Resume): SQLite's, which the
// ledger's first open runs two thirds of. With it, `exec -- true` takes
// about 600 more faults than with the kernel's default, for 8 MiB less
// resident memory.
// Where the kernel has no asynchronous write protection (before Linux 6.7),
// userfaultfd is refused (seccomp, vm.unprivileged_userfaultfd) or the
// architecture is not one known here, nothing changes and nothing is
// reported. GATEHOUSE_FAULT_AROUND=on keeps the kernel's default, for
// measuring.
package faultaround

func init() {
	if !enabled() {
		return
	}
	spans := readOnlyMappings()
	for _, s := range spans {
		if s.own && s.offset == 0 { // the executable's first segment: its code
			textStart, textEnd = s.start, s.end
		}
	}
	Stopped, _ = stop(spans)
	if Stopped {
		forgetFunctionTable(spans)
	}
}

// textStart and textEnd bound the executable's code as it is mapped.
var textStart, textEnd uintptr

// Stopped says whether fault-around was stopped for the process's read-only
// mappings at start-up.
var Stopped bool

// span is a mapping of [start, end) from offset in a file; own says the
// file is the executable.
type span struct {
	start, end uintptr
	offset     uint64
	own        bool
}

// within returns the addresses at which s maps the file bytes [from, to),
// whole pages inside them only; ok is false when s maps none.
func (s span) within(from, to uint64) (start, end uintptr, ok bool) {
	const page = 4096
	length := uint64(s.end - s.start)
	lo, hi := max(from, s.offset), min(to, s.offset+length)
	lo = (lo + page - 1) &^ (page - 1)
	hi &^= page - 1
	if lo >= hi {
		return 0, 0, false
	}
	return s.start + uintptr(lo-s.offset), s.start + uintptr(hi-s.offset), true
}
