// Package browsertest is a loopback portal for the browser tests: a results
// page that only JavaScript fills in, a challenge that sets a cookie when its
// button is clicked, and a page that never finishes loading. It logs every
// request, so a test can see that no image was asked for.
package browsertest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// Site is the loopback portal. Paths: /search (10 listings built by a
// script), /guarded (a 403 challenge until the cookie clearance=ok is sent,
// then 10 listings), /solve (sets that cookie), /hang (never finishes).
// Hostile pages, each with the 10 static listings: /download (clicks an
// <a download> and frames an attachment), /popups (opens 20 windows of
// /popup), /dialogs (builds its listings only after alert, confirm and
// prompt return); /away?to=URL answers 302 to URL, /script-away?to=URL sends
// the page there from a script.
type Site struct {
	*httptest.Server
	mu  sync.Mutex
	log []string
}

const shellPage = `<!doctype html><html><head><title>Wohnungen mieten</title>
<link rel="stylesheet" href="/style.css"><script src="/app.js"></script></head>
<body><h1>Wohnungen</h1><img src="/img/logo" alt="logo"><div id="app"></div></body></html>`

const appJS = `document.addEventListener('DOMContentLoaded', function () {
  fetch('/api/listings').then(function (r) { return r.json(); }).then(function (items) {
    var ul = document.createElement('ul'); ul.className = 'results';
    items.forEach(function (it) {
      var li = document.createElement('li'); li.className = 'result';
      li.innerHTML = '<img src="/img/' + it.id + '.jpg"><a href="/expose/' + it.id + '"><h2>' + it.title +
        '</h2></a><span class="price">' + it.price + ' €</span><span class="size">' + it.size + ' m²</span>';
      ul.appendChild(li);
    });
    document.getElementById('app').appendChild(ul);
  });
});`

const styleCSS = `@font-face { font-family: X; src: url(/fonts/x.woff2); } body { font-family: X; background: url(/img/bg.png); }`

const challengePage = `<!doctype html><html><head><title>Ich bin kein Roboter</title></head>
<body><h1>Ich bin kein Roboter</h1><p>Bitte bestätigen Sie, dass Sie ein Mensch sind.</p>
<button id="solve" onclick="fetch('/solve',{method:'POST'}).then(function(){document.body.insertAdjacentHTML('beforeend','<p id=solved>Danke</p>')})">Ich bin ein Mensch</button>
</body></html>`

func listingsJSON() string {
	var b strings.Builder
	b.WriteString("[")
	for i := 1; i <= 10; i++ {
		if i > 1 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id":%d,"title":"Helle %d-Zimmer-Wohnung in Lindenau","price":%d,"size":%d}`, 1000+i, 1+i%4, 600+i*25, 40+i*3)
	}
	b.WriteString("]")
	return b.String()
}

// staticResults is the results page as a server would send it, for the
// challenge's "after" state.
func staticResults() string {
	var b strings.Builder
	b.WriteString(`<!doctype html><html><head><title>Wohnungen mieten</title></head><body><ul class="results">`)
	for i := 1; i <= 10; i++ {
		fmt.Fprintf(&b, `<li class="result"><a href="/expose/%d"><h2>Helle Wohnung Nummer %d</h2></a><span class="price">%d €</span></li>`, 2000+i, i, 700+i*10)
	}
	b.WriteString(`</ul></body></html>`)
	return b.String()
}

// NewSite starts the portal; it stops when the test ends.
func NewSite(t testing.TB) *Site {
	t.Helper()
	s := &Site{}
	hang := make(chan struct{})
	mux := http.NewServeMux()
	mux.HandleFunc("/search", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("X-Portal", "test")
		fmt.Fprint(w, shellPage)
	})
	mux.HandleFunc("/app.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/javascript")
		fmt.Fprint(w, appJS)
	})
	mux.HandleFunc("/style.css", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/css")
		fmt.Fprint(w, styleCSS)
	})
	mux.HandleFunc("/api/listings", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, listingsJSON())
	})
	mux.HandleFunc("/guarded", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if c, err := r.Cookie("clearance"); err == nil && c.Value == "ok" {
			fmt.Fprint(w, staticResults())
			return
		}
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprint(w, challengePage)
	})
	mux.HandleFunc("/solve", func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "clearance", Value: "ok", Path: "/", HttpOnly: true})
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("/hang", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<!doctype html><html><head><title>Wohnungen</title></head><body><p>Einen Moment`)
		w.(http.Flusher).Flush()
		select { // never finishes the page
		case <-r.Context().Done():
		case <-hang:
		}
	})
	hostilePages(mux)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		http.NotFound(w, r) // images, fonts, favicon: must never be asked for
	})
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.log = append(s.log, r.Method+" "+r.URL.Path)
		s.mu.Unlock()
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { close(hang); s.Close() })
	return s
}

// Requests returns the requests so far, as "GET /path".
func (s *Site) Requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.log...)
}
