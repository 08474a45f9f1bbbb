package utils

import (
	"encoding/base32"
	"encoding/base64"
	"strings"
)

const base64Help = `Usage: base64 [OPTION]... [FILE]
Base64 encode or decode FILE, or standard input, to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -d, --decode          decode data
  -i, --ignore-garbage  when decoding, ignore non-alphabet characters
  -w, --wrap=COLS       wrap encoded lines after COLS character (default 76).
                          Use 0 to disable line wrapping
      --help        display this help and exit
      --version     output version information and exit

The data are encoded as described for the base64 alphabet in RFC 4648.
When decoding, the input may contain newlines in addition to the bytes of
the formal base64 alphabet.  Use --ignore-garbage to attempt to recover
from any other non-alphabet bytes in the encoded stream.
`

var base64Opts = []optDef{
	{short: 'd', long: "decode"},
	{short: 'D'},
	{short: 'i', long: "ignore-garbage"},
	{short: 'w', long: "wrap", arg: needArg},
}

// base64Utility makes the base64 utility (see builtins).
func base64Utility(string) *Utility {
	return &Utility{
		Name:        "base64",
		Keeps:       KeepsNothing,
		Run:         runBase64,
		Operands:    plainOperands(base64Opts, parseMode{}, Read),
		OperandExit: 1,
		Voice:       quotedVoice("base64"),
		Help:        base64Help,
	}
}

func runBase64(e *Env) (int, error) { return runBaseCodec(e, base64Codec) }

// baseCodec is what base64 and base32 differ in.
type baseCodec struct {
	name, help string
	enc        interface {
		EncodeToString(src []byte) string
	}
	decode func(data []byte, ignoreGarbage bool) ([]byte, bool)
}

var base64Codec = &baseCodec{name: "base64", help: base64Help, enc: base64.StdEncoding, decode: base64Decode}

var base32Codec = &baseCodec{name: "base32", help: base32Help, enc: base32.StdEncoding, decode: base32Decode}

// runBaseCodec is base64 and base32.
func runBaseCodec(e *Env, codec *baseCodec) (int, error) {
	t, args, status, done := begin(e, spec{name: codec.name, defs: base64Opts, usageExit: 1, help: codec.help})
	if done {
		return status, nil
	}
	decode, garbage, wrap := false, false, 76
	for _, o := range args.opts {
		switch o.name {
		case "decode", "D":
			if codec.name != "base64" && o.name == "D" {
				return t.end(t.usage("invalid option -- 'D'"))
			}
			decode = true
		case "ignore-garbage":
			garbage = true
		case "wrap":
			n, ok := parseCount(o.value)
			if !ok || n < 0 {
				t.warn("invalid wrap size: " + quoteAlways(o.value))
				return t.end(1)
			}
			wrap = int(n)
		}
	}
	files := args.operandStrings(e.Args)
	if len(files) > 1 {
		return t.end(t.usage("extra operand " + quoteAlways(files[1])))
	}
	name := "-"
	if len(files) == 1 {
		name = files[0]
	}
	in, closeIn, err := openOperand(t, name)
	if err != nil {
		t.warn(quoteIfNeeded(name) + ": " + errText(err))
		return t.end(1)
	}
	data, err := readAllCtx(t, in)
	closeIn()
	if err != nil {
		t.warn(quoteIfNeeded(name) + ": " + errText(err))
		return t.end(1)
	}
	if !decode {
		text := codec.enc.EncodeToString(data)
		var b strings.Builder
		for wrap > 0 && len(text) > wrap {
			b.WriteString(text[:wrap] + "\n")
			text = text[wrap:]
		}
		b.WriteString(text)
		if b.Len() > 0 && wrap > 0 {
			b.WriteByte('\n')
		}
		t.writeString(b.String())
		return t.end(0)
	}
	out, ok := codec.decode(data, garbage)
	t.write(out)
	if !ok {
		t.warn("invalid input")
		return t.end(1)
	}
	return t.end(0)
}

// base64Decode decodes what it can; ok is false on a byte outside the
// alphabet (unless ignored) or a truncated final group.
func base64Decode(data []byte, ignoreGarbage bool) ([]byte, bool) {
	clean := make([]byte, 0, len(data))
	for _, c := range data {
		switch {
		case c == '\n':
		case c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '+', c == '/', c == '=':
			clean = append(clean, c)
		case ignoreGarbage:
		default:
			out, _ := base64Decode(clean[:len(clean)/4*4], false)
			return out, false
		}
	}
	whole := len(clean) / 4 * 4
	out := make([]byte, base64.StdEncoding.DecodedLen(whole))
	n, err := base64.StdEncoding.Decode(out, clean[:whole])
	if err != nil {
		return out[:n], false
	}
	out = out[:n]
	if rest := clean[whole:]; len(rest) > 0 {
		// A truncated last group still yields its bytes, then the error.
		tail, _ := base64.RawStdEncoding.DecodeString(strings.TrimRight(string(rest), "="))
		return append(out, tail...), false
	}
	return out, true
}

const base32Help = `Usage: base32 [OPTION]... [FILE]
Base32 encode or decode FILE, or standard input, to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -d, --decode          decode data
  -i, --ignore-garbage  when decoding, ignore non-alphabet characters
  -w, --wrap=COLS       wrap encoded lines after COLS character (default 76).
                          Use 0 to disable line wrapping
      --help        display this help and exit
      --version     output version information and exit

The data are encoded as described for the base32 alphabet in RFC 4648.
When decoding, the input may contain newlines in addition to the bytes of
the formal base32 alphabet.  Use --ignore-garbage to attempt to recover
from any other non-alphabet bytes in the encoded stream.
`

// base32Utility makes the base32 utility (see builtins).
func base32Utility(string) *Utility {
	return &Utility{
		Name:        "base32",
		Keeps:       KeepsNothing,
		Run:         func(e *Env) (int, error) { return runBaseCodec(e, base32Codec) },
		Operands:    plainOperands(base64Opts, parseMode{}, Read),
		OperandExit: 1,
		Voice:       quotedVoice("base32"),
		Help:        base32Help,
	}
}

// base32Decode decodes whole groups of eight; ok is false on a byte
// outside the alphabet (unless ignored) or a truncated final group, which
// yields nothing, as GNU's does.
func base32Decode(data []byte, ignoreGarbage bool) ([]byte, bool) {
	clean := make([]byte, 0, len(data))
	for _, c := range data {
		switch {
		case c == '\n':
		case c >= 'A' && c <= 'Z', c >= '2' && c <= '7', c == '=':
			clean = append(clean, c)
		case ignoreGarbage:
		default:
			// The bytes the chars before the garbage complete still come
			// out (2, 4, 5 and 7 chars of a group make 1 to 4 bytes).
			whole := len(clean) / 8 * 8
			out, _ := base32Decode(clean[:whole], false)
			part := []int{0, 0, 2, 2, 4, 5, 5, 7}[len(clean)-whole]
			tail, _ := base32.StdEncoding.WithPadding(base32.NoPadding).DecodeString(string(clean[whole : whole+part]))
			return append(out, tail...), false
		}
	}
	whole := len(clean) / 8 * 8
	out := make([]byte, base32.StdEncoding.DecodedLen(whole))
	n, err := base32.StdEncoding.Decode(out, clean[:whole])
	return out[:n], err == nil && whole == len(clean)
}
