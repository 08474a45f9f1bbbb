package awk

import "testing"

// TestIsAssignmentOperand: an operand is an assignment when an identifier
// comes before its first "=", as ^[A-Za-z_][A-Za-z0-9_]*= says.
func TestIsAssignmentOperand(t *testing.T) {
	t.Parallel()
	for arg, want := range map[string]bool{
		"x=1": true, "_=": true, "FS=,": true, "a1_b=x=y": true,
		"=x": false, "1a=2": false, "a-b=1": false, "file": false, "": false,
		"./x=1": false, "a b=1": false, "é=1": false,
	} {
		if got := isAssignmentOperand(arg); got != want {
			t.Errorf("isAssignmentOperand(%q) = %v, want %v", arg, got, want)
		}
	}
}
