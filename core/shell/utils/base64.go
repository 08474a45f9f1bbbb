package utils

import (
	"encoding/base32"
	"encoding/base64"
	"strings"
)

// baseHelp is base64's and base32's --help, which differ in the name.
func baseHelp(name, title string) string {
	return "Usage: " + name + ` [OPTION]... [FILE]
` + title + ` encode or decode FILE, or standard input, to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -d, --decode          decode data
  -i, --ignore-garbage  when decoding, ignore non-alphabet characters
  -w, --wrap=COLS       wrap encoded lines after COLS character (default 76).
                          Use 0 to disable line wrapping
      --help        display this help and exit
      --version     output version information and exit

The data are encoded as described for the ` + name + ` alphabet in RFC 4648.
When decoding, the input may contain newlines in addition to the bytes of
the formal ` + name + ` alphabet.  Use --ignore-garbage to attempt to recover
from any other non-alphabet bytes in the encoded stream.
`
}

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
		Help:        baseHelp("base64", "Base64"),
	}
}

func runBase64(e *Env) (int, error) { return runBaseCodec(e, "base64", base64Opts, base64Codec) }

// baseCodec is one encoding of base64, base32 and basenc.
type baseCodec struct {
	// encode returns the text of data, or false when data cannot be
	// encoded (z85 takes whole groups of four bytes only).
	encode func(data []byte) (string, bool)
	decode func(data []byte, ignoreGarbage bool) ([]byte, bool)
}

var base64Codec = &baseCodec{encode: stdEncoder(base64.StdEncoding), decode: base64Decode}

var base32Codec = &baseCodec{encode: stdEncoder(base32.StdEncoding), decode: base32Decode}

// stdEncoder adapts an encoding/base64 or base32 encoding.
func stdEncoder(enc interface{ EncodeToString(src []byte) string }) func([]byte) (string, bool) {
	return func(data []byte) (string, bool) { return enc.EncodeToString(data), true }
}

// runBaseCodec is base64, base32 and basenc; codec is nil for basenc,
// whose options name the encoding (the last one wins).
func runBaseCodec(e *Env, name string, defs []optDef, codec *baseCodec) (int, error) {
	help := baseHelp(name, strings.ToUpper(name[:1])+name[1:])
	if codec == nil {
		help = basencHelp
	}
	t, args, status, done := begin(e, spec{name: name, defs: defs, usageExit: 1, help: help})
	if done {
		return status, nil
	}
	decode, garbage, wrap := false, false, 76
	for _, o := range args.opts {
		switch o.name {
		case "decode", "D":
			if name != "base64" && o.name == "D" {
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
		default:
			if c := basencCodec(o.name); c != nil {
				codec = c
			}
		}
	}
	files := args.operandStrings(e.Args)
	if len(files) > 1 {
		return t.end(t.usage("extra operand " + quoteAlways(files[1])))
	}
	if codec == nil {
		return t.end(t.usage("missing encoding type"))
	}
	data, ok := readOneOperand(t, files)
	if !ok {
		return t.end(1)
	}
	if !decode {
		return t.end(baseEncode(t, codec, data, wrap))
	}
	out, ok := codec.decode(data, garbage)
	t.write(out)
	if !ok {
		t.warn("invalid input")
		return t.end(1)
	}
	return t.end(0)
}

// readOneOperand reads the only operand of a filter (standard input when
// there is none or it is "-") whole, charged to the line's budget; it has
// said why on stderr when it returns false.
func readOneOperand(t *tool, files []string) ([]byte, bool) {
	name := "-"
	if len(files) == 1 {
		name = files[0]
	}
	in, closeIn, err := openOperand(t, name)
	if err != nil {
		t.warn(quoteIfNeeded(name) + ": " + errText(err))
		return nil, false
	}
	data, err := readAllCtx(t, in)
	closeIn()
	if err != nil {
		t.warn(quoteIfNeeded(name) + ": " + errText(err))
		return nil, false
	}
	return data, true
}

// baseEncode writes data's text, wrapped every wrap columns (0: never).
func baseEncode(t *tool, codec *baseCodec, data []byte, wrap int) int {
	text, ok := codec.encode(data)
	if !ok {
		t.warn("invalid input (length must be multiple of 4 characters)")
		return 1
	}
	for wrap > 0 && len(text) > wrap {
		if !t.writeString(text[:wrap]) || !t.writeByte('\n') {
			return 1
		}
		text = text[wrap:]
	}
	t.writeString(text)
	if text != "" && wrap > 0 {
		t.writeByte('\n')
	}
	return 0
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

// base32Utility makes the base32 utility (see builtins).
func base32Utility(string) *Utility {
	return &Utility{
		Name:        "base32",
		Keeps:       KeepsNothing,
		Run:         func(e *Env) (int, error) { return runBaseCodec(e, "base32", base64Opts, base32Codec) },
		Operands:    plainOperands(base64Opts, parseMode{}, Read),
		OperandExit: 1,
		Voice:       quotedVoice("base32"),
		Help:        baseHelp("base32", "Base32"),
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
