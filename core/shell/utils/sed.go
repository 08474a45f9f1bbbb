package utils

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
)

const sedHelp = `Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...

  -n, --quiet, --silent
                 suppress automatic printing of pattern space
      --debug
                 annotate program execution
  -e script, --expression=script
                 add the script to the commands to be executed
  -f script-file, --file=script-file
                 add the contents of script-file to the commands to be executed
  --follow-symlinks
                 follow symlinks when processing in place
  -i[SUFFIX], --in-place[=SUFFIX]
                 edit files in place (makes backup if SUFFIX supplied)
  -l N, --line-length=N
                 specify the desired line-wrap length for the ` + "`l'" + ` command
  --posix
                 disable all GNU extensions.
  -E, -r, --regexp-extended
                 use extended regular expressions in the script
                 (for portability use POSIX -E).
  -s, --separate
                 consider files as separate rather than as a single,
                 continuous long stream.
      --sandbox
                 operate in sandbox mode (disable e/r/w commands).
  -u, --unbuffered
                 load minimal amounts of data from the input files and flush
                 the output buffers more often
  -z, --null-data
                 separate lines by NUL characters
      --help     display this help and exit
      --version  output version information and exit

If no -e, --expression, -f, or --file option is given, then the first
non-option argument is taken as the sed script to interpret.  All
remaining arguments are names of input files; if no input files are
specified, then the standard input is read.

GNU sed home page: <https://www.gnu.org/software/sed/>.
General help using GNU software: <https://www.gnu.org/gethelp/>.

Regular expressions are translated to Go's RE2: backreferences such as \1
inside a pattern are not supported (they are fine in a replacement), and
the e command is not available.
`

var sedOpts = []optDef{
	{short: 'n', long: "quiet"},
	{long: "silent"},
	{long: "debug"},
	{short: 'e', long: "expression", arg: needArg},
	{short: 'f', long: "file", arg: needArg},
	{long: "follow-symlinks"},
	{short: 'i', long: "in-place", arg: maybeArg},
	{short: 'l', long: "line-length", arg: needArg},
	{long: "posix"},
	{short: 'E', long: "regexp-extended"},
	{short: 'r'},
	{short: 's', long: "separate"},
	{long: "sandbox"},
	{short: 'u', long: "unbuffered"},
	{short: 'z', long: "null-data"},
}

// sedUtility makes the sed utility (see builtins).
func sedUtility(string) *Utility {
	return &Utility{
		Name:        "sed",
		Keeps:       KeepsAll,
		Run:         runSed,
		Operands:    sedOperands,
		OperandExit: 2,
		Voice:       sedVoice,
		Help:        sedHelp,
	}
}

// sedVoice is GNU sed's line for an input file it cannot open.
func sedVoice(arg, msg string) string { return "sed: can't read " + arg + ": " + msg + "\n" }

// sedOperands: script files given by -f are read; input files are read,
// or written too under -i.
func sedOperands(argv []string) []OperandRef {
	args, err := parseArgs(argv, sedOpts, parseMode{})
	if err != nil {
		return nil
	}
	var refs []OperandRef
	hasScript, inPlace := false, false
	for _, o := range args.opts {
		switch o.name {
		case "expression":
			hasScript = true
		case "file":
			hasScript = true
			if o.value != "-" {
				refs = append(refs, optionOperand(o, Read))
			}
		case "in-place":
			inPlace = true
		}
	}
	files := args.operands
	if !hasScript && len(files) > 0 {
		files = files[1:]
	}
	kind := Read
	if inPlace {
		kind = Write
	}
	return appendFileRefs(refs, argv, files, kind)
}

// sedConfig is the command line of one sed run.
type sedConfig struct {
	quiet      bool
	extended   bool
	separate   bool
	inPlace    bool
	suffix     string
	nullData   bool
	lineLength int
	sandbox    bool
	chunks     []sedChunk
	files      []string
}

func runSed(e *Env) (int, error) {
	t := newTool(e, "sed", sedHelp, 1)
	args, uerr := parseArgs(e.Args, sedOpts, parseMode{})
	if uerr != nil {
		t.warn(uerr.msg)
		t.rawStderr(sedUsageText())
		return t.end(1)
	}
	cfg := &sedConfig{lineLength: 70}
	for _, o := range args.opts {
		switch o.name {
		case "help":
			t.writeString(sedHelp)
			return t.end(0)
		case "version":
			t.writeString("sed (GNU sed) 4.9\n")
			return t.end(0)
		case "quiet", "silent":
			cfg.quiet = true
		case "expression":
			cfg.chunks = append(cfg.chunks, sedChunk{text: o.value, exprNo: len(cfg.chunks) + 1})
		case "file":
			text, err := sedReadScript(t, o.value)
			if err != nil {
				t.warn("couldn't open file " + o.value + ": " + errText(err))
				return t.end(1)
			}
			text = strings.TrimSuffix(text, "\n")
			cfg.chunks = append(cfg.chunks, sedChunk{text: text, fileName: o.value})
		case "in-place":
			cfg.inPlace, cfg.separate, cfg.suffix = true, true, o.value
		case "line-length":
			n, err := strconv.Atoi(o.value)
			if err != nil || n < 0 {
				t.warn("invalid line length: " + o.value)
				return t.end(1)
			}
			cfg.lineLength = n
		case "regexp-extended", "r":
			cfg.extended = true
		case "separate":
			cfg.separate = true
		case "null-data":
			cfg.nullData = true
		case "sandbox":
			cfg.sandbox = true
		}
	}
	operands := args.operandStrings(e.Args)
	if len(cfg.chunks) == 0 {
		if len(operands) == 0 {
			t.rawStderr(sedUsageText())
			return t.end(1)
		}
		cfg.chunks = []sedChunk{{text: operands[0], exprNo: 1}}
		operands = operands[1:]
	}
	cfg.files = operands
	if len(cfg.files) == 0 {
		if cfg.inPlace {
			t.warn("no input files")
			return t.end(1)
		}
		cfg.files = []string{"-"}
	}
	prog, perr := sedCompile(t, cfg)
	if perr != nil {
		pe, _ := perr.(*sedParseError)
		if pe == nil {
			pe = &sedParseError{msg: perr.Error()}
		}
		t.warn(pe.msg)
		return t.end(max(pe.status, 1))
	}
	if cfg.chunks[0].text == "#n" || strings.HasPrefix(cfg.chunks[0].text, "#n\n") {
		cfg.quiet = true
	}
	r := newSedRun(t, cfg, prog)
	status := r.run()
	r.closeFiles()
	return t.end(status)
}

// sedUsageText is the usage GNU sed prints to stderr after a command-line
// mistake (its whole help).
func sedUsageText() string {
	text := sedHelp
	if i := strings.Index(text, "\nRegular expressions are translated"); i >= 0 {
		text = text[:i]
	}
	return text
}

// sedReadScript reads a -f script; "-" is standard input.
func sedReadScript(t *tool, name string) (string, error) {
	in, closeIn, err := openOperand(t, name)
	if err != nil {
		return "", err
	}
	defer closeIn()
	data, err := io.ReadAll(in)
	return string(data), err
}

// sedInput delivers the lines of the input files one at a time, looking
// one line ahead so `$` knows the last line.
type sedInput struct {
	r       *sedRun
	files   []string
	next    int // index of the next file to open
	cur     io.Reader
	closeFn func()
	buf     []byte // unread bytes of cur
	eof     bool   // cur is exhausted
	name    string // file of the line last returned
	curName string // file cur reads
	// pending holds a line read ahead.
	pending    []byte
	pendingNL  bool
	hasPending bool
}

// open moves to the next file that can be opened, reporting the ones that
// cannot, and reports whether one was found.
func (in *sedInput) open() bool {
	for in.next < len(in.files) {
		name := in.files[in.next]
		in.next++
		if name != "-" {
			info, err := in.r.t.env.FS.Stat(in.r.t.abs(name))
			if err == nil && info.IsDir() {
				if in.r.cfg.inPlace {
					in.r.t.warn("couldn't edit " + name + ": not a regular file")
					in.r.status = 4
					continue
				}
				// GNU sed gives up on the whole run here.
				in.r.t.warn("read error on " + name + ": Is a directory")
				in.r.status, in.r.quit = 4, true
				return false
			}
		}
		f, closeFn, err := openOperand(in.r.t, name)
		if err != nil {
			in.r.t.rawStderr(sedVoice(name, errText(err)))
			in.r.status = 2
			continue
		}
		in.cur, in.closeFn, in.curName, in.eof, in.buf = f, closeFn, name, false, nil
		return true
	}
	return false
}

func (in *sedInput) close() {
	if in.closeFn != nil {
		in.closeFn()
		in.closeFn = nil
	}
	in.cur = nil
}

// readRaw reads one line of the current file.
func (in *sedInput) readRaw() (line []byte, newline, ok bool) {
	delim := byte('\n')
	if in.r.cfg.nullData {
		delim = 0
	}
	for {
		if i := bytes.IndexByte(in.buf, delim); i >= 0 {
			line = append([]byte(nil), in.buf[:i]...)
			in.buf = in.buf[i+1:]
			return line, true, true
		}
		if in.eof || in.cur == nil {
			if len(in.buf) > 0 {
				line, in.buf = in.buf, nil
				return line, false, true
			}
			return nil, false, false
		}
		if in.r.t.ctx.Err() != nil {
			return nil, false, false
		}
		chunk := make([]byte, 64*1024)
		n, err := in.cur.Read(chunk)
		in.buf = append(in.buf, chunk[:n]...)
		if err != nil {
			if err != io.EOF {
				in.r.t.warn("read error on " + in.curName + ": " + errText(err))
				in.r.status = 2
			}
			in.eof = true
		}
	}
}

// fill makes sure a line is pending, crossing into later files unless the
// files are separate; it reports whether one is.
func (in *sedInput) fill(crossFiles bool) bool {
	if in.hasPending {
		return true
	}
	for {
		if in.cur != nil {
			line, nl, ok := in.readRaw()
			if ok {
				in.pending, in.pendingNL, in.hasPending = line, nl, true
				return true
			}
			if !crossFiles {
				return false
			}
			in.close()
		}
		if !in.open() {
			return false
		}
	}
}

// read returns the next line of the stream.
func (in *sedInput) read() (line []byte, newline, ok bool) {
	if !in.fill(!in.r.cfg.separate) {
		return nil, false, false
	}
	in.hasPending = false
	in.name = in.curName
	return in.pending, in.pendingNL, true
}

// atLast reports whether the line last read was the last one.
func (in *sedInput) atLast() bool { return !in.fill(!in.r.cfg.separate) }

// sedOutput is where printed text goes: stdout, an in-place buffer or a
// w file. It keeps GNU's rule for a last line without a newline: the
// newline is added only when more output follows.
type sedOutput struct {
	w              io.Writer
	missingNewline bool
	delim          byte
	file           io.Closer
	err            error
}

func (o *sedOutput) writeLine(text []byte, newline bool) {
	if o.err != nil {
		return
	}
	if o.missingNewline {
		o.write([]byte{o.delim})
		o.missingNewline = false
	}
	o.write(text)
	if newline {
		o.write([]byte{o.delim})
	} else {
		o.missingNewline = true
	}
}

func (o *sedOutput) writeRaw(text []byte) {
	if o.missingNewline {
		o.write([]byte{o.delim})
		o.missingNewline = false
	}
	o.write(text)
}

func (o *sedOutput) write(p []byte) {
	if o.err == nil {
		_, o.err = o.w.Write(p)
	}
}

// toolWriter adapts the tool's buffered stdout to io.Writer.
type toolWriter struct{ t *tool }

func (w toolWriter) Write(p []byte) (int, error) {
	if !w.t.write(p) {
		return 0, io.ErrClosedPipe
	}
	return len(p), nil
}

// openWriteFile opens (truncating) a file of a w command or s///w flag;
// /dev/stdout and /dev/stderr are the command's own streams.
func (r *sedRun) openWriteFile(name string) *sedOutput {
	if o, ok := r.wfiles[name]; ok {
		return o
	}
	delim := r.delim()
	var o *sedOutput
	switch name {
	case "/dev/stdout":
		o = r.stdout
	case "/dev/stderr":
		w := r.t.env.Stderr
		if w == nil {
			w = io.Discard
		}
		o = &sedOutput{w: w, delim: delim}
	default:
		f, err := r.t.env.FS.OpenFile(r.t.abs(name), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
		if err != nil {
			r.t.warn("couldn't open file " + name + ": " + errText(err))
			r.status = 4
			o = &sedOutput{w: io.Discard, delim: delim}
		} else {
			o = &sedOutput{w: f, delim: delim, file: f}
		}
	}
	r.wfiles[name] = o
	return o
}

func (r *sedRun) closeFiles() {
	for _, o := range r.wfiles {
		if o.file != nil {
			o.file.Close()
		}
	}
	for _, rf := range r.rfiles {
		if rf.closeFn != nil {
			rf.closeFn()
		}
	}
}

func (r *sedRun) delim() byte {
	if r.cfg.nullData {
		return 0
	}
	return '\n'
}

// readWholeFile reads a file for the r command; a missing file is
// silently nothing, as in GNU sed.
func (r *sedRun) readWholeFile(name string) []byte {
	if name == "/dev/stdin" {
		name = "-"
	}
	in, closeIn, err := openOperand(r.t, name)
	if err != nil {
		return nil
	}
	defer closeIn()
	data, _ := io.ReadAll(in)
	return data
}

// sedReadLineFile is the open state of an R command's file.
type sedReadLineFile struct {
	in      io.Reader
	closeFn func()
	buf     []byte
	eof     bool
}

// readOneLine gives the next line of an R file, with its newline.
func (r *sedRun) readOneLine(name string) ([]byte, bool) {
	rf, ok := r.rfiles[name]
	if !ok {
		rf = &sedReadLineFile{}
		in, closeIn, err := openOperand(r.t, name)
		if err != nil {
			rf.eof = true
		} else {
			rf.in, rf.closeFn = in, closeIn
		}
		r.rfiles[name] = rf
	}
	for {
		if i := bytes.IndexByte(rf.buf, r.delim()); i >= 0 {
			line := append([]byte(nil), rf.buf[:i+1]...)
			rf.buf = rf.buf[i+1:]
			return line, true
		}
		if rf.eof {
			if len(rf.buf) > 0 {
				line := rf.buf
				rf.buf = nil
				return line, true
			}
			return nil, false
		}
		chunk := make([]byte, 32*1024)
		n, err := rf.in.Read(chunk)
		rf.buf = append(rf.buf, chunk[:n]...)
		if err != nil {
			rf.eof = true
		}
	}
}

// writeInPlace replaces a file with what the script printed for it,
// keeping a backup first when a suffix was given.
func (r *sedRun) writeInPlace(name string, data []byte) {
	p := r.t.abs(name)
	if r.cfg.suffix != "" {
		backup := sedBackupName(name, r.cfg.suffix)
		orig := r.readWholeFile(name)
		if err := sedWriteFile(r, r.t.abs(backup), orig); err != nil {
			r.t.warn("couldn't open file " + backup + ": " + errText(err))
			r.status = 4
			return
		}
	}
	if err := sedWriteFile(r, p, data); err != nil {
		r.t.warn("couldn't open temporary file " + name + ": " + errText(err))
		r.status = 4
	}
}

// sedBackupName applies -i's suffix: a '*' stands for the file's base
// name, otherwise the suffix is appended.
func sedBackupName(name, suffix string) string {
	if !strings.Contains(suffix, "*") {
		return name + suffix
	}
	dir, base := "", name
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		dir, base = name[:i+1], name[i+1:]
	}
	b := strings.ReplaceAll(suffix, "*", base)
	if strings.Contains(b, "/") {
		return b
	}
	return dir + b
}

func sedWriteFile(r *sedRun, p string, data []byte) error {
	f, err := r.t.env.FS.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, fs.FileMode(0o666))
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if werr != nil {
		return werr
	}
	return cerr
}
