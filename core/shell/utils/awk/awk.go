// Package awk is gatehouse's awk: a POSIX awk with the gawk extensions
// agents use, written in Go over the VFS (G-12.2). It has its own lexer,
// parser and tree-walking interpreter; input files, -f program files and
// output redirections go through the op door like every utility's files,
// and commands it runs (system, `cmd | getline`, `print | cmd`) are nested
// lines judged by the same gate. It speaks with gawk 5.2's messages.
package awk

import (
	_ "embed"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"

	"gatehouse/core/shell/utils"
	"gatehouse/internal/lazy"
)

//go:embed help.txt
var helpText string

const versionText = "GNU Awk 5.2.1, API 3.2, PMA Avon 8-g1, (GNU MPFR 4.2.0, GNU MP 6.2.1)\n" +
	"Copyright (C) 1989, 1991-2022 Free Software Foundation.\n\n" +
	"This is gatehouse's awk, written in Go; it follows gawk's behaviour and messages.\n"

// defaultMemLimit bounds what one awk run keeps in arrays and strings
// when the shell gives no budget of its own (the line limit of G-12.3).
const defaultMemLimit = 512 << 20

// memoryBudget is the budget in force; tests lower it. It is the hook
// for a per-line memory accountant: when the shell offers one, awk's
// grow/release calls are where it would be charged.
var memoryBudget atomic.Int64

func init() { memoryBudget.Store(defaultMemLimit) }

// providers name awk and gawk to the shell; each is made when first
// looked up, not at start-up.
var providers = [...]utils.Provider{{Name: "awk", Make: utility}, {Name: "gawk", Make: utility}}

func init() {
	for i := range providers {
		utils.Provide(&providers[i])
	}
}

// utility makes awk or gawk.
func utility(name string) *utils.Utility {
	return &utils.Utility{
		Name:        name,
		Run:         Run,
		Operands:    Operands,
		OperandExit: 2,
		Voice:       voice(name),
		WriteVoice:  writeVoice(name),
		Help:        helpText,
	}
}

// voice is gawk's line for an input file that cannot be opened (G-7.3).
func voice(name string) func(arg, msg string) string {
	return func(arg, msg string) string {
		return name + ": fatal: cannot open file `" + arg + "' for reading: " + msg + "\n"
	}
}

// writeVoice is gawk's line for an output redirection it cannot open.
func writeVoice(name string) func(arg, msg string) string {
	return func(arg, msg string) string {
		return name + ": cmd. line:1: fatal: cannot redirect to `" + arg + "': " + msg + "\n"
	}
}

// config is awk's parsed command line.
type config struct {
	fs       *string
	assigns  []string
	sources  []progSource
	operands []string
	// operandIdx are the argv indexes of operands; progIdx that of the
	// program text (-1 with -f/-e).
	operandIdx []int
	progIdx    int
}

// progSource is one piece of program text: -f FILE, -e TEXT or the
// program operand.
type progSource struct {
	file     string
	text     string
	isArg    bool
	index    int // argv index of the file name, for operands
	attached bool
}

// usageError is a command-line mistake; msg may be empty (usage only).
type usageError struct{ msg string }

// parseCommandLine reads gawk's options: -F, -v, -f, -e and their long
// spellings, `--`, and ignores the flags that change nothing here.
func parseCommandLine(argv []string) (*config, *usageError, string) {
	c := &config{progIdx: -1}
	i := 1
	for ; i < len(argv); i++ {
		a := argv[i]
		if a == "--" {
			i++
			break
		}
		if len(a) < 2 || a[0] != '-' {
			break
		}
		if strings.HasPrefix(a, "--") {
			next, stop, err := c.longOption(argv, i)
			if err != nil || stop != "" {
				return c, err, stop
			}
			i = next
			continue
		}
		next, stop, err := c.shortOptions(argv, i)
		if err != nil || stop != "" {
			return c, err, stop
		}
		i = next
	}
	if len(c.sources) == 0 {
		if i >= len(argv) {
			return c, &usageError{}, ""
		}
		c.progIdx = i
		c.sources = append(c.sources, progSource{text: argv[i], isArg: true})
		i++
	}
	for ; i < len(argv); i++ {
		c.operands = append(c.operands, argv[i])
		c.operandIdx = append(c.operandIdx, i)
	}
	return c, nil, ""
}

// shortOptions reads one argv element of short options; it returns the
// index of the last element consumed.
func (c *config) shortOptions(argv []string, i int) (int, string, *usageError) {
	a := argv[i]
	for j := 1; j < len(a); j++ {
		opt := a[j]
		switch opt {
		case 'F', 'v', 'f', 'e', 'E', 'i', 'l', 'W':
			val, attached := a[j+1:], true
			if val == "" {
				attached = false
				if i+1 >= len(argv) {
					return i, "", &usageError{"option requires an argument -- " + string(opt)}
				}
				i++
				val = argv[i]
			}
			if opt == 'W' {
				// -W name[=value] is the POSIX spelling of --name.
				return c.longOption(append(argv[:i:i], "--"+val), i)
			}
			if opt == 'v' && !strings.Contains(val, "=") {
				return i, "", &usageError{"`" + val + "' argument to `-v' not in `var=value' form\n"}
			}
			c.takeValue(opt, val, i, attached)
			return i, "", nil
		case 'V':
			return i, "version", nil
		case 'h':
			return i, "help", nil
		case 'b', 'c', 'C', 'g', 'I', 'M', 'N', 'n', 'O', 'P', 'r', 's', 'S', 't', 'L', 'd', 'D', 'o', 'p':
			// Accepted and ignored: they tune gawk's internals or enable
			// modes (lint, profiling, dumps) that have no effect here.
			if opt == 'L' || opt == 'd' || opt == 'D' || opt == 'o' || opt == 'p' {
				return i, "", nil
			}
		default:
			return i, "", &usageError{}
		}
	}
	return i, "", nil
}

func (c *config) takeValue(opt byte, val string, i int, attached bool) {
	switch opt {
	case 'F':
		v := val
		c.fs = &v
	case 'v':
		c.assigns = append(c.assigns, val)
	case 'f', 'E', 'i':
		c.sources = append(c.sources, progSource{file: val, index: i, attached: attached})
	case 'e':
		c.sources = append(c.sources, progSource{text: val})
	}
}

var longOptions = lazy.Value[map[string]byte]{New: func() map[string]byte {
	return map[string]byte{
		"field-separator": 'F', "assign": 'v', "file": 'f', "source": 'e',
		"exec": 'E', "include": 'i', "load": 'l',
	}
}}

func (c *config) longOption(argv []string, i int) (int, string, *usageError) {
	name, val, hasVal := strings.Cut(argv[i][2:], "=")
	switch name {
	case "help", "usage":
		return i, "help", nil
	case "version":
		return i, "version", nil
	case "characters-as-bytes", "traditional", "copyright", "gen-pot", "trace",
		"bignum", "use-lc-numeric", "non-decimal-data", "optimize", "posix",
		"re-interval", "no-optimize", "sandbox", "lint-old", "lint", "dump-variables",
		"debug", "pretty-print", "profile", "csv":
		return i, "", nil
	}
	opt, ok := longOptions.Get()[name]
	if !ok {
		return i, "", &usageError{}
	}
	if !hasVal {
		if i+1 >= len(argv) {
			return i, "", &usageError{"option '--" + name + "' requires an argument"}
		}
		i++
		val = argv[i]
	}
	if opt == 'v' && !strings.Contains(val, "=") {
		return i, "", &usageError{"`" + val + "' argument to `-v' not in `var=value' form\n"}
	}
	c.takeValue(opt, val, i, hasVal)
	return i, "", nil
}

// Operands declares awk's path operands (G-4.9): -f program files, input
// files, and the files the program text names with constant strings
// (`print > "out"`, `getline < "in"`), but not the program itself,
// `var=value` assignments or "-".
func Operands(argv []string) []utils.OperandRef {
	c, uerr, stop := parseCommandLine(argv)
	if uerr != nil || stop != "" {
		return nil
	}
	var refs []utils.OperandRef
	for _, s := range c.sources {
		if s.file != "" && s.file != "-" && s.file != "/dev/stdin" {
			ref := utils.OperandRef{Index: s.index, Kind: utils.Read}
			if s.attached {
				ref.Path = s.file
			}
			refs = append(refs, ref)
		}
	}
	for k, op := range c.operands {
		if op == "-" || op == "" || op == "/dev/stdin" || isAssignmentOperand(op) {
			continue
		}
		refs = append(refs, utils.OperandRef{Index: c.operandIdx[k], Kind: utils.Read})
	}
	return append(refs, programOperands(c)...)
}

// programOperands are the literal files of a program given as an argument.
func programOperands(c *config) []utils.OperandRef {
	if c.progIdx < 0 {
		return nil
	}
	srcs := newSourceMap()
	srcs.add("cmd. line", c.sources[0].text)
	srcs.index()
	prog, _, err := parse(srcs.text, srcs)
	if err != nil {
		return nil
	}
	var refs []utils.OperandRef
	for _, p := range literalPaths(prog) {
		kind := utils.Read
		if p.write {
			kind = utils.Write
		}
		refs = append(refs, utils.OperandRef{Index: c.progIdx, Kind: kind, Path: p.path})
	}
	return refs
}

// Run is awk's entry point as a utility.
func Run(e *utils.Env) (status int, err error) {
	name := "awk"
	if len(e.Args) > 0 && e.Args[0] != "" {
		name = e.Args[0]
	}
	stderr := e.Stderr
	if stderr == nil {
		stderr = io.Discard
	}
	defer func() {
		// The interpreter recovers its own failures; this catches the
		// rest (reading sources, parsing), so no input takes the line
		// down with a Go panic.
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "%s: fatal: internal error: %v\n", name, r)
			status, err = 2, nil
		}
	}()
	c, uerr, stop := parseCommandLine(e.Args)
	switch {
	case stop == "help":
		io.WriteString(e.Stdout, helpText)
		return 0, nil
	case stop == "version":
		io.WriteString(e.Stdout, versionText)
		return 0, nil
	case uerr != nil:
		if uerr.msg != "" {
			io.WriteString(stderr, name+": "+uerr.msg+"\n")
		}
		io.WriteString(stderr, helpText)
		return 1, nil
	}
	srcs := newSourceMap()
	for _, s := range c.sources {
		text, ok := readSource(e, name, s, stderr)
		if !ok {
			return 2, nil
		}
		label := "cmd. line"
		if s.file != "" {
			label = s.file
		}
		srcs.add(label, text)
	}
	srcs.index()
	prog, warnings, perr := parse(srcs.text, srcs)
	for _, w := range warnings {
		io.WriteString(stderr, name+": "+srcs.where(w.pos)+": warning: "+w.msg+"\n")
	}
	if perr != nil {
		var se *syntaxError
		if errors.As(perr, &se) {
			io.WriteString(stderr, se.render(name, srcs))
			if se.fatal {
				return 2, nil
			}
		}
		return 1, nil
	}
	return runProgram(e, name, c, prog, srcs, stderr)
}

// readSource returns one piece of program text; -f files go through the
// op door.
func readSource(e *utils.Env, name string, s progSource, stderr io.Writer) (string, bool) {
	if s.file == "" {
		return s.text, true
	}
	var r io.Reader
	if s.file == "-" || s.file == "/dev/stdin" {
		r = e.Stdin
	} else {
		f, err := e.FS.Open(e.Abs(s.file))
		if err != nil {
			io.WriteString(stderr, name+": fatal: cannot open source file `"+s.file+"' for reading: "+utils.ErrText(err)+"\n")
			return "", false
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, 64<<20))
	if err != nil {
		io.WriteString(stderr, name+": fatal: error reading source file `"+s.file+"': "+utils.ErrText(err)+"\n")
		return "", false
	}
	return string(data), true
}

// runProgram sets up the interpreter and runs BEGIN, the input and END.
func runProgram(e *utils.Env, name string, c *config, prog *program, srcs *sourceMap, stderr io.Writer) (status int, err error) {
	in := newInterp(e, name, prog, srcs, stderr)
	defer func() {
		if r := recover(); r != nil {
			status, err = in.recovered(r)
		}
		in.closeAllQuietly()
		if h := in.haltErr(); h != nil && err == nil {
			err = h
			if status == 0 {
				status = 126
			}
		}
	}()
	in.setup(c)
	in.execute()
	in.closeAll()
	return in.exitCode, in.ctxErr()
}

func (in *interp) ctxErr() error {
	if h := in.haltErr(); h != nil {
		return h
	}
	return in.ctx.Err()
}

// recovered turns a panic out of the interpreter into awk's exit.
func (in *interp) recovered(r any) (int, error) {
	switch x := r.(type) {
	case *fatalError:
		in.out.Flush()
		io.WriteString(in.stderr, in.where()+"fatal: "+x.msg+"\n")
		return 2, nil
	case errCancelled:
		in.out.Flush()
		return 2, x.err
	case errOutput:
		return 2, in.ctx.Err()
	case exitError:
		in.closeAll()
		return in.exitCode, in.ctxErr()
	}
	in.out.Flush()
	fmt.Fprintf(in.stderr, "%s: fatal: internal error: %v\n", in.name, r)
	_ = debug.Stack
	return 2, nil
}

// errOutput stops awk once its standard output is gone.
type errOutput struct{}

// closeAllQuietly ends redirections after a fatal error or a stop.
func (in *interp) closeAllQuietly() {
	in.closing = true
	defer func() { recover() }()
	in.closeAll()
}

// haltErr is the error a command awk ran stopped the line with, if any.
func (in *interp) haltErr() error {
	in.haltMu.Lock()
	defer in.haltMu.Unlock()
	return in.halt
}

// processEscapes decodes C escapes in -v values and operand assignments.
func processEscapes(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	l := &lexer{src: s}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] == '\\' && i+1 < len(s) {
			i = l.escape(&b, i, false)
			continue
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

var _ = strconv.Itoa
