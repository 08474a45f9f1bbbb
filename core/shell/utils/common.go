package utils

import (
	"bufio"
	"context"
	"errors"
	"io"
	"io/fs"
	"strings"
	"syscall"
	"time"

	"gatehouse/core/vfs"
	"gatehouse/internal/lazy"
)

// tool is the running state every utility shares: its name for messages,
// a buffered stdout that remembers write failures, and the context.
type tool struct {
	env  *Env
	name string
	ctx  context.Context
	// done is ctx.Done(), taken once: stopped is asked for every file a
	// walk meets, and ctx.Err() climbs the context's chain each time.
	done <-chan struct{}
	sink *failWriter
	out  *bufio.Writer
	help string
	// usageExit is the status of a command-line mistake (1 for most
	// utilities, 2 for ls, grep and sort, 125 for env).
	usageExit int
	usageLine string
}

// failWriter remembers the first write error so a utility can stop as soon
// as its reader went away (`yes | head -1` must end).
type failWriter struct {
	w   io.Writer
	err error
}

func (f *failWriter) Write(p []byte) (int, error) {
	if f.err != nil {
		return 0, f.err
	}
	n, err := f.w.Write(p)
	if err != nil {
		f.err = err
	}
	return n, err
}

// spec bundles what begin needs to parse a utility's command line.
type spec struct {
	name      string
	defs      []optDef
	mode      parseMode
	usageExit int
	help      string
	version   string // the --version line; defaults to coreutils'
	// usageLine is printed between a usage error and the "Try" hint, as
	// grep and xargs do.
	usageLine string
}

// begin parses argv and answers --help, --version and usage errors. When
// done is true the utility must return status at once.
func begin(e *Env, s spec) (t *tool, args *parsedArgs, status int, done bool) {
	t = newTool(e, s.name, s.help, s.usageExit)
	t.usageLine = s.usageLine
	args, uerr := parseArgs(e.Args, s.defs, s.mode)
	if uerr != nil {
		return t, nil, t.usage(uerr.msg), true
	}
	for _, o := range args.opts {
		switch o.name {
		case "help":
			t.writeString(s.help)
			return t, nil, t.finish(0), true
		case "version":
			v := s.version
			if v == "" {
				v = s.name + " (GNU coreutils) 9.4\n"
			}
			t.writeString(v)
			return t, nil, t.finish(0), true
		}
	}
	return t, args, 0, false
}

func newTool(e *Env, name, help string, usageExit int) *tool {
	ctx := e.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	stdout := e.Stdout
	if stdout == nil {
		stdout = io.Discard
	}
	sink := &failWriter{w: stdout}
	return &tool{env: e, name: name, ctx: ctx, done: ctx.Done(), sink: sink, out: bufio.NewWriterSize(sink, 32*1024), help: help, usageExit: usageExit}
}

// write sends p to stdout and reports whether stdout still works.
func (t *tool) write(p []byte) bool {
	if t.sink.err != nil {
		return false
	}
	_, err := t.out.Write(p)
	return err == nil
}

func (t *tool) writeString(s string) bool {
	if t.sink.err != nil {
		return false
	}
	_, err := t.out.WriteString(s)
	return err == nil
}

func (t *tool) writeByte(b byte) bool {
	if t.sink.err != nil {
		return false
	}
	return t.out.WriteByte(b) == nil
}

// broken reports a failed stdout.
func (t *tool) broken() bool { return t.sink.err != nil }

// flush pushes buffered output; stdout and stderr may share one stream, so
// every diagnostic flushes first to keep GNU's ordering.
func (t *tool) flush() bool { return t.out.Flush() == nil }

// stopped reports a cancelled line (time limit, ask) or a dead stdout.
func (t *tool) stopped() bool {
	select {
	case <-t.done:
		return true
	default:
		return t.sink.err != nil
	}
}

// warn prints "NAME: msg" on stderr.
func (t *tool) warn(msg string) {
	t.flush()
	if t.env.Stderr != nil {
		io.WriteString(t.env.Stderr, t.name+": "+msg+"\n")
	}
}

// usage reports a command-line mistake the way GNU does and returns the
// utility's usage status.
func (t *tool) usage(msg string) int {
	t.warn(msg)
	if t.env.Stderr != nil {
		io.WriteString(t.env.Stderr, t.usageLine+"Try '"+t.name+" --help' for more information.\n")
	}
	return t.finish(t.usageExit)
}

// finish flushes stdout and settles the exit status: output that could not
// be written is a failure.
func (t *tool) finish(status int) int {
	if !t.flush() && status == 0 {
		status = 1
	}
	return status
}

// end is finish for Run's two results: a cancelled line also returns the
// context's error so the shell stops the line.
func (t *tool) end(status int) (int, error) {
	status = t.finish(status)
	if err := t.ctx.Err(); err != nil {
		return status, err
	}
	return status, nil
}

// stdin returns the utility's standard input (empty when it has none).
func (t *tool) stdin() io.Reader {
	if t.env.Stdin == nil {
		return strings.NewReader("")
	}
	return t.env.Stdin
}

// abs resolves an operand against the cwd.
func (t *tool) abs(p string) string { return t.env.Abs(p) }

// openInput opens an input operand; "-" is standard input. Opening a
// directory succeeds and its reads fail with EISDIR, as on Linux.
func (t *tool) openInput(arg string) (io.Reader, func(), error) {
	if arg == "-" {
		return t.stdin(), func() {}, nil
	}
	f, err := t.env.FS.Open(t.abs(arg))
	if err != nil {
		return nil, nil, err
	}
	return f, func() { f.Close() }, nil
}

// unread gives back the n bytes a tool read from in past what it used,
// where in can take them back: a regular file shared through a descriptor
// is then left where GNU's tools leave it, just past the last line used.
func unread(in io.Reader, n int64) {
	if u, ok := in.(interface{ Unread(int64) bool }); ok && n > 0 {
		u.Unread(n)
	}
}

// errText renders an error as GNU prints it after "NAME: PATH: ": the C
// library's strerror text, or a refusal's reason (G-6.2).
func errText(err error) string {
	if err == nil {
		return ""
	}
	var refused *vfs.RefusedError
	if errors.As(err, &refused) {
		return refused.Reason
	}
	var errno syscall.Errno
	if errors.As(err, &errno) {
		if text, ok := strerror.Get()[errno]; ok {
			return text
		}
		return capitalize(errno.Error())
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "No such file or directory"
	case errors.Is(err, fs.ErrExist):
		return "File exists"
	case errors.Is(err, fs.ErrPermission):
		return "Permission denied"
	case errors.Is(err, fs.ErrInvalid):
		return "Invalid argument"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return capitalize(pe.Err.Error())
	}
	return capitalize(err.Error())
}

// strerror holds glibc's wording for the errors the VFS produces.
var strerror = lazy.Value[map[syscall.Errno]string]{New: func() map[syscall.Errno]string {
	return map[syscall.Errno]string{
		syscall.ENOENT:       "No such file or directory",
		syscall.EACCES:       "Permission denied",
		syscall.EPERM:        "Operation not permitted",
		syscall.EROFS:        "Read-only file system",
		syscall.EISDIR:       "Is a directory",
		syscall.ENOTDIR:      "Not a directory",
		syscall.EEXIST:       "File exists",
		syscall.ENOTEMPTY:    "Directory not empty",
		syscall.ELOOP:        "Too many levels of symbolic links",
		syscall.EXDEV:        "Invalid cross-device link",
		syscall.EINVAL:       "Invalid argument",
		syscall.EBUSY:        "Device or resource busy",
		syscall.EBADF:        "Bad file descriptor",
		syscall.ENOSPC:       "No space left on device",
		syscall.ENAMETOOLONG: "File name too long",
		syscall.EFBIG:        "File too large",
		syscall.EPIPE:        "Broken pipe",
		syscall.EIO:          "Input/output error",
		syscall.ENOTSUP:      "Operation not supported",
		syscall.EMFILE:       "Too many open files",
		syscall.ENOMEM:       "Cannot allocate memory",
	}
}}

func capitalize(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// isErrno reports whether err carries that errno.
func isErrno(err error, errno syscall.Errno) bool {
	var e syscall.Errno
	return errors.As(err, &e) && e == errno
}

// isNotExist reports a missing (or hidden) path.
func isNotExist(err error) bool {
	return isErrno(err, syscall.ENOENT) || errors.Is(err, fs.ErrNotExist)
}

// plainOperands is the shared Operands for utilities whose operands are all
// paths of one kind.
func plainOperands(defs []optDef, mode parseMode, kind OperandKind) func(argv []string) []OperandRef {
	return func(argv []string) []OperandRef {
		args, err := parseArgs(argv, defs, mode)
		if err != nil {
			return nil
		}
		return operandRefs(args.operands, kind)
	}
}

// inputOperands is the Operands of utilities that read their operands as
// input files, where "-" is standard input rather than a path.
func inputOperands(defs []optDef, mode parseMode) func(argv []string) []OperandRef {
	return func(argv []string) []OperandRef {
		args, err := parseArgs(argv, defs, mode)
		if err != nil {
			return nil
		}
		return fileRefs(argv, args.operands, Read)
	}
}

// operandStrings returns the operands' texts.
func (p *parsedArgs) operandStrings(argv []string) []string {
	out := make([]string, len(p.operands))
	for i, idx := range p.operands {
		out[i] = argv[idx]
	}
	return out
}

// location is the time zone for printing and parsing dates: $TZ when it
// names a zone or an offset, else UTC (a workspace has no host zone of its
// own).
func (t *tool) location() *time.Location { return dateZone(t.env.Getenv("TZ")) }

// rawStderr writes text to stderr as is, after flushing stdout.
func (t *tool) rawStderr(s string) {
	t.flush()
	if t.env.Stderr != nil {
		io.WriteString(t.env.Stderr, s)
	}
}
