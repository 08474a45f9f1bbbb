package utils

import (
	"encoding/base64"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// ripgrep's --json prints JSON Lines (grep-printer's JSON printer):
// "begin" before a file's first match or context line, one "match" per
// matching line (per block of lines with -U), "context" for context
// lines, "end" with the file's statistics, and a final "summary" whose
// keys are sorted (serde_json's map). Line numbers are always on unless
// -N; the elapsed times are real, and so differ from run to run.

// rgStats is ripgrep's Stats object, summed over the files searched.
type rgStats struct {
	elapsed                     time.Duration
	searches, searchesWithMatch int64
	bytesSearched, bytesPrinted int64
	matchedLines, matches       int64
}

// rgJSONFile is one file's part of the JSON output.
type rgJSONFile struct {
	begun                bool
	from                 int64 // rgRun.jsonBytes when the begin message was written
	matchMsgs            int64
	matches, matchedLine int64
	started              time.Time
}

// rgJSONData is an arbitrary data object: text when the bytes are UTF-8,
// else their base64.
func rgJSONData(b []byte) string {
	if utf8.Valid(b) {
		return `{"text":` + rgJSONString(b) + `}`
	}
	return `{"bytes":"` + base64.StdEncoding.EncodeToString(b) + `"}`
}

// rgJSONString quotes valid UTF-8 as serde_json does: only the quote, the
// backslash and control characters are escaped.
func rgJSONString(b []byte) string {
	var sb strings.Builder
	sb.WriteByte('"')
	for _, c := range b {
		switch c {
		case '"':
			sb.WriteString(`\"`)
		case '\\':
			sb.WriteString(`\\`)
		case '\n':
			sb.WriteString(`\n`)
		case '\r':
			sb.WriteString(`\r`)
		case '\t':
			sb.WriteString(`\t`)
		case '\b':
			sb.WriteString(`\b`)
		case '\f':
			sb.WriteString(`\f`)
		default:
			if c < 0x20 {
				sb.WriteString(`\u00` + string("0123456789abcdef"[c>>4]) + string("0123456789abcdef"[c&15]))
			} else {
				sb.WriteByte(c)
			}
		}
	}
	sb.WriteByte('"')
	return sb.String()
}

// rgJSONDuration is a duration object in the field order given.
func rgJSONDuration(d time.Duration, sorted bool) string {
	secs := strconv.FormatInt(int64(d/time.Second), 10)
	nanos := strconv.FormatInt(int64(d%time.Second), 10)
	human := `"` + strconv.FormatFloat(d.Seconds(), 'f', 6, 64) + `s"`
	if sorted {
		return `{"human":` + human + `,"nanos":` + nanos + `,"secs":` + secs + `}`
	}
	return `{"secs":` + secs + `,"nanos":` + nanos + `,"human":` + human + `}`
}

// jsonWrite writes one message line, counting its bytes for the stats.
func (r *rgRun) jsonWrite(msg string) {
	r.jsonBytes += int64(len(msg)) + 1
	r.t.writeString(msg)
	r.t.writeByte('\n')
}

// jsonPath is the path object of the file being searched.
func (r *rgRun) jsonPath(s *rgFile) string { return rgJSONData([]byte(s.shown)) }

// jsonBegin writes the file's begin message once.
func (r *rgRun) jsonBegin(s *rgFile) {
	if s.json.begun {
		return
	}
	s.json.begun, s.json.from = true, r.jsonBytes
	r.jsonWrite(`{"type":"begin","data":{"path":` + r.jsonPath(s) + `}}`)
}

// jsonLines writes a match or context message: lines starts at the
// current line; spans are offsets into lines.
func (r *rgRun) jsonLines(s *rgFile, kind string, lines []byte, spans [][]int) {
	r.jsonBegin(s)
	no := "null"
	if r.cfg.lineNumber != 0 {
		no = strconv.FormatInt(s.no, 10)
	}
	var sb strings.Builder
	sb.WriteString(`{"type":"` + kind + `","data":{"path":` + r.jsonPath(s) + `,"lines":` + rgJSONData(lines) +
		`,"line_number":` + no + `,"absolute_offset":` + strconv.FormatInt(s.off, 10) + `,"submatches":[`)
	for i, sp := range spans {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(`{"match":` + rgJSONData(lines[sp[0]:sp[1]]) + `,"start":` + strconv.Itoa(sp[0]) + `,"end":` + strconv.Itoa(sp[1]) + `}`)
	}
	sb.WriteString(`]}}`)
	r.jsonWrite(sb.String())
	if kind == "match" {
		s.json.matchMsgs++
		s.json.matches += int64(len(spans))
		s.json.matchedLine += int64(rgLineCount(lines))
	}
}

// rgLineCount is how many lines bytes hold (a last one unterminated too).
func rgLineCount(b []byte) int {
	n := strings.Count(string(b), "\n")
	if len(b) > 0 && b[len(b)-1] != '\n' {
		n++
	}
	return n
}

// jsonEnd writes the file's end message, when it began, and adds its
// statistics to the summary's.
func (r *rgRun) jsonEnd(s *rgFile) {
	if !s.json.begun {
		return
	}
	elapsed := time.Since(s.json.started)
	printed := r.jsonBytes - s.json.from
	withMatch := int64(0)
	if s.json.matchMsgs > 0 {
		withMatch = 1
	}
	st := &r.jsonTotal
	st.elapsed += elapsed
	st.searches++
	st.searchesWithMatch += withMatch
	st.bytesSearched += s.searched
	st.bytesPrinted += printed
	st.matchedLines += s.json.matchedLine
	st.matches += s.json.matches
	r.jsonWrite(`{"type":"end","data":{"path":` + r.jsonPath(s) + `,"binary_offset":null,"stats":{"elapsed":` +
		rgJSONDuration(elapsed, false) + `,"searches":1,"searches_with_match":` + strconv.FormatInt(withMatch, 10) +
		`,"bytes_searched":` + strconv.FormatInt(s.searched, 10) + `,"bytes_printed":` + strconv.FormatInt(printed, 10) +
		`,"matched_lines":` + strconv.FormatInt(s.json.matchedLine, 10) + `,"matches":` + strconv.FormatInt(s.json.matches, 10) + `}}}`)
}

// jsonSummary writes the last message, with sorted keys.
func (r *rgRun) jsonSummary() {
	st := &r.jsonTotal
	n := func(v int64) string { return strconv.FormatInt(v, 10) }
	r.jsonWrite(`{"data":{"elapsed_total":` + rgJSONDuration(time.Since(r.started), true) +
		`,"stats":{"bytes_printed":` + n(st.bytesPrinted) + `,"bytes_searched":` + n(st.bytesSearched) +
		`,"elapsed":` + rgJSONDuration(st.elapsed, true) + `,"matched_lines":` + n(st.matchedLines) +
		`,"matches":` + n(st.matches) + `,"searches":` + n(st.searches) + `,"searches_with_match":` +
		n(st.searchesWithMatch) + `}},"type":"summary"}`)
}
