package extract

import (
	"fmt"
	"strings"
	"testing"

	"notifio/internal/model"
)

// hostilePages are pages made to hurt: nesting past the HTML5 parser's limit,
// thousands of cards, cards full of digits, listings past the cap.
func hostilePages() map[string]string {
	var deep, wide, digits, many strings.Builder
	for range 5000 {
		deep.WriteString("<div><span>")
	}
	deep.WriteString(`<ul><li><a href="/x/12345"><img src="/a.jpg">Wohnung am See</a> 500 €</li><li><a href="/x/12346"><img src="/b.jpg">Haus am Wald</a> 700 €</li></ul>`)
	for i := range 5000 {
		fmt.Fprintf(&wide, `<li><a href="/expose/%d">Wohnung %d</a> <b>%d €</b></li>`, 10000+i, i, 500+i)
	}
	digits.WriteString(`<ul>`)
	for i := range 3 {
		fmt.Fprintf(&digits, `<li><h3><a href="/expose/%d">Wohnung</a></h3>`, 10000+i)
		for j := range 3000 {
			fmt.Fprintf(&digits, "<span>%d €</span>", j)
		}
		digits.WriteString("</li>")
	}
	many.WriteString(`<ul>`)
	for i := range MaxListings + 500 {
		fmt.Fprintf(&many, `<li><a href="/expose/%d"><img src="/i.jpg"><h3>Wohnung %d</h3></a><p>%d €</p></li>`, 100000+i, i, 400+i%900)
	}
	return map[string]string{"deep": deep.String(), "wide": wide.String(), "digits": digits.String(), "many": many.String()}
}

// TestHostilePages: such pages give their listings, at most MaxListings with a
// note saying the page was cut. (How long they take: BenchmarkHostile.)
func TestHostilePages(t *testing.T) {
	pages := hostilePages()
	for name, want := range map[string]int{"deep": 2, "wide": MaxListings, "digits": 3, "many": MaxListings} {
		r, err := Extract([]byte(pages[name]), mustURL("https://www.example.de/suche"), model.PageSelectors{})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Listings) != want {
			t.Errorf("%s: %d listings (%s), want %d", name, len(r.Listings), r.Method, want)
		}
		if cut := strings.Contains(r.Note, "only the first"); cut != (want == MaxListings) {
			t.Errorf("%s: note %q", name, r.Note)
		}
	}
}

// BenchmarkHostile reports time and memory on the hostile pages.
func BenchmarkHostile(b *testing.B) {
	for name, body := range hostilePages() {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				_, _ = Extract([]byte(body), mustURL("https://www.example.de/suche"), model.PageSelectors{})
			}
		})
	}
}

// TestTextIsSafeToPrint: page text never carries control characters
// (terminal escapes raw or as &#27;), in any field a listing has.
func TestTextIsSafeToPrint(t *testing.T) {
	page := "<ul>" + strings.Repeat(`<li><a href="/expose/1001"><h3>Wohnung &#27;]0;pwned&#7;&#27;[2J am Park`+"\x1b[31m"+`</h3></a><p class="location">Mitte&#27;[H</p><p>500 €</p></li>`, 1) +
		`<li><a href="/expose/1002"><h3>Zweite` + "\u009b" + `31m Wohnung</h3></a><p>600 €</p></li></ul>`
	r, err := Extract([]byte(page), mustURL("https://www.example.de/suche"), model.PageSelectors{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Listings) != 2 {
		t.Fatalf("%d listings", len(r.Listings))
	}
	for _, l := range r.Listings {
		for _, s := range []string{l.ID, l.Title, l.Price, l.Location, l.Size, l.Rooms} {
			for _, c := range s {
				if c < 0x20 || c == 0x7f || c >= 0x80 && c < 0xa0 {
					t.Errorf("control character %U in %q", c, s)
				}
			}
		}
	}
	if r.Listings[0].Title != "Wohnung ]0;pwned[2J am Park[31m" {
		t.Errorf("title %q", r.Listings[0].Title)
	}
}

// Text that was UTF-8, read as Windows-1252 and written again, is repaired
// when all of it reads back; correct text, and text with characters
// Windows-1252 has not, is left as it is.
func TestCleanRepairsMojibake(t *testing.T) {
	for in, want := range map[string]string{
		"Wohnung am MÃ¼hlenteich": "Wohnung am Mühlenteich",
		"â‚¬1,250":                "€1,250",
		"GroÃŸe Altbauwohnung":    "Große Altbauwohnung",
		"München, Straße":         "München, Straße",
		"MÃ¼nchen – 3 Zimmer ✓":   "MÃ¼nchen – 3 Zimmer ✓",
	} {
		if got := clean(in); got != want {
			t.Errorf("clean(%q) = %q, want %q", in, got, want)
		}
	}
}
