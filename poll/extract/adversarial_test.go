package extract

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestAdversarialPages: pathological pages finish quickly (no quadratic blow-up).
func TestAdversarialPages(t *testing.T) {
	u, _ := url.Parse("https://www.example.de/suche")
	var deep, wide, digits, nestedCards strings.Builder
	for range 5000 {
		deep.WriteString("<div><span>")
	}
	deep.WriteString(`<a href="/x/12345">a 5 €</a>`)
	for i := range 5000 {
		fmt.Fprintf(&wide, `<li><a href="/expose/%d">Wohnung %d</a> <b>%d €</b></li>`, 10000+i, i, 500+i)
	}
	digits.WriteString(`<ul>`)
	for i := range 3 {
		fmt.Fprintf(&digits, `<li><h3><a href="/expose/%d">W</a></h3>`, 10000+i)
		for j := range 5000 {
			fmt.Fprintf(&digits, "<span>%d</span>", j)
		}
		digits.WriteString("</li>")
	}
	for i := range 2000 {
		fmt.Fprintf(&nestedCards, `<div class="c"><a href="/e/%d">x %d €</a>`, 10000+i, i)
	}
	for _, c := range []struct {
		name string
		body string
	}{{"deep", deep.String()}, {"wide", wide.String()}, {"digits", digits.String()}, {"nested-cards", nestedCards.String()}} {
		for _, opt := range []Options{{}, {NoProfiles: true}} {
			start := time.Now()
			_ = parse([]byte(c.body))
			floor := time.Since(start)
			start = time.Now()
			r, err := ExtractWith([]byte(c.body), u, Selectors{}, opt)
			if err != nil {
				t.Fatal(err)
			}
			// Generous (the race detector and a busy CI machine slow both), but a
			// quadratic walk over these pages would blow far past it.
			if d := time.Since(start); d > 30*floor+2*time.Second {
				t.Errorf("%s: %v for %d bytes (%d listings); parsing alone took %v", c.name, d, len(c.body), len(r.Listings), floor)
			} else {
				t.Logf("%s: %v for %d bytes, %d listings (%s)", c.name, d, len(c.body), len(r.Listings), r.Method)
			}
		}
	}
}
