package utils

import (
	"bytes"
	"hash/maphash"
	"math"
	"strconv"
	"strings"
)

// sortKey is one -k field specification (or the whole line when none is
// given), with its ordering options. Fields and characters are 0-based.
type sortKey struct {
	startField, startChar int
	endField, endChar     int // endField < 0: to the end of the line; endChar 0: end of field
	skipStartBlanks       bool
	skipEndBlanks         bool
	sortKeyOrder
}

// sortKeyOrder holds the ordering options a key (or the command line) has.
type sortKeyOrder struct {
	numeric, general, human, month, version, random bool
	fold, dictionary, printable, reverse            bool
}

func (o sortKeyOrder) isZero() bool { return o == sortKeyOrder{} }

// applyOrderLetters sets ordering options from letters like "nr".
func (o *sortKeyOrder) applyOrderLetters(letters string, startBlank, endBlank *bool) bool {
	for _, c := range letters {
		switch c {
		case 'b':
			if startBlank != nil {
				*startBlank = true
			}
			if endBlank != nil {
				*endBlank = true
			}
		case 'd':
			o.dictionary = true
		case 'f':
			o.fold = true
		case 'g':
			o.general = true
		case 'h':
			o.human = true
		case 'i':
			o.printable = true
		case 'M':
			o.month = true
		case 'n':
			o.numeric = true
		case 'R':
			o.random = true
		case 'r':
			o.reverse = true
		case 'V':
			o.version = true
		default:
			return false
		}
	}
	return true
}

// incompatible names the key's options when they clash, as "sort:
// options '-gn' are incompatible" does, or returns "".
func (o sortKeyOrder) incompatible(blanks bool) string {
	kinds := boolInt(o.numeric) + boolInt(o.general) + boolInt(o.human) + boolInt(o.month) +
		boolInt(o.version || o.random || o.dictionary || o.printable)
	if kinds <= 1 {
		return ""
	}
	var b strings.Builder
	for _, opt := range []struct {
		on bool
		c  byte
	}{{blanks, 'b'}, {o.dictionary, 'd'}, {o.fold, 'f'}, {o.general, 'g'}, {o.human, 'h'}, {o.printable, 'i'},
		{o.month, 'M'}, {o.numeric, 'n'}, {o.random, 'R'}, {o.reverse, 'r'}, {o.version, 'V'}} {
		if opt.on {
			b.WriteByte(opt.c)
		}
	}
	return b.String()
}

// parseSortKey reads a -k argument. The error text follows GNU sort.
func parseSortKey(spec string) (*sortKey, string) {
	k := &sortKey{endField: -1}
	bad := func(why string) (*sortKey, string) {
		return nil, why + ": invalid field specification " + quoteAlways(spec)
	}
	s := spec
	num := func(what string) (int, bool) {
		i := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == 0 {
			return 0, false
		}
		n, err := strconv.Atoi(s[:i])
		if err != nil {
			n = math.MaxInt32
		}
		s = s[i:]
		return n, true
	}
	n, ok := num("field start")
	if !ok {
		return nil, "invalid number at field start: invalid count at start of " + quoteAlways(spec)
	}
	if n == 0 {
		return bad("field number is zero")
	}
	k.startField = n - 1
	if strings.HasPrefix(s, ".") {
		s = s[1:]
		c, ok := num("after '.'")
		if !ok {
			return nil, "invalid number after '.': invalid count at start of " + quoteAlways(s)
		}
		if c == 0 {
			return bad("character offset is zero")
		}
		k.startChar = c - 1
	}
	end := strings.IndexByte(s, ',')
	letters := s
	if end >= 0 {
		letters = s[:end]
	}
	if !k.sortKeyOrder.applyOrderLetters(letters, &k.skipStartBlanks, nil) {
		return bad("invalid field specification")
	}
	if end < 0 {
		return k, ""
	}
	s = s[end+1:]
	n, ok = num("after ','")
	if !ok {
		return nil, "invalid number after ',': invalid count at start of " + quoteAlways(s)
	}
	if n == 0 {
		return bad("field number is zero")
	}
	k.endField = n - 1
	if strings.HasPrefix(s, ".") {
		s = s[1:]
		c, ok := num("after '.'")
		if !ok {
			return nil, "invalid number after '.': invalid count at start of " + quoteAlways(s)
		}
		k.endChar = c
	}
	if !k.sortKeyOrder.applyOrderLetters(s, nil, &k.skipEndBlanks) {
		return bad("invalid field specification")
	}
	return k, ""
}

func isSortBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' }

// field returns the bytes of line a key covers.
func (k *sortKey) field(line []byte, tab int) []byte {
	lim := len(line)
	// Start: skip startField fields, then blanks (b), then startChar.
	ptr := 0
	for n := k.startField; ptr < lim && n > 0; n-- {
		if tab >= 0 {
			for ptr < lim && line[ptr] != byte(tab) {
				ptr++
			}
			if ptr < lim {
				ptr++
			}
		} else {
			for ptr < lim && isSortBlank(line[ptr]) {
				ptr++
			}
			for ptr < lim && !isSortBlank(line[ptr]) {
				ptr++
			}
		}
	}
	if k.skipStartBlanks {
		for ptr < lim && isSortBlank(line[ptr]) {
			ptr++
		}
	}
	start := min(lim, ptr+k.startChar)
	end := lim
	if k.endField >= 0 {
		end = k.limit(line, tab)
	}
	if end < start {
		end = start
	}
	return line[start:end]
}

// limit is where a key with an end position stops (GNU's limfield).
func (k *sortKey) limit(line []byte, tab int) int {
	lim := len(line)
	ptr := 0
	eword, echar := k.endField, k.endChar
	if echar == 0 {
		eword++
	}
	for ; ptr < lim && eword > 0; eword-- {
		if tab >= 0 {
			for ptr < lim && line[ptr] != byte(tab) {
				ptr++
			}
			if ptr < lim && (eword > 1 || echar != 0) {
				ptr++
			}
		} else {
			for ptr < lim && isSortBlank(line[ptr]) {
				ptr++
			}
			for ptr < lim && !isSortBlank(line[ptr]) {
				ptr++
			}
		}
	}
	if echar != 0 {
		if k.skipEndBlanks {
			for ptr < lim && isSortBlank(line[ptr]) {
				ptr++
			}
		}
		ptr = min(lim, ptr+echar)
	}
	return ptr
}

// randomSeed makes -R differ between runs while keeping equal keys
// together.
var randomSeed = maphash.MakeSeed()

// compareField orders two key fields under the key's options.
func (o sortKeyOrder) compareField(a, b []byte) int {
	var c int
	switch {
	case o.numeric:
		c = compareNumeric(a, b)
	case o.general:
		c = compareGeneral(a, b)
	case o.human:
		c = compareHuman(a, b)
	case o.month:
		c = monthOf(a) - monthOf(b)
	case o.version:
		c = compareVersion(a, b)
	case o.random:
		ha, hb := maphash.Bytes(randomSeed, o.translate(a)), maphash.Bytes(randomSeed, o.translate(b))
		switch {
		case ha < hb:
			c = -1
		case ha > hb:
			c = 1
		}
	case o.fold || o.dictionary || o.printable:
		c = bytes.Compare(o.translate(a), o.translate(b))
	default:
		c = bytes.Compare(a, b)
	}
	if o.reverse {
		c = -c
	}
	return c
}

// translate applies -f, -d and -i to a field.
func (o sortKeyOrder) translate(s []byte) []byte {
	if !o.fold && !o.dictionary && !o.printable {
		return s
	}
	out := make([]byte, 0, len(s))
	for _, c := range s {
		if o.dictionary && !(c == ' ' || c == '\t' || isWordByte(c) && c != '_') {
			continue
		}
		if o.printable && (c < 0x20 || c >= 0x7f) {
			continue
		}
		if o.fold && c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		out = append(out, c)
	}
	return out
}

// splitNumber reads the leading number of s as GNU sort -n does: blanks,
// an optional minus, digits, a decimal point and digits. Leading integer
// zeros and trailing fraction zeros are dropped.
func splitNumber(s []byte) (neg bool, intPart, frac []byte, rest []byte) {
	i := 0
	for i < len(s) && isSortBlank(s[i]) {
		i++
	}
	if i < len(s) && s[i] == '-' {
		neg = true
		i++
	}
	j := i
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	intPart = bytes.TrimLeft(s[i:j], "0")
	if j < len(s) && s[j] == '.' {
		k := j + 1
		for k < len(s) && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		frac = bytes.TrimRight(s[j+1:k], "0")
		j = k
	}
	if len(intPart) == 0 && len(frac) == 0 {
		neg = false // -0 is 0
	}
	return neg, intPart, frac, s[j:]
}

func compareNumeric(a, b []byte) int {
	na, ia, fa, _ := splitNumber(a)
	nb, ib, fb, _ := splitNumber(b)
	if na != nb {
		if na {
			return -1
		}
		return 1
	}
	c := compareMagnitude(ia, fa, ib, fb)
	if na {
		return -c
	}
	return c
}

func compareMagnitude(ia, fa, ib, fb []byte) int {
	if len(ia) != len(ib) {
		if len(ia) < len(ib) {
			return -1
		}
		return 1
	}
	if c := bytes.Compare(ia, ib); c != 0 {
		return c
	}
	return bytes.Compare(fa, fb)
}

const humanSuffixes = "KMGTPEZYRQ"

func compareHuman(a, b []byte) int {
	na, ia, fa, ra := splitNumber(a)
	nb, ib, fb, rb := splitNumber(b)
	sign := func(neg bool, i, f []byte) int {
		switch {
		case len(i) == 0 && len(f) == 0:
			return 0
		case neg:
			return -1
		}
		return 1
	}
	sa, sb := sign(na, ia, fa), sign(nb, ib, fb)
	if sa != sb {
		return sa - sb
	}
	ua, ub := suffixRank(ra), suffixRank(rb)
	if ua != ub {
		if sa < 0 {
			return ub - ua
		}
		return ua - ub
	}
	c := compareMagnitude(ia, fa, ib, fb)
	if sa < 0 {
		return -c
	}
	return c
}

func suffixRank(rest []byte) int {
	if len(rest) == 0 {
		return 0
	}
	c := rest[0]
	if c == 'k' {
		c = 'K'
	}
	return strings.IndexByte(humanSuffixes, c) + 1
}

// compareGeneral is -g: floating point, with non-numbers first and NaN
// before every number.
func compareGeneral(a, b []byte) int {
	fa, oka := parseFloatPrefix(a)
	fb, okb := parseFloatPrefix(b)
	switch {
	case !oka || !okb:
		return boolInt(oka) - boolInt(okb)
	case math.IsNaN(fa) || math.IsNaN(fb):
		return boolInt(!math.IsNaN(fa)) - boolInt(!math.IsNaN(fb))
	case fa < fb:
		return -1
	case fa > fb:
		return 1
	}
	return 0
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// parseFloatPrefix reads the longest prefix of s that is a float, as
// strtod would.
func parseFloatPrefix(s []byte) (float64, bool) {
	t := strings.TrimLeft(string(s), " \t\n")
	for end := len(t); end > 0; end-- {
		if f, err := strconv.ParseFloat(t[:end], 64); err == nil || isRangeErr(err) {
			return f, true
		}
	}
	return 0, false
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

var monthNames = []string{"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"}

func monthOf(s []byte) int {
	t := strings.TrimLeft(string(s), " \t\n")
	if len(t) < 3 {
		return 0
	}
	up := strings.ToUpper(t[:3])
	for i, m := range monthNames {
		if up == m {
			return i + 1
		}
	}
	return 0
}

// compareVersion orders names with embedded numbers naturally (file-2
// before file-10), a close cousin of GNU's filevercmp.
func compareVersion(a, b []byte) int {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		ca, cb := a[i], b[j]
		if isDigit(ca) && isDigit(cb) {
			si, sj := i, j
			for i < len(a) && isDigit(a[i]) {
				i++
			}
			for j < len(b) && isDigit(b[j]) {
				j++
			}
			na, nb := bytes.TrimLeft(a[si:i], "0"), bytes.TrimLeft(b[sj:j], "0")
			if c := compareMagnitude(na, nil, nb, nil); c != 0 {
				return c
			}
			continue
		}
		if ca != cb {
			return versionRank(ca) - versionRank(cb)
		}
		i++
		j++
	}
	return (len(a) - i) - (len(b) - j)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// versionRank puts '~' first and letters before other characters.
func versionRank(c byte) int {
	switch {
	case c == '~':
		return -1
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		return int(c)
	}
	return int(c) + 256
}
