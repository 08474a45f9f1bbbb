package utils

import "testing"

// Expected outputs recorded from GNU date (coreutils 9.1) (LC_ALL=C) run on a temp dir
// holding the same files.
func TestDateAgainstGNU(t *testing.T) {
	t.Parallel()
	runCases(t, []utilCase{
		{name: "default format", args: []string{"date", "-d", "@1710504000"}, wantOut: "Fri Mar 15 12:00:00 UTC 2024\n"},
		{name: "utc flag", args: []string{"date", "-u", "-d", "@1710504000"}, wantOut: "Fri Mar 15 12:00:00 UTC 2024\n"},
		{name: "format basic", args: []string{"date", "-d", "@1710504000", "+%Y-%m-%d %H:%M:%S"}, wantOut: "2024-03-15 12:00:00\n"},
		{name: "format names", args: []string{"date", "-d", "@1710504000", "+%a %A %b %B %h"}, wantOut: "Fri Friday Mar March Mar\n"},
		{name: "format composite", args: []string{"date", "-d", "@1710504000", "+%c|%D|%F|%r|%R|%T|%x|%X"}, wantOut: "Fri Mar 15 12:00:00 2024|03/15/24|2024-03-15|12:00:00 PM|12:00|12:00:00|03/15/24|12:00:00\n"},
		{name: "format numbers", args: []string{"date", "-d", "@1710504000", "+%C %d %e %g %G %H %I %j %k %l %m %M %S %u %U %V %w %W %y %q"}, wantOut: "20 15 15 24 2024 12 12 075 12 12 03 00 00 5 10 11 5 11 24 1\n"},
		{name: "format epoch zone", args: []string{"date", "-d", "@1710504000", "+%s %z %:z %::z %Z %p %P"}, wantOut: "1710504000 +0000 +00:00 +00:00:00 UTC PM pm\n"},
		{name: "flags", args: []string{"date", "-d", "@1704164645", "+%-d|%_m|%05Y|%^a|%#B|%-H|%3N|%10A"}, wantOut: "2| 1|02024|TUE|JANUARY|3|000|   Tuesday\n"},
		{name: "percent and text", args: []string{"date", "-d", "@1710504000", "+100%% at %t%n"}, wantOut: "100% at \t\n\n"},
		{name: "iso date", args: []string{"date", "-d", "@1710504000", "-I"}, wantOut: "2024-03-15\n"},
		{name: "iso seconds", args: []string{"date", "-d", "@1710504000", "-Iseconds"}, wantOut: "2024-03-15T12:00:00+00:00\n"},
		{name: "iso minutes", args: []string{"date", "-d", "@1710504000", "--iso-8601=minutes"}, wantOut: "2024-03-15T12:00+00:00\n"},
		{name: "iso ns", args: []string{"date", "-d", "@1710504000.123456789", "--iso-8601=ns"}, wantOut: "2024-03-15T12:00:00,123456789+00:00\n"},
		{name: "rfc email", args: []string{"date", "-d", "@1710504000", "-R"}, wantOut: "Fri, 15 Mar 2024 12:00:00 +0000\n"},
		{name: "rfc 3339", args: []string{"date", "-d", "@1710504000", "--rfc-3339=seconds"}, wantOut: "2024-03-15 12:00:00+00:00\n"},
		{name: "iso input", args: []string{"date", "-d", "2024-02-29 13:45:00", "+%F %T %j %A"}, wantOut: "2024-02-29 13:45:00 060 Thursday\n"},
		{name: "iso T input", args: []string{"date", "-d", "2024-12-31T23:59:59Z", "+%s %U %W %V %G"}, wantOut: "1735689599 52 53 01 2025\n"},
		{name: "date only input", args: []string{"date", "-d", "2021-01-03", "+%a %U %W %V %G %g"}, wantOut: "Sun 01 00 53 2020 20\n"},
		{name: "invalid date", args: []string{"date", "-d", "not a date"}, wantOut: "", wantErr: "date: invalid date 'not a date'\n", wantExit: 1},
		{name: "extra operand", args: []string{"date", "+%Y", "+%m"}, wantOut: "", wantErr: "date: extra operand '+%m'\nTry 'date --help' for more information.\n", wantExit: 1},
		{name: "nanoseconds", args: []string{"date", "-d", "@1.5", "+%N %S"}, wantOut: "500000000 01\n"},
		{name: "date then relative items", args: []string{"date", "-d", "2024-01-31 +1 day +2 hours", "+%F %T"}, wantOut: "2024-02-01 02:00:00\n"},
		{name: "time then ago", args: []string{"date", "-d", "2024-01-31 10:00 2 hours ago", "+%F %T"}, wantOut: "2024-01-31 08:00:00\n"},
		{name: "signed number after a time is its zone", args: []string{"date", "-d", "2020-01-01 12:00 +1 hour", "+%F %T"}, wantOut: "2020-01-01 12:00:00\n"},
		{name: "operand without plus after -d", args: []string{"date", "-d", "@0", "foo"}, wantErr: "date: the argument 'foo' lacks a leading '+';\n" +
			"when using an option to specify date(s), any non-option\nargument must be a format string beginning with '+'\nTry 'date --help' for more information.\n", wantExit: 1},
		{name: "epoch zero", args: []string{"date", "-d", "@0"}, wantOut: "Thu Jan  1 00:00:00 UTC 1970\n"},
		{name: "negative epoch", args: []string{"date", "-d", "@-86400", "+%F"}, wantOut: "1969-12-31\n"},
		{name: "pm hour", args: []string{"date", "-d", "@1710540000", "+%I %l %p"}, wantOut: "10 10 PM\n"},
		{name: "unknown directive", args: []string{"date", "-d", "@1710504000", "+%Q %Y"}, wantOut: "%Q 2024\n"},
		{name: "bad option", args: []string{"date", "-x"}, wantOut: "", wantErr: "date: invalid option -- 'x'\nTry 'date --help' for more information.\n", wantExit: 1},
	})
}

// TestDateNeverReadsTheHost: TZ names a zone of the tz database or an
// offset, never the host's own zone or a file; the clock is never set.
func TestDateNeverReadsTheHost(t *testing.T) {
	t.Parallel()
	const noon = "@1710504000" // 2024-03-15 12:00:00 UTC
	runCases(t, []utilCase{
		{name: "TZ fixed west", args: []string{"date", "-d", noon}, env: []string{"TZ=EST5"}, wantOut: "Fri Mar 15 07:00:00 EST 2024\n"},
		{name: "TZ fixed east with minutes", args: []string{"date", "-d", noon, "+%H:%M %z %Z"}, env: []string{"TZ=<+0530>-5:30"}, wantOut: "17:30 +0530 +0530\n"},
		{name: "TZ UTC0", args: []string{"date", "-d", noon, "+%H %Z"}, env: []string{"TZ=UTC0"}, wantOut: "12 UTC\n"},
		{name: "TZ with DST rule uses the standard offset", args: []string{"date", "-d", noon, "+%H %Z"}, env: []string{"TZ=CET-1CEST"}, wantOut: "13 CET\n"},
		{name: "named zone", args: []string{"date", "-d", noon, "+%H %Z"}, env: []string{"TZ=Europe/Paris"}, wantOut: "13 CET\n"},
		// The zone directory's files that are no zones: localtime is the
		// host's own zone, posixrules and right/ say which tz files the
		// host has.
		{name: "TZ=localtime is not the host's zone", args: []string{"date", "-d", noon, "+%H %Z"}, env: []string{"TZ=localtime"}, wantOut: "12 UTC\n"},
		{name: "TZ=posixrules is no zone", args: []string{"date", "-d", noon, "+%H %Z"}, env: []string{"TZ=posixrules"}, wantOut: "12 UTC\n"},
		{name: "TZ=right/UTC is no zone", args: []string{"date", "-d", noon, "+%H %Z"}, env: []string{"TZ=right/UTC"}, wantOut: "12 UTC\n"},
		{name: "named zone in summer", args: []string{"date", "-d", "@1720000000", "+%H %Z"}, env: []string{"TZ=America/New_York"}, wantOut: "05 EDT\n"},
		{name: "the host's zone is no name", args: []string{"date", "-d", noon, "+%H %Z"}, env: []string{"TZ=Local"}, wantOut: "12 UTC\n"},
		{name: "a path is no zone", args: []string{"date", "-d", noon, "+%H"}, env: []string{"TZ=../../../etc/localtime"}, wantOut: "12\n"},
		{name: "an absolute path is no zone", args: []string{"date", "-d", noon, "+%H"}, env: []string{"TZ=/etc/localtime"}, wantOut: "12\n"},
		{name: "an unknown name is UTC", args: []string{"date", "-d", noon, "+%H"}, env: []string{"TZ=Nowhere/Special"}, wantOut: "12\n"},
		{name: "utc overrides TZ", args: []string{"date", "-u", "-d", noon, "+%H %Z"}, env: []string{"TZ=JST-9"}, wantOut: "12 UTC\n"},
		{name: "set is refused", args: []string{"date", "-s", "2020-01-01"}, wantErr: "date: cannot set date: Operation not permitted\n", wantExit: 1},
		{name: "set operand is refused", args: []string{"date", "01011200"}, wantErr: "date: cannot set date: Operation not permitted\n", wantExit: 1},
		{name: "reference file", args: []string{"date", "-r", "f", "+%F %T"}, files: map[string]string{"/w/f": ""}, wantOut: "2024-03-15 12:00:00\n"},
		{name: "reference hidden", args: []string{"date", "-r", "hidden/x"}, files: map[string]string{"/w/hidden/x": ""},
			wantErr: "date: hidden/x: No such file or directory\n", wantExit: 1},
		{name: "reference missing", args: []string{"date", "-r", "nope"}, wantErr: "date: nope: No such file or directory\n", wantExit: 1},
		{name: "now has the default shape", args: []string{"date", "+%Y"}, wantOutContains: "20"},
		{name: "help", args: []string{"date", "--help"}, wantOut: dateHelp},
	})
	if refs := Lookup("date").Operands([]string{"date", "-r", "f", "+%F"}); len(refs) != 1 || refs[0].Index != 2 {
		t.Errorf("date -r operands = %+v", refs)
	}
}
