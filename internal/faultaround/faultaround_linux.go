//go:build linux && (amd64 || arm64)

package faultaround

import (
	"syscall"
	"unsafe"
)

const (
	userModeOnly    = 1       // UFFD_USER_MODE_ONLY: no kernel-mode faults; allowed unprivileged
	apiVersion      = 0xAA    // UFFD_API
	featureWPAsync  = 1 << 15 // UFFD_FEATURE_WP_ASYNC
	registerModeWP  = 2       // UFFDIO_REGISTER_MODE_WP
	ioctlAPI        = 0xc018aa3f
	ioctlRegister   = 0xc020aa00
	ioctlUnregister = 0x8010aa01
)

// Start-up must not allocate (every start of gatehouse pays for it), so what
// is read is kept in fixed buffers. A process at start-up has a few dozen
// mappings of about 100 bytes a line; more than fit are left as they are.
var (
	mapsText  [64 << 10]byte
	exePath   [4096]byte
	spanStore [64]span
)

// The files read, as the kernel takes their names (syscall.Open would
// allocate a copy of each).
var (
	mapsName = [...]byte{'/', 'p', 'r', 'o', 'c', '/', 's', 'e', 'l', 'f', '/', 'm', 'a', 'p', 's', 0}
	exeName  = [...]byte{'/', 'p', 'r', 'o', 'c', '/', 's', 'e', 'l', 'f', '/', 'e', 'x', 'e', 0}
)

const atFDCWD = ^uintptr(99) // AT_FDCWD, -100

// open opens the NUL-terminated name for reading.
func open(name *byte) (int, bool) {
	fd, _, errno := syscall.Syscall6(syscall.SYS_OPENAT, atFDCWD, uintptr(unsafe.Pointer(name)), syscall.O_RDONLY|syscall.O_CLOEXEC, 0, 0, 0)
	return int(fd), errno == 0
}

// descriptor is the userfaultfd the registrations live on; -1 until stop
// opened one. It is never closed.
var descriptor = -1

func enabled() bool {
	v, _ := syscall.Getenv("GATEHOUSE_FAULT_AROUND")
	return v != "on"
}

// stop registers each span for asynchronous write protection, which turns
// fault-around off for it. It reports whether at least one span was
// registered.
func stop(spans []span) (bool, error) {
	if len(spans) == 0 {
		return false, nil
	}
	if descriptor < 0 {
		fd, _, errno := syscall.RawSyscall(sysUserfaultfd, syscall.O_CLOEXEC|syscall.O_NONBLOCK|userModeOnly, 0, 0)
		if errno != 0 {
			return false, errno
		}
		api := struct{ api, features, ioctls uint64 }{apiVersion, featureWPAsync, 0}
		if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, fd, ioctlAPI, uintptr(unsafe.Pointer(&api))); errno != 0 {
			syscall.Close(int(fd))
			return false, errno
		}
		descriptor = int(fd)
	}
	var registered bool
	var last error
	for _, s := range spans {
		reg := struct{ start, length, mode, ioctls uint64 }{uint64(s.start), uint64(s.end - s.start), registerModeWP, 0}
		_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, uintptr(descriptor), ioctlRegister, uintptr(unsafe.Pointer(&reg)))
		if errno != 0 {
			last = errno
			continue
		}
		registered = true
	}
	return registered, last
}

// resume unregisters [start, end) from the descriptor, which gives the
// kernel's fault-around back to those pages.
func resume(start, end uintptr) {
	if descriptor < 0 || start >= end {
		return
	}
	r := struct{ start, length uint64 }{uint64(start), uint64(end - start)}
	syscall.Syscall(syscall.SYS_IOCTL, uintptr(descriptor), ioctlUnregister, uintptr(unsafe.Pointer(&r)))
}

// forgetFunctionTable unmaps from the process the pages of the executable's
// function table that are mapped now. The executable's read-only segment is
// never written (it has no relocations to make read-only afterwards, unlike a
// shared library's), so the pages are the file's and nothing is lost.
func forgetFunctionTable(spans []span) {
	from, to, ok := sectionRange(".gopclntab")
	if !ok {
		return
	}
	for _, s := range spans {
		if !s.own {
			continue
		}
		if start, end, ok := s.within(from, to); ok {
			syscall.RawSyscall(syscall.SYS_MADVISE, start, end-start, syscall.MADV_DONTNEED)
		}
	}
}

// sectionRange returns the file offsets [from, to) of the named section of
// the executable, read from its ELF section headers.
func sectionRange(name string) (from, to uint64, ok bool) {
	fd, ok := open(&exeName[0])
	if !ok {
		return 0, 0, false
	}
	defer syscall.Close(fd)
	var header [64]byte
	if n, err := syscall.Pread(fd, header[:], 0); err != nil || n != len(header) {
		return 0, 0, false
	}
	return findSection(header[:], name, func(b []byte, off int64) bool {
		n, err := syscall.Pread(fd, b, off)
		return err == nil && n == len(b)
	})
}

// readOnlyMappings lists the process's private file mappings that cannot be
// written: the binary's code and tables, and those of the C library and
// loader when the binary is linked dynamically. It uses the syscall package
// alone, so that it runs before most packages' initialisers.
func readOnlyMappings() []span {
	fd, ok := open(&mapsName[0])
	if !ok {
		return nil
	}
	defer syscall.Close(fd)
	buf := mapsText[:]
	n := 0
	for n < len(buf) {
		r, err := syscall.Read(fd, buf[n:])
		if r <= 0 || err != nil {
			break
		}
		n += r
	}
	exe := exePath[:]
	r, _, errno := syscall.RawSyscall6(syscall.SYS_READLINKAT, atFDCWD, uintptr(unsafe.Pointer(&exeName[0])), uintptr(unsafe.Pointer(&exe[0])), uintptr(len(exe)), 0, 0)
	if errno == 0 && int(r) < len(exe) {
		exe = exe[:r]
	} else {
		exe = nil
	}
	return parseMaps(buf[:n], exe, spanStore[:0])
}
