package tui

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"gatehouse/core"
	"gatehouse/core/decisions"
)

// board is what the console knows, kept up to date from the ledger's and
// the workspace's event streams. The root owns it; panes read it.
type board struct {
	pending   []decisions.Record // the queue, oldest first
	queued    map[string]bool    // ids in pending, so a new ask costs no scan
	bySession map[string]int     // pending asks per session
	bySame    map[string]int     // pending asks per sameKey
	// history is the answered and closed asks, oldest first (appending
	// is cheap; the History page reads it newest first through
	// historyAt); historyIndex finds one by id, so filing a record never
	// scans the history and opening on a ledger of ten thousand decisions
	// takes milliseconds, not minutes.
	history      []decisions.Record
	historyIndex map[string]int
	settled      map[string]bool             // ids in history that were answered
	decided      map[string]decisions.Record // answered and closed asks by id
	// version counts changes to the queue, and historyVersion to the
	// history, so views computed from them (a filter's matches) know
	// when to compute again.
	version, historyVersion int
	// search holds each record's text a filter reads, lower-cased once
	// (see matches); filing a record drops its entry.
	search map[string]*searchFields
	// pendingText and historyText are search's entries in the queue's and
	// the history's order, for the version they were built for, so a
	// filter's key reads them without a map look-up per record.
	pendingText, historyText   []*searchFields
	pendingTextV, historyTextV int
	sessions                   []sessionInfo
	lines                      map[string]*transcript // by session id
	recent                     []activity             // the newest lines of every session, newest last
}

// activity is one line some agent ran, for the feed the Asks page shows
// while no ask is selected.
type activity struct {
	Agent, Line string
	Done        bool
	Exit        int
	Refused     string // the refusal's kind, if any
}

// recentLimit is how many lines the activity feed keeps.
const recentLimit = 100

// sessionInfo is one row of the Sessions pane.
type sessionInfo struct {
	ID, Agent, Profile, State, Cwd string
}

// transcriptLimit bounds what the console keeps of one session's lines;
// older ones are dropped first.
const transcriptLimit = 500

// transcript is what one session ran, as the workspace reported it.
type transcript struct {
	entries []transcriptEntry
}

type transcriptEntry struct {
	Line    string
	Started time.Time
	Waiting string   // ask id while the line waits for an answer
	Asked   []string // every ask the line waited on, for the answers' words
	Done    bool
	Result  core.Result
}

func newBoard() *board {
	return &board{queued: map[string]bool{}, bySession: map[string]int{}, bySame: map[string]int{},
		historyIndex: map[string]int{}, settled: map[string]bool{}, decided: map[string]decisions.Record{},
		search: map[string]*searchFields{}, lines: map[string]*transcript{}}
}

// indexOf finds a pending ask by id.
func (b *board) indexOf(id string) int {
	if !b.queued[id] {
		return -1
	}
	for i := range b.pending {
		if b.pending[i].ID == id {
			return i
		}
	}
	return -1
}

// apply files one ledger record where its state says it belongs and
// reports whether it is an ask the queue did not hold before. Records can
// arrive more than once (the initial load and the stream overlap), so
// applying is idempotent, and an ask already answered never returns to the
// queue.
func (b *board) apply(r decisions.Record) (added bool) {
	if b.settled[r.ID] {
		return false
	}
	i := b.indexOf(r.ID)
	delete(b.search, r.ID)
	if r.Pending() && r.Closed == "" {
		if i >= 0 {
			b.bySame[sameKey(b.pending[i])]--
			b.pending[i] = r
			b.bySame[sameKey(r)]++
			b.version++
			return false
		}
		b.dropHistory(r.ID) // a closed ask raised again comes back
		delete(b.decided, r.ID)
		b.insertPending(r)
		return true
	}
	if i >= 0 {
		b.removePending(i)
	}
	b.dropHistory(r.ID)
	b.historyIndex[r.ID] = len(b.history)
	b.history = append(b.history, r)
	b.historyVersion++
	b.decided[r.ID] = r
	if !r.Pending() {
		b.settled[r.ID] = true
	}
	return false
}

// insertPending keeps the queue oldest first; new asks are nearly always
// the newest, so the search starts from the end.
func (b *board) insertPending(r decisions.Record) {
	i := len(b.pending)
	for i > 0 && b.pending[i-1].CreatedAt.After(r.CreatedAt) {
		i--
	}
	b.pending = append(b.pending, decisions.Record{})
	copy(b.pending[i+1:], b.pending[i:])
	b.pending[i] = r
	b.queued[r.ID] = true
	b.bySession[r.SessionID]++
	b.bySame[sameKey(r)]++
	b.version++
}

func (b *board) removePending(i int) {
	r := b.pending[i]
	delete(b.queued, r.ID)
	b.pending = append(b.pending[:i], b.pending[i+1:]...)
	if b.bySession[r.SessionID]--; b.bySession[r.SessionID] <= 0 {
		delete(b.bySession, r.SessionID)
	}
	if k := sameKey(r); b.bySame[k] <= 1 {
		delete(b.bySame, k)
	} else {
		b.bySame[k]--
	}
	b.version++
}

// sameKey is what makes two pending asks the same question for a batch
// answer (Y, D): the line and the place in it, and every fact the record
// shows there (command, argv, directory, paths, rules and the digest of
// the resolved facts), whichever session or agent raised it.
func sameKey(r decisions.Record) string {
	var b strings.Builder
	for _, part := range []string{r.Line, r.Place, r.Command, strings.Join(r.Argv, "\x00"), r.Cwd, strings.Join(r.Paths, "\x00"), r.Facts} {
		b.WriteString(part)
		b.WriteByte(0x1f)
	}
	for _, rule := range r.Rules {
		fmt.Fprintf(&b, "%s\x00%s\x00%s\x00%s\x1e", rule.Rule, rule.Policy, rule.Reason, strings.Join(rule.Paths, "\x00"))
	}
	return b.String()
}

// sameCount is how many pending asks are the same question as r (r
// included, when it is pending).
func (b *board) sameCount(r decisions.Record) int { return b.bySame[sameKey(r)] }

// sameAs lists the pending asks that are the same question as r, oldest
// first.
func (b *board) sameAs(r decisions.Record) []decisions.Record {
	k := sameKey(r)
	var out []decisions.Record
	for _, p := range b.pending {
		if sameKey(p) == k {
			out = append(out, p)
		}
	}
	return out
}

// pendingIDs is a copy of the queue's ids, for a re-read of the ledger to
// compare against off the UI goroutine.
func (b *board) pendingIDs() []string {
	ids := make([]string, len(b.pending))
	for i, r := range b.pending {
		ids[i] = r.ID
	}
	return ids
}

// dropHistory takes a record out of the history (it was raised again, or
// filed anew). That is rare; the usual record is not there and costs a
// map look-up.
func (b *board) dropHistory(id string) {
	i, ok := b.historyIndex[id]
	if !ok {
		return
	}
	delete(b.historyIndex, id)
	b.history = append(b.history[:i], b.history[i+1:]...)
	for j := i; j < len(b.history); j++ {
		b.historyIndex[b.history[j].ID] = j
	}
	b.historyVersion++
}

// historyAt is the i-th decision, newest first.
func (b *board) historyAt(i int) decisions.Record { return b.history[len(b.history)-1-i] }

// searchOf is the text of r a filter reads, lower-cased once.
func (b *board) searchOf(r decisions.Record) *searchFields {
	hay, ok := b.search[r.ID]
	if !ok {
		hay = searchText(r)
		b.search[r.ID] = hay
	}
	return hay
}

// pendingSearch is the search text of the i-th pending ask.
func (b *board) pendingSearch(i int) *searchFields {
	return b.inOrder(&b.pendingText, &b.pendingTextV, b.version, len(b.pending), i, func() decisions.Record { return b.pending[i] })
}

// historySearch is the search text of the i-th decision, newest first.
func (b *board) historySearch(i int) *searchFields {
	return b.inOrder(&b.historyText, &b.historyTextV, b.historyVersion, len(b.history), i, func() decisions.Record { return b.historyAt(i) })
}

// inOrder reads a list of n records' search text by position, the list
// (*texts) made again when its version moved on since *at.
func (b *board) inOrder(texts *[]*searchFields, at *int, version, n, i int, rec func() decisions.Record) *searchFields {
	if *at != version || len(*texts) != n {
		*texts, *at = make([]*searchFields, n), version
	}
	if f := (*texts)[i]; f != nil {
		return f
	}
	f := b.searchOf(rec())
	(*texts)[i] = f
	return f
}

// load replaces the board's asks with the ledger's: every record, oldest
// first, as List returns them.
func (b *board) load(all []decisions.Record) {
	for _, r := range all {
		b.apply(r)
	}
}

// pendingOf lists one session's pending asks, oldest first.
func (b *board) pendingOf(sessionID string) []decisions.Record {
	var out []decisions.Record
	for _, r := range b.pending {
		if r.SessionID == sessionID {
			out = append(out, r)
		}
	}
	return out
}

// refreshSessions reads the live sessions and their states.
func (b *board) refreshSessions(ws *core.Workspace) {
	live := ws.Sessions()
	out := make([]sessionInfo, 0, len(live))
	for _, s := range live {
		out = append(out, sessionInfo{ID: s.ID(), Agent: s.AgentID(), Profile: s.ProfileName(), State: s.State(), Cwd: s.Cwd()})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Agent < out[j].Agent })
	b.sessions = out
}

// running counts sessions by state.
func (b *board) count(state string) int {
	n := 0
	for _, s := range b.sessions {
		if s.State == state {
			n++
		}
	}
	return n
}

// record adds a workspace event to its session's transcript.
func (b *board) record(ev core.Event) {
	t := b.lines[ev.SessionID]
	if t == nil {
		t = &transcript{}
		b.lines[ev.SessionID] = t
	}
	switch ev.Kind {
	case core.EventLineStart:
		t.entries = append(t.entries, transcriptEntry{Line: ev.Line, Started: ev.At})
		if len(t.entries) > transcriptLimit {
			t.entries = append([]transcriptEntry(nil), t.entries[len(t.entries)-transcriptLimit:]...)
		}
	case core.EventWaiting:
		if e := t.open(ev.Line); e != nil {
			e.Waiting = ev.AskID
			if ev.AskID != "" && !slices.Contains(e.Asked, ev.AskID) {
				e.Asked = append(e.Asked, ev.AskID)
			}
		}
	case core.EventLineEnd:
		if e := t.open(ev.Line); e != nil && ev.Result != nil {
			e.Done, e.Waiting, e.Result = true, "", *ev.Result
		}
	}
	b.noteActivity(ev)
}

// noteActivity adds a line's start to the feed and marks its end.
func (b *board) noteActivity(ev core.Event) {
	switch ev.Kind {
	case core.EventLineStart:
		b.recent = append(b.recent, activity{Agent: ev.AgentID, Line: ev.Line})
		if len(b.recent) > recentLimit {
			b.recent = append([]activity(nil), b.recent[len(b.recent)-recentLimit:]...)
		}
	case core.EventLineEnd:
		for i := len(b.recent) - 1; i >= 0; i-- {
			if a := &b.recent[i]; !a.Done && a.Agent == ev.AgentID && a.Line == ev.Line && ev.Result != nil {
				a.Done, a.Exit = true, ev.Result.ExitCode
				if ev.Result.Refusal != nil {
					a.Refused = ev.Result.Refusal.Kind
				}
				break
			}
		}
	}
}

// open is the newest unfinished entry for line.
func (t *transcript) open(line string) *transcriptEntry {
	for i := len(t.entries) - 1; i >= 0; i-- {
		if e := &t.entries[i]; !e.Done && e.Line == line {
			return e
		}
	}
	return nil
}
