package utils

import (
	"errors"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // zone names work on hosts without zone files, the same everywhere
)

const dateHelp = `Usage: date [OPTION]... [+FORMAT]
Display the current time in the given FORMAT.

  -d, --date=STRING          display time described by STRING, not 'now'
  -I[FMT], --iso-8601[=FMT]  output date/time in ISO 8601 format.
                               FMT='date' for date only (the default),
                               'hours', 'minutes', 'seconds', or 'ns'
                               for date and time to the indicated precision.
  -R, --rfc-email            output date and time in RFC 5322 format.
      --rfc-3339=FMT         output date/time in RFC 3339 format.
                               FMT='date', 'seconds', or 'ns'
  -r, --reference=FILE       display the last modification time of FILE
  -s, --set=STRING           set time described by STRING (always refused)
  -u, --utc, --universal     print or set Coordinated Universal Time (UTC)
      --help        display this help and exit
      --version     output version information and exit

FORMAT controls the output.  Interpreted sequences are:
  %%   a literal %          %a   abbreviated weekday    %A   full weekday
  %b   abbreviated month    %B   full month             %c   date and time
  %C   century              %d   day of month           %D   %m/%d/%y
  %e   day, space padded    %F   %Y-%m-%d               %g/%G ISO year
  %H   hour (00..23)        %I   hour (01..12)          %j   day of year
  %k   hour, space padded   %l   12-hour, space padded  %m   month
  %M   minute               %n   newline                %N   nanoseconds
  %p   AM or PM             %P   am or pm               %q   quarter
  %r   12-hour time         %R   %H:%M                  %s   seconds since epoch
  %S   second               %t   tab                    %T   %H:%M:%S
  %u   day of week (1..7)   %U   week (Sunday first)    %V   ISO week
  %w   day of week (0..6)   %W   week (Monday first)    %x   %m/%d/%y
  %X   %H:%M:%S             %y   year (00..99)          %Y   year
  %z   +hhmm zone           %:z  +hh:mm zone            %Z   zone abbreviation
Flags after %: - (no padding), _ (spaces), 0 (zeros), ^ (upper case),
# (opposite case), then an optional field width.

Time zones: the host's zone files are never read. The zone is UTC unless
TZ holds a fixed POSIX offset such as UTC0, EST5, JST-9 or <+0530>-5:30.
`

var dateOpts = []optDef{
	{short: 'd', long: "date", arg: needArg},
	{short: 'f', long: "file", arg: needArg},
	{short: 'I', long: "iso-8601", arg: maybeArg},
	{short: 'R', long: "rfc-email"},
	{long: "rfc-3339", arg: needArg},
	{short: 'r', long: "reference", arg: needArg},
	{short: 's', long: "set", arg: needArg},
	{short: 'u', long: "utc"},
	{long: "universal"},
}

// dateUtility makes the date utility (see builtins).
func dateUtility(string) *Utility {
	return &Utility{
		Name:        "date",
		Run:         runDate,
		Operands:    dateOperands,
		OperandExit: 1,
		Voice:       func(arg, msg string) string { return "date: " + arg + ": " + msg + "\n" },
		Help:        dateHelp,
	}
}

// dateOperands: only -r FILE names a path.
func dateOperands(argv []string) []OperandRef {
	args, err := parseArgs(argv, dateOpts, parseMode{})
	if err != nil {
		return nil
	}
	var refs []OperandRef
	for _, o := range args.opts {
		if o.name == "reference" {
			refs = append(refs, optionOperand(o, Read))
		}
	}
	return refs
}

func runDate(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "date", defs: dateOpts, usageExit: 1, help: dateHelp})
	if done {
		return status, nil
	}
	loc := dateZone(e.Getenv("TZ"))
	now := time.Now()
	when := now
	format := "%a %b %e %H:%M:%S %Z %Y"
	var dateArg, refFile string
	hasDate, hasRef := false, false
	for _, o := range args.opts {
		switch o.name {
		case "date":
			dateArg, hasDate = o.value, true
		case "reference":
			refFile, hasRef = o.value, true
		case "utc", "universal":
			loc = time.UTC
		case "rfc-email":
			format = "%a, %d %b %Y %H:%M:%S %z"
		case "iso-8601":
			f, ok := dateISOFormat(o.value)
			if !ok {
				return t.end(t.usage("invalid argument " + quoteAlways(o.value) + " for '--iso-8601'\nValid arguments are:\n  - 'hours'\n  - 'minutes'\n  - 'date'\n  - 'seconds'\n  - 'ns'"))
			}
			format = f
		case "rfc-3339":
			switch o.value {
			case "date":
				format = "%Y-%m-%d"
			case "seconds":
				format = "%Y-%m-%d %H:%M:%S%:z"
			case "ns":
				format = "%Y-%m-%d %H:%M:%S.%N%:z"
			default:
				return t.end(t.usage("invalid argument " + quoteAlways(o.value) + " for '--rfc-3339'\nValid arguments are:\n  - 'date'\n  - 'seconds'\n  - 'ns'"))
			}
		case "set":
			t.warn("cannot set date: Operation not permitted")
			return t.end(1)
		case "file":
			t.warn("the --file option is not supported")
			return t.end(1)
		}
	}
	ops := args.operandStrings(e.Args)
	if len(ops) > 0 {
		// GNU's order: too many operands first, then a non-format operand,
		// which is a date to set unless -d or -r already named the date.
		if len(ops) > 1 {
			return t.end(t.usage("extra operand " + quoteAlways(ops[1])))
		}
		if !strings.HasPrefix(ops[0], "+") {
			if hasDate || hasRef {
				return t.end(t.usage("the argument " + quoteAlways(ops[0]) + " lacks a leading '+';\n" +
					"when using an option to specify date(s), any non-option\n" +
					"argument must be a format string beginning with '+'"))
			}
			if dateLooksLikeSet(ops[0]) {
				t.warn("cannot set date: Operation not permitted")
				return t.end(1)
			}
			t.warn("invalid date " + quoteAlways(ops[0]))
			return t.end(1)
		}
		format = ops[0][1:]
	}
	if hasDate && hasRef {
		return t.end(t.usage("the options to specify dates for printing are mutually exclusive"))
	}
	if hasDate {
		parsed, ok := parseDateString(dateArg, now.In(loc), loc)
		if !ok {
			t.warn("invalid date " + quoteAlways(dateArg))
			return t.end(1)
		}
		when = parsed
	}
	if hasRef {
		info, err := statOperand(e, refFile, true)
		if err != nil {
			t.warn(refFile + ": " + errText(err))
			return t.end(1)
		}
		when = info.ModTime()
	}
	out, err := strftimeGrow(format, when.In(loc), e.Grow)
	if err != nil {
		return t.end(1) // the line's memory budget is spent: it is ending
	}
	t.writeString(out + "\n")
	return t.end(0)
}

// dateLooksLikeSet reports the MMDDhhmm[[CC]YY][.ss] operand that asks
// date to set the clock.
func dateLooksLikeSet(s string) bool {
	main, secs, hasSecs := strings.Cut(s, ".")
	if hasSecs && (len(secs) != 2 || strings.Trim(secs, "0123456789") != "") {
		return false
	}
	return (len(main) == 8 || len(main) == 10 || len(main) == 12) && strings.Trim(main, "0123456789") == ""
}

func dateISOFormat(v string) (string, bool) {
	switch v {
	case "", "date":
		return "%Y-%m-%d", true
	case "hours":
		return "%Y-%m-%dT%H%:z", true
	case "minutes":
		return "%Y-%m-%dT%H:%M%:z", true
	case "seconds":
		return "%Y-%m-%dT%H:%M:%S%:z", true
	case "ns":
		return "%Y-%m-%dT%H:%M:%S,%N%:z", true
	}
	return "", false
}

// dateZone turns TZ into a zone: a zone name of the tz database
// ("Asia/Tokyo", "US/Eastern", "EST5EDT"), else UTC or a fixed POSIX offset
// ("JST-9" is nine hours east of UTC). Never the host's own zone: "Local"
// and file paths are not names here.
func dateZone(tz string) *time.Location {
	tz = strings.TrimPrefix(tz, ":")
	if tz == "" {
		return time.UTC
	}
	if isZoneName(tz) {
		if loc, err := time.LoadLocation(tz); err == nil {
			return loc
		}
	}
	name, rest := "", tz
	if strings.HasPrefix(rest, "<") {
		end := strings.IndexByte(rest, '>')
		if end < 0 {
			return time.UTC
		}
		name, rest = rest[1:end], rest[end+1:]
	} else {
		i := 0
		for i < len(rest) && (rest[i] >= 'A' && rest[i] <= 'Z' || rest[i] >= 'a' && rest[i] <= 'z') {
			i++
		}
		name, rest = rest[:i], rest[i:]
	}
	if len(name) < 3 {
		return time.UTC
	}
	if rest == "" {
		if name == "UTC" || name == "GMT" || name == "UCT" || name == "Zulu" {
			return time.FixedZone(name, 0)
		}
		return time.UTC
	}
	sign := 1
	switch rest[0] {
	case '-':
		sign, rest = -1, rest[1:]
	case '+':
		rest = rest[1:]
	}
	parts := strings.SplitN(rest, ":", 3)
	seconds := 0
	for k, p := range parts {
		// A DST part after the offset ("EST5EDT") is ignored: no rules
		// without zone files.
		digits := p
		for j := 0; j < len(p); j++ {
			if p[j] < '0' || p[j] > '9' {
				digits = p[:j]
				break
			}
		}
		n, err := strconv.Atoi(digits)
		if err != nil {
			return time.UTC
		}
		seconds += n * []int{3600, 60, 1}[k]
		if digits != p {
			break
		}
	}
	// POSIX offsets count west of Greenwich as positive.
	return time.FixedZone(name, -sign*seconds)
}

var (
	dateWeekdays = []string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
	dateMonths   = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
)

// strftime renders t with GNU date's directives in the C locale.
func strftime(format string, t time.Time) string {
	out, _ := strftimeGrow(format, t, refuseWideFields)
	return out
}

// wideField is the widest padded field strftime builds without asking the
// line's memory budget: `date +%999999999Y` is a gigabyte of zeros, which
// GNU streams and strftime would build whole (G-12.3).
const wideField = 1 << 16

// maxFieldWidth caps a field width as it is read, so that no spelling of
// one overflows.
const maxFieldWidth = 1 << 40

// errFieldTooWide is a padded field wider than the caller lets strftime
// build.
var errFieldTooWide = errors.New("field width too large")

// refuseWideFields is the budget of a caller that takes no field wider
// than wideField.
func refuseWideFields(int64) error { return errFieldTooWide }

// strftimeGrow is strftime for a caller whose result may be large: before
// it builds a padded field wider than wideField it asks grow (the line's
// memory budget, Env.Grow) for the bytes, and stops with grow's error.
func strftimeGrow(format string, t time.Time, grow func(int64) error) (string, error) {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		if format[i] != '%' || i+1 >= len(format) {
			b.WriteByte(format[i])
			continue
		}
		j := i + 1
		flag := byte(0)
		upper, swap := false, false
		for j < len(format) && strings.IndexByte("-_0^#", format[j]) >= 0 {
			switch format[j] {
			case '^':
				upper = true
			case '#':
				swap = true
			default:
				flag = format[j]
			}
			j++
		}
		width := -1
		for j < len(format) && format[j] >= '0' && format[j] <= '9' {
			if width < 0 {
				width = 0
			}
			width = min(width*10+int(format[j]-'0'), maxFieldWidth)
			j++
		}
		colons := 0
		for j < len(format) && format[j] == ':' {
			colons++
			j++
		}
		if j >= len(format) {
			b.WriteString(format[i:])
			break
		}
		text, pad, defWidth, ok := dateDirective(format[j], colons, t, width)
		if !ok {
			b.WriteString(format[i : j+1])
			i = j
			continue
		}
		if upper {
			text = strings.ToUpper(text)
		} else if swap {
			if strings.ToUpper(text) == text {
				text = strings.ToLower(text)
			} else {
				text = strings.ToUpper(text)
			}
		}
		if width > wideField {
			if err := grow(int64(width)); err != nil {
				return "", err
			}
		}
		b.WriteString(datePad(text, pad, flag, width, defWidth))
		i = j
	}
	return b.String(), nil
}

// datePad applies the flag and width to a field whose natural padding is
// pad ('0', ' ' or 0 for text) and natural width defWidth.
func datePad(text string, pad, flag byte, width, defWidth int) string {
	if flag == '-' {
		if pad != 0 {
			trimmed := strings.TrimLeft(text, string(pad))
			if trimmed == "" {
				trimmed = "0"
			}
			return trimmed
		}
		return text
	}
	if pad != 0 {
		text = strings.TrimLeft(text, " ")
		if flag == '_' || flag == '0' {
			text = strings.TrimLeft(text, "0")
			if text == "" {
				text = "0"
			}
			pad = flag
			if pad == '_' {
				pad = ' '
			}
		}
		if width < 0 {
			width = defWidth
		}
	}
	if width > len(text) {
		fill := " "
		if pad == '0' || (pad == 0 && flag == '0') {
			fill = "0"
		}
		if strings.HasPrefix(text, "-") || strings.HasPrefix(text, "+") {
			return text[:1] + strings.Repeat(fill, width-len(text)) + text[1:]
		}
		return strings.Repeat(fill, width-len(text)) + text
	}
	return text
}

// dateDirective renders one conversion. pad and defWidth describe a
// numeric field's natural padding so flags can change it.
func dateDirective(c byte, colons int, t time.Time, width int) (text string, pad byte, defWidth int, ok bool) {
	num := func(n, w int, p byte) (string, byte, int, bool) {
		s := strconv.Itoa(n)
		for len(s) < w {
			s = string(p) + s
		}
		return s, p, w, true
	}
	hour12 := t.Hour() % 12
	if hour12 == 0 {
		hour12 = 12
	}
	isoYear, isoWeek := t.ISOWeek()
	switch c {
	case '%':
		return "%", 0, 0, true
	case 'a':
		return dateWeekdays[t.Weekday()][:3], 0, 0, true
	case 'A':
		return dateWeekdays[t.Weekday()], 0, 0, true
	case 'b', 'h':
		return dateMonths[t.Month()-1][:3], 0, 0, true
	case 'B':
		return dateMonths[t.Month()-1], 0, 0, true
	case 'c':
		return strftime("%a %b %e %H:%M:%S %Y", t), 0, 0, true
	case 'C':
		return num(t.Year()/100, 2, '0')
	case 'd':
		return num(t.Day(), 2, '0')
	case 'D', 'x':
		return strftime("%m/%d/%y", t), 0, 0, true
	case 'e':
		return num(t.Day(), 2, ' ')
	case 'F':
		return strftime("%Y-%m-%d", t), 0, 0, true
	case 'g':
		return num(isoYear%100, 2, '0')
	case 'G':
		return num(isoYear, 4, '0')
	case 'H':
		return num(t.Hour(), 2, '0')
	case 'I':
		return num(hour12, 2, '0')
	case 'j':
		return num(t.YearDay(), 3, '0')
	case 'k':
		return num(t.Hour(), 2, ' ')
	case 'l':
		return num(hour12, 2, ' ')
	case 'm':
		return num(int(t.Month()), 2, '0')
	case 'M':
		return num(t.Minute(), 2, '0')
	case 'n':
		return "\n", 0, 0, true
	case 'N':
		s := strconv.Itoa(t.Nanosecond())
		s = strings.Repeat("0", 9-len(s)) + s
		if width > 0 && width < 9 {
			s = s[:width]
		}
		return s, 0, 0, true
	case 'p':
		if t.Hour() < 12 {
			return "AM", 0, 0, true
		}
		return "PM", 0, 0, true
	case 'P':
		if t.Hour() < 12 {
			return "am", 0, 0, true
		}
		return "pm", 0, 0, true
	case 'q':
		return num((int(t.Month())-1)/3+1, 1, '0')
	case 'r':
		return strftime("%I:%M:%S %p", t), 0, 0, true
	case 'R':
		return strftime("%H:%M", t), 0, 0, true
	case 's':
		return strconv.FormatInt(t.Unix(), 10), 0, 0, true
	case 'S':
		return num(t.Second(), 2, '0')
	case 't':
		return "\t", 0, 0, true
	case 'T', 'X':
		return strftime("%H:%M:%S", t), 0, 0, true
	case 'u':
		return num((int(t.Weekday())+6)%7+1, 1, '0')
	case 'U':
		return num((t.YearDay()+6-int(t.Weekday()))/7, 2, '0')
	case 'V':
		return num(isoWeek, 2, '0')
	case 'w':
		return num(int(t.Weekday()), 1, '0')
	case 'W':
		return num((t.YearDay()+6-(int(t.Weekday())+6)%7)/7, 2, '0')
	case 'y':
		return num(t.Year()%100, 2, '0')
	case 'Y':
		return num(t.Year(), 1, '0')
	case 'z':
		return dateOffset(t, colons), 0, 0, true
	case 'Z':
		name, _ := t.Zone()
		return name, 0, 0, true
	}
	return "", 0, 0, false
}

// dateOffset renders the zone offset: +hhmm, +hh:mm, +hh:mm:ss.
func dateOffset(t time.Time, colons int) string {
	_, off := t.Zone()
	sign := "+"
	if off < 0 {
		sign, off = "-", -off
	}
	two := func(n int) string { return string([]byte{byte('0' + n/10), byte('0' + n%10)}) }
	h, m, s := off/3600, off/60%60, off%60
	switch colons {
	case 0:
		return sign + two(h) + two(m)
	case 1:
		return sign + two(h) + ":" + two(m)
	case 2:
		return sign + two(h) + ":" + two(m) + ":" + two(s)
	}
	// %:::z: only as much precision as needed.
	out := sign + two(h)
	if m != 0 || s != 0 {
		out += ":" + two(m)
	}
	if s != 0 {
		out += ":" + two(s)
	}
	return out
}

// isZoneName reports whether tz is spelled like a name of the tz database
// (a capital first; letters, digits, _ + - in each part; parts joined by /),
// which keeps "Local", "..", absolute paths and odd text away from the
// zone loader.
func isZoneName(tz string) bool {
	if tz == "Local" || len(tz) > 64 {
		return false
	}
	for _, part := range strings.Split(tz, "/") {
		// Every zone and link of the tz database starts each component
		// with a capital; the zone directory's other files do not
		// (localtime, a link to the host's /etc/localtime, posixrules,
		// leapseconds, the right/ and posix/ trees), and must not be
		// read as zones: they would tell the host's own zone.
		if part == "" || !('A' <= part[0] && part[0] <= 'Z') {
			return false
		}
		for i := 0; i < len(part); i++ {
			c := part[i]
			if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_' || c == '+' || c == '-') {
				return false
			}
		}
	}
	return true
}
