package faultaround

// Resume gives fault-around back to the executable's code between the
// functions at first and last (their 64 KiB windows included): code a
// command runs densely is cheaper mapped 64 KiB a fault than a page a
// fault. SQLite's is the one: opening the ledger and reading its schema run
// code on two thirds of its 1.9 MB, some 290 pages that would otherwise
// fault one by one. It does nothing when fault-around was not stopped or
// the addresses are not in the executable's code.
func Resume(first, last uintptr) {
	const window = 64 << 10
	start, end := first&^(window-1), (last+window)&^(window-1)
	if !Stopped || first > last || start < textStart || end > textEnd {
		return
	}
	resume(start, end)
}
