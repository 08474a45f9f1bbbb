package git

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"gatehouse/core/shell/utils"
)

// dateMode is how log and show write dates (--date): git's named formats,
// "format:" with a strftime layout, each in the commit's own zone or, with
// "-local", in the session's ($TZ).
type dateMode struct {
	kind   string // "", "iso", "iso-strict", "rfc", "short", "raw", "unix", "relative", "human", "format"
	layout string // the strftime layout of "format"
	local  bool
}

// parseDateMode reads a --date value as git 2.39 does.
func parseDateMode(v string) (dateMode, error) {
	var m dateMode
	if strings.HasPrefix(v, "auto:") {
		// auto:MODE is MODE on a terminal; git's output here never is
		// one, so the default (git reads no further).
		return m, nil
	}
	if l, ok := strings.CutPrefix(v, "format:"); ok {
		return dateMode{kind: "format", layout: l}, nil
	}
	if l, ok := strings.CutPrefix(v, "format-local:"); ok {
		return dateMode{kind: "format", layout: l, local: true}, nil
	}
	if k, ok := strings.CutSuffix(v, "-local"); ok {
		v, m.local = k, true
	}
	switch v {
	case "default":
	case "local":
		m.local = true
	case "iso", "iso8601":
		m.kind = "iso"
	case "iso-strict", "iso8601-strict":
		m.kind = "iso-strict"
	case "rfc", "rfc2822":
		m.kind = "rfc"
	case "short", "raw", "unix", "relative", "human":
		m.kind = v
	default:
		return m, fatalf("unknown date format %s", v)
	}
	return m, nil
}

// fmtDate writes a commit's date as the --date mode asks.
func (r *repo) fmtDate(t time.Time) string {
	m := r.date
	if m.local && m.kind != "unix" && m.kind != "relative" {
		t = t.In(utils.TimeZone(r.g.env.Getenv("TZ")))
	}
	switch m.kind {
	case "iso":
		return t.Format("2006-01-02 15:04:05 -0700")
	case "iso-strict":
		return t.Format("2006-01-02T15:04:05-07:00")
	case "rfc":
		return t.Format("Mon, 2 Jan 2006 15:04:05 -0700")
	case "short":
		return t.Format("2006-01-02")
	case "raw":
		return strconv.FormatInt(t.Unix(), 10) + " " + t.Format("-0700")
	case "unix":
		return strconv.FormatInt(t.Unix(), 10)
	case "relative":
		return relativeDate(t, time.Now())
	case "human":
		return humanDate(t, time.Now().In(utils.TimeZone(r.g.env.Getenv("TZ"))))
	case "format":
		s, err := utils.Strftime(m.layout, t, r.g.env.Grow)
		if err != nil {
			return ""
		}
		return s
	}
	if m.local {
		return t.Format("Mon Jan 2 15:04:05 2006")
	}
	return gitDate(t)
}

// relativeDate is git's "N units ago", rounded as git rounds it.
func relativeDate(t, now time.Time) string {
	diff := now.Unix() - t.Unix()
	if diff < 0 {
		return "in the future"
	}
	ago := func(n int64, unit string) string {
		return fmt.Sprintf("%d %s%s ago", n, unit, plural(int(n)))
	}
	if diff < 90 {
		return ago(diff, "second")
	}
	if diff = (diff + 30) / 60; diff < 90 {
		return ago(diff, "minute")
	}
	if diff = (diff + 30) / 60; diff < 36 {
		return ago(diff, "hour")
	}
	if diff = (diff + 12) / 24; diff < 14 {
		return ago(diff, "day")
	}
	if diff < 70 {
		return ago((diff+3)/7, "week")
	}
	if diff < 365 {
		return ago((diff+15)/30, "month")
	}
	if diff < 1825 {
		total := (diff*12*2 + 365) / (365 * 2)
		years, months := total/12, total%12
		if months == 0 {
			return ago(years, "year")
		}
		return fmt.Sprintf("%d year%s, %d month%s ago", years, plural(int(years)), months, plural(int(months)))
	}
	return ago((diff+183)/365, "year")
}

// humanDate is git's --date=human against now (in the session's zone):
// today's dates as relative ones; a date of the last few days of this
// month by its weekday and time (and its zone when that is not now's);
// the rest of this year without the year; older ones as month, day and
// year alone. Fields are compared in the date's own zone, as git does.
func humanDate(t, now time.Time) string {
	_, tz := t.Zone()
	_, nowTZ := now.Zone()
	sameYear := t.Year() == now.Year()
	hideDate := false
	if sameYear && t.Month() == now.Month() {
		switch {
		case t.Day() > now.Day():
			// a future date (zones apart): shown whole
		case t.Day() == now.Day():
			return relativeDate(t, now)
		case t.Day()+5 > now.Day():
			hideDate = true
		}
	}
	var b strings.Builder
	if sameYear {
		b.WriteString(t.Format("Mon "))
	}
	if !hideDate {
		b.WriteString(t.Format("Jan 2 "))
	}
	if sameYear {
		b.WriteString(t.Format("15:04"))
	}
	s := strings.TrimRight(b.String(), " ")
	if !sameYear {
		s += t.Format(" 2006")
	}
	if hideDate && tz != nowTZ {
		s += t.Format(" -0700")
	}
	return s
}
