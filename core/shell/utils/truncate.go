package utils

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"syscall"
)

const truncateHelp = `Usage: truncate OPTION... FILE...
Shrink or extend the size of each FILE to the specified size.
A FILE that does not exist is created (empty, then sized).

  -c, --no-create        do not create any files
  -o, --io-blocks        treat SIZE as number of IO blocks instead of bytes
  -r, --reference=RFILE  base size on RFILE
  -s, --size=SIZE        set or adjust the file size by SIZE bytes
      --help        display this help and exit
      --version     output version information and exit

SIZE is an integer with an optional unit (K, M, G, T, P, E, Z, Y are powers of
1024; KB, MB, ... of 1000; binary prefixes like KiB too). A prefix adjusts the
current size: '+' extend by, '-' reduce by, '<' at most, '>' at least,
'/' round down to a multiple of, '%' round up to a multiple of.
`

var truncateOpts = []optDef{
	{short: 'c', long: "no-create"},
	{short: 'o', long: "io-blocks"},
	{short: 'r', long: "reference", arg: needArg},
	{short: 's', long: "size", arg: needArg},
}

// truncateUtility makes the truncate utility (see builtins).
func truncateUtility(string) *Utility {
	return &Utility{
		Name: "truncate",
		Run:  runTruncate,
		Operands: func(argv []string) []OperandRef {
			args, err := parseArgs(argv, truncateOpts, parseMode{})
			if err != nil {
				return nil
			}
			refs := operandRefs(args.operands, Write)
			for _, o := range args.opts {
				if o.name == "reference" {
					refs = append(refs, optionOperand(o, Read))
				}
			}
			return refs
		},
		OperandExit: 1,
		Voice:       func(arg, msg string) string { return "truncate: cannot open '" + arg + "' for writing: " + msg + "\n" },
		Help:        truncateHelp,
	}
}

// parseSizeUnits reads an integer with coreutils' unit suffixes (K or KiB
// powers of 1024, KB of 1000, up to Y).
func parseSizeUnits(s string) (int64, bool) {
	units := "KMGTPEZY"
	i := len(s)
	for i > 0 && (s[i-1] < '0' || s[i-1] > '9') {
		i--
	}
	num, suffix := s[:i], s[i:]
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil {
		return 0, false
	}
	if suffix == "" {
		return n, true
	}
	base := int64(1024)
	switch {
	case strings.HasSuffix(suffix, "iB"):
		suffix = strings.TrimSuffix(suffix, "iB")
	case strings.HasSuffix(suffix, "B") && len(suffix) == 2:
		suffix, base = suffix[:1], 1000
	}
	k := strings.IndexByte(units, strings.ToUpper(suffix)[0])
	if len(suffix) != 1 || k < 0 {
		return 0, false
	}
	for range k + 1 {
		n *= base
	}
	return n, true
}

func runTruncate(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "truncate", defs: truncateOpts, usageExit: 1, help: truncateHelp})
	if done {
		return t.end(status)
	}
	var sizeSpec, ref string
	var haveSize, haveRef bool
	noCreate := args.has("no-create")
	for _, o := range args.opts {
		switch o.name {
		case "size":
			sizeSpec, haveSize = o.value, true
		case "reference":
			ref, haveRef = o.value, true
		}
	}
	files := args.operandStrings(e.Args)
	switch {
	case !haveSize && !haveRef:
		return t.end(t.usage("you must specify either '--size' or '--reference'"))
	case len(files) == 0:
		return t.end(t.usage("missing file operand"))
	}
	op, amount := byte(0), int64(0)
	if haveSize {
		spec := sizeSpec
		if spec != "" && strings.IndexByte("+-<>/%", spec[0]) >= 0 {
			op, spec = spec[0], spec[1:]
		}
		n, ok := parseSizeUnits(spec)
		if !ok {
			t.warn("Invalid number: '" + sizeSpec + "'")
			return t.end(1)
		}
		if (op == '/' || op == '%') && n == 0 {
			t.warn("division by zero")
			return t.end(1)
		}
		amount = n
	}
	base := int64(-1)
	if haveRef {
		info, err := e.FS.Stat(e.Abs(ref))
		if err != nil {
			t.warn("cannot stat '" + ref + "': " + errText(err))
			return t.end(1)
		}
		base = info.Size()
		if !haveSize {
			op, amount = '=', base
		} else if op == 0 {
			op = '='
		}
	}
	status = 0
	for _, name := range files {
		if err := truncateOne(e, name, op, amount, base, noCreate); err != nil {
			var tf *truncateFailed
			if errors.As(err, &tf) {
				t.rawStderr("truncate: failed to truncate '" + name + "' at " + strconv.FormatInt(tf.size, 10) + " bytes: " + errText(tf.err) + "\n")
			} else {
				t.rawStderr("truncate: cannot open '" + name + "' for writing: " + errText(err) + "\n")
			}
			status = 1
		}
	}
	return t.end(status)
}

// truncateOne sizes one file. base is --reference's size (-1: none).
func truncateOne(e *Env, name string, op byte, amount, base int64, noCreate bool) error {
	flag := os.O_WRONLY | os.O_CREATE
	if noCreate {
		flag = os.O_WRONLY
	}
	abs := e.Abs(name)
	if info, err := e.FS.Stat(abs); err == nil && info.IsDir() {
		return syscall.EISDIR
	} else if err != nil && noCreate && errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	f, err := e.FS.OpenFile(abs, flag, 0o666)
	if err != nil {
		return err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return err
	}
	cur := info.Size()
	if base >= 0 && op != '=' {
		cur = base
	}
	size := amount
	switch op {
	case '+':
		size = cur + amount
	case '-':
		size = max(cur-amount, 0)
	case '<':
		size = min(cur, amount)
	case '>':
		size = max(cur, amount)
	case '/':
		size = cur / amount * amount
	case '%':
		size = (cur + amount - 1) / amount * amount
	}
	tr, ok := f.(interface{ Truncate(int64) error })
	if !ok {
		return syscall.ENOTSUP
	}
	if err := tr.Truncate(size); err != nil {
		return &truncateFailed{size, err}
	}
	_, err = f.Seek(0, io.SeekStart)
	return err
}

// truncateFailed is a file opened but not sized: GNU words it apart.
type truncateFailed struct {
	size int64
	err  error
}

func (e *truncateFailed) Error() string { return e.err.Error() }
