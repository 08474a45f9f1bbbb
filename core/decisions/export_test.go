package decisions

// Waiters reports how many Wait calls are registered on ask id and not yet
// released. Tests use it to answer only once a waiter is in place, and to
// see that an in-process answer released its waiters before it returned,
// without sleeping.
func (l *Ledger) Waiters(id string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.waiters[id])
}
