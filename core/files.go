package core

import (
	"context"
	"errors"
	"fmt"

	"gatehouse/core/gate"
	"gatehouse/core/shell"
)

// The Session's file operations (G-11.6): reading, writing, editing,
// listing and describing files without a shell line, judged by the same
// gate, grants, asks, policies and op door as the shell's utilities. Each
// is a line of its own for the session's watchers (console transcripts,
// REST events), spelled `OP PATH`.
type (
	// FileError is a file operation that did not happen: its stderr in
	// the operation's voice, the exit code of the equivalent command and,
	// when the gate refused or asked, the refusal record.
	FileError = shell.FileError
	// FileWindow selects the lines ReadFile returns (Offset, Limit).
	FileWindow = shell.FileWindow
	// FileText is a window of a file's lines, numbered from First.
	FileText = shell.FileText
	// FileWrite is what WriteFile did.
	FileWrite = shell.FileWrite
	// Edit is one exact replacement for EditFile.
	Edit = shell.Edit
	// FileEdit is what EditFile did.
	FileEdit = shell.FileEdit
	// FileInfo describes one entry of the filesystem as the session sees it.
	FileInfo = shell.FileInfo
)

// Names of the file operations, as records and policies see them.
const (
	OpReadFile  = shell.OpReadFile
	OpWriteFile = shell.OpWriteFile
	OpEditFile  = shell.OpEditFile
	OpListDir   = shell.OpListDir
	OpStatFile  = shell.OpStatFile
)

// ReadFile returns a window of the lines of the file at path (absolute, or
// relative to the session's cwd): Offset lines skipped, at most Limit
// returned (default shell.DefaultReadLines), with the file's line count.
// It is judged as a read of path. An error is a *FileError.
func (s *Session) ReadFile(ctx context.Context, path string, w FileWindow) (FileText, error) {
	var text FileText
	err := s.fileOp(ctx, OpReadFile, path, func() (string, []ReviewerNote, error) {
		var err error
		text, err = s.sh.ReadFile(ctx, path, w)
		return fmt.Sprintf("read lines %d-%d of %d\n", text.First, text.First+len(text.Lines)-1, text.Total), text.Notes, err
	})
	return text, err
}

// WriteFile creates or replaces the file at path with content, judged as a
// write of path; the command a host is asked about holds the content. An
// error is a *FileError.
func (s *Session) WriteFile(ctx context.Context, path, content string) (FileWrite, error) {
	var done FileWrite
	err := s.fileOp(ctx, OpWriteFile, path, func() (string, []ReviewerNote, error) {
		var err error
		done, err = s.sh.WriteFile(ctx, path, content)
		return fmt.Sprintf("wrote %d bytes\n", done.Bytes), done.Notes, err
	})
	return done, err
}

// EditFile replaces ed.Old with ed.New in the file at path, judged as a
// read and a write of path; the command a host is asked about holds both
// strings. It fails without changing anything when ed.Old is empty or
// missing, or occurs more than once and ed.All is not set. An error is a
// *FileError.
func (s *Session) EditFile(ctx context.Context, path string, ed Edit) (FileEdit, error) {
	var done FileEdit
	err := s.fileOp(ctx, OpEditFile, path, func() (string, []ReviewerNote, error) {
		var err error
		done, err = s.sh.EditFile(ctx, path, ed)
		return fmt.Sprintf("replaced %d occurrence(s) from line %d\n", done.Replacements, done.Line), done.Notes, err
	})
	return done, err
}

// ListDir lists the directory at path ("" is the cwd), sorted by name:
// hidden entries are absent, denied ones present. It is judged as a read of
// path. An error is a *FileError.
func (s *Session) ListDir(ctx context.Context, path string) ([]FileInfo, error) {
	if path == "" {
		path = "."
	}
	var list []FileInfo
	err := s.fileOp(ctx, OpListDir, path, func() (string, []ReviewerNote, error) {
		var err error
		list, err = s.sh.ListDir(ctx, path)
		return fmt.Sprintf("%d entries\n", len(list)), nil, err
	})
	return list, err
}

// Stat describes the entry at path, not following a final symbolic link.
// It is judged as a read of path. An error is a *FileError.
func (s *Session) Stat(ctx context.Context, path string) (FileInfo, error) {
	var fi FileInfo
	err := s.fileOp(ctx, OpStatFile, path, func() (string, []ReviewerNote, error) {
		var err error
		fi, err = s.sh.StatFile(ctx, path)
		return "", nil, err
	})
	return fi, err
}

// fileOp runs one file operation as a line for the session's watchers:
// counted as running, announced, and ended with a result (its summary on
// stdout, or the error's stderr, exit code and refusal).
func (s *Session) fileOp(ctx context.Context, op, path string, do func() (summary string, notes []ReviewerNote, err error)) error {
	line := op + " " + path
	s.mu.Lock()
	s.running++
	s.mu.Unlock()
	s.ws.emit(EventLineStart, s, line, nil, "")
	// Another process's saved files first, this operation's saved after
	// (G-5.6); a failure to sync is the operator's business, not the
	// operation's.
	if perr := s.ws.durable.pull(ctx); perr != nil {
		s.ws.logger().Printf("gatehouse: %s: the files other processes saved could not be read: %v", line, perr)
	}
	summary, notes, err := do()
	if msg := s.ws.saveAfter(ctx); msg != "" {
		s.ws.logger().Print(msg)
	}
	res := Result{Stdout: summary, Refusals: []gate.Refusal{}, Notes: notes}
	var fe *FileError
	switch {
	case errors.As(err, &fe):
		res = Result{Stderr: fe.Stderr, ExitCode: fe.ExitCode, Refusal: fe.Refusal, Refusals: []gate.Refusal{}}
		if fe.Refusal != nil {
			res.Refusals = []gate.Refusal{*fe.Refusal}
		}
	case err != nil:
		res = Result{Stderr: err.Error() + "\n", ExitCode: 125, Refusals: []gate.Refusal{}}
	}
	s.mu.Lock()
	s.running--
	s.mu.Unlock()
	s.ws.emit(EventLineEnd, s, line, &res, "")
	return err
}
