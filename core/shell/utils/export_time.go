package utils

import "time"

// Strftime renders t with a C strftime format, as date +FORMAT does; awk's
// strftime() shares it.
func Strftime(format string, t time.Time) string { return strftime(format, t) }

// TimeZone turns a TZ value into a zone without reading any zone file
// (UTC or a fixed POSIX offset), as date does.
func TimeZone(tz string) *time.Location { return dateZone(tz) }
