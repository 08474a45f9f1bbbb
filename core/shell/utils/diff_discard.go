package utils

// Before searching, GNU diff sets aside lines that cannot be part of a
// good match: a line with no equal in the other file is certainly a
// change, and a line with very many equals there (blank lines, lone
// braces) is set aside too when it sits among such certain changes.
// This changes which of several equally short scripts the search finds,
// so it is repeated here to find the same one.

// Discard kinds of one line.
const (
	keepLine        = 0
	discardLine     = 1 // no equal in the other file
	provisionalLine = 2 // too many equals in the other file
)

// diffDiscards returns the indexes of a and b that take part in the
// search.
func diffDiscards(a, b []int) (keepA, keepB []int) {
	counts := [2]map[int]int{{}, {}}
	for _, id := range a {
		counts[0][id]++
	}
	for _, id := range b {
		counts[1][id]++
	}
	files := [2][]int{a, b}
	var kept [2][]int
	for f := 0; f < 2; f++ {
		lines := files[f]
		marks := make([]byte, len(lines))
		many := 5
		for tem := len(lines) / 64; ; many *= 2 {
			if tem >>= 2; tem <= 0 {
				break
			}
		}
		for i, id := range lines {
			switch n := counts[1-f][id]; {
			case n == 0:
				marks[i] = discardLine
			case n > many:
				marks[i] = provisionalLine
			}
		}
		settleProvisional(marks)
		for i, k := range marks {
			if k == keepLine {
				kept[f] = append(kept[f], i)
			}
		}
	}
	return kept[0], kept[1]
}

// settleProvisional keeps a provisional line unless it lies inside a run
// of set-aside lines that starts and ends with certain ones, and even
// then keeps runs of provisional lines too long to be noise, and those
// near the run's ends.
func settleProvisional(marks []byte) {
	for i := 0; i < len(marks); i++ {
		switch marks[i] {
		case keepLine:
			continue
		case provisionalLine:
			marks[i] = keepLine
			continue
		}
		j, provisional := i, 0
		for ; j < len(marks) && marks[j] != keepLine; j++ {
			if marks[j] == provisionalLine {
				provisional++
			}
		}
		for j > i && marks[j-1] == provisionalLine {
			j--
			marks[j] = keepLine
			provisional--
		}
		length := j - i
		if provisional*4 > length {
			for k := i; k < j; k++ {
				if marks[k] == provisionalLine {
					marks[k] = keepLine
				}
			}
		} else {
			settleRun(marks[i:j])
		}
		i = j - 1
	}
}

// settleRun applies the limits inside one run (first and last lines
// certain): long stretches of provisional lines stay, and provisional
// lines before three certain ones in a row (or the eighth line) at either
// end stay.
func settleRun(run []byte) {
	length := len(run)
	minimum := 1
	for tem := length >> 2; ; minimum <<= 1 {
		if tem >>= 2; tem <= 0 {
			break
		}
	}
	minimum++
	for j, consec := 0, 0; j < length; j++ {
		switch {
		case run[j] != provisionalLine:
			consec = 0
		default:
			consec++
			if consec == minimum {
				j -= consec // go back and keep the whole stretch
			} else if consec > minimum {
				run[j] = keepLine
			}
		}
	}
	edge := func(at func(int) int) {
		for j, consec := 0, 0; j < length; j++ {
			k := at(j)
			if j >= 8 && run[k] == discardLine {
				return
			}
			switch run[k] {
			case provisionalLine:
				consec = 0
				run[k] = keepLine
			case keepLine:
				consec = 0
			default:
				consec++
			}
			if consec == 3 {
				return
			}
		}
	}
	edge(func(j int) int { return j })
	edge(func(j int) int { return length - 1 - j })
}
