// Added to this copy by gatehouse (patch 71, see PATCHES.md); under the same licence.

package interp

import (
	"context"
	"io"
	"io/fs"
	"maps"
	"os"
	"reflect"
	"sync"
	"sync/atomic"
	"syscall"

	"mvdan.cc/sh/v3/syntax"
)

// maxFds bounds the descriptor numbers a program may use, as the usual
// soft limit on open files bounds bash's: exec 1024>f fails with "Bad
// file descriptor". It also bounds the files one shell holds open.
const maxFds = 1024

// firstVarFd is where {name}> redirections start looking for a free
// descriptor, as bash does.
const firstVarFd = 10

// fdFile is one open file description: a file a redirection opened, a
// here-document, or a standard stream a descriptor was duplicated from.
// Every descriptor that refers to it, in this shell or in a subshell,
// holds one reference; the last one released closes it.
type fdFile struct {
	rd io.Reader // nil when not open for reading
	wr io.Writer // nil when not open for writing
	cl io.Closer // what closes it; nil for a borrowed stream

	refs atomic.Int32

	mu     sync.Mutex
	in     stdinFile // rd as a standard input, made when first needed
	inCl   io.Closer // closes in when it is a pipe made for rd
	refund func()    // gives back what the pipe was charged

	// A regular file is read where its offset stands (patch 126): the
	// read builtin and commands read rd itself, so what one leaves is
	// what the next finds. Its pipe is filled (pumping) only once a
	// reader that must have the pipe itself takes it; pw is the pipe's
	// write end until then.
	pw      *os.File
	pumping bool
}

// seekable reports whether the file is a regular file's reader, which
// readers may share without a pipe.
func (f *fdFile) seekable() bool {
	if _, ok := f.rd.(io.Seeker); !ok {
		return false
	}
	st, ok := f.rd.(interface{ Stat() (fs.FileInfo, error) })
	if !ok {
		return false
	}
	info, err := st.Stat()
	return err == nil && info.Mode().IsRegular()
}

// direct returns the file as a reader at its shared offset, or false once
// its pipe is being filled (which reads ahead).
func (f *fdFile) direct() (io.Reader, bool) {
	if f == nil {
		return nil, false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.pw == nil || f.pumping {
		return nil, false
	}
	return fdDirect{f}, true
}

// pump starts filling the file's pipe, for a reader of the pipe itself.
func (f *fdFile) pump() {
	if f == nil {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.pw == nil || f.pumping {
		return
	}
	f.pumping = true
	pw := f.pw
	go func() {
		io.Copy(pw, fdDirect{f})
		pw.Close()
	}()
}

// fdDirect reads a regular file on a descriptor at its shared offset; a
// reader that buffered more than it used may seek back, as GNU tools do.
type fdDirect struct{ f *fdFile }

func (d fdDirect) Read(p []byte) (int, error) {
	d.f.mu.Lock()
	defer d.f.mu.Unlock()
	return d.f.rd.Read(p)
}

func (d fdDirect) Seek(offset int64, whence int) (int64, error) {
	d.f.mu.Lock()
	defer d.f.mu.Unlock()
	return d.f.rd.(io.Seeker).Seek(offset, whence)
}

func newFdFile(rd io.Reader, wr io.Writer, cl io.Closer) *fdFile {
	return &fdFile{rd: rd, wr: wr, cl: cl}
}

// acquire takes a reference; it returns f for convenience.
func (f *fdFile) acquire() *fdFile {
	if f != nil {
		f.refs.Add(1)
	}
	return f
}

// release drops a reference, closing the file with the last one.
func (f *fdFile) release() {
	if f == nil || f.refs.Add(-1) > 0 {
		return
	}
	f.mu.Lock()
	if f.inCl != nil {
		f.inCl.Close() // first, so the goroutine filling the pipe stops
		f.inCl = nil
	}
	if f.pw != nil && !f.pumping {
		f.pw.Close()
	}
	f.pw = nil
	if f.refund != nil {
		f.refund()
		f.refund = nil
	}
	f.mu.Unlock()
	if f.cl != nil {
		f.cl.Close()
	}
}

// stdin is the file as the runner's standard input: the reader itself when
// it is one already, else a pipe a goroutine fills from it, made once and
// shared by every descriptor of the file so that reads through any of
// them go on where the last one stopped.
func (f *fdFile) stdin(ctx context.Context, r *Runner) (stdinFile, error) {
	if f == nil || f.rd == nil {
		return nil, nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.in != nil {
		return f.in, nil
	}
	if in, ok := f.rd.(stdinFile); ok {
		f.in = in
		return in, nil
	}
	if r.memHandler != nil {
		if err := r.memHandler(ctx, pipeBytes); err != nil {
			return nil, memoryError(err)
		}
		handler := r.memHandler
		f.refund = func() { handler(ctx, -pipeBytes) }
	}
	if f.seekable() {
		pr, pw, err := os.Pipe()
		if err != nil {
			if f.refund != nil {
				f.refund()
				f.refund = nil
			}
			return nil, err
		}
		f.in, f.inCl, f.pw = pr, pr, pw
		return pr, nil
	}
	in, err := newStdinFile(f.rd)
	if err != nil {
		if f.refund != nil {
			f.refund()
			f.refund = nil
		}
		return nil, err
	}
	f.in, f.inCl = in, in
	return in, nil
}

// writer is the file as an output stream: writing to a descriptor not open
// for writing fails as it does in bash.
func (f *fdFile) writer() io.Writer {
	if f == nil || f.wr == nil {
		return badFdWriter{}
	}
	return f.wr
}

// badFdWriter is a closed or read-only descriptor used for output.
type badFdWriter struct{}

func (badFdWriter) Write([]byte) (int, error) { return 0, syscall.EBADF }

// IsBadFd reports whether w is standard output or error on a descriptor
// that is closed or open for reading only, where every write fails with
// EBADF (gatehouse, patch 121).
func IsBadFd(w io.Writer) bool {
	switch w.(type) {
	case badFdWriter, *badFdProbe:
		return true
	}
	return false
}

// badFdProbe is a bad descriptor that remembers whether anything was
// written to it.
type badFdProbe struct{ tried bool }

func (p *badFdProbe) Write(b []byte) (int, error) {
	if len(b) > 0 {
		p.tried = true
	}
	return 0, syscall.EBADF
}

// checkedBuiltin runs a builtin whose output may go to a bad descriptor
// (see [Runner.checkOutput]). Builtins that run other code or change the
// descriptors themselves are not checked.
func (r *Runner) checkedBuiltin(ctx context.Context, pos syntax.Pos, name string, args []string) exitStatus {
	switch name {
	case "exec", "eval", "source", ".", "command", "builtin":
		return r.builtin(ctx, pos, name, args)
	}
	return r.checkOutput(name, func() exitStatus { return r.builtin(ctx, pos, name, args) })
}

// checkOutput runs the builtin name: when standard output is a bad
// descriptor and the builtin wrote to it, it fails with bash's "write
// error", as bash checks standard output after each builtin.
func (r *Runner) checkOutput(name string, run func() exitStatus) exitStatus {
	bad, isBad := r.stdout.(badFdWriter)
	if !isBad {
		return run()
	}
	probe := &badFdProbe{}
	r.stdout = probe
	exit := run()
	if r.stdout == io.Writer(probe) {
		r.stdout = bad
	}
	if probe.tried {
		r.errf("bash: %s: write error: Bad file descriptor\n", name)
		if exit.code == 0 {
			exit.code = 1
		}
	}
	return exit
}

// fdUndo is what a statement's redirection replaced on one descriptor,
// put back when the statement ends (unless exec keeps it).
type fdUndo struct {
	fd  int
	old *fdFile // a held reference, nil when the descriptor was closed or borrowed
	in  stdinFile
	out io.Writer
	set any
}

// stdinFd returns the descriptor table's file that is standard input now,
// if it is one.
func (r *Runner) stdinFd() *fdFile {
	if f := r.stdFds[0]; f != nil && r.stdin != nil && sameStream(r.stdSet[0], r.stdStream(0)) {
		return f
	}
	return nil
}

// stdinReader is standard input for a reader that takes any reader: a
// regular file on the descriptor table is read where its offset stands.
func (r *Runner) stdinReader() (io.Reader, bool) {
	return r.stdinFd().direct()
}

// rawStdin is standard input for a reader of the pipe itself: a regular
// file's pipe starts being filled.
func (r *Runner) rawStdin() stdinFile {
	r.stdinFd().pump()
	return r.stdin
}

// getFd returns the open file on descriptor n. The standard streams are
// always open: one the table does not hold is lent as it is.
func (r *Runner) getFd(n int) (*fdFile, bool) {
	switch n {
	case 0, 1, 2:
		cur := r.stdStream(n)
		if f := r.stdFds[n]; f != nil && sameStream(r.stdSet[n], cur) {
			return f, true
		}
		switch n {
		case 0:
			if r.stdin == nil {
				return newFdFile(nil, nil, nil), true
			}
			return newFdFile(r.stdin, nil, nil), true
		case 1:
			return newFdFile(nil, r.stdout, nil), true
		}
		return newFdFile(nil, r.stderr, nil), true
	}
	f, ok := r.fds[n]
	return f, ok
}

func (r *Runner) stdStream(n int) any {
	switch n {
	case 0:
		if r.stdin == nil {
			return nil
		}
		return r.stdin
	case 1:
		return r.stdout
	}
	return r.stderr
}

// sameStream reports whether two streams are the same value, without
// comparing values Go cannot compare.
func sameStream(a, b any) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	t := reflect.TypeOf(a)
	return t == reflect.TypeOf(b) && t.Comparable() && a == b
}

// setFd puts f (nil: closed) on descriptor n, taking a reference, and
// records what was there for the running statement to put back.
func (r *Runner) setFd(ctx context.Context, n int, f *fdFile) error {
	var in stdinFile
	if n == 0 {
		var err error
		if in, err = f.stdin(ctx, r); err != nil {
			return err
		}
	}
	r.recordUndo(n)
	f.acquire()
	switch n {
	case 0:
		r.stdFds[0].release()
		r.stdFds[0], r.stdin = f, in
		r.stdSet[0] = r.stdStream(0)
	case 1, 2:
		w := f.writer()
		r.stdFds[n].release()
		r.stdFds[n], r.stdSet[n] = f, w
		if n == 1 {
			r.stdout = w
		} else {
			r.stderr = w
		}
	default:
		old := r.fds[n]
		if f == nil {
			delete(r.fds, n)
		} else {
			if r.fds == nil {
				r.fds = make(map[int]*fdFile)
			}
			r.fds[n] = f
		}
		old.release()
	}
	return nil
}

// recordUndo remembers descriptor n as it is, once per statement.
func (r *Runner) recordUndo(n int) {
	if r.fdUndo == nil {
		return
	}
	for _, u := range *r.fdUndo {
		if u.fd == n {
			return
		}
	}
	u := fdUndo{fd: n}
	switch n {
	case 0:
		u.in = r.stdin
	case 1:
		u.out = r.stdout
	case 2:
		u.out = r.stderr
	}
	if n < 3 {
		u.old, u.set = r.stdFds[n].acquire(), r.stdSet[n]
	} else {
		u.old = r.fds[n].acquire()
	}
	*r.fdUndo = append(*r.fdUndo, u)
}

// undoFds puts back what a statement's redirections replaced, newest first.
func (r *Runner) undoFds(undo []fdUndo) {
	for i := len(undo) - 1; i >= 0; i-- {
		u := undo[i]
		switch u.fd {
		case 0, 1, 2:
			r.stdFds[u.fd].release()
			r.stdFds[u.fd], r.stdSet[u.fd] = u.old, u.set
			switch u.fd {
			case 0:
				r.stdin = u.in
			case 1:
				r.stdout = u.out
			default:
				r.stderr = u.out
			}
		default:
			cur := r.fds[u.fd]
			if u.old == nil {
				delete(r.fds, u.fd)
			} else {
				r.fds[u.fd] = u.old
			}
			cur.release()
		}
	}
}

// keepFds makes a statement's redirections the shell's own (exec): what
// they replaced is let go.
func keepFds(undo []fdUndo) {
	for _, u := range undo {
		u.old.release()
	}
}

// pendingRedirs are a simple command's redirections, which its call
// applies once its words are expanded.
type pendingRedirs struct {
	redirs []*syntax.Redirect
	undo   *[]fdUndo
}

// applyRedirs applies a statement's redirections in order, recording what
// they replace in undo. A failure is printed and fails the statement.
func (r *Runner) applyRedirs(ctx context.Context, redirs []*syntax.Redirect, undo *[]fdUndo) bool {
	old := r.fdUndo
	r.fdUndo = undo
	defer func() { r.fdUndo = old }()
	for _, rd := range redirs {
		if err := r.redir(ctx, rd); err != nil {
			if !r.exit.fatalExit {
				// A fatal error from a handler is reported by [Runner.Run].
				r.errf("%v\n", err)
			}
			r.exit.code = 1
			return false
		}
	}
	return true
}

func (r *Runner) applyPending(ctx context.Context, p *pendingRedirs) bool {
	if p == nil {
		return true
	}
	return r.applyRedirs(ctx, p.redirs, p.undo)
}

// freeFd is the lowest descriptor from firstVarFd on that is not open.
func (r *Runner) freeFd() (int, bool) {
	for n := firstVarFd; n < maxFds; n++ {
		if _, ok := r.fds[n]; !ok {
			return n, true
		}
	}
	return 0, false
}

// inheritFds gives a subshell its own references to the parent's files.
func (r2 *Runner) inheritFds(r *Runner) {
	r2.stdFds, r2.stdSet = r.stdFds, r.stdSet
	for _, f := range r2.stdFds {
		f.acquire()
	}
	if len(r.fds) > 0 {
		r2.fds = maps.Clone(r.fds)
		for _, f := range r2.fds {
			f.acquire()
		}
	}
}

// releaseFds lets go of every file the shell holds on a descriptor: a
// subshell's end, or the end of a program.
func (r *Runner) releaseFds() {
	for i, f := range r.stdFds {
		f.release()
		r.stdFds[i], r.stdSet[i] = nil, nil
	}
	for _, f := range r.fds {
		f.release()
	}
	r.fds = nil
}

// CloseFds closes the files the shell holds open on its descriptors (exec
// 3<f, exec >log, {name}>f). A caller that runs each line as a whole program
// calls it when a line ends, as bash -c would exit; files a background job
// still uses stay open until it ends.
func (r *Runner) CloseFds() {
	r.releaseFds()
}
