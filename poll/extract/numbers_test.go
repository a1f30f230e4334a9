package extract

import (
	"regexp/syntax"
	"testing"
)

// The price pattern stays within what Go's regexp runs with its backtracker
// (at most 500 instructions; over it the slower NFA runs on every text with
// a currency in it).
func TestPricePatternFitsTheBacktracker(t *testing.T) {
	re, err := syntax.Parse(rePrice.String(), syntax.Perl)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("rePrice: %d instructions", len(prog.Inst))
	if len(prog.Inst) > 500 {
		t.Errorf("rePrice compiles to %d instructions, over the backtracker's 500", len(prog.Inst))
	}
}
