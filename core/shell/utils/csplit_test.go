package utils

import (
	"bytes"
	"strings"
	"testing"
)

// A piece name's number field as wide as the agent likes is refused as too
// long before it is built: GNU csplit would format a gigabyte-long name
// (and print it); gatehouse holds at most a few KiB.
func TestCsplitHugeSuffixWidthIsRefused(t *testing.T) {
	t.Parallel()
	for _, argv := range [][]string{
		{"csplit", "-n", "1000000000", "f", "2"},
		{"csplit", "-b", "%01000000000d", "f", "2"},
		{"csplit", "-b", "x%.99999999999999999999x", "f", "2"},
	} {
		fsys := newTestFS(t, utilCase{files: map[string]string{"/w/f": "1\n2\n3\n"}})
		var out, errb bytes.Buffer
		e := testEnv(t, utilCase{args: argv}, fsys, &out, &errb, nil)
		status, _ := Lookup("csplit").Run(e)
		msg := errb.String()
		if status != 1 || len(msg) > 8192 || !strings.HasPrefix(msg, "csplit: xx") || !strings.HasSuffix(msg, ": File name too long\n") {
			t.Errorf("%q: exit %d, stderr %d bytes %.60q…, want 1 and a bounded 'File name too long'", argv, status, len(msg), msg)
		}
	}
}
