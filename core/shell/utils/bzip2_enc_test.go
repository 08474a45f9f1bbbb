package utils

import (
	"bytes"
	"compress/bzip2"
	"io"
	"math/rand"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// The encoder's streams decode to what went in, with Go's decoder and
// (when the host has it) bzip2's own: empty input, runs long and short,
// a period that defeats the rotation sort's early end, random bytes, and
// several blocks at -1.
func TestBzip2EncoderRoundTrips(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewSource(1))
	random := make([]byte, 300000)
	rng.Read(random)
	text := strings.Repeat("the quick brown fox jumps over the lazy dog\n", 5000)
	inputs := map[string][]byte{
		"empty":  nil,
		"one":    []byte("a"),
		"runs":   []byte(strings.Repeat("a", 1000) + "bbbbb" + strings.Repeat("c", 255) + strings.Repeat("d", 256) + "ab"),
		"period": []byte(strings.Repeat("ab", 150000)),
		"random": random,
		"text":   []byte(text),
		"zeros":  make([]byte, 500000),
		"allbyte": func() []byte {
			b := make([]byte, 256*40)
			for i := range b {
				b[i] = byte(i * 7)
			}
			return b
		}(),
	}
	for name, in := range inputs {
		for _, level := range []int{1, 9} {
			var buf bytes.Buffer
			w := newBzip2Writer(&buf, level, nil)
			for chunk := in; len(chunk) > 0; {
				k := min(len(chunk), 7777)
				w.Write(chunk[:k])
				chunk = chunk[k:]
			}
			if err := w.Close(); err != nil {
				t.Fatalf("%s -%d: %v", name, level, err)
			}
			out, err := io.ReadAll(bzip2.NewReader(bytes.NewReader(buf.Bytes())))
			if err != nil || !bytes.Equal(out, in) {
				t.Errorf("%s -%d: Go's decoder: %v, %d bytes back of %d", name, level, err, len(out), len(in))
			}
			if path, err := exec.LookPath("bzip2"); err == nil && os.Getenv("GATEHOUSE_NO_HOST_BZIP2") == "" {
				cmd := exec.Command(path, "-dc")
				cmd.Stdin = bytes.NewReader(buf.Bytes())
				host, err := cmd.Output()
				if err != nil || !bytes.Equal(host, in) {
					t.Errorf("%s -%d: bzip2 -dc: %v, %d bytes back of %d", name, level, err, len(host), len(in))
				}
			}
		}
	}
}
