package tui

import "time"

// Context is what every pane shares with the root: the screen size, the
// styles, the keys and the clock. Panes hold a pointer to the root's one
// Context, so a resize or a restyle reaches all of them at once.
type Context struct {
	Width, Height int
	Styles        Styles
	Keys          KeyMap
	// Now is the console's clock, for ask ages; tests pin it so golden
	// screens do not change from one run to the next.
	Now func() time.Time
	// Spin is the spinner's frame, for whatever is being waited for.
	Spin string
}

// focus is the pane that receives keys.
type focus int

const (
	focusQueue focus = iota
	focusDetail
	focusSessions
	focusHistory
	focusExplain
	focusCount
)

// tab is the top-level page a focus belongs to; the queue and the detail of
// the selected ask share the Asks page.
func (f focus) tab() int {
	switch f {
	case focusQueue, focusDetail:
		return 0
	case focusSessions:
		return 1
	case focusHistory:
		return 2
	}
	return 3
}

var tabNames = []string{"Asks", "Sessions", "History", "Explain"}
