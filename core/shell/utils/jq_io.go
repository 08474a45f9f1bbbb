package utils

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/itchyny/gojq"
)

// jqInputs is the stream of input values over every file in turn; it is
// both the main loop's source and gojq's input/inputs iterator.
type jqInputs struct {
	t     *tool
	cfg   *jqConfig
	files []string
	next  int
	name  string // file of the current value; "" for stdin
	label string // name as jq prints it in errors
	data  []byte
	dec   *jqDecoder
	lines []string // -R: the remaining lines of the current file
	line  int      // lines consumed, for error positions
	// counted is how far into data line has counted.
	counted int
	loaded  bool
	failed  bool // a file could not be read
	// badJSON says an input did not parse: jq 1.6 reads nothing after it.
	badJSON bool
}

func newJqInputs(t *tool, cfg *jqConfig) *jqInputs {
	files := cfg.files
	if len(files) == 0 {
		files = []string{"-"}
	}
	return &jqInputs{t: t, cfg: cfg, files: files}
}

// filename is input_filename: the current file, or null for stdin.
func (in *jqInputs) filename() any {
	if in.name == "" {
		return nil
	}
	return in.name
}

// position renders where the last value came from: "<stdin>:3".
func (in *jqInputs) position() string {
	if !in.loaded {
		return "<unknown>"
	}
	return in.label + ":" + strconv.Itoa(in.line)
}

// open loads the next readable file; it reports whether there was one.
func (in *jqInputs) open() bool {
	for in.next < len(in.files) {
		name := in.files[in.next]
		in.next++
		r, closeIn, err := openOperand(in.t, name)
		if err == nil {
			in.data, err = io.ReadAll(r)
			closeIn()
		}
		if err != nil {
			in.t.rawStderr(jqVoice(name, errText(err)))
			in.failed = true
			continue
		}
		in.name, in.label, in.line, in.counted, in.loaded = name, name, 0, 0, true
		if name == "-" {
			in.name, in.label = "", "<stdin>"
		}
		if in.cfg.rawInput {
			text := string(in.data)
			if in.cfg.slurp {
				in.lines = []string{text}
			} else {
				in.lines = strings.SplitAfter(text, "\n")
				if in.lines[len(in.lines)-1] == "" {
					in.lines = in.lines[:len(in.lines)-1]
				}
			}
		} else {
			in.dec = newJqDecoder(bytes.NewReader(in.data), in.cfg.orders)
		}
		return true
	}
	return false
}

// Next implements gojq.Iter: the next input value, or an error value
// for input that does not parse.
func (in *jqInputs) Next() (any, bool) {
	for {
		if in.t.ctx.Err() != nil {
			return nil, false
		}
		if in.cfg.rawInput && len(in.lines) > 0 {
			s := in.lines[0]
			in.lines = in.lines[1:]
			in.line++
			if !in.cfg.slurp {
				s = strings.TrimSuffix(s, "\n")
			}
			return s, true
		}
		if in.dec != nil {
			v, err := in.dec.next()
			if err == nil {
				end := jqLineEnd(in.data, int(in.dec.dec.InputOffset()))
				if end > in.counted {
					in.line += bytes.Count(in.data[in.counted:end], []byte{'\n'})
					in.counted = end
				}
				return v, true
			}
			in.dec = nil
			if err != io.EOF {
				in.badJSON = true
				return jqParseError(in.data, err), true
			}
		}
		if !in.open() {
			return nil, false
		}
	}
}

// jqLineEnd is where jq has consumed its input to after a value ending at
// offset: it reads on through blanks and the newline that ends the line.
// The lines are counted from the last value's end, not the input's start
// (counted from the start, 300,000 values on as many lines took 5 s).
func jqLineEnd(data []byte, offset int) int {
	end := offset
	for end < len(data) && (data[end] == ' ' || data[end] == '\t' || data[end] == '\r') {
		end++
	}
	if end < len(data) && data[end] == '\n' {
		end++
	}
	return end
}

// jqParseError words a JSON syntax error as jq 1.6 does.
func jqParseError(data []byte, err error) error {
	offset := len(data)
	msg := err.Error()
	var syn *json.SyntaxError
	switch {
	case errors.As(err, &syn):
		offset = int(syn.Offset)
		msg = strings.TrimPrefix(msg, "json: ")
	case errors.Is(err, io.ErrUnexpectedEOF):
		msg = "Unfinished JSON term at EOF"
	}
	offset = min(offset, len(data))
	line := 1 + bytes.Count(data[:offset], []byte{'\n'})
	col := offset - (bytes.LastIndexByte(data[:offset], '\n') + 1)
	return fmt.Errorf("parse error: %s at line %d, column %d", msg, line, col)
}

// jqDecodeText parses one JSON text (--argjson, --jsonargs).
func jqDecodeText(s string, orders *jqKeyOrders) (any, error) {
	values, err := jqDecodeAll(s, orders)
	if err != nil {
		return nil, err
	}
	if len(values) != 1 {
		return nil, errors.New("expected exactly one JSON value")
	}
	return values[0], nil
}

// jqDecodeAll parses every JSON value of a text.
func jqDecodeAll(s string, orders *jqKeyOrders) ([]any, error) {
	dec := newJqDecoder(strings.NewReader(s), orders)
	values := []any{}
	for {
		v, err := dec.next()
		if err == io.EOF {
			return values, nil
		}
		if err != nil {
			return nil, err
		}
		values = append(values, v)
	}
}

// jqDecoder reads JSON values token by token, recording key order.
type jqDecoder struct {
	dec    *json.Decoder
	orders *jqKeyOrders
	depth  int // arrays and objects open; see jqMaxInputDepth
}

// jqMaxInputDepth is how deeply input values may nest, as jq's own parser
// bounds it ("Exceeds depth limit for parsing"): values are built, compared
// and printed by recursion on their depth (G-12.3).
const jqMaxInputDepth = 1000

// errJqDepth words the refusal as jq does, capital included.
var errJqDepth error = jqDepthError{}

type jqDepthError struct{}

func (jqDepthError) Error() string { return "Exceeds depth limit for parsing" }

func newJqDecoder(r io.Reader, orders *jqKeyOrders) *jqDecoder {
	dec := json.NewDecoder(r)
	dec.UseNumber()
	return &jqDecoder{dec: dec, orders: orders}
}

// next returns the next top-level value, io.EOF at the clean end.
func (d *jqDecoder) next() (any, error) {
	tok, err := d.dec.Token()
	if err != nil {
		return nil, err
	}
	return d.build(tok)
}

func (d *jqDecoder) inner() (any, error) {
	tok, err := d.dec.Token()
	if err == io.EOF {
		return nil, io.ErrUnexpectedEOF
	}
	if err != nil {
		return nil, err
	}
	return d.build(tok)
}

func (d *jqDecoder) build(tok json.Token) (any, error) {
	switch x := tok.(type) {
	case json.Delim:
		if d.depth >= jqMaxInputDepth {
			return nil, errJqDepth
		}
		d.depth++
		defer func() { d.depth-- }()
		if x == '[' {
			arr := []any{}
			for d.dec.More() {
				v, err := d.inner()
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			return arr, d.closing()
		}
		obj := map[string]any{}
		var keys []string
		for d.dec.More() {
			kt, err := d.inner()
			if err != nil {
				return nil, err
			}
			k, _ := kt.(string)
			v, err := d.inner()
			if err != nil {
				return nil, err
			}
			if _, dup := obj[k]; !dup {
				keys = append(keys, k)
			}
			obj[k] = v
		}
		if d.orders != nil {
			d.orders.record(obj, keys)
		}
		return obj, d.closing()
	case json.Number:
		return jqNumber(x), nil
	}
	return tok, nil
}

func (d *jqDecoder) closing() error {
	_, err := d.dec.Token()
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// jqNumber turns a decoded number into the kinds gojq computes with:
// int when exact, *big.Int for larger integers, float64 otherwise.
func jqNumber(x json.Number) any {
	s := string(x)
	if !strings.ContainsAny(s, ".eE") {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil && n >= math.MinInt && n <= math.MaxInt {
			if n == 0 && strings.HasPrefix(s, "-") {
				return math.Copysign(0, -1)
			}
			return int(n)
		}
		if b, ok := new(big.Int).SetString(s, 10); ok {
			return b
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return math.Copysign(math.MaxFloat64, f)
	}
	return f
}

// jqEncode renders a value as jq prints it: pretty with the configured
// indent, or compact. The text stops growing past jqTextLimit (an error
// message's value; what is printed to stdout goes through jqEncodeTo).
func jqEncode(v any, cfg *jqConfig) string {
	var b strings.Builder
	newJqEncoder(&b, cfg, func(string) bool { return b.Len() < jqTextLimit }).value(v, 0)
	return b.String()
}

// jqTextLimit bounds the text of one value jqEncode builds: a program's
// value may share its arrays many times over (reduce range(40) as $i (0;
// [., ., ., ., ., ., ., .]) holds 40 arrays but prints 8^40 numbers).
const jqTextLimit = 16 << 20

// jqEncodeTo renders v as jqEncode does, handing the text to write in
// pieces of about 64 KiB as it grows, and the last piece as its result;
// it stops when write returns false (a dead stdout, the line's end), so
// a value that prints more than the line may write holds no more than a
// piece (G-12.3).
func jqEncodeTo(v any, cfg *jqConfig, write func(string) bool) (rest string, ok bool) {
	var b strings.Builder
	e := newJqEncoder(&b, cfg, func(text string) bool {
		if b.Len() < 64<<10 {
			return true
		}
		if !write(text) {
			return false
		}
		b.Reset()
		return true
	})
	e.value(v, 0)
	return b.String(), !e.stopped
}

func newJqEncoder(b *strings.Builder, cfg *jqConfig, piece func(string) bool) *jqEncoder {
	unit := ""
	if !cfg.compact && cfg.indent != 0 {
		if cfg.tab {
			unit = "\t"
		} else {
			unit = strings.Repeat(" ", max(cfg.indent, 0))
		}
	}
	if cfg.indent < 0 && !cfg.tab {
		unit = ""
	}
	return &jqEncoder{b: b, unit: unit, ascii: cfg.ascii, sortKeys: cfg.sortKeys, orders: cfg.orders, piece: piece}
}

type jqEncoder struct {
	b        *strings.Builder
	unit     string
	ascii    bool
	sortKeys bool
	orders   *jqKeyOrders
	// piece is asked after each element of an array or object whether
	// to go on (it may take the text so far); stopped once it says no.
	piece   func(string) bool
	stopped bool
}

// jqMaxPrintDepth is jq's MAX_PRINT_DEPTH: a value inside more arrays and
// objects than that prints as jqStripped (and the encoder's recursion
// stays bounded whatever the program built).
const jqMaxPrintDepth = 256

const jqStripped = "<stripped: exceeds max depth>"

// next reports whether to go on after an element.
func (e *jqEncoder) next() bool {
	if !e.stopped && !e.piece(e.b.String()) {
		e.stopped = true
	}
	return !e.stopped
}

func (e *jqEncoder) value(v any, depth int) {
	b, unit := e.b, e.unit
	newline := func(d int) {
		if unit != "" {
			b.WriteByte('\n')
			for range d {
				b.WriteString(unit)
			}
		}
	}
	if depth > jqMaxPrintDepth {
		b.WriteString(jqStripped)
		return
	}
	switch x := v.(type) {
	case []any:
		if len(x) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		for i, item := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			newline(depth + 1)
			e.value(item, depth+1)
			if !e.next() {
				return
			}
		}
		newline(depth)
		b.WriteByte(']')
	case map[string]any:
		if len(x) == 0 {
			b.WriteString("{}")
			return
		}
		keys := e.orders.keysOf(x, e.sortKeys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			newline(depth + 1)
			e.value(k, 0) // a key is never stripped
			b.WriteByte(':')
			if unit != "" {
				b.WriteByte(' ')
			}
			e.value(x[k], depth+1)
			if !e.next() {
				return
			}
		}
		newline(depth)
		b.WriteByte('}')
	case float64:
		b.WriteString(jqFloat(x))
	default:
		text, err := gojq.Marshal(v)
		if err != nil {
			b.WriteString("null")
			return
		}
		if e.ascii {
			b.WriteString(jqASCII(string(text)))
			return
		}
		b.Write(text)
	}
}

// jqFloat prints a float as jq does: gojq's shortest form, with the
// exponent signed and at least two digits (1.5e-07, 1e+300).
func jqFloat(f float64) string {
	text, _ := gojq.Marshal(f)
	s := string(text)
	i := strings.IndexByte(s, 'e')
	if i < 0 {
		return s
	}
	mant, exp := s[:i], s[i+1:]
	sign := "+"
	if exp[0] == '-' || exp[0] == '+' {
		sign, exp = exp[:1], exp[1:]
	}
	if len(exp) < 2 {
		exp = "0" + exp
	}
	return mant + "e" + sign + exp
}

// jqASCII escapes every non-ASCII character of encoded JSON as \uXXXX.
func jqASCII(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < utf8.RuneSelf:
			b.WriteRune(r)
		case r > 0xffff:
			r -= 0x10000
			fmt.Fprintf(&b, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}
