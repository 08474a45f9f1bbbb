package utils

import (
	"strconv"
	"strings"
	"time"
)

// parseDateString reads the date strings people give touch -d (and date
// -d): ISO dates and times with an optional zone, "@EPOCH", "now",
// "today", "yesterday", "tomorrow", "N units ago", "+N units", and the
// layouts date(1) prints. It covers the common forms of GNU's parse_datetime,
// not all of them.
func parseDateString(s string, now time.Time, loc *time.Location) (time.Time, bool) {
	if t, ok := parseDateBase(s, now, loc); ok {
		return t, true
	}
	// "DATE ITEMS...": relative items after a date move it ("2024-01-31
	// +1 day", "10:00 2 hours ago"). As in GNU's parse_datetime, a signed
	// number right after a time of day is that time's zone ("12:00 +1"),
	// and a unit without a number counts one ("hour").
	words := strings.Fields(s)
	for k := len(words) - 1; k >= 1; k-- {
		base, items := strings.Join(words[:k], " "), words[k:]
		zone := loc
		if strings.Contains(words[k-1], ":") {
			if off, ok := zoneOffset(items[0]); ok {
				zone, items = time.FixedZone("", off), items[1:]
			}
		}
		t, ok := parseDateBase(base, now, zone)
		if !ok {
			continue
		}
		if t, ok = applyRelativeItems(t, items); ok {
			return t, true
		}
	}
	return time.Time{}, false
}

// zoneOffset reads "+1", "-05" (hours) or "+0130" (hours and minutes) as
// seconds east of UTC.
func zoneOffset(w string) (int, bool) {
	if len(w) < 2 || (w[0] != '+' && w[0] != '-') {
		return 0, false
	}
	digits := w[1:]
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	var h, m int
	switch len(digits) {
	case 1, 2:
		h, _ = strconv.Atoi(digits)
	case 4:
		h, _ = strconv.Atoi(digits[:2])
		m, _ = strconv.Atoi(digits[2:])
	default:
		return 0, false
	}
	off := h*3600 + m*60
	if w[0] == '-' {
		off = -off
	}
	return off, true
}

// applyRelativeItems applies "[+-]N unit [ago]" items in order; an empty
// list is no item at all, which is not a date.
func applyRelativeItems(t time.Time, words []string) (time.Time, bool) {
	if len(words) == 0 {
		return t, true
	}
	for i := 0; i < len(words); {
		n := 1
		if v, err := strconv.Atoi(words[i]); err == nil {
			n = v
			i++
		}
		if i >= len(words) {
			return time.Time{}, false
		}
		unit := strings.TrimSuffix(strings.ToLower(words[i]), "s")
		i++
		if i < len(words) && strings.ToLower(words[i]) == "ago" {
			n = -n
			i++
		}
		switch unit {
		case "sec", "second":
			t = t.Add(time.Duration(n) * time.Second)
		case "min", "minute":
			t = t.Add(time.Duration(n) * time.Minute)
		case "hour":
			t = t.Add(time.Duration(n) * time.Hour)
		case "day":
			t = t.AddDate(0, 0, n)
		case "week":
			t = t.AddDate(0, 0, 7*n)
		case "fortnight":
			t = t.AddDate(0, 0, 14*n)
		case "month":
			t = t.AddDate(0, n, 0)
		case "year":
			t = t.AddDate(n, 0, 0)
		default:
			return time.Time{}, false
		}
	}
	return t, true
}

// parseDateBase reads one date without trailing relative items.
func parseDateBase(s string, now time.Time, loc *time.Location) (time.Time, bool) {
	s = strings.TrimSpace(s)
	lower := strings.ToLower(s)
	switch lower {
	case "", "now", "today":
		return now, true
	case "yesterday":
		return now.AddDate(0, 0, -1), true
	case "tomorrow":
		return now.AddDate(0, 0, 1), true
	}
	if strings.HasPrefix(s, "@") {
		return parseEpoch(s[1:])
	}
	if t, ok := parseRelative(lower, now); ok {
		return t, true
	}
	layouts := []string{
		"2006-01-02T15:04:05.999999999Z07:00",
		"2006-01-02T15:04:05Z07:00",
		"2006-01-02 15:04:05.999999999Z07:00",
		"2006-01-02 15:04:05Z07:00",
		"2006-01-02 15:04:05.999999999 -0700",
		"2006-01-02 15:04:05 -0700",
		"2006-01-02 15:04 -0700",
		"2006-01-02T15:04:05.999999999",
		"2006-01-02T15:04:05",
		"2006-01-02T15:04",
		"2006-01-02 15:04:05.999999999",
		"2006-01-02 15:04:05",
		"2006-01-02 15:04",
		"2006-01-02",
		"2006/01/02 15:04:05",
		"2006/01/02",
		"01/02/2006",
		"Mon Jan _2 15:04:05 MST 2006",
		"Mon Jan _2 15:04:05 2006",
		"Mon, 02 Jan 2006 15:04:05 -0700",
		"Jan _2 2006",
		"Jan _2 2006 15:04:05",
		"_2 Jan 2006",
		"January _2, 2006",
		"January _2 2006",
		"15:04:05",
		"15:04",
	}
	text := s
	utc := false
	for _, suffix := range []string{" UTC", " utc", " GMT", "Z"} {
		if strings.HasSuffix(text, suffix) && !strings.Contains(text, "+") {
			text, utc = strings.TrimSuffix(text, suffix), true
			break
		}
	}
	zone := loc
	if utc {
		zone = time.UTC
	}
	for _, layout := range layouts {
		t, err := time.ParseInLocation(layout, text, zone)
		if err != nil {
			continue
		}
		if layout == "15:04:05" || layout == "15:04" {
			y, m, d := now.In(zone).Date()
			t = time.Date(y, m, d, t.Hour(), t.Minute(), t.Second(), 0, zone)
		}
		return t, true
	}
	return time.Time{}, false
}

func parseEpoch(s string) (time.Time, bool) {
	whole, frac, _ := strings.Cut(s, ".")
	sec, err := strconv.ParseInt(whole, 10, 64)
	if err != nil {
		return time.Time{}, false
	}
	var nsec int64
	if frac != "" {
		frac = (frac + "000000000")[:9]
		if nsec, err = strconv.ParseInt(frac, 10, 64); err != nil {
			return time.Time{}, false
		}
	}
	return time.Unix(sec, nsec), true
}

// parseRelative reads "3 days ago", "+2 hours", "1 week", "-5 min".
func parseRelative(s string, now time.Time) (time.Time, bool) {
	fields := strings.Fields(s)
	if len(fields) < 2 || len(fields) > 3 {
		return time.Time{}, false
	}
	n, err := strconv.Atoi(fields[0])
	if err != nil {
		return time.Time{}, false
	}
	if len(fields) == 3 {
		if fields[2] != "ago" {
			return time.Time{}, false
		}
		n = -n
	}
	unit := strings.TrimSuffix(fields[1], "s")
	switch unit {
	case "sec", "second":
		return now.Add(time.Duration(n) * time.Second), true
	case "min", "minute":
		return now.Add(time.Duration(n) * time.Minute), true
	case "hour":
		return now.Add(time.Duration(n) * time.Hour), true
	case "day":
		return now.AddDate(0, 0, n), true
	case "week":
		return now.AddDate(0, 0, 7*n), true
	case "fortnight":
		return now.AddDate(0, 0, 14*n), true
	case "month":
		return now.AddDate(0, n, 0), true
	case "year":
		return now.AddDate(n, 0, 0), true
	}
	return time.Time{}, false
}

// parseTouchStamp reads touch -t's [[CC]YY]MMDDhhmm[.ss].
func parseTouchStamp(s string, now time.Time, loc *time.Location) (time.Time, bool) {
	main, secs, hasSecs := strings.Cut(s, ".")
	for _, c := range main + secs {
		if c < '0' || c > '9' {
			return time.Time{}, false
		}
	}
	if hasSecs && len(secs) != 2 {
		return time.Time{}, false
	}
	year := now.In(loc).Year()
	switch len(main) {
	case 8:
	case 10:
		yy, _ := strconv.Atoi(main[:2])
		// POSIX: 69-99 are 19xx, 00-68 are 20xx.
		if yy >= 69 {
			year = 1900 + yy
		} else {
			year = 2000 + yy
		}
		main = main[2:]
	case 12:
		year, _ = strconv.Atoi(main[:4])
		main = main[4:]
	default:
		return time.Time{}, false
	}
	num := func(i int) int { n, _ := strconv.Atoi(main[i : i+2]); return n }
	month, day, hour, minute := num(0), num(2), num(4), num(6)
	sec := 0
	if hasSecs {
		sec, _ = strconv.Atoi(secs)
	}
	if month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || sec > 60 {
		return time.Time{}, false
	}
	t := time.Date(year, time.Month(month), day, hour, minute, sec, 0, loc)
	if t.Day() != day {
		return time.Time{}, false
	}
	return t, true
}
