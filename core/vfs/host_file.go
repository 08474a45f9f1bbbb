package vfs

import (
	"io"
	"io/fs"
	"path"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// hostFile is an open host file held as a raw descriptor. An os.File would
// register every descriptor with the runtime's poller (two F_GETFL, two
// F_SETFL and a failing epoll_ctl per file for regular files, which the
// poller cannot wait on anyway); a host mount opens only regular files and
// directories, whose reads never block on a peer, so plain read(2) is what
// they need (issue 18's per-file syscalls). Errors name the VFS path, never
// the host path behind it.
//
// A hostFile is safe for concurrent use: a mutex orders Close after any
// call in progress, so a descriptor number is never used once closed and
// perhaps reused by another open.
type hostFile struct {
	mu   sync.Mutex
	fd   int // -1 once closed
	name string
	// info is the file's fstat taken when it was opened, under the
	// name's last element; Stat answers with it (no syscall, no copy)
	// until the file is written through this handle, as a tool that
	// fstats once after open would see.
	info    fileInfo
	written bool
	// drained says the last read was short and ended at the size fstat
	// gave at open: at that instant the file ended there, so the read
	// after it is answered io.EOF without a syscall (a tool reads a
	// small file in one read(2) instead of two, as GNU grep and cat
	// would with two), unless this process wrote to a host file since
	// (drainedAt: hostWrites then), which may have been this one: a
	// loop that appends to the file it reads must see what it wrote.
	// offset is where this handle's reads have got to.
	drained   bool
	drainedAt uint64
	offset    int64
	// open is this file's slot in its slab's record of open
	// descriptors, cleared by Close.
	open *atomic.Int32
}

// newHostFile wraps an open descriptor.
func newHostFile(fd int, name string, st *unix.Stat_t) *hostFile {
	f := hostFiles.next()
	f.fd, f.name, f.info = fd, name, infoFromStat(st)
	f.written, f.drained, f.offset = false, false, 0
	f.info.name = path.Base(name)
	f.open.Store(int32(fd))
	return f
}

// slabFiles is how many hostFiles are allocated together.
const slabFiles = 64

// A fileSlab is slabFiles hostFiles allocated as one object. A
// descriptor a caller forgot to Close is closed once the garbage
// collector finds its whole slab unreachable, as os.File's cleanup would
// for one file; a cleanup per file cost more than the rest of an open,
// fstat, read and close of a small file together (an allocation, and a
// global lock taken twice), and grep -r opens every file of a tree.
type fileSlab struct {
	files [slabFiles]hostFile
	open  *slabDescriptors
}

// slabDescriptors are a slab's open descriptors, -1 for a slot never
// used or closed. They live apart from the slab so that its cleanup can
// read them after the slab itself is gone.
type slabDescriptors [slabFiles]atomic.Int32

// closeLeaked closes what a slab's files left open.
func closeLeaked(open *slabDescriptors) {
	for i := range open {
		if fd := open[i].Load(); fd >= 0 {
			unix.Close(int(fd))
		}
	}
}

// fileSlabs hands out hostFiles from the current slab.
type fileSlabs struct {
	mu   sync.Mutex
	slab *fileSlab
	used int
}

var hostFiles fileSlabs

func (s *fileSlabs) next() *hostFile {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.slab == nil || s.used == slabFiles {
		open := new(slabDescriptors)
		for i := range open {
			open[i].Store(-1)
		}
		s.slab, s.used = &fileSlab{open: open}, 0
		runtime.AddCleanup(s.slab, closeLeaked, open)
	}
	f := &s.slab.files[s.used]
	f.open = &s.slab.open[s.used]
	s.used++
	return f
}

// fail wraps an errno as the caller's path error.
func (f *hostFile) fail(op string, err error) error {
	return pathErr(op, f.name, err)
}

// closed is the error of any call after Close.
func (f *hostFile) closed(op string) error { return f.fail(op, fs.ErrClosed) }

func (f *hostFile) Read(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fd < 0 {
		return 0, f.closed("read")
	}
	if len(p) == 0 {
		return 0, nil
	}
	if f.drained {
		f.drained = false
		if hostWrites.Load() == f.drainedAt {
			return 0, io.EOF
		}
	}
	n, err := readFD(f.fd, p)
	switch {
	case err != nil:
		return 0, f.fail("read", err)
	case n == 0:
		return 0, io.EOF
	}
	f.offset += int64(n)
	// A short read of a regular file, unwritten through this handle,
	// that stops at the size it had at open reached its end in that
	// instant; a file that grew since the fstat gives more than its
	// size and is read on as usual.
	f.drained = n < len(p) && !f.written && f.info.mode.IsRegular() && f.offset == f.info.size
	if f.drained {
		f.drainedAt = hostWrites.Load()
	}
	return n, nil
}

// hostWrites counts this process's writes to host files (writes,
// truncations, opens that truncate); a drained read's shortcut holds only
// while it has not moved. Writers in other processes are not ordered with
// a reader anyway: a read that raced them may see the file before or
// after.
var hostWrites atomic.Uint64

// wroteHost records a write to a host file, before it is made.
func wroteHost() { hostWrites.Add(1) }

// ReadAt reads from a fixed offset without moving the file offset.
func (f *hostFile) ReadAt(p []byte, off int64) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fd < 0 {
		return 0, f.closed("read")
	}
	if off < 0 {
		return 0, f.fail("read", EINVAL)
	}
	done := 0
	for done < len(p) {
		n, err := unix.Pread(f.fd, p[done:], off+int64(done))
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return done, f.fail("read", err)
		}
		if n == 0 {
			return done, io.EOF
		}
		done += n
	}
	return done, nil
}

func (f *hostFile) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fd < 0 {
		return 0, f.closed("write")
	}
	f.written, f.drained = true, false
	wroteHost()
	done := 0
	for done < len(p) {
		n, err := unix.Write(f.fd, p[done:])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return done, f.fail("write", err)
		}
		done += n
	}
	return done, nil
}

func (f *hostFile) Seek(offset int64, whence int) (int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fd < 0 {
		return 0, f.closed("seek")
	}
	n, err := unix.Seek(f.fd, offset, whence)
	if err != nil {
		return 0, f.fail("seek", err)
	}
	f.offset, f.drained = n, false
	return n, nil
}

// Truncate changes the file's size, as ftruncate(2).
func (f *hostFile) Truncate(size int64) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fd < 0 {
		return f.closed("truncate")
	}
	f.written, f.drained = true, false
	wroteHost()
	if err := ignoringEINTR(func() error { return unix.Ftruncate(f.fd, size) }); err != nil {
		return f.fail("truncate", err)
	}
	return nil
}

// Stat describes the open file; the name is the VFS path's last element.
func (f *hostFile) Stat() (fs.FileInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fd < 0 {
		return nil, f.closed("stat")
	}
	if f.written {
		var st unix.Stat_t
		if err := fstat(f.fd, &st); err != nil {
			return nil, f.fail("stat", err)
		}
		// A new value, not an update: a FileInfo handed out before
		// keeps what it said.
		return infoFromStat(&st).named(f.info.name), nil
	}
	return &f.info, nil
}

func (f *hostFile) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fd < 0 {
		return f.closed("close")
	}
	f.open.Store(-1)
	err := unix.Close(f.fd)
	f.fd = -1
	if err != nil && err != unix.EINTR {
		return f.fail("close", err)
	}
	return nil
}

// readFD is read(2), retried when a signal interrupts it.
func readFD(fd int, p []byte) (int, error) {
	for {
		n, err := unix.Read(fd, p)
		if err != unix.EINTR {
			return max(n, 0), err
		}
	}
}

// fstat is fstat(2), retried when a signal interrupts it.
func fstat(fd int, st *unix.Stat_t) error {
	return ignoringEINTR(func() error { return unix.Fstat(fd, st) })
}

func ignoringEINTR(call func() error) error {
	for {
		if err := call(); err != unix.EINTR {
			return err
		}
	}
}

// infoFromStat turns a host lstat into the VFS's metadata. A directory's
// size is reported as ext4's 4096 whatever the host says: tmpfs counts its
// entries in a directory's size, which would tell an agent how many
// entries a listing left out (hidden ones, gatehouse's own files).
func infoFromStat(st *unix.Stat_t) fileInfo {
	fi := fileInfo{size: st.Size, mode: fs.FileMode(st.Mode & 0o777),
		modTime: time.Unix(int64(st.Mtim.Sec), int64(st.Mtim.Nsec))}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFDIR:
		fi.mode |= fs.ModeDir
		fi.size = dirSize
	case unix.S_IFLNK:
		fi.mode |= fs.ModeSymlink
	case unix.S_IFIFO:
		fi.mode |= fs.ModeNamedPipe
	case unix.S_IFSOCK:
		fi.mode |= fs.ModeSocket
	case unix.S_IFCHR:
		fi.mode |= fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		fi.mode |= fs.ModeDevice
	}
	if st.Mode&unix.S_ISUID != 0 {
		fi.mode |= fs.ModeSetuid
	}
	if st.Mode&unix.S_ISGID != 0 {
		fi.mode |= fs.ModeSetgid
	}
	if st.Mode&unix.S_ISVTX != 0 {
		fi.mode |= fs.ModeSticky
	}
	return fi
}
