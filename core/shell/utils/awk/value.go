package awk

import (
	"math"
	"strconv"
	"strings"
)

// kind says what an awk value is. Input-derived strings (fields, getline
// results, ARGV, ENVIRON, -v values, split elements) are kMaybe: strings
// that compare as numbers when they look numeric (POSIX "strnum").
type kind uint8

const (
	kUninit kind = iota // never assigned: "" and 0, compares as strnum
	kNum
	kStr
	kMaybe
)

// value is one awk scalar. Strings are immutable, so values copy cheaply.
type value struct {
	s string
	n float64
	k kind
}

func num(n float64) value  { return value{n: n, k: kNum} }
func str(s string) value   { return value{s: s, k: kStr} }
func maybe(s string) value { return value{s: s, k: kMaybe} }
func boolean(b bool) value {
	if b {
		return value{n: 1, k: kNum}
	}
	return value{k: kNum}
}

// isTrue is awk's truth: a number (or numeric-looking input) is true when
// non-zero, a string when non-empty.
func (v value) isTrue() bool {
	switch v.k {
	case kNum:
		return v.n != 0
	case kStr:
		return v.s != ""
	case kMaybe:
		if n, ok := looksNumeric(v.s); ok {
			return n != 0
		}
		return v.s != ""
	}
	return false
}

// toNum converts as strtod does on the string's longest numeric prefix.
func (v value) toNum() float64 {
	switch v.k {
	case kNum:
		return v.n
	case kStr, kMaybe:
		return strToNum(v.s)
	}
	return 0
}

// fastInt parses a plain decimal integer, the common case of input fields.
func fastInt(s string) (float64, bool) {
	if len(s) == 0 || len(s) > 15 {
		return 0, false
	}
	i, neg := 0, false
	if s[0] == '-' {
		neg, i = true, 1
		if len(s) == 1 {
			return 0, false
		}
	}
	var n int64
	for ; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return float64(n), true
}

// strToNum reads the longest numeric prefix after leading blanks; "+inf",
// "-nan" and friends count only with a sign, as in gawk.
func strToNum(s string) float64 {
	if n, ok := fastInt(s); ok {
		return n
	}
	end, i := numericPrefix(s)
	if end == 0 {
		return specialNum(s[i:])
	}
	f, err := strconv.ParseFloat(s[i:end], 64)
	if err != nil {
		// Out of range: ParseFloat gives ±Inf with an error, as strtod.
		return f
	}
	return f
}

// numericPrefix returns the end of the numeric prefix of s (0 when there is
// none) and where it starts after leading blanks.
func numericPrefix(s string) (end, start int) {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	start = i
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		return 0, start
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && s[j] >= '0' && s[j] <= '9' {
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			i = j
		}
	}
	return i, start
}

// specialNum reads gawk's signed "+inf"/"-nan" spellings.
func specialNum(s string) float64 {
	if len(s) < 4 || (s[0] != '+' && s[0] != '-') {
		return 0
	}
	word := strings.ToLower(s[1:4])
	switch {
	case word == "inf":
		if s[0] == '-' {
			return math.Inf(-1)
		}
		return math.Inf(1)
	case word == "nan":
		if s[0] == '-' {
			return math.Copysign(math.NaN(), -1)
		}
		return math.NaN()
	}
	return 0
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// looksNumeric reports whether the whole string (blanks around allowed) is
// a number, and its value: the test that makes input a strnum.
func looksNumeric(s string) (float64, bool) {
	if n, ok := fastInt(s); ok {
		return n, true
	}
	end, start := numericPrefix(s)
	if end == 0 {
		t := strings.TrimRight(s[start:], " \t\n\r\f\v")
		if len(t) == 4 && specialNum(t) != 0 || len(t) == 4 && math.IsNaN(specialNum(t)) {
			return specialNum(t), true
		}
		return 0, false
	}
	for i := end; i < len(s); i++ {
		if !isSpace(s[i]) {
			return 0, false
		}
	}
	f, _ := strconv.ParseFloat(s[start:end], 64)
	return f, true
}

// numToString formats a number as awk does: integral values as integers,
// others through format (CONVFMT or OFMT).
func numToString(n float64, format string) string {
	if n == math.Trunc(n) {
		if n >= -1e15 && n <= 1e15 {
			return strconv.FormatInt(int64(n), 10)
		}
		if math.IsInf(n, 0) {
			return specialString(n)
		}
		return strconv.FormatFloat(n, 'f', 0, 64)
	}
	if math.IsNaN(n) {
		return specialString(n)
	}
	if format == "%.6g" {
		return formatG(n, 6, false, false)
	}
	return sprintfNum(format, n)
}

// specialString spells infinities and NaNs as gawk does: always signed.
func specialString(n float64) string {
	switch {
	case math.IsInf(n, 1):
		return "+inf"
	case math.IsInf(n, -1):
		return "-inf"
	case math.Signbit(n):
		return "-nan"
	}
	return "+nan"
}
