package vfs

import (
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The lookups a host mount makes for every file, without the heap copy
// of the path that golang.org/x/sys makes for each call: a path that fits
// is spelt NUL-terminated in a buffer on the caller's stack (issue 18's
// per-file work). A longer one takes the library's way.

// pathBuf holds a NUL-terminated path for one system call.
type pathBuf [256]byte

// cPath spells s in b, or reports that it does not fit (or holds a NUL,
// which the library's way refuses).
func (b *pathBuf) cPath(s string) (unsafe.Pointer, bool) {
	if len(s) >= len(b) {
		return nil, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			return nil, false
		}
		b[i] = s[i]
	}
	b[len(s)] = 0
	return unsafe.Pointer(&b[0]), true
}

// openat2 is unix.Openat2.
func openat2(dir int, name string, how *unix.OpenHow) (int, error) {
	var b pathBuf
	p, ok := b.cPath(name)
	if !ok {
		return unix.Openat2(dir, name, how)
	}
	fd, _, errno := syscall.Syscall6(unix.SYS_OPENAT2, uintptr(dir), uintptr(p),
		uintptr(unsafe.Pointer(how)), unsafe.Sizeof(*how), 0, 0)
	if errno != 0 {
		return -1, errnoErr(errno)
	}
	return int(fd), nil
}

// fstatat is unix.Fstatat.
func fstatat(dir int, name string, st *unix.Stat_t, flags int) error {
	var b pathBuf
	p, ok := b.cPath(name)
	if !ok {
		return unix.Fstatat(dir, name, st, flags)
	}
	_, _, errno := syscall.Syscall6(unix.SYS_NEWFSTATAT, uintptr(dir), uintptr(p),
		uintptr(unsafe.Pointer(st)), uintptr(flags), 0, 0)
	if errno != 0 {
		return errnoErr(errno)
	}
	return nil
}

// errnoErr is the error value golang.org/x/sys returns for errno, so
// that comparisons with unix.ENOENT and the like hold.
func errnoErr(errno syscall.Errno) error {
	switch errno {
	case unix.EAGAIN:
		return unix.EAGAIN
	case unix.EINVAL:
		return unix.EINVAL
	case unix.ENOENT:
		return unix.ENOENT
	}
	return errno
}
