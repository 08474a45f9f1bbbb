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
