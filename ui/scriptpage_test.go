package ui

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
)

// Issue 37, item 7: a page that shows its listings only with JavaScript gets
// one wording in Test (it said "did not look like results", twice, beside
// what the browser found). Needs a browser (Debian's chromium).
func TestRealAScriptOnlyPageGetsOneWording(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, `<!doctype html><html><head><title>Wohnungen | JS Portal</title></head><body><div id="app"></div><script>document.getElementById('app').innerHTML='<ul class="r">'+[1,2,3].map(i=>'<li class="item"><a href="/w/'+i+'"><h2>Wohnung '+i+' mit Balkon</h2></a><span class="price">'+(900+i)+' €</span></li>').join('')+'</ul>'</script></body></html>`)
	}))
	defer site.Close()
	h := newRealHarness(t)
	v := h.view()
	test.Tap(h.u.searches.emptyAdd)
	e := h.u.searches.editor
	test.Type(e.url, site.URL+"/wohnungen")
	test.Tap(e.testBtn)
	h.q.runNext(t)
	if h.svc.BrowserAvailable() != nil {
		t.Skip("no browser installed")
	}
	got := strings.Join(v.overlayTexts(), "\n")
	if !strings.Contains(e.outcome.Text, "only with JavaScript") || strings.Contains(got, "did not look like results") {
		t.Errorf("the test says %q; the dialog:\n%s", e.outcome.Text, got)
	}
	if !strings.Contains(got, "read with a browser it found 3 listings") {
		t.Errorf("the dialog does not say what the browser found:\n%s", got)
	}
}
