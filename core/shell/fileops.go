package shell

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"mvdan.cc/sh/v3/syntax"

	"gatehouse/core/gate"
	"gatehouse/core/shell/utils"
	"gatehouse/core/vfs"
)

// The file operations of the Session API (G-11.6). Each one runs as a line
// of its own holding one command, `OP PATH …`, judged by the execution gate
// exactly as a utility is: the tool set does not apply (these are not
// commands the agent types), but every rule, path entry, policy, grant and
// ask does, and the work is done on the same door-checked view a utility
// gets. A denied path fails with the rule's reason, a hidden one is missing,
// an ask is raised in the ledger and the operation waits for its answer
// when the session's host can wait.
const (
	OpReadFile  = "read_file"
	OpWriteFile = "write_file"
	OpEditFile  = "edit_file"
	OpListDir   = "list_dir"
	OpStatFile  = "stat_file"
)

// DefaultReadLines is how many lines ReadFile returns when the window sets
// no limit; MaxLineBytes is the most of one line it returns, the rest cut
// with a marker; MaxEditBytes is the largest file EditFile rewrites.
const (
	DefaultReadLines = 2000
	MaxLineBytes     = 64 << 10
	MaxEditBytes     = 16 << 20
)

// FileError is a file operation that did not happen. Stderr is its text in
// the operation's voice, as a utility would print it (`read_file:
// /vault/aws.token: credentials are never read by hand`); ExitCode is what
// the equivalent command would exit with (1 for a failing path, 126 for a
// refused or asked operation); Refusal is the gate's record when a rule, a
// policy or an ask refused it (Kind "ask" and Status "pending" while an
// ask waits for its answer), nil for an ordinary failure such as a missing
// file. Err is the underlying error, for errors.Is (fs.ErrNotExist,
// fs.ErrPermission, …).
type FileError struct {
	Op       string
	Path     string // as the caller spelled it
	Stderr   string
	ExitCode int
	Refusal  *gate.Refusal
	Err      error
}

func (e *FileError) Error() string { return strings.TrimSuffix(e.Stderr, "\n") }

// Unwrap returns the underlying error.
func (e *FileError) Unwrap() error { return e.Err }

// Pending reports whether the operation waits for a host's answer to an ask.
func (e *FileError) Pending() bool {
	return e.Refusal != nil && e.Refusal.Kind == "ask" && e.Refusal.Status == "pending"
}

// FileWindow selects the lines ReadFile returns: Offset lines are skipped,
// then at most Limit lines follow (0 = DefaultReadLines).
type FileWindow struct {
	Offset int
	Limit  int
}

// FileText is a window of a file's lines.
type FileText struct {
	Path  string   // the absolute path read
	First int      // the number of the first line returned, from 1; 0 when none is
	Lines []string // without their line ends
	Total int      // how many lines the file has
	// Notes are what the humans who allowed the read wrote (G-9.5).
	Notes []ReviewerNote
}

// Numbered renders the lines as agents' read tools do (and as cat -n
// does): each line's number right-aligned in six columns, a tab, the line.
func (t FileText) Numbered() string {
	var b strings.Builder
	for i, l := range t.Lines {
		fmt.Fprintf(&b, "%6d\t%s\n", t.First+i, l)
	}
	return b.String()
}

// FileWrite is what WriteFile did.
type FileWrite struct {
	Path    string // the absolute path written
	Bytes   int
	Created bool // the file did not exist before
	// Notes are what the humans who allowed the write wrote (G-9.5).
	Notes []ReviewerNote
}

// FileEdit is what EditFile did.
type FileEdit struct {
	Path         string // the absolute path edited
	Replacements int
	Line         int // the line of the first replacement, from 1
	// Notes are what the humans who allowed the edit wrote (G-9.5).
	Notes []ReviewerNote
}

// Edit is one exact replacement for EditFile: Old must occur in the file
// exactly once, or, with All, at least once.
type Edit struct {
	Old, New string
	All      bool
}

// FileInfo describes one entry of the filesystem as the session sees it.
type FileInfo struct {
	Name    string
	Path    string // absolute; for a listing entry, its path in the directory
	Dir     bool
	Link    bool   // the entry itself is a symbolic link
	Target  string // where the link points, as written in it
	Size    int64
	Mode    fs.FileMode
	ModTime time.Time
}

func infoOf(p string, fi fs.FileInfo) FileInfo {
	return FileInfo{Name: fi.Name(), Path: p, Dir: fi.IsDir(), Link: fi.Mode()&fs.ModeSymlink != 0,
		Size: fi.Size(), Mode: fi.Mode(), ModTime: fi.ModTime()}
}

type fileOpKey struct{}

// isFileOp reports whether ctx carries a file operation of the Session
// API through admit, rather than a command of a line.
func isFileOp(ctx context.Context) bool { return ctx.Value(fileOpKey{}) != nil }

// fileLine runs one file operation as a line of its own (see the consts
// above). words follow the path in the command the gate, policies and a
// host see (the content of a write, the strings of an edit). do receives the door-checked view and the path
// resolved against the session's cwd. notes, when not nil, receives the
// notes of the allows the operation was given, as a line's result does.
func (s *Shell) fileLine(ctx context.Context, op, name string, write bool, words []string, notes *[]ReviewerNote, do func(fsys vfs.FS, abs string) error) (err error) {
	// A file operation is a line too: a panic in it ends it, never the
	// process (G-12.3).
	defer func() {
		if p := recover(); p != nil {
			s.panicked(ctx, op, p, debug.Stack())
			err = &FileError{Op: op, Path: name, Stderr: internalErrorText(op) + "\n", ExitCode: 125, Err: errors.New("internal error")}
		}
	}()
	cwd := s.Cwd()
	if name == "" {
		return &FileError{Op: op, Stderr: op + ": missing operand\n", ExitCode: 1, Err: fs.ErrInvalid}
	}
	abs := utils.Join(cwd, name)
	argv := append([]string{op, name}, words...)
	// The line is the operation spelled in full, so that an answer, bound
	// to its line (G-9.5), covers exactly the content a host was shown.
	spelled := make([]string, len(argv))
	for i, w := range argv {
		q, err := syntax.Quote(w, syntax.LangBash)
		if err != nil {
			q = strconv.Quote(w)
		}
		spelled[i] = q
	}

	ctx, cancelTime := context.WithTimeoutCause(ctx, s.limits.WallTime, &errHalt{124, fmt.Sprintf("gatehouse: %s exceeded the wall-time limit (%s)", op, s.limits.WallTime)})
	defer cancelTime()
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	ls := &lineState{sh: s, text: strings.Join(spelled, " "), cancel: cancel, claims: map[string][]*placeClaim{}, done: make(chan struct{})}
	ls.jobs.Store(1)
	defer ls.jobEnded() // spends what the operation claimed (G-9.7)
	ctx = context.WithValue(context.WithValue(ctx, lineKey{}, ls), fileOpKey{}, true)

	a := s.admit(ctx, ls, placeAt("", 0), argv, cwd, []gate.Operand{{Arg: name, Path: abs, Write: write}})
	if a.halt != nil || !a.run {
		return s.refusedFileOp(op, name, ls, a)
	}
	if notes != nil {
		ls.mu.Lock()
		*notes = append([]ReviewerNote(nil), ls.notes...)
		ls.mu.Unlock()
	}
	// Reads and writes stop with the operation's time, as a line's do
	// (/dev/zero has no end).
	fsys := stopFS{FS: s.view(ls, a.scope), done: ctx.Done(), keeps: utils.KeepsNothing}
	if err := do(fsys, abs); err != nil {
		if errors.Is(err, errStopped) {
			// Out of time (exit 124, as a line) or cancelled by the caller.
			var h *errHalt
			if errors.As(context.Cause(ctx), &h) {
				return &FileError{Op: op, Path: name, Stderr: h.msg + "\n", ExitCode: h.code, Err: err}
			}
			return &FileError{Op: op, Path: name, Stderr: "gatehouse: " + op + " was cancelled\n", ExitCode: 125, Err: err}
		}
		return fileFailure(op, name, ls, err)
	}
	return nil
}

// refusedFileOp is the error of an operation the gate did not let run: a
// deny, a host's deny answer, or an ask still waiting.
func (s *Shell) refusedFileOp(op, name string, ls *lineState, a admission) error {
	e := &FileError{Op: op, Path: name, Err: fs.ErrPermission}
	if a.refused != nil {
		e.Stderr, e.ExitCode, e.Refusal = a.refused.Stderr, a.refused.Code, a.refused.Record
	}
	ls.mu.Lock()
	if ls.halted != nil {
		r := *ls.halted
		e.Refusal = &r
	}
	ls.mu.Unlock()
	var h *errHalt
	if errors.As(a.halt, &h) {
		e.Stderr, e.ExitCode = h.msg+"\n", h.code
	} else if a.halt != nil {
		e.Stderr, e.ExitCode = op+": "+a.halt.Error()+"\n", 125
	}
	return e
}

// fileFailure renders a failed filesystem call in the operation's voice:
// `OP: PATH: REASON` or the C library's text for an errno; a hidden path
// reads exactly as a missing one (G-4.5).
func fileFailure(op, name string, ls *lineState, err error) error {
	var fe *FileError
	if errors.As(err, &fe) {
		return fe
	}
	e := &FileError{Op: op, Path: name, Stderr: op + ": " + name + ": " + utils.ErrText(err) + "\n", ExitCode: 1, Err: err}
	var refused *vfs.RefusedError
	if errors.As(err, &refused) {
		if r, ok := refused.Detail.(*gate.Refusal); ok {
			rec := *r
			e.Refusal = &rec
		}
	}
	return e
}

// ReadFile reads a window of the file's lines (G-11.6), judged as a read of
// name.
func (s *Shell) ReadFile(ctx context.Context, name string, w FileWindow) (FileText, error) {
	limit := w.Limit
	if limit <= 0 {
		limit = DefaultReadLines
	}
	offset := max(w.Offset, 0)
	var text FileText
	err := s.fileLine(ctx, OpReadFile, name, false, nil, &text.Notes, func(fsys vfs.FS, abs string) error {
		text.Path = abs
		f, err := openRegular(fsys, abs)
		if err != nil {
			return err
		}
		defer f.Close()
		return readWindow(ctx, f, offset, limit, &text)
	})
	return text, err
}

// openRegular opens a file for reading, refusing a directory as cat does.
func openRegular(fsys vfs.FS, abs string) (vfs.File, error) {
	f, err := fsys.Open(abs)
	if err != nil {
		return nil, err
	}
	if info, err := f.Stat(); err == nil && info.IsDir() {
		f.Close()
		return nil, syscall.EISDIR
	}
	return f, nil
}

// readWindow counts every line of r and keeps those of the window, each
// cut at MaxLineBytes, so a file of any size costs one window of memory.
func readWindow(ctx context.Context, r io.Reader, offset, limit int, text *FileText) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var line []byte
	n := 0                       // lines finished so far
	started, cut := false, false // the current line has bytes; some were cut
	for {
		chunk, err := br.ReadSlice('\n')
		if err != nil && err != bufio.ErrBufferFull && err != io.EOF {
			return err
		}
		inWindow := n >= offset && n < offset+limit
		if len(chunk) > 0 {
			started = true
			if inWindow {
				if room := MaxLineBytes - len(line); len(chunk) > room {
					chunk, cut = chunk[:max(room, 0)], true
				}
				line = append(line, chunk...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue // the same line goes on
		}
		if started { // a line ended, at its newline or at the end of the file
			if inWindow {
				l := strings.TrimSuffix(string(line), "\n")
				if cut {
					l += fmt.Sprintf(" [line cut at %d bytes]", MaxLineBytes)
				}
				if text.First == 0 {
					text.First = n + 1
				}
				text.Lines = append(text.Lines, l)
			}
			n++
			line, started, cut = line[:0], false, false
			if n%4096 == 0 && ctx.Err() != nil {
				return context.Cause(ctx)
			}
		}
		if err == io.EOF {
			text.Total = n
			return nil
		}
	}
}

// WriteFile creates or replaces the file with content (G-11.6), judged as
// a write of name.
func (s *Shell) WriteFile(ctx context.Context, name, content string) (FileWrite, error) {
	var done FileWrite
	err := s.fileLine(ctx, OpWriteFile, name, true, []string{content}, &done.Notes, func(fsys vfs.FS, abs string) error {
		done.Path = abs
		_, err := fsys.Stat(abs)
		done.Created = errors.Is(err, fs.ErrNotExist)
		if err := writeWhole(fsys, abs, content); err != nil {
			return err
		}
		done.Bytes = len(content)
		return nil
	})
	return done, err
}

func writeWhole(fsys vfs.FS, abs, content string) error {
	f, err := fsys.OpenFile(abs, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	_, werr := io.WriteString(f, content)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	return werr
}

// EditFile replaces an exact string of the file (G-11.6), judged as a read
// and a write of name: the command a host sees holds the old and the new
// text. It fails, changing nothing, when the old text is empty, missing,
// or (without Edit.All) not unique.
func (s *Shell) EditFile(ctx context.Context, name string, ed Edit) (FileEdit, error) {
	var done FileEdit
	words := []string{ed.Old, ed.New}
	if ed.All {
		words = append(words, "--all")
	}
	err := s.fileLine(ctx, OpEditFile, name, true, words, &done.Notes, func(fsys vfs.FS, abs string) error {
		done.Path = abs
		fail := func(msg string) error {
			return &FileError{Op: OpEditFile, Path: name, Stderr: OpEditFile + ": " + name + ": " + msg + "\n", ExitCode: 1, Err: fs.ErrInvalid}
		}
		if ed.Old == "" {
			return fail("the text to replace is empty")
		}
		if ed.Old == ed.New {
			return fail("the new text is the same as the old")
		}
		f, err := openRegular(fsys, abs)
		if err != nil {
			return err
		}
		data, err := io.ReadAll(io.LimitReader(f, MaxEditBytes+1))
		f.Close()
		if err != nil {
			return err
		}
		if len(data) > MaxEditBytes {
			return syscall.EFBIG
		}
		text := string(data)
		count := strings.Count(text, ed.Old)
		switch {
		case count == 0:
			return fail("the text to replace was not found; read the file again and copy the text exactly, whitespace and indentation included")
		case count > 1 && !ed.All:
			return fail(fmt.Sprintf("the text to replace occurs %d times; give more context to make it unique, or replace every occurrence", count))
		}
		done.Line = strings.Count(text[:strings.Index(text, ed.Old)], "\n") + 1
		n := 1
		if ed.All {
			n = -1
		}
		if err := writeWhole(fsys, abs, strings.Replace(text, ed.Old, ed.New, n)); err != nil {
			return err
		}
		done.Replacements = 1
		if ed.All {
			done.Replacements = count
		}
		return nil
	})
	return done, err
}

// ListDir lists the directory (G-11.6), judged as a read of name: hidden
// entries are absent, denied ones listed (G-4.5, G-4.6). Entries are sorted
// by name.
func (s *Shell) ListDir(ctx context.Context, name string) ([]FileInfo, error) {
	var list []FileInfo
	err := s.fileLine(ctx, OpListDir, name, false, nil, nil, func(fsys vfs.FS, abs string) error {
		entries, err := fsys.ReadDir(abs)
		if err != nil {
			return err
		}
		list = make([]FileInfo, 0, len(entries))
		for _, e := range entries {
			p := utils.Join(abs, e.Name())
			info, err := e.Info()
			if err != nil {
				list = append(list, FileInfo{Name: e.Name(), Path: p, Dir: e.IsDir(), Mode: e.Type()})
				continue
			}
			fi := infoOf(p, info)
			if fi.Link {
				fi.Target, _ = fsys.Readlink(p)
			}
			list = append(list, fi)
		}
		return nil
	})
	return list, err
}

// StatFile describes the entry at name (G-11.6), judged as a read of name;
// a symbolic link is described as the link (Link and Target set).
func (s *Shell) StatFile(ctx context.Context, name string) (FileInfo, error) {
	var fi FileInfo
	err := s.fileLine(ctx, OpStatFile, name, false, nil, nil, func(fsys vfs.FS, abs string) error {
		info, err := fsys.Lstat(abs)
		if err != nil {
			return err
		}
		fi = infoOf(abs, info)
		if fi.Link {
			fi.Target, _ = fsys.Readlink(abs)
		}
		return nil
	})
	return fi, err
}
