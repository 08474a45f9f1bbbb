package utils

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

// limitedWriter accepts limit bytes and then fails like a pipe whose
// reader has gone (`yes | head -5`).
type limitedWriter struct {
	limit int
	got   strings.Builder
}

func (w *limitedWriter) Write(p []byte) (int, error) {
	room := w.limit - w.got.Len()
	if room <= 0 {
		return 0, io.ErrClosedPipe
	}
	if len(p) > room {
		w.got.Write(p[:room])
		return room, io.ErrClosedPipe
	}
	w.got.Write(p)
	return len(p), nil
}

func TestYesStopsWhenTheReaderGoes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		args  []string
		limit int
		want  string
	}{
		{"default y", []string{"yes"}, 10, "y\ny\ny\ny\ny\n"},
		{"words joined", []string{"yes", "a", "b"}, 8, "a b\na b\n"},
		{"empty string", []string{"yes", ""}, 3, "\n\n\n"},
		{"long line", []string{"yes", strings.Repeat("x", 9000)}, 9001, strings.Repeat("x", 9000) + "\n"},
		{"dash dash", []string{"yes", "--", "-n"}, 6, "-n\n-n\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w := &limitedWriter{limit: c.limit}
			e := &Env{Ctx: context.Background(), Args: c.args, Stdout: w, Stderr: io.Discard}
			status, err := Lookup("yes").Run(e)
			if status != 1 || err != nil {
				t.Errorf("yes = %d, %v; want 1, nil", status, err)
			}
			if w.got.String() != c.want {
				t.Errorf("yes wrote %q, want %q", w.got.String(), c.want)
			}
		})
	}
}

func TestYesEndsWithTheLine(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	e := &Env{Ctx: ctx, Args: []string{"yes"}, Stdout: io.Discard, Stderr: io.Discard}
	_, err := Lookup("yes").Run(e)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("yes after the line's time limit returned %v", err)
	}
	runCases(t, []utilCase{
		{name: "help", args: []string{"yes", "--help"}, wantOut: yesHelp},
		{name: "bad option", args: []string{"yes", "-x"}, wantErr: "yes: invalid option -- 'x'\nTry 'yes --help' for more information.\n", wantExit: 1},
	})
}
