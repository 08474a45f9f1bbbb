package utils

import (
	"strconv"
	"strings"
)

// GNU utilities quote file names in diagnostics with gnulib's shell-escape
// styles: quoteAlways is coreutils' quoteaf ('x' always), quoteIfNeeded is
// quotef (bare unless the name holds something a shell would read
// specially). In the C locale every byte outside printable ASCII is
// escaped as $'\ooo'.

func quoteAlways(name string) string { return shellQuote(name, true) }

func quoteIfNeeded(name string) string { return shellQuote(name, false) }

// shellQuote renders name as gnulib's shell_escape(_always) quoting does.
func shellQuote(name string, always bool) string {
	if name == "" {
		return "''"
	}
	needQuotes, hasQuote, compatible := always, false, true
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '\'':
			hasQuote, needQuotes = true, true
		case c == '#' || c == '~':
			if i == 0 {
				needQuotes = true
			}
		case c == ' ':
			needQuotes = true
		case strings.IndexByte("!\"$&()*;<=>[^`|?\\", c) >= 0:
			needQuotes, compatible = true, false
		case c == '{' || c == '}':
			if len(name) == 1 {
				needQuotes = true
			}
		case c < 0x20 || c >= 0x7f:
			needQuotes, compatible = true, false
		}
	}
	if !needQuotes {
		return name
	}
	if hasQuote && compatible {
		// A single quote among harmless characters reads best in double
		// quotes: "it's".
		return `"` + name + `"`
	}
	var b strings.Builder
	open := false // inside a '...' segment
	for i := 0; i < len(name); {
		c := name[i]
		if c < 0x20 || c >= 0x7f {
			// A run of unprintable bytes becomes one $'...' segment.
			if open {
				b.WriteByte('\'')
				open = false
			}
			b.WriteString("$'")
			for i < len(name) && (name[i] < 0x20 || name[i] >= 0x7f) {
				b.WriteString(cEscape(name[i]))
				i++
			}
			b.WriteByte('\'')
			continue
		}
		if !open {
			b.WriteByte('\'')
			open = true
		}
		if c == '\'' {
			b.WriteString(`'\''`)
		} else {
			b.WriteByte(c)
		}
		i++
	}
	if open {
		b.WriteByte('\'')
	}
	return b.String()
}

// cEscape spells one unprintable byte the way $'...' strings do.
func cEscape(c byte) string {
	switch c {
	case '\a':
		return `\a`
	case '\b':
		return `\b`
	case '\f':
		return `\f`
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case '\t':
		return `\t`
	case '\v':
		return `\v`
	}
	s := strconv.FormatInt(int64(c), 8)
	for len(s) < 3 {
		s = "0" + s
	}
	return `\` + s
}
