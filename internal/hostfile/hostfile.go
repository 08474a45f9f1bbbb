// Package hostfile writes files on the host so that no reader, and no crash,
// ever sees half of one: the bytes go to a temporary file in the same
// directory, are flushed to disk, and take the name in one step (a rename
// or a link). Every place gatehouse rewrites a host file it owns — the
// workspace document an amendment changes, the demo's copy of its
// document, the daemon's token — goes through here.
//
// It is not for files inside a workspace: those go through the session's
// gate and the VFS.
package hostfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// ErrChanged is ReplaceIf's answer when the file no longer holds what the
// caller read: someone else wrote it in between, and nothing was written.
var ErrChanged = errors.New("the file changed since it was read")

// Write makes path hold exactly data with permissions perm, whether or not
// it existed; through a symlink, the link stays and its target is replaced.
// A reader sees the old content or the new, never a mix.
func Write(path string, data []byte, perm fs.FileMode) error {
	path = resolve(path)
	tmp, err := writeTemp(path, data, perm)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	return syncDir(filepath.Dir(path))
}

// Replace makes the existing file path hold data, keeping its permissions.
// It fails when path does not exist.
func Replace(path string, data []byte) error {
	path = resolve(path)
	info, err := os.Stat(path)
	if err != nil {
		return err
	}
	return Write(path, data, info.Mode().Perm())
}

// ReplaceIf replaces the existing file path with data only if it still
// holds before, and answers ErrChanged otherwise. Two gatehouse processes
// doing so at once take turns on a lock of the file itself, so the second
// one reads the first one's content and refuses rather than overwriting it.
func ReplaceIf(path string, before, data []byte) error {
	path = resolve(path)
	f, err := lock(path)
	if err != nil {
		return err
	}
	defer f.Close() // closing releases the lock
	current, err := io.ReadAll(f)
	if err != nil {
		return err
	}
	if !bytes.Equal(current, before) {
		return ErrChanged
	}
	return Replace(path, data)
}

// Create makes path hold data with permissions perm only if nothing has
// that name yet; otherwise it answers an error matching fs.ErrExist and
// leaves the file alone. Of two processes creating the same path at once,
// exactly one succeeds, and the other finds the whole file, never a part.
func Create(path string, data []byte, perm fs.FileMode) error {
	tmp, err := writeTemp(path, data, perm)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	if err := os.Link(tmp, path); err != nil {
		return err
	}
	return syncDir(filepath.Dir(path))
}

// resolve follows symlinks, so that the link stays and its target is
// replaced; a path that does not resolve (not there yet) is used as given.
func resolve(path string) string {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		return real
	}
	return path
}

// writeTemp writes data to a new file beside path, with permissions perm
// (not narrowed by the umask: the caller's perm is what the file gets),
// flushed to disk, and returns its name.
func writeTemp(path string, data []byte, perm fs.FileMode) (string, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return "", err
	}
	_, werr := f.Write(data)
	merr := f.Chmod(perm)
	serr := f.Sync()
	cerr := f.Close()
	if err := errors.Join(werr, merr, serr, cerr); err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("write %s: %w", f.Name(), err)
	}
	return f.Name(), nil
}

// syncDir flushes a directory, so that a rename or link in it survives a
// crash. A file system that cannot sync directories is not an error.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, unix.EINVAL) && !errors.Is(err, unix.ENOTSUP) {
		return err
	}
	return nil
}

// lock opens path and takes an exclusive lock on it, waiting for another
// process that holds one. A writer that held the lock before renamed a new
// file into place, so once locked, the file must still be the one the name
// leads to; if not, the lock is taken again on the new one. The lock is
// released when the file is closed.
func lock(path string) (*os.File, error) {
	for {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		for {
			err = unix.Flock(int(f.Fd()), unix.LOCK_EX)
			if !errors.Is(err, unix.EINTR) {
				break
			}
		}
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		held, herr := f.Stat()
		named, nerr := os.Stat(path)
		if herr == nil && nerr == nil && os.SameFile(held, named) {
			return f, nil
		}
		f.Close()
		if nerr != nil {
			return nil, nerr
		}
	}
}
