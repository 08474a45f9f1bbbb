package utils

import (
	"io"
	"os"

	"gatehouse/core/vfs"
)

const teeHelp = `Usage: tee [OPTION]... [FILE]...
Copy standard input to each FILE, and also to standard output.

  -a, --append              append to the given FILEs, do not overwrite
  -i, --ignore-interrupts   ignore interrupt signals
  -p                        diagnose errors writing to non pipes
      --output-error[=MODE]   set behavior on write error.  See MODE below
      --help        display this help and exit
      --version     output version information and exit

MODE determines behavior with write errors on the outputs:
  warn           diagnose errors writing to any output
  warn-nopipe    diagnose errors writing to any output not a pipe
  exit           exit on error writing to any output
  exit-nopipe    exit on error writing to any output not a pipe
The default MODE for the -p option is 'warn-nopipe'.
The default operation when --output-error is not specified, is to
exit immediately on error writing to a pipe, and diagnose errors
writing to non pipe outputs.
`

var teeOpts = []optDef{
	{short: 'a', long: "append"},
	{short: 'i', long: "ignore-interrupts"},
	{short: 'p'},
	{long: "output-error", arg: maybeArg},
}

// teeUtility makes the tee utility (see builtins).
func teeUtility(string) *Utility {
	return &Utility{
		Name:        "tee",
		Keeps:       KeepsNothing,
		Run:         runTee,
		Operands:    plainOperands(teeOpts, parseMode{}, Write),
		OperandExit: 1,
		Voice:       quotedVoice("tee"),
		Help:        teeHelp,
	}
}

// teeOutput is one FILE operand; w is nil once it failed.
type teeOutput struct {
	name string
	w    io.Writer
	c    io.Closer
}

func runTee(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "tee", defs: teeOpts, usageExit: 1, help: teeHelp})
	if done {
		return status, nil
	}
	flags := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if args.has("append") {
		flags = os.O_WRONLY | os.O_CREATE | os.O_APPEND
	}
	var outs []*teeOutput
	for _, name := range args.operandStrings(e.Args) {
		out := &teeOutput{name: name}
		switch {
		case name == "-" || name == "/dev/stdout":
			// GNU tee writes "-" as a file named "-"; /dev/stdout is the
			// command's own stdout, whose stream the VFS cannot open.
			if name == "/dev/stdout" {
				out.w = toolWriter{t}
				outs = append(outs, out)
				continue
			}
		case name == "/dev/stderr":
			out.w = e.Stderr
			if out.w == nil {
				out.w = io.Discard
			}
			outs = append(outs, out)
			continue
		}
		var f vfs.File
		err := error(errEmptyName)
		if name != "" {
			f, err = e.FS.OpenFile(e.Abs(name), flags, 0o666)
		}
		if err != nil {
			t.warn(quoteIfNeeded(name) + ": " + errText(err))
			status = 1
			continue
		}
		out.w, out.c = f, f
		outs = append(outs, out)
	}
	in := t.stdin()
	buf := make([]byte, 32*1024)
	for {
		if t.ctx.Err() != nil {
			break
		}
		n, err := in.Read(buf)
		if n > 0 {
			if !t.write(buf[:n]) || !t.flush() {
				// The reader of our stdout went away: stop, as GNU tee
				// does on a pipe.
				status = 1
				break
			}
			for _, out := range outs {
				if out.w == nil {
					continue
				}
				if _, werr := out.w.Write(buf[:n]); werr != nil {
					t.warn(quoteIfNeeded(out.name) + ": " + errText(werr))
					out.w = nil
					status = 1
				}
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			t.warn("read error: " + errText(err))
			status = 1
			break
		}
	}
	for _, out := range outs {
		if out.c != nil {
			if err := out.c.Close(); err != nil && out.w != nil {
				t.warn(quoteIfNeeded(out.name) + ": " + errText(err))
				status = 1
			}
		}
	}
	return t.end(status)
}
