package utils

import "time"

// Strftime renders t with a C strftime format, as date +FORMAT does; awk's
// strftime() shares it. A padded field wider than 65,536 bytes first asks
// grow (the line's memory budget, Env.Grow) for its bytes; when grow
// refuses, Strftime returns grow's error and no text.
func Strftime(format string, t time.Time, grow func(int64) error) (string, error) {
	return strftimeGrow(format, t, grow)
}

// TimeZone turns a TZ value into a zone as date does: a zone of the tz
// database, else UTC or a fixed POSIX offset (never the host's own zone).
func TimeZone(tz string) *time.Location { return dateZone(tz) }
