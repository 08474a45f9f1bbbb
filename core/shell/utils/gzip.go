package utils

import (
	"bufio"
	"compress/flate"
	"compress/gzip"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"strconv"
	"strings"
	"time"
)

const gzipHelp = `Usage: gzip [OPTION]... [FILE]...
Compress or uncompress FILEs (by default, compress FILES in-place).

Mandatory arguments to long options are mandatory for short options too.

  -c, --stdout      write on standard output, keep original files unchanged
  -d, --decompress  decompress
  -f, --force       force overwrite of output file and compress links
  -h, --help        give this help
  -k, --keep        keep (don't delete) input files
  -l, --list        list compressed file contents
  -L, --license     display software license
  -n, --no-name     do not save or restore the original name and timestamp
  -N, --name        save or restore the original name and timestamp
  -q, --quiet       suppress all warnings
  -r, --recursive   operate recursively on directories
      --rsyncable   make rsync-friendly archive
  -S, --suffix=SUF  use suffix SUF on compressed files
      --synchronous synchronous output (safer if system crashes, but slower)
  -t, --test        test compressed file integrity
  -v, --verbose     verbose mode
  -V, --version     display version number
  -1, --fast        compress faster
  -9, --best        compress better

With no FILE, or when FILE is -, read standard input.

Report bugs to <bug-gzip@gnu.org>.
`

var gzipOpts = []optDef{
	{short: 'c', long: "stdout"},
	{long: "to-stdout"},
	{short: 'd', long: "decompress"},
	{long: "uncompress"},
	{short: 'f', long: "force"},
	{short: 'h', long: "help"},
	{short: 'k', long: "keep"},
	{short: 'l', long: "list"},
	{short: 'L', long: "license"},
	{short: 'n', long: "no-name"},
	{short: 'N', long: "name"},
	{short: 'q', long: "quiet"},
	{short: 'r', long: "recursive"},
	{long: "rsyncable"},
	{short: 'S', long: "suffix", arg: needArg},
	{long: "synchronous"},
	{short: 't', long: "test"},
	{short: 'v', long: "verbose"},
	{short: 'V', long: "version"},
	{long: "fast"},
	{long: "best"},
}

var gzipMode = parseMode{digitsAs: "level"}

// gzipUtility makes gzip, gunzip and zcat (see builtins). Compressed bytes
// are Go's deflate, not gzip's: they decompress alike but differ byte for
// byte; the header is gzip's (name, time, Unix).
func gzipUtility(name string) *Utility {
	return &Utility{
		Name:        name,
		Run:         runGzip,
		Keeps:       KeepsNothing,
		Operands:    gzipOperands(name),
		OperandExit: 1,
		Voice:       func(arg, msg string) string { return "gzip: " + arg + ": " + msg + "\n" },
		Help:        gzipHelp,
	}
}

// gzipOperands: files are rewritten in place (Write) unless the output
// goes to stdout or nothing is written (-c, -t, -l, zcat).
func gzipOperands(name string) func(argv []string) []OperandRef {
	return func(argv []string) []OperandRef {
		args, err := parseArgs(argv, gzipOpts, gzipMode)
		if err != nil {
			return nil
		}
		kind := Write
		if name == "zcat" || args.has("stdout") || args.has("to-stdout") || args.has("test") || args.has("list") {
			kind = Read
		}
		var refs []OperandRef
		for _, i := range args.operands {
			if argv[i] != "-" {
				refs = append(refs, OperandRef{Index: i, Kind: kind})
			}
		}
		return refs
	}
}

type gzipConfig struct {
	name                        string // gzip, gunzip or zcat
	decompress, stdout, force   bool
	keep, test, list, verbose   bool
	quiet, noName, restoreName  bool
	suffix                      string
	level                       int
	status                      int // 0, 1 error, 2 warning
	listedIn, listedOut, listed int64
}

func runGzip(e *Env) (int, error) {
	name := path.Base(e.Args[0])
	if _, uerr := parseArgs(e.Args, gzipOpts, gzipMode); uerr != nil {
		t := newTool(e, "gzip", gzipHelp, 1)
		t.rawStderr("gzip: " + uerr.msg + "\nTry `gzip --help' for more information.\n")
		return t.end(1)
	}
	t, args, status, done := begin(e, spec{name: "gzip", defs: gzipOpts, mode: gzipMode, usageExit: 1, help: gzipHelp,
		version: "gzip 1.12\n"})
	if done {
		return status, nil
	}
	cfg := &gzipConfig{name: name, suffix: ".gz", level: gzip.DefaultCompression,
		decompress: name != "gzip", stdout: name == "zcat", noName: name != "gzip"}
	for _, o := range args.opts {
		switch o.name {
		case "stdout", "to-stdout":
			cfg.stdout = true
		case "decompress", "uncompress":
			cfg.decompress = true
		case "force":
			cfg.force = true
		case "keep":
			cfg.keep = true
		case "list":
			cfg.list, cfg.decompress = true, true
		case "test":
			cfg.test, cfg.decompress = true, true
		case "verbose":
			cfg.verbose = true
		case "quiet":
			cfg.quiet = true
		case "no-name":
			cfg.noName, cfg.restoreName = true, false
		case "name":
			cfg.noName, cfg.restoreName = false, true
		case "suffix":
			if o.value == "" || strings.Contains(o.value, "/") {
				t.warn("invalid suffix '" + o.value + "'")
				return t.end(1)
			}
			cfg.suffix = o.value
		case "level":
			cfg.level, _ = strconv.Atoi(o.value[len(o.value)-1:])
		case "fast":
			cfg.level = 1
		case "best":
			cfg.level = 9
		case "license":
			t.writeString("gzip 1.12\nThis is free software.  You may redistribute copies of it under the terms of\nthe GNU General Public License <https://www.gnu.org/licenses/gpl.html>.\nThere is NO WARRANTY, to the extent permitted by law.\n")
			return t.end(0)
		case "recursive":
			t.warn("option -r is not supported in a workspace")
			return t.end(1)
		}
	}
	files := args.operandStrings(e.Args)
	if len(files) == 0 {
		files = []string{"-"}
	}
	if cfg.list {
		t.writeString("         compressed        uncompressed  ratio uncompressed_name\n")
	}
	for _, f := range files {
		if t.stopped() {
			break
		}
		if f == "-" {
			gzipStdin(t, cfg)
		} else {
			gzipFile(t, cfg, f)
		}
	}
	if cfg.list && cfg.listed > 1 {
		t.writeString(gzipListLine(cfg.listedIn, cfg.listedOut, "(totals)"))
	}
	return t.end(cfg.status)
}

// gzipFail records an error (status 1) and says so unless it is a
// warning under -q.
func (cfg *gzipConfig) fail(t *tool, status int, msg string) {
	if status == 2 && cfg.quiet {
		if cfg.status == 0 {
			cfg.status = 2
		}
		return
	}
	t.flush()
	if t.env.Stderr != nil {
		io.WriteString(t.env.Stderr, msg)
	}
	if status == 1 || cfg.status == 0 {
		cfg.status = status
	}
}

// gzipStdin filters standard input to standard output.
func gzipStdin(t *tool, cfg *gzipConfig) {
	if cfg.decompress {
		gzipInflate(t, cfg, t.stdin(), "stdin", t.out, -1)
		return
	}
	zw, _ := gzip.NewWriterLevel(t.out, cfg.level)
	zw.OS = 3
	if _, err := io.Copy(zw, ctxReader(t, t.stdin())); err != nil {
		cfg.fail(t, 1, "gzip: stdin: "+errText(err)+"\n")
	}
	zw.Close()
}

// ctxReader stops a copy when the line ends.
func ctxReader(t *tool, r io.Reader) io.Reader {
	return readerFunc(func(p []byte) (int, error) {
		if t.stopped() {
			if err := t.ctx.Err(); err != nil {
				return 0, err
			}
			return 0, io.ErrClosedPipe
		}
		return r.Read(p)
	})
}

type readerFunc func(p []byte) (int, error)

func (f readerFunc) Read(p []byte) (int, error) { return f(p) }

// gzipSuffixes are the names gunzip takes off, longest rule first.
var gzipSuffixes = []string{".gz", "-gz", ".z", "-z", "_z", ".Z"}

// gzipStrip returns the decompressed name of a compressed file, or false.
func gzipStrip(name, suffix string) (string, bool) {
	base := path.Base(name)
	for _, s := range append([]string{suffix}, gzipSuffixes...) {
		if len(base) > len(s) && strings.HasSuffix(base, s) {
			return name[:len(name)-len(s)], true
		}
	}
	for _, s := range []string{".tgz", ".taz"} {
		if len(base) > len(s) && strings.HasSuffix(base, s) {
			return name[:len(name)-len(s)] + ".tar", true
		}
	}
	return "", false
}

// gzipFile compresses or decompresses one file operand.
func gzipFile(t *tool, cfg *gzipConfig, name string) {
	fsys := t.env.FS
	info, err := fsys.Stat(t.abs(name))
	if errors.Is(err, fs.ErrNotExist) && cfg.decompress {
		// gunzip NAME looks for NAME.gz, and names that in its complaint.
		if _, has := gzipStrip(name, cfg.suffix); !has {
			name = name + cfg.suffix
			info, err = fsys.Stat(t.abs(name))
		}
	}
	if err != nil {
		cfg.fail(t, 1, "gzip: "+name+": "+errText(err)+"\n")
		return
	}
	if info.IsDir() {
		cfg.fail(t, 2, "gzip: "+name+" is a directory -- ignored\n")
		return
	}
	out := ""
	if cfg.decompress {
		stripped, ok := gzipStrip(name, cfg.suffix)
		if !ok && !cfg.stdout && !cfg.test && !cfg.list {
			cfg.fail(t, 2, "gzip: "+name+": unknown suffix -- ignored\n")
			return
		}
		out = stripped
	} else {
		if _, has := gzipStrip(name, cfg.suffix); has && strings.HasSuffix(name, cfg.suffix) && !cfg.stdout {
			// A notice, not a warning: the status stays 0.
			if !cfg.quiet {
				t.rawStderr("gzip: " + name + " already has " + cfg.suffix + " suffix -- unchanged\n")
			}
			return
		}
		out = name + cfg.suffix
	}
	in, err := fsys.Open(t.abs(name))
	if err != nil {
		cfg.fail(t, 1, "gzip: "+name+": "+errText(err)+"\n")
		return
	}
	defer in.Close()
	if cfg.stdout || cfg.test || cfg.list {
		if cfg.decompress {
			var w io.Writer = t.out
			if cfg.test || cfg.list {
				w = io.Discard
			}
			gzipInflate(t, cfg, in, name, w, info.Size())
			if cfg.test && cfg.verbose && cfg.status == 0 {
				t.rawStderr(name + ":\t OK\n")
			}
			return
		}
		gzipDeflate(t, cfg, in, name, info, t.out)
		return
	}
	gzipInPlace(t, cfg, in, name, out, info)
}

// gzipInPlace writes name's (de)compressed form to out, with name's mode
// and time, then removes name unless -k.
func gzipInPlace(t *tool, cfg *gzipConfig, in io.Reader, name, out string, info fs.FileInfo) {
	fsys := t.env.FS
	flag := os.O_WRONLY | os.O_CREATE | os.O_EXCL
	if _, err := fsys.Lstat(t.abs(out)); err == nil {
		if !cfg.force {
			cfg.fail(t, 2, "gzip: "+out+" already exists;\tnot overwritten\n")
			return
		}
		flag = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	}
	f, err := fsys.OpenFile(t.abs(out), flag, info.Mode().Perm())
	if err != nil {
		cfg.fail(t, 1, "gzip: "+out+": "+errText(err)+"\n")
		return
	}
	bw := bufio.NewWriter(f)
	var ok bool
	var outSize int64
	if cfg.decompress {
		var mtime time.Time
		ok, outSize, mtime = gzipInflate(t, cfg, in, name, bw, info.Size())
		if cfg.restoreName && !mtime.IsZero() {
			info = gzipTimed{info, mtime}
		}
	} else {
		ok, outSize = gzipDeflate(t, cfg, in, name, info, bw)
	}
	if err := bw.Flush(); err != nil && ok {
		cfg.fail(t, 1, "gzip: "+out+": "+errText(err)+"\n")
		ok = false
	}
	f.Close()
	if !ok {
		fsys.Remove(t.abs(out))
		return
	}
	fsys.Chmod(t.abs(out), info.Mode().Perm())
	fsys.Chtimes(t.abs(out), info.ModTime(), info.ModTime())
	if cfg.verbose {
		inSize, packed := info.Size(), outSize
		if cfg.decompress {
			inSize, packed = outSize, info.Size()
		}
		t.rawStderr(name + ":\t" + gzipRatio(packed, inSize) + " -- replaced with " + out + "\n")
	}
	if !cfg.keep {
		if err := fsys.Remove(t.abs(name)); err != nil {
			cfg.fail(t, 1, "gzip: "+name+": "+errText(err)+"\n")
		}
	}
}

// gzipTimed is a file's info with the time a gzip header restored.
type gzipTimed struct {
	fs.FileInfo
	mtime time.Time
}

func (g gzipTimed) ModTime() time.Time { return g.mtime }

// gzipDeflate compresses in to w with gzip's header: the file's base name
// and time unless -n.
func gzipDeflate(t *tool, cfg *gzipConfig, in io.Reader, name string, info fs.FileInfo, w io.Writer) (bool, int64) {
	cw := &countWriter{w: w}
	zw, _ := gzip.NewWriterLevel(cw, cfg.level)
	zw.OS = 3
	if !cfg.noName {
		zw.Name = path.Base(name)
		zw.ModTime = info.ModTime()
	}
	if _, err := io.Copy(zw, ctxReader(t, in)); err != nil {
		cfg.fail(t, 1, "gzip: "+name+": "+errText(err)+"\n")
		return false, 0
	}
	if err := zw.Close(); err != nil {
		cfg.fail(t, 1, "gzip: "+name+": "+errText(err)+"\n")
		return false, 0
	}
	return true, cw.n
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// gzipInflate decompresses in to w, with gzip's complaints; size is the
// compressed size for -l (-1: unknown).
func gzipInflate(t *tool, cfg *gzipConfig, in io.Reader, name string, w io.Writer, size int64) (bool, int64, time.Time) {
	br := bufio.NewReader(ctxReader(t, in))
	if magic, _ := br.Peek(2); len(magic) < 2 || magic[0] != 0x1f || magic[1] != 0x8b {
		if len(magic) == 0 && name == "stdin" {
			cfg.fail(t, 1, gzipError(name, io.EOF))
			return false, 0, time.Time{}
		}
		cfg.fail(t, 1, "\n"+"gzip: "+name+": not in gzip format\n")
		return false, 0, time.Time{}
	}
	zr, err := gzip.NewReader(br)
	if err != nil {
		cfg.fail(t, 1, gzipError(name, err))
		return false, 0, time.Time{}
	}
	mtime := zr.ModTime
	cw := &countWriter{w: w}
	if _, err := io.Copy(cw, zr); err != nil {
		cfg.fail(t, 1, gzipError(name, err))
		return false, cw.n, mtime
	}
	if cfg.list {
		out, _ := gzipStrip(name, cfg.suffix)
		if out == "" {
			out = name
		}
		cfg.listedIn += size
		cfg.listedOut += cw.n
		cfg.listed++
		t.writeString(gzipListLine(size, cw.n, out))
	}
	return true, cw.n, mtime
}

// gzipError words a decompression failure as gzip does (its gzip_error
// starts with a newline).
func gzipError(name string, err error) string {
	var corrupt flate.CorruptInputError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return "\ngzip: " + name + ": unexpected end of file\n"
	case errors.Is(err, gzip.ErrChecksum):
		return "\ngzip: " + name + ": invalid compressed data--crc error\n"
	case errors.As(err, &corrupt), errors.Is(err, gzip.ErrHeader):
		return "\ngzip: " + name + ": invalid compressed data--format violated\n"
	}
	return "gzip: " + name + ": " + errText(err) + "\n"
}

// gzipRatio is gzip's saving, "-33.3%" or " 20.0%".
func gzipRatio(packed, size int64) string {
	ratio := 0.0
	if size > 0 {
		ratio = 100 * float64(size-packed) / float64(size)
	}
	s := strconv.FormatFloat(ratio, 'f', 1, 64) + "%"
	if ratio >= 0 {
		s = " " + s
	}
	return s
}

// gzipListLine is one line of gzip -l.
func gzipListLine(packed, size int64, name string) string {
	pad := func(s string, w int) string { return strings.Repeat(" ", max(0, w-len(s))) + s }
	return pad(strconv.FormatInt(packed, 10), 19) + " " + pad(strconv.FormatInt(size, 10), 19) + " " +
		pad(strings.TrimSpace(gzipRatio(packed, size)), 5) + " " + name + "\n"
}
