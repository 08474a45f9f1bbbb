// Copyright (c) 2017, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package interp

import (
	"context"
	"errors"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/term"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// readOptions are the options of the read builtin.
type readOptions struct {
	prompt  string
	raw     bool
	silent  bool
	array   string // -a NAME, or ""
	delim   byte
	nchars  int  // -n or -N: at most this many characters; -1 for no limit
	exact   bool // -N: the delimiter is an ordinary character
	timeout time.Duration
	hasTime bool
	fd      int // -u
}

const readUsage = "read: usage: read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]\n"

// parseReadOptions reads read's options as bash's getopt does: flags may be
// run together and an option's value may follow it in the same word.
func (r *Runner) parseReadOptions(args []string) (readOptions, []string, exitStatus) {
	opts := readOptions{delim: '\n', nchars: -1}
	var exit exitStatus
	fail := func(code uint8, format string, a ...any) (readOptions, []string, exitStatus) {
		r.errf("bash: read: "+format, a...)
		exit.code = code
		return opts, nil, exit
	}
	for len(args) > 0 {
		arg := args[0]
		if arg == "--" {
			args = args[1:]
			break
		}
		if len(arg) < 2 || arg[0] != '-' {
			break
		}
		args = args[1:]
		for i := 1; i < len(arg); i++ {
			c := arg[i]
			if !strings.ContainsRune("adinNptu", rune(c)) {
				switch c {
				case 'r':
					opts.raw = true
				case 's':
					opts.silent = true
				case 'e':
				default:
					r.errf("bash: read: -%c: invalid option\n%s", c, readUsage)
					exit.code = 2
					return opts, nil, exit
				}
				continue
			}
			val := arg[i+1:]
			if val == "" {
				if len(args) == 0 {
					r.errf("bash: read: -%c: option requires an argument\n%s", c, readUsage)
					exit.code = 2
					return opts, nil, exit
				}
				val, args = args[0], args[1:]
			}
			switch c {
			case 'a':
				opts.array = val
			case 'd':
				opts.delim = 0
				if val != "" {
					opts.delim = val[0]
				}
			case 'i':
			case 'n', 'N':
				n, err := strconv.Atoi(val)
				if err != nil || n < 0 {
					return fail(1, "%s: invalid number\n", val)
				}
				opts.nchars, opts.exact = n, c == 'N'
			case 'p':
				opts.prompt = val
			case 't':
				secs, err := strconv.ParseFloat(val, 64)
				if err != nil || secs < 0 || strings.ContainsAny(val, "eEnNxX") {
					return fail(1, "%s: invalid timeout specification\n", val)
				}
				opts.timeout, opts.hasTime = time.Duration(secs*float64(time.Second)), true
			case 'u':
				fd, err := strconv.Atoi(val)
				if err != nil || fd < 0 {
					return fail(1, "%s: invalid file descriptor specification\n", val)
				}
				if f, ok := r.getFd(fd); !ok || fd >= maxFds || f.rd == nil && fd > 2 {
					return fail(1, "%s: invalid file descriptor: Bad file descriptor\n", val)
				}
				opts.fd = fd
			}
			break
		}
	}
	for _, name := range append([]string{opts.array}, args...) {
		if name != "" && !syntax.ValidName(name) {
			return fail(1, "`%s': not a valid identifier\n", name)
		}
	}
	return opts, args, exit
}

// readBuiltin is bash's read: it reads up to a delimiter or a number of
// characters, splits what it read by IFS and assigns the names.
func (r *Runner) readBuiltin(ctx context.Context, args []string) exitStatus {
	opts, names, exit := r.parseReadOptions(args)
	if exit.code != 0 {
		return exit
	}
	src := r.stdinFd()
	if opts.fd != 0 {
		// read -u N reads the file on N as its standard input (patch 71).
		f, _ := r.getFd(opts.fd)
		src = f
		in, err := f.stdin(ctx, r)
		if err != nil {
			r.errf("bash: read: %v\n", err)
			exit.code = 1
			return exit
		}
		oldIn := r.stdin
		r.stdin = in
		defer func() { r.stdin = oldIn }()
	}
	if opts.prompt != "" {
		if fd, terminal := stdinTerminal(r.stdin); terminal && fd >= 0 {
			r.errf("%s", opts.prompt) // bash shows the prompt to a terminal only
		}
	}
	if opts.hasTime && opts.timeout == 0 {
		return exit // -t 0: whether input is there; ours always is or ends
	}
	var line []readChar
	var err error
	if fd, terminal := stdinTerminal(r.stdin); opts.silent && terminal {
		var pw []byte
		pw, err = term.ReadPassword(fd)
		for _, b := range pw {
			line = append(line, readChar{c: b})
		}
	} else if direct, ok := src.direct(); ok {
		// A regular file is read where its offset stands, and left
		// just past what read took (patch 126).
		line, err = r.readChars(ctx, opts, func() (byte, error) {
			var buf [1]byte
			for {
				n, err := direct.Read(buf[:])
				if n > 0 {
					return buf[0], nil
				}
				if err != nil {
					return 0, err
				}
			}
		})
	} else {
		src.pump()
		line, err = r.readInput(ctx, opts)
	}
	switch {
	case opts.array != "":
		r.setVar(opts.array, expand.Variable{Set: true, Kind: expand.Indexed, List: r.readFields(line, -1)})
	case len(names) == 0:
		r.setVarString(shellReplyVar, unescapeRead(line)) // no splitting, no trimming
	case opts.exact:
		r.setVarString(names[0], unescapeRead(line))
		for _, name := range names[1:] {
			r.setVarString(name, "")
		}
	default:
		values := r.readFields(line, len(names))
		for i, name := range names {
			val := ""
			if i < len(values) {
				val = values[i]
			}
			r.setVarString(name, val)
		}
	}
	if err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) && ctx.Err() == nil {
			exit.code = 142 // 128 + SIGALRM, as bash's timeout
		} else {
			exit.code = 1
		}
	}
	return exit
}

// readChar is one character read: escaped ones were preceded by a
// backslash (without -r), and are never separators.
type readChar struct {
	c   byte
	esc bool
}

// readInput reads up to the delimiter, the character count or the end of
// input. Without -r a backslash escapes the next character and a
// backslash-newline pair is dropped. It returns io.EOF when the input ended
// before a delimiter or the count.
func (r *Runner) readInput(ctx context.Context, opts readOptions) ([]readChar, error) {
	if r.stdin == nil {
		return nil, io.EOF
	}
	stopc := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		r.stdin.SetReadDeadline(time.Now())
		close(stopc)
	})
	defer func() {
		if !stop() {
			<-stopc
		}
		r.stdin.SetReadDeadline(time.Time{})
	}()
	if opts.hasTime {
		r.stdin.SetReadDeadline(time.Now().Add(opts.timeout))
	}
	var buf [1]byte
	return r.readChars(ctx, opts, func() (byte, error) {
		for {
			n, err := r.stdin.Read(buf[:])
			if n > 0 {
				return buf[0], nil
			}
			if err != nil {
				return 0, err
			}
		}
	})
}

// readChars reads one byte at a time from next up to the delimiter, the
// character count or the end of input (see [Runner.readInput]).
func (r *Runner) readChars(ctx context.Context, opts readOptions, next func() (byte, error)) ([]readChar, error) {
	var line []readChar
	for opts.nchars < 0 || len(line) < opts.nchars {
		if len(line) > 0 && len(line)&0xffff == 0 {
			// An endless line must not grow past the program's memory.
			if err := r.probeMem(ctx, int64(len(line))*2); err != nil {
				return line, err
			}
		}
		b, err := next()
		if err != nil {
			return line, err
		}
		if !opts.raw && b == '\\' {
			b, err = next()
			if err != nil {
				return line, err
			}
			if b == '\n' {
				continue // a continued line
			}
			line = append(line, readChar{c: b, esc: true})
			continue
		}
		if !opts.exact && b == opts.delim {
			return line, nil
		}
		line = append(line, readChar{c: b})
	}
	return line, nil
}

// unescapeRead is the text of what was read, escapes removed.
func unescapeRead(line []readChar) string {
	var sb strings.Builder
	for _, rc := range line {
		sb.WriteByte(rc.c)
	}
	return sb.String()
}

// readFields splits line by IFS as bash's read does: into at most n fields
// (all of them when n < 0), the last taking the rest of the line less its
// trailing IFS whitespace and, when it is one field, its separator.
func (r *Runner) readFields(line []readChar, n int) []string {
	ifs := " \t\n"
	if vr := r.lookupVar("IFS"); vr.IsSet() {
		ifs = vr.String()
	}
	isIFS := func(rc readChar) bool { return !rc.esc && strings.IndexByte(ifs, rc.c) >= 0 }
	isWS := func(rc readChar) bool { return isIFS(rc) && (rc.c == ' ' || rc.c == '\t' || rc.c == '\n') }
	i := 0
	skipWS := func() {
		for i < len(line) && isWS(line[i]) {
			i++
		}
	}
	var fields []string
	skipWS()
	for i < len(line) {
		if n >= 0 && len(fields) == n-1 {
			rest := line[i:]
			for len(rest) > 0 && isWS(rest[len(rest)-1]) {
				rest = rest[:len(rest)-1]
			}
			if k := len(rest); k >= 1 && isIFS(rest[k-1]) && !slices.ContainsFunc(rest[:k-1], isIFS) {
				rest = rest[:k-1] // one field and its separator
			}
			fields = append(fields, unescapeRead(rest))
			return fields
		}
		start := i
		for i < len(line) && !isIFS(line[i]) {
			i++
		}
		fields = append(fields, unescapeRead(line[start:i]))
		if i == len(line) {
			break
		}
		// One separator: IFS whitespace around at most one other IFS character.
		wasWS := isWS(line[i])
		skipWS()
		if wasWS && i < len(line) && isIFS(line[i]) && !isWS(line[i]) {
			i++
			skipWS()
		} else if !wasWS {
			i++
			skipWS()
		}
	}
	return fields
}
