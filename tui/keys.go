package tui

import (
	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
)

// KeyMap is every key the console answers to (G-13.2); no key is read
// anywhere but through it, so the help never lies. A key is enabled
// exactly when it can act, which also hides it from the help bar.
type KeyMap struct {
	AllowOnce    key.Binding
	AllowSession key.Binding
	Deny         key.Binding
	DenyNote     key.Binding
	AllowNote    key.Binding // m: allow once, with a note the agent reads
	Amend        key.Binding // A: allow once and add a rule (amend the document)
	AllowSame    key.Binding // Y on the Asks page: every identical pending ask, once
	DenySame     key.Binding // D on the Asks page: every identical pending ask
	AllowAllOnce key.Binding // Y on a session: every pending ask of it, once

	NextPane key.Binding
	PrevPane key.Binding
	Up       key.Binding
	Down     key.Binding
	PageUp   key.Binding
	PageDown key.Binding
	Open     key.Binding
	Back     key.Binding
	// Questions: y answers yes; anything else is no.
	Confirm key.Binding
	Cancel  key.Binding
	// What enter, esc and the arrows mean inside the inputs, for the bar.
	Run         key.Binding // enter while typing a line to explain
	Session     key.Binding // ↑/↓ while typing a line to explain
	PrevSession key.Binding
	NextSession key.Binding
	EditLine    key.Binding // enter or e in the Explain pane
	KeepFilter  key.Binding // enter while typing a filter
	ClearFilter key.Binding // esc while typing a filter
	SendNote    key.Binding // enter in the note (N's or m's)
	// The table under Explain's line scrolls by page while the line has
	// the keys (j and k are letters there; ctrl+u and ctrl+d edit).
	TableScroll key.Binding // for the bar; enabled when the table overflows
	TableUp     key.Binding
	TableDown   key.Binding

	Filter  key.Binding
	Explain key.Binding
	History key.Binding
	Help    key.Binding
	Quit    key.Binding
	// ForceQuit quits at once, whatever is open or typed.
	ForceQuit key.Binding
}

// DefaultKeyMap is the G-13.2 key set.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		AllowOnce:    key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "allow once")),
		AllowSession: key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "allow session")),
		Deny:         key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "deny")),
		DenyNote:     key.NewBinding(key.WithKeys("N"), key.WithHelp("N", "deny+note")),
		AllowNote:    key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "allow+note")),
		Amend:        key.NewBinding(key.WithKeys("A"), key.WithHelp("A", "allow+add rule")),
		AllowSame:    key.NewBinding(key.WithKeys("Y"), key.WithHelp("Y", "allow all same")),
		DenySame:     key.NewBinding(key.WithKeys("D"), key.WithHelp("D", "deny all same")),
		AllowAllOnce: key.NewBinding(key.WithKeys("Y"), key.WithHelp("Y", "allow all once")),

		NextPane: key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next")),
		PrevPane: key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous pane")),
		Up:       key.NewBinding(key.WithKeys("k", "up"), key.WithHelp("↑/k", "up")),
		Down:     key.NewBinding(key.WithKeys("j", "down"), key.WithHelp("↓/j", "down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup", "ctrl+u"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", "ctrl+d"), key.WithHelp("pgdn", "page down")),
		Open:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open")),
		Back:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		Confirm:  key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "yes")),
		Cancel:   key.NewBinding(key.WithKeys("n", "esc"), key.WithHelp("any other key", "no")),

		Run:         key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "explain")),
		Session:     key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "session")),
		PrevSession: key.NewBinding(key.WithKeys("up")),
		NextSession: key.NewBinding(key.WithKeys("down")),
		EditLine:    key.NewBinding(key.WithKeys("enter", "e"), key.WithHelp("enter/e", "edit line")),
		KeepFilter:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "keep filter")),
		ClearFilter: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter")),
		SendNote:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "answer with this note")),
		TableScroll: key.NewBinding(key.WithKeys("pgup", "pgdown"), key.WithHelp("pgup/pgdn", "scroll")),
		TableUp:     key.NewBinding(key.WithKeys("pgup")),
		TableDown:   key.NewBinding(key.WithKeys("pgdown")),

		Filter:    key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		Explain:   key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "explain")),
		History:   key.NewBinding(key.WithKeys("h"), key.WithHelp("h", "history")),
		Help:      key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit:      key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit")),
		ForceQuit: key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit at once")),
	}
}

// answering lists the keys that answer an ask (G-13.6): while the ask
// under the cursor has just changed they wait (answer.go).
func (k *KeyMap) answering() []*key.Binding {
	return []*key.Binding{&k.AllowOnce, &k.AllowSession, &k.Deny, &k.DenyNote, &k.AllowNote, &k.Amend, &k.AllowSame, &k.DenySame}
}

// setAnswering enables the answering keys exactly when an ask is selected;
// same says whether other pending asks are identical to it.
func (k *KeyMap) setAnswering(on, same bool) {
	for _, b := range k.answering() {
		b.SetEnabled(on)
	}
	k.AllowSame.SetEnabled(on && same)
	k.DenySame.SetEnabled(on && same)
}

// shortHelp is the one-line bar for the pane in focus, most important
// first: a narrow terminal keeps the head of the list and offers `? more`
// for the rest (see fitting). empty says the page's list has nothing in
// it: the keys that open, move through or filter it are not offered; still
// says ↑/↓ would move nothing there (one row, a page that fits), and they
// are not offered either.
func (k KeyMap) shortHelp(f focus, transcript, typing, empty, still bool) []key.Binding {
	if still { // k is a copy
		k.Up.SetEnabled(false)
		k.Down.SetEnabled(false)
	}
	switch {
	case f == focusSessions && transcript:
		return []key.Binding{k.Up, k.Down, k.Back, k.Quit, k.NextPane}
	case f == focusExplain && typing:
		// q types a q here, so the bar does not offer it.
		return []key.Binding{k.Run, k.Session, k.Back, k.NextPane, k.TableScroll}
	case (f == focusHistory || f == focusQueue) && typing:
		return []key.Binding{k.KeepFilter, k.ClearFilter, k.NextPane}
	}
	switch f {
	case focusQueue, focusDetail:
		if empty {
			return []key.Binding{k.Quit, k.Explain, k.History, k.NextPane}
		}
		return []key.Binding{k.AllowOnce, k.AllowSession, k.Deny, k.DenyNote, k.Quit, k.AllowNote, k.Amend, k.AllowSame, k.DenySame,
			k.Explain, k.History, k.Filter, k.NextPane}
	case focusSessions:
		if empty {
			return []key.Binding{k.Quit, k.NextPane}
		}
		return []key.Binding{k.Open, k.AllowAllOnce, k.Up, k.Down, k.Quit, k.Explain, k.NextPane}
	case focusHistory:
		if empty {
			return []key.Binding{k.Back, k.Quit, k.NextPane}
		}
		return []key.Binding{k.Filter, k.Up, k.Down, k.Back, k.Quit, k.Explain, k.NextPane}
	case focusExplain:
		return []key.Binding{k.EditLine, k.Up, k.Down, k.Back, k.Quit, k.NextPane}
	}
	return []key.Binding{k.Quit}
}

// fitting keeps the leading enabled bindings that fit in w cells, then the
// help key: `? help` when nothing was left out, `? more` when something
// was, so a narrow bar always says there is more. A disabled help key (an
// input has the keys, and ? types a ?) is not offered.
func fitting(bindings []key.Binding, help key.Binding, w, sepWidth int) []key.Binding {
	itemWidth := func(b key.Binding) int {
		return lipgloss.Width(b.Help().Key) + 1 + lipgloss.Width(b.Help().Desc)
	}
	more := key.NewBinding(key.WithKeys(help.Keys()...), key.WithHelp(help.Help().Key, "more"))
	budget := w
	if help.Enabled() {
		budget -= itemWidth(more) + sepWidth
	}
	var out []key.Binding
	used, dropped := 0, false
	for _, b := range bindings {
		if !b.Enabled() {
			continue
		}
		item := itemWidth(b)
		if used > 0 {
			item += sepWidth
		}
		if dropped || used+item > budget {
			dropped = true
			continue
		}
		used += item
		out = append(out, b)
	}
	switch {
	case !help.Enabled():
		return out
	case dropped:
		return append(out, more)
	}
	return append(out, help)
}

// fullHelp is every key, in columns (the `?` screen). It lists the
// answering keys even while they are disabled: the screen teaches the keys.
func (k KeyMap) fullHelp() [][]key.Binding {
	k.setAnswering(true, true) // k is a copy
	k.AllowAllOnce.SetEnabled(true)
	k.AllowAllOnce.SetHelp("Y", "allow a session's asks")
	k.NextPane.SetHelp("tab", "next pane") // the bar says "next" for room
	return [][]key.Binding{
		{k.AllowOnce, k.AllowSession, k.Deny, k.DenyNote, k.AllowNote, k.Amend, k.AllowSame, k.DenySame, k.AllowAllOnce},
		{k.NextPane, k.PrevPane, k.Up, k.Down, k.PageUp, k.PageDown},
		{k.Open, k.Back, k.Filter, k.Explain, k.History},
		{k.Help, k.Quit, k.ForceQuit},
	}
}
