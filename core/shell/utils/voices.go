package utils

import (
	"io"
	"io/fs"
	"syscall"
)

// quotedVoice is the operand voice of utilities that print
// "NAME: FILE: MESSAGE" with the file quoted only when a shell would need
// it (coreutils' quotef).
func quotedVoice(name string) func(arg, msg string) string {
	return func(arg, msg string) string { return name + ": " + quoteIfNeeded(arg) + ": " + msg + "\n" }
}

// alwaysQuotedVoice is for utilities whose message quotes the file
// always (coreutils' quoteaf): "NAME: cannot ... 'FILE': MESSAGE".
func alwaysQuotedVoice(prefix string) func(arg, msg string) string {
	return func(arg, msg string) string { return prefix + quoteAlways(arg) + ": " + msg + "\n" }
}

// errEmptyName is what an empty file operand gives, as open("") and
// stat("") do: the name never means the current directory.
var errEmptyName = &fs.PathError{Op: "open", Path: "", Err: syscall.ENOENT}

// openOperand is openInput refusing the empty name.
func openOperand(t *tool, name string) (io.Reader, func(), error) {
	if name == "" {
		return nil, nil, errEmptyName
	}
	return t.openInput(name)
}

// statOperand stats a file operand (lstat unless follow), refusing the
// empty name.
func statOperand(e *Env, name string, follow bool) (fs.FileInfo, error) {
	if name == "" {
		return nil, errEmptyName
	}
	if follow {
		return e.FS.Stat(e.Abs(name))
	}
	return e.FS.Lstat(e.Abs(name))
}
