package javascript

import "testing"

// jsonNesting counts brackets outside strings only.
func TestJSONNesting(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]int{
		`1`: 0, `[]`: 1, `[[],{"a":[1]}]`: 3, `"[[["`: 0, `["\"[[[", {}]`: 2, `{"a\\":"[["}`: 1,
	} {
		if got := jsonNesting(text); got != want {
			t.Errorf("jsonNesting(%s) = %d, want %d", text, got, want)
		}
	}
}
