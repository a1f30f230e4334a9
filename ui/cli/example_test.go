package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// notifio extract --example prints the selectors that read the list around
// the listing the user showed, and the listings they find; without it, the
// page's other lists are offered (here the similar offers beside the one result).
func TestExtractByExample(t *testing.T) {
	page := filepath.Join("..", "..", "testdata", "extract", "rules", "similar-1.html")
	const u = "https://www.koeln-wohnen.de/suche/lindenthal"
	code, out, errOut := run(t, t.TempDir(), "extract", "--url", u, "--example", "Helle Wohnung am Decksteiner Weiher", page)
	if code != 0 || !strings.Contains(out, "--item '") || !strings.Contains(out, "1 listing (method selectors)") || !strings.Contains(out, "Helle Wohnung am Decksteiner Weiher") {
		t.Errorf("extract --example: exit %d\n%s\n%s", code, out, errOut)
	}
	code, out, _ = run(t, t.TempDir(), "extract", "--url", u, "--example", "Nirgendwo", page)
	if code == 0 || strings.Contains(out, "--item") {
		t.Errorf("an example that is not on the page: exit %d\n%s", code, out)
	}
	code, out, errOut = run(t, t.TempDir(), "extract", "--url", u, page)
	if code != 0 || !strings.Contains(out, "Other lists on this page") || !strings.Contains(out, `5 items like "Wohnung in Sülz 0 · 900 €"`) {
		t.Errorf("extract: exit %d\n%s\n%s", code, out, errOut)
	}
}
