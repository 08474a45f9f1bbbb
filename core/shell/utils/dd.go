package utils

import (
	"errors"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"gatehouse/core/vfs"
)

const ddHelp = `Usage: dd [OPERAND]...
  or:  dd OPTION
Copy a file, converting and formatting according to the operands.

  bs=BYTES        read and write up to BYTES bytes at a time (default: 512);
                  overrides ibs and obs
  cbs=BYTES       convert BYTES bytes at a time
  conv=CONVS      convert the file as per the comma separated symbol list
  count=N         copy only N input blocks
  ibs=BYTES       read up to BYTES bytes at a time (default: 512)
  if=FILE         read from FILE instead of stdin
  iflag=FLAGS     read as per the comma separated symbol list
  obs=BYTES       write BYTES bytes at a time (default: 512)
  of=FILE         write to FILE instead of stdout
  oflag=FLAGS     write as per the comma separated symbol list
  seek=N          (or oseek=N) skip N obs-sized output blocks
  skip=N          (or iseek=N) skip N ibs-sized input blocks
  status=LEVEL    The LEVEL of information to print to stderr;
                  'none' suppresses everything but error messages,
                  'noxfer' suppresses the final transfer statistics,
                  'progress' shows periodic transfer statistics

N and BYTES may be followed by the following multiplicative suffixes:
c=1, w=2, b=512, kB=1000, K=1024, MB=1000*1000, M=1024*1024, xM=M,
GB=1000*1000*1000, G=1024*1024*1024, and so on for T, P, E, Z, Y.
Binary prefixes can be used, too: KiB=K, MiB=M, and so on.
If N ends in 'B', it counts bytes not blocks.

Each CONV symbol may be:

  lcase     change upper case to lower case
  ucase     change lower case to upper case
  sparse    try to seek rather than write all-NUL output blocks
  swab      swap every pair of input bytes
  sync      pad every input block with NULs to ibs-size
  excl      fail if the output file already exists
  nocreat   do not create the output file
  notrunc   do not truncate the output file
  noerror   continue after read errors
  fdatasync  physically write output file data before finishing
  fsync     likewise, but also write metadata

Each FLAG symbol may be:

  append    append mode (makes sense only for output; conv=notrunc suggested)
  fullblock  accumulate full blocks of input (iflag only)
  count_bytes  treat 'count=N' as a byte count (iflag only)
  skip_bytes  treat 'skip=N' as a byte count (iflag only)
  seek_bytes  treat 'seek=N' as a byte count (oflag only)

Options are:

      --help        display this help and exit
      --version     output version information and exit
`

// ddUtility makes dd (see builtins). Its operands are KEY=VALUE words;
// if= is read and of= written, both judged before anything is copied.
func ddUtility(string) *Utility {
	return &Utility{
		Name:        "dd",
		Keeps:       KeepsNothing,
		Run:         runDD,
		Operands:    ddOperands,
		OperandExit: 1,
		Voice:       func(arg, msg string) string { return "dd: failed to open " + quoteAlways(arg) + ": " + msg + "\n" },
		Help:        ddHelp,
	}
}

func ddOperands(argv []string) []OperandRef {
	var refs []OperandRef
	for i, a := range argv[1:] {
		key, val, ok := strings.Cut(a, "=")
		switch {
		case !ok:
		case key == "if":
			refs = append(refs, OperandRef{Index: i + 1, Kind: Read, Path: val})
		case key == "of":
			refs = append(refs, OperandRef{Index: i + 1, Kind: Write, Path: val})
		}
	}
	return refs
}

// ddConfig is a parsed dd command line.
type ddConfig struct {
	in, out                    string
	inGiven, outGiven          bool // if= and of= given (else stdin, stdout)
	ibs, obs                   int64
	bs                         bool // bs= given: blocks are written as read
	count, skip, seek          int64
	countBytes, skipBytes      bool
	seekBytes                  bool
	conv, iflags, oflags       map[string]bool
	status                     string
	fullIn, partialIn          int64 // records read whole and short
	fullOut, partialOut, wrote int64 // records written, and bytes
}

var ddConvs = "lcase ucase sparse swab sync excl nocreat notrunc noerror fdatasync fsync"

var ddIFlags = "fullblock count_bytes skip_bytes append direct directory dsync sync nonblock noatime nocache noctty nofollow binary text"

var ddOFlags = "seek_bytes append direct directory dsync sync nonblock noatime nocache noctty nofollow binary text"

// ddParse reads dd's operands; a non-empty message is a usage error
// (usage true: followed by the "Try" hint).
func ddParse(args []string) (cfg *ddConfig, msg string, usage bool) {
	cfg = &ddConfig{ibs: 512, obs: 512, count: -1, conv: map[string]bool{}, iflags: map[string]bool{}, oflags: map[string]bool{}}
	for _, a := range args {
		key, val, ok := strings.Cut(a, "=")
		if !ok {
			return nil, "unrecognized operand " + quoteAlways(a), true
		}
		var err string
		switch key {
		case "if":
			cfg.in, cfg.inGiven = val, true
		case "of":
			cfg.out, cfg.outGiven = val, true
		case "conv", "iflag", "oflag":
			err = cfg.symbols(key, val)
		case "status":
			if val != "none" && val != "noxfer" && val != "progress" {
				return nil, "invalid status level: " + quoteAlways(val), true
			}
			cfg.status = val
		case "bs", "ibs", "obs", "cbs", "count", "skip", "iseek", "seek", "oseek":
			err = cfg.number(key, val)
		default:
			return nil, "unrecognized operand " + quoteAlways(a), true
		}
		if err != "" {
			return nil, err, strings.HasPrefix(err, "invalid ") && !strings.HasPrefix(err, "invalid number")
		}
	}
	switch {
	case cfg.conv["lcase"] && cfg.conv["ucase"]:
		return nil, "cannot combine lcase and ucase", false
	case cfg.conv["excl"] && cfg.conv["nocreat"]:
		return nil, "cannot combine excl and nocreat", false
	}
	cfg.countBytes = cfg.countBytes || cfg.iflags["count_bytes"]
	cfg.skipBytes = cfg.skipBytes || cfg.iflags["skip_bytes"]
	cfg.seekBytes = cfg.seekBytes || cfg.oflags["seek_bytes"]
	return cfg, "", false
}

// symbols adds a comma-separated list of conv, iflag or oflag symbols.
func (cfg *ddConfig) symbols(key, val string) string {
	known, set, what := ddConvs, cfg.conv, "conversion"
	switch key {
	case "iflag":
		known, set, what = ddIFlags, cfg.iflags, "input flag"
	case "oflag":
		known, set, what = ddOFlags, cfg.oflags, "output flag"
	}
	for _, s := range strings.Split(val, ",") {
		if !strings.Contains(" "+known+" ", " "+s+" ") {
			if key == "conv" && strings.Contains(" ascii ebcdic ibm block unblock ", " "+s+" ") {
				return "conversion '" + s + "' is not supported in a workspace"
			}
			return "invalid " + what + ": " + quoteAlways(s)
		}
		set[s] = true
	}
	return ""
}

// number sets a size or count operand.
func (cfg *ddConfig) number(key, val string) string {
	bytes := strings.Contains(val, "B")
	n, ok := ddNumber(val)
	if !ok || ((key == "bs" || key == "ibs" || key == "obs" || key == "cbs") && n == 0) {
		return "invalid number: " + quoteAlways(val)
	}
	switch key {
	case "bs":
		cfg.ibs, cfg.obs, cfg.bs = n, n, true
	case "ibs":
		cfg.ibs = n
	case "obs":
		cfg.obs = n
	case "count":
		cfg.count, cfg.countBytes = n, bytes
	case "skip", "iseek":
		cfg.skip, cfg.skipBytes = n, bytes
	case "seek", "oseek":
		cfg.seek, cfg.seekBytes = n, bytes
	}
	return ""
}

// ddNumber reads N with dd's suffixes (c w b kB K KiB ... and a final B
// for bytes) and products (2x512); false when it is not one.
func ddNumber(s string) (int64, bool) {
	total := int64(1)
	for _, part := range strings.Split(s, "x") {
		i := 0
		for i < len(part) && part[i] >= '0' && part[i] <= '9' {
			i++
		}
		if i == 0 {
			return 0, false
		}
		n, err := strconv.ParseInt(part[:i], 10, 64)
		if err != nil {
			return 0, false
		}
		mult, ok := ddSuffix(part[i:])
		if !ok || (mult != 0 && n > (1<<62)/mult) || (n != 0 && total > (1<<62)/(n*mult)) {
			return 0, false
		}
		total *= n * mult
	}
	return total, true
}

// ddSuffix is the multiplier a suffix names.
func ddSuffix(s string) (int64, bool) {
	switch s {
	case "", "c", "B":
		return 1, true
	case "w":
		return 2, true
	case "b":
		return 512, true
	}
	k := strings.IndexByte("KMGTPE", strings.ToUpper(s[:1])[0])
	if k < 0 {
		return 0, false
	}
	base := int64(1024)
	switch s[1:] {
	case "", "iB":
		if s[0] == 'k' && s != "k" {
			return 0, false
		}
	case "B":
		base = 1000
	default:
		return 0, false
	}
	m := int64(1)
	for range k + 1 {
		m *= base
	}
	return m, true
}

func runDD(e *Env) (int, error) {
	t := newTool(e, "dd", ddHelp, 1)
	args := e.Args[1:]
	if len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		switch a := args[0]; {
		case a == "--help" || (len(a) > 2 && strings.HasPrefix("--help", a)):
			t.writeString(ddHelp)
			return t.end(0)
		case a == "--version" || (len(a) > 2 && strings.HasPrefix("--version", a)):
			t.writeString("dd (coreutils) 9.1\n")
			return t.end(0)
		case a == "--":
			args = args[1:]
		case strings.HasPrefix(a, "--"):
			return t.end(t.usage("unrecognized option '" + a + "'"))
		default:
			return t.end(t.usage("invalid option -- '" + a[1:2] + "'"))
		}
	}
	cfg, msg, usage := ddParse(args)
	if msg != "" {
		if usage {
			return t.end(t.usage(msg))
		}
		t.warn(msg)
		return t.end(1)
	}
	return t.end(ddRun(t, cfg))
}

// ddRun opens both ends and copies.
func ddRun(t *tool, cfg *ddConfig) int {
	inName, outName := "'standard input'", "'standard output'"
	var in io.Reader = t.stdin()
	if cfg.inGiven {
		inName = quoteAlways(cfg.in)
		f, err := ddOpenInput(t, cfg.in)
		if err != nil {
			t.warn("failed to open " + inName + ": " + errText(err))
			return 1
		}
		defer f.Close()
		in = f
	}
	var out io.Writer = t.out
	if cfg.outGiven {
		outName = quoteAlways(cfg.out)
		f, err := ddOpenOutput(t, cfg)
		if err != nil {
			t.warn(err.Error())
			return 1
		}
		defer f.Close()
		out = f
	} else if cfg.seek > 0 {
		t.warn(outName + ": cannot seek: Illegal seek")
		cfg.report(t, time.Now())
		return 1
	}
	hold := cfg.ibs
	if cfg.twoBuffers() {
		hold += cfg.obs
	}
	if err := t.env.Grow(hold); err != nil {
		t.warn("memory exhausted by input buffer of size " + strconv.FormatInt(cfg.ibs, 10) + " bytes")
		return 1
	}
	defer t.env.Grow(-hold)
	start := time.Now()
	if cfg.skip > 0 && !ddSkip(t, cfg, in) {
		t.warn(cfg.nameOf(inName) + ": cannot skip to specified offset")
	}
	status := ddCopy(t, cfg, in, out, inName, outName)
	cfg.report(t, start)
	return status
}

func (cfg *ddConfig) nameOf(quoted string) string {
	if !cfg.inGiven {
		return quoted
	}
	return quoteIfNeeded(cfg.in)
}

// twoBuffers says whether output is gathered into obs-sized blocks rather
// than written as each block is read (bs= given, and no conversion that
// regroups bytes).
func (cfg *ddConfig) twoBuffers() bool { return !cfg.bs || cfg.conv["swab"] }

// ddOpenInput opens if=; the empty name is no file.
func ddOpenInput(t *tool, name string) (vfs.File, error) {
	if name == "" {
		return nil, errEmptyName
	}
	return t.env.FS.Open(t.abs(name))
}

// ddOpenOutput opens of= as conv and oflag ask, positioned at seek=, the
// file cut there unless conv=notrunc.
func ddOpenOutput(t *tool, cfg *ddConfig) (vfs.File, error) {
	flag := os.O_WRONLY | os.O_CREATE
	switch {
	case cfg.conv["excl"]:
		flag |= os.O_EXCL
	case cfg.conv["nocreat"]:
		flag &^= os.O_CREATE
	}
	if cfg.oflags["append"] {
		flag |= os.O_APPEND
	}
	name := quoteAlways(cfg.out)
	if cfg.out == "" {
		return nil, errors.New("failed to open '': No such file or directory")
	}
	f, err := t.env.FS.OpenFile(t.abs(cfg.out), flag, 0o666)
	if err != nil {
		return nil, errors.New("failed to open " + name + ": " + errText(err))
	}
	offset := cfg.seek
	if !cfg.seekBytes {
		offset *= cfg.obs
	}
	info, _ := f.Stat()
	regular := info != nil && info.Mode().IsRegular()
	if regular && !cfg.conv["notrunc"] && !cfg.oflags["append"] {
		if tr, ok := f.(interface{ Truncate(int64) error }); ok {
			if err := tr.Truncate(offset); err != nil {
				f.Close()
				return nil, errors.New("failed to truncate to " + strconv.FormatInt(offset, 10) + " bytes in output file " + name + ": " + errText(err))
			}
		}
	}
	if offset > 0 && regular {
		if _, err := f.Seek(offset, io.SeekStart); err != nil {
			f.Close()
			return nil, errors.New(name + ": cannot seek: " + errText(err))
		}
	}
	return f, nil
}

// ddSkip passes skip= of the input: a seek on a file, else blocks read and
// dropped. It reports false when the input ends first.
func ddSkip(t *tool, cfg *ddConfig, in io.Reader) bool {
	offset := cfg.skip
	if !cfg.skipBytes {
		offset *= cfg.ibs
	}
	if f, ok := in.(vfs.File); ok {
		if info, err := f.Stat(); err == nil && info.Mode().IsRegular() {
			if _, err := f.Seek(offset, io.SeekCurrent); err != nil || offset > info.Size() {
				f.Seek(0, io.SeekEnd)
				return false
			}
			return true
		}
	}
	n, _ := io.CopyN(io.Discard, ctxReader(t, in), offset)
	return n == offset
}
