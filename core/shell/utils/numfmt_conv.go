package utils

import (
	"math/big"
	"strconv"
	"strings"
)

// numfmt's limits: digits a long double holds exactly, and digits read
// at all.
const (
	numfmtUnscaledDigits   = 18
	numfmtAcceptableDigits = 27
)

// convert turns one chosen field into its output. It also returns the
// field as numfmt prints it when it does not convert (without --suffix).
func (nf *numfmtRun) convert(text string, field int) (string, string, *numfmtError) {
	cfg := nf.cfg
	if cfg.suffix != "" && len(text) > len(cfg.suffix) && strings.HasSuffix(text, cfg.suffix) {
		text = text[:len(text)-len(cfg.suffix)]
	}
	p := 0
	for p < len(text) && (text[p] == ' ' || text[p] == '\t') {
		p++
	}
	padding := cfg.padding
	if cfg.autoPad {
		padding = 0
		if p > 0 || field > 1 {
			padding = len(text)
		}
	}
	val, precision, err := nf.parseHuman(text[p:])
	if err != nil {
		return "", text, err
	}
	if cfg.fromUnit.Cmp(nfNew(1)) != 0 || cfg.toUnit.Cmp(nfNew(1)) != 0 {
		val = nfQuo(nfMul(val, cfg.fromUnit), cfg.toUnit)
	}
	out, err := nf.prepare(val, precision, padding)
	if err != nil {
		return "", text, err
	}
	return out, text, nil
}

// parseHuman reads a number with an optional scale suffix, as numfmt's
// simple_strtod_human does, returning the value and the digits written
// after the point (0 when a suffix scaled it).
func (nf *numfmtRun) parseHuman(s string) (*big.Float, int, *numfmtError) {
	q := quoteLocale(s)
	val, precision, end, code := numfmtParseFloat(s)
	switch code {
	case "invalid":
		return nil, 0, &numfmtError{msg: "invalid number: " + q}
	case "overflow":
		return nil, 0, &numfmtError{msg: "value too large to be converted: " + q}
	}
	from := nf.cfg.from
	base, power := 1000.0, 0
	if from == "iec" || from == "iec-i" {
		base = 1024
	}
	if end < len(s) {
		for end < len(s) && (s[end] == ' ' || s[end] == '\t') {
			end++
		}
		if end >= len(s) || strings.IndexByte("KMGTPEZY", s[end]) < 0 {
			return nil, 0, &numfmtError{msg: "invalid suffix in input: " + q}
		}
		if from == "none" {
			return nil, 0, &numfmtError{msg: "rejecting suffix in input: " + q + " (consider using --from)"}
		}
		power = strings.IndexByte("KMGTPEZY", s[end]) + 1
		end++
		if from == "auto" && end < len(s) && s[end] == 'i' {
			base = 1024
			end++
		}
		precision = 0
	}
	if from == "iec-i" {
		if end < len(s) && s[end] == 'i' {
			end++
		} else {
			return nil, 0, &numfmtError{msg: "missing 'i' suffix in input: " + q + " (e.g Ki/Mi/Gi)"}
		}
	}
	if end < len(s) {
		return nil, 0, &numfmtError{msg: "invalid suffix in input " + q + ": " + quoteLocale(s[end:])}
	}
	return nfMul(val, nfPow(base, power)), precision, nil
}

// numfmtParseFloat reads [-]digits[.digits] as simple_strtod_float does.
// code is "", "invalid" or "overflow"; end is where the number stops.
func numfmtParseFloat(s string) (*big.Float, int, int, string) {
	val, neg, end, code := numfmtParseInt(s)
	if code != "" {
		return nil, 0, 0, code
	}
	precision := 0
	if end < len(s) && s[end] == '.' {
		frac, fneg, fend, fcode := numfmtParseInt(s[end+1:])
		if fcode != "" {
			return nil, 0, 0, fcode
		}
		if fneg {
			return nil, 0, 0, "invalid"
		}
		precision = fend
		frac = nfQuo(frac, nfPow(10, precision))
		if neg {
			val = nfAdd(val, new(big.Float).Neg(frac))
		} else {
			val = nfAdd(val, frac)
		}
		end += 1 + fend
	}
	return val, precision, end, ""
}

// numfmtParseInt reads [-]digits as simple_strtod_int does: no digits is
// invalid unless a point follows; more than 27 significant digits
// overflow.
func numfmtParseInt(s string) (*big.Float, bool, int, string) {
	i, neg := 0, false
	if i < len(s) && s[i] == '-' {
		i, neg = 1, true
	}
	val, ten := nfNew(0), nfNew(10)
	digits, found := 0, false
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		found = true
		d := s[i] - '0'
		if val.Sign() != 0 || d != 0 {
			digits++
		}
		if digits > numfmtAcceptableDigits {
			return nil, false, 0, "overflow"
		}
		val = nfAdd(nfMul(val, ten), nfNew(float64(d)))
	}
	if !found && !(i < len(s) && s[i] == '.') {
		return nil, false, 0, "invalid"
	}
	if neg {
		val.Neg(val)
	}
	return val, neg, i, ""
}

// prepare formats a converted value with the suffix, padding and the
// format's prefix and suffix, as prepare_padded_number does.
func (nf *numfmtRun) prepare(val *big.Float, precision, padding int) (string, *numfmtError) {
	cfg := nf.cfg
	used := precision
	if cfg.precision >= 0 {
		used = cfg.precision
	}
	_, x := nfExp(val, 10)
	f64, _ := val.Float64()
	g := strconv.FormatFloat(f64, 'g', 6, 64)
	if cfg.to == "none" && x+used > numfmtUnscaledDigits {
		if used > 0 {
			return "", &numfmtError{msg: "value/precision too large to be printed: '" + g + "/" + strconv.Itoa(used) + "' (consider using --to)"}
		}
		return "", &numfmtError{msg: "value too large to be printed: '" + g + "' (consider using --to)"}
	}
	if x > numfmtAcceptableDigits-1 {
		return "", &numfmtError{msg: "value too large to be printed: '" + g + "' (cannot handle values > 999Y)"}
	}
	human, ok := nf.human(val, used)
	if !ok {
		return "", &numfmtError{msg: "failed to prepare value '" + human + "' for printing", fatal: true}
	}
	buf := human + cfg.suffix
	if padding > 1<<16 && nf.t.env.Grow(int64(padding)) != nil {
		return "", &numfmtError{fatal: true}
	}
	if padding > 0 && len(buf) < padding {
		fill := strings.Repeat(" ", padding-len(buf))
		if cfg.left {
			buf += fill
		} else {
			buf = fill + buf
		}
	}
	return cfg.prefix + buf + cfg.fsuffix, nil
}

// human is double_to_human: the value rounded at its precision, or scaled
// to --to's unit with one decimal below 10. numfmt prints into a buffer
// of 128 bytes: a longer number is not printed (ok false, and the value
// as %Lf prints it, for the complaint).
func (nf *numfmtRun) human(val *big.Float, precision int) (string, bool) {
	cfg := nf.cfg
	if cfg.to == "none" {
		scale := nfPow(10, precision)
		v := nfQuo(numfmtRound(nfMul(val, scale), cfg.round), scale)
		if cfg.zeroPad >= 128 {
			return v.Text('f', 6), false
		}
		out := zeroPadNumber(v.Text('f', precision), cfg.zeroPad)
		return out, len(out) < 128
	}
	base := 1000.0
	if cfg.to != "si" {
		base = 1024
	}
	v, power := nfExp(val, base)
	adjust := 0
	if cfg.precision >= 0 {
		adjust = min(power*3, cfg.precision)
	} else if new(big.Float).Abs(v).Cmp(nfNew(10)) < 0 {
		adjust = 1
	}
	scale := nfPow(10, adjust)
	v = nfQuo(numfmtRound(nfMul(v, scale), cfg.round), scale)
	if new(big.Float).Abs(v).Cmp(nfNew(base)) >= 0 {
		v = nfQuo(v, nfNew(base))
		power++
	}
	prec := cfg.precision
	if prec < 0 {
		prec = 0
		if v.Sign() != 0 && new(big.Float).Abs(v).Cmp(nfNew(10)) < 0 && power > 0 {
			prec = 1
		}
	}
	if prec >= 127 || cfg.zeroPad >= 127 {
		return v.Text('f', 6), false
	}
	out := zeroPadNumber(v.Text('f', prec), cfg.zeroPad)
	if power > 0 {
		out += string("KMGTPEZY"[power-1])
	}
	if len(out) >= 127 {
		return v.Text('f', 6), false
	}
	if power > 0 && cfg.to == "iec-i" {
		out += "i"
	}
	return out, true
}

// numfmtRound rounds to an integer by --round's method; the result is
// never a negative zero, as numfmt's goes through an integer.
func numfmtRound(v *big.Float, method string) *big.Float {
	if method == "nearest" {
		half := nfNew(0.5)
		if v.Sign() < 0 {
			half.Neg(half)
		}
		v = nfAdd(v, half)
		method = "towards-zero"
	}
	i, _ := v.Int(nil)
	fi := new(big.Float).SetInt(i)
	up := method == "up" || method == "from-zero" && v.Sign() > 0
	down := method == "down" || method == "from-zero" && v.Sign() < 0
	if up && fi.Cmp(v) < 0 {
		i.Add(i, big.NewInt(1))
	} else if down && fi.Cmp(v) > 0 {
		i.Sub(i, big.NewInt(1))
	}
	return new(big.Float).SetPrec(numfmtPrec).SetInt(i)
}
