package browsertest

import (
	"fmt"
	"net/http"
	"strings"
)

// withScript is the static results page with a script at the end of its body.
func withScript(script string) string {
	return strings.Replace(staticResults(), "</body>", "<script>"+script+"</script></body>", 1)
}

// hostilePages are pages that try to make the browser do more than read them:
// save files, open windows, wait on dialogs, leave the site.
func hostilePages(mux *http.ServeMux) {
	html := func(body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, body)
		}
	}
	mux.HandleFunc("/download", html(strings.Replace(withScript(
		`var a = document.createElement('a'); a.href = '/file.txt'; a.download = 'notifio-clicked.txt';
document.body.appendChild(a); a.click();`),
		"</ul>", `</ul><iframe src="/attachment"></iframe>`, 1)))
	mux.HandleFunc("/file.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		fmt.Fprint(w, "a file the page wants saved\n")
	})
	mux.HandleFunc("/attachment", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("Content-Disposition", `attachment; filename="notifio-attached.txt"`)
		fmt.Fprint(w, "an attachment the page wants saved\n")
	})
	mux.HandleFunc("/popups", html(withScript(`for (var i = 0; i < 20; i++) { window.open('/popup?i=' + i); }`)))
	mux.HandleFunc("/popup", html(`<!doctype html><html><body><p>Pop-up</p></body></html>`))
	mux.HandleFunc("/dialogs", html(`<!doctype html><html><head><title>Wohnungen mieten</title></head><body><ul class="results"></ul>
<script>alert('Willkommen!'); confirm('Cookies erlauben?'); prompt('Ihre Stadt?');
var ul = document.querySelector('ul.results');
for (var i = 1; i <= 10; i++) {
  ul.insertAdjacentHTML('beforeend', '<li class="result"><a href="/expose/' + (3000 + i) + '"><h2>Wohnung ' + i + '</h2></a><span class="price">' + (700 + i) + ' €</span></li>');
}</script></body></html>`))
	mux.HandleFunc("/away", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusFound)
	})
	mux.HandleFunc("/script-away", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><html><head><title>Wohnungen</title></head><body><p>Einen Moment</p>
<script>location.href = %q;</script></body></html>`, r.URL.Query().Get("to"))
	})
}
