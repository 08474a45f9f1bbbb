package utils

import (
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"strings"
)

const basencHelp = `Usage: basenc [OPTION]... [FILE]
basenc encode or decode FILE, or standard input, to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
      --base64          same as 'base64' program (RFC4648 section 4)
      --base64url       file- and url-safe base64 (RFC4648 section 5)
      --base32          same as 'base32' program (RFC4648 section 6)
      --base32hex       extended hex alphabet base32 (RFC4648 section 7)
      --base16          hex encoding (RFC4648 section 8)
      --base2msbf       bit string with most significant bit (msb) first
      --base2lsbf       bit string with least significant bit (lsb) first
  -d, --decode          decode data
  -i, --ignore-garbage  when decoding, ignore non-alphabet characters
  -w, --wrap=COLS       wrap encoded lines after COLS character (default 76).
                          Use 0 to disable line wrapping
      --z85             ascii85-like encoding (ZeroMQ spec:32/Z85);
                        when encoding, input length must be a multiple of 4;
                        when decoding, input length must be a multiple of 5
      --help        display this help and exit
      --version     output version information and exit

When decoding, the input may contain newlines in addition to the bytes of
the formal alphabet.  Use --ignore-garbage to attempt to recover
from any other non-alphabet bytes in the encoded stream.
`

var basencOpts = []optDef{
	{long: "base64"},
	{long: "base64url"},
	{long: "base32"},
	{long: "base32hex"},
	{long: "base16"},
	{long: "base2msbf"},
	{long: "base2lsbf"},
	{long: "z85"},
	{short: 'd', long: "decode"},
	{short: 'i', long: "ignore-garbage"},
	{short: 'w', long: "wrap", arg: needArg},
}

// basencUtility makes the basenc utility (see builtins).
func basencUtility(string) *Utility {
	return &Utility{
		Name:        "basenc",
		Keeps:       KeepsNothing,
		Run:         func(e *Env) (int, error) { return runBaseCodec(e, "basenc", basencOpts, nil) },
		Operands:    plainOperands(basencOpts, parseMode{}, Read),
		OperandExit: 1,
		Voice:       quotedVoice("basenc"),
		Help:        basencHelp,
	}
}

// basencCodec is the codec an option of basenc names, or nil.
func basencCodec(option string) *baseCodec {
	switch option {
	case "base64":
		return base64Codec
	case "base32":
		return base32Codec
	case "base64url":
		return &baseCodec{encode: stdEncoder(base64.URLEncoding), decode: func(data []byte, garbage bool) ([]byte, bool) {
			return base64Decode(translateAlphabet(data, base64URLAlphabet, base64StdAlphabet), garbage)
		}}
	case "base32hex":
		return &baseCodec{encode: stdEncoder(base32.HexEncoding), decode: func(data []byte, garbage bool) ([]byte, bool) {
			return base32Decode(translateAlphabet(data, base32HexAlphabet, base32StdAlphabet), garbage)
		}}
	case "base16":
		return &baseCodec{encode: func(data []byte) (string, bool) { return strings.ToUpper(hex.EncodeToString(data)), true },
			decode: groupDecoder(2, base16Group)}
	case "base2msbf", "base2lsbf":
		msb := option == "base2msbf"
		return &baseCodec{encode: func(data []byte) (string, bool) { return base2Encode(data, msb), true },
			decode: groupDecoder(8, func(g []byte) (byte, bool) { return base2Group(g, msb) })}
	case "z85":
		return &baseCodec{encode: z85Encode, decode: z85Decode}
	}
	return nil
}

const (
	base64StdAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	base64URLAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	base32StdAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	base32HexAlphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUV"
	z85Alphabet       = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#"
)

// translateAlphabet rewrites text in the alphabet from as the same digits
// in the alphabet to, so that one decoder serves both: a byte of to that
// from lacks becomes garbage ('!'); newlines, '=' and other bytes stay.
func translateAlphabet(data []byte, from, to string) []byte {
	var table [256]byte
	for i := range table {
		table[i] = byte(i)
	}
	for i := 0; i < len(to); i++ {
		table[to[i]] = '!'
	}
	for i := 0; i < len(from); i++ {
		table[from[i]] = to[i]
	}
	out := make([]byte, len(data))
	for i, c := range data {
		out[i] = table[c]
	}
	return out
}

// groupDecoder decodes groups of size characters into one byte each
// (base16, base2), skipping newlines; a byte outside the alphabet (unless
// ignored) or an incomplete last group ends decoding, after the bytes of
// the whole groups before it, as basenc does.
func groupDecoder(size int, group func([]byte) (byte, bool)) func([]byte, bool) ([]byte, bool) {
	return func(data []byte, garbage bool) ([]byte, bool) {
		out := make([]byte, 0, len(data)/size)
		var g []byte
		for _, c := range data {
			if c == '\n' {
				continue
			}
			g = append(g, c)
			if b, ok := group(g); !ok {
				if garbage {
					g = g[:len(g)-1]
					continue
				}
				return out, false
			} else if len(g) == size {
				out = append(out, b)
				g = g[:0]
			}
		}
		return out, len(g) == 0
	}
}

// base16Group checks the characters of a base16 pair so far and, once
// whole, returns its byte. Only upper-case digits are base16's.
func base16Group(g []byte) (byte, bool) {
	var v byte
	for _, c := range g {
		switch {
		case c >= '0' && c <= '9':
			v = v<<4 | (c - '0')
		case c >= 'A' && c <= 'F':
			v = v<<4 | (c - 'A' + 10)
		default:
			return 0, false
		}
	}
	return v, true
}

// base2Group is base16Group for eight bits, msb or lsb first.
func base2Group(g []byte, msb bool) (byte, bool) {
	var v byte
	for i, c := range g {
		if c != '0' && c != '1' {
			return 0, false
		}
		if msb {
			v |= (c - '0') << (7 - i)
		} else {
			v |= (c - '0') << i
		}
	}
	return v, true
}

// base2Encode spells every byte as eight bits.
func base2Encode(data []byte, msb bool) string {
	out := make([]byte, 0, 8*len(data))
	for _, b := range data {
		for i := range 8 {
			shift := i
			if msb {
				shift = 7 - i
			}
			out = append(out, '0'+(b>>shift)&1)
		}
	}
	return string(out)
}

// z85Encode spells each group of four bytes as five Z85 digits.
func z85Encode(data []byte) (string, bool) {
	if len(data)%4 != 0 {
		return "", false
	}
	out := make([]byte, 0, len(data)/4*5)
	for i := 0; i < len(data); i += 4 {
		v := uint32(data[i])<<24 | uint32(data[i+1])<<16 | uint32(data[i+2])<<8 | uint32(data[i+3])
		var d [5]byte
		for k := 4; k >= 0; k-- {
			d[k] = z85Alphabet[v%85]
			v /= 85
		}
		out = append(out, d[:]...)
	}
	return string(out), true
}

// z85Decode turns groups of five Z85 digits back into four bytes, with
// groupDecoder's rules for garbage and an incomplete group; a group worth
// more than 32 bits is invalid.
func z85Decode(data []byte, garbage bool) ([]byte, bool) {
	out := make([]byte, 0, len(data)/5*4)
	var g []byte
	for _, c := range data {
		if c == '\n' {
			continue
		}
		if strings.IndexByte(z85Alphabet, c) < 0 {
			if garbage {
				continue
			}
			return out, false
		}
		if g = append(g, c); len(g) < 5 {
			continue
		}
		var v uint64
		for _, d := range g {
			v = v*85 + uint64(strings.IndexByte(z85Alphabet, d))
		}
		if v > 0xffffffff {
			return out, false
		}
		out = append(out, byte(v>>24), byte(v>>16), byte(v>>8), byte(v))
		g = g[:0]
	}
	return out, len(g) == 0
}
