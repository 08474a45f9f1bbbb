package awk

import (
	"bufio"
	"context"
	"io"
	"os"
	"strings"
	"sync"

	"gatehouse/core/shell/utils"
)

// lockedWriter serialises writes from awk and the commands it runs
// (`print | "sort"`, system), which share its standard output.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// outStream is an output redirection: a file or a command's input.
type outStream struct {
	w          *bufio.Writer
	unbuffered bool
	closeFn    func() int
}

// inStream is a getline source: a file or a command's output.
type inStream struct {
	rr      *recordReader
	closeFn func() int
	failed  bool
}

// output returns the writer for a print statement's redirection.
func (in *interp) output(redir tok, dest string) *outStream {
	if s, ok := in.streams[dest]; ok {
		in.touch("o" + dest)
		return s
	}
	in.touch("o" + dest)
	var s *outStream
	switch {
	case redir != tPipe && (dest == "/dev/stdout" || dest == "-"):
		s = &outStream{w: in.out, closeFn: func() int { in.out.Flush(); return 0 }}
	case redir != tPipe && dest == "/dev/stderr":
		s = &outStream{w: bufio.NewWriter(in.stderr), unbuffered: true, closeFn: func() int { return 0 }}
	case redir == tPipe:
		s = in.startOutputPipe(dest)
	default:
		s = in.openOutputFile(redir, dest)
	}
	in.streams[dest] = s
	return s
}

func (in *interp) openOutputFile(redir tok, name string) *outStream {
	flags := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if redir == tAppend {
		flags = os.O_WRONLY | os.O_CREATE | os.O_APPEND
	}
	if name == "" {
		in.fatal("expression for `" + redirText(redir) + "' redirection has null string value")
	}
	f, err := in.env.FS.OpenFile(in.env.Abs(name), flags, 0o666)
	if err != nil {
		in.fatal("cannot redirect to `" + name + "': " + utils.ErrText(err))
	}
	w := bufio.NewWriterSize(f, 32*1024)
	return &outStream{w: w, closeFn: func() int {
		ferr := w.Flush()
		if cerr := f.Close(); ferr == nil {
			ferr = cerr
		}
		if ferr != nil {
			return -1
		}
		return 0
	}}
}

func redirText(redir tok) string {
	switch redir {
	case tAppend:
		return ">>"
	case tPipe:
		return "|"
	}
	return ">"
}

// runner returns the nested-line runner, or stops with a clear message
// when the shell offers none.
func (in *interp) runner(cmd string) func(ctx context.Context, argv []string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	if in.env.Exec == nil {
		in.fatal("cannot run `" + cmd + "': commands are not available here")
	}
	return in.env.Exec
}

// runCommand runs a command line through the shell's gate, as a nested
// `sh -c` line would.
func (in *interp) runCommand(cmd string, stdin io.Reader, stdout io.Writer) int {
	exec := in.runner(cmd)
	code, err := exec(in.ctx, []string{"sh", "-c", cmd}, stdin, stdout, in.stderr)
	if err != nil {
		in.setHalt(err)
	}
	return code
}

// system runs a command and waits for it (system()).
func (in *interp) system(cmd string) int {
	in.flushAll()
	code := in.runCommand(cmd, strings.NewReader(""), in.stdout)
	in.checkHalt()
	return code
}

// setHalt remembers an error that must stop the whole line (an ask at
// the execution gate inside a command awk ran).
func (in *interp) setHalt(err error) {
	in.haltMu.Lock()
	if in.halt == nil {
		in.halt = err
	}
	in.haltMu.Unlock()
	in.halted.Store(true)
}

// checkHalt stops awk once a command it ran has stopped the line.
func (in *interp) checkHalt() {
	if in.halted.Load() && !in.closing {
		in.haltMu.Lock()
		err := in.halt
		in.haltMu.Unlock()
		panic(errCancelled{err})
	}
}

func (in *interp) startOutputPipe(cmd string) *outStream {
	in.runner(cmd)
	in.flushAll()
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		code := in.runCommand(cmd, pr, in.stdout)
		pr.Close()
		done <- code
	}()
	w := bufio.NewWriterSize(pw, 32*1024)
	closed, code := false, 0
	return &outStream{w: w, closeFn: func() int {
		if !closed {
			closed = true
			w.Flush()
			pw.Close()
			code = <-done
		}
		in.checkHalt()
		return code
	}}
}

// flushAll pushes every buffered output, as gawk does before it starts a
// command.
func (in *interp) flushAll() {
	in.out.Flush()
	for _, s := range in.streams {
		s.w.Flush()
	}
}

// input returns the getline source for a file or a command.
func (in *interp) getlineSource(mode int, name string) *inStream {
	key := name
	if mode == getCmd {
		key = "|" + name
	}
	if s, ok := in.readers[key]; ok {
		in.touch("i" + key)
		return s
	}
	in.touch("i" + key)
	var s *inStream
	if mode == getCmd {
		s = in.startInputPipe(name)
	} else {
		s = in.openInputFile(name)
	}
	in.readers[key] = s
	return s
}

func (in *interp) openInputFile(name string) *inStream {
	if name == "-" || name == "/dev/stdin" {
		return &inStream{rr: in.stdinReader(), closeFn: func() int { return 0 }}
	}
	f, err := in.env.FS.Open(in.env.Abs(name))
	if err != nil {
		return &inStream{failed: true, closeFn: func() int { return -1 }}
	}
	if st, err := f.Stat(); err == nil && st.IsDir() {
		f.Close()
		return &inStream{failed: true, closeFn: func() int { return -1 }}
	}
	rr := newRecordReader(f, f.Close)
	return &inStream{rr: rr, closeFn: func() int {
		if f.Close() != nil {
			return -1
		}
		return 0
	}}
}

func (in *interp) startInputPipe(cmd string) *inStream {
	in.runner(cmd)
	in.flushAll()
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		code := in.runCommand(cmd, strings.NewReader(""), pw)
		pw.Close()
		done <- code
	}()
	closed, code := false, 0
	return &inStream{rr: newRecordReader(pr, nil), closeFn: func() int {
		if !closed {
			closed = true
			pr.Close()
			code = <-done
		}
		in.checkHalt()
		return code
	}}
}

// stdinReader is the one reader of standard input, shared by the main
// input and `getline < "-"`.
func (in *interp) stdinReader() *recordReader {
	if in.stdin == nil {
		in.stdin = newRecordReader(in.env.Stdin, nil)
	}
	return in.stdin
}

// touch moves a redirection to the front of the recency list, as gawk
// keeps its open redirections; exit closes them in that order.
func (in *interp) touch(key string) {
	if len(in.recent) > 0 && in.recent[0] == key {
		return
	}
	for i, k := range in.recent {
		if k == key {
			copy(in.recent[1:i+1], in.recent[:i])
			in.recent[0] = key
			return
		}
	}
	in.recent = append([]string{key}, in.recent...)
}

func (in *interp) forget(key string) {
	for i, k := range in.recent {
		if k == key {
			in.recent = append(in.recent[:i], in.recent[i+1:]...)
			return
		}
	}
}

// closeStream is close(): an output, then an input of that name.
func (in *interp) closeStream(name string) int {
	if s, ok := in.streams[name]; ok {
		delete(in.streams, name)
		in.forget("o" + name)
		return s.closeFn()
	}
	for _, key := range []string{"|" + name, name} {
		if s, ok := in.readers[key]; ok {
			delete(in.readers, key)
			in.forget("i" + key)
			return s.closeFn()
		}
	}
	return -1
}

// closeAll ends every redirection at exit, most recently used first:
// commands see the end of their input and finish, then awk's own output
// is flushed (gawk's order).
func (in *interp) closeAll() {
	for len(in.recent) > 0 {
		key := in.recent[0]
		in.recent = in.recent[1:]
		if key[0] == 'o' {
			if s, ok := in.streams[key[1:]]; ok {
				delete(in.streams, key[1:])
				s.closeFn()
			}
		} else if s, ok := in.readers[key[1:]]; ok {
			delete(in.readers, key[1:])
			s.closeFn()
		}
	}
	in.out.Flush()
}

// fflush flushes one output, or all of them.
func (in *interp) fflush(name string, all bool) int {
	if all {
		in.flushAll()
		return 0
	}
	if s, ok := in.streams[name]; ok {
		s.w.Flush()
		return 0
	}
	if name == "/dev/stdout" {
		in.out.Flush()
		return 0
	}
	return -1
}
