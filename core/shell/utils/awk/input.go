package awk

import (
	"bytes"
	"io"
)

// rsMode is how RS separates records.
type rsMode uint8

const (
	rsChar      rsMode = iota // one byte (newline by default)
	rsParagraph               // RS "": blank lines
	rsRegex                   // gawk: a regular expression
)

// rsConfig is the record separator in force.
type rsConfig struct {
	mode rsMode
	c    byte
	re   *regex
}

// maxRecord bounds one record, so a file without separators cannot take
// more than this much memory.
const maxRecord = 256 << 20

// recordReader streams records out of one input with its own buffer, so
// RS may change between records.
type recordReader struct {
	src        io.Reader
	close      func() error
	buf        []byte
	start, end int
	eof        bool
	err        error
}

func newRecordReader(src io.Reader, close func() error) *recordReader {
	return &recordReader{src: src, close: close, buf: make([]byte, 64*1024)}
}

// fill reads more input; it reports false at the end or on an error.
func (rr *recordReader) fill() bool {
	if rr.eof {
		return false
	}
	if rr.start > 0 {
		copy(rr.buf, rr.buf[rr.start:rr.end])
		rr.end -= rr.start
		rr.start = 0
	}
	if rr.end == len(rr.buf) {
		if len(rr.buf) >= maxRecord {
			rr.err = errRecordTooLong
			rr.eof = true
			return false
		}
		nb := make([]byte, 2*len(rr.buf))
		copy(nb, rr.buf[:rr.end])
		rr.buf = nb
	}
	for {
		n, err := rr.src.Read(rr.buf[rr.end:])
		rr.end += n
		if err != nil {
			rr.eof = true
			if err != io.EOF {
				rr.err = err
			}
			return n > 0
		}
		if n > 0 {
			return true
		}
	}
}

type recordError string

func (e recordError) Error() string { return string(e) }

const errRecordTooLong = recordError("record too long")

// read returns the next record and its terminator (RT).
func (rr *recordReader) read(rs *rsConfig) (rec, rt string, ok bool) {
	switch rs.mode {
	case rsParagraph:
		return rr.readParagraph()
	case rsRegex:
		return rr.readRegex(rs.re)
	}
	scanned := 0
	for {
		data := rr.buf[rr.start+scanned : rr.end]
		if i := bytes.IndexByte(data, rs.c); i >= 0 {
			i += scanned
			rec = string(rr.buf[rr.start : rr.start+i])
			rr.start += i + 1
			return rec, string(rs.c), true
		}
		scanned = rr.end - rr.start
		if !rr.fill() {
			if rr.start < rr.end {
				rec = string(rr.buf[rr.start:rr.end])
				rr.start = rr.end
				return rec, "", true
			}
			return "", "", false
		}
	}
}

// readParagraph reads a record ended by one or more blank lines; leading
// newlines are skipped and trailing ones at the end dropped.
func (rr *recordReader) readParagraph() (rec, rt string, ok bool) {
	for {
		for rr.start < rr.end && rr.buf[rr.start] == '\n' {
			rr.start++
		}
		if rr.start < rr.end {
			break
		}
		if !rr.fill() {
			return "", "", false
		}
	}
	scanned := 0
	for {
		data := rr.buf[rr.start+scanned : rr.end]
		if i := bytes.Index(data, []byte("\n\n")); i >= 0 {
			i += scanned
			j := rr.start + i
			k := j
			for k < rr.end && rr.buf[k] == '\n' {
				k++
			}
			if k == rr.end && !rr.eof {
				// More newlines may follow; they all belong to RT.
				scanned = i
				if rr.fill() {
					continue
				}
				j = rr.start + i
				k = j
				for k < rr.end && rr.buf[k] == '\n' {
					k++
				}
			}
			rec = string(rr.buf[rr.start:j])
			rt = string(rr.buf[j:k])
			rr.start = k
			return rec, rt, true
		}
		if rr.end-rr.start > 0 {
			scanned = rr.end - rr.start - 1
		}
		if !rr.fill() {
			data := rr.buf[rr.start:rr.end]
			n := len(data)
			for n > 0 && data[n-1] == '\n' {
				n--
			}
			rec, rt = string(data[:n]), string(data[n:])
			rr.start = rr.end
			return rec, rt, true
		}
	}
}

// readRegex reads up to the next match of a regex RS. A match touching the
// end of the buffer might grow, so more input is read first.
func (rr *recordReader) readRegex(re *regex) (rec, rt string, ok bool) {
	for {
		data := rr.buf[rr.start:rr.end]
		if m := re.indexBytes(data); m != nil && m[1] > m[0] && (m[1] < len(data) || rr.eof) {
			rec = string(data[:m[0]])
			rt = string(data[m[0]:m[1]])
			rr.start += m[1]
			return rec, rt, true
		}
		if !rr.fill() {
			if rr.start < rr.end {
				data := rr.buf[rr.start:rr.end]
				if m := re.indexBytes(data); m != nil && m[1] > m[0] {
					rec, rt = string(data[:m[0]]), string(data[m[0]:m[1]])
					rr.start += m[1]
					return rec, rt, true
				}
				rec = string(data)
				rr.start = rr.end
				return rec, "", true
			}
			return "", "", false
		}
	}
}

// newRSConfig reads RS: one byte is literal, "" is paragraph mode, longer
// is a regular expression (gawk).
func newRSConfig(rs string) (rsConfig, error) {
	switch len(rs) {
	case 0:
		return rsConfig{mode: rsParagraph}, nil
	case 1:
		return rsConfig{mode: rsChar, c: rs[0]}, nil
	}
	re, err := compileRegex(rs, false)
	if err != nil {
		return rsConfig{}, err
	}
	return rsConfig{mode: rsRegex, re: re}, nil
}
