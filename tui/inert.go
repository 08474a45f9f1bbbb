package tui

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Text an agent wrote reaches the screen: its lines, arguments, paths,
// notes, output, and the reasons a policy program words from them. A
// terminal acts on some characters instead of showing them (escape
// sequences repaint the screen, set the window title, hide text or open
// links; a carriage return overwrites the row), and others show nothing at
// all (bidirectional overrides reorder what follows; zero-width and tag
// characters hide differences between two commands that look the same).
// An agent must not repaint the human's screen, nor make a command look
// like another, so every piece of text the console draws passes through
// inert first (fit, fitLeft and wrap call it): each such character is
// replaced by a visible stand-in, and the human sees that it is there.

// inert returns s with every character a terminal would act on or hide
// replaced by a visible stand-in: C0 controls and DEL by their Unicode
// control pictures (ESC shows as ␛, a tab as ␉, a carriage return as ␍),
// C1 controls, invisible format characters and bytes that are not UTF-8
// by their code written out (⟨U+202E⟩, ⟨0xFF⟩). Newlines are kept: callers
// break rows there or show ⏎. Text with nothing to replace comes back as
// it was, without allocating.
func inert(s string) string {
	i := 0
	for i < len(s) {
		c := s[i]
		if c >= 0x80 {
			r, size := utf8.DecodeRuneInString(s[i:])
			if standIn(r, size, s[i], s[:i]) != "" {
				break
			}
			i += size
			continue
		}
		if (c < 0x20 && c != '\n') || c == 0x7f {
			break
		}
		i++
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if rep := standIn(r, size, s[i], s[:i]); rep != "" {
			b.WriteString(rep)
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// standIn is what inert shows instead of the rune r (size bytes long,
// starting with the byte first, after the text before), or "" when r is
// drawn as it is.
func standIn(r rune, size int, first byte, before string) string {
	switch {
	case r == utf8.RuneError && size == 1:
		return fmt.Sprintf("⟨0x%02X⟩", first)
	case r == '\n':
		return ""
	case r < 0x20:
		return string(rune(0x2400 + r)) // ␀ … ␟
	case r == 0x7f:
		return "␡"
	case r < 0x80:
		return ""
	case r <= 0x9f, hiddenFormat(r, before):
		return fmt.Sprintf("⟨U+%04X⟩", r)
	}
	return ""
}

// hiddenFormat reports whether r is a character that draws nothing and
// could make two different texts look the same or reorder what follows:
// bidirectional controls, zero-width characters, invisible operators, the
// byte-order mark, the soft hyphen, tag characters and the supplementary
// variation selectors (both used to smuggle text past a reader). A
// zero-width joiner is kept after a character that is not ASCII, where it
// joins emoji; after ASCII it only hides.
func hiddenFormat(r rune, before string) bool {
	switch {
	case r == 0x00ad, r == 0x061c, r == 0x180e, r == 0xfeff:
		return true
	case r == 0x200d:
		last, _ := utf8.DecodeLastRuneInString(before)
		return last < 0x80 || last == utf8.RuneError
	case r >= 0x200b && r <= 0x200f, r >= 0x2028 && r <= 0x202e, r >= 0x2060 && r <= 0x206f:
		return true
	case r >= 0xfff9 && r <= 0xfffb: // interlinear annotation
		return true
	case r >= 0xe0000 && r <= 0xe007f, r >= 0xe0100 && r <= 0xe01ef:
		return true
	}
	return false
}

// expandTabs replaces each tab of program output by the blanks up to the
// next multiple of eight columns, as a terminal would show it, so columns
// of output still line up once the tab itself could not be drawn.
func expandTabs(s string) string {
	if strings.IndexByte(s, '\t') < 0 {
		return s
	}
	var b strings.Builder
	col := 0
	for _, r := range s {
		switch r {
		case '\t':
			n := 8 - col%8
			b.WriteString(spaces(n))
			col += n
		case '\n':
			b.WriteByte('\n')
			col = 0
		default:
			b.WriteRune(r)
			col++
		}
	}
	return b.String()
}
