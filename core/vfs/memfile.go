package vfs

import (
	"io"
	"io/fs"
	"os"
	"path"
	"sync"
	"syscall"
)

// Open flags, named once so the write test reads plainly.
const (
	createFlag = os.O_CREATE
	exclFlag   = os.O_EXCL
	truncFlag  = os.O_TRUNC
	appendFlag = os.O_APPEND
	accessMask = os.O_RDONLY | os.O_WRONLY | os.O_RDWR
	// writeFlags are the flags that make an open a write (Op.Write).
	writeFlags = os.O_WRONLY | os.O_RDWR | os.O_CREATE | os.O_TRUNC | os.O_APPEND
)

func canRead(flag int) bool  { return flag&accessMask != os.O_WRONLY }
func canWrite(flag int) bool { return flag&accessMask != os.O_RDONLY }

// memFile is an open regular file of a memory mount. It holds the node, not
// a copy: reads copy straight from the shared content under the mount's read
// lock, and the file keeps working after the name is removed, as on POSIX.
type memFile struct {
	fs   *memFS
	node *memNode
	name string // the caller's spelling, for errors
	flag int

	mu     sync.Mutex // guards off and closed
	off    int64
	closed bool

	// charge, when set, is asked before the file grows its mount: the
	// memory budget of whoever opened it (see MemoryCharger).
	charge func(n int64) error

	// rel is the file's path in its mount when it was opened, and jtakes
	// the journal's takes when that path was last marked: a file written
	// after the ledger took the mount's changes marks its path again (a
	// durable mount, durable.go).
	rel    string
	jtakes uint64
}

// journal marks the file's path as changed once per take of a durable
// mount's journal (caller holds the mount's lock for writing).
func (f *memFile) journal() {
	if j := f.fs.journal; j != nil && j.takes != f.jtakes {
		j.mark(f.rel)
		f.jtakes = j.takes
	}
}

// growBy accounts n more (n < 0: fewer) bytes of content: the opener's
// budget and the mount's size. The caller holds the mount's lock for
// writing.
func (f *memFile) growBy(n int64) error {
	if f.charge != nil {
		if err := f.charge(n); err != nil {
			return err
		}
	}
	if err := f.fs.space.grow(n); err != nil {
		if f.charge != nil {
			f.charge(-n)
		}
		return err
	}
	return nil
}

func (f *memFile) Read(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.usable("read", canRead(f.flag)); err != nil {
		return 0, err
	}
	n, err := f.readAt(p, f.off)
	f.off += int64(n)
	return n, err
}

// ReadAt reads from a fixed offset without moving the file offset.
func (f *memFile) ReadAt(p []byte, off int64) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.usable("read", canRead(f.flag)); err != nil {
		return 0, err
	}
	if off < 0 {
		return 0, pathErr("read", f.name, EINVAL)
	}
	n, err := f.readAt(p, off)
	if err == nil && n < len(p) {
		err = io.EOF
	}
	return n, err
}

func (f *memFile) readAt(p []byte, off int64) (int, error) {
	f.fs.mu.RLock()
	defer f.fs.mu.RUnlock()
	data := f.node.data
	if off >= int64(len(data)) {
		if len(p) == 0 {
			return 0, nil
		}
		return 0, io.EOF
	}
	return copy(p, data[off:]), nil
}

// WriteTo streams the rest of the file to w (io.Copy uses it), copying the
// content once per chunk instead of through an intermediate buffer.
func (f *memFile) WriteTo(w io.Writer) (int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.usable("read", canRead(f.flag)); err != nil {
		return 0, err
	}
	var total int64
	buf := make([]byte, 64<<10)
	for {
		n, err := f.readAt(buf, f.off)
		if n > 0 {
			written, werr := w.Write(buf[:n])
			f.off += int64(written)
			total += int64(written)
			if werr != nil {
				return total, werr
			}
		}
		if err == io.EOF {
			return total, nil
		}
		if err != nil {
			return total, err
		}
	}
}

func (f *memFile) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.usable("write", canWrite(f.flag)); err != nil {
		return 0, err
	}
	f.fs.mu.Lock()
	defer f.fs.mu.Unlock()
	n := f.node
	if f.flag&appendFlag != 0 {
		f.off = int64(len(n.data))
	}
	if f.off > maxMemFileSize-int64(len(p)) {
		return 0, pathErr("write", f.name, syscall.EFBIG)
	}
	end := f.off + int64(len(p))
	if end > int64(len(n.data)) {
		// Grow geometrically so a file written in small pieces (a
		// redirection in a loop) is not copied on every write.
		if err := f.growBy(end - int64(len(n.data))); err != nil {
			return 0, pathErr("write", f.name, err)
		}
		if end > int64(cap(n.data)) {
			grown := make([]byte, end, max(end, 2*int64(cap(n.data))))
			copy(grown, n.data)
			n.data = grown
		} else {
			n.data = n.data[:end]
		}
	}
	copy(n.data[f.off:], p)
	f.off = end
	n.changed(f.fs.clock())
	f.journal()
	return len(p), nil
}

func (f *memFile) Seek(offset int64, whence int) (int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return 0, pathErr("seek", f.name, fs.ErrClosed)
	}
	var base int64
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		base = f.off
	case io.SeekEnd:
		f.fs.mu.RLock()
		base = int64(len(f.node.data))
		f.fs.mu.RUnlock()
	default:
		return 0, pathErr("seek", f.name, EINVAL)
	}
	if base+offset < 0 {
		return 0, pathErr("seek", f.name, EINVAL)
	}
	f.off = base + offset
	return f.off, nil
}

// maxMemFileSize is the largest a memory file may grow, ext4's limit: a
// size near 2^63 (truncate -s 9223372036854775807, a write after a seek
// there) overflowed the sums that charge growth, and the file's slice
// was made at that size (a panic).
const maxMemFileSize = 1 << 44

// Truncate changes the file's size, as ftruncate(2).
func (f *memFile) Truncate(size int64) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.usable("truncate", canWrite(f.flag)); err != nil {
		return err
	}
	if size < 0 {
		return pathErr("truncate", f.name, EINVAL)
	}
	if size > maxMemFileSize {
		return pathErr("truncate", f.name, syscall.EFBIG)
	}
	f.fs.mu.Lock()
	defer f.fs.mu.Unlock()
	n := f.node
	if size <= int64(len(n.data)) {
		f.growBy(size - int64(len(n.data)))
		n.data = n.data[:size:size] // later growth must not resurrect old bytes
	} else {
		if err := f.growBy(size - int64(len(n.data))); err != nil {
			return pathErr("truncate", f.name, err)
		}
		grown := make([]byte, size)
		copy(grown, n.data)
		n.data = grown
	}
	n.changed(f.fs.clock())
	f.journal()
	return nil
}

func (f *memFile) Stat() (fs.FileInfo, error) {
	f.fs.mu.RLock()
	defer f.fs.mu.RUnlock()
	return f.node.info().named(path.Base(f.name)), nil
}

func (f *memFile) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return pathErr("close", f.name, fs.ErrClosed)
	}
	f.closed = true
	return nil
}

// usable reports why the file cannot serve an op: closed, or opened without
// the access the op needs (EBADF, as read(2) and write(2) say).
func (f *memFile) usable(op string, allowed bool) error {
	if f.closed {
		return pathErr(op, f.name, fs.ErrClosed)
	}
	if !allowed {
		return pathErr(op, f.name, EBADF)
	}
	return nil
}
