package utils

import (
	"io"
	"strconv"
	"strings"

	"gatehouse/internal/lazy"
)

const trHelp = `Usage: tr [OPTION]... STRING1 [STRING2]
Translate, squeeze, and/or delete characters from standard input,
writing to standard output.  STRING1 and STRING2 specify arrays of
characters ARRAY1 and ARRAY2 that control the action.

  -c, -C, --complement    use the complement of ARRAY1
  -d, --delete            delete characters in ARRAY1, do not translate
  -s, --squeeze-repeats   replace each sequence of a repeated character
                            that is listed in the last specified ARRAY,
                            with a single occurrence of that character
  -t, --truncate-set1     first truncate ARRAY1 to length of ARRAY2
      --help        display this help and exit
      --version     output version information and exit

ARRAYs are specified as strings of characters.  Most represent themselves.
Interpreted sequences are:

  \NNN            character with octal value NNN (1 to 3 octal digits)
  \\              backslash
  \a              audible BEL
  \b              backspace
  \f              form feed
  \n              new line
  \r              return
  \t              horizontal tab
  \v              vertical tab
  CHAR1-CHAR2     all characters from CHAR1 to CHAR2 in ascending order
  [CHAR*]         in ARRAY2, copies of CHAR until length of ARRAY1
  [CHAR*REPEAT]   REPEAT copies of CHAR, REPEAT octal if starting with 0
  [:alnum:]       all letters and digits
  [:alpha:]       all letters
  [:blank:]       all horizontal whitespace
  [:cntrl:]       all control characters
  [:digit:]       all digits
  [:graph:]       all printable characters, not including space
  [:lower:]       all lower case letters
  [:print:]       all printable characters, including space
  [:punct:]       all punctuation characters
  [:space:]       all horizontal or vertical whitespace
  [:upper:]       all upper case letters
  [:xdigit:]      all hexadecimal digits
  [=CHAR=]        all characters which are equivalent to CHAR

Translation occurs if -d is not given and both STRING1 and STRING2 appear.
-t may be used only when translating.  ARRAY2 is extended to length of
ARRAY1 by repeating its last character as necessary.  Excess characters
of ARRAY2 are ignored.  Character classes expand in unspecified order;
while translating, [:lower:] and [:upper:] may be used in pairs to
specify case conversion.  Squeezing occurs after translation or deletion.
`

var trOpts = []optDef{
	{short: 'c', long: "complement"},
	{short: 'C'},
	{short: 'd', long: "delete"},
	{short: 's', long: "squeeze-repeats"},
	{short: 't', long: "truncate-set1"},
}

// trUtility makes the tr utility (see builtins). tr reads only standard
// input: it has no path operands.
func trUtility(string) *Utility {
	return &Utility{Name: "tr", Keeps: KeepsNothing, Run: runTr, OperandExit: 1, Help: trHelp}
}

// trSet is one parsed STRING: its characters in order, and where a
// [c*] fill (allowed in STRING2 only) goes.
type trSet struct {
	chars     []byte
	fillAt    int // index in chars where the fill is inserted, -1 if none
	fillChar  byte
	hasClass  bool   // a class other than upper/lower appears
	caseClass string // "upper" or "lower" when that class appears
}

func runTr(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "tr", defs: trOpts, usageExit: 1, help: trHelp})
	if done {
		return status, nil
	}
	var complement, del, squeeze, truncate bool
	for _, o := range args.opts {
		switch o.name {
		case "complement", "C":
			complement = true
		case "delete":
			del = true
		case "squeeze-repeats":
			squeeze = true
		case "truncate-set1":
			truncate = true
		}
	}
	ops := args.operandStrings(e.Args)
	translating := !del && len(ops) >= 2
	switch {
	case len(ops) == 0:
		return t.end(t.usage("missing operand"))
	case len(ops) == 1 && !del && !squeeze:
		return t.end(t.usage("missing operand after " + quoteAlways(ops[0]) + "\nTwo strings must be given when translating."))
	case len(ops) == 1 && del && squeeze:
		return t.end(t.usage("missing operand after " + quoteAlways(ops[0]) + "\nTwo strings must be given when both deleting and squeezing repeats."))
	case len(ops) > 2:
		return t.end(t.usage("extra operand " + quoteAlways(ops[2])))
	case len(ops) == 2 && del && !squeeze:
		return t.end(t.usage("extra operand " + quoteAlways(ops[1]) + "\nOnly one string may be given when deleting without squeezing repeats."))
	}
	set1, msg := trParse(t, ops[0], false)
	if msg != "" {
		t.warn(msg)
		return t.end(1)
	}
	var set2 *trSet
	if len(ops) == 2 {
		set2, msg = trParse(t, ops[1], true)
		if msg != "" {
			t.warn(msg)
			return t.end(1)
		}
	}
	chars1 := set1.chars
	if complement {
		chars1 = trComplement(chars1)
	}
	var table [256]int // translation: -1 keeps the byte
	var inDelete, inSqueeze [256]bool
	for i := range table {
		table[i] = -1
	}
	switch {
	case translating:
		if set2.hasClass {
			t.warn("when translating, the only character classes that may appear in\nstring2 are 'upper' and 'lower'")
			return t.end(1)
		}
		if truncate && len(chars1) > len(set2.chars) && set2.fillAt < 0 {
			chars1 = chars1[:len(set2.chars)]
		}
		chars2 := set2.expand(len(chars1))
		if len(chars2) == 0 && len(chars1) > 0 {
			t.warn("when not truncating set1, string2 must be non-empty")
			return t.end(1)
		}
		for len(chars2) < len(chars1) {
			chars2 = append(chars2, chars2[len(chars2)-1])
		}
		for i, c := range chars1 {
			table[c] = int(chars2[i])
		}
		if squeeze {
			for _, c := range chars2 {
				inSqueeze[c] = true
			}
		}
	case del:
		for _, c := range chars1 {
			inDelete[c] = true
		}
		if squeeze {
			for _, c := range set2.expand(0) {
				inSqueeze[c] = true
			}
		}
	default: // squeeze only
		for _, c := range chars1 {
			inSqueeze[c] = true
		}
	}
	return t.end(trStream(t, &table, &inDelete, &inSqueeze))
}

// trStream filters stdin through the tables.
func trStream(t *tool, table *[256]int, inDelete, inSqueeze *[256]bool) int {
	in := t.stdin()
	buf := make([]byte, 32*1024)
	out := make([]byte, 0, 32*1024)
	last := -1
	for {
		if t.ctx.Err() != nil {
			return 1
		}
		n, err := in.Read(buf)
		out = out[:0]
		for _, c := range buf[:n] {
			if inDelete[c] {
				continue
			}
			if m := table[c]; m >= 0 {
				c = byte(m)
			}
			if inSqueeze[c] && last == int(c) {
				continue
			}
			last = int(c)
			out = append(out, c)
		}
		if len(out) > 0 && !t.write(out) {
			return 1
		}
		if err == io.EOF {
			return 0
		}
		if err != nil {
			t.warn("read error: " + errText(err))
			return 1
		}
	}
}

// trComplement lists every byte not in chars, ascending.
func trComplement(chars []byte) []byte {
	var in [256]bool
	for _, c := range chars {
		in[c] = true
	}
	var out []byte
	for c := 0; c < 256; c++ {
		if !in[c] {
			out = append(out, byte(c))
		}
	}
	return out
}

// expand returns the set's characters with its [c*] fill sized so the
// whole reaches length want.
func (s *trSet) expand(want int) []byte {
	if s.fillAt < 0 {
		return s.chars
	}
	n := max(want-len(s.chars), 0)
	out := make([]byte, 0, len(s.chars)+n)
	out = append(out, s.chars[:s.fillAt]...)
	for range n {
		out = append(out, s.fillChar)
	}
	return append(out, s.chars[s.fillAt:]...)
}

// trClasses are the C locale's members of each class, ascending.
var trClasses = lazy.Value[map[string]func(c byte) bool]{New: func() map[string]func(c byte) bool {
	return map[string]func(c byte) bool{
		"alnum":  func(c byte) bool { return trIsAlpha(c) || trIsDigit(c) },
		"alpha":  trIsAlpha,
		"blank":  func(c byte) bool { return c == ' ' || c == '\t' },
		"cntrl":  func(c byte) bool { return c < 0x20 || c == 0x7f },
		"digit":  trIsDigit,
		"graph":  func(c byte) bool { return c > 0x20 && c < 0x7f },
		"lower":  func(c byte) bool { return c >= 'a' && c <= 'z' },
		"print":  func(c byte) bool { return c >= 0x20 && c < 0x7f },
		"punct":  func(c byte) bool { return c > 0x20 && c < 0x7f && !trIsAlpha(c) && !trIsDigit(c) },
		"space":  func(c byte) bool { return c == ' ' || (c >= '\t' && c <= '\r') },
		"upper":  func(c byte) bool { return c >= 'A' && c <= 'Z' },
		"xdigit": func(c byte) bool { return trIsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') },
	}
}}

func trIsAlpha(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }
func trIsDigit(c byte) bool { return c >= '0' && c <= '9' }

// trParse parses a STRING; msg is GNU's complaint when it is invalid.
func trParse(t *tool, s string, second bool) (*trSet, string) {
	set := &trSet{fillAt: -1}
	// First resolve backslash escapes, remembering which bytes were
	// escaped: an escaped '[' or '-' is never an operator.
	var raw []byte
	var escaped []bool
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			raw, escaped = append(raw, c), append(escaped, false)
			continue
		}
		if i+1 >= len(s) {
			t.warn("warning: an unescaped backslash at end of string is not portable")
			raw, escaped = append(raw, '\\'), append(escaped, true)
			continue
		}
		i++
		d := s[i]
		switch {
		case d >= '0' && d <= '7':
			v := 0
			k := 0
			for k < 3 && i < len(s) && s[i] >= '0' && s[i] <= '7' && v*8+int(s[i]-'0') <= 0o377 {
				v = v*8 + int(s[i]-'0')
				i++
				k++
			}
			i--
			raw = append(raw, byte(v))
		default:
			raw = append(raw, trEscape(d))
		}
		escaped = append(escaped, true)
	}
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c == '[' && !escaped[i] {
			if n, msg, ok := set.bracket(raw, escaped, i, second); ok {
				if msg != "" {
					return nil, msg
				}
				i = n
				continue
			}
		}
		if i+2 < len(raw) && raw[i+1] == '-' && !escaped[i+1] {
			hi := raw[i+2]
			if hi < c {
				return nil, "range-endpoints of '" + trShow(c) + "-" + trShow(hi) + "' are in reverse collating sequence order"
			}
			for x := int(c); x <= int(hi); x++ {
				set.chars = append(set.chars, byte(x))
			}
			i += 2
			continue
		}
		set.chars = append(set.chars, c)
	}
	return set, ""
}

// trShow spells a range endpoint in a message.
func trShow(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return string(c)
	}
	return "\\" + strconv.FormatInt(int64(c), 8)
}

func trEscape(d byte) byte {
	switch d {
	case 'a':
		return '\a'
	case 'b':
		return '\b'
	case 'f':
		return '\f'
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	case 'v':
		return '\v'
	}
	return d
}

// bracket parses [:class:], [=c=] or [c*n] starting at raw[i]; ok is
// false when the '[' is an ordinary character.
func (set *trSet) bracket(raw []byte, escaped []bool, i int, second bool) (end int, msg string, ok bool) {
	rest := string(raw[i:])
	switch {
	case strings.HasPrefix(rest, "[:"):
		j := strings.Index(rest[2:], ":]")
		if j < 0 {
			return 0, "", false
		}
		name := rest[2 : 2+j]
		member, known := trClasses.Get()[name]
		if !known {
			return 0, "invalid character class " + quoteAlways(name), true
		}
		if name == "upper" || name == "lower" {
			set.caseClass = name
		} else if second {
			set.hasClass = true
		}
		for c := 0; c < 256; c++ {
			if member(byte(c)) {
				set.chars = append(set.chars, byte(c))
			}
		}
		return i + 2 + j + 1, "", true
	case strings.HasPrefix(rest, "[=") && len(rest) >= 5 && rest[3:5] == "=]":
		set.chars = append(set.chars, rest[2])
		return i + 4, "", true
	case len(rest) >= 4 && rest[2] == '*' && !escaped[i+2]:
		j := strings.IndexByte(rest[3:], ']')
		if j < 0 {
			return 0, "", false
		}
		count := rest[3 : 3+j]
		c := rest[1]
		if count == "" {
			if !second {
				return 0, "the [c*] repeat construct may not appear in string1", true
			}
			set.fillAt, set.fillChar = len(set.chars), c
			return i + 3 + j, "", true
		}
		base := 10
		if count[0] == '0' {
			base = 8
		}
		n, err := strconv.ParseInt(count, base, 32)
		if err != nil {
			return 0, "invalid repeat count " + quoteAlways(count) + " in [c*n] construct", true
		}
		if n == 0 {
			if !second {
				return 0, "the [c*] repeat construct may not appear in string1", true
			}
			set.fillAt, set.fillChar = len(set.chars), c
			return i + 3 + j, "", true
		}
		for range n {
			set.chars = append(set.chars, c)
		}
		return i + 3 + j, "", true
	}
	return 0, "", false
}
