package tui

import "charm.land/bubbles/v2/key"

// KeyMap is every key the console answers to (G-13.2). The answering keys
// are disabled while nothing is selected, which also hides them from the
// help bar, so the bar never offers what a key cannot do.
type KeyMap struct {
	AllowOnce    key.Binding
	AllowSession key.Binding
	Deny         key.Binding
	DenyNote     key.Binding
	AllowAllOnce key.Binding // Y on a session: every pending ask, once
	Amend        key.Binding // A: allow once and add a rule (amend the document)

	NextPane key.Binding
	PrevPane key.Binding
	Up       key.Binding
	Down     key.Binding
	PageUp   key.Binding
	PageDown key.Binding
	Open     key.Binding
	Back     key.Binding
	// What enter, esc and the arrows mean inside the inputs, for the bar.
	Run         key.Binding // enter while typing a line to explain
	Session     key.Binding // ↑/↓ while typing a line to explain
	EditLine    key.Binding // enter or e in the Explain pane
	KeepFilter  key.Binding // enter while typing a filter
	ClearFilter key.Binding // esc while typing a filter

	Filter  key.Binding
	Explain key.Binding
	History key.Binding
	Help    key.Binding
	Quit    key.Binding
}

// DefaultKeyMap is the G-13.2 key set.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		AllowOnce:    key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "allow once")),
		AllowSession: key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "allow session")),
		Deny:         key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "deny")),
		DenyNote:     key.NewBinding(key.WithKeys("N"), key.WithHelp("N", "deny+note")),
		AllowAllOnce: key.NewBinding(key.WithKeys("Y"), key.WithHelp("Y", "allow all once")),
		Amend:        key.NewBinding(key.WithKeys("A"), key.WithHelp("A", "allow+add rule")),

		NextPane: key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next")),
		PrevPane: key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous pane")),
		Up:       key.NewBinding(key.WithKeys("k", "up"), key.WithHelp("↑/k", "up")),
		Down:     key.NewBinding(key.WithKeys("j", "down"), key.WithHelp("↓/j", "down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup", "ctrl+u"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", "ctrl+d"), key.WithHelp("pgdn", "page down")),
		Open:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open")),
		Back:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		Run:      key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "explain")),
		Session:  key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "session")),

		EditLine:    key.NewBinding(key.WithKeys("enter", "e"), key.WithHelp("enter/e", "edit line")),
		KeepFilter:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "keep filter")),
		ClearFilter: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter")),

		Filter:  key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter history")),
		Explain: key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "explain")),
		History: key.NewBinding(key.WithKeys("h"), key.WithHelp("h", "history")),
		Help:    key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit:    key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
	}
}

// setAnswering enables the answering keys exactly when an ask is selected.
func (k *KeyMap) setAnswering(on bool) {
	k.AllowOnce.SetEnabled(on)
	k.AllowSession.SetEnabled(on)
	k.Deny.SetEnabled(on)
	k.DenyNote.SetEnabled(on)
	k.Amend.SetEnabled(on)
}

// shortHelp is the one-line bar for the pane in focus: what matters there
// first, the ways out last.
func (k KeyMap) shortHelp(f focus, transcript, typing bool) []key.Binding {
	switch {
	case f == focusSessions && transcript:
		return []key.Binding{k.Up, k.Down, k.Back, k.NextPane, k.Help, k.Quit}
	case f == focusExplain && typing:
		// q types a q here, so the bar does not offer it.
		return []key.Binding{k.Run, k.Session, k.Back, k.NextPane}
	case f == focusHistory && typing:
		return []key.Binding{k.KeepFilter, k.ClearFilter, k.NextPane}
	}
	switch f {
	case focusQueue, focusDetail:
		// A comes last: on a narrow terminal it is the one left out (? shows it).
		return []key.Binding{k.AllowOnce, k.AllowSession, k.Deny, k.DenyNote, k.NextPane, k.Help, k.Quit, k.Amend}
	case focusSessions:
		return []key.Binding{k.Open, k.AllowAllOnce, k.Up, k.Down, k.NextPane, k.Explain, k.Help, k.Quit}
	case focusHistory:
		return []key.Binding{k.Filter, k.Up, k.Down, k.NextPane, k.Help, k.Quit}
	case focusExplain:
		return []key.Binding{k.EditLine, k.Up, k.Down, k.NextPane, k.Help, k.Quit}
	}
	return []key.Binding{k.Help, k.Quit}
}

// fullHelp is every key, in columns (the `?` screen). It lists the
// answering keys even while they are disabled: the screen teaches the keys.
func (k KeyMap) fullHelp() [][]key.Binding {
	k.setAnswering(true) // k is a copy
	k.AllowAllOnce.SetEnabled(true)
	return [][]key.Binding{
		{k.AllowOnce, k.AllowSession, k.Deny, k.DenyNote, k.AllowAllOnce, k.Amend},
		{k.NextPane, k.PrevPane, k.Up, k.Down, k.PageUp, k.PageDown},
		{k.Open, k.Back, k.Filter, k.Explain, k.History},
		{k.Help, k.Quit},
	}
}
