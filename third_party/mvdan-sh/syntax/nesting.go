// Added to this copy by gatehouse (see PATCHES.md); under the same licence.

package syntax

import "fmt"

// DefaultMaxNesting is how deep a [Parser] lets a program nest by default:
// subshells, blocks, compound commands, substitutions, parameter expansions,
// arithmetic and test expressions, and chains of pipes, && and || or elif
// (which build trees as deep as they are long), all count one level each.
//
// Every consumer of a syntax tree (printers, walkers, the expander, the
// interpreter) recurses on its depth, so a bound keeps a hostile program
// from exhausting the goroutine stack, which Go cannot recover from.
const DefaultMaxNesting = 1000

// MaxNesting sets how deeply a program may nest before parsing stops with a
// [NestingError]. Zero means [DefaultMaxNesting]; there is no way to parse
// without a bound.
func MaxNesting(n int) ParserOption {
	return func(p *Parser) { p.maxNesting = n }
}

// NestingError is returned when a program nests deeper than the parser's
// limit; see [MaxNesting].
type NestingError struct {
	Filename string
	Pos      Pos
	Limit    int
}

func (e NestingError) Error() string {
	if e.Filename == "" {
		return fmt.Sprintf("%s: nesting too deep (limit %d)", e.Pos, e.Limit)
	}
	return fmt.Sprintf("%s:%s: nesting too deep (limit %d)", e.Filename, e.Pos, e.Limit)
}

func (p *Parser) nestingLimit() int {
	if p.maxNesting > 0 {
		return p.maxNesting
	}
	return DefaultMaxNesting
}

// nestIn records that parsing went one level deeper into the tree being
// built. Past the limit it stops the parse, so no caller recurses further;
// every nestIn is paired with a [Parser.nestOut].
func (p *Parser) nestIn() {
	p.nesting++
	if p.nesting > p.nestingLimit() && p.err == nil {
		p.errPass(NestingError{Filename: p.f.Name, Pos: p.pos, Limit: p.nestingLimit()})
	}
}

func (p *Parser) nestOut() { p.nesting-- }
