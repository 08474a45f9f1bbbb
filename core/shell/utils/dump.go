package utils

import (
	"io"
)

// dumpInput is the combined input of od, xxd and hexdump: every operand
// in turn ("-" or none: standard input), read in blocks, with a byte
// offset to skip and a limit. An operand that cannot be opened is reported
// through onError and skipped, as od and hexdump do.
type dumpInput struct {
	t       *tool
	names   []string
	next    int
	cur     io.Reader
	closeFn func()
	onError func(name string, err error)
	limit   int64 // bytes still allowed, -1: no limit
	opened  int   // operands opened successfully
}

func newDumpInput(t *tool, names []string, onError func(string, error)) *dumpInput {
	if len(names) == 0 {
		names = []string{"-"}
	}
	return &dumpInput{t: t, names: names, onError: onError, limit: -1}
}

// Read implements io.Reader over the operands in turn.
func (d *dumpInput) Read(p []byte) (int, error) {
	if d.limit == 0 {
		return 0, io.EOF
	}
	if d.limit > 0 && int64(len(p)) > d.limit {
		p = p[:d.limit]
	}
	for {
		if d.t.ctx.Err() != nil {
			return 0, d.t.ctx.Err()
		}
		if d.cur == nil && !d.open() {
			return 0, io.EOF
		}
		n, err := d.cur.Read(p)
		if d.limit > 0 {
			d.limit -= int64(n)
		}
		if err == io.EOF || (err != nil && n == 0) {
			if err != io.EOF {
				d.onError(d.names[d.next-1], err)
			}
			d.closeFn()
			d.cur = nil
			if n > 0 {
				return n, nil
			}
			continue
		}
		return n, err
	}
}

// open moves to the next operand that opens.
func (d *dumpInput) open() bool {
	for d.next < len(d.names) {
		name := d.names[d.next]
		d.next++
		r, closeFn, err := openOperand(d.t, name)
		if err != nil {
			d.onError(name, err)
			continue
		}
		d.cur, d.closeFn = r, closeFn
		d.opened++
		return true
	}
	return false
}

// skip discards n bytes; it returns how many could not be skipped.
func (d *dumpInput) skip(n int64) int64 {
	limit := d.limit
	d.limit = -1
	copied, _ := io.CopyN(io.Discard, d, n)
	d.limit = limit
	return n - copied
}

// close releases the current operand.
func (d *dumpInput) close() {
	if d.cur != nil {
		d.closeFn()
		d.cur = nil
	}
}

// readBlock fills buf as far as the input allows; n < len(buf) only at
// the end of the input.
func readBlock(r io.Reader, buf []byte) int {
	n, _ := io.ReadFull(r, buf)
	return n
}

// dumpPrintable is a byte as the ASCII columns of od -z, xxd and hexdump
// -C show it: itself when printable, else '.'.
func dumpPrintable(c byte) byte {
	if c >= 0x20 && c < 0x7f {
		return c
	}
	return '.'
}
