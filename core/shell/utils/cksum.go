package utils

import (
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"strconv"

	"gatehouse/internal/lazy"
)

const cksumHelp = `Usage: cksum [OPTION]... [FILE]...
Print a checksum and the byte count of each FILE (or standard input).

  -a, --algorithm=TYPE  crc (the default, POSIX cksum), bsd, sysv, md5, sha1,
                          sha224, sha256, sha384, sha512 or blake2b
  -l, --length=BITS     digest length for blake2b
      --tag             BSD-style lines (the default for digests)
      --untagged        GNU-style lines for digests
      --help        display this help and exit
      --version     output version information and exit
`

const sumHelp = `Usage: sum [OPTION]... [FILE]...
Print a 16-bit checksum and the block count of each FILE.

  -r              the BSD algorithm, 1K blocks (the default)
  -s, --sysv      the System V algorithm, 512-byte blocks
      --help        display this help and exit
      --version     output version information and exit
`

var cksumOpts = []optDef{
	{short: 'a', long: "algorithm", arg: needArg},
	{short: 'l', long: "length", arg: needArg},
	{long: "tag"},
	{long: "untagged"},
}

var sumOpts = []optDef{{short: 'r'}, {short: 's', long: "sysv"}}

// cksumUtility makes the cksum utility (see builtins).
func cksumUtility(string) *Utility {
	return &Utility{Name: "cksum", Keeps: KeepsNothing, Run: runCksum, Operands: inputOperands(cksumOpts, parseMode{}), OperandExit: 1, Help: cksumHelp}
}

// sumUtility makes the sum utility (see builtins).
func sumUtility(string) *Utility {
	return &Utility{Name: "sum", Keeps: KeepsNothing, Run: runSum, Operands: inputOperands(sumOpts, parseMode{}), OperandExit: 1, Help: sumHelp}
}

// crcTable is the POSIX cksum CRC (polynomial 0x04C11DB7, MSB first),
// computed when cksum first runs.
var crcTable = lazy.Value[*[256]uint32]{New: func() *[256]uint32 {
	var tab [256]uint32
	for i := range tab {
		c := uint32(i) << 24
		for range 8 {
			if c&0x80000000 != 0 {
				c = c<<1 ^ 0x04C11DB7
			} else {
				c <<= 1
			}
		}
		tab[i] = c
	}
	return &tab
}}

// sumState accumulates one of the non-digest checksums over a stream.
type sumState struct {
	kind string // crc, bsd, sysv
	crc  uint32
	bsd  uint16
	sysv uint32
	n    int64
}

func (s *sumState) Write(p []byte) (int, error) {
	tab := crcTable.Get()
	for _, b := range p {
		switch s.kind {
		case "crc":
			s.crc = s.crc<<8 ^ tab[byte(s.crc>>24)^b]
		case "bsd":
			s.bsd = (s.bsd >> 1) + ((s.bsd & 1) << 15)
			s.bsd += uint16(b)
		case "sysv":
			s.sysv += uint32(b)
		}
	}
	s.n += int64(len(p))
	return len(p), nil
}

// result renders the checksum and size fields the way cksum and sum do.
func (s *sumState) result() string {
	switch s.kind {
	case "bsd":
		return fmt.Sprintf("%05d %5d", s.bsd, (s.n+1023)/1024)
	case "sysv":
		r := s.sysv%0x10000 + s.sysv/0x10000
		r = r%0x10000 + r/0x10000
		return strconv.FormatUint(uint64(r), 10) + " " + strconv.FormatInt((s.n+511)/512, 10)
	}
	crc, tab := s.crc, crcTable.Get()
	for n := s.n; n > 0; n >>= 8 {
		crc = crc<<8 ^ tab[byte(crc>>24)^byte(n)]
	}
	return strconv.FormatUint(uint64(^crc), 10) + " " + strconv.FormatInt(s.n, 10)
}

// cksumDigests are the digests -a names, with the tags they print.
var cksumDigests = lazy.Value[map[string]string]{New: func() map[string]string {
	return map[string]string{"md5": "MD5", "sha1": "SHA1", "sha224": "SHA224", "sha256": "SHA256", "sha384": "SHA384", "sha512": "SHA512", "blake2b": "BLAKE2b"}
}}

func runCksum(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "cksum", defs: cksumOpts, usageExit: 1, help: cksumHelp})
	if done {
		return t.end(status)
	}
	algo, bits, untagged := "crc", 0, false
	for _, o := range args.opts {
		switch o.name {
		case "algorithm":
			if _, ok := cksumDigests.Get()[o.value]; !ok && o.value != "crc" && o.value != "bsd" && o.value != "sysv" {
				t.warn("invalid argument '" + o.value + "' for '--algorithm'")
				t.rawStderr("Valid arguments are:\n  - 'bsd'\n  - 'sysv'\n  - 'crc'\n  - 'md5'\n  - 'sha1'\n  - 'sha224'\n  - 'sha256'\n  - 'sha384'\n  - 'sha512'\n  - 'blake2b'\n  - 'sm3'\n")
				t.rawStderr("Try 'cksum --help' for more information.\n")
				return t.end(1)
			}
			algo = o.value
		case "length":
			n, err := strconv.Atoi(o.value)
			if err != nil || n%8 != 0 || n <= 0 || n > 512 {
				t.warn("invalid length: '" + o.value + "'")
				return t.end(1)
			}
			bits = n
		case "untagged":
			untagged = true
		case "tag":
			untagged = false
		}
	}
	return t.end(sumFiles(t, args.operandStrings(e.Args), func(name string, r io.Reader) (string, error) {
		if tag, ok := cksumDigests.Get()[algo]; ok {
			h := cksumHash(algo, bits)
			if _, err := io.Copy(h, r); err != nil {
				return "", err
			}
			if bits != 0 && bits != 512 {
				tag += "-" + strconv.Itoa(bits)
			}
			sum := hex.EncodeToString(h.Sum(nil))
			if untagged {
				return sum + "  " + name, nil
			}
			return tag + " (" + name + ") = " + sum, nil
		}
		s := &sumState{kind: algo}
		if _, err := io.Copy(s, r); err != nil {
			return "", err
		}
		if name == "-" {
			return s.result(), nil
		}
		return s.result() + " " + name, nil
	}))
}

// cksumHash returns the digest -a names.
func cksumHash(algo string, bits int) hash.Hash {
	if algo == "blake2b" {
		if bits == 0 {
			bits = 512
		}
		return newBlake2b(bits / 8)
	}
	for _, a := range checksumAlgos {
		if a.name == algo+"sum" {
			return a.newHash()
		}
	}
	return nil
}

func runSum(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "sum", defs: sumOpts, usageExit: 1, help: sumHelp})
	if done {
		return t.end(status)
	}
	kind := "bsd"
	for _, o := range args.opts {
		switch o.name {
		case "r":
			kind = "bsd"
		case "sysv":
			kind = "sysv"
		}
	}
	files := args.operandStrings(e.Args)
	return t.end(sumFiles(t, files, func(name string, r io.Reader) (string, error) {
		s := &sumState{kind: kind}
		if _, err := io.Copy(s, r); err != nil {
			return "", err
		}
		if len(files) == 0 {
			return s.result(), nil // standard input is not named
		}
		return s.result() + " " + name, nil
	}))
}

// sumFiles runs line over each operand (standard input without any) and
// prints its result; unreadable files are reported and make status 1.
func sumFiles(t *tool, files []string, line func(name string, r io.Reader) (string, error)) int {
	if len(files) == 0 {
		files = []string{"-"}
	}
	status := 0
	for _, name := range files {
		if t.stopped() {
			break
		}
		in, closeIn, err := openOperand(t, name)
		if err == nil {
			var text string
			text, err = line(name, in)
			closeIn()
			if err == nil {
				t.writeString(text + "\n")
				continue
			}
		}
		t.warn(name + ": " + errText(err))
		status = 1
	}
	return status
}
