package utils

import (
	"regexp"
	"testing"
)

func TestTranslateRegexMatches(t *testing.T) {
	t.Parallel()
	type probe struct {
		text  string
		match bool
	}
	cases := []struct {
		name    string
		pattern string
		dialect RegexDialect
		probes  []probe
	}{
		{"bre literal parens", "f(x)", BasicRegex, []probe{{"f(x)", true}, {"fx", false}}},
		{"bre group and interval", `\(ab\)\{2\}`, BasicRegex, []probe{{"abab", true}, {"ab", false}}},
		{"bre plus and question", `ab\+c\?$`, BasicRegex, []probe{{"abbb", true}, {"abbc", true}, {"ac", false}}},
		{"bre bare plus is literal", "a+b", BasicRegex, []probe{{"a+b", true}, {"aab", false}}},
		{"bre alternation", `cat\|dog`, BasicRegex, []probe{{"hotdog", true}, {"bird", false}}},
		{"bre bare pipe is literal", "a|b", BasicRegex, []probe{{"a|b", true}, {"a", false}}},
		{"bre leading star is literal", "*a", BasicRegex, []probe{{"*a", true}, {"a", false}}},
		{"bre caret inside is literal", "a^b", BasicRegex, []probe{{"a^b", true}, {"ab", false}}},
		{"bre dollar inside is literal", "a$b", BasicRegex, []probe{{"a$b", true}}},
		{"bre anchors", "^ab$", BasicRegex, []probe{{"ab", true}, {"xab", false}}},
		{"bre brace is literal", "a{2}", BasicRegex, []probe{{"a{2}", true}, {"aa", false}}},
		{"ere operators", "^(ab|cd)+e?$", ExtendedRegex, []probe{{"abcd", true}, {"abcde", true}, {"abx", false}}},
		{"ere interval", "^a{2,3}$", ExtendedRegex, []probe{{"aa", true}, {"aaaa", false}}},
		{"ere open interval", "^a{,2}$", ExtendedRegex, []probe{{"", true}, {"aaa", false}}},
		{"ere stray brace is literal", "a{x", ExtendedRegex, []probe{{"a{x", true}}},
		{"ere escaped paren is literal", `\(a\)`, ExtendedRegex, []probe{{"(a)", true}, {"a", false}}},
		{"posix class", "^[[:digit:]]+$", ExtendedRegex, []probe{{"123", true}, {"12a", false}}},
		{"negated class with bracket", "[^]a]", BasicRegex, []probe{{"]", false}, {"b", true}}},
		{"bracket keeps backslash", `[\]`, BasicRegex, []probe{{`\`, true}, {"x", false}}},
		{"range", "^[a-c-]*$", ExtendedRegex, []probe{{"ab-c", true}, {"abd", false}}},
		{"dot", "a.c", BasicRegex, []probe{{"abc", true}, {"ac", false}}},
		{"word escapes", `\bfoo\w*`, BasicRegex, []probe{{"a foobar", true}, {"afoo", false}}},
		{"word edges", `\<is\>`, BasicRegex, []probe{{"this is it", true}, {"this", false}}},
		{"double star", "a**b", BasicRegex, []probe{{"aab", true}, {"b", true}}},
		{"star then interval", `a*\{2\}b`, BasicRegex, []probe{{"b", true}}},
		{"emacs plus", "a+b?", EmacsRegex, []probe{{"aa", true}, {"b", false}}},
		{"escaped dot", `a\.b`, BasicRegex, []probe{{"a.b", true}, {"axb", false}}},
		{"star after group start", `\(*a\)`, BasicRegex, []probe{{"*a", true}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			src, err := TranslateRegex(c.pattern, RegexOptions{Dialect: c.dialect})
			if err != nil {
				t.Fatalf("translate %q: %v", c.pattern, err)
			}
			re, err := regexp.Compile(src)
			if err != nil {
				t.Fatalf("compile %q (from %q): %v", src, c.pattern, err)
			}
			for _, p := range c.probes {
				if got := re.MatchString(p.text); got != p.match {
					t.Errorf("%q (as %q) on %q = %v, want %v", c.pattern, src, p.text, got, p.match)
				}
			}
		})
	}
}

func TestTranslateRegexErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		pattern string
		dialect RegexDialect
		want    string
	}{
		{`\(a`, BasicRegex, `Unmatched ( or \(`},
		{`a\)`, BasicRegex, `Unmatched ) or \)`},
		{"(a", ExtendedRegex, `Unmatched ( or \(`},
		{"[a", BasicRegex, "Unmatched [, [^, [:, [., or [="},
		{"a[", BasicRegex, "Invalid regular expression"},
		{"[^", ExtendedRegex, "Invalid regular expression"},
		{"[[:foo:]]", BasicRegex, "Invalid character class name"},
		{"[:space:]", BasicRegex, "character class syntax is [[:space:]], not [:space:]"},
		{`\(a\)\1`, BasicRegex, "backreferences are not supported"},
		{`(a)\1`, ExtendedRegex, "backreferences are not supported"},
		{`a\`, BasicRegex, "Trailing backslash"},
		{"[z-a]", BasicRegex, "Invalid range end"},
		{`a\{1`, BasicRegex, `Unmatched \{`},
		{`a\{2,1\}`, BasicRegex, `Invalid content of \{\}`},
		{`\{1\}`, BasicRegex, "Invalid preceding regular expression"},
	}
	for _, c := range cases {
		t.Run(c.pattern, func(t *testing.T) {
			t.Parallel()
			_, err := TranslateRegex(c.pattern, RegexOptions{Dialect: c.dialect})
			if err == nil || err.Error() != c.want {
				t.Errorf("error = %v, want %q", err, c.want)
			}
		})
	}
}

func TestTranslateRegexKeepsGroupNumbers(t *testing.T) {
	t.Parallel()
	src, err := TranslateRegex(`\(a*\)*\(b\)`, RegexOptions{Dialect: BasicRegex})
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(src)
	if re.NumSubexp() != 2 {
		t.Fatalf("%q has %d groups, want 2", src, re.NumSubexp())
	}
	if m := re.FindStringSubmatch("aab"); m == nil || m[2] != "b" {
		t.Errorf("submatches of %q = %q", src, m)
	}
}

func TestTranslateRegexCEscapes(t *testing.T) {
	t.Parallel()
	src, err := TranslateRegex(`a\nb\tc`, RegexOptions{CEscapes: true})
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(src).MatchString("a\nb\tc") {
		t.Errorf("%q does not match a newline and a tab", src)
	}
}

func TestFnmatch(t *testing.T) {
	t.Parallel()
	cases := []struct {
		pattern, name string
		flags         fnmatchFlags
		want          bool
	}{
		{"*.go", "main.go", fnmatchFlags{}, true},
		{"*.go", ".hidden.go", fnmatchFlags{}, true},
		{"*.go", "a/b.go", fnmatchFlags{}, true},
		{"*.go", "a/b.go", fnmatchFlags{pathname: true}, false},
		{"?", "ab", fnmatchFlags{}, false},
		{"[!a]x", "bx", fnmatchFlags{}, true},
		{"[^a]x", "ax", fnmatchFlags{}, false},
		{"[[:digit:]]*", "9lives", fnmatchFlags{}, true},
		{`\*`, "*", fnmatchFlags{}, true},
		{`\*`, "a", fnmatchFlags{}, false},
		{"[a", "[a", fnmatchFlags{}, true},
		{"README*", "readme.md", fnmatchFlags{casefold: true}, true},
		{"*a*b*c", "xaxbxxc", fnmatchFlags{}, true},
		{"*a*b*c", "xaxcxb", fnmatchFlags{}, false},
	}
	for _, c := range cases {
		t.Run(c.pattern+" "+c.name, func(t *testing.T) {
			t.Parallel()
			if got := fnmatch(c.pattern, c.name, c.flags); got != c.want {
				t.Errorf("fnmatch(%q, %q) = %v, want %v", c.pattern, c.name, got, c.want)
			}
		})
	}
}

func TestShellQuote(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, always, needed string }{
		{"plain.txt", "'plain.txt'", "plain.txt"},
		{"a b", "'a b'", "'a b'"},
		{"it's", `"it's"`, `"it's"`},
		{"a$b", "'a$b'", "'a$b'"},
		{"x'$", `'x'\''$'`, `'x'\''$'`},
		{"new\nline", `'new'$'\n''line'`, `'new'$'\n''line'`},
		{"", "''", "''"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if got := quoteAlways(c.name); got != c.always {
				t.Errorf("quoteAlways(%q) = %s, want %s", c.name, got, c.always)
			}
			if got := quoteIfNeeded(c.name); got != c.needed {
				t.Errorf("quoteIfNeeded(%q) = %s, want %s", c.name, got, c.needed)
			}
		})
	}
}
