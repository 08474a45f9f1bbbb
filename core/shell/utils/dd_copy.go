package utils

import (
	"errors"
	"io"
	"strconv"
	"time"
)

// ddCopy copies blocks from in to out as dd does: each read is a record
// (whole when it fills ibs), converted, then written at once (bs= given)
// or gathered into obs-sized writes.
func ddCopy(t *tool, cfg *ddConfig, in io.Reader, out io.Writer, inName, outName string) int {
	ibuf := make([]byte, cfg.ibs)
	var obuf []byte
	if cfg.twoBuffers() {
		obuf = make([]byte, 0, cfg.obs)
	}
	var saved []byte // swab's odd byte, waiting for its pair
	left, blocks := cfg.count, int64(0)
	write := func(p []byte) bool {
		if _, err := out.Write(p); err != nil {
			if !t.broken() {
				t.warn("error writing " + outName + ": " + errText(err))
			}
			return false
		}
		if int64(len(p)) == cfg.obs || (!cfg.twoBuffers() && int64(len(p)) == cfg.ibs) {
			cfg.fullOut++
		} else {
			cfg.partialOut++
		}
		cfg.wrote += int64(len(p))
		return true
	}
	for !t.stopped() {
		want := cfg.ibs
		if cfg.count >= 0 {
			if cfg.countBytes {
				want = min(want, left)
			} else if blocks == cfg.count {
				break
			}
			if want == 0 {
				break
			}
		}
		n, err := ddRead(t, in, ibuf[:want], cfg.iflags["fullblock"])
		if err != nil {
			t.warn("error reading " + inName + ": " + errText(err))
			return 1
		}
		if n == 0 {
			break
		}
		left -= int64(n)
		blocks++
		if int64(n) < cfg.ibs {
			cfg.partialIn++
			if cfg.conv["sync"] {
				clear(ibuf[n:])
				n = int(cfg.ibs)
			}
		} else {
			cfg.fullIn++
		}
		data := ddTranslate(cfg, ibuf[:n])
		if obuf == nil {
			if !write(data) {
				return 1
			}
			continue
		}
		if cfg.conv["swab"] {
			data, saved = ddSwab(saved, data)
		}
		for len(data) > 0 {
			k := min(len(data), int(cfg.obs)-len(obuf))
			obuf, data = append(obuf, data[:k]...), data[k:]
			if int64(len(obuf)) == cfg.obs {
				if !write(obuf) {
					return 1
				}
				obuf = obuf[:0]
			}
		}
	}
	obuf = append(obuf, saved...)
	if len(obuf) > 0 && !write(obuf) {
		return 1
	}
	return 0
}

// ddRead reads one record: a single read, or as many as fill p under
// iflag=fullblock. The end of the input is a short (or empty) record.
func ddRead(t *tool, in io.Reader, p []byte, full bool) (int, error) {
	total := 0
	for total < len(p) {
		if err := t.ctx.Err(); err != nil {
			return total, nil
		}
		n, err := in.Read(p[total:])
		total += n
		if errors.Is(err, io.EOF) {
			return total, nil
		}
		if err != nil {
			return total, err
		}
		if n > 0 && !full {
			break
		}
	}
	return total, nil
}

// ddTranslate applies conv=ucase or lcase in place.
func ddTranslate(cfg *ddConfig, p []byte) []byte {
	switch {
	case cfg.conv["ucase"]:
		for i, c := range p {
			if c >= 'a' && c <= 'z' {
				p[i] = c - 'a' + 'A'
			}
		}
	case cfg.conv["lcase"]:
		for i, c := range p {
			if c >= 'A' && c <= 'Z' {
				p[i] = c - 'A' + 'a'
			}
		}
	}
	return p
}

// ddSwab swaps every pair of bytes of saved+p, keeping an odd last byte
// for the next record (or the end).
func ddSwab(saved, p []byte) (out, rest []byte) {
	buf := append(saved[:len(saved):len(saved)], p...)
	if len(buf)%2 == 1 {
		rest = []byte{buf[len(buf)-1]}
		buf = buf[:len(buf)-1]
	}
	for i := 0; i+1 < len(buf); i += 2 {
		buf[i], buf[i+1] = buf[i+1], buf[i]
	}
	return buf, rest
}

// report prints the records lines and the transfer line (status= permitting).
func (cfg *ddConfig) report(t *tool, start time.Time) {
	if cfg.status == "none" {
		return
	}
	itoa := func(n int64) string { return strconv.FormatInt(n, 10) }
	msg := itoa(cfg.fullIn) + "+" + itoa(cfg.partialIn) + " records in\n" +
		itoa(cfg.fullOut) + "+" + itoa(cfg.partialOut) + " records out\n"
	if cfg.status != "noxfer" {
		msg += ddTransfer(cfg.wrote, time.Since(start))
	}
	t.rawStderr(msg)
}

// ddTransfer is the statistics line: bytes (with their size in SI and
// IEC units from 1000 up), seconds and rate. Its time is the run's own,
// so it never matches another run's.
func ddTransfer(n int64, d time.Duration) string {
	s := itoa64(n) + " bytes"
	if n == 1 {
		s = "1 byte"
	}
	switch {
	case n >= 1024:
		s += " (" + ddHuman(float64(n), 1000, "B") + ", " + ddHuman(float64(n), 1024, "iB") + ")"
	case n >= 1000:
		s += " (" + ddHuman(float64(n), 1000, "B") + ")"
	}
	secs := max(d.Seconds(), 1e-9)
	return s + " copied, " + strconv.FormatFloat(secs, 'g', 6, 64) + " s, " + ddRate(float64(n)/secs) + "/s\n"
}

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }

// ddHuman scales v to one of k, M, G... of base, with one decimal below 10.
func ddHuman(v, base float64, unit string) string {
	prefixes := "kMGTPEZY"
	if base == 1024 {
		prefixes = "KMGTPEZY"
	}
	i := -1
	for v >= base && i < len(prefixes)-1 {
		v /= base
		i++
	}
	num := strconv.FormatFloat(v, 'f', 0, 64)
	if v < 10 {
		num = strconv.FormatFloat(v, 'f', 1, 64)
	}
	if i < 0 {
		return num + " B"
	}
	return num + " " + prefixes[i:i+1] + unit
}

// ddRate is a rate in SI units with three digits ("177 kB", "2.0 GB").
func ddRate(v float64) string {
	prefixes := "kMGTPEZY"
	v /= 1000
	i := 0
	for v >= 1000 && i < len(prefixes)-1 {
		v /= 1000
		i++
	}
	num := strconv.FormatFloat(v, 'f', 0, 64)
	if v < 100 {
		num = strconv.FormatFloat(v, 'f', 1, 64)
	}
	return num + " " + prefixes[i:i+1] + "B"
}
