package shell

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"path"
	"strings"

	"gatehouse/core/shell/utils"
	"gatehouse/core/vfs"
	"gatehouse/internal/lazy"
)

// Running a script by path (./build.sh, scripts/x, /w/bin/tool): the
// kernel would read the file's "#!" line and run its interpreter. A
// workspace has bash and sh, so a script for either runs as the nested
// line `bash [OPTION] PATH ARGS…` under the same gate (G-3.5, G-9.6); a
// file without a "#!" line runs under bash too, as bash runs it. Any other
// interpreter is missing, and the command fails with bash's own words.

// scriptShells are the "#!" interpreters a workspace can run.
var scriptShells = lazy.Value[map[string]string]{New: func() map[string]string {
	return map[string]string{
		"/bin/bash": "bash", "/usr/bin/bash": "bash",
		"/bin/sh": "sh", "/usr/bin/sh": "sh", "/bin/dash": "sh", "/usr/bin/dash": "sh",
	}
}}

// utilityDirs are where `type` and `which` say the utilities live.
var utilityDirs = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{"/usr/bin": true, "/bin": true}
}}

// scriptHead is how much of a file the kernel reads for its "#!" line.
const scriptHead = 256

// isPathCommand reports a command word that names a file rather than a
// command to look up: bash runs it directly when it has a slash.
func isPathCommand(name string) bool { return strings.Contains(name, "/") }

// scriptArgv turns a path command into the bash invocation that runs it.
// When the file cannot run it returns bash's message and status instead
// (run is nil). The file is looked at and read through the op door.
func (s *Shell) scriptArgv(ctx context.Context, ls *lineState, dir string, argv []string) (run []string, msg string, code int) {
	name := argv[0]
	if !s.installed("bash") {
		r := notFound(name)
		return nil, r.Stderr, r.Code
	}
	fsys := s.view(ls, nil)
	abs := utils.Join(dir, name)
	info, err := fsys.Stat(abs)
	switch {
	case err != nil && errors.Is(err, fs.ErrNotExist) && utilityDirs.Get()[path.Dir(abs)] && s.installed(path.Base(abs)):
		// `which cat` says /usr/bin/cat: that spelling runs the utility,
		// judged under its own name.
		return append([]string{path.Base(abs)}, argv[1:]...), "", 0
	case err != nil:
		return scriptError(name, err)
	case info.IsDir():
		return nil, "bash: " + name + ": Is a directory\n", 126
	case !info.Mode().IsRegular() || info.Mode().Perm()&0o111 == 0:
		return nil, "bash: " + name + ": Permission denied\n", 126
	}
	f, err := fsys.Open(abs)
	if err != nil {
		return scriptError(name, err)
	}
	head := make([]byte, scriptHead)
	n, err := io.ReadFull(f, head)
	f.Close()
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return scriptError(name, err)
	}
	head = head[:n]
	if !strings.HasPrefix(string(head), "#!") {
		if strings.IndexByte(string(head), 0) >= 0 {
			return nil, "bash: " + name + ": cannot execute binary file: Exec format error\n", 126
		}
		return append([]string{"bash", name}, argv[1:]...), "", 0
	}
	interpreter, arg := shebang(head)
	shell, ok := scriptShells.Get()[interpreter]
	if interpreter == "/usr/bin/env" || interpreter == "/bin/env" {
		prog, rest, _ := strings.Cut(strings.TrimPrefix(arg, "-S "), " ")
		shell, ok = map[string]string{"bash": "bash", "sh": "sh"}[prog], prog == "bash" || prog == "sh"
		if !ok {
			return nil, interpreter + ": '" + prog + "': No such file or directory\n", 127
		}
		arg = strings.TrimSpace(rest)
	}
	if !ok {
		return nil, "bash: " + name + ": cannot execute: required file not found\n", 127
	}
	run = []string{shell}
	if arg != "" {
		run = append(run, arg)
	}
	return append(append(run, name), argv[1:]...), "", 0
}

// shebang reads the interpreter and its one optional argument from a
// file's first line, as Linux does.
func shebang(head []byte) (interpreter, arg string) {
	line := string(head[2:])
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	line = strings.Trim(line, " \t\r")
	interpreter, arg, _ = strings.Cut(strings.ReplaceAll(line, "\t", " "), " ")
	return interpreter, strings.TrimSpace(arg)
}

// scriptError words a failure to look at or read a script: a missing (or
// hidden) file as bash does, a refusal with its reason.
func scriptError(name string, err error) (run []string, msg string, code int) {
	var refused *vfs.RefusedError
	switch {
	case errors.As(err, &refused):
		return nil, "bash: " + name + ": " + refused.Reason + "\n", 126
	case errors.Is(err, fs.ErrNotExist):
		return nil, "bash: " + name + ": No such file or directory\n", 127
	}
	return nil, "bash: " + name + ": " + errnoText(err) + "\n", 126
}
