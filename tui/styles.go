package tui

import (
	"charm.land/bubbles/v2/help"
	"charm.land/lipgloss/v2"
)

// Styles are the console's looks. Colours come in light/dark pairs chosen
// from the terminal's background (G-13.3); every state the console shows
// with a colour it also shows with a symbol or a word, so a terminal without
// colour (or a colour-blind reader) loses nothing.
type Styles struct {
	Brand       lipgloss.Style
	TabActive   lipgloss.Style
	TabInactive lipgloss.Style
	CountAlert  lipgloss.Style // the header count while asks wait
	CountCalm   lipgloss.Style // the header count at zero

	PaneTitle        lipgloss.Style
	PaneTitleFocused lipgloss.Style
	Rule             lipgloss.Style // separators between panes
	Selected         lipgloss.Style // the selected row
	Dim              lipgloss.Style
	Label            lipgloss.Style // field names in Detail
	Asked            lipgloss.Style // the asked command inside its line
	Stderr           lipgloss.Style

	Allow   lipgloss.Style
	Deny    lipgloss.Style
	Pending lipgloss.Style
	Closed  lipgloss.Style

	Running lipgloss.Style
	Waiting lipgloss.Style
	Idle    lipgloss.Style

	Status  lipgloss.Style
	Message lipgloss.Style
	Error   lipgloss.Style
	Prompt  lipgloss.Style

	Help help.Styles
}

// NewStyles builds the console's styles for a dark or a light background.
func NewStyles(isDark bool) Styles {
	pick := lipgloss.LightDark(isDark)
	accent := pick(lipgloss.Color("#5A3FC0"), lipgloss.Color("#B9A6FF"))
	green := pick(lipgloss.Color("#1B7F3B"), lipgloss.Color("#5FD787"))
	red := pick(lipgloss.Color("#B3261E"), lipgloss.Color("#FF6B6B"))
	amber := pick(lipgloss.Color("#8A5A00"), lipgloss.Color("#FFC857"))
	muted := pick(lipgloss.Color("#6B6B6B"), lipgloss.Color("#8A8A8A"))
	faint := pick(lipgloss.Color("#C8C8C8"), lipgloss.Color("#444444"))
	plain := lipgloss.NewStyle()

	s := Styles{
		Brand:       plain.Bold(true).Foreground(accent),
		TabActive:   plain.Bold(true).Foreground(accent), // and [brackets]
		TabInactive: plain.Foreground(muted),
		CountAlert:  plain.Bold(true).Foreground(amber),
		CountCalm:   plain.Foreground(muted),

		PaneTitle:        plain.Foreground(muted),
		PaneTitleFocused: plain.Bold(true).Foreground(accent),
		Rule:             plain.Foreground(faint),
		Selected:         plain.Reverse(true),
		Dim:              plain.Foreground(muted),
		Label:            plain.Bold(true),
		Asked:            plain.Bold(true).Foreground(amber), // and ⟦brackets⟧
		Stderr:           plain.Foreground(red),

		Allow:   plain.Foreground(green),
		Deny:    plain.Foreground(red),
		Pending: plain.Foreground(amber),
		Closed:  plain.Foreground(muted),

		Running: plain.Foreground(green),
		Waiting: plain.Bold(true).Foreground(amber),
		Idle:    plain.Foreground(muted),

		Status:  plain.Foreground(muted),
		Message: plain.Bold(true),
		Error:   plain.Bold(true).Foreground(red),
		Prompt:  plain.Bold(true).Foreground(accent),
	}
	s.Help = help.DefaultStyles(isDark)
	return s
}

// outcomeStyle is how a decision's outcome word is drawn.
func (s Styles) outcomeStyle(outcome string) lipgloss.Style {
	switch outcome {
	case "allow", "run", "granted":
		return s.Allow
	case "deny", "not-found", "hidden":
		return s.Deny
	case "ask", "pending", "dynamic":
		return s.Pending
	}
	return s.Closed
}

// stateStyle is how a session's state word is drawn.
func (s Styles) stateStyle(state string) lipgloss.Style {
	switch state {
	case "running":
		return s.Running
	case "waiting":
		return s.Waiting
	}
	return s.Idle
}
