package utils

import (
	"bufio"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"hash"
	"io"
	"strconv"
	"strings"
)

const checksumHelpTemplate = `Usage: NAME [OPTION]... [FILE]...
Print or check ALGO checksums.

With no FILE, or when FILE is -, read standard input.
  -b, --binary          read in binary mode
  -c, --check           read checksums from the FILEs and check them
      --tag             create a BSD-style checksum
  -t, --text            read in text mode (default)
  -z, --zero            end each output line with NUL, not newline,
                          and disable file name escaping

The following five options are useful only when verifying checksums:
      --ignore-missing  don't fail or report status for missing files
      --quiet           don't print OK for each successfully verified file
      --status          don't output anything, status code shows success
      --strict          exit non-zero for improperly formatted checksum lines
  -w, --warn            warn about improperly formatted checksum lines

      --help        display this help and exit
      --version     output version information and exit

The sums are computed as described in RFC.
When checking, the input should be a former output of this program.
The default mode is to print a line with: checksum, a space,
a character indicating input mode ('*' for binary, ' ' for text
or where binary is insignificant), and name for each FILE.

Note: There is no difference between binary mode and text mode on GNU systems.
`

var checksumOpts = []optDef{
	{short: 'b', long: "binary"},
	{short: 'c', long: "check"},
	{long: "tag"},
	{short: 't', long: "text"},
	{short: 'z', long: "zero"},
	{long: "ignore-missing"},
	{long: "quiet"},
	{long: "status"},
	{long: "strict"},
	{short: 'w', long: "warn"},
}

// checksumAlgo is one digest utility.
type checksumAlgo struct {
	name, tag string
	rfc       string // the standard the help names
	newHash   func() hash.Hash
	help      string
	lengthOpt bool // b2sum's -l BITS
	opts      []optDef
}

// checksumAlgos are the digest utilities (cksum -a finds its hashes here).
// The table is static data; each utility's help and options are made the
// first time it is looked up (checksumUtility), not at start-up.
var checksumAlgos = []checksumAlgo{
	{name: "md5sum", tag: "MD5", rfc: "RFC 1321", newHash: md5.New},
	{name: "sha1sum", tag: "SHA1", rfc: "FIPS-180-1", newHash: sha1.New},
	{name: "sha224sum", tag: "SHA224", rfc: "RFC 3874", newHash: sha256.New224},
	{name: "sha256sum", tag: "SHA256", rfc: "FIPS-180-2", newHash: sha256.New},
	{name: "sha384sum", tag: "SHA384", rfc: "FIPS-180-2", newHash: sha512.New384},
	{name: "sha512sum", tag: "SHA512", rfc: "FIPS-180-2", newHash: sha512.New},
	{name: "b2sum", tag: "BLAKE2b", rfc: "RFC 7693", newHash: newBlake2b512, lengthOpt: true},
}

// newBlake2b512 is b2sum's default digest, BLAKE2b-512.
func newBlake2b512() hash.Hash { return newBlake2b(64) }

// checksumUtility makes the digest utility name, one of checksumAlgos (see
// builtins).
func checksumUtility(name string) *Utility {
	var a *checksumAlgo
	for i := range checksumAlgos {
		if checksumAlgos[i].name == name {
			c := checksumAlgos[i]
			a = &c
		}
	}
	// Three plain replacements rather than a strings.Replacer, which
	// costs more than the text it makes.
	a.help = strings.ReplaceAll(checksumHelpTemplate, "NAME", a.name)
	a.help = strings.ReplaceAll(a.help, "ALGO", a.tag)
	a.help = strings.ReplaceAll(a.help, "RFC.", a.rfc+".")
	a.opts = checksumOpts
	if a.lengthOpt {
		a.opts = append(append([]optDef(nil), checksumOpts...), optDef{short: 'l', long: "length", arg: needArg})
		a.help = strings.Replace(a.help, "  -b, --binary", "  -l, --length=BITS     digest length in bits; a multiple of 8, at most 512\n  -b, --binary", 1)
	}
	return &Utility{
		Name:        a.name,
		Keeps:       KeepsNothing,
		Run:         func(e *Env) (int, error) { return runChecksum(e, a) },
		Operands:    plainOperands(a.opts, parseMode{}, Read),
		OperandExit: 1,
		Voice:       quotedVoice(a.name),
		Help:        a.help,
	}
}

type checksumConfig struct {
	binary, tag, zero                    bool
	ignoreMissing, quiet, status, strict bool
	warn                                 bool
}

func runChecksum(e *Env, a *checksumAlgo) (int, error) {
	t, args, status, done := begin(e, spec{name: a.name, defs: a.opts, usageExit: 1, help: a.help})
	if done {
		return status, nil
	}
	cfg := &checksumConfig{}
	check := false
	for _, o := range args.opts {
		switch o.name {
		case "binary":
			cfg.binary = true
		case "check":
			check = true
		case "tag":
			cfg.tag = true
		case "text":
			cfg.binary = false
		case "zero":
			cfg.zero = true
		case "ignore-missing":
			cfg.ignoreMissing = true
		case "quiet":
			cfg.quiet = true
		case "status":
			cfg.status = true
		case "strict":
			cfg.strict = true
		case "warn":
			cfg.warn = true
		case "length":
			bits, err := strconv.Atoi(o.value)
			switch {
			case err != nil || bits < 0:
				t.warn("invalid length: '" + o.value + "'")
				return t.end(1)
			case bits%8 != 0:
				t.warn("invalid length: '" + o.value + "'")
				t.warn("length is not a multiple of 8")
				return t.end(1)
			case bits > 512:
				t.warn("invalid length: '" + o.value + "'")
				t.warn("maximum digest length for 'BLAKE2b' is 512 bits")
				return t.end(1)
			case bits != 0 && bits != 512:
				size := bits / 8
				a = &checksumAlgo{name: a.name, tag: "BLAKE2b-" + o.value, newHash: func() hash.Hash { return newBlake2b(size) }, help: a.help, opts: a.opts}
			}
		}
	}
	files := args.operandStrings(e.Args)
	if len(files) == 0 {
		files = []string{"-"}
	}
	for _, name := range files {
		if t.stopped() {
			break
		}
		var ok bool
		if check {
			ok = checksumVerify(t, a, cfg, name)
		} else {
			ok = checksumPrint(t, a, cfg, name)
		}
		if !ok {
			status = 1
		}
	}
	return t.end(status)
}

// checksumOf digests one input.
func checksumOf(t *tool, a *checksumAlgo, name string) (string, error) {
	in, closeIn, err := openOperand(t, name)
	if err != nil {
		return "", err
	}
	defer closeIn()
	h := a.newHash()
	buf := make([]byte, 64*1024)
	for {
		if err := t.ctx.Err(); err != nil {
			return "", err
		}
		n, rerr := in.Read(buf)
		h.Write(buf[:n])
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return "", rerr
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func checksumPrint(t *tool, a *checksumAlgo, cfg *checksumConfig, name string) bool {
	sum, err := checksumOf(t, a, name)
	if err != nil {
		t.warn(quoteIfNeeded(name) + ": " + errText(err))
		return false
	}
	shown, escaped := name, ""
	if !cfg.zero && strings.ContainsAny(name, "\\\n\r") {
		// GNU escapes such names and marks the line with a backslash.
		shown = strings.NewReplacer("\\", "\\\\", "\n", "\\n", "\r", "\\r").Replace(name)
		escaped = "\\"
	}
	eol := "\n"
	if cfg.zero {
		eol = "\x00"
	}
	if cfg.tag {
		t.writeString(escaped + a.tag + " (" + shown + ") = " + sum + eol)
		return true
	}
	mode := " "
	if cfg.binary {
		mode = "*"
	}
	t.writeString(escaped + sum + " " + mode + shown + eol)
	return true
}

// checksumLine parses one line of a checksum list: "SUM  NAME",
// "SUM *NAME" or the --tag form.
func checksumLine(a *checksumAlgo, line string) (sum, name string, ok bool) {
	escaped := strings.HasPrefix(line, "\\")
	if escaped {
		line = line[1:]
	}
	hexLen := a.newHash().Size() * 2
	if rest, isTag := strings.CutPrefix(line, a.tag+" ("); isTag {
		i := strings.LastIndex(rest, ") = ")
		if i < 0 {
			return "", "", false
		}
		name, sum = rest[:i], rest[i+4:]
	} else {
		if len(line) < hexLen+2 || line[hexLen] != ' ' || (line[hexLen+1] != ' ' && line[hexLen+1] != '*') {
			return "", "", false
		}
		sum, name = line[:hexLen], line[hexLen+2:]
	}
	if len(sum) != hexLen || strings.Trim(strings.ToLower(sum), "0123456789abcdef") != "" || name == "" {
		return "", "", false
	}
	if escaped {
		name = strings.NewReplacer("\\\\", "\\", "\\n", "\n", "\\r", "\r").Replace(name)
	}
	return strings.ToLower(sum), name, true
}

func checksumVerify(t *tool, a *checksumAlgo, cfg *checksumConfig, list string) bool {
	in, closeIn, err := openOperand(t, list)
	if err != nil {
		t.warn(quoteIfNeeded(list) + ": " + errText(err))
		return false
	}
	defer closeIn()
	listName := list
	if list == "-" {
		listName = "standard input"
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 1<<24)
	var bad, failed, unreadable, matched, lineNo int
	report := func(s string) {
		if !cfg.status {
			t.writeString(s)
		}
	}
	for sc.Scan() {
		lineNo++
		line := strings.TrimSuffix(sc.Text(), "\r")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		want, name, ok := checksumLine(a, line)
		if !ok {
			bad++
			if cfg.warn {
				t.warn(quoteIfNeeded(listName) + ": " + strconv.Itoa(lineNo) + ": improperly formatted " + a.tag + " checksum line")
			}
			continue
		}
		got, err := checksumOf(t, a, name)
		if err != nil {
			if cfg.ignoreMissing && isNotExist(err) {
				continue
			}
			if !cfg.status {
				t.warn(quoteIfNeeded(name) + ": " + errText(err))
			}
			report(name + ": FAILED open or read\n")
			unreadable++
			continue
		}
		matched++
		if got != want {
			failed++
			report(name + ": FAILED\n")
		} else if !cfg.quiet {
			report(name + ": OK\n")
		}
	}
	if matched == 0 && unreadable == 0 && failed == 0 {
		if !cfg.status {
			t.warn(quoteIfNeeded(listName) + ": no properly formatted checksum lines found")
		}
		return false
	}
	plural := func(n int, one, many string) string {
		if n == 1 {
			return one
		}
		return many
	}
	if !cfg.status {
		if bad > 0 {
			t.warn("WARNING: " + strconv.Itoa(bad) + " " + plural(bad, "line is", "lines are") + " improperly formatted")
		}
		if unreadable > 0 {
			t.warn("WARNING: " + strconv.Itoa(unreadable) + " listed " + plural(unreadable, "file", "files") + " could not be read")
		}
		if failed > 0 {
			t.warn("WARNING: " + strconv.Itoa(failed) + " computed " + plural(failed, "checksum", "checksums") + " did NOT match")
		}
	}
	return failed == 0 && unreadable == 0 && !(cfg.strict && bad > 0)
}
